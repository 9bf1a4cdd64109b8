/**
 * For the benches: the chat engine as `wisp chat --json` runs it, with the
 * scripted backend and its lines only encoded, and a `send` that waits for a
 * line to be handled the way a person's next line would come.
 */
import type { Config } from "../src/config/schema.ts";
import type { HomePaths } from "../src/config/home.ts";
import { ChatEngine } from "../src/faces/chat/engine.ts";
import { encodeOutLine } from "../src/faces/chat/protocol.ts";
import type { ScriptedBackend } from "../src/models/scripted.ts";

/** A started engine and a way to send it a line and wait until it is handled. */
export interface JsonEngine {
  engine: ChatEngine;
  send(text: string): Promise<void>;
}

/** Start the engine over `backend` in `paths`, rooted at `root`. */
export async function startJsonEngine(
  backend: ScriptedBackend,
  options: { config: Config; paths: HomePaths; root: string },
): Promise<JsonEngine> {
  const engine = new ChatEngine({
    config: options.config,
    paths: options.paths,
    root: options.root,
    yes: false,
    unsafe: false,
    face: "chat-json",
    approvals: "protocol",
    inputIsTerminal: false,
    noteWaiting: false,
    version: "bench",
    emit: (line) => void encodeOutLine(line),
    backend: () => Promise.resolve(backend),
    runnableModels: () => Promise.resolve([backend.name]),
    configView: () => ({}),
  });
  await engine.start();
  return {
    engine,
    send: async (text) => {
      engine.handle({ type: "message", text });
      await engine.idle();
      // The test double keeps every request it was sent (each with the whole conversation):
      // that log is the bench's, not the engine's, so it is emptied.
      backend.requests.length = 0;
      // A person's next line arrives from outside, after the event loop has turned.
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
  };
}
