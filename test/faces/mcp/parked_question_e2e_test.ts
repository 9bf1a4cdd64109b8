/**
 * The parked question under `wisp mcp`: a question nobody answers within
 * inquiry.parkAfterSeconds ends its respond call with a marker and the
 * question's id; it keeps waiting on the pending board; `wisp questions
 * answer|decline ID` at a real terminal (tmux) is taken and says the thread
 * reads it on its next turn; that next respond gives the model the answer as
 * a notice before the prompt, once. A parked question that runs out is told
 * as such, once.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { Terminal, tmuxAvailable } from "../../support/tmux.ts";
import {
  connect,
  type Connected,
  type McpScratch,
  mcpScratch,
  ollamaConfig,
  pendingIds,
  structured,
  textOf,
  waitFor,
  wispAtTerminal,
} from "./support.ts";

const QUESTION = "Which config did you mean?";

interface Chat {
  messages: { role: string; content: string }[];
}

/** The last user message of a chat request the fake server received. */
function lastUserMessage(chat: unknown): string {
  return (chat as Chat).messages.filter((m) => m.role === "user").at(-1)!.content;
}

/** The model asks QUESTION, then replies `afterAsk`, then each of `later` in turn. */
function scriptAsk(ollama: ReturnType<typeof startFakeOllama>, later: string[]): void {
  ollama.reply(
    {
      toolCalls: [{
        name: "ask",
        arguments: { question: QUESTION, options: ["~/.wisp", "./wisp.json"] },
      }],
    },
    { text: "I asked which config you meant." },
    ...later.map((text) => ({ text })),
  );
}

/**
 * A respond call that is parked: its receipt, checked for the marker and the question's id, and
 * the question still on the board after the call returned, unless `runsOut` (its wait is short
 * enough to end at any moment after the park; the receipt's "waiting" already says it was parked).
 */
async function parkedCall(
  c: Connected,
  s: McpScratch,
  thread: string,
  runsOut = false,
): Promise<string> {
  const result = await c.client.callTool({
    name: "respond",
    arguments: { prompt: "replace the config", thread_id: thread, tools: ["ask"] },
  });
  const receipt = structured(result) as {
    reply: string;
    questions?: { id: string; question: string; state: string }[];
  };
  assertEquals(receipt.questions?.length, 1, JSON.stringify(receipt));
  const [question] = receipt.questions!;
  assertEquals(question.question, QUESTION);
  assertEquals(question.state, "waiting");
  assertMatch(question.id, /^[0-9a-f]{8}$/);
  const marker =
    `[a question waits for the person: ${QUESTION} — answer with wisp questions answer ${question.id}]`;
  assert(receipt.reply.endsWith(marker), receipt.reply);
  assertStringIncludes(textOf(result), marker);
  // The question still waits on the board after the call returned.
  if (!runsOut) assertEquals(pendingIds(s.pending), [question.id]);
  return question.id;
}

/**
 * A `wisp mcp` server given the ask tool, parking after a second, its
 * questions running out after `timeoutSeconds`, over a fake Ollama; `body`
 * runs with them, then all of it is closed.
 */
async function withParkingServer(
  timeoutSeconds: number,
  body: (ollama: ReturnType<typeof startFakeOllama>, s: McpScratch, c: Connected) => Promise<void>,
): Promise<void> {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(
    ollamaConfig(ollama.url, {
      tools: { ask: true },
      inquiry: { timeoutSeconds, parkAfterSeconds: 1 },
    }),
  );
  const c = await connect(s, { env: { HOME: s.home } });
  try {
    await body(ollama, s, c);
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
}

Deno.test({
  name:
    "wisp mcp: an unanswered question parks the turn; the answer given at a terminal reaches the thread's next turn once",
  ignore: !tmuxAvailable(),
  fn: async () => {
    await withParkingServer(300, async (ollama, s, c) => {
      const terminal = new Terminal();
      try {
        scriptAsk(ollama, ["Using ./wisp.json.", "Done."]);
        const id = await parkedCall(c, s, "cfg");
        // The model was told the question waits, not an answer.
        const toolMessage = (ollama.chats()[1] as unknown as Chat).messages.filter((m) =>
          m.role === "tool"
        )
          .at(-1)!.content;
        assertStringIncludes(toolMessage, `(question ${id})`);
        assertStringIncludes(toolMessage, "Do not guess it");

        await terminal.wisp("answer", s.home, ["questions", "answer", id], undefined, s.project, {
          env: { HOME: s.home },
        });
        await terminal.waitFor("answer", "press Enter to decline");
        await terminal.keys("answer", "2", "Enter");
        const answered = await terminal.waitFor("answer", "EXIT=");
        assertStringIncludes(
          answered,
          `answered: ${QUESTION}; thread cfg reads it on its next turn`,
        );
        assertStringIncludes(answered, "EXIT=0");
        const settled = await waitFor(
          () => s.events().find((e) => e.kind === "inquiry.settled" && e.parked === true),
          "the parked question's end in the audit",
        );
        assertEquals(settled.outcome, "answered");
        assertEquals(settled.thread, "cfg");
        assertEquals(pendingIds(s.pending), []);

        const notice = `[the person answered your question "${QUESTION}": ./wisp.json]`;
        const next = await c.client.callTool({
          name: "respond",
          arguments: { prompt: "go on", thread_id: "cfg" },
        });
        const receipt = structured(next) as { notices?: string[]; reply: string };
        assertEquals(receipt.notices, [notice]);
        assertEquals(receipt.reply, "Using ./wisp.json.");
        assertEquals(lastUserMessage(ollama.chats()[2]), `${notice}\n\ngo on`);

        // Told once: the turn after does not hear it again as news.
        const third = await c.client.callTool({
          name: "respond",
          arguments: { prompt: "anything else?", thread_id: "cfg" },
        });
        assertEquals((structured(third) as { notices?: string[] }).notices, undefined);
        assertEquals(lastUserMessage(ollama.chats()[3]), "anything else?");
      } finally {
        await terminal.close();
      }
    });
  },
});

Deno.test({
  name: "wisp mcp: a parked question declined at a terminal is told to the next turn once",
  ignore: !tmuxAvailable(),
  fn: async () => {
    await withParkingServer(300, async (ollama, s, c) => {
      const terminal = new Terminal();
      try {
        scriptAsk(ollama, ["I will not guess.", "Fine."]);
        const id = await parkedCall(c, s, "dec");
        await terminal.wisp("decline", s.home, ["questions", "decline", id], undefined, s.project, {
          env: { HOME: s.home },
        });
        const declined = await terminal.waitFor("decline", "EXIT=");
        assertStringIncludes(declined, `declined: ${QUESTION}; thread dec`);
        assertStringIncludes(declined, "next turn");
        assertStringIncludes(declined, "EXIT=0");
        await waitFor(
          () => s.events().find((e) => e.kind === "inquiry.settled" && e.parked === true),
          "the parked question's end in the audit",
        );

        const notice = `[the person declined your question "${QUESTION}"]`;
        await c.client.callTool({
          name: "respond",
          arguments: { prompt: "and?", thread_id: "dec" },
        });
        assertEquals(lastUserMessage(ollama.chats()[2]), `${notice}\n\nand?`);
        await c.client.callTool({ name: "respond", arguments: { prompt: "ok", thread_id: "dec" } });
        assertEquals(lastUserMessage(ollama.chats()[3]), "ok");
      } finally {
        await terminal.close();
      }
    });
  },
});

Deno.test("wisp mcp: a parked question nobody answers runs out, and the next turn is told so once", async () => {
  // Parked after 1 s, run out after 4: the park needs the question still waiting, and a loaded
  // machine may be late with it.
  await withParkingServer(4, async (ollama, s, c) => {
    scriptAsk(ollama, ["Nothing came.", "Still nothing."]);
    const id = await parkedCall(c, s, "late", true);
    const settled = await waitFor(
      () => s.events().find((e) => e.kind === "inquiry.settled" && e.parked === true),
      "the parked question's end in the audit",
    );
    assertEquals(settled.outcome, "timeout");
    assertEquals(settled.pendingId, id);
    await waitFor(
      () => pendingIds(s.pending).length === 0 ? true : undefined,
      "the file's removal",
    );

    await c.client.callTool({ name: "respond", arguments: { prompt: "well?", thread_id: "late" } });
    assertEquals(
      lastUserMessage(ollama.chats()[2]),
      `[the person did not answer your question "${QUESTION}" within 4 s; it no longer waits. Do not guess the answer]\n\nwell?`,
    );
    await c.client.callTool({ name: "respond", arguments: { prompt: "so", thread_id: "late" } });
    assertEquals(lastUserMessage(ollama.chats()[3]), "so");
  });
});

Deno.test("wisp mcp: a parked question is withdrawn when its thread closes, and a later answer is refused", async () => {
  await withParkingServer(300, async (ollama, s, c) => {
    scriptAsk(ollama, []);
    const id = await parkedCall(c, s, "gone");
    await c.client.callTool({ name: "close_thread", arguments: { thread_id: "gone" } });
    await waitFor(() => pendingIds(s.pending).length === 0 ? true : undefined, "the withdrawal");
    const late = await wispAtTerminal(s.home, ["questions", "answer", id]);
    assertEquals(late.code, 1, late.output);
    assertStringIncludes(late.output, `${id} no longer waits: its thread gone closed`);
    // Nothing is told for a thread that is gone.
    assertEquals(
      s.events().some((e) => e.kind === "inquiry.settled" && e.parked === true),
      false,
    );
  });
});
