/**
 * A request the server refuses as too long is condensed and sent exactly
 * once more: through the real `wisp mcp` and a fake Ollama that refuses the
 * fourth turn's first request the way Ollama words it. The retry is smaller,
 * the audit records a `context.condensed` with reason overflow, and the turn
 * succeeds; a server that refuses the retry as well fails the turn with the
 * server's sentence after exactly two requests.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { connect, mcpScratch, ollamaConfig, structured, textOf } from "../faces/mcp/support.ts";
import { measuredTokens, WINDOW } from "./support.ts";
import { SUMMARY_PROMPT } from "../../src/context/summary.ts";
import { DISTILLER_INSTRUCTIONS } from "../../src/context/facts/distiller.ts";

const TOO_LONG = { error: "input length exceeds maximum context length", status: 400 };

async function threeTurns(refuseRetry: boolean) {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b", contextLength: WINDOW }] });
  const s = await mcpScratch(
    ollamaConfig(ollama.url, { ollama: { host: ollama.url, contextLength: WINDOW } }),
  );
  const c = await connect(s);
  const turn = async (prompt: string, thread?: string) =>
    await c.client.callTool({
      name: "respond",
      arguments: { prompt, ...(thread ? { thread_id: thread } : { tools: [] }) },
    });
  const long = "a sentence of the caller's that fills the thread. ".repeat(60);
  ollama.reply({ text: "One." }, { text: "Two." }, { text: "Three." });
  const first = structured(await turn(`first ${long}`));
  const thread = String(first.thread_id);
  await turn(`second ${long}`, thread);
  await turn(`third ${long}`, thread);
  const before = ollama.chats().length;
  // The side calls (the running summary, the facts' distiller) are answered as they come;
  // the turn's requests follow the script.
  const script = [TOO_LONG, refuseRetry ? TOO_LONG : { text: "Four." }];
  const system = (body: Record<string, unknown>) =>
    (body.messages as { content: string }[])[0].content;
  const summaryCall = (body: Record<string, unknown>) => system(body) === SUMMARY_PROMPT;
  const distillerCall = (body: Record<string, unknown>) =>
    system(body).startsWith(DISTILLER_INSTRUCTIONS);
  for (let i = 0; i < 8; i++) {
    ollama.reply((body) =>
      summaryCall(body)
        ? { text: "The caller filled three turns with sentences." }
        : distillerCall(body)
        ? { text: JSON.stringify({ facts: [] }) }
        : script.shift() ?? { text: "?" }
    );
  }
  const result = await turn("fourth", thread);
  const turnChats = () =>
    ollama.chats().slice(before).filter((b) => !summaryCall(b) && !distillerCall(b));
  return { ollama, s, c, result, turnChats };
}

Deno.test("a request refused as too long is condensed and retried once, and the turn succeeds", async () => {
  const { ollama, s, c, result, turnChats } = await threeTurns(false);
  try {
    const chats = turnChats();
    assertEquals(chats.length, 2, "the refused request and one retry");
    assert(measuredTokens(chats[1]) < measuredTokens(chats[0]), "the retry is smaller");
    const roles = chats[1].messages as { role: string; content: string }[];
    assert(!roles.some((m) => m.content.startsWith("first ")), "the oldest turn left the context");
    const receipt = structured(result);
    assertEquals(receipt.reply, "Four.");
    assertEquals(receipt.condensed, true);
    const condensed = s.events().filter((e) => e.kind === "context.condensed");
    assertEquals(condensed.length, 1);
    assertEquals(condensed[0].reason, "overflow");
    const dropped = condensed[0].droppedTurns as number[];
    assert(dropped.length > 0 && dropped[0] === 1, "the oldest turns were dropped first");
    assert(!dropped.includes(4), "the running turn is kept");
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});

Deno.test("a retry refused as too long too fails the turn with the server's sentence, after exactly one retry", async () => {
  const { ollama, s, c, result, turnChats } = await threeTurns(true);
  try {
    assertEquals(turnChats().length, 2, "one request and one retry, no more");
    assertEquals((result as { isError?: boolean }).isError, true);
    assertStringIncludes(textOf(result), "too long for its window");
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});
