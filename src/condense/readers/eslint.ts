/**
 * ESLint's formatters: stylish (a file's path alone on a line, then
 * `  4:22  error  message  rule` rows), unix (`file:4:22: message [Error/rule]`)
 * and compact (`file: line 4, col 22, Error - message (rule)`). The closing
 * `✖ N problems (…)` line is a summary, not a finding;
 * stylelint's default (string) formatter has the same shape, its level a
 * symbol (`✖`, `⚠`) where ESLint writes the word; `--max-warnings`
 * failing a run of warnings alone is the one error such a run has.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import {
  CLOSE_BRACKET,
  CLOSE_PAREN,
  DIGIT_0,
  DIGIT_9,
  HEAVY_X,
  isDigit,
  SPACE,
  TAB,
  UPPER_E,
} from "../chars.ts";

const PATH_ALONE = /^(?:[A-Za-z]:\\|\/|\.{1,2}\/)?[^\s:]+\.[A-Za-z0-9]+$|^\/\S.*\.[A-Za-z0-9]+$/;
/** A stylish row; stylelint's string formatter writes the level as a symbol (`✖` error, `⚠` warning). */
const ROW = /^\s+(\d+):(\d+)\s+(error|warning|✖|⚠)\s+(.+?)(?:\s{2,}(\S+))?\s*$/;
const UNIX = /^([^\s:][^:]*):(\d+):(\d+): (.*) \[(Error|Warning)(?:\/([^\]]+))?\]$/;
const COMPACT =
  /^([^\s:][^:]*): line (\d+), col (\d+), (Error|Warning) - (.*?)(?: \(([\w@/-]+)\))?$/;
/** ESLint's own line when `--max-warnings` fails a run (its cli prints it after the report). */
const TOO_MANY = /^ESLint found too many warnings \(maximum: (\d+)\)\.?$/;
const SUMMARY =
  /^(?:✖ \d+ problems? \(\d+ errors?, \d+ warnings?\)|\s+\d+ (?:errors?|warnings?)(?: and \d+ warnings?)? potentially fixable.*|\d+ problems?)$/;

function readEslint(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  let file: string | undefined;
  const shape = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c0 = shape.first[i];
    // Stylish: a path heading before an indented row (lead digit); ✖ summary; a digit ("7 problems"); unix and
    // compact lines start with a path (checked by their ends below).
    const rowNext = i + 1 < lines.length && shape.first[i + 1] === SPACE &&
      shape.lead[i + 1] >= DIGIT_0 &&
      shape.lead[i + 1] <= DIGIT_9;
    if (file === undefined && !rowNext && (c0 === 0 || c0 === SPACE || c0 === TAB)) continue;
    const last = shape.last[i];
    if (c0 === UPPER_E) {
      const m = TOO_MANY.exec(lines[i]);
      if (m) {
        ctx.explain(i);
        out.push(finding("error", `more warnings than --max-warnings ${m[1]} allows`, { at: i }));
        continue;
      }
    }
    if (
      file === undefined && !rowNext && c0 !== HEAVY_X && !isDigit(c0) && last !== CLOSE_BRACKET &&
      last !== CLOSE_PAREN
    ) continue;
    const line = lines[i];
    if (file === undefined && !rowNext && last === CLOSE_PAREN && !line.includes(", col ")) {
      continue;
    }
    if (SUMMARY.test(line)) {
      ctx.explain(i);
      ctx.headingEnds?.(i, 0);
      continue;
    }
    if (file !== undefined) {
      const r = ROW.exec(line);
      if (r) {
        ctx.explain(i);
        const msg = r[5] ? `${r[4].trim()} (${r[5]})` : r[4].trim();
        out.push(
          finding(r[3] === "error" || r[3] === "✖" ? "error" : "warning", msg, {
            location: `${file}:${r[1]}:${r[2]}`,
            at: i,
          }),
        );
        continue;
      }
      if (line.trim() !== "") {
        file = undefined;
        ctx.headingEnds?.(i, 0);
      }
    }
    if (rowNext && line.length > 0 && line.charCodeAt(0) !== SPACE && PATH_ALONE.test(line)) {
      // Only a heading when a stylish row follows it.
      if (ROW.test(lines[i + 1] ?? "")) {
        file = line;
        ctx.explain(i);
        // A window that starts among the file's rows is given its heading first (ADR 0705).
        ctx.heading?.(i, 0);
        continue;
      }
    }
    const u = UNIX.exec(line);
    if (u) {
      ctx.explain(i);
      const msg = u[6] ? `${u[4]} (${u[6]})` : u[4];
      out.push(
        finding(u[5] === "Error" ? "error" : "warning", msg, {
          location: `${u[1]}:${u[2]}:${u[3]}`,
          at: i,
        }),
      );
      continue;
    }
    const c = COMPACT.exec(line);
    if (c) {
      ctx.explain(i);
      const msg = c[6] ? `${c[5]} (${c[6]})` : c[5];
      out.push(
        finding(c[4] === "Error" ? "error" : "warning", msg, {
          location: `${c[1]}:${c[2]}:${c[3]}`,
          at: i,
        }),
      );
    }
  }
  return out;
}

export const eslint: Reader = {
  name: "eslint",
  read: readEslint,
};
