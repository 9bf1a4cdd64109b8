/**
 * A tool context over real folders: a scratch launch directory, a scratch
 * wisp home, the real audit writer (its events collected in memory), and a
 * gate that records each line it is asked about and answers as told.
 */
import { join } from "node:path";
import { homePaths } from "../../src/config/home.ts";
import { type Config, configSchema } from "../../src/config/schema.ts";
import { AuditLog } from "../../src/audit/writer.ts";
import type { AuditEvent } from "../../src/audit/catalogue.ts";
import type { ToolContext } from "../../src/tools/tool.ts";
import { builtinRegistry } from "../../src/tools/builtins.ts";

export interface RecordingGate {
  lines: string[];
  contexts: unknown[];
  /** Refuse lines matching this. */
  refuse?: RegExp;
  check(line: string, ctx: unknown): Promise<{ allowed: boolean; refusal?: string }>;
}

export function recordingGate(refuse?: RegExp): RecordingGate {
  const gate: RecordingGate = {
    lines: [],
    contexts: [],
    refuse,
    check(line, ctx) {
      gate.lines.push(line);
      gate.contexts.push(ctx);
      if (gate.refuse?.test(line)) {
        return Promise.resolve({ allowed: false, refusal: "the person said no" });
      }
      return Promise.resolve({ allowed: true });
    },
  };
  return gate;
}

export interface Scratch {
  /** Launch directory (canonical). */
  root: string;
  /** wisp's home (canonical). */
  home: string;
  /** A folder outside every writable root? No: /tmp is a root; this one is under the launch dir's parent. */
  base: string;
  events: AuditEvent[];
  gate: RecordingGate;
  ctx: ToolContext;
  cleanup(): Promise<void>;
}

export async function scratch(
  options: { config?: Record<string, unknown>; budgetBytes?: number; writableRoots?: string[] } =
    {},
): Promise<Scratch> {
  const base = Deno.realPathSync(await Deno.makeTempDir({ prefix: "wisp-tools-" }));
  const root = join(base, "project");
  const home = join(base, "home", ".wisp");
  await Deno.mkdir(root, { recursive: true });
  await Deno.mkdir(home, { recursive: true });
  const config: Config = configSchema.parse(options.config ?? {});
  const audit = new AuditLog({
    path: join(home, "logs", "audit.jsonl"),
    enabled: true,
    maxBytes: 1 << 20,
    keep: 1,
  });
  const events: AuditEvent[] = [];
  audit.onEvent((e) => events.push(e));
  const gate = recordingGate();
  const ctx: ToolContext = {
    cwd: root,
    root,
    config,
    home: homePaths(home),
    audit,
    budgetBytes: options.budgetBytes ?? 16 * 1024,
    session: audit.session,
    gate,
    // By default only the launch directory is writable, so tests can name a
    // folder outside it (the scratch base) without relying on /tmp's place.
    writableRoots: options.writableRoots ?? [root],
  };
  return {
    root,
    home,
    base,
    events,
    gate,
    ctx,
    cleanup: async () => {
      audit.close();
      await Deno.remove(base, { recursive: true });
    },
  };
}

export const registry = builtinRegistry();

/** Call a tool as a model would: by name, with JSON arguments. */
export function callTool(s: Scratch, name: string, args: unknown) {
  return registry.call(name, args, s.ctx);
}

export function read(path: string): string {
  return Deno.readTextFileSync(path);
}
