/**
 * Compiler diagnostics in the form gcc, clang, swiftc, javac, rustc's short
 * format and many others share: `file:line[:col]: error|warning: message`,
 * with the code frame, caret and notes that follow them as detail; plus the
 * linker's undefined symbols and multiple definitions, and MSVC's (and
 * clang-cl's) `file(line[,col]): error C2065: message`. This is also the generic reader: it runs after
 * the format-specific ones and skips lines they already accounted for.
 */
import { type Finding, finding, location } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import {
  COLON,
  isDigit,
  LOWER_A,
  LOWER_E,
  LOWER_F,
  LOWER_I,
  LOWER_N,
  LOWER_R,
  LOWER_S,
  LOWER_U,
  LOWER_W,
  OPEN_PAREN,
  SLASH,
  SPACE,
  TAB,
  UPPER_A,
  UPPER_I,
  UPPER_U,
} from "../chars.ts";

/**
 * `file:line[:col]: severity: message`. The file may start with a Windows drive (`C:\src\a.c`, as
 * clang prints it on Windows), and may hold spaces when it ends in a file extension
 * (`src dir/a.c`): a word before a colon in prose has none.
 */
const DIAGNOSTIC =
  /^((?:[A-Za-z]:[\\/])?(?:[^\s:][^\s:]*|[^\s:][^:]*?\.[\w+]{1,8})):(\d+):(?:(\d+):)? (fatal error|error|warning|note|remark)(?:\[([^\]]+)\])?: (.*)$/;
const CONTEXT =
  /^(?:In file included from .*|\s+from .*[:,]|[^\s:][^:]*: (?:In (?:function|member function|static member function|constructor|destructor|instantiation of|substitution of|lambda function)|At (?:global|top level)).*:|\S+: note: .*|\d+ (?:errors?|warnings?)(?: generated)?\.?|cc1\w*: all warnings being treated as errors)$/;
const UNDEFINED_REF = /^(?:(.*?):(?:\([^)]*\)|\d+)?: )?undefined reference to [`'‘](.+?)['’]$/;
const LLD_ERROR = /^(?:[\w./-]*\bld(?:\.\w+)?|ld64(?:\.lld)?|lld-link|wasm-ld): error: (.*)$/;
const DRIVER_ERROR =
  /^(?:[\w./-]*\/)?(?:gcc|cc|clang|g\+\+|c\+\+|clang\+\+|swiftc|collect2)(?:-\d+)?: (?:fatal )?error: (.*)$/;
/** GNU ld: `[/usr/bin/ld: ]obj-or-source:(section+off)|:line: multiple definition of `sym'; …: first defined here`. */
const MULTIPLE_DEF =
  /^(?:[\w./-]*\bld(?:\.\w+)?: )?(.*?):(?:\([^)]*\)|\d+): multiple definition of [`'‘](.+?)['’](?:; (.*?): first defined here)?$/;
/** MSVC and clang-cl: `src\main.cpp(12,5): error C2065: message`. */
const MSVC = /^(.+?)\((\d+)(?:,(\d+))?\)\s?: (fatal error|error|warning) ([A-Z]+\d+)\s?: (.*)$/;
/** A Python source file (mypy's diagnostics use the compiler form). */
const PY_FILE = /\.pyi?$/;
/** A caret line under a code line: `   ~ ^ ~`, `      ^~~~`. */
const CARET = /^\s*[~^][~^ ]*$/;
const MAC_UNDEFINED = /^Undefined symbols for architecture (\S+):$/;
const LINKER_SUMMARY = /(?:ld returned \d+ exit status|linker command failed with exit code)/;

/** `file:LINE[:COL]: e|w|f|n|r…` after the first colon, checked by hand (far cheaper than the pattern on every line). */
function looksLikeDiagnostic(line: string, colon: number): boolean {
  let k = colon + 1;
  if (!isDigit(line.charCodeAt(k))) return false;
  while (isDigit(line.charCodeAt(k))) k++;
  if (line.charCodeAt(k) !== COLON) return false;
  k++;
  if (isDigit(line.charCodeAt(k))) {
    while (isDigit(line.charCodeAt(k))) k++;
    if (line.charCodeAt(k) !== COLON) return false;
    k++;
  }
  if (line.charCodeAt(k) !== SPACE) return false;
  const w = line.charCodeAt(k + 1);
  return w === LOWER_E || w === LOWER_W || w === LOWER_F || w === LOWER_N || w === LOWER_R;
}

function isPath(file: string): boolean {
  return /[A-Za-z]/.test(file) && !/^(?:https?|ftp|file)$/.test(file);
}

function readCompiler(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  let linkerSummary: string | undefined;
  let linkerSummaryAt = 0;
  let linkerFound = false;
  const { first } = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c = first[i];
    if (c === 0 || c === SPACE || c === TAB) continue; // diagnostics start at the margin
    if (ctx.explained(i)) continue;
    const line = lines[i];
    /** Where this line's diagnostic starts (`i` moves on over the lines that belong to it). */
    const at = i;
    // file:LINE: — the first colon is followed by a digit (a cheap test before the pattern)
    // A Windows drive's colon (`C:\src\a.c:3:1: error: …`) is not the one after the path.
    const drive = line.charCodeAt(1) === COLON && (line[2] === "\\" || line[2] === "/");
    const colon = line.indexOf(":", drive ? 2 : 0);
    if (colon > 0 && looksLikeDiagnostic(line, colon)) {
      const m = DIAGNOSTIC.exec(line);
      if (m && isPath(m[1])) {
        const sev = m[4];
        ctx.explain(i);
        if (sev === "note" || sev === "remark") {
          // A note's own code frame belongs to it.
          while (i + 1 < lines.length && /^\s*\d*\s*\|/.test(lines[i + 1])) ctx.explain(++i);
          continue;
        }
        const detail: string[] = [];
        let j = i + 1;
        while (j < lines.length && !ctx.explained(j)) {
          const next = lines[j];
          const f = first[j];
          if (f === SPACE || f === TAB) {
            // An indented line is the code frame, the caret, or javac's symbol lines; a blank one ends it.
            if (next.trim() === "") break;
            detail.push(next);
          } else if (j + 1 < lines.length && CARET.test(lines[j + 1])) {
            // clang prints the source line as it is (at the margin when the code is), the caret under it.
            detail.push(next);
          } else {
            const note = f === 0 ? null : DIAGNOSTIC.exec(next);
            if (note && (note[4] === "note" || note[4] === "remark") && !/\[SC\d+\]$/.test(next)) {
              detail.push(next);
            } else break;
          }
          ctx.explain(j);
          j++;
        }
        // mypy --pretty wraps a long message at the terminal's width: its further lines stand at the
        // margin before the code frame, the last one ending in the error code (`[assignment]`).
        let wrapped = "";
        if (detail.length === 0 && PY_FILE.test(m[1]) && !/\]$/.test(m[6])) {
          let k = j;
          while (
            k < lines.length && k - j < 4 && first[k] !== SPACE && first[k] !== 0 &&
            !ctx.explained(k) && !DIAGNOSTIC.test(lines[k]) && !/^(?:Found|Success:)/.test(lines[k])
          ) {
            wrapped += " " + lines[k].trim();
            ctx.explain(k);
            k++;
            if (/\]$/.test(lines[k - 1])) break;
          }
          // The code frame under it belongs to it too.
          while (
            k < lines.length && !ctx.explained(k) && first[k] === SPACE && lines[k].trim() !== ""
          ) {
            detail.push(lines[k]);
            ctx.explain(k);
            k++;
          }
          j = k;
        }
        i = j - 1;
        const message = (m[5] ? `${m[5]}: ${m[6]}` : m[6]) + wrapped;
        out.push(
          finding(sev === "warning" ? "warning" : "error", message, {
            location: location(m[1], m[2], m[3]),
            detail,
            at,
          }),
        );
        continue;
      }
    }
    // The rest are "In file included…", "Undefined symbols…", "2 errors generated.", ld's "x.c:(.text+0xa): …", and
    // "prog: error|fatal|undefined|In function|all warnings|symbol(s)|/path…": look no further at other lines.
    const next1 = colon > 0 ? line.charCodeAt(colon + 1) : 0;
    const after = colon > 0 ? line.charCodeAt(colon + 2) : 0;
    const maybe = c === UPPER_I || c === UPPER_U || isDigit(c) || next1 === OPEN_PAREN ||
      (next1 === SPACE &&
        (after === UPPER_I || after === UPPER_A || after === LOWER_N || after === LOWER_E ||
          after === LOWER_F ||
          after === LOWER_U ||
          after === LOWER_I || after === SLASH || after === LOWER_S || after === LOWER_A));
    // MSVC's place is `file(line[,col])` before the colon (a Windows path has a drive's colon before it).
    if (colon > 0 && (line.includes("): ") || line.includes(") : "))) {
      const ms = MSVC.exec(line);
      if (ms) {
        ctx.explain(i);
        out.push(
          finding(ms[4] === "warning" ? "warning" : "error", `${ms[5]}: ${ms[6]}`, {
            location: location(ms[1], ms[2], ms[3]),
            at,
          }),
        );
        continue;
      }
    }
    if (!maybe) continue;
    if (CONTEXT.test(line)) {
      ctx.explain(i);
      continue;
    }
    if (line.includes("undefined reference")) {
      const u = UNDEFINED_REF.exec(line.replace(/^\/\S*ld: /, ""));
      if (u) {
        ctx.explain(i);
        linkerFound = true;
        out.push(
          finding("error", `undefined reference to ${u[2]}`, { location: u[1] || undefined, at }),
        );
        continue;
      }
      if (/: in function [`'‘].*['’]:$/.test(line)) ctx.explain(i);
    }
    if (line.includes("multiple definition of")) {
      const md = MULTIPLE_DEF.exec(line);
      if (md) {
        ctx.explain(i);
        linkerFound = true;
        // The place is a source file when the linker knew it (b.c, or with -g b.c:2), else the object file.
        const where = md[1].replace(/^.*\.o:/, "");
        out.push(
          finding("error", `multiple definition of ${md[2]}`, {
            location: /\.o$/.test(where) ? undefined : where,
            detail: md[3] ? [`first defined here: ${md[3]}`] : [],
            at,
          }),
        );
        continue;
      }
    }
    if (/^\/\S*ld: .*: in function /.test(line)) {
      ctx.explain(i);
      continue;
    }
    const mac = MAC_UNDEFINED.exec(line);
    if (mac) {
      ctx.explain(i);
      const symbols: string[] = [];
      let j = i + 1;
      while (j < lines.length && /^\s+(?:"|referenced from|\S+ in )/.test(lines[j])) {
        const s = /^\s+"([^"]+)", referenced from:/.exec(lines[j]);
        if (s) symbols.push(s[1]);
        ctx.explain(j);
        j++;
      }
      i = j - 1;
      linkerFound = true;
      for (const s of symbols) {
        out.push(finding("error", `undefined symbol ${s} (${mac[1]})`, { at }));
      }
      continue;
    }
    const lld = LLD_ERROR.exec(line);
    if (lld) {
      ctx.explain(i);
      if (/^symbol\(s\) not found/.test(lld[1])) {
        if (linkerSummary === undefined) {
          linkerSummary = line;
          linkerSummaryAt = i;
        }
        continue;
      }
      const detail: string[] = [];
      let j = i + 1;
      while (j < lines.length && /^>>> /.test(lines[j])) {
        detail.push(lines[j]);
        ctx.explain(j);
        j++;
      }
      i = j - 1;
      const ref = detail.map((d) => /^>>> referenced by (\S+:\d+)/.exec(d)?.[1]).find(Boolean);
      linkerFound = true;
      out.push(finding("error", lld[1], { location: ref, detail, at }));
      continue;
    }
    if (/^ld: symbol\(s\) not found/.test(line)) {
      ctx.explain(i);
      if (linkerSummary === undefined) {
        linkerSummary = line;
        linkerSummaryAt = i;
      }
      continue;
    }
    const driver = DRIVER_ERROR.exec(line);
    if (driver) {
      ctx.explain(i);
      if (LINKER_SUMMARY.test(driver[1])) {
        if (linkerSummary === undefined) {
          linkerSummary = line;
          linkerSummaryAt = i;
        }
      } else out.push(finding("error", line, { at }));
    }
  }
  if (linkerSummary && !linkerFound) {
    out.push(finding("error", linkerSummary, { at: linkerSummaryAt }));
  }
  return out;
}

export const compiler: Reader = {
  name: "compiler",
  read: readCompiler,
};
