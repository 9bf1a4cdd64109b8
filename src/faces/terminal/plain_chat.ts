/**
 * The plain terminal chat: the chat engine's out lines (faces/chat/protocol.ts)
 * rendered for a person, and the person's lines and Ctrl-C turned into in
 * lines. The reply streams to stdout; everything else — banner, status,
 * the `>` prompt, tool lines, folded output, the gate's line under each
 * command, notes, dialogs — goes to stderr, so `wisp chat > reply.txt`
 * keeps only the replies.
 *
 * - Tool activity is one dim line per call and result (`⚙ run_command git
 *   status`, `↳ exit 0`), the output folded under it (shownOutputLines, 2 KiB,
 *   `… N more lines, B bytes in all: /show ID`), and the gate's verdict
 *   under each command (`· moderate by rules`, `· approved (session)`,
 *   `· blocked by policy: …`). Those lines, the notes' and the views' are
 *   faces/chat/conversation_lines.ts's, shared with wisp-tui; this file
 *   only paints their tones and writes them.
 * - While something runs, a working line (`… 12 s · running git status`) is
 *   redrawn each second on a terminal; it is erased before anything else is
 *   written and not drawn while a reply streams or a dialog is open.
 * - An approval is the single-key dialog (approval_dialog.ts); a choice is a
 *   numbered list answered with a line. Neither is answered from a piped
 *   stdin: the engine refuses approvals unasked there, and a question the
 *   model asks is declined.
 * - Requests waiting in `wisp mcp` come as the engine's notes between
 *   prompts (faces/chat/waiting.ts), rendered as any note is.
 *
 * Ctrl-C is the CLI's SIGINT listener (the engine stops what runs; a second
 * quits with 130); in a dialog, where the terminal is in raw mode, it
 * refuses.
 */
import type {
  ApprovalLine,
  ChoiceLine,
  InLine,
  NoteLine,
  OutLine,
  StatusLine,
} from "../chat/protocol.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../../gate/gate.ts";
import type { Tones } from "./tones.ts";
import { askOnTerminal } from "./approval_dialog.ts";
import type { TerminalInput } from "./input.ts";
import { ConversationLines, type LineTone, type ShownLine } from "../chat/conversation_lines.ts";
import { workingText } from "../chat/working_line.ts";

// Where the plain chat's callers and tests have always found it.
export { gateLine } from "../chat/conversation_lines.ts";

/** What the plain chat needs of the engine. */
export interface PlainChatEngine {
  handle(line: InLine): void;
  readonly quitRequested: Promise<number>;
  finish(code: number): Promise<number>;
  endOfInput(): Promise<number>;
}

export interface PlainChatOptions {
  /** The reply (stdout). */
  out(text: string): void;
  /** Everything else (stderr). */
  err(text: string): void;
  colour: Tones;
  /** Whether stderr is a terminal: the working line is drawn only then. */
  terminal: boolean;
  /** Whether stdin is a terminal: dialogs and questions are answered only then. */
  inputIsTerminal: boolean;
  input: TerminalInput;
  shownOutputLines: number;
}

/** How long the working line waits between redraws. */
const WORKING_EVERY_MS = 1000;

/** The status line above the prompt: model and context on the left, the approval mode after. Pure. */
export function statusText(status: StatusLine, colour: Tones, home?: string): string {
  const context = status.contextPercent !== undefined ? `:${status.contextPercent}% used` : "";
  const where = home && (status.cwd === home || status.cwd.startsWith(home + "/"))
    ? `~${status.cwd.slice(home.length)}`
    : status.cwd;
  let git = "";
  if (status.branch) {
    git = `:${status.branch}`;
    if (status.added) git += colour.ok(`+${status.added}`);
    if (status.removed) git += colour.bad(`-${status.removed}`);
  }
  const left = `${status.model}${context} · ${where}${git}`;
  return `${colour.dim(left)}   ${colour.dim(status.approvalMode)}`;
}

/**
 * An approval line as the dialog reads it. A model action's dialog names it
 * by the line's words (`pull model …`), so they stand in for its command.
 */
function asRequest(line: ApprovalLine): ApprovalRequest {
  return {
    id: line.id,
    ...(line.kind === "model" ? { kind: "modelAction" as const } : {}),
    line: line.line,
    command: line.kind === "model" ? line.words : line.command,
    level: line.level,
    reasons: line.reasons,
    cwd: line.cwd,
    pattern: line.pattern,
    outsideSandbox: line.outsideSandbox,
    rememberable: line.options.filter((o): o is ApprovalAnswer => o !== "keep" && o !== "drop"),
  };
}

/** The plain chat: a renderer of out lines and the reader of the person's lines. */
export class PlainChat {
  #engine: PlainChatEngine | undefined;
  #midReply = false;
  #activity: { text: string; since: number; stopping?: boolean } | null = null;
  #workingShown = false;
  #ticker: ReturnType<typeof setInterval> | undefined;
  #dialogOpen = false;
  /** What the events look like, shared with wisp-tui; it also holds the gate's lines until their call shows. */
  readonly #lines: ConversationLines;
  /** The choice being read, so that it can be withdrawn (its turn stopped, answered elsewhere). */
  #openChoice: { id: string; stop: AbortController; duringTurn: boolean } | undefined;
  /** Resolves when the engine is ready for the next line (its status line came). */
  #ready: Promise<void>;
  #markReady!: () => void;
  /** The status line to print above the next prompt. */
  #status: StatusLine | undefined;
  readonly #home = Deno.env.get("HOME");

  constructor(private readonly options: PlainChatOptions) {
    this.#ready = new Promise((resolve) => (this.#markReady = resolve));
    this.#lines = new ConversationLines({ shownOutputLines: options.shownOutputLines });
  }

  /** Render one out line. */
  render(line: OutLine): void {
    switch (line.type) {
      case "delta":
        if (line.thinking) return;
        if (line.text === "") {
          if (this.#midReply) this.options.out("\n");
          this.#midReply = false;
          return;
        }
        this.#flushGate();
        this.#eraseWorking();
        this.#midReply = !line.text.endsWith("\n");
        this.options.out(line.text);
        return;
      case "note":
        this.#note(line);
        return;
      case "status":
        this.#status = line;
        this.#markReady();
        return;
      case "event":
        this.#event(line.event);
        return;
      case "approval":
        void this.#approval(line);
        return;
      case "choice":
        void this.#choice(line);
        return;
      case "withdrawn":
        if (this.#openChoice?.id === line.id) this.#openChoice.stop.abort();
        this.#show(this.#lines.withdrawn(line));
        return;
      case "view":
        this.#show(this.#lines.view(line));
        return;
      case "activity":
        this.#setActivity(line.activity);
        return;
      case "turn":
      case "notify":
      case "completions":
      case "exit":
        return;
    }
  }

  /**
   * Read the person's lines until the chat ends; returns the exit code. A
   * line is read only once the engine is ready for it (its status line), so
   * a dialog's key is never taken for a message.
   */
  async run(engine: PlainChatEngine): Promise<number> {
    this.#engine = engine;
    const quit = engine.quitRequested.then((code) => ({ quit: code }));
    try {
      for (;;) {
        const ready = await Promise.race([
          this.#ready.then(() => ({ ready: true as const })),
          quit,
        ]);
        if ("quit" in ready) return await engine.finish(ready.quit);
        this.#prompt();
        const stop = new AbortController();
        const read = this.options.input.readLine(stop.signal).then((text) => ({ text }));
        const next = await Promise.race([read, quit]);
        if ("quit" in next) {
          stop.abort();
          this.#errRaw("\n");
          return await engine.finish(next.quit);
        }
        if (next.text === undefined) {
          this.#errRaw("\n");
          return await engine.endOfInput();
        }
        this.#ready = new Promise((resolve) => (this.#markReady = resolve));
        engine.handle({ type: "message", text: next.text });
      }
    } finally {
      this.#stopTicker();
      this.options.input.restore();
    }
  }

  #prompt(): void {
    if (this.#status) this.#err(statusText(this.#status, this.options.colour, this.#home));
    this.#errRaw(this.options.colour.ok("> "));
  }

  #note(line: NoteLine): void {
    // The held gate lines go out before the reply's line is ended, the note after.
    this.#flushGate();
    if (this.#midReply) {
      this.options.out("\n");
      this.#midReply = false;
    }
    this.#show(this.#lines.note(line));
  }

  #event(event: Record<string, unknown>): void {
    this.#show(this.#lines.event(event));
  }

  /** Gate lines whose call never came (a refused call is not run): shown where they are. */
  #flushGate(): void {
    this.#show(this.#lines.flush());
  }

  /** Write shown lines to stderr, each painted in its tone. */
  #show(lines: ShownLine[]): void {
    for (const shown of lines) {
      this.#err(this.#paint(shown.tone)(" ".repeat(shown.indent) + shown.text));
    }
  }

  /** The plain chat's palette for a tone: tool lines and what is said about them are dim. */
  #paint(tone: LineTone): (text: string) => string {
    const c = this.options.colour;
    switch (tone) {
      case "tool":
      case "muted":
        return c.dim;
      case "warn":
        return c.warn;
      case "error":
        return c.bad;
      case "plain":
        return (text) => text;
    }
  }

  async #approval(line: ApprovalLine): Promise<void> {
    if (line.kind === "fact" || !this.options.inputIsTerminal) {
      // Not ours to answer here (a fact; a piped stdin): the engine's own notes say so.
      this.#engine?.handle({
        type: "answer",
        id: line.id,
        decision: line.kind === "fact" ? "drop" : "no",
      });
      return;
    }
    this.#eraseWorking();
    if (this.#midReply) {
      this.options.out("\n");
      this.#midReply = false;
    }
    this.#flushGate();
    this.#dialogOpen = true;
    let answer: ApprovalAnswer = "no";
    try {
      answer = await askOnTerminal(asRequest(line), {
        input: this.options.input,
        write: (text) => this.options.err(text),
        colour: this.options.colour,
      });
    } finally {
      this.#dialogOpen = false;
    }
    this.#engine?.handle({ type: "answer", id: line.id, decision: answer });
  }

  async #choice(line: ChoiceLine): Promise<void> {
    this.#eraseWorking();
    const c = this.options.colour;
    const question = line.kind === "question";
    if (question && !this.options.inputIsTerminal) {
      this.#err(
        c.warn(`? the model asks: ${line.title} (declined: standard input is not a terminal)`),
      );
      this.#engine?.handle({ type: "choose", id: line.id, value: null });
      return;
    }
    this.#dialogOpen = true;
    const stop = new AbortController();
    this.#openChoice = { id: line.id, stop, duringTurn: this.#activity !== null };
    try {
      this.#err(question ? c.warn("? the model asks") : c.warn(`choose: ${line.title}`));
      if (question) this.#err(`  ${line.title}`);
      // A question's options read as the person's answers; another choice names each value
      // (what a typed value must match) beside its label.
      line.options.forEach((o, i) =>
        this.#err(
          question
            ? `  ${i + 1}  ${o.label ?? o.value}`
            : `  ${i + 1}. ${o.value}${o.label ? `  ${o.label}` : ""}${o.current ? " *" : ""}`,
        )
      );
      this.#errRaw(
        question
          ? line.options.length > 0
            ? "  type a number, or press Enter to decline › "
            : "  type your answer, or press Enter to decline › "
          : "  type a number or a value, or press Enter to leave it › ",
      );
      const read = await this.options.input.readLine(stop.signal);
      if (stop.signal.aborted) {
        this.#errRaw("\n");
        this.#err(c.dim("· no longer waiting"));
        return;
      }
      const typed = read?.trim() ?? "";
      let value: string | null = null;
      if (typed !== "" && !typed.startsWith("/")) {
        const n = Number(typed);
        value = Number.isInteger(n) && n >= 1 && n <= line.options.length
          ? line.options[n - 1].value
          : typed;
      }
      this.#engine?.handle({ type: "choose", id: line.id, value });
    } finally {
      this.#dialogOpen = false;
      if (this.#openChoice?.id === line.id) this.#openChoice = undefined;
    }
  }

  // ------------------------------------------------------- the working line

  #setActivity(activity: { text: string; since: number; stopping?: boolean } | null): void {
    this.#activity = activity;
    // A question the turn asked goes with the turn.
    if (!activity && this.#openChoice?.duringTurn) this.#openChoice.stop.abort();
    if (!activity) {
      this.#eraseWorking();
      this.#stopTicker();
      return;
    }
    if (!this.options.terminal) return;
    this.#drawWorking();
    if (this.#ticker === undefined) {
      this.#ticker = setInterval(() => this.#drawWorking(), WORKING_EVERY_MS);
    }
  }

  #drawWorking(): void {
    const a = this.#activity;
    if (!a || this.#midReply || this.#dialogOpen) return;
    const text = workingText(a, Date.now());
    this.options.err(`\r\x1b[2K${this.options.colour.dim(text)}`);
    this.#workingShown = true;
  }

  #eraseWorking(): void {
    if (!this.#workingShown) return;
    this.options.err("\r\x1b[2K");
    this.#workingShown = false;
  }

  #stopTicker(): void {
    if (this.#ticker !== undefined) clearInterval(this.#ticker);
    this.#ticker = undefined;
  }

  #err(line: string): void {
    this.#eraseWorking();
    this.options.err(line + "\n");
  }

  #errRaw(text: string): void {
    this.#eraseWorking();
    this.options.err(text);
  }
}
