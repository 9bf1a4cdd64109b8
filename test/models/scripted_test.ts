import { assertEquals, assertRejects } from "../support/assert.ts";
import { ScriptedBackend, textReply, toolCallEvent } from "../../src/models/scripted.ts";
import type { StreamEvent } from "../../src/models/backend.ts";
import { ModelStopped } from "../../src/models/errors.ts";

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

Deno.test("scripted: replays one step per request, records requests, completes a missing done", async () => {
  const model = new ScriptedBackend([
    [toolCallEvent("run_command", { command: "ls" }, "c1")],
    textReply("Two files."),
    (request) => [{ type: "text", text: `you said ${request.messages.at(-1)!.content}` }],
  ]);
  const first = await collect(model.chat({ messages: [{ role: "user", content: "list" }] }));
  assertEquals(first, [
    { type: "tool_call", call: { id: "c1", name: "run_command", arguments: { command: "ls" } } },
    { type: "done", finishReason: "tool_calls" },
  ]);
  await collect(model.chat({ messages: [{ role: "user", content: "again" }] }));
  const third = await collect(model.chat({ messages: [{ role: "user", content: "hi" }] }));
  assertEquals(third[0], { type: "text", text: "you said hi" });
  assertEquals(model.requests.length, 3);
  assertEquals(model.remaining(), 0);
  await assertRejects(() => collect(model.chat({ messages: [] })), Error, "no step left");
});

Deno.test("scripted: an error step throws, an abort stops the replay", async () => {
  const model = new ScriptedBackend([{ error: new Error("server fell over") }, textReply("never")]);
  await assertRejects(() => collect(model.chat({ messages: [] })), Error, "server fell over");
  const controller = new AbortController();
  controller.abort();
  await assertRejects(
    () => collect(model.chat({ messages: [], signal: controller.signal })),
    ModelStopped,
  );
});
