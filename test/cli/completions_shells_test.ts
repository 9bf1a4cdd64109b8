/**
 * Completion in the real shells, as a person gets it: wisp on PATH through
 * the launcher `deno task install --prefix DIR` writes, the scripts put in
 * place by `wisp completions install SHELL` in a scratch HOME, then bash
 * (with bash-completion), zsh (compinit) and fish started in tmux, typed into
 * with Tab, and read from the screen.
 */
import { assertEquals, assertStringIncludes } from "../support/assert.ts";
import { join } from "node:path";
import { Terminal, tmuxAvailable } from "../support/tmux.ts";
import { PROJECT_ROOT, tempDir } from "../support/wisp.ts";

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** bash-completion's loader, where Debian and Homebrew put it. */
const BASH_COMPLETION = [
  "/usr/share/bash-completion/bash_completion",
  "/opt/homebrew/share/bash-completion/bash_completion",
  "/usr/local/share/bash-completion/bash_completion",
].find((path) => {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
});

function hasProgram(name: string): boolean {
  try {
    return new Deno.Command("sh", { args: ["-c", `command -v ${name}`], stdout: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

/** Deno's cache, shared so that a scratch HOME does not compile wisp afresh. */
function denoDir(): string | undefined {
  const out = new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" })
    .outputSync();
  try {
    return JSON.parse(new TextDecoder().decode(out.stdout)).denoDir;
  } catch {
    return undefined;
  }
}

interface Scratch {
  home: string;
  wispHome: string;
  env: Record<string, string>;
  pendingId: string;
}

/**
 * Remove the scratch home. A shell killed with its tmux server may still be
 * writing its history there (fish does, on SIGHUP), so a removal that meets
 * a folder filling up again is tried again for a while.
 */
async function removeAfterShells(path: string): Promise<void> {
  for (let attempt = 0;; attempt++) {
    try {
      await Deno.remove(path, { recursive: true });
      return;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      if (attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function run(cmd: string, args: string[], env: Record<string, string>, cwd: string) {
  const out = await new Deno.Command(cmd, {
    args,
    env,
    clearEnv: true,
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assertEquals(out.code, 0, `${cmd} ${args.join(" ")} failed:\n${text}`);
  return text;
}

/** A scratch HOME with wisp on its PATH, every shell's completions installed, one pending request. */
async function scratch(): Promise<Scratch> {
  const home = await tempDir("wisp-completions-home-");
  const wispHome = join(home, "wisp-home");
  const cache = denoDir();
  const env: Record<string, string> = {
    HOME: home,
    WISP_HOME: wispHome,
    PATH: `${join(home, "bin")}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
    TERM: "xterm-256color",
    ...(cache ? { DENO_DIR: cache } : {}),
  };
  await run(
    Deno.execPath(),
    [
      "run",
      "-R",
      "-W",
      "-E",
      join(PROJECT_ROOT, "scripts/install.ts"),
      "--prefix",
      join(home, "bin"),
    ],
    env,
    home,
  );
  for (const shell of ["bash", "zsh", "fish"]) {
    const said = await run(join(home, "bin", "wisp"), ["completions", "install", shell], env, home);
    assertStringIncludes(said, `wrote the ${shell} completions to ${home}/`);
  }
  // A request waiting in a wisp mcp server, as the server files it.
  const pendingId = "c0ffee42";
  Deno.mkdirSync(join(wispHome, "pending"), { recursive: true, mode: 0o700 });
  const now = Date.now();
  Deno.writeTextFileSync(
    join(wispHome, "pending", `${pendingId}.json`),
    JSON.stringify({
      version: 1,
      kind: "approval",
      id: pendingId,
      server: { pid: Deno.pid, session: "s1" },
      client: "test",
      thread: "t",
      command: "make deploy",
      level: "moderate",
      cwd: home,
      reasons: [],
      outsideSandbox: false,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + 3_600_000).toISOString(),
    }),
  );
  Deno.writeTextFileSync(join(home, ".bashrc"), `PS1='READY$ '\nsource ${BASH_COMPLETION}\n`);
  Deno.writeTextFileSync(
    join(home, ".zshrc"),
    "PROMPT='READY%% '\nfpath+=(~/.zsh/completions)\nautoload -U compinit; compinit\n",
  );
  Deno.mkdirSync(join(home, ".config", "fish"), { recursive: true });
  Deno.writeTextFileSync(
    join(home, ".config", "fish", "config.fish"),
    "function fish_prompt; echo -n 'READY> '; end\nset -g fish_greeting\n",
  );
  return { home, wispHome, env, pendingId };
}

const SHELL_ARGV: Record<string, (home: string) => string> = {
  bash: (home) => `bash --noprofile --rcfile ${quote(join(home, ".bashrc"))} -i`,
  zsh: () => "zsh -i",
  fish: () => "fish -i",
};

/** The line the prompt is on, once it reads exactly `want` after the prompt. */
async function promptLine(
  terminal: Terminal,
  session: string,
  want: RegExp,
  ms = 60_000,
): Promise<string> {
  const until = Date.now() + ms;
  let screen = "";
  while (Date.now() < until) {
    screen = await terminal.tmux("capture-pane", "-p", "-t", session);
    const lines = screen.split("\n").filter((l) => l.startsWith("READY"));
    const last = lines[lines.length - 1]?.replace(/^READY[$%>] ?/, "").trimEnd();
    if (last !== undefined && want.test(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the command line never read ${want}; the screen:\n${screen}`);
}

async function completeIn(shell: "bash" | "zsh" | "fish"): Promise<void> {
  const s = await scratch();
  const terminal = new Terminal();
  const session = shell;
  try {
    const envWords = Object.entries(s.env).map(([k, v]) => `${k}=${quote(v)}`).join(" ");
    await terminal.tmux(
      "new-session",
      "-d",
      "-s",
      session,
      "-x",
      "160",
      "-y",
      "50",
      "-c",
      s.home,
      `env -i ${envWords} ${SHELL_ARGV[shell](s.home)}`,
    );
    await terminal.waitFor(session, "READY");
    // A list of candidates: bash shows it on the second Tab, zsh and fish on the first.
    const listKeys = shell === "bash" ? ["Tab", "Tab"] : ["Tab"];
    const fresh = async () => {
      // fish's pager would take the keys; C-c cancels the line and closes it (no Escape: a
      // key typed right after one would read as Alt-key).
      if (shell === "fish") await terminal.keys(session, "C-c");
      await terminal.keys(session, "C-u", "C-l");
      await promptLine(terminal, session, /^$/);
    };

    await terminal.keys(session, "wisp con", "Tab");
    await promptLine(terminal, session, /^wisp config ?$/);

    await fresh();
    await terminal.keys(session, "wisp config set appr", "Tab");
    await promptLine(terminal, session, /^wisp config set approval\.$/);
    await terminal.keys(session, "thr", "Tab");
    await promptLine(terminal, session, /^wisp config set approval\.threshold ?$/);
    await terminal.keys(session, ...listKeys);
    const values = await terminal.waitFor(session, "dangerous");
    for (const level of ["safe", "moderate", "never"]) assertStringIncludes(values, level);

    await fresh();
    await terminal.keys(session, "wisp --tool ", ...listKeys);
    const tools = await terminal.waitFor(session, "run_command");
    for (const tool of ["read_file", "edit_file", "current_date"]) {
      assertStringIncludes(tools, tool);
    }

    await fresh();
    await terminal.keys(session, "wisp approvals approve ", "Tab");
    await promptLine(terminal, session, new RegExp(`^wisp approvals approve ${s.pendingId} ?$`));
  } finally {
    await terminal.close();
    await removeAfterShells(s.home);
  }
}

const noTmux = !tmuxAvailable();

Deno.test({
  name:
    "bash with bash-completion completes commands, settings, their values, tools and pending ids",
  // bash-completion is a package with no program to look for; CI and the test task install it.
  ignore: noTmux || !hasProgram("bash") || BASH_COMPLETION === undefined,
  fn: () => completeIn("bash"),
});

Deno.test({
  name: "zsh with compinit completes commands, settings, their values, tools and pending ids",
  ignore: noTmux || !hasProgram("zsh"),
  fn: () => completeIn("zsh"),
});

Deno.test({
  name: "fish completes commands, settings, their values, tools and pending ids",
  ignore: noTmux || !hasProgram("fish"),
  fn: () => completeIn("fish"),
});
