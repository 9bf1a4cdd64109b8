/**
 * The exact readers, in the order they run, and `readAll`, which runs each
 * whose signals occur in the text over the output's lines. Readers of test
 * runners come first (their blocks hold lines that look like compiler
 * diagnostics), the generic compiler form and make last; the generic reader
 * skips lines an earlier reader accounted for, and duplicates are dropped.
 */
import { dedupe, type Finding } from "../findings.ts";
import { stripAnsi, toLines } from "../text.ts";
import type { ReadContext, Reader } from "./reader.ts";
import { swift } from "./swift.ts";
import { cargoTest } from "./cargo_test.ts";
import { rust } from "./rust.ts";
import { pytest } from "./pytest.ts";
import { unittest } from "./unittest.ts";
import { go } from "./go.ts";
import { jest } from "./jest.ts";
import { vitest } from "./vitest.ts";
import { mocha } from "./mocha.ts";
import { nodeTest } from "./node_test.ts";
import { tap } from "./tap.ts";
import { deno } from "./deno.ts";
import { tsc } from "./tsc.ts";
import { eslint } from "./eslint.ts";
import { java } from "./java.ts";
import { ruby } from "./ruby.ts";
import { shellcheck } from "./shellcheck.ts";
import { compiler } from "./compiler.ts";
import { make } from "./make.ts";

export type { ReadContext, Reader } from "./reader.ts";

export const READERS: readonly Reader[] = [
  swift,
  cargoTest,
  rust,
  pytest,
  unittest,
  go,
  jest,
  vitest,
  mocha,
  nodeTest,
  tap,
  deno,
  tsc,
  eslint,
  java,
  ruby,
  shellcheck,
  compiler,
  make,
];

export interface ReadResult {
  findings: Finding[];
  /** Indexes of the lines (of `toLines(text)`) some reader accounted for; blank lines count as accounted for. */
  explained: Set<number>;
  /** The lines the indexes refer to. */
  lines: string[];
  /** The readers that ran (their signals were present). */
  readers: string[];
}

/** Runs the readers over lines already split (and stripped of escapes). */
export function readLines(lines: string[], clean: string = lines.join("\n")): ReadResult {
  const marks = new Uint8Array(lines.length);
  const ctx: ReadContext = {
    explain(from: number, to: number = from) {
      const end = Math.min(to, lines.length - 1);
      for (let k = Math.max(0, from); k <= end; k++) marks[k] = 1;
    },
    explained: (i: number) => marks[i] === 1,
  };
  const findings: Finding[] = [];
  const ran: string[] = [];
  for (const reader of READERS) {
    if (!reader.signals.some((s) => clean.includes(s))) continue;
    ran.push(reader.name);
    for (const f of reader.read(lines, ctx)) findings.push(f);
  }
  const explained = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    if (marks[i] === 1 || lines[i].trim() === "") explained.add(i);
  }
  return { findings: dedupe(findings), explained, lines, readers: ran };
}

export function readAll(text: string): { findings: Finding[]; explained: Set<number>; lines: string[]; readers: string[] } {
  const clean = stripAnsi(text);
  return readLines(toLines(clean), clean);
}
