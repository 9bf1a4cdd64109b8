/**
 * Running the condensing tools that only read and compute off the caller's
 * thread, so that the MCP server keeps answering (ping, other calls, a
 * cancellation) while one of them works through a 16 MiB document — parsing
 * and merging that on the server's own thread held every other message for
 * seconds. One worker (tool_worker.ts), started at the first such call and
 * kept; calls queue on it in order. A call whose signal aborts ends the
 * worker at once (the work is pure, nothing is left half-done) and the next
 * call starts a new one.
 *
 * Only arguments, a working directory and the tool's output cross between
 * the threads; the worker reads files itself, bounded as the tools read them.
 */
import type { ToolOutput } from "./tools.ts";
import { ToolInputError } from "../util/tool_input.ts";
import { WispError } from "../util/errors.ts";

/** The tools the worker runs. */
export type OffloadedTool =
  | "json_shape"
  | "summarise_diff"
  | "dependency_audit"
  | "condense_log"
  | "hot_paths";

/** One call, to the worker. */
export interface ThreadRequest {
  id: number;
  tool: OffloadedTool;
  args: Record<string, unknown>;
  cwd: string;
}

/** One call's outcome, from the worker. */
export type ThreadReply =
  | { id: number; output: ToolOutput }
  | { id: number; inputError: string }
  | { id: number; wispError: string }
  | { id: number; error: { name: string; message: string } };

interface Waiting {
  resolve(output: ToolOutput): void;
  reject(error: Error): void;
}

/** The worker and the calls waiting on it. */
export class ToolThread {
  #worker: Worker | undefined;
  readonly #waiting = new Map<number, Waiting>();
  #nextId = 0;

  #start(): Worker {
    const worker = new Worker(new URL("./tool_worker.ts", import.meta.url).href, {
      type: "module",
    });
    worker.onmessage = (event: MessageEvent<ThreadReply>) => {
      const reply = event.data;
      const waiting = this.#waiting.get(reply.id);
      if (!waiting) return;
      this.#waiting.delete(reply.id);
      if ("output" in reply) waiting.resolve(reply.output);
      else if ("inputError" in reply) waiting.reject(new ToolInputError(reply.inputError));
      else if ("wispError" in reply) waiting.reject(new WispError(reply.wispError));
      else {
        const error = new Error(reply.error.message);
        error.name = reply.error.name;
        waiting.reject(error);
      }
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.#end(new Error(`the condensing thread failed: ${event.message}`));
    };
    return worker;
  }

  /** End the worker; every call still waiting on it fails with `why`. */
  #end(why: Error): void {
    this.#worker?.terminate();
    this.#worker = undefined;
    for (const waiting of this.#waiting.values()) waiting.reject(why);
    this.#waiting.clear();
  }

  /** Run `tool` on the worker; an abort of `signal` ends it and rejects with the signal's reason. */
  run(
    tool: OffloadedTool,
    args: Record<string, unknown>,
    cwd: string,
    signal?: AbortSignal,
  ): Promise<ToolOutput> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.#worker ??= this.#start();
    const id = this.#nextId++;
    return new Promise<ToolOutput>((resolve, reject) => {
      const onAbort = () =>
        this.#end(signal!.reason instanceof Error ? signal!.reason : new Error("cancelled"));
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.set(id, {
        resolve: (output) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(output);
        },
        reject: (error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      });
      this.#worker!.postMessage({ id, tool, args, cwd } satisfies ThreadRequest);
    });
  }

  /** End the worker (the server is closing). */
  close(): void {
    this.#end(new Error("the server is closing"));
  }
}
