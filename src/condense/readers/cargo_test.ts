/**
 * cargo test (libtest): `test name ... FAILED`, each failure's
 * `---- name stdout ----` block with the panic's place and message and an
 * assertion's left/right, and the `failures:` list. One finding per test.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader } from "./reader.ts";

const RESULT = /^test (.+?) \.\.\. (FAILED|ok|ignored.*|bench:.*)$/;
const BLOCK = /^---- (.+?) std(?:out|err) ----$/;
const PANIC_NEW = /^thread '([^']*)'(?: \(\d+\))? panicked at (.+?:\d+:\d+):$/;
const PANIC_OLD = /^thread '([^']*)'(?: \(\d+\))? panicked at '(.*)', (.+?:\d+:\d+)$/;
const LEFT_RIGHT = /^\s*(left|right)(?::|: )\s*(.*)$/;
const STRUCTURE = /^(?:running \d+ tests?|failures:|successes:|test result: .*|\s{4}\S.*|\s+Running .*|\s+Doc-tests .*)$/;

interface Block {
  location?: string;
  message?: string;
  detail: string[];
}

function readBlock(lines: string[], from: number, to: number): Block {
  const block: Block = { detail: [] };
  for (let i = from; i < to; i++) {
    const line = lines[i];
    const p = PANIC_NEW.exec(line);
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
    const o = PANIC_OLD.exec(line);
    if (o) {
      block.location ??= o[3];
      block.message ??= o[2];
      continue;
    }
    // Before Rust 1.73 the message was quoted and could run over lines: `panicked at 'assertion failed: …\n  left: `4`,\n right: `5`', src/lib.rs:8:9`.
    const open = /^thread '([^']*)'(?: \(\d+\))? panicked at '(.*)$/.exec(line);
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
          if (lr) block.detail.push(`${lr[1]}: ${lr[2].replace(/,$/, "").replace(/^`(.*)`$/, "$1")}`);
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
    if (/^note: test did not panic as expected/.test(line)) block.message ??= "test did not panic as expected";
    if (/^Error: /.test(line)) block.message ??= line; // a test returning Err
  }
  if (block.message === undefined) {
    const first = lines.slice(from, to).find((l) => l.trim() !== "" && !/^note: /.test(l));
    if (first) block.message = first.trim();
  }
  return block;
}

export function readCargoTest(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const failed: string[] = [];
  const blocks = new Map<string, Block>();
  let inFailureList = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith("test ")) {
      const r = RESULT.exec(line);
      if (r) {
        ctx.explain(i);
        if (r[2] === "FAILED" && !failed.includes(r[1])) failed.push(r[1]);
        continue;
      }
      if (line.startsWith("test result: ")) ctx.explain(i);
      continue;
    }
    if (line.startsWith("---- ")) {
      const b = BLOCK.exec(line);
      if (!b) continue;
      let j = i + 1;
      while (
        j < lines.length && !BLOCK.test(lines[j]) && lines[j] !== "failures:" &&
        !lines[j].startsWith("test result: ")
      ) j++;
      ctx.explain(i, j - 1);
      const block = readBlock(lines, i + 1, j);
      const earlier = blocks.get(b[1]);
      if (!earlier || (!earlier.location && block.location)) blocks.set(b[1], block);
      i = j - 1;
      continue;
    }
    if (line === "failures:") {
      inFailureList = true;
      ctx.explain(i);
      continue;
    }
    if (inFailureList) {
      const name = /^\s{4}(\S.*)$/.exec(line);
      if (name) {
        ctx.explain(i);
        if (!failed.includes(name[1])) failed.push(name[1]);
        continue;
      }
      if (line.trim() !== "") inFailureList = false;
    }
    if (STRUCTURE.test(line) && /^(?:running \d+ tests?|test result: )/.test(line)) ctx.explain(i);
  }
  const out: Finding[] = [];
  for (const name of failed) {
    const block = blocks.get(name);
    out.push(
      finding("test_failure", block?.message ?? "failed", {
        test: name,
        location: block?.location,
        detail: block?.detail,
      }),
    );
  }
  return out;
}

export const cargoTest: Reader = {
  name: "cargo-test",
  signals: [" ... FAILED", "---- ", "test result: "],
  read: readCargoTest,
};
