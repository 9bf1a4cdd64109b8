/**
 * wisp-tui, in process, against the scripted backend and a terminal that
 * records what it is sent:
 *
 * - keystroke to frame: with 2,000 lines already in the scrollback, the time
 *   from a typed key's bytes reaching wisp-tui's key reader to the frame that
 *   shows it being written (goal p99 ≤ 16 ms). Baseline in the same run:
 *   encoding and handing the same frame's bytes to the terminal alone.
 * - memory: the heap and RSS after 100 and after 1,000 turns (each a short
 *   Markdown reply), after a full GC, so growth per turn shows whether the
 *   front end keeps the conversation (it should not: the scrollback is the
 *   terminal's).
 *
 * Run: deno run -A --v8-flags=--expose-gc bench/tui_bench.ts
 */
import { join } from "node:path";
import { homePaths } from "../src/config/home.ts";
import { defaultConfig } from "../src/config/schema.ts";
import { ChatEngine } from "../src/faces/chat/engine.ts";
import { startJsonEngine } from "./json_engine.ts";
import { ScriptedBackend, textReply } from "../src/models/scripted.ts";
import { Tui } from "../src/faces/tui/run.ts";
import { paint } from "../src/faces/tui/palette.ts";
import type { TuiTerminal } from "../src/faces/tui/terminal.ts";
import { InputBox } from "../src/faces/tui/input_box.ts";
import type { Key } from "../src/faces/tui/key.ts";

const KEYS = Number(Deno.env.get("BENCH_KEYS") ?? 500);
const TURNS = Number(Deno.env.get("BENCH_TURNS") ?? 1000);
const gc = (globalThis as { gc?: () => void }).gc;

const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "wisp-tui-bench-" }));
const paths = homePaths(join(dir, "home"));
const config = defaultConfig();

/** A terminal fed by the bench, recording each frame written. */
class BenchTerminal implements TuiTerminal {
  frames = 0;
  bytesWritten = 0;
  onFrame: (() => void) | undefined;
  #feed: ((bytes: Uint8Array | null) => void) | undefined;
  #queued: (Uint8Array | null)[] = [];
  write(bytes: Uint8Array): void {
    this.frames++;
    this.bytesWritten += bytes.length;
    this.onFrame?.();
  }
  size() {
    return { columns: 100, rows: 30 };
  }
  type(bytes: Uint8Array | null): void {
    if (this.#feed) {
      const feed = this.#feed;
      this.#feed = undefined;
      feed(bytes);
    } else this.#queued.push(bytes);
  }
  async *bytes(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const next = this.#queued.length > 0
        ? this.#queued.shift()!
        : await new Promise<Uint8Array | null>((resolve) => this.#feed = resolve);
      if (next === null) return;
      yield next;
    }
  }
  onResize(): () => void {
    return () => {};
  }
  release(): void {}
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

const REPLY = [
  "Here is **a reply** with `code` and a list:",
  "",
  ...Array.from({ length: 8 }, (_, i) => `- item ${i} of the list, long enough to be a real line`),
  "",
  "And a closing paragraph that wraps across the width of the terminal more than once.",
].join("\n");

function memory(): { heap: number; rss: number } {
  gc?.();
  const m = Deno.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
}

/**
 * Baseline for memory: the same turns through the engine with its lines only
 * encoded, as `wisp chat --json` does, so what the front end adds shows apart
 * from what the session keeps.
 */
async function engineAlone(): Promise<{ m100: { heap: number }; m1000: { heap: number } }> {
  const backend = new ScriptedBackend();
  const { engine, send } = await startJsonEngine(backend, {
    config,
    paths: homePaths(join(dir, "home-baseline")),
    root: dir,
  });
  let m100 = memory();
  for (let i = 0; i < TURNS + 150; i++) {
    if (i >= 250 && i % 100 === 0) await send("/new");
    backend.push(textReply(REPLY));
    await send(`question ${i}`);
    if (i === 249) m100 = memory();
  }
  const m1000 = memory();
  await engine.finish(0);
  return { m100, m1000 };
}

const alone = await engineAlone();

const terminal = new BenchTerminal();
const tui = new Tui({
  terminal,
  paint: paint(true),
  shownOutputLines: config.shownOutputLines,
  version: "bench",
  notifies: false,
});
const backend = new ScriptedBackend();
const engine = new ChatEngine({
  config,
  paths,
  root: dir,
  yes: false,
  unsafe: false,
  face: "chat-tui",
  approvals: "protocol",
  inputIsTerminal: true,
  noteWaiting: false,
  version: "bench",
  emit: tui.emit,
  backend: () => Promise.resolve(backend),
  runnableModels: () => Promise.resolve([backend.name]),
  configView: () => ({}),
});
await engine.start();
const running = tui.run(engine);
const encoder = new TextEncoder();

/** Type `text` and Enter; resolves when the turn has ended (the box is live again). */
async function turn(text: string, reply: string): Promise<void> {
  backend.push(textReply(reply));
  const ended = new Promise<void>((resolve) => {
    const wait = () => engine.busy ? setTimeout(wait, 1) : resolve();
    setTimeout(wait, 1);
  });
  terminal.type(encoder.encode(text + "\r"));
  await ended;
  // The scripted backend's own log of requests is not the chat's memory (see engineAlone).
  backend.requests.length = 0;
  await new Promise((r) => setTimeout(r, 0));
}

// 2,000 lines of scrollback: about 14 lines a turn.
const startFrames = terminal.frames;
for (let i = 0; i < 150; i++) await turn(`question ${i}`, REPLY);

/** The time from a key's bytes arriving to its frame being written. */
async function keystrokes(): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < KEYS + 20; i++) {
    const key = i % 40 === 39 ? "\x15" : String.fromCharCode(97 + (i % 26)); // Ctrl-U now and then
    const written = new Promise<number>((resolve) =>
      terminal.onFrame = () => resolve(performance.now())
    );
    const start = performance.now();
    terminal.type(encoder.encode(key));
    const at = await written;
    terminal.onFrame = undefined;
    if (i >= 20) samples.push(at - start);
    // Let ink's frame throttle pass, as a person's typing does.
    await new Promise((r) => setTimeout(r, 10));
  }
  return samples;
}

/** Baseline: the same keys through the input box alone (edit and lay out), no drawing. */
function baseline(): number[] {
  const box = new InputBox();
  const samples: number[] = [];
  for (let i = 0; i < KEYS; i++) {
    const key: Key = i % 40 === 39
      ? { kind: "key", name: "u", ctrl: true }
      : { kind: "text", text: String.fromCharCode(97 + (i % 26)) };
    const start = performance.now();
    box.apply(key);
    box.layout(97);
    samples.push(performance.now() - start);
  }
  return samples;
}

const keyTimes = await keystrokes();
const base = baseline();
terminal.type(encoder.encode("\x15"));

const at100 = (async () => {
  for (let i = 150; i < 250; i++) await turn(`more ${i}`, REPLY);
  return memory();
})();
const m100 = await at100;
for (let i = 250; i < TURNS + 150; i++) {
  if (i % 100 === 0) terminal.type(encoder.encode("/new\r"));
  await turn(`more ${i}`, REPLY);
}
const m1000 = memory();

terminal.type(encoder.encode("/quit\r"));
await running;

const ms = (n: number) => `${n.toFixed(2)} ms`;
const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;
console.log("keystroke to frame, 2,000+ lines of scrollback, 100×30:");
console.log(
  `  p50 ${ms(percentile(keyTimes, 0.5))}  p99 ${ms(percentile(keyTimes, 0.99))}  max ${
    ms(Math.max(...keyTimes))
  }  (goal p99 ≤ 16 ms: ${percentile(keyTimes, 0.99) <= 16 ? "met" : "missed"})`,
);
console.log(
  `  baseline (the input box alone: edit and lay out, no drawing): p50 ${
    ms(percentile(base, 0.5))
  }, ratio p50 ${(percentile(keyTimes, 0.5) / Math.max(percentile(base, 0.5), 0.001)).toFixed(0)}×`,
);
console.log(`memory (${gc ? "after a full GC" : "no --expose-gc: without GC"}):`);
console.log(`  after 100 turns:   heap ${mib(m100.heap)}, RSS ${mib(m100.rss)}`);
console.log(`  after ${TURNS} turns: heap ${mib(m1000.heap)}, RSS ${mib(m1000.rss)}`);
const perTurn = (a: { heap: number }, b: { heap: number }) =>
  (b.heap - a.heap) / (TURNS - 100) / 1024;
console.log(
  `  heap growth per turn: ${perTurn(m100, m1000).toFixed(1)} KiB with wisp-tui; ${
    perTurn(alone.m100, alone.m1000).toFixed(1)
  } KiB with the engine alone (lines only encoded, as chat --json does)`,
);
console.log(
  `frames written: ${terminal.frames - startFrames}, ${mib(terminal.bytesWritten)} in all`,
);
await Deno.remove(dir, { recursive: true });
