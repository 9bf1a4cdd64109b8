/**
 * busted's terminal output (Lua): after the summary line (`1 success /
 * 3 failures / 1 error / 1 pending : 0.0017 seconds`), an entry per test not
 * passed: `Failure -> spec/a_spec.lua @ 9` (an assertion) or `Error -> …`
 * (a raised error) — the test's file and the line it is defined on — then
 * the test's full name and the message (`spec/a_spec.lua:13: Expected
 * objects to be equal.` and the values), up to a blank line. A failure is
 * placed where its message says it failed when that is in the test's own file
 * (the assertion's line, as every other runner's failure is placed), else at
 * the test's line. `Pending ->` entries are no findings. `-o TAP` is the TAP
 * reader's, which places a failure the same way (bustedFailure).
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { DIGIT_0, DIGIT_9, UPPER_E, UPPER_F, UPPER_P } from "../chars.ts";

const ENTRY =
  /^(Failure|Error|Pending) → (\S+) @ (\d+)$|^(Failure|Error|Pending) -> (\S+) @ (\d+)$/;
const SUMMARY = /^\d+ successe?s? \/ \d+ failures? \/ \d+ errors? \/ \d+ pending : [\d.]+ seconds$/;

function readBusted(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const shape = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c = shape.first[i];
    if (c >= DIGIT_0 && c <= DIGIT_9) {
      if (lines[i].endsWith(" seconds") && SUMMARY.test(lines[i])) ctx.explain(i);
      continue;
    }
    if (c !== UPPER_F && c !== UPPER_E && c !== UPPER_P) continue;
    const e = ENTRY.exec(lines[i]);
    if (!e) continue;
    const level = e[1] ?? e[4];
    const file = e[2] ?? e[5];
    const line = e[3] ?? e[6];
    let j = i + 1;
    while (j < lines.length && j - i < 100 && lines[j].trim() !== "") j++;
    ctx.explain(i, j - 1);
    const start = i;
    const name = lines[i + 1] ?? "";
    const text = lines.slice(i + 2, j).map((l) => l.trim());
    i = j - 1;
    if (level === "Pending") continue;
    const failure = bustedFailure(file, line, text[0]);
    out.push(
      finding("test_failure", failure.message, {
        test: name.trim() || undefined,
        location: failure.location,
        detail: text.slice(1, 7),
        at: start,
      }),
    );
  }
  return out;
}

export const busted: Reader = { name: "busted", read: readBusted };

/** busted's `file:line: ` before a message: where the failure was raised. */
const RAISED_AT = /^(\S+?):(\d+): (.+)$/;

/**
 * A busted failure's place and message, from its test's place (`file @ line`) and its message's
 * first line: the line the message names when it is in the test's own file (an assertion there),
 * its text without that place; otherwise the test's line, the message as it is (an error raised in
 * the code under test names that code's place, kept in the message).
 */
export function bustedFailure(
  testFile: string,
  testLine: string,
  message: string | undefined,
): { location: string; message: string } {
  const raised = message === undefined ? null : RAISED_AT.exec(message);
  const bare = (path: string) => path.replace(/^\.\//, "");
  if (raised && bare(raised[1]) === bare(testFile)) {
    return { location: `${testFile}:${raised[2]}`, message: raised[3] };
  }
  return { location: `${testFile}:${testLine}`, message: message ?? "failed" };
}
