/**
 * The long MCP thread of the context tests (test/context/long_thread_e2e_test.ts)
 * and of bench/long_thread_bench.ts: a thread given run_command alone,
 * through a fake model server whose window is 8,192 tokens (or one given), every turn
 * running a real command (in the real sandbox) that prints about 5 KB. The
 * fake server measures every request — about four characters a token over
 * the whole request, tool schemas included — and any request past the window
 * fails the run. After the turns the thread is asked about turn 1, which by
 * then has left the context: the answer must come from the running summary.
 * Receipts say `condensed: true` exactly on the turns whose audit has a
 * `context.condensed` event. The model server is Ollama or an
 * OpenAI-compatible one (llama.cpp's flavour).
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { startFakeOpenAI } from "../support/fake_openai.ts";
import { connect, mcpScratch, ollamaConfig, structured } from "../faces/mcp/support.ts";
import { CODENAME, measuringModel, type Step, WINDOW } from "./support.ts";

/** A fake model server the long thread runs against. */
export interface Server {
  /** The model's context window, in tokens, as the server reports it. */
  window: number;
  config(): Record<string, unknown>;
  /** Queue one reply that the model decides from the request's body. */
  queue(decide: (body: Record<string, unknown>) => Step): void;
  close(): Promise<void>;
}

/** A fake Ollama whose model reports a `window`-token context (8,192 unless given). */
export function ollamaServer(window = WINDOW): Server {
  const server = startFakeOllama({ models: [{ name: "granite4.1:8b", contextLength: window }] });
  return {
    window,
    config: () => ollamaConfig(server.url, { ollama: { host: server.url, contextLength: window } }),
    queue: (decide) =>
      server.reply((body) => {
        const step = decide(body);
        const usage = { input: step.inputTokens, output: 5 };
        if (step.kind === "too_long") {
          return { error: "input length exceeds maximum context length", status: 400 };
        }
        if (step.kind === "call") {
          return {
            toolCalls: [{ name: "run_command", arguments: { command: step.command } }],
            usage,
          };
        }
        return { text: step.text, usage };
      }),
    close: () => server.close(),
  };
}

/** A fake llama.cpp server (OpenAI-compatible) whose n_ctx is `window` tokens (8,192 unless given). */
export function llamacppServer(window = WINDOW): Server {
  const server = startFakeOpenAI({
    flavour: "llamacpp",
    models: [{ id: "granite" }],
    nCtx: window,
  });
  return {
    window,
    config: () => ({
      model: "llamacpp:granite",
      llamacpp: {
        baseURL: server.baseURL,
        models: { granite: { capabilities: ["toolCalling"] } },
      },
      notifications: { enabled: false },
    }),
    queue: (decide) =>
      server.reply((body) => {
        const step = decide(body);
        const usage = { input: step.inputTokens, output: 5 };
        if (step.kind === "too_long") {
          return {
            error: "the request exceeds the available context size, try increasing it",
            status: 400,
          };
        }
        if (step.kind === "call") {
          return {
            toolCalls: [{ name: "run_command", arguments: { command: step.command } }],
            usage,
          };
        }
        return { text: step.text, usage };
      }),
    close: () => server.close(),
  };
}

/** What a long thread's run came to, for the test's log and the bench's table. */
export interface ThreadNumbers {
  turns: number;
  requests: number;
  largestRequest: number;
  summaryCalls: number;
  condensedTurns: number;
  /** The turns' own seconds (their receipts), and of them the sandboxed commands'. */
  turnSeconds: number;
  commandSeconds: number;
}

/**
 * Runs a thread of `turns` turns through `server` and checks all of it (see
 * the file's doc); throws on the first thing wrong.
 */
export async function longThread(server: Server, turns: number): Promise<ThreadNumbers> {
  const model = measuringModel(server.window);
  const s = await mcpScratch(server.config());
  const c = await connect(s);
  // Every request takes the next queued reply: keep plenty queued (turns, side calls).
  const decide = (body: Record<string, unknown>) => model.step(body);
  for (let i = 0; i < turns * 4; i++) server.queue(decide);
  try {
    const receipts: Record<string, unknown>[] = [];
    let thread: string | undefined;
    for (let n = 1; n <= turns; n++) {
      const result = await c.client.callTool(
        {
          name: "respond",
          arguments: {
            prompt: `Task ${n}: run this turn's command and say when it is done.`,
            ...(thread ? { thread_id: thread } : { tools: ["run_command"] }),
          },
        },
        undefined,
        { timeout: 120_000 },
      );
      const receipt = structured(result);
      thread = String(receipt.thread_id);
      assertEquals(
        (result as { isError?: boolean }).isError ?? false,
        false,
        JSON.stringify(receipt),
      );
      assertEquals(receipt.ran, "ran: run_command", `turn ${n} ran its command`);
      receipts.push(receipt);
    }
    assertEquals(model.oversized, [], "no request the server received passed its window");

    const answer = structured(
      await c.client.callTool(
        {
          name: "respond",
          arguments: {
            prompt: "What codename did the first turn's command print?",
            thread_id: thread,
          },
        },
        undefined,
        { timeout: 120_000 },
      ),
    );
    assertEquals(model.oversized, [], "no request the server received passed its window");
    assertStringIncludes(String(answer.reply), CODENAME, "the thread still knows turn 1");
    // Turn 1 is no longer in view: the codename came from the summary.
    const last = model.last();
    assert(
      !last.some((m) => m.role === "user" && String(m.content).startsWith("Task 1:")),
      "turn 1 was dropped from the context",
    );
    assertStringIncludes(String(last[0].content), "Summary of this conversation's earlier turns");
    assert(model.summaries > 0, "the running summary was asked of the model");
    const commandMs = s.events().filter((e) => e.kind === "command.outcome")
      .reduce((sum, e) => sum + Number(e.durationMs ?? 0), 0);
    const turnSeconds = [...receipts, answer].reduce((sum, r) => sum + Number(r.seconds), 0);

    // condensed: true exactly on the turns whose audit recorded a condensing.
    const condensedTurns = new Set(
      s.events().filter((e) => e.kind === "context.condensed" && e.thread === thread)
        .map((e) => Number(e.threadTurn)),
    );
    assert(condensedTurns.size >= 2, `condensed more than once (${[...condensedTurns]})`);
    for (const receipt of [...receipts, answer]) {
      assertEquals(
        receipt.condensed,
        condensedTurns.has(Number(receipt.turn)),
        `turn ${receipt.turn}'s receipt says whether it condensed`,
      );
    }
    // The thread's context, as the next request would carry it, costs the model nothing to read.
    const view = await c.client.readResource({ uri: `wisp://threads/${thread}/context` });
    const text = (view.contents as { text: string }[])[0].text;
    assertStringIncludes(text, `of ${server.window.toLocaleString("en-US")} tokens`);
    assertStringIncludes(text, "Summary of this conversation's earlier turns");
    assertStringIncludes(text, "[output of entry ");
    assertStringIncludes(text, "do not run it again to see it");
    assert(!text.includes('memory "recall'), "without the memory tool no reference names it");
    await c.client.callTool({ name: "close_thread", arguments: { thread_id: thread } });
    let closedError = "";
    await c.client.readResource({ uri: `wisp://threads/${thread}/context` }).catch((e) =>
      closedError = String(e)
    );
    assertStringIncludes(closedError, "its context went with it");
    for (const event of s.events().filter((e) => e.kind === "context.condensed")) {
      assert(Number(event.afterTokens) < Number(event.beforeTokens), "condensing made room");
      assertEquals(event.window, server.window);
    }
    return {
      turns,
      requests: model.sizes.length,
      largestRequest: Math.max(...model.sizes),
      summaryCalls: model.summaries,
      condensedTurns: condensedTurns.size,
      turnSeconds,
      commandSeconds: commandMs / 1000,
    };
  } finally {
    await c.close();
    await server.close();
    await s.remove();
  }
}
