/**
 * shunit2 (shell unit tests): each test function's name alone on a line as
 * it starts (`testKeepsPatch`), a failed assertion under it as
 * `ASSERT:message` (`ASSERT:patch should stay expected:<1.3.7> but
 * was:<1.3.0>`), and `shunit2:ERROR testX() returned non-zero return code.`
 * when the function itself failed. A test's assertions make one finding; a
 * test that only returned non-zero makes one of its own. `Ran N tests.` and
 * `FAILED (failures=N)` close the run.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { LOWER_S, LOWER_T, UPPER_A } from "../chars.ts";

const TEST = /^test[\w]*$/;
const ASSERT = /^ASSERT:(.*)$/;
const RETURNED = /^shunit2:ERROR (\w+)\(\) returned non-zero return code\.$/;

function readShunit2(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const shape = shapeOf(lines, ctx);
  /** The test running: the last test name seen, and its finding once it failed. */
  let test: string | undefined;
  let failed: Finding | undefined;
  let testAt = 0;
  for (let i = 0; i < lines.length; i++) {
    const c = shape.first[i];
    if (c === LOWER_T) {
      if (TEST.test(lines[i])) {
        test = lines[i];
        testAt = i;
        failed = undefined;
      }
      continue;
    }
    if (c === UPPER_A) {
      const a = ASSERT.exec(lines[i]);
      if (!a || test === undefined) continue;
      ctx.explain(i);
      ctx.explain(testAt);
      if (failed) failed.detail = [...(failed.detail ?? []), a[1].trim()].slice(0, 8);
      else {
        failed = finding("test_failure", a[1].trim() || "assertion failed", { test, at: testAt });
        out.push(failed);
      }
      continue;
    }
    if (c !== LOWER_S || !lines[i].startsWith("shunit2:ERROR ")) continue;
    const r = RETURNED.exec(lines[i]);
    if (!r) continue;
    ctx.explain(i);
    // Its assertions said why; a function that failed without one is a finding of its own.
    if (r[1] === test && failed) continue;
    out.push(finding("test_failure", "returned a non-zero status", { test: r[1], at: i }));
  }
  return out;
}

export const shunit2: Reader = { name: "shunit2", read: readShunit2 };
