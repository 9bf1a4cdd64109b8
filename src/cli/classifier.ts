/**
 * `wisp classifier measure --examples FILE [--classifier rules] [--json]`:
 * runs the policy and a classifier over labelled command lines and prints
 * exact, over- and under-ratings and the latency per verdict; exits 1 when a
 * line labelled dangerous or deny gets less. (list, train, use and remove
 * come with the Core ML classifier.)
 */
import { load } from "./lazy.ts";
import type { Command } from "commander";

interface MeasureFlags {
  examples?: string;
  classifier?: string;
  json?: boolean;
}

/** The labelled set that ships with wisp, used when --examples is not given. */
function shippedExamples(): string {
  return new URL("../../test/fixtures/gate/examples.tsv", import.meta.url).pathname;
}

async function measure(flags: MeasureFlags): Promise<void> {
  const { UsageError, WispError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  const { outLine, errLine, cliState } = await load<typeof import("./io.ts")>(
    import.meta.resolve("./io.ts"),
  );
  const { loadContext } = await load<typeof import("./context.ts")>(
    import.meta.resolve("./context.ts"),
  );
  const { parseExamples, summarise, renderSummary } = await load<
    typeof import("../gate/measure.ts")
  >(import.meta.resolve("../gate/measure.ts"));
  type Row = import("../gate/measure.ts").Row;
  const { Gate } = await load<typeof import("../gate/gate.ts")>(
    import.meta.resolve("../gate/gate.ts"),
  );
  const classifier = flags.classifier ?? "rules";
  if (classifier !== "rules") {
    if (classifier === "coreml" || classifier === "system-model") {
      throw new WispError(
        `the ${classifier} classifier is not available in this build; measure with --classifier rules`,
      );
    }
    throw new UsageError(
      `--classifier must be rules, coreml or system-model (it is ${JSON.stringify(classifier)})`,
    );
  }
  const file = flags.examples ?? shippedExamples();
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new WispError(
        `${file} does not exist; give a file of label<TAB>command lines with --examples`,
      );
    }
    throw new WispError(`${file} cannot be read (${(error as Error).message})`);
  }
  const examples = parseExamples(text, file);
  if (examples.length === 0) {
    throw new UsageError(`${file} holds no labelled lines; each line is label<TAB>command line`);
  }
  const { paths, config } = loadContext();
  const audit = { session: "measure", record: () => ({}) as never };
  const gate = new Gate({ config, home: paths, audit });
  const cwd = Deno.cwd();
  // Load the parser before timing anything.
  await gate.assess("true", { cwd, origin: "model" });
  const rows: Row[] = [];
  for (const example of examples) {
    const started = performance.now();
    const a = await gate.assess(example.line, { cwd, origin: "model" });
    const micros = (performance.now() - started) * 1000;
    const verdict: Row["verdict"] = a.policy.allowed ? a.level : "deny";
    const reasons = a.policy.allowed
      ? [...new Set(a.parts.filter((p) => p.level === a.level).flatMap((p) => p.reasons))]
      : [a.policy.reason ?? "denied by policy"];
    rows.push({ example, verdict, reasons, micros });
    if (flags.json) {
      outLine(JSON.stringify({ label: example.label, verdict, command: example.line, reasons }));
    }
  }
  const summary = summarise(rows);
  const lines = renderSummary(summary, classifier);
  for (const line of lines) (flags.json ? errLine : outLine)(line);
  if (summary.failures.length > 0) cliState.exitCode = 1;
}

export function register(program: Command): void {
  const classifier = program
    .command("classifier")
    .description("measure the risk classifier over labelled command lines");
  classifier
    .command("measure")
    .description(
      "rate labelled command lines (label<TAB>line) and report exact, over- and under-ratings",
    )
    .option("--examples <file>", "the labelled lines (default: the set wisp ships)")
    .option("--classifier <name>", "rules (the only one in this build)", "rules")
    .option("--json", "one JSON object per line: label, verdict, command, reasons")
    .action((flags: MeasureFlags) => measure(flags));
}
