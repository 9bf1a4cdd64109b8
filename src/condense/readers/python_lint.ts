/**
 * Python linters: flake8 (and ruff's concise output), `path:row:col: CODE
 * message` — the run fails on any of them, and they carry no severity, so
 * each is an error; and pylint, `path:line:col: C0114: message (symbol)`
 * under a `************* Module name` heading, its letter the category:
 * E (error) and F (fatal) are errors, W, C, R and I are warnings (info is
 * not shown by default), also in its parseable and msvs formats. ruff's full output in the layout of rustc (ruff
 * 0.12 and later): `F401 [*] message` with the place on the next line,
 * ` --> path.py:1:8`, then a code frame and `help:` lines. mypy's `path:line: error: message` is the generic
 * compiler form, read by compiler.ts.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { ASTERISK, DASH, isUpper, SPACE, TAB, UPPER_Y } from "../chars.ts";

/** flake8's default format and ruff's concise one (`[*]`: ruff can fix it). Codes: letters then digits. */
const FLAKE8 = /^(.+?\.pyi?):(\d+):(\d+): ([A-Z]{1,3}\d{2,4}) (?:\[\*\] )?(.+)$/;
/** pylint's default text format. */
const PYLINT = /^(.+?\.pyi?):(\d+):(\d+): ([CRWEFI])(\d{4}): (.*?)(?: \(([\w-]+)\))?$/;
/** ruff's full output: the code and message, then ` --> path:row:col` on the next line. */
const RUFF_HEAD = /^([A-Z]{1,3}\d{2,4}) (?:\[\*\] )?(.+)$/;
const RUFF_PLACE = /^\s*--> (.+?\.pyi?):(\d+):(\d+)$/;
/**
 * pylint's `parseable` and `msvs` formats: `path:line: [C0301(line-too-long), obj] message`, and
 * `path(line): [C0301(line-too-long), obj] message`.
 */
const PYLINT_PARSEABLE =
  /^(.+?\.pyi?)(?::(\d+):|\((\d+)\):) \[([CRWEFI])(\d{4})(?:\(([\w-]+)\))?, ?[^\]]*\] (.*)$/;
const PYLINT_MODULE = /^\*{13} Module \S+$/;
const DASH_RULE = /^-{10,}$/;
const PYLINT_SCORE = /^Your code has been rated at -?[\d.]+\/10/;

function readPythonLint(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const { first } = shapeOf(lines, ctx);
  let pylint = false;
  for (let i = 0; i < lines.length; i++) {
    const c = first[i];
    if (c === 0 || c === SPACE || c === TAB) continue;
    const line = lines[i];
    if (c === ASTERISK /* * */) {
      if (PYLINT_MODULE.test(line)) {
        pylint = true;
        ctx.explain(i);
      }
      continue;
    }
    if (c === UPPER_Y || c === DASH) {
      // pylint's closing score and the rule of dashes above it
      // The score starts with "Your": a dash-led line (most often not pylint's) tries only the rule.
      if ((c === UPPER_Y && PYLINT_SCORE.test(line)) || (pylint && DASH_RULE.test(line))) {
        ctx.explain(i);
      }
      continue;
    }
    if (isUpper(c) && i + 1 < lines.length && lines[i + 1].includes("--> ")) {
      const head = RUFF_HEAD.exec(line);
      const place = head ? RUFF_PLACE.exec(lines[i + 1]) : null;
      if (head && place) {
        // The code frame and help lines, up to the blank line that ends the diagnostic.
        let j = i + 2;
        while (j < lines.length && j - i < 60 && lines[j].trim() !== "") j++;
        ctx.explain(i, j - 1);
        out.push(
          finding("error", `${head[2]} (${head[1]})`, {
            location: `${place[1]}:${place[2]}:${place[3]}`,
            at: i,
          }),
        );
        i = j - 1;
        continue;
      }
    }
    // Both forms have ".py:" followed by digits: looked for before any pattern is tried.
    const at = line.indexOf(".py");
    if (at < 1 || ctx.explained(i)) continue;
    const p = PYLINT.exec(line);
    if (p) {
      ctx.explain(i);
      const kind = p[4] === "E" || p[4] === "F" ? "error" : "warning";
      const message = p[7] ? `${p[6]} (${p[4]}${p[5]} ${p[7]})` : `${p[6]} (${p[4]}${p[5]})`;
      out.push(finding(kind, message, { location: `${p[1]}:${p[2]}:${p[3]}`, at: i }));
      continue;
    }
    const pp = line.includes(": [") ? PYLINT_PARSEABLE.exec(line) : null;
    if (pp) {
      ctx.explain(i);
      const kind = pp[4] === "E" || pp[4] === "F" ? "error" : "warning";
      const code = pp[6] ? `${pp[4]}${pp[5]} ${pp[6]}` : `${pp[4]}${pp[5]}`;
      out.push(
        finding(kind, `${pp[7]} (${code})`, { location: `${pp[1]}:${pp[2] ?? pp[3]}`, at: i }),
      );
      continue;
    }
    const f = FLAKE8.exec(line);
    if (f) {
      ctx.explain(i);
      out.push(
        finding("error", `${f[5]} (${f[4]})`, { location: `${f[1]}:${f[2]}:${f[3]}`, at: i }),
      );
    }
  }
  return out;
}

export const pythonLint: Reader = { name: "python-lint", read: readPythonLint };
