/**
 * cargo test (libtest): `test name ... FAILED`, each failure's
 * `---- name stdout ----` block with the panic's place and message and an
 * assertion's left/right, and the `failures:` list. One finding per test.
 */
import { type Finding, finding } from "../findings.ts";
import { isBlank } from "../text.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import {
  DASH,
  LOWER_F,
  LOWER_I,
  LOWER_L,
  LOWER_N,
  LOWER_O,
  LOWER_P,
  LOWER_R,
  LOWER_T,
  SPACE,
  UPPER_D,
  UPPER_E,
  UPPER_F,
  UPPER_R,
} from "../chars.ts";
import { nameApart } from "./identity.ts";

const RESULT = /^test (.+?) \.\.\. (FAILED|ok|ignored.*|bench:.*)$/;
const BLOCK = /^---- (.+?) std(?:out|err) ----$/;
const PANIC_NEW = /^thread '([^']*)'(?: \(\d+\))? panicked at (.+?:\d+:\d+):$/;
const PANIC_OLD = /^thread '([^']*)'(?: \(\d+\))? panicked at '(.*)', (.+?:\d+:\d+)$/;
/** A failure's block is never read past this many lines (a backtrace is long, a log may not end the block). */
const MAX_BLOCK = 400;
/** cargo's line before a test binary's run: `     Running unittests src/lib.rs (target/debug/deps/ledger-0a1b…)`, `   Doc-tests ledger`. */
const RUNNING = /^\s+(?:Running (.+?) \((.+)\)|Doc-tests (\S+))$/;
/** cargo's report of a test binary that did not end as libtest ends one. */
const DIED = "process didn't exit successfully: ";
/** `  process didn't exit successfully: `…/deps/native-3ced… --test-threads=1` (signal: 11, SIGSEGV: invalid memory reference)`, `(exit status: 3)`. */
const PROCESS_DIED =
  /^\s+process didn't exit successfully: `(.+)` \((?:signal: (\d+), (\w+)(?:: ([^)]*))?|exit (?:status|code): (\d+))\)$/;
const LEFT_RIGHT = /^\s*(left|right)(?::|: )\s*(.*)$/;

/** BLOCK's test, its fixed start and end checked first. */
function isBlockHead(line: string): boolean {
  return line.startsWith("---- ") && line.endsWith(" ----") && BLOCK.test(line);
}

interface Block {
  location?: string;
  message?: string;
  detail: string[];
}

function readBlock(lines: string[], from: number, to: number): Block {
  const block: Block = { detail: [] };
  for (let i = from; i < to; i++) {
    const line = lines[i];
    const c = line.charCodeAt(0);
    // thread '…' panicked, left:/right: (indented or not), note:, Error: — a backtrace's lines are none of these
    if (
      c !== LOWER_T && c !== SPACE && c !== LOWER_L && c !== LOWER_R && c !== LOWER_N &&
      c !== UPPER_E
    ) continue;
    if (c === SPACE && block.message === undefined) continue;
    const p = c === LOWER_T ? PANIC_NEW.exec(line) : null;
    if (p) {
      block.location ??= p[2];
      const msg: string[] = [];
      let j = i + 1;
      while (
        j < to && lines[j].trim() !== "" && !LEFT_RIGHT.test(lines[j]) &&
        !/^(?:note: |stack backtrace:)/.test(lines[j])
      ) {
        msg.push(lines[j]);
        j++;
      }
      block.message ??= msg.join(" ").trim() || "panicked";
      i = j - 1;
      continue;
    }
    const o = c === LOWER_T ? PANIC_OLD.exec(line) : null;
    if (o) {
      block.location ??= o[3];
      block.message ??= o[2];
      continue;
    }
    // Before Rust 1.73 the message was quoted and could run over lines: `panicked at 'assertion failed: …\n  left: `4`,\n right: `5`', src/lib.rs:8:9`.
    const open = c === LOWER_T
      ? /^thread '([^']*)'(?: \(\d+\))? panicked at '(.*)$/.exec(line)
      : null;
    if (open) {
      let j = i + 1;
      const parts = [open[2]];
      let end: RegExpExecArray | null = null;
      while (j < to && !(end = /^(.*)', (\S+?:\d+:\d+)$/.exec(lines[j]))) parts.push(lines[j++]);
      if (end) {
        parts.push(end[1]);
        block.location ??= end[2];
        block.message ??= parts[0];
        for (const p of parts.slice(1)) {
          const lr = LEFT_RIGHT.exec(p);
          if (lr) {
            block.detail.push(`${lr[1]}: ${lr[2].replace(/,$/, "").replace(/^`(.*)`$/, "$1")}`);
          }
        }
        i = j;
      }
      continue;
    }
    const lr = LEFT_RIGHT.exec(line);
    if (lr && block.message !== undefined) {
      block.detail.push(`${lr[1]}: ${lr[2].replace(/,$/, "")}`);
      continue;
    }
    // Newer libtest names the should_panic attribute's place: `… as expected at src/lib.rs:12:8`.
    const unpanicked = /^note: test did not panic as expected(?: at (\S+:\d+:\d+))?/.exec(line);
    if (unpanicked) {
      block.message ??= "test did not panic as expected";
      if (unpanicked[1] !== undefined) block.location ??= unpanicked[1];
    }
    if (/^Error: /.test(line)) block.message ??= line; // a test returning Err
  }
  if (block.message === undefined) {
    // The first line that says something (no slice of the block: most blocks are read for this alone).
    for (let i = from; i < to; i++) {
      const l = lines[i];
      if (!isBlank(l) && !l.startsWith("note: ")) {
        block.message = l.trim();
        break;
      }
    }
  }
  return block;
}

function readCargoTest(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const failed: string[] = [];
  const blocks = new Map<string, Block>();
  let inFailureList = false;
  let pending: string | undefined;
  /** The line of the pending test's `test name ... ` line. */
  let pendingAt = 0;
  /** The first line each failed test of the binary running now was read from (its block's start). */
  const startOf = new Map<string, number>();
  const started = (name: string, at: number) => {
    const earlier = startOf.get(name);
    if (earlier === undefined || at < earlier) startOf.set(name, at);
  };
  /** Whether the pending test is a doc test's executable (its panic is on the thread 'main'). */
  let pendingExecutable = false;
  /** Between `running N tests` and `test result:`: a test binary is running its tests. */
  let inRun = false;
  const inline = new Map<string, Block>();
  const out: Finding[] = [];
  /** The test binary whose run held each finding (`Running … (target/debug/deps/ledger-…)`), where known. */
  const binaryOf = new Map<Finding, string>();
  /** The test binary running now, named by cargo's `Running` or `Doc-tests` line. */
  let binary: string | undefined;
  /** The failures of the binary that ran (its `test result:` line ends it): its findings. */
  const closeBinary = () => {
    const before = out.length;
    emitFailed(failed, blocks, inline, startOf, out);
    if (binary) { for (let k = before; k < out.length; k++) binaryOf.set(out[k], binary); }
    failed.length = 0;
    blocks.clear();
    inline.clear();
    startOf.clear();
    binary = undefined;
  };
  const { first, lead } = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c0 = first[i];
    // test …, ---- …, failures:, running …, the indented failure list, and with --nocapture a result on a line of
    // its own (FAILED, ok) after the test's output
    if (c0 === SPACE && lead[i] === LOWER_P && lines[i].includes(DIED)) {
      // The test binary died before libtest could report (a signal, or an exit of its own): the test
      // it had started (`test name ... ` with no result, printed with one test thread) is the failure.
      const d = PROCESS_DIED.exec(lines[i]);
      if (d && d[5] !== "101") {
        ctx.explain(i);
        const how = d[2]
          ? `died of ${d[3]}${d[4] ? `: ${d[4]}` : ""} (signal ${d[2]})`
          : `exited with status ${d[5]}`;
        const name = d[1].split(" ")[0].replace(/^.*[\\/]/, "").replace(
          /-[0-9a-f]{16}(?:\.exe)?$/,
          "",
        );
        out.push(
          pending !== undefined
            ? finding("test_failure", `the test binary ${how}`, { test: pending, at: pendingAt })
            : finding("error", `test binary ${name} ${how} before its tests finished`, { at: i }),
        );
        pending = undefined;
        continue;
      }
    }
    if (c0 === SPACE && (lead[i] === UPPER_R || lead[i] === UPPER_D)) {
      const run = RUNNING.exec(lines[i]);
      if (run) {
        binary = run[2]
          ? run[2].replace(/^.*[\\/]/, "").replace(/-[0-9a-f]{16}(?:\.exe)?$/, "")
          : run[3];
        ctx.explain(i);
        // A window that starts inside this binary's run is given its lines first (ADR 0705):
        // the binary, that its tests are running, the failure block it is inside.
        ctx.heading?.(i, 0);
        continue;
      }
    }
    if (
      c0 !== LOWER_T && c0 !== DASH && c0 !== LOWER_F && c0 !== LOWER_R &&
      !(inFailureList && (c0 === SPACE || c0 === 0)) &&
      !(pending !== undefined && (c0 === UPPER_F || c0 === LOWER_O || c0 === LOWER_I))
    ) {
      inFailureList = false;
      continue;
    }
    const line = lines[i];
    if (
      pending !== undefined &&
      (line === "FAILED" || line === "ok" || line.startsWith("ignored") || line.endsWith(" ok") ||
        line.endsWith(" FAILED"))
    ) {
      ctx.explain(i);
      if (line.endsWith("FAILED") && !failed.includes(pending)) {
        failed.push(pending);
        started(pending, pendingAt);
      }
      pending = undefined;
      continue;
    }
    if (line.startsWith("test ")) {
      // A passing test's line needs no captures: tested, not matched (a match allocates five times as much).
      // Whatever RESULT would capture from it, its outcome is not FAILED: the line ends in "ok".
      const passed = line.endsWith(" ... ok");
      const r = passed ? null : RESULT.exec(line);
      if (r || (passed && RESULT.test(line))) {
        ctx.explain(i);
        // A should_panic test's result line adds " - should panic" to its name; the failures
        // list and its block name it without.
        const name = r ? withoutShouldPanic(r[1]) : "";
        if (r && r[2] === "FAILED" && !failed.includes(name)) {
          failed.push(name);
          started(name, i);
        }
        pending = undefined;
        continue;
      }
      if (line.startsWith("test result: ")) {
        ctx.explain(i);
        ctx.headingEnds?.(i, 0);
        inRun = false;
        closeBinary();
        continue;
      }
      // --nocapture: "test name ... " and the result after the test's own output
      const open = /^test (.+?) \.\.\. ?(.*)$/.exec(line);
      if (open) {
        ctx.explain(i);
        pending = withoutShouldPanic(open[1]);
        pendingAt = i;
        // A doc test is an executable of its own: with --nocapture its failure reads
        // "test src/lib.rs - add (line 3) ... Test executable failed (exit status: 101)." and its
        // panic, on the executable's main thread, follows.
        pendingExecutable = open[2].startsWith("Test executable failed");
        if (open[2] === "FAILED" || open[2] === "ok") pending = undefined;
      }
      continue;
    }
    if ((pending !== undefined || inRun) && line.startsWith("thread '")) {
      // A panic printed where it happened (--nocapture, or a should_panic test's expected panic): it belongs
      // to the test its thread is named after, and only that test's result line says whether it failed —
      // a `should panic ... ok` test printed its panic and passed. (A panic on the binary's main thread
      // is no test's: the crash reader's.)
      const p = /^thread '([^']*)'(?: \(\d+\))? panicked at /.exec(line);
      const owner = p && p[1] === "main" && pendingExecutable ? pending : p?.[1];
      if (p && owner !== undefined && owner !== "main") {
        let j = i + 1;
        // The message, then any backtrace (its frames indented) and its closing note, up to a blank line.
        while (
          j < lines.length && j - i < MAX_BLOCK && lines[j] !== "" && lines[j] !== "FAILED" &&
          !lines[j].startsWith("test ") && !lines[j].startsWith("thread '")
        ) j++;
        ctx.explain(i, j - 1);
        const block = readBlock(lines, i, j);
        if (!inline.has(owner)) inline.set(owner, block);
        started(owner, i);
        i = j - 1;
        continue;
      }
    }
    if (line.startsWith("---- ")) {
      const b = line.endsWith(" ----") ? BLOCK.exec(line) : null;
      if (!b) continue;
      let j = i + 1;
      while (
        j < lines.length && j - i < MAX_BLOCK &&
        !isBlockHead(lines[j]) &&
        lines[j] !== "failures:" && !lines[j].startsWith("test result: ")
      ) j++;
      ctx.explain(i, j - 1);
      ctx.heading?.(i, 2);
      const block = readBlock(lines, i + 1, j);
      const earlier = blocks.get(b[1]);
      if (!earlier || (!earlier.location && block.location)) blocks.set(b[1], block);
      started(b[1], i);
      i = j - 1;
      continue;
    }
    if (line === "failures:") {
      inFailureList = true;
      ctx.explain(i);
      ctx.headingEnds?.(i, 2);
      continue;
    }
    if (inFailureList) {
      const name = /^\s{4}(\S.*)$/.exec(line);
      if (name) {
        ctx.explain(i);
        const listed = withoutShouldPanic(name[1]);
        if (!failed.includes(listed)) failed.push(listed);
        started(listed, i);
        continue;
      }
      if (line.trim() !== "") inFailureList = false;
    }
    if (line.startsWith("running ") && /^running \d+ tests?$/.test(line)) {
      ctx.explain(i);
      ctx.heading?.(i, 1);
      inRun = true;
    }
  }
  closeBinary();
  return nameApart(out, binaryOf);
}

/** A test's name without the " - should panic" its result line adds. */
function withoutShouldPanic(name: string): string {
  return name.endsWith(" - should panic") ? name.slice(0, -" - should panic".length) : name;
}

/** The findings of the failed tests of one test binary's run. */
function emitFailed(
  failed: string[],
  blocks: Map<string, Block>,
  inline: Map<string, Block>,
  startOf: Map<string, number>,
  out: Finding[],
): void {
  for (const name of failed) {
    // A `---- name stdout ----` block longer than MAX_BLOCK lines is cut before its panic, which
    // is then read where it stands: the panic names the failure, the test's own output does not.
    const inBlock = blocks.get(name);
    const block = inBlock?.location ? inBlock : inline.get(name) ?? inBlock;
    out.push(
      finding("test_failure", block?.message ?? "failed", {
        test: name,
        location: block?.location,
        detail: block?.detail,
        at: startOf.get(name),
      }),
    );
  }
}

export const cargoTest: Reader = {
  name: "cargo-test",
  read: readCargoTest,
};
