/**
 * A real terminal that does not descend from the test: a tmux server of its
 * own (it detaches from the process that starts it, as the person's terminal
 * is no child of the MCP client). A line typed there runs in a pane with a
 * controlling terminal; what it printed is read back from the pane.
 */
import { join } from "node:path";
import { wispCommand } from "../../support/wisp.ts";
import { removeTmuxSocket } from "../../support/tmux.ts";

export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_\/.,:=+@%-]+$/.test(arg) ? arg : "'" + arg.replaceAll("'", "'\\''") + "'";
}

function tmux(socket: string, args: string[]): Promise<Deno.CommandOutput> {
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: Deno.env.get("HOME") ?? "/root",
    TERM: "xterm",
  };
  return new Deno.Command("tmux", {
    args: ["-L", socket, "-f", "/dev/null", ...args],
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
}

/** Run a shell line in a fresh tmux pane; resolves with its exit code and what the pane showed. */
export async function inTmux(
  line: string,
  env: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<{ code: number; output: string }> {
  const dir = await Deno.makeTempDir({ prefix: "wisp-tmux-" });
  const socket = `wisp-test-${crypto.randomUUID().slice(0, 8)}`;
  const codeFile = join(dir, "code");
  const exports = Object.entries({ NO_COLOR: "1", TERM: "dumb", ...env })
    .map(([k, v]) => `${k}=${shellQuote(v)}`).join(" ");
  const script = `export ${exports}; ${line}; echo $? > ${shellQuote(codeFile)}; sleep 600`;
  try {
    await startPane(socket, script);
    const deadline = Date.now() + timeoutMs;
    let code: string | undefined;
    while (code === undefined) {
      try {
        const text = Deno.readTextFileSync(codeFile).trim();
        if (text !== "") code = text;
      } catch { /* not yet */ }
      if (code === undefined) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for: ${line}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const captured = await tmux(socket, ["capture-pane", "-p", "-J", "-S", "-"]);
    return {
      code: Number(code),
      output: new TextDecoder().decode(captured.stdout).replace(/\n+$/, "\n"),
    };
  } finally {
    await tmux(socket, ["kill-server"]);
    await removeTmuxSocket(socket);
    await Deno.remove(dir, { recursive: true });
  }
}

/** Run wisp (from source, under its permission set) in a fresh tmux pane, as the person would. */
export function wispInTmux(
  home: string,
  args: string[],
): Promise<{ code: number; output: string }> {
  return inTmux([...wispCommand(), ...args].map(shellQuote).join(" "), { WISP_HOME: home });
}

/** A pane left running: what it shows now, and how to end it. */
export interface OpenPane {
  screen(): Promise<string>;
  close(): Promise<void>;
  /** Type into the pane (tmux send-keys: a literal text, or key names such as Enter). */
  keys(...keys: string[]): Promise<void>;
}

/** Start a detached 250×50 session on `socket` running `script` under sh; throws tmux's complaint. */
async function startPane(socket: string, script: string): Promise<void> {
  const started = await tmux(socket, [
    "new-session",
    "-d",
    "-x",
    "250",
    "-y",
    "50",
    "sh",
    "-c",
    script,
  ]);
  if (!started.success) throw new Error(new TextDecoder().decode(started.stderr));
}

/** Start wisp in a tmux pane and leave it running (a watching view), as the person would. */
export async function openWispInTmux(home: string, args: string[]): Promise<OpenPane> {
  const socket = `wisp-test-${crypto.randomUUID().slice(0, 8)}`;
  const line = [...wispCommand(), ...args].map(shellQuote).join(" ");
  const script = `export NO_COLOR=1 TERM=dumb WISP_HOME=${shellQuote(home)}; ${line}; sleep 600`;
  await startPane(socket, script);
  return {
    screen: async () =>
      new TextDecoder().decode(
        (await tmux(socket, ["capture-pane", "-p", "-J", "-S", "-"])).stdout,
      ),
    close: async () => {
      await tmux(socket, ["kill-server"]);
      await removeTmuxSocket(socket);
    },
    keys: async (...keys: string[]) => {
      const sent = await tmux(socket, ["send-keys", ...keys]);
      if (!sent.success) throw new Error(new TextDecoder().decode(sent.stderr));
    },
  };
}
