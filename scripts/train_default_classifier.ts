/**
 * Trains the default risk classifier this release ships from the shipped
 * examples (test/fixtures/gate/examples.tsv) and writes it to
 * src/gate/trained/risk-default.json. Run it after the rules or the examples
 * change, and commit the result:
 *
 *   deno run -A scripts/train_default_classifier.ts
 */
import { fileURLToPath } from "node:url";
import { parseExamples } from "../src/gate/measure.ts";
import { trainOnLines } from "../src/gate/trained/train_lines.ts";

/** The bundled file's content for a labelled file's text. */
export async function trainDefault(text: string, file: string) {
  const examples = parseExamples(text, file);
  const weights = await trainOnLines(examples);
  return { weights, trainedOn: { examples: examples.length, sources: ["examples.tsv"] } };
}

if (import.meta.main) {
  const examples = fileURLToPath(new URL("../test/fixtures/gate/examples.tsv", import.meta.url));
  const out = fileURLToPath(new URL("../src/gate/trained/risk-default.json", import.meta.url));
  const trained = await trainDefault(Deno.readTextFileSync(examples), "examples.tsv");
  Deno.writeTextFileSync(out, JSON.stringify(trained, null, 2) + "\n");
  // Laid out as the repository's formatter lays it out, so a rerun shows only real changes.
  await new Deno.Command(Deno.execPath(), { args: ["fmt", "-q", out], stdin: "null" }).output();
  console.error(
    `wrote ${
      Object.keys(trained.weights.weights).length
    } features, threshold ${trained.weights.threshold}`,
  );
}
