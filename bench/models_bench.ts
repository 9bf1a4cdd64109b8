/**
 * Model backends: what wisp adds to a model's reply (issue 5, model backends).
 *
 * - Per request, against the fake servers on loopback with a 200-chunk reply:
 *   the backend's chat() beside a baseline of plain fetch + line splitting +
 *   JSON.parse of the same stream. The difference is wisp's overhead (goal:
 *   ≤ 10 µs a chunk; a model streams tens of chunks a second, so this is noise
 *   beside respond's ≤ 5 ms a turn).
 * (The stream parsing of OpenAI-compatible servers is the official client's since ADR 0452.)
 */
import { defaultConfig } from "../src/config/schema.ts";
import { OllamaBackend } from "../src/models/ollama.ts";
import { OpenAICompatibleBackend } from "../src/models/openai.ts";
import { startFakeOllama } from "../test/support/fake_ollama.ts";
import { startFakeOpenAI } from "../test/support/fake_openai.ts";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 60);
const CHUNKS = Array.from({ length: 200 }, (_, i) => `word${i} `);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timeIt(run: () => Promise<void>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < RUNS + 5; i++) {
    const start = performance.now();
    await run();
    if (i >= 5) samples.push(performance.now() - start);
  }
  return median(samples);
}

async function rawLines(url: string, body: unknown, sse: boolean): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let count = 0;
  for (const line of text.split("\n")) {
    const data = sse ? (line.startsWith("data: ") ? line.slice(6) : "") : line;
    if (data === "" || data === "[DONE]") continue;
    JSON.parse(data);
    count++;
  }
  return count;
}

function perChunk(extraMs: number): string {
  return `  (+${extraMs.toFixed(3)} ms, ${
    (extraMs * 1000 / CHUNKS.length).toFixed(1)
  } µs a chunk; goal ≤ 10)`;
}

function row(label: string, ms: number, base: number): string {
  return `  ${label.padEnd(34)} ${ms.toFixed(3).padStart(8)} ms  ${(ms / base).toFixed(2)}×`;
}

// Ollama
const ollama = startFakeOllama({ chunkBytes: 1 << 20, models: [{ name: "bench:1b" }] });
const config = defaultConfig();
config.ollama.models["bench:1b"] = { contextLength: 8192 };
const ollamaBackend = new OllamaBackend("bench:1b", {
  host: ollama.url,
  config,
  freeMemory: () => 1e10,
});
await ollamaBackend.capabilities();
const ollamaBase = await timeIt(async () => {
  ollama.reply({ text: CHUNKS });
  await rawLines(`${ollama.url}/api/chat`, {
    model: "bench:1b",
    messages: [{ role: "user", content: "x" }],
    stream: true,
  }, false);
});
const ollamaWisp = await timeIt(async () => {
  ollama.reply({ text: CHUNKS });
  for await (
    const _ of ollamaBackend.chat({ messages: [{ role: "user", content: "x" }] })
  ) { /* drain */ }
});
await ollama.close();

// OpenAI-compatible
const llama = startFakeOpenAI({ chunkBytes: 1 << 20 });
const llamaBackend = new OpenAICompatibleBackend("m", {
  runtime: "llamacpp",
  baseURL: llama.baseURL,
  config,
});
const openaiBase = await timeIt(async () => {
  llama.reply({ text: CHUNKS });
  await rawLines(`${llama.baseURL}/chat/completions`, {
    model: "m",
    messages: [{ role: "user", content: "x" }],
    stream: true,
  }, true);
});
const openaiWisp = await timeIt(async () => {
  llama.reply({ text: CHUNKS });
  for await (
    const _ of llamaBackend.chat({ messages: [{ role: "user", content: "x" }] })
  ) { /* drain */ }
});
await llama.close();

console.log("a 200-chunk reply over loopback (median of %d)", RUNS);
console.log(row("Ollama: fetch + split + JSON.parse", ollamaBase, ollamaBase));
console.log(
  row("Ollama: OllamaBackend.chat", ollamaWisp, ollamaBase) + perChunk(ollamaWisp - ollamaBase),
);
console.log(row("SSE: fetch + split + JSON.parse", openaiBase, openaiBase));
console.log(
  row("SSE: OpenAICompatibleBackend.chat", openaiWisp, openaiBase) +
    perChunk(openaiWisp - openaiBase),
);
