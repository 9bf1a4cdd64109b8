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
 *   `· blocked by policy: …`).
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
import { foldOutput } from "../chat/fold.ts";

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

/** `12 s`, `2 min 5 s`. */
export function elapsedWords(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

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

/** The gate's line for an audit event under a command, or undefined when it has none. Pure. */
export function gateLine(event: Record<string, unknown>): string | undefined {
  switch (event.kind) {
    case "classifier.verdict": {
      const cached = event.cached === true ? " (remembered)" : "";
      const reasons = Array.isArray(event.reasons) ? event.reasons as unknown[] : [];
      const reason = typeof reasons[0] === "string" ? `: ${reasons[0]}` : "";
      const seconds = typeof event.seconds === "number" && event.seconds > 0
        ? ` (${(event.seconds * 1000).toFixed(1)} ms)`
        : "";
      // A line of several commands names the part each verdict is about.
      const part = typeof event.line === "string" && event.line !== event.command
        ? ` — ${event.command}`
        : "";
      return `· ${event.level} by ${event.classifier}${cached}${reason}${seconds}${part}`;
    }
    case "policy.decision":
      return event.decision === "deny"
        ? `· blocked by policy: ${event.reason ?? "denied"}`
        : undefined;
    case "approval.decided": {
      if (event.decision === "approved") {
        if (event.by === "remembered") {
          return event.scope === "session"
            ? "· allowed by your approval for this session"
            : "· allowed by your standing approval";
        }
        if (event.by === "yes") return "· approved by --yes";
        return `· approved (${event.scope ?? "once"})`;
      }
      if (event.by === "timeout") return "· no answer in time, denied";
      return `· denied${typeof event.reason === "string" ? `: ${event.reason}` : ""}`;
    }
  }
  return undefined;
}

function argumentWords(args: unknown): string {
  if (!args || typeof args !== "object") return "";
  const a = args as Record<string, unknown>;
  for (const key of ["command", "path", "pattern", "question", "query", "name"]) {
    if (typeof a[key] === "string") return a[key] as string;
  }
  return "";
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
  /**
   * The gate's lines for calls not shown yet: the gate is asked for every call of a response
   * before any runs (agent/prepare.ts), so its lines wait for their call's line.
   */
  #gateLines: { line: string; text: string }[] = [];
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
        this.#err(this.options.colour.dim(`⚠ no longer waiting: ${line.reason}`));
        return;
      case "view":
        this.#err(this.options.colour.dim(`── ${line.title}`));
        this.#errRaw(line.text.endsWith("\n") || line.text === "" ? line.text : line.text + "\n");
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
    this.#flushGate();
    const c = this.options.colour;
    const tone = line.tone === "muted"
      ? c.dim
      : line.tone === "warn"
      ? c.warn
      : line.tone === "error"
      ? c.bad
      : (s: string) => s;
    if (this.#midReply) {
      this.options.out("\n");
      this.#midReply = false;
    }
    this.#err(tone(line.text));
  }

  #event(event: Record<string, unknown>): void {
    const c = this.options.colour;
    const kind = event.kind;
    if (kind === "tool.call") {
      const what = argumentWords(event.arguments);
      this.#err(c.dim(`⚙ ${event.tool}${what ? ` ${what}` : ""}`));
      // The verdicts about this call's command go under it; those about later calls wait.
      const command = typeof (event.arguments as { command?: unknown })?.command === "string"
        ? (event.arguments as { command: string }).command
        : undefined;
      const mine = command === undefined ? [] : this.#gateLines.filter((g) => g.line === command);
      this.#gateLines = this.#gateLines.filter((g) => !mine.includes(g));
      for (const g of mine) this.#err(c.dim(`  ${g.text}`));
      return;
    }
    const gate = gateLine(event);
    if (gate) {
      const line = typeof event.line === "string" ? event.line : String(event.command ?? "");
      // It waits for its call's line; one whose call never shows comes out with the next note.
      this.#gateLines.push({ line, text: gate });
      return;
    }
    if (kind === "command.outcome" && event.origin !== "person") {
      const status = event.exitStatus ?? (event.signal ? `signal ${event.signal}` : "-");
      const how = event.stopped ? " (stopped)" : event.timedOut ? " (timed out)" : "";
      this.#err(c.dim(`↳ exit ${status}${how}`));
      return;
    }
    if (kind === "tool.result") {
      const text = typeof event.text === "string" ? event.text : "";
      const id = String(event.callId ?? event.id).slice(0, 8);
      if (event.tool === "run_command") {
        // The exit line came from command.outcome; the output follows, without its status line.
        this.#fold(text.replace(/^exit status:[^\n]*\n?/, ""), id);
        return;
      }
      const [first, ...rest] = text.split("\n");
      this.#err(c.dim(`↳ ${first}`));
      this.#fold(rest.join("\n"), id);
      return;
    }
    if (kind === "command.typed") {
      const stopped = event.stopped === true;
      this.#err(c.dim(`↳ exit ${event.exitStatus ?? "-"}${stopped ? " (stopped by you)" : ""}`));
      const output = typeof event.output === "string" ? event.output : "";
      this.#fold(output, String(event.id).slice(0, 8));
    }
  }

  /** Gate lines whose call never came (a refused call is not run): shown where they are. */
  #flushGate(): void {
    const pending = this.#gateLines;
    this.#gateLines = [];
    for (const g of pending) this.#err(this.options.colour.dim(`  ${g.text}`));
  }

  #fold(text: string, id: string): void {
    const folded = foldOutput(text, this.options.shownOutputLines, id);
    for (const line of folded.lines) this.#err(this.options.colour.dim(`    ${line}`));
    if (folded.fold) this.#err(this.options.colour.dim(`    ${folded.fold}`));
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
    const text = `… ${elapsedWords(Date.now() - a.since)} · ${a.text}${
      a.stopping ? " · Ctrl-C again quits" : ""
    }`;
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
