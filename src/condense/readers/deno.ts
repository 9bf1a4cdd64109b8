/**
 * deno test and deno check. deno test prints ` ERRORS ` with each failure as
 * `name => ./file_test.ts:15:6` and its `error:` and stack, then ` FAILURES `
 * repeating the names (the same failures). deno check prints
 * `TS2339 [ERROR]: message` with `at file:///…:4:17` below; other deno
 * errors are `error: message` with an `at file:///…` place.
 */
import { type Finding, finding } from "../findings.ts";
import { type Frame, frameInBody, hasText, isBlank, jsFrame, pickFrame } from "../text.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { assertionEvidence } from "./evidence.ts";
import {
  CLOSE_PAREN,
  DASH,
  isDigit,
  LOWER_E,
  LOWER_O,
  LOWER_R,
  SPACE,
  UPPER_C,
  UPPER_D,
  UPPER_E,
  UPPER_F,
  UPPER_S,
  UPPER_T,
} from "../chars.ts";

const HEADING = /^\s?(ERRORS|FAILURES)\s?$/;
/** `name => ./file_test.ts:15:6`; the file may hold spaces (`./src dir/a_test.ts`), the name ` => `. */
const FAILURE = /^(.+) => (\.{0,2}\/?\S.*?):(\d+):(\d+)$/;
const UNCAUGHT = /^(\.{0,2}\/?\S.*?) \(uncaught error\)$/;
const RESULT = /^(?:ok|FAILED) \| \d+ passed.*\| \d+ failed/;
const INLINE = /^\s*.+ \.\.\. (?:ok|FAILED|ignored|cancelled)(?: .*)?$/;
const CHECK = /^(TS\d+) \[(ERROR|WARN|WARNING)\]: (.*)$/;
const ERROR = /^error: (.*)$/;
// Module constants, not literals in the loop: a literal is a new RegExp each time it is reached (ADR 0650).
const OUTPUT_RULE = /^-{5,7} (?:output|pre-test output|post-test output)(?: end)? -{5,7}$/;
const UNKNOWN_FRAME = /^\s+\d+: <unknown>$/;
const AT = /^\s+at (?:file:\/\/)?(\S.*?):(\d+):(\d+)$/;

// The patterns need a last digit and " => ", the " (uncaught error)" ending, and at most ten characters: tested first, far cheaper.
function isFailure(line: string): boolean {
  const last = line.charCodeAt(line.length - 1);
  return isDigit(last) && hasText(line, "=>", " => ") && FAILURE.test(line);
}
function isUncaught(line: string): boolean {
  return line.endsWith(" (uncaught error)") && UNCAUGHT.test(line);
}
function isHeading(line: string): boolean {
  return line.length <= 10 && HEADING.test(line);
}

function readDeno(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  let part = "";
  const shape = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c0 = shape.first[i];
    if (part === "") {
      // TS… [ERROR], error:, ok |, FAILED |, Found, running, Check, Download, Stack backtrace, ---- output, the
      // " ERRORS " heading, a backtrace frame, or an inline "name ... ok (1ms)" line (any start, ends in ")").
      const l = shape.lead[i];
      const candidate = c0 === UPPER_T || c0 === LOWER_E || c0 === LOWER_O || c0 === UPPER_F ||
        c0 === LOWER_R ||
        c0 === UPPER_C || c0 === UPPER_D ||
        c0 === UPPER_S || c0 === DASH || (c0 === SPACE && (l === UPPER_E || isDigit(l)));
      if (!candidate && (shape.last[i] !== CLOSE_PAREN || !hasText(lines[i], "...", " ... "))) {
        continue;
      }
    }
    const line = lines[i];
    const h = line.length <= 12 && (c0 === SPACE || c0 === UPPER_E || c0 === UPPER_F)
      ? HEADING.exec(line)
      : null;
    if (h) {
      part = h[1];
      ctx.explain(i);
      // A window that starts among the part's entries is given its heading first (ADR 0705).
      ctx.heading?.(i, 0);
      continue;
    }
    if (c0 === LOWER_O || c0 === UPPER_F) {
      // "ok | 2 passed | 0 failed", "FAILED | …", "Found 3 errors."
      if (RESULT.test(line)) {
        ctx.explain(i);
        part = "";
        // The parts end here: a later window is given no heading from before.
        ctx.headingEnds?.(i, 0);
        continue;
      }
      if (c0 === UPPER_F && line.startsWith("Found ") && /^Found \d+ errors?\.$/.test(line)) {
        ctx.explain(i);
        continue;
      }
    }
    if (
      (c0 === LOWER_R && line.startsWith("running ") && / tests? from /.test(line)) ||
      (c0 === UPPER_C && line.startsWith("Check ")) ||
      (c0 === UPPER_D && line.startsWith("Download ")) ||
      (c0 === UPPER_S && line === "Stack backtrace:") ||
      // At least five dashes: the fifth character first, before the pattern.
      (c0 === DASH && line.charCodeAt(4) === DASH && OUTPUT_RULE.test(line)) ||
      (c0 === SPACE && UNKNOWN_FRAME.test(line))
    ) {
      ctx.explain(i);
      continue;
    }
    if (
      part === "" && line.charCodeAt(line.length - 1) === CLOSE_PAREN &&
      hasText(line, "...", " ... ") &&
      INLINE.test(line)
    ) {
      ctx.explain(i);
      continue;
    }
    if (part === "FAILURES") {
      if (isFailure(line) || isUncaught(line)) ctx.explain(i);
      continue;
    }
    if (part === "ERRORS") {
      const f = hasText(line, "=>", " => ") ? FAILURE.exec(line) : null;
      const u = f || !line.endsWith(" (uncaught error)") ? null : UNCAUGHT.exec(line);
      if (!f && !u) continue;
      let j = i + 1;
      while (
        j < lines.length && j - i < 150 && !isFailure(lines[j]) && !isUncaught(lines[j]) &&
        !isHeading(lines[j])
      ) j++;
      ctx.explain(i, j - 1);
      // One pass over the error: its frames, and its first lines of text (an object's diff reaches
      // its marked lines within them).
      const frames: Frame[] = [];
      const text: string[] = [];
      for (let k = i + 1; k < j; k++) {
        const l = lines[k];
        const fr = jsFrame(l);
        if (fr) frames.push(fr);
        else if (text.length < 40 && !isBlank(l)) text.push(l.trim());
      }
      const file = f ? f[2] : u![1];
      // The frame in the test's body: in its file, at or after the line the test is defined on.
      const inBody = frameInBody(frames, file, f ? Number(f[3]) : 0, f ? `${f[3]}:${f[4]}` : "");
      const frame = inBody ?? pickFrame(frames, file);
      const message = (text[0] ?? "failed").replace(/^error: /, "");
      const loc = frame
        ? `${frame.file}:${frame.line}:${frame.col}`
        : f
        ? `${f[2]}:${f[3]}:${f[4]}`
        : u![1];
      if (f) {
        const name = f[1].replace(/ \.\.\. /g, " > ");
        out.push(
          finding("test_failure", message, {
            test: name,
            location: loc,
            detail: assertionEvidence(
              text.slice(1).filter((l) => !/^\^|~/.test(l) && !l.startsWith("throw ")),
              5,
            ),
            at: i,
          }),
        );
      } else {
        out.push(finding("error", message, { location: loc, at: i }));
      }
      i = j - 1;
      continue;
    }
    if (part === "" && c0 !== UPPER_T && c0 !== LOWER_E) continue; // TS… [ERROR] and error: are all that is left
    const c = c0 === UPPER_T ? CHECK.exec(line) : null;
    const e = c || c0 !== LOWER_E ? null : ERROR.exec(line);
    if (!c && !e) continue;
    // The place is the first `at file:…` within the next few lines.
    let at: RegExpExecArray | null = null;
    let j = i + 1;
    for (; j < lines.length && j <= i + 4; j++) {
      at = AT.exec(lines[j]);
      if (at || CHECK.test(lines[j]) || ERROR.test(lines[j])) break;
    }
    if (!at) {
      if (c) {
        ctx.explain(i);
        out.push(finding(c[2] === "ERROR" ? "error" : "warning", `${c[1]}: ${c[3]}`, { at: i }));
      } else if (e![1].startsWith("Uncaught ")) {
        // An uncaught error: the code line and caret, then its stack (`at fn (file:///…:1:41)`);
        // the place is the program's own innermost frame.
        let k = i + 1;
        const frames: Frame[] = [];
        // (The code line is printed as it stands, so it may start at the margin.)
        while (
          k < lines.length && k - i < 60 && lines[k] !== "" && (/^\s/.test(lines[k]) || k === i + 1)
        ) {
          const fr = jsFrame(lines[k]);
          if (fr) frames.push(fr);
          k++;
        }
        const frame = pickFrame(frames);
        ctx.explain(i, k - 1);
        out.push(
          finding("error", e![1], {
            location: frame ? `${frame.file}:${frame.line}:${frame.col}` : undefined,
            at: i,
          }),
        );
        i = k - 1;
      } else if (
        /^(?:Type checking failed|Test failed|Module not found .*|Import .* not a dependency.*)$/
          .test(e![1])
      ) {
        ctx.explain(i);
        if (/^(?:Module not found|Import )/.test(e![1])) {
          out.push(finding("error", e![1], { at: i }));
        }
      }
      continue;
    }
    // Related information (indented "The expected type comes from …") belongs to this one.
    let k = j + 1;
    while (k < lines.length && lines[k].trim() !== "" && /^\s/.test(lines[k])) k++;
    while (k + 1 < lines.length && lines[k].trim() === "" && /^\s{4}\S/.test(lines[k + 1])) {
      k++;
      while (k < lines.length && lines[k].trim() !== "" && /^\s/.test(lines[k])) k++;
    }
    ctx.explain(i, k - 1);
    const kind = c ? (c[2] === "ERROR" ? "error" : "warning") : "error";
    const message = c ? `${c[1]}: ${c[3]}` : e![1];
    const detail = lines.slice(j + 1, k).map((l) => l.trim()).filter((l) =>
      l !== "" && !/^at /.test(l)
    );
    out.push(finding(kind, message, { location: `${at[1]}:${at[2]}:${at[3]}`, detail, at: i }));
    i = k - 1;
  }
  return out;
}

export const deno: Reader = {
  name: "deno",
  read: readDeno,
};
