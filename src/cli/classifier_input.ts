/**
 * What `wisp classifier measure` and `train` read: labelled files
 * (label<TAB>command line) named on the command line or shipped with wisp,
 * each problem one sentence (a missing or unreadable file exits 1, a
 * malformed one 64).
 */
import { type Example, parseExamples } from "../gate/measure.ts";
import { messageOf, WispError } from "../util/errors.ts";

/** The labelled set that ships with wisp, used when --examples is not given. */
export function shippedExamples(): string {
  return new URL("../../test/fixtures/gate/examples.tsv", import.meta.url).pathname;
}

/** Read a labelled file; `what` names the flag it came from, for the sentence. */
export function readLabelled(file: string, what = "--examples"): Example[] {
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new WispError(
        `${file} does not exist; give a file of label<TAB>command lines with ${what}`,
      );
    }
    throw new WispError(`${file} cannot be read (${messageOf(error)})`);
  }
  return parseExamples(text, file);
}
