/**
 * The 60-turn MCP thread of test/context/long_thread.ts through an
 * OpenAI-compatible server (llama.cpp's flavour), in full — the suite runs it
 * in full through Ollama only, and through this server a short thread in a
 * smaller window. Every check of the test holds here too: the run fails
 * (exit 1) if a request passes the 8,192-token window, the thread forgets
 * turn 1, or a receipt misreports condensing.
 *
 * Beside it, the same thread through Ollama as the baseline, in the same run.
 * Prints, for each server: the wall time of the whole thread, the turns' own
 * seconds and the sandboxed commands' share of them, the requests and the
 * largest one, the summary calls and the turns condensed.
 *
 *   deno run -A bench/long_thread_bench.ts [turns, default 60]
 */
import {
  llamacppServer,
  longThread,
  ollamaServer,
  type Server,
  type ThreadNumbers,
} from "../test/context/long_thread.ts";

const turns = Number(Deno.args[0] ?? 60);

async function timed(server: Server): Promise<ThreadNumbers & { wallSeconds: number }> {
  const started = performance.now();
  const numbers = await longThread(server, turns);
  return { ...numbers, wallSeconds: (performance.now() - started) / 1000 };
}

const rows: [string, ThreadNumbers & { wallSeconds: number }][] = [];
// Stop at the first run that fails a check: its error says what went wrong.
rows.push(["llama.cpp (OpenAI-compatible)", await timed(llamacppServer())]);
rows.push(["Ollama (baseline)", await timed(ollamaServer())]);

console.log(`${turns}-turn MCP thread, 8,192-token window\n`);
console.log(
  "| server | wall s | turns s | commands s | requests | largest | summaries | condensed |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
for (const [name, n] of rows) {
  console.log(
    `| ${name} | ${n.wallSeconds.toFixed(1)} | ${n.turnSeconds.toFixed(1)} | ` +
      `${n.commandSeconds.toFixed(1)} | ${n.requests} | ${n.largestRequest} | ` +
      `${n.summaryCalls} | ${n.condensedTurns} |`,
  );
}
const [server, baseline] = rows.map(([, n]) => n.wallSeconds);
console.log(`\nllama.cpp / Ollama wall time: ${(server / baseline).toFixed(2)}×`);
