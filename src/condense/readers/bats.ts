/**
 * bats: its pretty formatter (`bats -p`, or on a terminal) marks a failed
 * test ` ✗ name`, then indents the place of the command that failed
 * (`(in test file test/a.bats, line 21)`, after `(from function …` lines
 * when it failed in a helper) and the command and output under it. Its TAP
 * output is the TAP reader's. Both end with bats's own warnings
 * (`The following warnings were encountered during tests:`, then
 * `BW01: message` and the place it was raised at): warnings, each at its
 * line of the test file.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { SPACE, UPPER_B, UPPER_T } from "../chars.ts";

const FAILED = /^ ✗ (.+)$/;
const PLACE = /\bin test file (.+), line (\d+)\)$/;
const WARNINGS = "The following warnings were encountered during tests:";
const WARNING = /^(BW\d+): (.*)$/;
const BALLOT_X = 0x2717;

function readBats(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const shape = shapeOf(lines, ctx);
  let warnings = false;
  for (let i = 0; i < lines.length; i++) {
    const c = shape.first[i];
    if (c === SPACE && shape.lead[i] === BALLOT_X) {
      const f = FAILED.exec(lines[i]);
      if (!f) continue;
      // Its lines: indented deeper than the mark, up to the next test or the summary.
      let j = i + 1;
      let place: RegExpExecArray | null = null;
      const text: string[] = [];
      for (; j < lines.length && j - i < 100 && lines[j].startsWith("   "); j++) {
        const t = lines[j].trim();
        const p: RegExpExecArray | null = place ? null : PLACE.exec(t);
        if (p) place = p;
        else if (!t.startsWith("(from function ")) text.push(t);
      }
      if (!place) continue;
      ctx.explain(i, j - 1);
      out.push(
        finding("test_failure", text[0] ?? "failed", {
          test: f[1],
          location: `${place[1]}:${place[2]}`,
          detail: text.slice(1, 7),
          at: i,
        }),
      );
      i = j - 1;
      continue;
    }
    if (c === UPPER_T && lines[i] === WARNINGS) {
      warnings = true;
      ctx.explain(i);
      continue;
    }
    if (!warnings || c !== UPPER_B) continue;
    const w = WARNING.exec(lines[i]);
    if (!w) continue;
    let j = i + 1;
    let place: RegExpExecArray | null = null;
    for (; j < lines.length && j - i < 10 && shape.first[j] === SPACE; j++) {
      place ??= PLACE.exec(lines[j].trim());
    }
    ctx.explain(i, j - 1);
    out.push(
      finding("warning", `${w[2]} (${w[1]})`, {
        location: place ? `${place[1]}:${place[2]}` : undefined,
        at: i,
      }),
    );
    i = j - 1;
  }
  return out;
}

export const bats: Reader = { name: "bats", read: readBats };
