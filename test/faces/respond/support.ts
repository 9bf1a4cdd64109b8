/**
 * Set-up for respond's end-to-end tests: a scratch WISP_HOME whose
 * config.json points `model` at a fake server, a scratch project folder to
 * launch wisp in, and the audit events the run wrote.
 */
import { join } from "node:path";
import { runWisp, type WispRun } from "../../support/wisp.ts";

export interface Scratch {
  home: string;
  project: string;
  /** Run wisp in the project with this home. */
  wisp(
    args: string[],
    options?: { stdin?: string; env?: Record<string, string> },
  ): Promise<WispRun>;
  /** The audit events written so far. */
  events(): Record<string, unknown>[];
  remove(): Promise<void>;
}

export async function scratch(config: Record<string, unknown>): Promise<Scratch> {
  const base = await Deno.makeTempDir({ prefix: "wisp-respond-" });
  const home = join(base, "home");
  const project = join(base, "project");
  await Deno.mkdir(home, { mode: 0o700 });
  await Deno.mkdir(project);
  await Deno.writeTextFile(join(home, "config.json"), JSON.stringify(config, null, 2));
  return {
    home,
    project,
    wisp: (args, options = {}) => runWisp(args, { home, cwd: project, ...options }),
    events: () => {
      try {
        return Deno.readTextFileSync(join(home, "logs", "audit.jsonl")).trim().split("\n").filter(
          Boolean,
        )
          .map((line) => JSON.parse(line));
      } catch {
        return [];
      }
    },
    remove: () => Deno.remove(base, { recursive: true }),
  };
}

export function ollamaConfig(url: string, model = "granite4.1:8b"): Record<string, unknown> {
  return { model: `ollama:${model}`, ollama: { host: url } };
}

/** The tool messages the model was sent back, from a recorded /api/chat body. */
export function toolMessages(
  body: Record<string, unknown>,
): { content: string; tool_name?: string }[] {
  const messages = (body.messages ?? []) as { role: string; content: string; tool_name?: string }[];
  return messages.filter((m) => m.role === "tool");
}
