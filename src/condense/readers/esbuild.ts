/**
 * esbuild's messages: `✘ [ERROR] Could not resolve "./x.js"` or
 * `▲ [WARNING] message [check-name]`, a blank line, then the place indented
 * on a line of its own (`    src/app.js:2:30:`) over a code frame. Notes
 * that follow (`  The earlier case clause is here:`) name places of their
 * own: the message's place is the first one after its head. The closing
 * `1 warning and 1 error` is a summary.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";

const HEAD = /^(?:✘ \[ERROR\]|▲ \[WARNING\]) (.*)$/;
const PLACE = /^ {4}(\S.*?):(\d+):(\d+):$/;
const SUMMARY = /^\d+ (?:warnings?|errors?)(?: and \d+ (?:warnings?|errors?))?$/;
const CROSS = 0x2718;
const TRIANGLE = 0x25b2;

function readEsbuild(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const shape = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c = shape.first[i];
    if (c !== CROSS && c !== TRIANGLE) continue;
    const h = HEAD.exec(lines[i]);
    if (!h) continue;
    let j = i + 1;
    let place: string | undefined;
    // The head's block: its indented lines and the blanks between them, up to the next head.
    while (j < lines.length && j - i < 60) {
      const l = lines[j];
      if (l !== "" && shape.first[j] !== 0x20) break;
      if (place === undefined) {
        const p = PLACE.exec(l);
        if (p) place = `${p[1]}:${p[2]}:${p[3]}`;
      }
      j++;
    }
    while (j > i + 1 && lines[j - 1] === "") j--;
    ctx.explain(i, j - 1);
    if (SUMMARY.test(lines[j] ?? "")) ctx.explain(j);
    out.push(
      finding(lines[i].startsWith("✘") ? "error" : "warning", h[1], { location: place, at: i }),
    );
    i = j - 1;
  }
  return out;
}

export const esbuild: Reader = { name: "esbuild", read: readEsbuild };
