/**
 * A bare tool context for the turn loop's tests: the real audit writer
 * (disabled on disk, its events collected), default config, scratch folders,
 * and test tools that record when they start and end.
 */
import { z } from "zod";
import { homePaths } from "../../src/config/home.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { AuditLog } from "../../src/audit/writer.ts";
import type { AuditEvent } from "../../src/audit/catalogue.ts";
import type { Tool, ToolContext, ToolGate } from "../../src/tools/tool.ts";

export interface Harness {
  ctx: ToolContext;
  events: AuditEvent[];
  log: string[];
  dir: string;
  remove(): Promise<void>;
}

export async function harness(gate?: ToolGate): Promise<Harness> {
  const dir = await Deno.makeTempDir({ prefix: "wisp-agent-" });
  const audit = new AuditLog({
    path: `${dir}/home/logs/audit.jsonl`,
    enabled: false,
    maxBytes: 1 << 20,
    keep: 1,
  });
  const events: AuditEvent[] = [];
  audit.onEvent((e) => events.push(e));
  const ctx: ToolContext = {
    cwd: dir,
    root: dir,
    config: defaultConfig(),
    home: homePaths(`${dir}/home`),
    audit,
    budgetBytes: 8192,
    session: audit.session,
    ...(gate ? { gate } : {}),
  };
  return { ctx, events, log: [], dir, remove: () => Deno.remove(dir, { recursive: true }) };
}

const delay = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });

/** A tool that logs `start name:arg` and `end name:arg` around a pause of `ms`. */
export function slowTool(
  name: string,
  log: string[],
  options: { parallelSafe: boolean; ms?: number; gated?: boolean },
): Tool<{ arg: string }> {
  return {
    name,
    description: `test tool ${name}`,
    schema: z.object({ arg: z.string() }),
    parallelSafe: options.parallelSafe,
    limits: () => [],
    examplePrompt: "",
    gatesBeforeEffect: options.gated === true,
    async run(args, ctx) {
      if (options.gated) {
        const verdict = await ctx.gate!.check(`${name} ${args.arg}`, { origin: "model" });
        if (!verdict.allowed) {
          return { text: `error: command not approved: ${verdict.refusal}`, ok: false };
        }
      }
      log.push(`start ${name}:${args.arg}`);
      await delay(options.ms ?? 30, ctx.signal);
      log.push(`end ${name}:${args.arg}`);
      return { text: `${name} did ${args.arg}`, ok: true };
    },
  };
}
