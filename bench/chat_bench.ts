/**
 * The chat engine's time from Enter to the first streamed byte, beyond the
 * model's own latency (goal ≤ 5 ms), with the scripted backend so the model
 * costs next to nothing:
 *
 * - baseline: the scripted backend's first text event, consumed directly
 *   (the model alone, from the request to its first words);
 * - chat: a message line handed to a running engine (one session, one
 *   conversation, the audit log on disk) until its first delta line is
 *   emitted, every out line encoded as JSON as `wisp chat --json` does.
 *
 * The conversation starts afresh every 50 turns (/new), so it stays the
 * size of an ordinary chat. Run:
 *   deno run -A bench/chat_bench.ts
 */
import { join } from "node:path";
import { homePaths } from "../src/config/home.ts";
import { defaultConfig } from "../src/config/schema.ts";
import { ChatEngine } from "../src/faces/chat/engine.ts";
import { encodeOutLine, type OutLine } from "../src/faces/chat/protocol.ts";
import { ScriptedBackend, textReply } from "../src/models/scripted.ts";

const TURNS = Number(Deno.env.get("BENCH_TURNS") ?? 300);
const WARM = 30;
const REPLY = "The answer is forty-two, and here is a little more text after it.";

const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "wisp-chat-bench-" }));
const paths = homePaths(join(dir, "home"));
const config = defaultConfig();

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length * 0.95)];
}

/** The model alone: from the request to its first text event. */
async function modelAlone(): Promise<number[]> {
  const samples: number[] = [];
  const backend = new ScriptedBackend();
  for (let i = 0; i < TURNS + WARM; i++) {
    backend.push(textReply(REPLY));
    const start = performance.now();
    let first = -1;
    for await (const event of backend.chat({ messages: [{ role: "user", content: "q" }] })) {
      if (first < 0 && event.type === "text") first = performance.now() - start;
    }
    if (i >= WARM) samples.push(first);
  }
  return samples;
}

/** Through the engine: from the message line to its first delta line. */
async function throughChat(): Promise<number[]> {
  const backend = new ScriptedBackend();
  let firstDelta: (() => void) | undefined;
  let turnEnded: (() => void) | undefined;
  let sink = 0;
  const engine = new ChatEngine({
    config,
    paths,
    root: dir,
    yes: false,
    unsafe: false,
    face: "chat-json",
    approvals: "protocol",
    inputIsTerminal: false,
    version: "bench",
    emit: (line: OutLine) => {
      sink += encodeOutLine(line).length;
      if (line.type === "delta" && line.text !== "") firstDelta?.();
      if (line.type === "turn" && line.phase === "end") turnEnded?.();
    },
    backend: () => Promise.resolve(backend),
    runnableModels: () => Promise.resolve([backend.name]),
    configView: () => ({}),
  });
  await engine.start();
  const samples: number[] = [];
  for (let i = 0; i < TURNS + WARM; i++) {
    if (i > 0 && i % 50 === 0) {
      engine.handle({ type: "message", text: "/new" });
      await engine.idle();
    }
    backend.push(textReply(REPLY));
    const delta = new Promise<void>((resolve) => firstDelta = resolve);
    const ended = new Promise<void>((resolve) => turnEnded = resolve);
    const start = performance.now();
    engine.handle({ type: "message", text: `question ${i}` });
    await delta;
    const took = performance.now() - start;
    firstDelta = undefined;
    await ended;
    await engine.idle();
    if (i >= WARM) samples.push(took);
    if (Deno.env.get("BENCH_TRACE") && took > 5) console.log(`turn ${i}: ${took.toFixed(2)} ms`);
  }
  await engine.finish(0);
  if (sink === 0) throw new Error("the engine emitted nothing");
  return samples;
}

const base = await modelAlone();
const chat = await throughChat();
const ms = (n: number) => `${n.toFixed(3)} ms`;
const overhead = median(chat) - median(base);
const rows = [
  ["measure", "model alone", "chat engine", "overhead", "goal ≤ 5 ms"],
  ["median", ms(median(base)), ms(median(chat)), ms(overhead), overhead <= 5 ? "met" : "missed"],
  ["p95", ms(p95(base)), ms(p95(chat)), ms(p95(chat) - p95(base)), ""],
];
const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
for (const row of rows) console.log(row.map((cell, c) => cell.padEnd(widths[c])).join("  "));
console.log(
  `\n${TURNS} turns after ${WARM} warm-up turns: Enter (a message line) to the first delta line.`,
);
await Deno.remove(dir, { recursive: true });
