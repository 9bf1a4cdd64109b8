/**
 * The chat engine: ONE engine behind every chat front end. It takes the
 * protocol's in lines (protocol.ts) — a message (slash commands and `!` /
 * `!!` included), an interrupt, an answer, a choice, a completion request,
 * a request for a page of output, the hello — and emits out lines as typed
 * objects. `wisp chat --json` writes them as JSON Lines (json_face.ts); the
 * plain terminal chat renders them for a person.
 *
 * What it owns: the session (one per run of wisp chat), the conversation
 * (the one turn: src/agent/conversation.ts), the approval host (an approval
 * line answered by an answer line), the person's typed commands
 * (typed_command.ts, through the one gate-then-run), the slash commands
 * (slash.ts), the transcript (transcript.ts), and, when the hello asks,
 * the lines for what waits in wisp mcp servers (mcp_lines.ts).
 *
 * Messages are handled one at a time, in order; interrupt, answer, choose,
 * complete and output are handled the moment they arrive, so a turn that
 * waits for an approval can be answered, and a running turn stopped.
 */
import type { Config } from "../../config/schema.ts";
import type { HomePaths } from "../../config/home.ts";
import type { Backend } from "../../models/backend.ts";
import type { ContextSnapshot } from "../../context/context.ts";
import { bookSink, type FactBook, openFactBook } from "../../context/facts/mod.ts";
import { condensedNote } from "../../context/view.ts";
import { Session } from "../../session/session.ts";
import { Conversation, TurnFailed } from "../../agent/conversation.ts";
import type {
  ApprovalAnswer,
  ApprovalHost,
  ApprovalRequest,
  HostRefusal,
} from "../../gate/gate.ts";
import type { Notifier } from "../../notify/notifier.ts";
import { readGitState } from "../../util/gitstate.ts";
import { WaitingInMcp } from "./waiting.ts";
import { askedWords } from "../../gate/pending.ts";
import type { AnswerResult } from "../mcp/answer.ts";
import { mcpLineEffects, McpRequestLines } from "./mcp_lines.ts";
import { messageOf } from "../../util/errors.ts";
import { ModelError } from "../../models/errors.ts";
import { log } from "../../util/log.ts";
import type { AuditEvent } from "../../audit/catalogue.ts";
import type {
  ActivityLine,
  AnswerDecision,
  ChoiceLine,
  HelloLine,
  InLine,
  NoteKind,
  NoteTone,
  OutLine,
  ParsedIn,
} from "./protocol.ts";
import {
  emptyContext,
  type LoadedTranscript,
  newTranscriptId,
  saveTranscript,
  sentCount,
  type Transcript,
  TRANSCRIPT_VERSION,
} from "./transcript.ts";
import { runTyped, typedCommandLine } from "./typed_command.ts";
import { chatInquirer } from "./inquiry.ts";
import { factsCommand } from "./facts.ts";
import { completeInput, runSlash } from "./slash.ts";
import { activityWords } from "./tool_words.ts";
import { keepLatest, KEPT_HISTORY, KEPT_OUTPUTS, KEPT_THOUGHTS, pushLatest } from "./kept.ts";
import { emptyTally, tallyTurn, type TurnFigure, type TurnTally } from "./turn_tally.ts";

/** The help line under the banner. */
export const HELP_LINE =
  "type a message, /help for commands, !cmd to run a command yourself, /quit to leave";

/** How approvals are answered when the front end sent no hello. */
export type ApprovalRoute =
  /** approval lines, answered by answer lines (wisp chat --json; the plain chat on a terminal) */
  | "protocol"
  /** refused unasked: nothing on the input may answer (the plain chat with a piped stdin) */
  | "refuse";

export interface ChatEngineOptions {
  config: Config;
  paths: HomePaths;
  /** The launch directory; the process's working directory by default. */
  root?: string;
  /** --model: used or refused, never replaced. */
  model?: string;
  /** A transcript to carry on, already loaded. */
  resume?: LoadedTranscript;
  tools?: string[];
  noTools?: boolean;
  instructions?: string;
  yes: boolean;
  unsafe: boolean;
  argv?: string[];
  /** Which face opened it, for session.start: "chat", "chat-tui" (wisp-tui) or "chat-json". */
  face: string;
  approvals: ApprovalRoute;
  /** Whether the person's input is a terminal: /approvals approve|deny answer only then. */
  inputIsTerminal: boolean;
  /**
   * Note, between prompts, each request newly waiting in a wisp mcp server,
   * and each one seen before that no longer waits (the plain chat).
   */
  noteWaiting?: boolean;
  /** Where every out line goes. */
  emit(line: OutLine): void;
  /**
   * The backend for a model name, checked to answer (the CLI: chooseModel).
   * `explicit`: never stood in for. Throws a ModelError when unavailable.
   */
  backend(name: string, explicit: boolean): Promise<Backend>;
  /** The models this machine can run now, for /model and the fallback at start. */
  runnableModels(): Promise<string[]>;
  /** The session's notifier; absent: the notify tool says none can be posted. */
  notifier?: Notifier;
  /** wisp's version, for the banner. */
  version: string;
  /**
   * Make a config change as `wisp config set|unset` does (the same checks,
   * audited with source "chat"); `words` undefined unsets. Returns the lines
   * to show. Absent: /config set|unset says settings cannot change here.
   */
  changeConfig?(key: string, words: string[] | undefined): Promise<string[]>;
  /** What /config show prints: the settings in effect with wisp's paths. */
  configView(): unknown;
}

/** Something running: a turn or a typed command. */
interface Running {
  kind: "turn" | "command";
  text: string;
  since: number;
  stop: AbortController;
  kill: AbortController;
  interrupts: number;
}

/** An output seen in this chat, for /show and /last: a tool's result or a typed command's. */
export interface SeenOutput {
  /** The event id it came with (tool.result's callId, or the command.typed id). */
  id: string;
  /** The output store's entry, when the whole was kept there. */
  stored?: string;
  title: string;
  text: string;
}

/** A thinking stretch kept for /inspect thinking. */
export interface Thought {
  turn: string;
  text: string;
}

export class ChatEngine {
  readonly options: ChatEngineOptions;
  session!: Session;
  conversation!: Conversation;
  backend!: Backend;
  /** The hello, once one came; undefined: none (approvals over the protocol). */
  hello: HelloLine | undefined;
  /** The lines the person submitted, for /history and the transcript: the latest KEPT_HISTORY. */
  readonly history: string[] = [];
  /** The session's turns, added up (turn_tally.ts): what /stats and the status line say. */
  turnTally: TurnTally = emptyTally();
  /** The outputs seen in this chat, for /show: the latest KEPT_OUTPUTS. */
  readonly outputs: SeenOutput[] = [];
  /** The conversation's thinking, for /inspect thinking: the latest KEPT_THOUGHTS turns'. */
  readonly thoughts: Thought[] = [];
  /** The task set with /task, shown to the model beside each request. */
  task: string | undefined;
  /**
   * The conversation's fact book (undefined when facts.enabled is false):
   * opened with the conversation, carried across /model, new on /new.
   */
  factBook: FactBook | undefined;
  transcript: Transcript;
  /** Set when the chat is to end (/quit, a second interrupt): the exit code. */
  quitting: number | undefined;
  /** Resolves with the exit code once the chat is to end (see requestQuit). */
  readonly quitRequested: Promise<number>;
  #resolveQuit!: (code: number) => void;
  #finished: Promise<number> | undefined;
  #running: Running | undefined;
  #approvals = new Map<string, (answer: ApprovalAnswer) => void>();
  #choices = new Map<string, (value: string | null, values?: string[]) => void>();
  #queue: string[] = [];
  #draining: Promise<void> | undefined;
  #inputClosed = false;
  #stopEvents: (() => void) | undefined;
  #choiceCount = 0;
  #exitSent = false;
  #unknownReported = new Set<string>();
  #turnStartPending = false;
  #turnStarted: string | undefined;
  /** Risk classifications a model classifier made this session (for /stats). */
  classifierCalls = 0;
  /** What waits in wisp mcp, noted between prompts (waiting.ts). */
  #waiting: WaitingInMcp | undefined;
  /** What waits in wisp mcp, sent as lines when the hello asked (mcp_lines.ts). */
  #mcpLines: McpRequestLines | undefined;
  /** How many commands and questions wait in wisp mcp, as last listed (the status line's count). */
  waitingApprovals = 0;
  waitingQuestions = 0;

  constructor(options: ChatEngineOptions) {
    this.options = options;
    this.quitRequested = new Promise((resolve) => this.#resolveQuit = resolve);
    const now = new Date();
    // What could not be read of the transcript is said at start, not saved again.
    const { factsUnreadable: _, ...resumed } = options.resume ?? {};
    this.transcript = options.resume
      ? { ...resumed as Transcript, history: [...options.resume.history] }
      : {
        version: TRANSCRIPT_VERSION,
        id: newTranscriptId(now),
        started: now.toISOString(),
        saved: now.toISOString(),
        model: "",
        cwd: options.root ?? Deno.cwd(),
        sessions: [],
        context: emptyContext(),
        history: [],
      };
    this.history.push(...this.transcript.history);
    keepLatest(this.history, KEPT_HISTORY);
    this.task = this.transcript.task;
  }

  get config(): Config {
    return this.options.config;
  }

  emit(line: OutLine): void {
    this.options.emit(line);
  }

  /** A note for the person. */
  note(text: string, tone: NoteTone = "plain", kind?: NoteKind): void {
    this.emit({ type: "note", text, tone, ...(kind ? { kind } : {}) });
  }

  /** Whether something runs now. */
  /** The face answering what waits, as the audit's `via` names it. */
  get via(): "chat" | "tui" {
    return this.options.face === "chat-tui" ? "tui" : "chat";
  }

  get busy(): boolean {
    return this.#running !== undefined;
  }

  // ------------------------------------------------------------ start, end

  /**
   * Open the session and the conversation: the model named by --model (or
   * refused), else the configured one, falling back to the first model this
   * machine can run when it is unavailable (model.fallback). Emits the
   * banner and the help line. Throws when no model can run.
   */
  async start(): Promise<void> {
    const o = this.options;
    this.session = Session.open({
      face: o.face,
      paths: o.paths,
      config: o.config,
      root: o.root,
      host: this.approvalHost(),
      // The ask tool's questions go out as choice lines (inquiry.ts).
      inquirer: chatInquirer((choice) => this.choose(choice)),
      ...(o.notifier ? { notifier: o.notifier } : {}),
      yes: o.yes,
      unsafe: o.unsafe,
      argv: o.argv,
    });
    this.transcript.sessions.push(this.session.id);
    // Tree-sitter loads in the background while the model is chosen: a line the quick reader
    // declines then finds it ready (parse.ts).
    this.session.gate.warmShellParser();
    try {
      // An unknown tool name is a usage error before any model is asked.
      this.session.tools({ only: o.tools, noTools: o.noTools });
      this.backend = await this.chooseStartModel();
      await this.openConversation(this.transcript.context);
    } catch (error) {
      this.session.close();
      throw error;
    }
    this.#stopEvents = this.session.audit.onEvent((event) => this.onAuditEvent(event));
    const tools = this.conversation.tools.length;
    this.note(
      `wisp ${o.version} · ${this.backend.name} · ${tools} tool${
        tools === 1 ? "" : "s"
      } · session ${this.session.id}${o.resume ? ` · resumed ${this.transcript.id}` : ""}`,
      "plain",
      "banner",
    );
    this.note(HELP_LINE, "muted", "help");
    if (o.resume) {
      const asked = sentCount(this.transcript.context);
      this.note(
        `resumed transcript ${this.transcript.id}: ${asked} message${
          asked === 1 ? "" : "s"
        } so far`,
        "muted",
      );
      this.restoreFacts(o.resume);
    }
    await this.noteWaiting();
    this.emitStatus();
  }

  /** The model the chat starts on (see start). */
  async chooseStartModel(): Promise<Backend> {
    const o = this.options;
    if (o.model !== undefined) return await o.backend(o.model, true);
    const configured = o.config.model;
    try {
      return await o.backend(configured, false);
    } catch (error) {
      // Only a model that cannot answer now gives way; a disabled or malformed name is the
      // person's to fix, as wisp models and wisp config say.
      if (
        !(error instanceof ModelError) || ["disabled", "invalid", "fence"].includes(error.kind)
      ) {
        throw error;
      }
      // The configured model is unavailable: the first model this machine can run, said so.
      let candidates: string[] = [];
      try {
        candidates = await o.runnableModels();
      } catch { /* no listing: fail with the configured model's reason */ }
      for (const name of candidates) {
        if (name === configured) continue;
        let backend: Backend;
        try {
          backend = await o.backend(name, true);
        } catch {
          continue;
        }
        const reason = error.reason;
        this.note(
          `${configured} is unavailable (${reason});\nusing ${backend.name}. /model ${configured} once it is running`,
          "warn",
          "fallback",
        );
        this.pendingFallback = { from: configured, to: backend.name, reason };
        return backend;
      }
      throw error;
    }
  }

  /** Recorded once the session's audit is listened to (start records it right after). */
  pendingFallback: { from: string; to: string; reason: string } | undefined;

  /** A new conversation on the current backend, carrying on a saved context (store and summary). */
  async openConversation(carried: ContextSnapshot): Promise<void> {
    const o = this.options;
    const tools = this.session.tools({ only: o.tools, noTools: o.noTools });
    this.factBook ??= openFactBook({
      config: o.config,
      paths: o.paths,
      audit: this.session.audit,
      cwd: this.session.root,
    });
    this.conversation = await Conversation.open(this.session, {
      backend: this.backend,
      tools,
      instructions: o.instructions,
      // Composition shows the book's facts, condensing distils into it (with this model),
      // and the memory tool's note and task record into it.
      ...(this.factBook
        ? {
          facts: bookSink({
            book: this.factBook,
            backend: this.backend,
            audit: this.session.audit,
          }),
        }
        : {}),
    });
    this.conversation.context.restore(carried);
    if (this.pendingFallback) {
      this.session.audit.record("model.fallback", this.pendingFallback);
      this.pendingFallback = undefined;
    }
  }

  /**
   * Carry a resumed transcript's facts into the book (ADR 0620). A damaged
   * facts field costs only the facts, said in one line; with facts off now,
   * the saved ones are kept in the transcript untouched for a later resume.
   */
  restoreFacts(resumed: LoadedTranscript): void {
    if (resumed.factsUnreadable) {
      this.note(
        `warning: the transcript's facts could not be read (${resumed.factsUnreadable}); this chat resumes without them`,
        "warn",
      );
      return;
    }
    if (!this.factBook || !this.transcript.facts) return;
    const left = this.factBook.restore(this.transcript.facts);
    if (left > 0) {
      this.note(
        `note: ${left} saved fact version${
          left === 1 ? " is" : "s are"
        } of a kind no longer configured, so ${left === 1 ? "it was" : "they were"} left out`,
        "warn",
      );
    }
  }

  /** Save the transcript (what the conversation holds now). Returns its path, or null when nothing was said. */
  saveTranscript(): string | null {
    if (!this.conversation) return null;
    const context = this.conversation.context.snapshot();
    if (context.store.nextTurn === 1 && this.history.length === 0) return null;
    this.transcript.context = context;
    // A resumed format-1 transcript is saved again in the format it is now.
    this.transcript.version = TRANSCRIPT_VERSION;
    this.transcript.history = [...this.history];
    // With facts off now, a resumed transcript's saved facts are carried on as they were.
    if (this.factBook) this.transcript.facts = this.factBook.snapshot();
    this.transcript.task = this.task;
    this.transcript.model = this.backend.name;
    this.transcript.saved = new Date().toISOString();
    return saveTranscript(this.options.paths, this.transcript);
  }

  /** The chat is to end with `code` once what is under way allows (the face calls finish). */
  requestQuit(code: number): void {
    if (this.quitting !== undefined) return;
    this.quitting = code;
    this.#resolveQuit(code);
  }

  /**
   * End the chat: stop what runs, save the transcript, close the session,
   * and emit the exit line. Returns the exit code. Called twice, it ends once.
   */
  finish(code: number): Promise<number> {
    this.#finished ??= this.#finish(code);
    return this.#finished;
  }

  async #finish(code: number): Promise<number> {
    this.#inputClosed = true;
    await this.#mcpLines?.stop();
    for (const resolve of this.#approvals.values()) resolve("no");
    for (const resolve of this.#choices.values()) resolve(null);
    if (this.#running) {
      // What the chat runs never outlives it.
      this.#running.stop.abort();
      this.#running.kill.abort();
    }
    try {
      await this.#draining;
    } catch { /* reported where it happened */ }
    try {
      const path = this.saveTranscript();
      if (path) {
        this.note(
          `transcript saved: ${this.transcript.id} (wisp chat --resume ${this.transcript.id})`,
          "muted",
        );
      }
    } catch (error) {
      this.note(`error: ${messageOf(error)}`, "error", "error");
      if (code === 0) code = 1;
    }
    this.#stopEvents?.();
    this.session?.close();
    if (!this.#exitSent) {
      this.#exitSent = true;
      this.emit({ type: "exit", code });
    }
    return code;
  }

  // ------------------------------------------------------------- input

  /** Take one parsed input line. Returns once it is handled, or queued (messages). */
  receive(parsed: ParsedIn): void {
    if ("unknown" in parsed) {
      if (!this.#unknownReported.has(parsed.unknown)) {
        this.#unknownReported.add(parsed.unknown);
        log("info", `chat: ignored an input line of type ${parsed.unknown}`);
      }
      return;
    }
    this.handle(parsed.line);
  }

  handle(line: InLine): void {
    switch (line.type) {
      case "hello":
        this.hello = line;
        this.session.audit.record("host.hello", {
          effects: line.effects,
          ...(line.client ? { client: line.client } : {}),
          ...(line.version ? { version: line.version } : {}),
        });
        this.#startMcpLines(line.effects);
        return;
      case "message":
        this.#queue.push(line.text);
        this.#drain();
        return;
      case "interrupt":
        this.interrupt();
        return;
      case "answer":
        this.answer(line.id, line.decision);
        return;
      case "choose": {
        const resolve = this.#choices.get(line.id);
        if (!resolve && this.#mcpLines?.sent(line.id)?.kind === "question") {
          void this.#answerMcp(line.id, line.value ?? null);
          return;
        }
        if (!resolve) return;
        this.#choices.delete(line.id);
        resolve(line.value ?? null, line.values);
        return;
      }
      case "complete":
        this.emit(completeInput(this, line.id, line.text, line.cursor));
        return;
      case "output":
        void this.sendOutputPage(line.id, line.page ?? 1, line.session);
        return;
    }
  }

  /**
   * The input closed. When a /quit is queued, the front end asked to end in
   * order: the messages before it are handled (`printf 'question\n/quit\n'
   * | wisp chat --json` gets its answer). Otherwise the front end went away:
   * what runs is killed and the rest is dropped. Nothing can answer an
   * approval or a choice any more, so those are refused. Then the chat ends
   * (see finish).
   */
  async endOfInput(): Promise<number> {
    this.#inputClosed = true;
    for (const resolve of this.#approvals.values()) resolve("no");
    for (const resolve of this.#choices.values()) resolve(null);
    const orderly = this.#queue.some((line) => /^\/(quit|exit)\s*$/.test(line.trim()));
    if (!orderly) {
      this.#queue.length = 0;
      if (this.#running) {
        this.#running.stop.abort();
        this.#running.kill.abort();
      }
    }
    await this.idle();
    return await this.finish(this.quitting ?? 0);
  }

  /** Resolves once every queued message is handled. */
  async idle(): Promise<void> {
    while (this.#draining) await this.#draining;
  }

  #drain(): void {
    if (this.#draining || this.#queue.length === 0) return;
    this.#draining = (async () => {
      // Let the assignment below happen before the loop can end.
      await Promise.resolve();
      while (this.#queue.length > 0 && this.quitting === undefined) {
        const text = this.#queue.shift()!;
        try {
          await this.message(text);
        } catch (error) {
          this.note(`error: ${messageOf(error)}`, "error", "error");
        }
        if (this.quitting === undefined && !this.#inputClosed) {
          await this.noteWaiting();
          this.emitStatus();
        }
      }
      this.#draining = undefined;
    })();
  }

  /** One chat line: a slash command, a typed command, or a message to the model. */
  async message(raw: string): Promise<void> {
    const text = raw.replace(/\r?\n$/, "");
    if (text.trim() === "") return;
    pushLatest(this.history, text, KEPT_HISTORY);
    if (text.startsWith("/")) {
      await runSlash(this, text);
      return;
    }
    const typed = typedCommandLine(text);
    if (typed) {
      await runTyped(this, typed);
      return;
    }
    await this.turn(text);
  }

  // ------------------------------------------------------------ running

  /** Mark something as running (a turn or a typed command) and say so in an activity line. */
  beginRunning(kind: "turn" | "command", text: string): Running {
    const running: Running = {
      kind,
      text,
      since: Date.now(),
      stop: new AbortController(),
      kill: new AbortController(),
      interrupts: 0,
    };
    this.#running = running;
    this.emitActivity();
    return running;
  }

  endRunning(): void {
    this.#running = undefined;
    this.emit({ type: "activity", activity: null });
  }

  /** What the working line says now. */
  setActivity(text: string): void {
    if (!this.#running) return;
    this.#running.text = text;
    this.emitActivity();
  }

  emitActivity(): void {
    const r = this.#running;
    const line: ActivityLine = {
      type: "activity",
      activity: r
        ? {
          kind: r.kind,
          text: r.text,
          since: r.since,
          ...(r.interrupts > 0 ? { stopping: true } : {}),
        }
        : null,
    };
    this.emit(line);
  }

  /**
   * Stop what runs: the first interrupt stops it (SIGTERM to what it runs,
   * SIGKILL two seconds later), a second kills it at once and quits (130).
   * With nothing running it does nothing.
   */
  interrupt(): void {
    const r = this.#running;
    if (!r) return;
    r.interrupts++;
    if (r.interrupts === 1) {
      this.note(
        r.kind === "turn"
          ? "stopping the turn; interrupt again quits"
          : `stopping ${r.text.replace(/^running /, "")}; interrupt again quits`,
        "muted",
        "stopped",
      );
      r.stop.abort(new Error("stopped by you"));
      this.emitActivity();
      return;
    }
    r.kill.abort(new Error("killed by you"));
    this.requestQuit(130);
  }

  // -------------------------------------------------------------- a turn

  /** Add a turn's figures to the session's tally. */
  countTurn(figure: TurnFigure): void {
    this.turnTally = tallyTurn(this.turnTally, figure);
  }

  /** One message to the model: the turn through the conversation, streamed as delta lines. */
  async turn(prompt: string): Promise<void> {
    const running = this.beginRunning("turn", "waiting for the model");
    // The turn's start goes out with its audit id, just before its first event (the prompt).
    this.#turnStarted = undefined;
    this.#turnStartPending = true;
    // What the person ran themselves since the last turn waits in the store as told entries,
    // which the turn carries before its prompt (typed_command.ts).
    // With facts on, the task is the book's fact (beside every request); off, it rides here.
    const fullPrompt = this.task && !this.factBook
      ? `${prompt}\n\n[the task: ${this.task}]`
      : prompt;
    this.factBook?.beginTurn(this.conversation.context.store.turnCount + 1);
    let thinking = "";
    // A second interrupt kills what the turn runs at once: the stop signal is the turn's.
    const signal = AbortSignal.any([running.stop.signal, running.kill.signal]);
    const started = performance.now();
    try {
      const report = await this.conversation.turn({
        prompt: fullPrompt,
        signal,
        hooks: {
          onText: (text) => {
            this.emit({ type: "delta", text });
          },
          onThinking: (text) => {
            thinking += text;
            this.emit({ type: "delta", text, thinking: true });
          },
        },
      });
      this.#startTurnLine(report.turnId);
      if (thinking !== "") {
        pushLatest(this.thoughts, { turn: report.turnId, text: thinking }, KEPT_THOUGHTS);
      }
      const { outcome } = report;
      this.emit({ type: "delta", text: "" });
      const how = outcome.stopped ? "stopped" : outcome.roundLimit ? "round-limit" : "replied";
      this.countTurn({
        seconds: outcome.seconds,
        inputTokens: outcome.usage.inputTokens,
        outputTokens: outcome.usage.outputTokens,
        outcome: how,
        ...(condensedCount(this) > 0 ? { condensed: true } : {}),
      });
      if (report.ran) this.note(report.ran, "muted", "ran");
      if (report.unsupported) this.note(report.unsupported, "muted", "unsupported");
      const condensed = condensedNote(
        this.conversation.context.condensedThisTurn,
        this.backend.name,
        this.conversation.window,
      );
      if (condensed) this.note(condensed, "muted", "condensed");
      if (outcome.stopped) this.note("stopped by you", "muted", "stopped");
      if (outcome.roundLimit) {
        this.note(
          `error: the model was still calling tools after ${outcome.rounds} requests, so wisp ended the turn; ask for less at once`,
          "error",
          "error",
        );
      }
      if (outcome.cutOff) {
        this.note("note: the reply was cut off at the model's length limit", "warn");
      }
      this.note(usageText(outcome.seconds, outcome.usage), "muted", "usage");
      this.emit({
        type: "turn",
        phase: "end",
        id: report.turnId,
        outcome: how,
        seconds: round(outcome.seconds),
        inputTokens: outcome.usage.inputTokens,
        outputTokens: outcome.usage.outputTokens,
        ran: report.ran,
        unsupported: report.unsupported,
        ...(condensed ? { condensed: true as const } : {}),
      });
    } catch (error) {
      const seconds = (performance.now() - started) / 1000;
      // The reply (what streamed of it) ends here too.
      this.emit({ type: "delta", text: "" });
      const failure = error instanceof TurnFailed ? error.failure : error;
      const turnId = this.#startTurnLine(`${this.session.id}-failed`);
      if (error instanceof TurnFailed && error.ran) this.note(error.ran, "muted", "ran");
      this.countTurn({ seconds, inputTokens: 0, outputTokens: 0, outcome: "failed" });
      this.note(`error: ${messageOf(failure)}`, "error", "error");
      this.emit({
        type: "turn",
        phase: "end",
        id: turnId,
        outcome: "failed",
        seconds: round(seconds),
        error: messageOf(failure),
      });
    } finally {
      this.endRunning();
    }
  }

  // ----------------------------------------------------------- approvals

  /** The gate's host effect: an approval line, answered by an answer line. */
  approvalHost(): ApprovalHost {
    return {
      approve: (request, signal) => this.askApproval(request, signal),
    };
  }

  async askApproval(
    request: ApprovalRequest,
    signal?: AbortSignal,
  ): Promise<ApprovalAnswer | HostRefusal> {
    if (this.hello && !this.hello.effects.includes("approve")) {
      return {
        answer: "no",
        by: this.hello.client ?? "the front end",
        why:
          "the front end does not answer approvals (its hello has no approve), so no one was asked",
      };
    }
    if (this.options.approvals === "refuse") {
      this.note(
        `⚠ refused: ${request.command} (${request.level}): standard input is not a terminal, so no one can be asked here; run wisp chat at a terminal to approve it`,
        "warn",
        "approval",
      );
      return {
        answer: "no",
        by: "chat",
        why: "standard input is not a terminal, so no one could be asked",
      };
    }
    if (this.#inputClosed || signal?.aborted) return "no";
    const options: AnswerDecision[] = request.outsideSandbox
      ? ["once", "no"]
      : [...request.rememberable.filter((s) => s !== "no"), "no"];
    const answer = await new Promise<ApprovalAnswer>((resolve) => {
      const onAbort = () => {
        this.#approvals.delete(request.id);
        this.emit({ type: "withdrawn", id: request.id, reason: "the turn was stopped" });
        resolve("no");
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#approvals.set(request.id, (value) => {
        signal?.removeEventListener("abort", onAbort);
        resolve(value);
      });
      this.emit({
        type: "approval",
        id: request.id,
        kind: request.kind === "modelAction" ? "model" : "command",
        words: askedWords(request),
        source: "chat",
        level: request.level,
        command: request.command,
        line: request.line,
        cwd: request.cwd,
        reasons: request.reasons,
        pattern: request.pattern,
        outsideSandbox: request.outsideSandbox,
        options,
      });
    });
    this.note(
      answer === "no"
        ? `⚠ refused: ${askedWords(request)}`
        : `⚠ approved ${scopeWords(answer)}: ${askedWords(request)}`,
      "warn",
      "approval",
    );
    return answer;
  }

  /** An answer line: resolves the approval it names; an unknown id or a wrong kind is ignored. */
  answer(id: string, decision: AnswerDecision): void {
    const resolve = this.#approvals.get(id);
    if (!resolve && this.#mcpLines?.sent(id)) {
      void this.#answerMcp(id, decision);
      return;
    }
    if (!resolve) {
      log("info", `chat: an answer for ${id}, which does not wait`);
      return;
    }
    if (decision === "keep" || decision === "drop") return;
    this.#approvals.delete(id);
    resolve(decision);
  }

  // ------------------------------------------------------------- choices

  /**
   * Offer a choice and wait for its answer: the value chosen, or null when
   * the person left it (or the input closed).
   */
  choose(
    choice: Omit<ChoiceLine, "type" | "id">,
  ): Promise<{ value: string | null; values?: string[] }> {
    if (this.#inputClosed) return Promise.resolve({ value: null });
    const id = `c${++this.#choiceCount}`;
    return new Promise((resolve) => {
      this.#choices.set(id, (value, values) => resolve({ value, ...(values ? { values } : {}) }));
      this.emit({ type: "choice", id, ...choice });
    });
  }

  // ------------------------------------------------------------- outputs

  /** Emit the turn's start line once, with `id` unless one went out; returns the id used. */
  #startTurnLine(id: string): string {
    if (this.#turnStartPending) {
      this.#turnStartPending = false;
      this.#turnStarted = id;
      this.emit({ type: "turn", phase: "start", id });
    }
    return this.#turnStarted ?? id;
  }

  /** Every audit event of the session goes out as an event line; tool activity updates the working line. */
  onAuditEvent(event: AuditEvent): void {
    if (this.#turnStartPending && typeof event.turn === "string") this.#startTurnLine(event.turn);
    this.emit({ type: "event", event: { ...event } });
    // A pull the models tool started beside the conversation ends with a note: the person sees
    // it as it arrives, whether a turn runs or the prompt waits, and the model is told of it
    // with its next turn, as of a command the person ran (no turn of its own).
    if (event.kind === "model.pull" && event.source === "tool" && typeof event.note === "string") {
      const note = event.note;
      this.note(note, event.outcome === "failed" ? "warn" : "plain", "model");
      this.conversation?.context.store.tell(() => note, event.id);
    }
    if (event.kind === "classifier.verdict" && event.by !== undefined && event.by !== "rules") {
      this.classifierCalls++;
    }
    if (event.kind === "tool.call") {
      this.setActivity(activityWords(String(event.tool), event.arguments));
    } else if (event.kind === "tool.result") {
      const text = typeof event.text === "string" ? event.text : "";
      this.keepOutput({
        id: String(event.callId ?? event.id),
        ...(typeof event.outputId === "string" ? { stored: event.outputId } : {}),
        title: `${event.tool}`,
        text,
      });
      this.setActivity("waiting for the model");
    }
  }

  /** Keep an output for /show, letting the oldest go beyond KEPT_OUTPUTS. */
  keepOutput(output: SeenOutput): void {
    pushLatest(this.outputs, output, KEPT_OUTPUTS);
  }

  /** Find an output by the start of its event id or its store id; the last one for "". */
  findOutput(id: string): SeenOutput | undefined {
    if (id === "") return this.outputs[this.outputs.length - 1];
    for (let i = this.outputs.length - 1; i >= 0; i--) {
      const o = this.outputs[i];
      if (o.id.startsWith(id) || o.stored === id || (o.stored && o.stored.startsWith(id))) return o;
    }
    return undefined;
  }

  /** The whole of an output: from the store when it was kept there, else as seen. */
  async wholeOutput(output: SeenOutput): Promise<string> {
    if (!output.stored) return output.text;
    try {
      const bytes = await this.session.outputStore.readRange(output.stored, 0, 64 * 1024 * 1024);
      return new TextDecoder().decode(bytes);
    } catch {
      return output.text;
    }
  }

  /** Answer an output line with a view of the page asked for. */
  async sendOutputPage(id: string, page: number, session?: string): Promise<void> {
    const PAGE = 64 * 1024;
    const viewId = id;
    try {
      let whole: string | undefined;
      if (session === undefined || session === this.session.id) {
        const seen = this.findOutput(id);
        if (seen) whole = await this.wholeOutput(seen);
      }
      if (whole === undefined) {
        this.emit({
          type: "view",
          id: viewId,
          kind: "output",
          title: "not found",
          text: `no output ${id} in this chat; /show lists what ran`,
          page: 1,
          pages: 1,
        });
        return;
      }
      const pages = Math.max(1, Math.ceil(whole.length / PAGE));
      const at = Math.min(page, pages);
      this.emit({
        type: "view",
        id: viewId,
        kind: "output",
        title: id,
        text: whole.slice((at - 1) * PAGE, at * PAGE),
        ...(session ? { session } : {}),
        page: at,
        pages,
      });
    } catch (error) {
      this.note(`error: ${messageOf(error)}`, "error", "error");
    }
  }

  // ------------------------------------------------- waiting in wisp mcp

  /**
   * Between prompts: a note for each request newly waiting in a wisp mcp
   * server (the first also says how to answer), and one for each seen
   * before that no longer waits, with how it ended when its server said.
   * Requests answered in this chat are not noted again.
   */
  async noteWaiting(): Promise<void> {
    if (!this.options.noteWaiting) return;
    // One module notes and answers what waits (waiting.ts): questions too, and ids answered here.
    this.#waiting ??= new WaitingInMcp({
      dir: this.options.paths.pending,
      stdinIsTerminal: this.options.inputIsTerminal,
    });
    let lines: string[];
    try {
      lines = await this.#waiting.notes();
    } catch (error) {
      log("info", `chat: cannot list ${this.options.paths.pending}: ${messageOf(error)}`);
      return;
    }
    this.waitingApprovals = this.#waiting.counts.approvals;
    this.waitingQuestions = this.#waiting.counts.questions;
    for (const line of lines) {
      this.note(line, /^[⚠?] /.test(line) ? "warn" : "muted", "waiting");
    }
  }

  /** The hello's effects: send what waits in wisp mcp as lines (approve-mcp, keep-facts, answer-questions). */
  #startMcpLines(effects: readonly string[]): void {
    if (this.#mcpLines) return;
    const lines = new McpRequestLines(
      this.options.paths.pending,
      mcpLineEffects(effects),
      (line) => {
        if (!this.#exitSent) this.emit(line);
      },
    );
    if (!lines.wanted) return;
    this.#mcpLines = lines;
    lines.start();
  }

  /**
   * An answer line or choose line for a request waiting in wisp mcp: through
   * the chat's one answering path (waiting.ts), where the server's answerer
   * check applies, so a chat that a program drives is refused with a note
   * naming the terminal command (ADR 0595). Nothing is sent for a decision
   * of the wrong kind.
   */
  async #answerMcp(id: string, decision: AnswerDecision | string | null): Promise<void> {
    const request = this.#mcpLines?.sent(id);
    if (!request) return;
    this.#waiting ??= new WaitingInMcp({
      dir: this.options.paths.pending,
      stdinIsTerminal: this.options.inputIsTerminal,
      drivenByProgram: this.options.face === "chat-json",
      via: this.via,
    });
    const audit = this.session.audit;
    let result: AnswerResult;
    if (request.kind === "fact") {
      if (decision !== "keep" && decision !== "drop") return;
      if (this.options.face !== "chat-json" && this.options.inputIsTerminal) {
        // A person at this chat's terminal (wisp-tui's dialog): the same path as /facts keep|drop ID.
        await factsCommand(this, [decision, id]);
        return;
      }
      result = this.#waiting.refuseFact(id, decision);
    } else if (request.kind === "approval") {
      if (decision === null || decision === "keep" || decision === "drop") return;
      result = await this.#waiting.answer(
        id,
        decision === "no" ? "deny" : "approve",
        decision === "no" || decision === "once" ? undefined : decision,
        audit,
      );
    } else {
      result = await this.#waiting.answerQuestion(
        id,
        decision === null ? "decline" : "answer",
        decision ?? undefined,
        audit,
      );
    }
    this.note(
      result.exitCode === 0 ? result.message : `⚠ ${result.message}`,
      result.exitCode === 0 ? "plain" : "warn",
      "approval",
    );
  }

  // -------------------------------------------------------------- status

  /** The next request's size in tokens as the context measures it (tool definitions included). */
  contextTokens(): number | undefined {
    if (!this.conversation) return undefined;
    const context = this.conversation.context;
    return context.measure(
      context.compose(),
      this.session.registry.specs([...this.conversation.tools]),
    );
  }

  /** How much of the window the next request would use, in percent. */
  contextPercent(): number | undefined {
    const tokens = this.contextTokens();
    if (tokens === undefined) return undefined;
    return Math.min(100, Math.round(tokens / this.conversation.window * 100));
  }

  /** The approval mode as the status line says it. */
  approvalMode(): string {
    if (this.options.yes) return "--yes";
    const threshold = this.config.approval.threshold;
    return threshold === "never" ? "never asks" : `approve at ${threshold}`;
  }

  emitStatus(): void {
    const root = this.session.root;
    let branch: string | undefined;
    try {
      branch = readGitState(root)?.branch;
    } catch { /* unknown: omitted */ }
    const last = this.turnTally.last;
    const percent = this.contextPercent();
    this.emit({
      type: "status",
      model: this.backend.name,
      ...(percent !== undefined ? { contextPercent: percent } : {}),
      ...(last?.condensed ? { condensed: true as const } : {}),
      cwd: root,
      ...(branch ? { branch } : {}),
      approvalMode: this.approvalMode(),
      ...(this.waitingApprovals + this.waitingQuestions > 0
        ? { waiting: { approvals: this.waitingApprovals, questions: this.waitingQuestions } }
        : {}),
      ...(last
        ? {
          last: {
            seconds: round(last.seconds),
            inputTokens: last.inputTokens,
            outputTokens: last.outputTokens,
          },
        }
        : {}),
    });
  }
}

/** How many times the engine's last turn condensed its conversation. */
function condensedCount(engine: ChatEngine): number {
  return engine.conversation.context.condensedThisTurn.length;
}

/** "for this session", "once", … */
export function scopeWords(answer: ApprovalAnswer): string {
  switch (answer) {
    case "once":
      return "once";
    case "session":
      return "for this session";
    case "project":
      return "for this project (30 days)";
    case "always":
      return "always (30 days)";
    default:
      return answer;
  }
}

function round(seconds: number): number {
  return Math.round(seconds * 10) / 10;
}

/** "3.1 s · ↓4,009 ↑79" (tokens only when the model reported them). */
export function usageText(
  seconds: number,
  usage: { inputTokens: number; outputTokens: number },
): string {
  const time = `${seconds.toFixed(1)} s`;
  if (usage.inputTokens === 0 && usage.outputTokens === 0) return time;
  return `${time} · ↓${usage.inputTokens.toLocaleString("en-US")} ↑${
    usage.outputTokens.toLocaleString("en-US")
  }`;
}
