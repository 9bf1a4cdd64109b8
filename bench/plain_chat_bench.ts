/**
 * The plain terminal chat's time from Enter to the first byte of the reply
 * on stdout, beyond the model's own latency (goal ≤ 5 ms), with the
 * scripted backend so the model costs next to nothing:
 *
 * - baseline: the scripted backend's first text event, consumed directly
 *   (the model alone, from the request to its first words);
 * - plain chat: a typed line arriving on the face's one stdin reader
 *   (TerminalInput), through PlainChat's reader, the engine, and the
 *   renderer, until it writes the reply's first byte to stdout. Everything
 *   on stderr (status line, prompt, notes, tool lines) is rendered too, into
 *   a sink, and the pending folder is looked at between prompts, as in a
 *   real chat.
 *
 * The conversation starts afresh every 50 turns (/new). Run:
 *   deno run -A bench/plain_chat_bench.ts
 */
import { join } from "node:path";
import { homePaths } from "../src/config/home.ts";
import { defaultConfig } from "../src/config/schema.ts";
import { ChatEngine } from "../src/faces/chat/engine.ts";
import { ScriptedBackend, textReply } from "../src/models/scripted.ts";
import { PlainChat } from "../src/faces/terminal/plain_chat.ts";
import { type InputSource, TerminalInput } from "../src/faces/terminal/input.ts";
import { palette } from "../src/cli/io.ts";

const TURNS = Number(Deno.env.get("BENCH_TURNS") ?? 300);
const WARM = 30;
const REPLY = "The answer is forty-two, and here is a little more text after it.";

const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "wisp-plain-bench-" }));
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

/** A stdin whose reads return the lines the bench types, one at a time. */
class TypedLines implements InputSource {
  #waiting: ((bytes: Uint8Array | null) => void) | undefined;
  #queued: (Uint8Array | null)[] = [];
  type(line: string | null): void {
    const bytes = line === null ? null : new TextEncoder().encode(line + "\n");
    if (this.#waiting) {
      const resolve = this.#waiting;
      this.#waiting = undefined;
      resolve(bytes);
    } else this.#queued.push(bytes);
  }
  async read(buffer: Uint8Array): Promise<number | null> {
    const bytes = this.#queued.length > 0
      ? this.#queued.shift()!
      : await new Promise<Uint8Array | null>((resolve) => this.#waiting = resolve);
    if (bytes === null) return null;
    buffer.set(bytes);
    return bytes.length;
  }
  setRaw(): void {}
}

/** Through the plain chat: from the typed line to the reply's first byte on stdout. */
async function throughPlainChat(): Promise<number[]> {
  const backend = new ScriptedBackend();
  const stdin = new TypedLines();
  let firstByte: (() => void) | undefined;
  let promptShown: (() => void) | undefined;
  let errBytes = 0;
  const chat = new PlainChat({
    out: () => firstByte?.(),
    err: (text) => {
      errBytes += text.length;
      if (text.endsWith("> ")) promptShown?.();
    },
    colour: palette(false),
    terminal: false,
    inputIsTerminal: true,
    input: new TerminalInput(stdin),
    shownOutputLines: config.shownOutputLines,
  });
  const engine = new ChatEngine({
    config,
    paths,
    root: dir,
    yes: false,
    unsafe: false,
    face: "chat",
    approvals: "protocol",
    inputIsTerminal: true,
    noteWaiting: true,
    version: "bench",
    emit: (line) => chat.render(line),
    backend: () => Promise.resolve(backend),
    runnableModels: () => Promise.resolve([backend.name]),
    configView: () => ({}),
  });
  let prompt = new Promise<void>((resolve) => promptShown = resolve);
  await engine.start();
  const running = chat.run(engine);
  await prompt;
  const samples: number[] = [];
  for (let i = 0; i < TURNS + WARM; i++) {
    if (i > 0 && i % 50 === 0) {
      prompt = new Promise<void>((resolve) => promptShown = resolve);
      stdin.type("/new");
      await prompt;
    }
    backend.push(textReply(REPLY));
    const first = new Promise<void>((resolve) => firstByte = resolve);
    prompt = new Promise<void>((resolve) => promptShown = resolve);
    const start = performance.now();
    stdin.type(`question ${i}`);
    await first;
    const took = performance.now() - start;
    firstByte = undefined;
    await prompt;
    if (i >= WARM) samples.push(took);
  }
  stdin.type(null);
  await running;
  if (errBytes === 0) throw new Error("the plain chat wrote nothing on stderr");
  return samples;
}

const base = await modelAlone();
const plain = await throughPlainChat();
const ms = (n: number) => `${n.toFixed(3)} ms`;
const overhead = median(plain) - median(base);
const rows = [
  ["measure", "model alone", "plain chat", "overhead", "goal ≤ 5 ms"],
  ["median", ms(median(base)), ms(median(plain)), ms(overhead), overhead <= 5 ? "met" : "missed"],
  ["p95", ms(p95(base)), ms(p95(plain)), ms(p95(plain) - p95(base)), ""],
];
const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
for (const row of rows) console.log(row.map((cell, c) => cell.padEnd(widths[c])).join("  "));
console.log(
  `\n${TURNS} turns after ${WARM} warm-up turns: a typed line to the reply's first byte on stdout.`,
);
await Deno.remove(dir, { recursive: true });
