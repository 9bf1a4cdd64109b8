/**
 * The long MCP thread (test/context/long_thread.ts says what it checks) in
 * full, 60 turns, through Ollama; and through an OpenAI-compatible server
 * (llama.cpp's flavour) a short thread that still fills the window, is
 * condensed more than once and drops turn 1, so that server's own path (its
 * window from n_ctx, its usage, its requests) is still exercised end to end.
 * The 60-turn run through that server is bench/long_thread_bench.ts.
 */
import { llamacppServer, longThread, ollamaServer } from "./long_thread.ts";

const FULL_TURNS = 60;
/**
 * The short thread's window is half the full one's, so the turns fill it
 * sooner: within these turns it is condensed more than once and turn 1 leaves
 * it (in the 8,192-token window the first condensing comes near turn 27).
 */
const SHORT_WINDOW = 4096;
const SHORT_TURNS = 20;

function report(numbers: Awaited<ReturnType<typeof longThread>>): void {
  console.log(
    `${numbers.turns} turns: largest request ${numbers.largestRequest} tokens over ` +
      `${numbers.requests} requests; ${numbers.summaryCalls} summary calls; ` +
      `${numbers.condensedTurns} turns condensed; turns took ${
        numbers.turnSeconds.toFixed(1)
      } s, ` +
      `the sandboxed commands ${numbers.commandSeconds.toFixed(1)} s of it`,
  );
}

Deno.test("a 60-turn MCP thread through Ollama with an 8,192-token window never overflows it and still answers about turn 1", async () => {
  report(await longThread(ollamaServer(), FULL_TURNS));
});

Deno.test("a short MCP thread through an OpenAI-compatible server with a 4,096-token window is condensed, never overflows it, and still answers about turn 1", async () => {
  report(await longThread(llamacppServer(SHORT_WINDOW), SHORT_TURNS));
});
