/**
 * A condensing the turn stops while the fact distiller runs is undone whole:
 * the turn's signal reaches the distiller's model call (the scripted backend
 * sees it aborted), the request rejects as aborted, and the context — store,
 * summary, references — and the fact book are as they were before
 * condensing began, though an earlier chunk had already recorded a fact and
 * been summarised. A later request condenses as if nothing had happened.
 */
import { assert, assertEquals, assertRejects } from "../support/assert.ts";
import { within } from "../support/wait.ts";
import { ConversationContext } from "../../src/context/context.ts";
import type { Summariser } from "../../src/context/summary.ts";
import { FactBook } from "../../src/context/facts/book.ts";
import { resolveKinds } from "../../src/context/facts/kinds.ts";
import { bookSink } from "../../src/context/facts/sink.ts";
import { ScriptedBackend, textReply } from "../../src/models/scripted.ts";
import type { ChatRequest, StreamEvent } from "../../src/models/backend.ts";
import type { AuditEvent } from "../../src/audit/catalogue.ts";
import type { AuditSink } from "../../src/audit/writer.ts";

/** One finished turn whose output is long enough that a few make a distiller chunk. */
function turn(context: ConversationContext, n: number): void {
  context.begin(`prompt ${n}`);
  context.add({
    role: "assistant",
    content: "",
    toolCalls: [{ id: `c${n}`, name: "run_command", arguments: { command: `ls ${n}` } }],
  });
  context.add({
    role: "tool",
    content: "x".repeat(2000),
    toolCallId: `c${n}`,
    toolName: "run_command",
  });
  context.add({ role: "assistant", content: `reply ${n}` });
  context.end();
}

function recorder(): AuditSink & { kinds: string[] } {
  const kinds: string[] = [];
  return {
    session: "s",
    kinds,
    record(kind) {
      kinds.push(kind);
      return { kind, id: String(kinds.length) } as unknown as AuditEvent;
    },
  };
}

const codename = JSON.stringify({
  facts: [{ subject: "entity", name: "codename", value: "BLUE HERON" }],
});

Deno.test("a stop during the distiller's call cancels it and leaves the context and the facts as they were", async () => {
  let heard: (request: ChatRequest) => void = () => {};
  const asked = new Promise<ChatRequest>((resolve) => heard = resolve);
  // The second chunk's distillation waits until its request's signal is aborted.
  const waitForStop = (request: ChatRequest): AsyncIterable<StreamEvent> => ({
    async *[Symbol.asyncIterator]() {
      heard(request);
      await new Promise<void>((resolve) => {
        if (request.signal?.aborted) resolve();
        request.signal?.addEventListener("abort", () => resolve(), { once: true });
      });
      // What the model would say after the stop never reaches the book.
      yield { type: "text", text: codename };
    },
  });
  const distiller = new ScriptedBackend([textReply(codename), waitForStop]);
  const book = new FactBook({ kinds: resolveKinds() });
  let summarised = 0;
  const summariser: Summariser = {
    summarise: (previous, text) => {
      summarised++;
      return Promise.resolve(`${previous} summary of ${text.length} characters`.trim());
    },
  };
  const context = new ConversationContext({
    instructions: "be brief",
    window: 8192,
    summariser,
    facts: bookSink({ book, backend: distiller }),
  });
  for (let n = 1; n <= 80; n++) turn(context, n);
  const audit = recorder();
  context.begin("prompt 81", audit);
  const before = context.snapshot();
  const composedBefore = context.compose();

  const stop = new AbortController();
  const request = context.request([], stop.signal);
  const second = await within(asked, "the second chunk's distillation");
  // The first chunk was distilled into the book and summarised before the stop.
  assertEquals(book.current().map((f) => f.value), ["BLUE HERON"]);
  assertEquals(summarised, 1);
  stop.abort(new Error("stopped by you"));
  await assertRejects(() => request, DOMException);

  assert(second.signal?.aborted, "the distiller's own request saw the turn's stop");
  assertEquals(context.snapshot(), before, "the store is as it was, nothing dropped");
  assertEquals(context.summary, null);
  assertEquals(context.compose(), composedBefore, "the next request would be composed as before");
  assertEquals(context.condensedThisTurn.length, 0);
  assertEquals(audit.kinds.filter((k) => k === "context.condensed"), []);
  assertEquals(book.all().length, 0, "the fact the first chunk recorded is gone too");
  assertEquals(book.current(), []);

  // Asked again without a stop, it condenses: the put-back turns are whole.
  distiller.push(
    ...Array.from({ length: 20 }, () => textReply(JSON.stringify({ facts: [] }))),
  );
  const messages = await context.request([]);
  assert(context.measure(messages, []) <= 0.6 * 8192);
  assertEquals(context.condensedThisTurn[0].droppedTurns[0], 1, "turn 1 is dropped first again");
  assertEquals(context.store.droppedTurns, context.condensedThisTurn[0].droppedTurns.length);
});
