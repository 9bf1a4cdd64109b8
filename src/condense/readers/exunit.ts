/**
 * Elixir: ExUnit's failures as `mix test` prints them, and the compiler's
 * errors and warnings. A failure is a numbered entry `  1) test name
 * (Module)`, the test's own place under it (`     test/x_test.exs:8`), the
 * message (`Assertion with == failed`, `** (ArgumentError) …`), the `code:`,
 * `left:` and `right:` values, and a `stacktrace:` whose frame in the test's
 * file is the failure's place. `--trace` prints the same entries between its
 * `* test …` lines.
 *
 * The compiler: `** (CompileError) lib/a.ex:8: message` (a SyntaxError or
 * TokenMissingError alike), and `warning: message` or `error: message`
 * followed by its place on an indented line (`  lib/a.ex:3: Mod.fun/1`, or
 * from Elixir 1.15 under a code frame: `  └─ lib/a.ex:3:5: Mod.fun/1`).
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { ASTERISK, DIGIT_0, DIGIT_9, EQUALS, LOWER_E, LOWER_W, SPACE } from "../chars.ts";

const ENTRY = /^ {2}(\d+)\) (.+) \(([\w.]+)\)$/;
const TEST_PLACE = /^ {5}(\S+\.exs?):(\d+)$/;
const FRAME = /^\s+(?:\([^)]*\) )?(\S+\.exs?):(\d+): /;
const RAISED = /^\*\* \((\w+(?:\.\w+)*)\) (.*)$/;
const COMPILE = /^\*\* \((\w*Error)\) (\S+\.exs?):(\d+)(?::(\d+))?: (.*)$/;
const LEVEL = /^(warning|error): (.*)$/;
const PLACE = /^\s+(?:└─ )?(\S+\.exs?):(\d+)(?::(\d+))?(?::|$)/;
const COMPILING = /^== Compilation error in file \S+ ==$/;

function readExunit(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const shape = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c = shape.first[i];
    if (c === SPACE) {
      const d = shape.lead[i];
      if (d < DIGIT_0 || d > DIGIT_9 || !lines[i].endsWith(")")) continue;
      const e = ENTRY.exec(lines[i]);
      const p = e ? TEST_PLACE.exec(lines[i + 1] ?? "") : null;
      if (e && p) i = entry(lines, i, `${e[2]} (${e[3]})`, p[1], `${p[1]}:${p[2]}`, ctx, out);
      continue;
    }
    if (c === ASTERISK) {
      const m = COMPILE.exec(lines[i]);
      if (!m) continue;
      ctx.explain(i);
      if (i > 0 && COMPILING.test(lines[i - 1])) ctx.explain(i - 1);
      const place = m[4] ? `${m[2]}:${m[3]}:${m[4]}` : `${m[2]}:${m[3]}`;
      out.push(finding("error", `${m[5]} (${m[1]})`, { location: place, at: i }));
      continue;
    }
    // `== Compilation error …` (not a `===` rule or go's `=== RUN`).
    if (c === EQUALS && lines[i].charCodeAt(2) === SPACE && COMPILING.test(lines[i])) {
      ctx.explain(i);
      continue;
    }
    if (c !== LOWER_W && c !== LOWER_E) continue;
    const l = LEVEL.exec(lines[i]);
    if (!l) continue;
    // Its place: the first indented line that names an Elixir file, within its block.
    let j = i + 1;
    let place: RegExpExecArray | null = null;
    for (; j < lines.length && j - i < 30 && shape.first[j] === SPACE; j++) {
      place = PLACE.exec(lines[j]);
      if (place) break;
    }
    if (!place) continue;
    ctx.explain(i, j);
    out.push(
      finding(l[1] === "error" ? "error" : "warning", l[2], {
        location: place[3] ? `${place[1]}:${place[2]}:${place[3]}` : `${place[1]}:${place[2]}`,
        at: i,
      }),
    );
    i = j;
  }
  return out;
}

/** One numbered failure; returns its last line. */
function entry(
  lines: string[],
  i: number,
  test: string,
  file: string,
  defined: string,
  ctx: ReadContext,
  out: Finding[],
): number {
  let j = i + 2;
  const text: string[] = [];
  let frame: string | undefined;
  let inStack = false;
  for (; j < lines.length && j - i < 200; j++) {
    const l = lines[j];
    if (l.trim() === "") {
      if (inStack) break;
      continue;
    }
    if (ENTRY.test(l) || !l.startsWith("     ")) break;
    const t = l.trim();
    if (t === "stacktrace:") {
      inStack = true;
      continue;
    }
    if (inStack) {
      const f = FRAME.exec(l);
      if (f && frame === undefined && f[1] === file) frame = `${f[1]}:${f[2]}`;
      continue;
    }
    text.push(t);
  }
  while (j > i + 2 && lines[j - 1].trim() === "") j--;
  ctx.explain(i, j - 1);
  const raised = RAISED.exec(text[0] ?? "");
  const message = raised ? `${raised[1]}: ${raised[2]}` : text[0] ?? "failed";
  out.push(
    finding("test_failure", message, {
      test,
      location: frame ?? defined,
      detail: text.slice(1, 7),
      at: i,
    }),
  );
  return j - 1;
}

export const exunit: Reader = { name: "exunit", read: readExunit };
