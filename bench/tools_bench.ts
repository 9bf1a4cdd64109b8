/**
 * The file tools' cost beside the least work that could do the same job, in
 * one run (issue 5, point 3):
 *
 * - read_file's last page of a 64 MiB log, through the registry (gate call,
 *   audit, scanning every line), beside a raw loop that only counts line feeds
 *   with indexOf over the same file: the price of exact \n / \r\n / \r
 *   numbering and the page. Goal ≤ 2×.
 * - read_file's first page of the same file, beside a current_date call
 *   through the same registry (validation and two audited events, no file):
 *   a page must cost about a call, not the file. Goal ≤ 3×.
 * - edit_file replace of one line in a 2,000-line file, through the registry
 *   (read, plan, guard, race checks, temp file, rename, audit), beside
 *   writing the same bytes with the plain temp-and-rename writer. Goal ≤ 5×.
 */
import { join } from "node:path";
import { homePaths } from "../src/config/home.ts";
import { configSchema } from "../src/config/schema.ts";
import { AuditLog } from "../src/audit/writer.ts";
import { builtinRegistry } from "../src/tools/builtins.ts";
import type { ToolContext } from "../src/tools/tool.ts";
import { writeFileAtomicSync } from "../src/util/atomic.ts";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 15);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function time(fn: () => unknown | Promise<unknown>, runs = RUNS): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const start = performance.now();
    await fn();
    if (i >= 2) samples.push(performance.now() - start);
  }
  return median(samples);
}

const base = Deno.realPathSync(await Deno.makeTempDir({ prefix: "wisp-tools-bench-" }));
const root = join(base, "project");
const home = join(base, "home");
Deno.mkdirSync(root);
Deno.mkdirSync(home);
const audit = new AuditLog({
  path: join(home, "logs", "audit.jsonl"),
  enabled: true,
  maxBytes: 1 << 30,
  keep: 1,
});
const ctx: ToolContext = {
  cwd: root,
  root,
  config: configSchema.parse({}),
  home: homePaths(home),
  audit,
  budgetBytes: 16 * 1024,
  session: audit.session,
  gate: { check: () => Promise.resolve({ allowed: true }) },
  writableRoots: [root],
};
const registry = builtinRegistry();

// A 64 MiB log of 64-byte lines.
const log = join(root, "app.log");
{
  const block = new Uint8Array(1 << 20);
  const line = new TextEncoder().encode(
    "2026-11-30T10:00:00Z INFO request served in 12 ms".padEnd(63, " ") + "\n",
  );
  for (let i = 0; i < block.length; i += 64) block.set(line, i);
  const f = Deno.openSync(log, { write: true, create: true, truncate: true });
  for (let i = 0; i < 64; i++) f.writeSync(block);
  f.close();
}
const totalLines = (64 << 20) / 64;

function countLines(path: string): number {
  const f = Deno.openSync(path);
  const buffer = new Uint8Array(64 * 1024);
  let lines = 0;
  for (;;) {
    const n = f.readSync(buffer);
    if (n === null) break;
    let at = buffer.indexOf(10);
    while (at !== -1 && at < n) {
      lines++;
      at = buffer.indexOf(10, at + 1);
    }
  }
  f.close();
  return lines;
}

const lastPage = await time(async () => {
  const r = await registry.call(
    "read_file",
    { path: log, offset: totalLines - 49, limit: 50 },
    ctx,
  );
  if (!r.text.endsWith("[end of file]")) throw new Error(r.text.slice(-200));
}, 5);
const countAll = await time(() => {
  if (countLines(log) !== totalLines) throw new Error("miscounted");
}, 5);
const firstPage = await time(() => registry.call("read_file", { path: log, limit: 50 }, ctx));
const dateCall = await time(() => registry.call("current_date", {}, ctx));

// edit_file: one line of a 2,000-line file.
const source = join(root, "main.py");
const original =
  Array.from({ length: 2000 }, (_, i) => `    value_${i} = compute(${i})`).join("\n") + "\n";
Deno.writeTextFileSync(source, original);
let flip = 0;
const edit = await time(async () => {
  flip++;
  const r = await registry.call(
    "edit_file",
    { path: source, mode: "replace", line: 1000, content: `    value_999 = compute(${flip})` },
    ctx,
  );
  if (!r.ok) throw new Error(r.text);
});
const bytes = new TextEncoder().encode(original);
const plain = await time(() => writeFileAtomicSync(join(root, "plain.py"), bytes, 0o644));

audit.close();
await Deno.remove(base, { recursive: true });

const row = (name: string, ms: number, baseline: number, goal: string) =>
  console.log(
    `  ${name.padEnd(44)} ${ms.toFixed(2).padStart(8)} ms  ${baseline.toFixed(2).padStart(8)} ms  ${
      (ms / baseline).toFixed(2).padStart(5)
    }×  ${goal}`,
  );
console.log(`file tools (median of ${RUNS} runs; the 64 MiB scans of 5)`);
console.log(`  ${"".padEnd(44)} ${"tool".padStart(11)}  ${"baseline".padStart(11)}  ratio  goal`);
row("read_file last page of 64 MiB / count \\n", lastPage, countAll, "≤ 2×");
row("read_file first page / current_date call", firstPage, dateCall, "≤ 3×");
row("edit_file replace 1 line of 2,000 / atomic write", edit, plain, "≤ 5×");
