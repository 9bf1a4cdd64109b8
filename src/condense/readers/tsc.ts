/**
 * The TypeScript compiler: `src/app.ts(4,28): error TS2367: …` (plain) and
 * `src/app.ts:4:28 - error TS2367: …` (--pretty), with the message's
 * indented continuation lines and the code frame as detail.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { isDigit, LOWER_E, LOWER_W, SPACE, TAB, UPPER_E, UPPER_F } from "../chars.ts";

const PLAIN = /^([^\s(][^(]*?)\((\d+),(\d+)\): (error|warning|message) (TS\d+): (.*)$/;
/** `--pretty`: `src/app.ts:4:28 - error TS2367: …` (the path may hold spaces). */
const PRETTY = /^(\S.*?):(\d+):(\d+) - (error|warning|message) (TS\d+): (.*)$/;
const GLOBAL = /^(error|warning) (TS\d+): (.*)$/;
const SUMMARY = /^(?:Found \d+ errors?(?: in .*)?\.?|Errors\s+Files|\s+\d+\s+\S+:\d+)$/;

function readTsc(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const shape = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c0 = shape.first[i];
    const l = shape.lead[i];
    // Found N errors, the Errors/Files table, or a line naming a TS code (which starts with a path or "error")
    if (c0 === 0 || c0 === TAB || (c0 === SPACE && !isDigit(l))) continue;
    const line = lines[i];
    if (c0 === SPACE) {
      if (SUMMARY.test(line)) ctx.explain(i); // a row of the Errors/Files table
      continue;
    }
    if (
      (c0 === UPPER_F && line.startsWith("Found ")) ||
      (c0 === UPPER_E && line.startsWith("Errors "))
    ) {
      if (SUMMARY.test(line)) ctx.explain(i);
      continue;
    }
    const t = line.includes("TS") ? line.indexOf(" TS") : -1;
    // The first character before startsWith, which costs far more on a line cut out of a window (ADR 0650).
    if (
      t < 0 && (c0 !== LOWER_E || !line.startsWith("error TS")) &&
      (c0 !== LOWER_W || !line.startsWith("warning TS"))
    ) continue;
    if (SUMMARY.test(line)) {
      ctx.explain(i);
      continue;
    }
    const m = PLAIN.exec(line) ?? PRETTY.exec(line);
    const g = m ? null : GLOBAL.exec(line);
    if (!m && !g) continue;
    const pretty = !!m && PRETTY.test(line);
    const detail: string[] = [];
    let j = i + 1;
    // Plain output continues a message on indented lines; pretty output adds a blank line and a code frame.
    while (j < lines.length) {
      const next = lines[j];
      if (PLAIN.test(next) || PRETTY.test(next) || GLOBAL.test(next) || SUMMARY.test(next)) break;
      if (next.trim() === "") {
        if (!pretty) break;
        if (j + 1 < lines.length && (PRETTY.test(lines[j + 1]) || SUMMARY.test(lines[j + 1]))) {
          break;
        }
        j++;
        continue;
      }
      if (!pretty && !/^\s/.test(next)) break;
      detail.push(next);
      j++;
    }
    ctx.explain(i, j - 1);
    const [sev, code, message] = m ? [m[4], m[5], m[6]] : [g![1], g![2], g![3]];
    if (sev === "message") continue;
    out.push(
      finding(sev === "warning" ? "warning" : "error", `${code}: ${message}`, {
        location: m ? `${m[1]}:${m[2]}:${m[3]}` : undefined,
        detail,
        at: i,
      }),
    );
    i = j - 1;
  }
  return out;
}

export const tsc: Reader = { name: "tsc", read: readTsc };
