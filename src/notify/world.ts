/**
 * The real world a Notifier posts into: this process's environment and clock,
 * the terminal on stderr when there is one, and fixed programs (osascript,
 * notify-send) started through the sandbox launcher with its open profile, so
 * the permission fence still lets wisp start nothing but the launcher.
 */
import { Notifier, type NotifierSettings, type NotifierWorld } from "./notifier.ts";
import { hostOs } from "../platform/os.ts";
import { recentNotificationTimes } from "./recent.ts";
import { currentPlatform, type LaunchSpec } from "../platform/index.ts";
import { runLaunched } from "../platform/host_view.ts";
import { whichProgram } from "../platform/which.ts";

/** Start a fixed program (argv, never a shell line) through the launcher, allow-all. */
async function runFixedThroughLauncher(argv: string[], timeoutMs = 5000): Promise<number> {
  const spec: LaunchSpec = {
    mode: "open",
    writable: { roots: [], home: "/", homeInsideRoot: false, missing: [] },
    allowNetwork: true,
    cwd: "/",
    inner: argv,
  };
  return (await runLaunched(currentPlatform().launch(spec), timeoutMs)).code;
}

export interface WorldOptions {
  /** Under wisp mcp the client owns the terminal: no terminal route. */
  terminal: boolean;
  host?: NotifierWorld["host"];
}

export function realWorld(options: WorldOptions): NotifierWorld {
  const encoder = new TextEncoder();
  return {
    os: hostOs(),
    env: (name) => Deno.env.get(name),
    now: () => Date.now(),
    host: options.host,
    terminal: options.terminal && Deno.stderr.isTerminal()
      ? (sequence) => {
        try {
          Deno.stderr.writeSync(encoder.encode(sequence));
          return true;
        } catch {
          return false;
        }
      }
      : undefined,
    runFixed: (argv) => runFixedThroughLauncher(argv),
    hasProgram: (name) => whichProgram(name) !== undefined,
  };
}

/**
 * The one notifier a session posts through: the config's settings, the
 * notifications posted this minute (read from the audit log, so the limit
 * also counts other processes), and the real world as the face shapes it.
 */
export function openNotifier(
  settings: NotifierSettings,
  auditLog: string,
  options: WorldOptions,
): Notifier {
  return new Notifier(settings, realWorld(options), recentNotificationTimes(auditLog, Date.now()));
}
