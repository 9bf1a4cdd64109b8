/**
 * A run that stopped part-way, told by what was running when it stopped, and
 * the shell's own complaints:
 *
 * - A GoogleTest test whose `[ RUN ]` line has no result after it, where the
 *   output ends (the binary died: a signal, `abort()`, an `assert`, a timeout
 *   or Ctrl-C) or where the shell reports the binary's death
 *   (`ci.sh: line 3: 6123 Segmentation fault  ./build/test`). The test is the
 *   finding, with the signal when the output names it and the lines the test
 *   printed before it died (glibc's `Assertion … failed.` gives the place).
 * - A script traced with `bash -x`/`sh -x` whose output ends with its last
 *   traced command (`+ cp notes.txt dist/`) and that command's complaint, no
 *   other reader's: under `set -e`, or as the script's last command, that
 *   command's failure is the script's. The complaint is the message, the
 *   traced command the detail.
 * - A Python process killed by a fatal signal, as its faulthandler reports it
 *   (pytest turns it on): `Fatal Python error: Segmentation fault` (often
 *   after a test's progress dot on the same line) and the crashing thread's
 *   frames, most recent first; the first frame in the program's own code is
 *   the place.
 * - bash's and dash's errors in a script: `release.sh: line 8: packer:
 *   command not found`, `check.sh: 3: packer: not found`, at the script's line.
 *
 * Like a program's death (the crash reader), none of this is a finding for a
 * run that exited 0 (a script may look for a command and carry on without
 * it): FAILED_RUN_READERS names both. It runs last, so "no other reader's"
 * sees every reader's marks.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { DASH, EQUALS, isDigit, LOWER_O, OPEN_BRACKET, PLUS, UPPER_C, UPPER_F } from "../chars.ts";

const RUN = "[ RUN      ] ";
/** GoogleTest's first line in a binary's run: `[==========] Running 3 tests from 1 test suite.` */
const START = "[==========] Running ";
/** ctest's line for a test it ran (`1/3 Test #1: crash_test ...***Exception: SegFault`): ctest reports the death. */
const CTEST_STATUS = /^\s*\d+\/\d+ +Test +#\d+: /;
/** A test's result: `[       OK ] X (0 ms)`, `[  FAILED  ] X (1 ms)`, `[  SKIPPED ] X (0 ms)`. */
const RESULT = /^\[ *(?:OK|FAILED|SKIPPED) *\] (\S+?)(?:,| |$)/;
/** The signals a shell names when a job it waited for died of one. */
const SIGNAL =
  "Segmentation fault|Aborted|Killed|Bus error|Floating point exception|Illegal instruction|Terminated|Trace/breakpoint trap|Hangup|Quit|Interrupt|User defined signal [12]";
/**
 * A shell's report of a program killed by a signal: bash in a script names the script, its line and
 * the process (`ci.sh: line 3:  6123 Segmentation fault      (core dumped) ./build/test`); an
 * interactive shell and dash print the signal alone.
 */
const SHELL_DEATH = new RegExp(
  `^(?:(.+?): line (\\d+): +\\d+ )?(${SIGNAL})(?: +\\(core dumped\\))?(?: +(.*))?$`,
);
/** bash's error in a script: `release.sh: line 8: packer: command not found` (`bash: line 1:` for `-c`). */
const BASH_ERROR = /^(.+?): line (\d+): (.+)$/;
/** dash's: `check.sh: 3: packer: not found`, `check.sh: 5: Syntax error: "fi" unexpected`. */
const DASH_ERROR =
  /^(.+?): (\d+): (.+?: not found|Syntax error: .+|.+?: parameter not set|cannot open .+|.+?: Permission denied)$/;
/** glibc's failed `assert`: `prog: file.cpp:7: int f(int): Assertion `x > 0' failed.` */
const ASSERTION = /^[^:]+: (.+?):(\d+): .*?(Assertion `.*' failed\.)$/;
/** C++'s uncaught exception: `terminate called after throwing an instance of 'std::runtime_error'`. */
const TERMINATE =
  /^terminate called (?:after throwing an instance of '(.+)'|without an active exception)/;
/** A shell trace line (xtrace with the default PS4): `+ cmd`, `++ cmd` inside a substitution. */
const TRACE = /^(\++) (.*)$/;
/** Where a shell names itself rather than a script (`bash -c`): no script line to point at. */
const SHELL_ITSELF = /^(?:-?(?:ba|da|z|k)?sh|\/bin\/(?:ba)?sh|\/usr\/bin\/(?:env )?bash)$/;
const GO_RUN = "=== RUN   ";
const GO_CONT = "=== CONT  ";
/** `--- PASS: TestX (0.00s)`, indented for a subtest. */
const GO_RESULT = /^\s*--- (PASS|FAIL|SKIP): (\S+) \(/;
/** A package's result: `FAIL\texample.com/wait\t5.738s`, `ok  \texample.com/wait\t0.01s`. */
const GO_PACKAGE = /^(FAIL|ok)\s+(\S+)\s/;

/** The go test that was running when its binary stopped (its package named where go printed it). */
function stoppedGoTest(name: string, at: number, pkg?: string): Finding {
  const where = pkg ? `the test binary of ${pkg}` : "the output";
  return finding("test_failure", `did not finish: ${where} stopped inside it`, { test: name, at });
}

/** The first letters of the signals' names: a line starting otherwise is no bare signal report. */
const SIGNAL_FIRST = new Set([..."SABKFITHQU"].map((ch) => ch.charCodeAt(0)));

/** Whether a line may be dash's `script: 3: …`: a digit after its first `: `. */
function dashLike(line: string): boolean {
  const p = line.indexOf(": ");
  return p > 0 && isDigit(line.charCodeAt(p + 2));
}

/** faulthandler's heading of the thread that crashed. */
const CURRENT_THREAD = "Current thread 0x";
/** faulthandler's frame: `  File "/home/dev/p/test_native.py", line 10 in test_reads`. */
const FAULT_FRAME = /^\s+File "(.+)", line (\d+) in (.+)$/;
/** Frames in the interpreter's own library or an installed package are not the program's own code. */
const PY_LIBRARY = /\/(?:lib\/python[\d.]+|site-packages|dist-packages)\/|^<frozen /;
const FATAL = "Fatal Python error: ";
/** Lines above the crashing thread's heading looked through for the fatal error (other threads' dumps). */
const FATAL_LOOKBACK = 60;

/** A Python fatal error whose crashing thread's heading is line `at`: one error at its own frame. */
function pythonFatal(
  lines: string[],
  at: number,
  ctx: ReadContext,
): { finding: Finding; end: number } | undefined {
  let error: string | undefined;
  let from = at;
  for (let k = at - 1; k >= 0 && k >= at - FATAL_LOOKBACK; k--) {
    const p = lines[k].indexOf(FATAL);
    if (p !== -1) {
      error = lines[k].slice(p);
      from = k;
      break;
    }
  }
  if (!error) return undefined;
  let own: RegExpExecArray | undefined;
  let innermost: RegExpExecArray | undefined;
  let end = at;
  for (let k = at + 1; k < lines.length; k++) {
    const f = FAULT_FRAME.exec(lines[k]);
    if (!f) break;
    end = k;
    innermost ??= f;
    if (!own && !PY_LIBRARY.test(f[1])) own = f;
  }
  const frame = own ?? innermost;
  // pytest -v printed the running test's id before the error, on its line.
  const running = /^(\S+::\S+) /.exec(lines[from]);
  // The line holding the error may begin with a test's progress (`test_x.py .Fatal …`): only the
  // error's own lines are accounted for.
  ctx.explain(from + (lines[from].startsWith(FATAL) ? 0 : 1), end);
  return {
    finding: finding("error", frame ? `${error} (in ${frame[3]})` : error, {
      location: frame ? `${frame[1]}:${frame[2]}` : undefined,
      test: running?.[1],
      at: from,
    }),
    end,
  };
}

/** Lines the died test printed kept as detail, at most. */
const PRINTED_LINES = 8;

function place(script: string, line: string): string | undefined {
  return SHELL_ITSELF.test(script) ? undefined : `${script}:${line}`;
}

/** The finding for a GoogleTest test that never reported, from what it printed and how it died. */
function diedTest(name: string, at: number, printed: string[], signal?: string): Finding {
  let location: string | undefined;
  let cause: string | undefined;
  for (let k = 0; k < printed.length; k++) {
    const a = ASSERTION.exec(printed[k]);
    if (a) {
      location = `${a[1]}:${a[2]}`;
      cause = a[3];
      break;
    }
    const t = TERMINATE.exec(printed[k]);
    if (t) {
      const what = /^\s*what\(\):\s*(.*)$/.exec(printed[k + 1] ?? "");
      cause = t[1] ? `uncaught ${t[1]}${what ? `: ${what[1]}` : ""}` : "terminate called";
      break;
    }
  }
  const how = signal
    ? `the test binary died of ${signal}`
    : cause
    ? "the test binary aborted"
    : "the output ends inside it (the test binary died or was stopped)";
  const message = cause ? `${cause} (${how})` : `did not finish: ${how}`;
  return finding("test_failure", message, {
    test: name,
    location,
    detail: printed.slice(-PRINTED_LINES),
    at,
  });
}

function readUnfinished(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const shape = shapeOf(lines, ctx);
  const first = shape.first;
  let running: { name: string; at: number } | undefined;
  let lastTrace = -1;
  /** go test -v's tests started (`=== RUN`) and not yet reported, in the order they started. */
  const goOpen: string[] = [];
  /** Whether the package being read reported a failed test of its own. */
  let goFailed = false;
  for (let i = 0; i < lines.length; i++) {
    const c = first[i];
    const line = lines[i];
    if (c === OPEN_BRACKET) {
      if (line.startsWith(RUN)) {
        running = { name: line.slice(RUN.length).trim(), at: i };
        continue;
      }
      const r = RESULT.exec(line);
      if (r && running && r[1] === running.name) running = undefined;
      // Another binary's run begins: the one before ended, and its runner says how (ctest does).
      if (line.startsWith(START)) running = undefined;
      continue;
    }
    if (running && CTEST_STATUS.test(line)) {
      running = undefined;
      continue;
    }
    // go test -v: the tests started and not finished, the last started last.
    if (c === EQUALS && (line.startsWith(GO_RUN) || line.startsWith(GO_CONT))) {
      const name = line.slice(GO_RUN.length).trim();
      const k = goOpen.indexOf(name);
      if (k !== -1) goOpen.splice(k, 1);
      goOpen.push(name);
      continue;
    }
    if (goOpen.length > 0) {
      if (shape.lead[i] === DASH) {
        const r = GO_RESULT.exec(line);
        if (r) {
          const k = goOpen.lastIndexOf(r[2]);
          if (k !== -1) goOpen.splice(k, 1);
          if (r[1] === "FAIL") goFailed = true;
        }
        continue;
      }
      const pkg = c === UPPER_F || c === LOWER_O ? GO_PACKAGE.exec(line) : null;
      if (pkg) {
        // The package's binary failed with a test still running: that test is where it stopped
        // (a kill, a signal, os.Exit); a test that failed on its own has its --- FAIL line.
        if (pkg[1] === "FAIL" && !goFailed) {
          const name = goOpen[goOpen.length - 1];
          out.push(stoppedGoTest(name, goRunLine(lines, name, i), pkg[2]));
        }
        goOpen.length = 0;
        goFailed = false;
        continue;
      }
    }
    if (shape.lead[i] === DASH && line.includes("--- FAIL: ")) goFailed = true;
    // A package's result line ends its failures, read without -v too (no test open): the next
    // package's stopped test is not hidden by this one's --- FAIL.
    if ((c === UPPER_F || c === LOWER_O) && GO_PACKAGE.test(line)) goFailed = false;
    if (c === PLUS) {
      if (TRACE.test(line) && !ctx.explained(i)) lastTrace = i;
      continue;
    }
    if (c === 0 || ctx.explained(i)) continue;
    if (c === UPPER_C && line.startsWith(CURRENT_THREAD)) {
      const fatal = pythonFatal(lines, i, ctx);
      if (fatal) {
        out.push(fatal.finding);
        i = fatal.end;
        continue;
      }
    }
    // The shell's lines: `script: line N: …` (bash), `script: N: …` (dash), a signal's name alone.
    const bashy = line.includes(": line ");
    if (!bashy && !SIGNAL_FIRST.has(c) && !dashLike(line)) continue;
    const death = bashy || SIGNAL_FIRST.has(c) ? SHELL_DEATH.exec(line) : null;
    if (death) {
      const signal = death[3];
      if (running) {
        out.push(
          diedTest(running.name, running.at, printedSince(lines, running.at, i, ctx), signal),
        );
        running = undefined;
      } else if (death[1]) {
        // A signal's name alone, outside a test, may be the program's own text; a script's line is not.
        const what = death[4] ? `${death[4].trim()}: ` : "";
        out.push(
          finding("error", `${what}${signal}`, { location: place(death[1], death[2]), at: i }),
        );
      } else continue;
      ctx.explain(i);
      continue;
    }
    const bash = bashy ? BASH_ERROR.exec(line) : DASH_ERROR.exec(line);
    if (bash && !/\s/.test(bash[1])) {
      const text = bash[3].trim();
      const warning = /^warning: /.test(text);
      const traced = lastTrace >= 0 && lastTrace === i - 1;
      out.push(finding(warning ? "warning" : "error", text.replace(/^warning: /, ""), {
        location: place(bash[1], bash[2]),
        detail: traced ? [lines[lastTrace]] : undefined,
        at: traced ? lastTrace : i,
      }));
      ctx.explain(i);
    }
  }
  if (!ctx.final) return out;
  if (running) {
    out.push(
      diedTest(running.name, running.at, printedSince(lines, running.at, lines.length, ctx)),
    );
  } else if (goOpen.length > 0) {
    const name = goOpen[goOpen.length - 1];
    out.push(stoppedGoTest(name, goRunLine(lines, name, lines.length)));
  } else if (lastTrace >= 0) {
    const ended = lastTraced(lines, lastTrace, ctx);
    if (ended) out.push(ended);
  }
  return out;
}

/**
 * The line of go test's last `=== RUN` of test `name` before line `before`, where its block starts
 * (looked for only when the test is a finding: no state kept for every test of a verbose run).
 */
function goRunLine(lines: string[], name: string, before: number): number {
  const run = GO_RUN + name;
  const cont = GO_CONT + name;
  let earliest = before;
  for (let k = before - 1; k >= 0; k--) {
    const line = lines[k].trimEnd();
    if (line === run) return k;
    // Named by CONT lines alone (its RUN line was before these lines): the earliest of them.
    if (line === cont) earliest = k;
  }
  return earliest;
}

/** The lines a test printed between its RUN line and `to`, those no reader took. */
function printedSince(lines: string[], at: number, to: number, ctx: ReadContext): string[] {
  const printed: string[] = [];
  for (let k = at + 1; k < to; k++) {
    if (lines[k].trim() !== "" && !ctx.explained(k)) printed.push(lines[k]);
  }
  return printed;
}

/**
 * The script's last traced command as the failure, when the output ends with it and its own lines:
 * none of them another reader's (a tool's output a reader read explains the failure itself), and
 * no shell error among them (that is the finding already).
 */
function lastTraced(lines: string[], at: number, ctx: ReadContext): Finding | undefined {
  const after: string[] = [];
  for (let k = at + 1; k < lines.length; k++) {
    if (lines[k].trim() === "") continue;
    if (ctx.explained(k)) return undefined;
    after.push(lines[k]);
  }
  const command = TRACE.exec(lines[at])![2];
  ctx.explain(at, lines.length - 1);
  if (after.length === 0) {
    const ending = /^(?:exit|return)\b/.test(command);
    return finding(
      "error",
      ending
        ? `the script ended with \`${command}\``
        : `the script stopped after \`${command}\`, which failed`,
      { at },
    );
  }
  // A tool's complaint names the tool (`cp: cannot stat …`); else its last line says most.
  const complaint = after.find((l) => /^[\w./-]+: \S/.test(l)) ?? after[after.length - 1];
  return finding("error", complaint, {
    detail: [lines[at], ...after.filter((l) => l !== complaint)],
    at,
  });
}

export const unfinished: Reader = { name: "unfinished", read: readUnfinished };
