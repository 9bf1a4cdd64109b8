/**
 * Training from labelled lines, end to end: each line rated by the gate's
 * own analysis and rules (in the made-up training place, samples.ts), its
 * parts turned into samples, and the weights trained. `wisp classifier train`
 * and the script that trains the shipped default both come here.
 */
import { homePaths } from "../../config/home.ts";
import { configSchema } from "../../config/schema.ts";
import { Gate } from "../gate.ts";
import type { Verdict } from "../measure.ts";
import { train, type Weights } from "./model.ts";
import { samplesFromLines, TRAINING_PLACE } from "./samples.ts";

/** Train weights on labelled lines (deny counts as dangerous). */
export async function trainOnLines(
  lines: ReadonlyArray<{ label: Verdict; line: string }>,
): Promise<Weights> {
  const gate = new Gate({
    config: configSchema.parse({ approval: { classifier: "rules" } }),
    home: homePaths(`${TRAINING_PLACE.userHome}/.wisp`),
    audit: { session: "train", record: () => ({}) as never },
    env: { HOME: TRAINING_PLACE.userHome },
    userHome: TRAINING_PLACE.userHome,
  });
  const samples = await samplesFromLines(
    lines,
    async (line) => (await gate.assess(line, { cwd: TRAINING_PLACE.root, origin: "model" })).parts,
    TRAINING_PLACE,
  );
  return train(samples);
}
