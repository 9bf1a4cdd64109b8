/**
 * The chat engine's heap growth per turn, with its lines only JSON-encoded
 * (as `wisp chat --json`), against the scripted backend:
 *
 * - baseline: the scripted backend alone, its replies consumed directly (what
 *   the loop itself costs, with no engine);
 * - short replies, `/new` every 100 turns;
 * - each turn a read_file call (a 10 KB file) and a thinking stretch before
 *   the reply, `/new` every 100 turns: what the chat keeps of outputs and
 *   thinking for /show and /inspect;
 * - one long conversation of short replies (no `/new`): the store condenses,
 *   so it too should level off.
 *
 * Growth is measured from a warm engine (after WARM turns) to the end, after
 * a full GC, with the event loop let run between turns as a person's next
 * line arriving does. The scripted backend's own log of requests (a test
 * device) is emptied after each turn so that it is not counted.
 *
 * Run: deno run -A bench/chat_memory_bench.ts (it runs itself again with
 * --expose-gc when started without it). BENCH_TURNS=400 for a quicker run.
 */
import { join } from "node:path";
import { homePaths } from "../src/config/home.ts";
import { defaultConfig } from "../src/config/schema.ts";
import { startJsonEngine } from "./json_engine.ts";
import { ScriptedBackend, textReply, toolCallEvent } from "../src/models/scripted.ts";
import type { StreamEvent } from "../src/models/backend.ts";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  // Heap figures mean little without a full GC first: run again with it.
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--v8-flags=--expose-gc", new URL(import.meta.url).pathname],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  Deno.exit(code);
}

const TURNS = Number(Deno.env.get("BENCH_TURNS") ?? 1000);
const WARM = 200;
const NEW_EVERY = 100;
const REPLY = [
  "Here is **a reply** with `code` and a list:",
  "",
  ...Array.from({ length: 8 }, (_, i) => `- item ${i} of the list, long enough to be a real line`),
].join("\n");

const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "wisp-chat-memory-bench-" }));
const config = defaultConfig();
const FILE = "notes.txt";
await Deno.writeTextFile(
  join(dir, FILE),
  Array.from({ length: 200 }, (_, i) => `line ${i} of a file the model reads every turn`).join(
    "\n",
  ),
);

/** Let pending timers and I/O run, then collect everything collectable; the heap in use. */
async function settledHeap(): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  gc!();
  gc!();
  return Deno.memoryUsage().heapUsed;
}

interface Scenario {
  name: string;
  newEvery: number | undefined;
  steps(turn: number): (StreamEvent[])[];
}

interface Measured {
  perTurnKiB: number;
  kept: string;
}

async function engineRun(scenario: Scenario, home: string): Promise<Measured> {
  const backend = new ScriptedBackend([], { capabilities: { thinking: true } });
  const { engine, send } = await startJsonEngine(backend, {
    config,
    paths: homePaths(join(dir, home)),
    root: dir,
  });
  let warm = 0;
  for (let i = 0; i < WARM + TURNS; i++) {
    if (scenario.newEvery && i > 0 && i % scenario.newEvery === 0) await send("/new");
    backend.push(...scenario.steps(i));
    await send(`question ${i}`);
    if (i === WARM - 1) warm = await settledHeap();
  }
  const end = await settledHeap();
  const kept =
    `outputs ${engine.outputs.length}, thoughts ${engine.thoughts.length}, history ${engine.history.length}`;
  await engine.finish(0);
  return { perTurnKiB: (end - warm) / TURNS / 1024, kept };
}

/** Baseline: the same replies from the scripted backend, consumed with no engine. */
async function backendAlone(): Promise<Measured> {
  const backend = new ScriptedBackend();
  const ask = async (i: number) => {
    backend.push(textReply(REPLY));
    for await (
      const _ of backend.chat({ messages: [{ role: "user", content: `question ${i}` }] })
    ) {
      // consumed
    }
    backend.requests.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  let warm = 0;
  for (let i = 0; i < WARM + TURNS; i++) {
    await ask(i);
    if (i === WARM - 1) warm = await settledHeap();
  }
  const end = await settledHeap();
  return { perTurnKiB: (end - warm) / TURNS / 1024, kept: "" };
}

const scenarios: Scenario[] = [
  { name: "short replies, /new every 100", newEvery: NEW_EVERY, steps: () => [textReply(REPLY)] },
  {
    name: "read_file (10 KB) + thinking each turn, /new every 100",
    newEvery: NEW_EVERY,
    steps: () => [
      [toolCallEvent("read_file", { path: FILE })],
      [
        { type: "thinking", text: "Let me look at what the file says. ".repeat(20) },
        ...textReply(REPLY),
      ],
    ],
  },
  {
    name: "one long conversation, short replies",
    newEvery: undefined,
    steps: () => [textReply(REPLY)],
  },
];

const base = await backendAlone();
console.log(
  `chat engine heap growth per turn, ${TURNS} turns after ${WARM} warm (after a full GC):`,
);
console.log(`  baseline, the scripted backend alone: ${base.perTurnKiB.toFixed(2)} KiB`);
for (const [i, scenario] of scenarios.entries()) {
  const measured = await engineRun(scenario, `home-${i}`);
  console.log(
    `  ${scenario.name}: ${
      measured.perTurnKiB.toFixed(2)
    } KiB  (kept at the end: ${measured.kept})`,
  );
}
await Deno.remove(dir, { recursive: true });
