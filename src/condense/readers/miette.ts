/**
 * The graphical report of Rust's miette crate, which oxlint and other tools
 * print: a level mark and the message (`  × Unexpected token`,
 * `  ⚠ eslint(no-debugger): message`, `  ☞ advice`), then within a few lines
 * the source's frame, opened by its place: `╭─[src/app.js:9:5]`. `×` is an
 * error, `⚠` a warning, advice (`☞`) no finding. The frame's lines and the
 * `help:` after it belong to the report.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";

const MARK = /^\s*(?:(?:Error|Warning): +)?([×⚠☞]) +(.*)$/;
const FRAME = /^\s*╭─\[(.+?):(\d+):(\d+)\]$/;
const FRAME_LINE = /^\s*(?:\d+\s+)?[│·╰╭]|^\s*help: /;
const CROSS = 0xd7;
const WARN = 0x26a0;
const ADVICE = 0x261e;

function readMiette(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const shape = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c = shape.lead[i];
    if (c !== CROSS && c !== WARN && c !== ADVICE && c !== 0x45 && c !== 0x57) continue;
    const m = MARK.exec(lines[i]);
    if (!m) continue;
    // The frame's opening line within the next few lines (a long message wraps onto them).
    let k = i + 1;
    let place: RegExpExecArray | null = null;
    for (; k < lines.length && k - i <= 4; k++) {
      place = FRAME.exec(lines[k]);
      if (place) break;
    }
    if (!place) continue;
    let j = k + 1;
    while (j < lines.length && j - k < 200 && FRAME_LINE.test(lines[j])) j++;
    ctx.explain(i, j - 1);
    const start = i;
    const message = [m[2].trim(), ...lines.slice(i + 1, k).map((l) => l.trim())].join(" ");
    i = j - 1;
    if (m[1] === "☞") continue;
    out.push(
      finding(m[1] === "×" ? "error" : "warning", message, {
        location: `${place[1]}:${place[2]}:${place[3]}`,
        at: start,
      }),
    );
  }
  return out;
}

export const miette: Reader = { name: "miette", read: readMiette };
