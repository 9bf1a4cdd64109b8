/**
 * Approval preparation (spec 004): before any call of a response has an
 * effect, every call's gate question is asked, in the calls' order. Which
 * calls ask is a property of each tool (`gatesBeforeEffect` in
 * src/tools/tool.ts: run_command, read_file, edit_file, custom tools,
 * process start, a search of a credential path), never a list kept here. Such
 * a tool judges its line through `ctx.gate.check` before it touches anything,
 * so preparation runs it only that far: a gate that records the decision and
 * then stops the tool with `Prepared`. When the call really runs, the same
 * line finds its decision in the memo and nobody is asked twice; a line that
 * changed meanwhile (a file moved) goes to the gate again. A call that
 * declares no question gets a refusing gate when it runs (ToolRegistry.call).
 */
import {
  type AnyTool,
  callGates,
  type GateVerdict,
  type ToolContext,
  type ToolGate,
} from "../tools/tool.ts";
import { normaliseArguments } from "../tools/registry.ts";

/** Thrown by the preparing gate to stop a tool right after its gate question. */
export class Prepared extends Error {
  constructor() {
    super("prepared");
    this.name = "Prepared";
  }
}

function memoKey(line: string, ctx: unknown): string {
  const outside = (ctx as { outsideSandbox?: unknown } | null)?.outsideSandbox === true;
  return `${outside ? "outside\0" : ""}${line}`;
}

/** A turn's memo of prepared decisions, in front of the session's gate. */
export class PreparedGate implements ToolGate {
  readonly #gate: ToolGate;
  /** Decisions per line, in the order they were prepared (a line asked twice is answered twice). */
  readonly #memo = new Map<string, GateVerdict[]>();

  constructor(gate: ToolGate) {
    this.#gate = gate;
  }

  /** The gate a call runs with: a prepared line is answered from the memo (once), any other asks. */
  check(line: string, ctx: unknown): Promise<GateVerdict> {
    const key = memoKey(line, ctx);
    const queue = this.#memo.get(key);
    const prepared = queue?.shift();
    if (queue && queue.length === 0) this.#memo.delete(key);
    if (prepared) return Promise.resolve(prepared);
    return this.#gate.check(line, ctx);
  }

  /** A gate that asks, keeps the decision, and stops the tool there. */
  preparing(): ToolGate {
    return {
      check: async (line, ctx) => {
        const verdict = await this.#gate.check(line, ctx);
        const key = memoKey(line, ctx);
        const queue = this.#memo.get(key) ?? [];
        queue.push(verdict);
        this.#memo.set(key, queue);
        throw new Prepared();
      },
    };
  }

  /** How many decisions wait for their calls. */
  get waiting(): number {
    let n = 0;
    for (const queue of this.#memo.values()) n += queue.length;
    return n;
  }
}

/**
 * Ask the gate for one call, without its effect. Arguments are validated by
 * the tool's schema first; a call with bad arguments has nothing to prepare
 * (it will fail as it runs).
 */
export async function prepareCall(
  tool: AnyTool | undefined,
  args: unknown,
  ctx: ToolContext,
  gate: PreparedGate,
): Promise<void> {
  if (!tool) return;
  const parsed = tool.schema.safeParse(normaliseArguments(args));
  if (!parsed.success || !callGates(tool, parsed.data, ctx)) return;
  try {
    await tool.run(parsed.data, { ...ctx, gate: gate.preparing() });
  } catch (error) {
    if (!(error instanceof Prepared)) {
      // The tool failed before its question; it fails the same way when it runs.
      return;
    }
  }
}
