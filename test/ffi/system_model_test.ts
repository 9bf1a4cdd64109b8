/**
 * The `system` backend's FFI path, end to end on Linux: the test build of
 * libwisp (libwisp_test_model.so) replays a script on a thread of its own,
 * and wisp's real turn loop drives it through the bindings: a turn with a
 * real tool call whose result goes back through the ABI, a cancel while the
 * reply streams, and the framework's errors mapped to sentences.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { nativeLibraries } from "../support/native.ts";
import { within } from "../support/wait.ts";
import { type Libwisp, openLibwisp } from "../../src/ffi/libwisp.ts";
import { modelAvailability, modelWindow, NativeSession, tokenCount } from "../../src/ffi/model.ts";
import { SystemBackend, systemBackendHere } from "../../src/models/system_backend.ts";
import { ModelError } from "../../src/models/errors.ts";
import { ToolRegistry } from "../../src/tools/registry.ts";
import { currentDateTool } from "../../src/tools/current_date.ts";
import { runTurn } from "../../src/agent/turn.ts";
import { ConversationContext } from "../../src/context/context.ts";
import { harness } from "../agent/support.ts";

const linux = Deno.build.os === "linux";
let testModel: Libwisp | undefined;

async function model(script: string[]): Promise<Libwisp> {
  testModel ??= openLibwisp((await nativeLibraries()).testModel!);
  const file = Deno.makeTempFileSync({ suffix: ".script" });
  Deno.writeTextFileSync(file, script.join("\n") + "\n");
  // The library reads the script when a session opens.
  Deno.env.set("WISP_TEST_MODEL_SCRIPT", file);
  return testModel;
}

Deno.test({
  name: "the test model answers availability, window and token counts through the ABI",
  ignore: !linux,
  async fn() {
    const lib = await model(["say hi", "end"]);
    assertEquals(modelAvailability(lib), { available: true });
    assertEquals(modelWindow(lib), 8192);
    assertEquals(tokenCount(lib, "three small words"), 3);
  },
});

Deno.test({
  name: "a full turn: a real tool runs on the model's call and its result returns through the ABI",
  ignore: !linux,
  async fn() {
    const lib = await model([
      "say Let me look.",
      "call c1 current_date {}",
      "say It is",
      "say-result",
      "end",
    ]);
    const backend = new SystemBackend(lib);
    const h = await harness();
    try {
      const registry = new ToolRegistry().register(currentDateTool);
      const streamed: string[] = [];
      const outcome = await within(
        runTurn({
          backend,
          transcript: new ConversationContext({ instructions: "be brief", window: 8192 }),
          prompt: "what day is it?",
          tools: registry.all(),
          registry,
          context: h.ctx,
          hooks: { onText: (t) => streamed.push(t) },
        }),
        "the turn",
      );
      assertEquals(outcome.rounds, 2);
      assertEquals(outcome.stopped, false);
      // The second round's words came word by word from the library's thread.
      assert(streamed.length >= 4, JSON.stringify(streamed));
      // say-result streamed the tool's own result: it crossed the ABI and came back.
      const result = h.events.find((e) => e.kind === "tool.result");
      assert(result, "no tool.result audited");
      assert(/^It is\s*\d{4}-\d\d-\d\dT/.test(outcome.reply), outcome.reply);
      assertEquals(h.events.map((e) => e.kind), [
        "prompt",
        "response",
        "tool.call",
        "tool.result",
        "response",
      ]);
      assert(outcome.usage.outputTokens > 0);
    } finally {
      backend.close();
      await h.remove();
    }
  },
});

Deno.test({
  name: "a follow-up prompt continues the same native session; other instructions open a new one",
  ignore: !linux,
  async fn() {
    const lib = await model(["say one", "end", "echo-prompt", "end"]);
    const backend = new SystemBackend(lib);
    try {
      const texts = async (messages: Parameters<SystemBackend["chat"]>[0]["messages"]) => {
        let text = "";
        for await (const e of backend.chat({ messages })) if (e.type === "text") text += e.text;
        return text;
      };
      const first = [{ role: "system" as const, content: "s" }, {
        role: "user" as const,
        content: "first",
      }];
      assertEquals(await texts(first), "one");
      const second = [...first, { role: "assistant" as const, content: "one" }, {
        role: "user" as const,
        content: "second question",
      }];
      // The script's second reply echoes the prompt it was sent: only the new message.
      assertEquals(await texts(second), "second question");
    } finally {
      backend.close();
    }
    const echo = await model(["echo-instructions", "end"]);
    const fresh = new SystemBackend(echo);
    try {
      let text = "";
      for await (
        const e of fresh.chat({
          messages: [
            { role: "system", content: "rules" },
            { role: "user", content: "a" },
            { role: "assistant", content: "b" },
            { role: "user", content: "c" },
          ],
        })
      ) if (e.type === "text") text += e.text;
      // A conversation the session did not see arrives as text in the instructions.
      assertStringIncludes(text, "rules");
      assertStringIncludes(text, "user: a");
      assertStringIncludes(text, "assistant: b");
    } finally {
      fresh.close();
    }
  },
});

Deno.test({
  name: "guided generation: the request's JSON Schema reaches the model with the prompt",
  ignore: !linux,
  async fn() {
    const lib = await model(["echo-schema", "end"]);
    const backend = new SystemBackend(lib);
    const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    try {
      let text = "";
      for await (
        const e of backend.chat({ messages: [{ role: "user", content: "where?" }], schema })
      ) if (e.type === "text") text += e.text;
      assertEquals(JSON.parse(text), schema);
    } finally {
      backend.close();
    }
  },
});

Deno.test({
  name: "cancel mid-stream: aborting the turn stops the model at its next words",
  ignore: !linux,
  async fn() {
    const words = Array.from({ length: 400 }, (_, i) => `w${i}`).join(" ");
    const lib = await model(["pause 20", `say ${words}`, "end"]);
    const backend = new SystemBackend(lib);
    const h = await harness();
    const controller = new AbortController();
    try {
      const streamed: string[] = [];
      const outcome = await within(
        runTurn({
          backend,
          transcript: new ConversationContext({ instructions: "", window: 8192 }),
          prompt: "talk",
          tools: [],
          registry: new ToolRegistry(),
          context: h.ctx,
          signal: controller.signal,
          hooks: {
            onText: (t) => {
              streamed.push(t);
              if (streamed.length === 3) controller.abort();
            },
          },
        }),
        "the cancelled turn",
      );
      assertEquals(outcome.stopped, true);
      assert(streamed.length < 400, `${streamed.length} words arrived`);
    } finally {
      backend.close();
      await h.remove();
    }
  },
});

Deno.test({
  name: "errors the framework ends a reply with become one sentence each",
  ignore: !linux,
  async fn() {
    const cases: [string, string][] = [
      ["fail 2 exceededContextWindowSize", "no longer fits the on-device model's window"],
      ["fail 6 Too many open files", "sudo killall modelmanagerd"],
      ["fail 3 unsafe content", "guardrails"],
    ];
    for (const [step, expected] of cases) {
      const lib = await model(["say partial", step]);
      const backend = new SystemBackend(lib);
      let error: unknown;
      try {
        for await (const _ of backend.chat({ messages: [{ role: "user", content: "x" }] })) {
          // drain
        }
      } catch (e) {
        error = e;
      } finally {
        backend.close();
      }
      assert(error instanceof ModelError, String(error));
      assertStringIncludes(error.message, expected);
      assertEquals(error.message.includes("\n"), false);
      assertEquals(/at \w+ \(/.test(error.message), false, "no stack in the sentence");
    }
  },
});

Deno.test({
  name: "closing a session while a call waits for its next event wakes the call",
  ignore: !linux,
  async fn() {
    const lib = await model(["call c9 current_date {}", "end"]);
    const session = NativeSession.open(lib, "", []);
    session.send("go");
    const call = await session.next();
    assertEquals(call.type, "tool_call");
    const waiting = session.next().then(() => "event", (e) => (e as Error).message);
    session.close();
    assertStringIncludes(await within(waiting, "the woken call"), "not found");
  },
});

Deno.test({
  name: "system is offered on macOS when the library says the model is available, and says why not",
  ignore: !linux,
  async fn() {
    const { libwisp } = await nativeLibraries();
    const lib = await model(["end"]);
    const here = systemBackendHere("darwin", () => lib);
    assert("backend" in here);
    assertEquals(await here.backend.contextWindow(), 8192);
    // The shipped Linux library says no, with its reason; no library at all leaves it to the caller.
    assertEquals(systemBackendHere("darwin", () => openLibwisp(libwisp)), {
      reason: "unavailable: no on-device model on Linux",
    });
    assertEquals(systemBackendHere("darwin", () => undefined), {});
    assertEquals(systemBackendHere("linux", () => lib), {});
  },
});
