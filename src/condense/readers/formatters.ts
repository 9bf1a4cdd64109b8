/**
 * Formatters run as checks: Prettier's `--check` (`Checking formatting...`,
 * `[warn] path` for each file it would change, `[error] path: SyntaxError: …`
 * for one it cannot parse, and a closing `[warn] Code style issues found …`)
 * and Black's `--check` (`would reformat path`, `error: cannot format path:
 * message`, the closing `Oh no! …` / `All done! …` and the counts line).
 * Each file that is not formatted is one error (the check fails the run on
 * it), at the file.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import {
  DIGIT_0,
  DIGIT_9,
  LOWER_E,
  LOWER_W,
  OPEN_BRACKET,
  UPPER_A,
  UPPER_C,
  UPPER_E,
  UPPER_O,
} from "../chars.ts";

const PRETTIER_START = /^Checking formatting\.\.\.$/;
const PRETTIER_FILE = /^\[warn\] (\S.*)$/;
const PRETTIER_END =
  /^\[warn\] Code style issues (?:found|were found) in (?:the above file|\d+ files)\b/;
const PRETTIER_ERROR = /^\[error\] (\S+?): (.*)$/;
const PRETTIER_DONE =
  /^(?:All matched files use Prettier code style!|Error occurred when checking code style in (?:the above file|\d+ files)\.?)$/;
const BLACK_FILE = /^would reformat (.+)$/;
const BLACK_ERROR = /^error: cannot format (.+?): (.*)$/;
const BLACK_SUMMARY =
  /^(?:Oh no! .*|All done! .*|\d+ files? would be (?:reformatted|left unchanged)(?:, \d+ files? would (?:be left unchanged|fail to reformat))*\.?|\d+ files? would fail to reformat\.?)$/;

function readFormatters(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const { first } = shapeOf(lines, ctx);
  let prettier = false;
  for (let i = 0; i < lines.length; i++) {
    const c = first[i];
    // "Checking…", "[warn]"/"[error]", "All …", "would reformat", "error: cannot format", "Oh no!", a count
    if (
      c !== UPPER_C && c !== OPEN_BRACKET && c !== UPPER_A && c !== UPPER_E && c !== LOWER_W &&
      c !== LOWER_E && c !== UPPER_O &&
      (c < DIGIT_0 || c > DIGIT_9)
    ) {
      continue;
    }
    const line = lines[i];
    if (c === UPPER_C && PRETTIER_START.test(line)) {
      prettier = true;
      ctx.explain(i);
      continue;
    }
    if (c === OPEN_BRACKET && prettier) {
      if (PRETTIER_END.test(line)) {
        ctx.explain(i);
        continue;
      }
      const e = PRETTIER_ERROR.exec(line);
      if (e) {
        // The code frame follows on `[error] ` lines of its own.
        let j = i + 1;
        const frame: string[] = [];
        while (
          j < lines.length && lines[j].startsWith("[error] ") && !PRETTIER_ERROR.test(lines[j])
        ) {
          frame.push(lines[j].slice(8));
          j++;
        }
        ctx.explain(i, j - 1);
        out.push(finding("error", e[2], { location: e[1], detail: frame, at: i }));
        i = j - 1;
        continue;
      }
      const f = PRETTIER_FILE.exec(line);
      if (f) {
        ctx.explain(i);
        out.push(finding("error", "not formatted (prettier --check)", { location: f[1], at: i }));
      }
      continue;
    }
    if ((c === UPPER_A || c === UPPER_E) && PRETTIER_DONE.test(line)) {
      ctx.explain(i);
      continue;
    }
    if (c === LOWER_W) {
      const b = BLACK_FILE.exec(line);
      if (b) {
        ctx.explain(i);
        out.push(
          finding("error", "would be reformatted (black --check)", { location: b[1], at: i }),
        );
      }
      continue;
    }
    if (c === LOWER_E) {
      const b = BLACK_ERROR.exec(line);
      if (b) {
        ctx.explain(i);
        out.push(finding("error", `cannot format: ${b[2]}`, { location: b[1], at: i }));
      }
      continue;
    }
    if (BLACK_SUMMARY.test(line)) ctx.explain(i);
  }
  return out;
}

export const formatters: Reader = { name: "formatters", read: readFormatters };
