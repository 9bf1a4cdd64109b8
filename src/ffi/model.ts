/**
 * The on-device model through libwisp: whether it is there (and why not),
 * its window, token counts, and sessions. A session's reply is generated on
 * a thread inside the library; `NativeSession.events()` takes each event as
 * it comes (a non-blocking call that waits on Deno's side thread), so deltas
 * reach wisp while the model still writes.
 */
import { cString, type Libwisp, LibwispError, readJson } from "./libwisp.ts";
import { type AbiError, abiErrorName } from "./symbols.ts";

/** Whether the model can be used here, and if not why (a sentence from the library). */
export interface Availability {
  available: boolean;
  reason?: string;
}

/** Whether the on-device model is available. */
export function modelAvailability(lib: Libwisp): Availability {
  return readJson(
    "the model's availability",
    (out, cap) => lib.symbols.wisp_model_availability(out, cap),
    4096,
  );
}

/** The model's window in tokens. */
export function modelWindow(lib: Libwisp): number {
  const window = lib.symbols.wisp_model_window();
  if (window < 0) throw new LibwispError(abiErrorName(-window), "the model's window is unknown");
  return window;
}

/** How many tokens a text is to the model. */
export function tokenCount(lib: Libwisp, text: string): number {
  const n = lib.symbols.wisp_model_token_count(cString(text));
  if (n < 0) throw new LibwispError(abiErrorName(-n), "the model cannot count tokens");
  return n;
}

/** A tool as the session offers it to the model. */
export interface NativeTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** One event of a reply, as the header lists them. */
export type NativeEvent =
  | { type: "text"; text: string }
  | { type: "tool_call"; id: string; name: string; arguments: Record<string, unknown> }
  | { type: "done"; inputTokens: number; outputTokens: number }
  | { type: "error"; code: number; message: string };

/** A failure a reply ended with: its ABI error name and the framework's message. */
export class ReplyError extends Error {
  constructor(readonly code: AbiError, readonly detail: string) {
    super(detail);
    this.name = "ReplyError";
  }
}

/** A session with the on-device model: its instructions and tools are fixed when it opens. */
export class NativeSession {
  #closed = false;

  private constructor(readonly lib: Libwisp, readonly id: bigint) {}

  /** Open a session; throws LibwispError (e.g. "unavailable") when it cannot. */
  static open(lib: Libwisp, instructions: string, tools: NativeTool[]): NativeSession {
    const id = Number(
      lib.symbols.wisp_session_open(cString(instructions), cString(JSON.stringify(tools))),
    );
    if (id <= 0) {
      const name = abiErrorName(-id);
      throw new LibwispError(name, `the on-device model's session did not open (${name})`);
    }
    return new NativeSession(lib, BigInt(id));
  }

  /** Start a reply to a prompt, held to a JSON schema when one is given. */
  send(prompt: string, schema?: Record<string, unknown>): void {
    const rc = this.lib.symbols.wisp_session_send(
      this.id,
      cString(prompt),
      cString(schema ? JSON.stringify(schema) : ""),
    );
    if (rc !== 0) throw new LibwispError(abiErrorName(rc), "the prompt was not taken");
  }

  /** The next event of the reply; waits for it off the main thread. */
  async next(): Promise<NativeEvent> {
    let size = 16 * 1024;
    for (;;) {
      const out = new Uint8Array(size);
      const length = Number(
        await this.lib.symbols.wisp_session_next_event(this.id, out, BigInt(size)),
      );
      if (length < 0) {
        const name = abiErrorName(-length);
        throw new LibwispError(
          name,
          `the reply's next event could not be read (${name.replace("-", " ")})`,
        );
      }
      if (length <= size) {
        return JSON.parse(new TextDecoder().decode(out.subarray(0, length))) as NativeEvent;
      }
      size = length; // the event stays queued until a buffer holds it
    }
  }

  /** Answer a tool call the model waits on. */
  toolResult(callId: string, result: string): void {
    const rc = this.lib.symbols.wisp_session_tool_result(this.id, cString(callId), cString(result));
    if (rc !== 0) throw new LibwispError(abiErrorName(rc), `no tool call ${callId} is waiting`);
  }

  /** Stop the reply in progress; it ends with a "cancelled" error event. */
  cancel(): void {
    this.lib.symbols.wisp_session_cancel(this.id);
  }

  /** Stop and free the session; safe to call twice. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.lib.symbols.wisp_session_close(this.id);
  }
}
