/**
 * A program that died, outside any test runner's report: a Python traceback,
 * an uncaught Node.js exception, a Java exception on a thread, a Rust panic,
 * a Perl script's `die` (`message at file line N.`). Each is one error at the
 * innermost frame in the program's own code, with the exception's line as
 * its message. Runs after the test runners' readers
 * and skips lines they accounted for (a traceback inside a pytest section is
 * pytest's).
 */
import { type Finding, finding } from "../findings.ts";
import { type Frame, jsFrame, pickFrame } from "../text.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import {
  CLOSE_PAREN,
  COLON,
  DOT,
  isDigit,
  isLower,
  isUpper,
  LOWER_P,
  LOWER_T,
  PLUS,
  SLASH,
  SPACE,
  UPPER_E,
  UPPER_I,
  UPPER_S,
  UPPER_T,
} from "../chars.ts";

const PY_FRAME = /^\s+File "([^"]+)", line (\d+)(?:, in (.+))?$/;
const PY_EXCEPTION =
  /^(?:[\w.]+(?:Error|Exception|ExceptionGroup|Exit|Interrupt|Warning)|(?:Base)?Exception(?:Group)?|[\w.]+\.[A-Z]\w+|KeyboardInterrupt|StopIteration)(?::\s?(.*))?$/;
// An ES module's place is a file URL: `file:///home/dev/app.mjs:3`.
// A throw inside Node's own library names that place instead: `node:fs:448`, `node:internal/…:12`.
const NODE_PLACE =
  /^(?:file:\/\/)?(\/\S+?|[A-Za-z]:\\\S+?|\.{0,2}\/?[\w./-]+\.[cm]?[jt]sx?|node:[\w/]+):(\d+)$/;
const NODE_ERROR = /^(?:Uncaught )?([A-Z]\w*(?:Error|Exception)|Error)(?: \[[\w_]+\])?: (.*)$/;
/**
 * Ruby's uncaught exception: `crash.rb:7:in 'fetch': key not found: :amount (KeyError)` (a
 * backquote opens the method's name before Ruby 3.4), its caller frames after as `\tfrom …`.
 */
const RUBY_DEATH = /^(\S.*?\.rb):(\d+):in [`'](.+?)': (.*) \(([A-Z][\w:]*)\)$/;
const RUBY_FROM = /^\s+from (\S.*?\.rb):(\d+):in /;
/** A frame in Ruby's own library or an installed gem, not the project's code. */
const RUBY_LIBRARY = /\/(?:gems|lib\/ruby|rubygems)\//;
const JAVA_THREAD = /^Exception in thread "([^"]+)" ([\w.$]+(?:Exception|Error)[\w$]*)(?:: (.*))?$/;
const JAVA_AT = /^\s+at ([\w.$<>]+)\(([\w$]+\.(?:java|kt|scala|groovy)):(\d+)\)$/;
/** Perl's `die`/`croak` without a newline, and its run-time errors: `text at file line N.` (`, <FH> line M` after reading). */
const PERL_DIE = /^(?!#)(\S.*?) at (\S+) line (\d+)(?:, <[^>]*> (?:line|chunk) \d+)?\.$/;
/** Perl's compile failure: the errors before it say what (`syntax error at file line N, near "…"`). */
const PERL_COMPILE_ABORTED =
  /^(?:Execution of \S+ aborted due to compilation errors|\S+ had compilation errors)\.$/;
const PERL_COMPILE_ERROR = /^(?!#)(\S.*?) at (\S+) line (\d+)(?:\.|, (.*))?$/;
const PERL_BEGIN_FAILED = "BEGIN failed--compilation aborted at ";
const RUST_PANIC = /^thread '([^']*)'(?: \(\d+\))? panicked at (.+?:\d+:\d+):$/;

/** Frames in the interpreter's own library or an installed package are not the program's own code. */
const PY_LIBRARY = /\/(?:lib\/python[\d.]+|site-packages|dist-packages)\/|^<frozen /;
/** The lines that join one traceback to the next in a chain of exceptions. */
const PY_CHAIN = /^(?:During handling|The above exception|Traceback \(most recent call last\):)/;
/** A line that cannot go on a message: a rule of a test runner's report (`=====`, `_____ test _____`). */
const PY_MESSAGE_END = /^[=_*#-]{3,}/;
/** A message's further lines kept as detail, at most. */
const PY_MESSAGE_LINES = 8;

/** The innermost frame outside the interpreter's own library (else the innermost). */
function ownFrame(frames: { file: string; line: string }[]): { file: string; line: string } {
  for (let k = frames.length - 1; k >= 0; k--) {
    if (!PY_LIBRARY.test(frames[k].file)) return frames[k];
  }
  return frames[frames.length - 1];
}

/**
 * A Python traceback from `Traceback (most recent call last):` to its exception line. A chain
 * (`During handling of the above exception…`, `The above exception was the direct cause…`) is one
 * death: the last exception is the message, the earlier ones are detail. A message that goes on
 * over more lines (`ValueError("a\nb")`) keeps them as detail.
 */
function python(
  lines: string[],
  i: number,
  ctx: ReadContext,
): { finding: Finding; end: number } | undefined {
  const frames: { file: string; line: string }[] = [];
  const earlier: string[] = [];
  let exception: string | undefined;
  let more: string[] = [];
  let end = i;
  let j = i + 1;
  for (; j < lines.length && j - i < 400; j++) {
    const l = lines[j];
    const f = PY_FRAME.exec(l);
    if (f) {
      frames.push({ file: f[1], line: f[2] });
      continue;
    }
    if (/^\s/.test(l) || l === "") continue; // the code line, the carets
    if (PY_CHAIN.test(l)) continue;
    if (!PY_EXCEPTION.test(l)) break;
    if (exception !== undefined) earlier.push(exception);
    exception = l;
    more = [];
    end = j;
    // The message's further lines, up to a blank line or the next traceback of the chain.
    let k = j + 1;
    while (
      k < lines.length && lines[k] !== "" && !PY_CHAIN.test(lines[k]) && !PY_FRAME.test(lines[k]) &&
      !PY_MESSAGE_END.test(lines[k]) && more.length < PY_MESSAGE_LINES
    ) more.push(lines[k++]);
    // Go on only when another traceback of the chain follows.
    let next = k;
    while (next < lines.length && lines[next] === "") next++;
    if (next < lines.length && /^(?:During handling|The above exception)/.test(lines[next])) {
      j = next;
      continue;
    }
    end = k - 1;
    break;
  }
  if (exception === undefined || frames.length === 0) return undefined;
  ctx.explain(i, end);
  const own = ownFrame(frames);
  const detail = [...more, ...earlier.map((e) => `raised while handling: ${e}`)];
  return {
    finding: finding("error", exception, { location: `${own.file}:${own.line}`, detail, at: i }),
    end,
  };
}

/** A compile error in the script Python was asked to run: its place and caret, no `Traceback` line. */
const PY_SYNTAX = /^(?:SyntaxError|IndentationError|TabError): /;
/** The interpreter could not start the program: `python3: can't open file …`, `… No module named x`. */
const PY_LAUNCH =
  /^\S*python[\d.]*(?:\.exe)?: (can't open file .*|No module named .*|Error while finding module specification for .*)$/;

function pythonSyntax(lines: string[], i: number, ctx: ReadContext): Finding | undefined {
  // `  File "x.py", line 3` at most five lines above (the code line, the carets between).
  for (let k = i - 1; k >= 0 && k >= i - 5; k--) {
    if (ctx.explained(k)) return undefined;
    const f = PY_FRAME.exec(lines[k]);
    if (!f) continue;
    ctx.explain(k, i);
    return finding("error", lines[i], { location: `${f[1]}:${f[2]}`, at: k });
  }
  return undefined;
}

/**
 * Python 3.11's exception groups: `+ Exception Group Traceback …`, every line of it behind `|`
 * bars, the group's own exception after its frames and each member exception in its numbered
 * block. One error at the group's own frame; the members are detail.
 */
function pythonGroup(
  lines: string[],
  i: number,
  ctx: ReadContext,
): { finding: Finding; end: number } | undefined {
  const frames: { file: string; line: string }[] = [];
  let exception: string | undefined;
  const members: string[] = [];
  let j = i + 1;
  for (; j < lines.length && j - i < 800; j++) {
    const bar = /^\s*[|+]/.exec(lines[j]);
    if (!bar) break;
    const inner = lines[j].replace(/^\s*(?:\| |\+[-+]* ?\d* ?-*)/, "");
    const f = PY_FRAME.exec(inner);
    if (f) {
      if (exception === undefined) frames.push({ file: f[1], line: f[2] });
      continue;
    }
    if (/^\s/.test(inner) || !PY_EXCEPTION.test(inner)) continue;
    if (exception === undefined) exception = inner;
    else members.push(inner);
  }
  if (exception === undefined || frames.length === 0) return undefined;
  ctx.explain(i, j - 1);
  const own = ownFrame(frames);
  return {
    finding: finding("error", exception, {
      location: `${own.file}:${own.line}`,
      detail: members,
      at: i,
    }),
    end: j - 1,
  };
}

function node(
  lines: string[],
  i: number,
  ctx: ReadContext,
  m: RegExpExecArray,
): { finding: Finding; end: number } | undefined {
  // file:line, the source line, the caret, a blank line, then "Error: message" and its stack.
  let j = i + 1;
  while (j < lines.length && j - i <= 4 && !NODE_ERROR.test(lines[j])) j++;
  const e = NODE_ERROR.exec(lines[j] ?? "");
  if (!e) return undefined;
  let k = j + 1;
  const frames: Frame[] = [];
  while (k < lines.length && /^\s+at /.test(lines[k])) {
    const f = jsFrame(lines[k]);
    if (f) frames.push(f);
    k++;
  }
  ctx.explain(i, k - 1);
  const frame = pickFrame(frames);
  // Thrown inside Node's library, the place that matters is the program's own frame that called it.
  const inNode = m[1].startsWith("node:");
  const location = frame && (frame.file === m[1] || inNode)
    ? `${frame.file}:${frame.line}:${frame.col}`
    : inNode
    ? undefined
    : `${m[1]}:${m[2]}`;
  return { finding: finding("error", `${e[1]}: ${e[2]}`, { location, at: i }), end: k - 1 };
}

/**
 * Perl's own warnings, which print in the shape of a death (`… at x.pl line
 * 6.`): the common ones of perldiag's warning classes, by their opening
 * words. (A script's own `warn "text"` without a newline looks like its
 * `die`; for a command that exited 0 none of these is kept.)
 */
const PERL_WARNING =
  /^(?:Use of uninitialized value|Argument "[^"]*" isn't numeric|Useless use of|Name "[^"]+" used only once|Scalar value |Odd number of elements|Deep recursion|Subroutine \S+ redefined|Possible (?:attempt|precedence|unintended)|Wide character|\w+\(\) on (?:closed|unopened) filehandle|Exiting (?:subroutine|eval) via|"my" variable \S+ masks|Found = in conditional|Reversed \S+= operator|Unquoted string|Unsuccessful \w+ on filename|Statement unlikely to be reached|Parentheses missing around|Applying pattern match|Misplaced _ in number|Possible unintended interpolation)/;

/**
 * A Perl script's deaths: each line in the shape `text at file line N.` that
 * is not one of Perl's own warnings. After a compile failure (`Execution of
 * x.pl aborted due to compilation errors.`) the first error above it is the
 * cause (a syntax error's line ends `near "…"`, not in a full stop); after
 * `BEGIN failed` the line before it (`Can't locate …`) is.
 */
function perl(lines: string[], lastChar: Uint16Array, ctx: ReadContext): Finding[] {
  const out: Finding[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lastChar[i] !== DOT || ctx.explained(i)) continue;
    const line = lines[i];
    if (
      !line.includes(" line ") && !line.includes(" aborted due to ") &&
      !line.includes(" had compilation errors")
    ) continue;
    if (PERL_COMPILE_ABORTED.test(line)) {
      // The first compile error of the run of them just above.
      let cause: RegExpExecArray | undefined;
      let at = i;
      for (let k = i - 1; k >= 0 && k >= i - 20 && !ctx.explained(k); k--) {
        const m = PERL_COMPILE_ERROR.exec(lines[k]);
        if (m) {
          cause = m;
          at = k;
        }
      }
      if (!cause) continue;
      ctx.explain(at, i);
      out.push(
        finding("error", cause[4] ? `${cause[1]}, ${cause[4]}` : cause[1], {
          location: `${cause[2]}:${cause[3]}`,
          at,
        }),
      );
      continue;
    }
    let die = PERL_DIE.exec(line);
    if (!die || PERL_WARNING.test(line)) continue;
    let at = i;
    if (
      line.startsWith(PERL_BEGIN_FAILED) && out.length > 0 && i > 0 && PERL_DIE.test(lines[i - 1])
    ) {
      // The line before said why (and was read already).
      ctx.explain(i);
      continue;
    }
    if (line.startsWith(PERL_BEGIN_FAILED)) {
      const before = i > 0 && !ctx.explained(i - 1) ? PERL_DIE.exec(lines[i - 1]) : null;
      if (before) {
        die = before;
        at = i - 1;
      }
    }
    ctx.explain(i);
    // A missing module's message lists the whole search path: the path is noise.
    const message = die[1].replace(/ \(@INC (?:contains|entries checked): [^)]*\)/, "");
    out.push(finding("error", message, { location: `${die[2]}:${die[3]}`, at }));
  }
  return out;
}

function readCrash(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const { first, lead, last: lastChar } = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c = first[i];
    // An exception group's traceback starts indented, behind a `+`.
    if (
      lead[i] === PLUS && c === SPACE &&
      lines[i].endsWith("Exception Group Traceback (most recent call last):")
    ) {
      if (ctx.explained(i)) continue;
      const r = pythonGroup(lines, i, ctx);
      if (r) {
        out.push(r.finding);
        i = r.end;
      }
      continue;
    }
    // Traceback…, /path.js:3, ./x.js:3, Exception in thread…, thread '…' panicked
    if (
      c !== UPPER_T && c !== SLASH && c !== DOT && c !== UPPER_E && c !== LOWER_T && !isLower(c) &&
      !isUpper(c)
    ) continue;
    // A script's own compile error (SyntaxError, IndentationError, TabError), or the interpreter unable to start it.
    // (Each kind is told by the characters it must hold before any pattern is tried.)
    if (
      (c === UPPER_S || c === UPPER_I || c === UPPER_T) && lines[i].includes("Error: ") &&
      !ctx.explained(i) && PY_SYNTAX.test(lines[i])
    ) {
      const f = pythonSyntax(lines, i, ctx);
      if (f) out.push(f);
      continue;
    }
    if ((c === SLASH || c === LOWER_P) && lines[i].includes("python")) {
      const l = PY_LAUNCH.exec(lines[i]);
      if (l && !ctx.explained(i)) {
        ctx.explain(i);
        out.push(finding("error", l[1], { at: i }));
        continue;
      }
    }
    // Ruby's death ends with the exception's class in parentheses.
    if (lastChar[i] === CLOSE_PAREN && lines[i].includes(".rb:") && !ctx.explained(i)) {
      const r = RUBY_DEATH.exec(lines[i]);
      if (r) {
        let k = i + 1;
        const places = [`${r[1]}:${r[2]}`];
        for (let from; k < lines.length && (from = RUBY_FROM.exec(lines[k])); k++) {
          places.push(`${from[1]}:${from[2]}`);
        }
        ctx.explain(i, k - 1);
        out.push(
          finding("error", `${r[4]} (${r[5]})`, {
            // The innermost frame in the project: not Ruby's library nor a gem's.
            location: places.find((p) => !RUBY_LIBRARY.test(p)) ?? places[0],
            detail: [`in '${r[3]}'`],
            at: i,
          }),
        );
        i = k - 1;
        continue;
      }
    }
    // Traceback… ends in ":", Exception in thread… anything, thread … panicked ends in ":", a Node place in a digit
    const e = lastChar[i];
    if (c !== UPPER_E && e !== COLON && !isDigit(e)) continue;
    if (ctx.explained(i)) continue;
    const line = lines[i];
    if (c === UPPER_T && line === "Traceback (most recent call last):") {
      const r = python(lines, i, ctx);
      if (r) {
        out.push(r.finding);
        i = r.end;
      }
      continue;
    }
    if (c === UPPER_E && line.startsWith("Exception in thread ")) {
      const t = JAVA_THREAD.exec(line);
      if (!t) continue;
      let k = i + 1;
      let place: RegExpExecArray | null = null;
      const causes: string[] = [];
      while (
        k < lines.length && /^\s+(?:at |\.\.\. \d+ more|Caused by)|^Caused by: /.test(lines[k])
      ) {
        const at = JAVA_AT.exec(lines[k]);
        if (at && !place && !/^(?:java|javax|jdk|sun|kotlin)\./.test(at[1])) place = at;
        if (!at && lines[k].trimStart().startsWith("Caused by: ")) causes.push(lines[k].trim());
        k++;
      }
      ctx.explain(i, k - 1);
      // A wrapper with no message of its own (ExceptionInInitializerError, InvocationTargetException)
      // says nothing without its root cause, the last "Caused by:".
      const root = causes.at(-1)?.slice("Caused by: ".length);
      out.push(
        finding("error", t[3] ? `${t[2]}: ${t[3]}` : root ? `${t[2]}, caused by ${root}` : t[2], {
          location: place ? `${place[2]}:${place[3]}` : undefined,
          detail: causes,
          at: i,
        }),
      );
      i = k - 1;
      continue;
    }
    if (c === LOWER_T && line.startsWith("thread '")) {
      const p = RUST_PANIC.exec(line);
      if (!p) continue;
      let k = i + 1;
      const msg: string[] = [];
      while (
        k < lines.length && lines[k] !== "" && !/^(?:note: |stack backtrace:)/.test(lines[k]) &&
        msg.length < 6
      ) msg.push(lines[k++].trim());
      ctx.explain(i, k - 1);
      out.push(
        finding("error", msg.join(" ") || "panicked", {
          location: p[2],
          detail: [`thread '${p[1]}'`],
          at: i,
        }),
      );
      i = k - 1;
      continue;
    }
    // "/path/x.js:3": ends in a digit
    const last = line.charCodeAt(line.length - 1);
    if (isDigit(last) && line.length < 300 && line.includes(":")) {
      const m = NODE_PLACE.exec(line);
      if (m) {
        const r = node(lines, i, ctx, m);
        if (r) {
          out.push(r.finding);
          i = r.end;
        }
      }
    }
  }
  out.push(...perl(lines, lastChar, ctx));
  return out;
}

export const crash: Reader = { name: "crash", read: readCrash };
