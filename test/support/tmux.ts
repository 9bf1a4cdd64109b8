/**
 * wisp at a real terminal: tmux on a server of the test's own (its own
 * socket, so another test killing its tmux server cannot take this one's
 * sessions with it), typed into with send-keys and read with capture-pane.
 */
import { PROJECT_ROOT, wispCommand } from "./wisp.ts";

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * Remove a named tmux server's socket file: `kill-server` leaves it behind,
 * and every socket left in the tmux folder is one more path wisp's sandbox
 * hides from each command it confines (so they slow every later run).
 */
export async function removeTmuxSocket(name: string, uid = Deno.uid()): Promise<void> {
  let base = "/tmp";
  try {
    base = Deno.env.get("TMUX_TMPDIR") || "/tmp";
  } catch { /* no permission to read it: tmux's default */ }
  await Deno.remove(`${base}/tmux-${uid}/${name}`).catch(() => {});
}

/** Whether tmux can run here (a test of a terminal is ignored without it). */
export function tmuxAvailable(): boolean {
  try {
    return new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
}

/** A tmux server of one's own. */
export class Terminal {
  readonly socket = `wisp-test-${crypto.randomUUID().slice(0, 8)}`;

  /** Run tmux on this server; its stdout. */
  async tmux(...args: string[]): Promise<string> {
    const out = await new Deno.Command("tmux", {
      args: ["-L", this.socket, ...args],
      stdout: "piped",
      stderr: "piped",
      stdin: "null",
    }).output();
    return new TextDecoder().decode(out.stdout);
  }

  /**
   * Start `wisp ARGS` in a new session; its last line is EXIT=<status> when it is done.
   * `stdinFrom`, a shell command, is piped into wisp's standard input (stderr stays the terminal).
   * `cwd` is the folder it starts in (the project root by default).
   */
  async wisp(
    session: string,
    home: string,
    args: string[],
    stdinFrom?: string,
    cwd = PROJECT_ROOT,
    size: { width?: number; height?: number; env?: Record<string, string> } = {},
  ): Promise<void> {
    const extra = Object.entries(size.env ?? {}).map(([k, v]) => ` ${k}=${quote(v)}`).join("");
    const env = `env -i PATH=${quote(Deno.env.get("PATH") ?? "/usr/bin:/bin")} HOME=${
      quote(Deno.env.get("HOME") ?? "/root")
    } TERM=xterm-256color NO_COLOR=1 WISP_HOME=${quote(home)}${extra}`;
    // The scratch home goes on wisp's own side of the pipe: an assignment before a pipeline
    // reaches only its first command.
    const cmd = (stdinFrom ? `${stdinFrom} | ` : "") +
      `${env} ${[...wispCommand(), ...args].map(quote).join(" ")}`;
    await this.tmux(
      "new-session",
      "-d",
      "-s",
      session,
      "-x",
      String(size.width ?? 140),
      "-y",
      String(size.height ?? 30),
      "-c",
      cwd,
      `${cmd}; echo EXIT=$?; sleep 60`,
    );
  }

  /** Type keys into a session. */
  async keys(session: string, ...keys: string[]): Promise<void> {
    for (const key of keys) await this.tmux("send-keys", "-t", session, key);
  }

  /** The screen once it shows `text`, polling with a generous deadline. */
  async waitFor(session: string, text: string, ms = 60_000): Promise<string> {
    const until = Date.now() + ms;
    let screen = "";
    while (Date.now() < until) {
      screen = await this.tmux("capture-pane", "-p", "-t", session);
      if (screen.includes(text)) return screen;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${JSON.stringify(text)}; the screen:\n${screen}`);
  }

  /** Stop this server and every session on it. */
  async close(): Promise<void> {
    await this.tmux("kill-server");
    await removeTmuxSocket(this.socket);
  }
}
