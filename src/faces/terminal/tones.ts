/**
 * How a terminal face styles its text: the tones it uses, as functions of
 * the text. The CLI passes its palette (cli/io.ts, which decides whether
 * colour is on); a face given none writes plain text.
 */
export interface Tones {
  ok(s: string): string;
  bad(s: string): string;
  warn(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

const same = (s: string) => s;

/** No styling at all. */
export const PLAIN_TONES: Tones = { ok: same, bad: same, warn: same, dim: same, bold: same };
