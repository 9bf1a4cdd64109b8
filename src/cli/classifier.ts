/**
 * `wisp classifier list|train|use|remove|measure`: the risk classifier's
 * versions and measurements. Each subcommand's work is in its own file
 * (classifier_measure.ts, classifier_train.ts, classifier_versions.ts),
 * loaded only when it runs.
 */
import { load } from "./lazy.ts";
import type { Command } from "commander";
import type { MeasureFlags } from "./classifier_measure.ts";
import type { TrainFlags } from "./classifier_train.ts";

type Versions = typeof import("./classifier_versions.ts");
const versions = () => load<Versions>(import.meta.resolve("./classifier_versions.ts"));

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Add `wisp classifier` and its subcommands to the command tree. */
export function register(program: Command): void {
  const classifier = program
    .command("classifier")
    .description("list, train, choose and measure the risk classifier beside the rules");
  classifier
    .command("list")
    .description(
      "the trained classifier's versions, * on the one in use, with source and latest measurement",
    )
    .option("--json", "one JSON object with every version")
    .action(async (flags: { json?: boolean }) => (await versions()).list(flags));
  classifier
    .command("train")
    .description(
      "train a new version from labelled lines (label<TAB>command line) and, with --from-audit, your answers",
    )
    .option("--examples <file>", "the labelled lines (default: the set wisp ships)")
    .option("--from-audit", "add the commands you approved or refused in the audit log")
    .option("--exclude <file>", "leave out lines in this labelled file (repeatable)", collect)
    .option("--use", "put the new version in use from the next session")
    .action(async (flags: TrainFlags) => {
      const { train } = await load<typeof import("./classifier_train.ts")>(
        import.meta.resolve("./classifier_train.ts"),
      );
      await train(flags);
    });
  classifier
    .command("use")
    .description("use a trained version (approval.classifier coreml) from the next session")
    .argument("<version>", "risk@X.Y.Z-default or risk@X.Y.Z-local.<n>")
    .action(async (version: string) => (await versions()).use(version));
  classifier
    .command("remove")
    .description("delete a version trained here (not the default, not the one in use)")
    .argument("<version>", "risk@X.Y.Z-local.<n>")
    .action(async (version: string) => (await versions()).remove(version));
  classifier
    .command("measure")
    .description(
      "rate labelled command lines (label<TAB>line) with the rules and a classifier; exact, over, under",
    )
    .argument("[version]", "a trained version to measure (risk@…); recorded in its manifest")
    .option("--examples <file>", "the labelled lines (default: the set wisp ships)")
    .option(
      "--classifier <name>",
      "rules, coreml (trained; also: trained), model (routing.tasks.classifier) or system-model",
    )
    .option("--coreml-model <file>", "measure a trained weights file (weights.json) instead")
    .option("--json", "one JSON object per line: label, verdict, command, reasons")
    .action(async (version: string | undefined, flags: MeasureFlags) => {
      const { measure } = await load<typeof import("./classifier_measure.ts")>(
        import.meta.resolve("./classifier_measure.ts"),
      );
      await measure(version, flags);
    });
}
