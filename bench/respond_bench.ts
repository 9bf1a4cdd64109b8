/**
 * respond's overhead per turn beyond the model (goal ≤ 5 ms), with the
 * scripted backend so the model costs next to nothing:
 *
 * - baseline: the same scripted steps consumed directly (the model alone);
 * - respond: the whole face in process — a session opened (config snapshot,
 *   audit log on disk, gate, output store), the instructions, the turn loop,
 *   the calls, the receipts and the verification — writing to a sink.
 *
 * Scenarios: a text reply; one current_date call then a reply; one
 * read_file call (through the gate) then a reply. Run:
 *   deno run -A bench/respond_bench.ts
 */
import { join } from "node:path";
import { homePaths } from "../src/config/home.ts";
import { defaultConfig } from "../src/config/schema.ts";
import { respond } from "../src/faces/respond.ts";
import { ScriptedBackend, textReply, toolCallEvent } from "../src/models/scripted.ts";
import type { StreamEvent } from "../src/models/backend.ts";

const TURNS = Number(Deno.env.get("BENCH_TURNS") ?? 300);
const WARM = 30;

const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "wisp-respond-bench-" }));
const paths = homePaths(join(dir, "home"));
const config = defaultConfig();
await Deno.writeTextFile(join(dir, "notes.txt"), "alpha\nbeta\ngamma\n");

type Steps = () => StreamEvent[][];
const scenarios: [string, Steps, string[] | undefined][] = [
  ["text reply", () => [textReply("The answer is forty-two.")], undefined],
  [
    "current_date, then reply",
    () => [[toolCallEvent("current_date", {})], textReply("It is today.")],
    ["current_date"],
  ],
  [
    "read_file (gated), then reply",
    () => [[toolCallEvent("read_file", { path: "notes.txt" })], textReply("Three lines.")],
    ["read_file"],
  ],
];

async function modelAlone(steps: StreamEvent[][]): Promise<void> {
  const backend = new ScriptedBackend(steps);
  for (let i = 0; i < steps.length; i++) {
    for await (
      const _ of backend.chat({ messages: [{ role: "user", content: "x" }] })
    ) { /* consume */ }
  }
}

async function throughRespond(steps: StreamEvent[][], tools: string[] | undefined): Promise<void> {
  const backend = new ScriptedBackend(steps);
  const result = await respond(
    {
      prompt: "question",
      tools,
      noTools: tools === undefined,
      stream: true,
      yes: false,
      unsafe: false,
    },
    { config, paths, root: dir, backend: () => Promise.resolve(backend) },
    { out: () => {}, err: () => {} },
  );
  if (result.code !== 0) throw new Error(`respond exited ${result.code}`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length * 0.95)];
}

async function measure(run: () => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < TURNS + WARM; i++) {
    const start = performance.now();
    await run();
    if (i >= WARM) samples.push(performance.now() - start);
  }
  return samples;
}

const rows: string[][] = [[
  "scenario",
  "model alone",
  "respond",
  "overhead (median)",
  "overhead (p95)",
  "goal ≤ 5 ms",
]];
const ms = (n: number) => `${n.toFixed(3)} ms`;
for (const [name, steps, tools] of scenarios) {
  const base = await measure(() => modelAlone(steps()));
  const full = await measure(() => throughRespond(steps(), tools));
  const overhead = median(full) - median(base);
  const overheadP95 = p95(full) - p95(base);
  rows.push([
    name,
    ms(median(base)),
    ms(median(full)),
    ms(overhead),
    ms(overheadP95),
    overhead <= 5 ? "met" : "missed",
  ]);
}

const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
for (const row of rows) console.log(row.map((cell, c) => cell.padEnd(widths[c])).join("  "));
console.log(
  `\n${TURNS} turns per row after ${WARM} warm-up turns; each respond turn opens its own session and audit log.`,
);
await Deno.remove(dir, { recursive: true });
