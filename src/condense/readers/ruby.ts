/**
 * RSpec (`Failures:` then `  1) Description` blocks with `Failure/Error:`,
 * the message and `# ./spec/…:19:in` frames; `Failed examples:` repeats them)
 * and minitest (`  1) Failure:` / `  1) Error:` with `Class#test [file:line]:`).
 */
import { type Finding, finding } from "../findings.ts";
import { hasText } from "../text.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import {
  DIGIT_0,
  DIGIT_9,
  HASH,
  isDigit,
  LOWER_R,
  SPACE,
  UPPER_A,
  UPPER_F,
  UPPER_R,
} from "../chars.ts";

const RSPEC_ENTRY = /^\s+(\d+)\) (.+)$/;
const RSPEC_FRAME = /^\s+# (\S+?):(\d+)(?::in .*)?$/;
const RSPEC_FAILED = /^rspec (\S+?):(\d+) # (.+)$/;
const RSPEC_SUMMARY =
  /^\d+ examples?, \d+ failures?(?:, \d+ pending)?(?:, \d+ errors? occurred outside of examples)?$/;
/** An entry of minitest's report; `Skipped:` ones (listed under --verbose) are no failures. */
const MINI_ENTRY = /^\s+\d+\) (Failure|Error|Skipped):$/;
/** `Class#test_name [file:line]:`; a spec's name holds spaces (`Cart spec#test_0001_adds up`), so may a path. */
const MINI_NAME = /^([^\s#][^#]*#.+?|\w+\([\w:]+\))(?: \[([^\]]+)\])?:$/;
/** A backtrace line of an error: `    test/x_test.rb:17:in 'method'` (the path may hold spaces). */
const MINI_FRAME = /^\s+(\S.*?):(\d+):in /;
const MINI_SUMMARY = /^\d+ runs, \d+ assertions, \d+ failures, \d+ errors, \d+ skips$/;
const LOAD_ERROR = /^An error occurred while loading (\S+)\.$/;

function readRspec(lines: string[], ctx: ReadContext, out: Finding[]): void {
  const byName = new Map<string, Finding>();
  // Every run's `Failures:` list (a log may hold several runs, and Jasmine's list has the heading
  // too: RSpec's entries are indented under it).
  for (
    let start = lines.indexOf("Failures:");
    start >= 0;
    start = lines.indexOf("Failures:", start + 1)
  ) {
    let first = start + 1;
    while (first < lines.length && lines[first] === "") first++;
    if (!RSPEC_ENTRY.test(lines[first] ?? "")) continue;
    ctx.explain(start);
    for (let i = start + 1; i < lines.length; i++) {
      const line = lines[i];
      if (/^(?:Finished in |Failed examples:|Pending:)/.test(line)) break;
      const e = RSPEC_ENTRY.exec(line);
      if (!e) continue;
      let j = i + 1;
      while (
        j < lines.length && j - i < 120 && !RSPEC_ENTRY.test(lines[j]) &&
        !/^(?:Finished in |Failed examples:)/.test(lines[j])
      ) j++;
      ctx.explain(i, j - 1);
      const body = lines.slice(i + 1, j).map((l) => l.trim()).filter((l) => l !== "");
      const frames = lines.slice(i + 1, j).map((l) => RSPEC_FRAME.exec(l)).filter((
        m,
      ): m is RegExpExecArray => m !== null);
      const frame = frames.find((f) => /_spec\.rb$/.test(f[1])) ?? frames[0];
      const text = body.filter((l) =>
        !l.startsWith("# ") && !l.startsWith("Failure/Error:") && l !== "(compared using ==)"
      );
      // `ArgumentError:` with the message on the next line reads as one line.
      if (text.length > 1 && /^[\w:]+:$/.test(text[0])) text.splice(0, 2, `${text[0]} ${text[1]}`);
      const f = finding("test_failure", text[0] ?? body[0] ?? "failed", {
        test: e[2],
        location: frame ? `${frame[1]}:${frame[2]}` : undefined,
        detail: [...body.filter((l) => l.startsWith("Failure/Error:")), ...text.slice(1, 4)],
        // Read only under the `Failures:` heading.
        at: start,
      });
      byName.set(e[2], f);
      out.push(f);
      i = j - 1;
    }
  }
  const { first } = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c0 = first[i];
    // rspec ./…, An error occurred…, Failed examples:, N examples
    if (c0 !== LOWER_R && c0 !== UPPER_A && c0 !== UPPER_F && (c0 < DIGIT_0 || c0 > DIGIT_9)) {
      continue;
    }
    const line = lines[i];
    if (RSPEC_SUMMARY.test(line) || line === "Failed examples:") {
      ctx.explain(i);
      continue;
    }
    const r = RSPEC_FAILED.exec(line);
    if (r) {
      ctx.explain(i);
      if (!byName.has(r[3])) {
        const f = finding("test_failure", "failed", {
          test: r[3],
          location: `${r[1]}:${r[2]}`,
          at: i,
        });
        byName.set(r[3], f);
        out.push(f);
      }
      continue;
    }
    const l = LOAD_ERROR.exec(line);
    if (l) {
      let j = i + 1;
      while (j < lines.length && lines[j].trim() !== "") j++;
      ctx.explain(i, j - 1);
      const body = lines.slice(i + 1, j).map((x) => x.trim()).filter((x) => !x.startsWith("#"));
      const frame = lines.slice(i + 1, j).map((x) => RSPEC_FRAME.exec(x)).find(Boolean);
      out.push(
        finding("error", body.join(" ") || `error while loading ${l[1]}`, {
          location: frame ? `${frame[1]}:${frame[2]}` : l[1],
          at: i,
        }),
      );
      i = j - 1;
    }
  }
}

function readMinitest(lines: string[], ctx: ReadContext, out: Finding[]): void {
  const shape = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c0 = shape.first[i];
    const l = shape.lead[i];
    // Run options, # Running, Finished in, N runs, and the indented "  1) Failure:"
    if (
      c0 !== UPPER_R && c0 !== HASH && c0 !== UPPER_F && (c0 < DIGIT_0 || c0 > DIGIT_9) &&
      !(c0 === SPACE && isDigit(l))
    ) continue;
    const line = lines[i];
    if (
      c0 === SPACE ? !line.includes(") ") : c0 <= DIGIT_9 && !hasText(line, "runs, ", " runs, ")
    ) {
      continue;
    }
    if (
      MINI_SUMMARY.test(line) || /^(?:Run options: |# Running:|Finished in [\d.]+s, )/.test(line)
    ) {
      ctx.explain(i);
      continue;
    }
    const e = MINI_ENTRY.exec(line);
    if (!e) continue;
    const n = MINI_NAME.exec(lines[i + 1] ?? "");
    if (!n) continue;
    let j = i + 2;
    // An error's block may hold blank lines (Ruby 3.1's highlighted code line, then the backtrace,
    // both indented): it ends at a blank line followed by one at the margin, or the next entry.
    while (
      j < lines.length && !MINI_ENTRY.test(lines[j]) &&
      (lines[j].trim() !== "" || (e[1] === "Error" && /^\s+\S/.test(lines[j + 1] ?? "")))
    ) j++;
    ctx.explain(i, j - 1);
    if (e[1] === "Skipped") {
      i = j - 1;
      continue;
    }
    const body = lines.slice(i + 2, j);
    const frames = body.map((l) => MINI_FRAME.exec(l)).filter((
      m,
    ): m is RegExpExecArray => m !== null);
    const frame = frames.find((f) => /_test\.rb$|test_\w+\.rb$/.test(f[1])) ?? frames[0];
    const text = body.filter((l) => !MINI_FRAME.test(l)).map((l) => l.trim()).filter((l) =>
      l !== "" && !/^\^+$/.test(l)
    );
    const loc = n[2] ?? (frame ? `${frame[1]}:${frame[2]}` : undefined);
    // Older minitest names a test "test_name(Class)"; name it Class#test_name as newer ones do.
    const old = /^(\w+)\(([\w:]+)\)$/.exec(n[1]);
    const test = old ? `${old[2]}#${old[1]}` : n[1];
    out.push(
      finding("test_failure", text[0] ?? e[1], {
        test,
        location: loc,
        detail: text.slice(1, 5),
        at: i,
      }),
    );
    i = j - 1;
  }
}

function readRuby(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  readRspec(lines, ctx, out);
  readMinitest(lines, ctx, out);
  return out;
}

export const ruby: Reader = {
  name: "ruby",
  read: readRuby,
};
