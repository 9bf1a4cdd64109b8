/**
 * Shared set-up for the runner's tests: a scratch project (the launch
 * directory), a scratch wisp home, a folder outside the writable set, and a
 * request with the defaults filled in. Nothing here fakes the runner: every
 * command runs for real under the real launcher.
 */
import { join } from "node:path";
import { type HomePaths, homePaths } from "../../src/config/home.ts";
import { type Config, configSchema } from "../../src/config/schema.ts";
import type { AuditEvent } from "../../src/audit/catalogue.ts";
import type { AuditSink } from "../../src/audit/writer.ts";
import type { RunRequest } from "../../src/exec/runner.ts";
import { commandResultRenderer } from "../../src/tools/command_result.ts";

export interface Scratch {
  project: string;
  home: HomePaths;
  /** A folder outside every writable root (under $HOME, which is not one). */
  outside: string;
  events: AuditEvent[];
  audit: AuditSink;
  cleanup(): Promise<void>;
}

export async function scratch(options: { homeInside?: string } = {}): Promise<Scratch> {
  const project = await Deno.realPath(await Deno.makeTempDir({ prefix: "wisp-exec-project-" }));
  const homeRoot = options.homeInside !== undefined
    ? join(project, options.homeInside)
    : await Deno.realPath(await Deno.makeTempDir({ prefix: "wisp-exec-home-" }));
  await Deno.mkdir(homeRoot, { recursive: true });
  const userHome = Deno.env.get("HOME") ?? "/";
  const outside = await Deno.realPath(
    await Deno.makeTempDir({ dir: userHome, prefix: ".wisp-exec-outside-" }),
  );
  const events: AuditEvent[] = [];
  let seq = 0;
  const audit: AuditSink = {
    session: "test" + Math.random().toString(16).slice(2, 8),
    record(kind, fields) {
      const event = {
        ts: new Date().toISOString(),
        session: this.session,
        seq: ++seq,
        id: String(seq),
        kind,
        version: "test",
        ...(fields as Record<string, unknown>),
      };
      events.push(event);
      return event;
    },
  };
  return {
    project,
    home: homePaths(homeRoot),
    outside,
    events,
    audit,
    async cleanup() {
      for (const dir of [project, outside, homeRoot]) {
        await Deno.remove(dir, { recursive: true }).catch(() => {});
      }
    },
  };
}

export function config(overrides: Record<string, unknown> = {}): Config {
  return configSchema.parse(overrides);
}

export function request(s: Scratch, command: string, extra: Partial<RunRequest> = {}): RunRequest {
  return {
    command,
    cwd: s.project,
    root: s.project,
    origin: "model",
    budgetBytes: 16 * 1024,
    config: config(),
    home: s.home,
    audit: s.audit,
    // The run_command rendering, so a test reads `rendered` as the model would.
    render: commandResultRenderer,
    ...extra,
  };
}

export function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

export function stdoutText(r: { stdout: { head: Uint8Array; complete: boolean } }): string {
  return new TextDecoder().decode(r.stdout.head);
}

export function stderrText(r: { stderr: { head: Uint8Array } }): string {
  return new TextDecoder().decode(r.stderr.head);
}

/** Host processes whose command line contains `marker` (other than this one). */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const cmdline = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).replaceAll("\0", " ");
      if (cmdline.includes(marker) && Number(entry.name) !== Deno.pid) {
        found.push(Number(entry.name));
      }
    } catch { /* it ended meanwhile */ }
  }
  return found;
}

/** Host processes whose whole command line is exactly `line` (arguments joined by spaces). */
export function processesRunning(line: string): number[] {
  const found: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const cmdline = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).replaceAll("\0", " ")
        .trim();
      if (cmdline === line) found.push(Number(entry.name));
    } catch { /* it ended meanwhile */ }
  }
  return found;
}
