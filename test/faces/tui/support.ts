/**
 * wisp-tui in a real terminal: tmux at a chosen size, typed into with
 * send-keys and read with capture-pane. The screen is read as a person sees
 * it: `visible()` is what is on the terminal now, `history()` adds the
 * scrollback. With NO_COLOR (the tests' default) the band shows a rule above
 * the input; these helpers find the band by it.
 */
import { Terminal } from "../../support/tmux.ts";
import { type FakeOllama, startFakeOllama } from "../../support/fake_ollama.ts";
import { ollamaConfig, type Scratch, scratch } from "../respond/support.ts";

/** How wisp-tui is started: the terminal's size, extra environment, chat's arguments. */
export interface StartOptions {
  width?: number;
  height?: number;
  env?: Record<string, string>;
  args?: string[];
}

/** A wisp-tui session in its own tmux server. */
export class TuiScreen {
  readonly terminal = new Terminal();
  readonly session = "tui";
  #home: string | undefined;

  /** Start `wisp chat ARGS` (wisp-tui, as at any terminal) in `cwd`. */
  async start(
    home: string,
    cwd: string,
    options: StartOptions = {},
  ): Promise<void> {
    this.#home = home;
    await this.terminal.wisp(
      this.session,
      home,
      ["chat", ...(options.args ?? [])],
      undefined,
      cwd,
      {
        width: options.width ?? 100,
        height: options.height ?? 30,
        ...(options.env ? { env: options.env } : {}),
      },
    );
  }

  /** What the terminal shows now. */
  visible(): Promise<string> {
    return this.terminal.tmux("capture-pane", "-p", "-t", this.session);
  }

  /** The scrollback and the screen. */
  history(): Promise<string> {
    return this.terminal.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", this.session);
  }

  /** Type keys (tmux key names: Enter, Up, C-c, BSpace, Escape, …). */
  keys(...keys: string[]): Promise<void> {
    return this.terminal.keys(this.session, ...keys);
  }

  /** Type text literally (no key names). */
  async type(text: string): Promise<void> {
    await this.terminal.tmux("send-keys", "-t", this.session, "-l", text);
  }

  /** The screen once `test` holds for it, polling with a generous deadline. */
  async until(
    what: string,
    test: (screen: string) => boolean,
    options: { history?: boolean; ms?: number } = {},
  ): Promise<string> {
    const until = Date.now() + (options.ms ?? 60_000);
    let screen = "";
    while (Date.now() < until) {
      screen = options.history ? await this.history() : await this.visible();
      if (test(screen)) return screen;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}; the screen:\n${screen}`);
  }

  /** The screen once it shows `text`. */
  waitFor(text: string, options: { history?: boolean; ms?: number } = {}): Promise<string> {
    return this.until(JSON.stringify(text), (s) => s.includes(text), options);
  }

  async resize(width: number, height: number): Promise<void> {
    await this.terminal.tmux(
      "resize-window",
      "-t",
      this.session,
      "-x",
      String(width),
      "-y",
      String(height),
    );
  }

  /**
   * Stop the terminal, then wait for the wisp it ran to be gone: a chat whose
   * terminal closes still ends in order (it saves its transcript), and its
   * home must not be removed under it.
   */
  async close(): Promise<void> {
    await this.terminal.close();
    if (!this.#home) return;
    const mark = `WISP_HOME=${this.#home}\0`;
    const until = Date.now() + 30_000;
    while (Date.now() < until && wispsWith(mark).length > 0) {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** The band's rows on a screen: from the rule above the input to the status row. */
export function band(
  screen: string,
): { rule: number; input: string[]; status: string; rows: string[] } {
  const rows = screen.replace(/\n+$/, "").split("\n");
  const rule = rows.findLastIndex((r) => /^─{10,}$/.test(r));
  return {
    rule,
    input: rule < 0 ? [] : rows.slice(rule + 1, rows.length - 1),
    status: rows.at(-1) ?? "",
    rows,
  };
}

/** The input box's text on a screen (its rows joined, the marker kept). */
export function inputText(screen: string): string {
  return band(screen).input.map((r) => r.trimEnd()).join("\n");
}

/** The pids of processes whose environment holds `mark` (here: one scratch home's wisp). */
function wispsWith(mark: string): number[] {
  const pids: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const environ = Deno.readTextFileSync(`/proc/${entry.name}/environ`);
      if (environ.includes(mark)) pids.push(Number(entry.name));
    } catch { /* gone, or not ours to read */ }
  }
  return pids;
}

/** What a wisp-tui test against the fake Ollama works with. */
export interface TuiTest {
  tui: TuiScreen;
  ollama: FakeOllama;
  s: Scratch;
}

/**
 * Run `fn` against wisp-tui in a scratch home whose model is a fake Ollama:
 * wisp-tui started (`start`'s size and environment, given the scratch) and
 * its band drawn first; the terminal, the server and the home gone after,
 * whatever `fn` did.
 */
export async function withTui(
  options: { start?: (s: Scratch) => StartOptions },
  fn: (t: TuiTest) => Promise<void>,
): Promise<void> {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await scratch(ollamaConfig(ollama.url));
  const tui = new TuiScreen();
  try {
    await tui.start(s.home, s.project, options.start?.(s) ?? {});
    await tui.until("the band", (screen) => band(screen).rule >= 0);
    await fn({ tui, ollama, s });
  } finally {
    await tui.close();
    await ollama.close();
    await s.remove();
  }
}
