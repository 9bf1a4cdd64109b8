/**
 * ShellCheck's default (tty) format: `In file line N:`, the source line, and
 * caret lines `^-- SC2086 (warning): message` whose caret column is the
 * column. Its gcc format (`file:3:12: warning: … [SC2086]`) is the generic
 * compiler form, which this reader leaves to the compiler reader but for its
 * notes.
 *
 * ShellCheck's info and style notes are findings of the mildest kind, a
 * warning whose message starts `note:` (the gcc format calls both levels
 * `note`): ShellCheck fails a run for them unless `--severity` says
 * otherwise, so a run that printed only notes failed for them.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { CLOSE_BRACKET, LOWER_H, SPACE, UPPER_D, UPPER_F, UPPER_I } from "../chars.ts";

const IN = /^In (.+) line (\d+):$/;
const CARET = /^(\s*)\^[-^]*\s+(SC\d+) \((error|warning|info|style)\): (.*)$/;
/** A note in the gcc format: `deploy.sh:3:12: note: Double quote … [SC2086]`. */
const GCC_NOTE = /^(.+?):(\d+):(\d+): note: (.*) \[(SC\d+)\]$/;

/** A finding of ShellCheck's level: error and warning as they are, info and style as notes. */
function atLevel(
  level: string,
  message: string,
  code: string,
  location: string,
  at: number,
): Finding {
  if (level === "error" || level === "warning") {
    return finding(level, `${message} [${code}]`, { location, at });
  }
  return finding("warning", `note: ${message} [${code}]`, { location, at });
}

function readShellcheck(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const shape = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c0 = shape.first[i];
    // In …, For more information, Did you mean, and the indented wiki links
    if (
      c0 !== UPPER_I && c0 !== UPPER_F && c0 !== UPPER_D &&
      !(c0 === SPACE && shape.lead[i] === LOWER_H && lines[i].includes("shellcheck.net"))
    ) {
      // A gcc-format note ends with its code: `… [SC2086]`.
      if (shape.last[i] === CLOSE_BRACKET && lines[i].includes(": note: ")) {
        const n = GCC_NOTE.exec(lines[i]);
        if (n) {
          out.push(atLevel("note", n[4], n[5], `${n[1]}:${n[2]}:${n[3]}`, i));
          ctx.explain(i);
        }
      }
      continue;
    }
    const h = IN.exec(lines[i]);
    if (!h) {
      if (
        /^(?:For more information:|\s+https:\/\/www\.shellcheck\.net\/wiki\/SC\d+ -- .*|Did you mean: ?)$/
          .test(lines[i])
      ) ctx.explain(i);
      continue;
    }
    let j = i + 1;
    while (
      j < lines.length && !IN.test(lines[j]) && !/^For more information:/.test(lines[j]) &&
      !/^Did you mean:/.test(lines[j])
    ) {
      const c = CARET.exec(lines[j]);
      if (c) out.push(atLevel(c[3], c[4], c[2], `${h[1]}:${h[2]}:${c[1].length + 1}`, i));
      j++;
    }
    // "Did you mean:" and its fixed line belong to this block too.
    if (/^Did you mean:/.test(lines[j] ?? "")) {
      j++;
      while (j < lines.length && lines[j].trim() !== "") j++;
    }
    ctx.explain(i, j - 1);
    i = j - 1;
  }
  return out;
}

export const shellcheck: Reader = { name: "shellcheck", read: readShellcheck };
