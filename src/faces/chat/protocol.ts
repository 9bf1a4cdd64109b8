/**
 * The chat protocol: the lines a chat front end and the chat engine pass.
 *
 * The engine (engine.ts) takes *in* lines — what the person did — and emits
 * *out* lines — what there is to show. `wisp chat --json` writes the out
 * lines as JSON Lines on stdout and reads the in lines from stdin; the plain
 * terminal chat renders the same out lines for a person and turns keystrokes
 * into the same in lines. So this module is the one home of every line type;
 * docs/chat-protocol.md describes each for people writing a front end.
 *
 * Compatibility rule: a front end ignores out types and fields it does not
 * know, and the engine ignores in types it does not know (reported once
 * under WISP_LOG), so either side can grow without breaking the other.
 */

// ---------------------------------------------------------------- in lines

/** The host effects a front end can declare in its hello. */
export const HOST_EFFECTS = [
  "approve",
  "notify",
  "approve-mcp",
  "keep-facts",
  "answer-questions",
] as const;
export type HostEffect = typeof HOST_EFFECTS[number];

/** First, optionally: what the front end carries. No hello: approvals over the protocol. */
export interface HelloLine {
  type: "hello";
  /** Unknown effects are ignored. Without "approve", every approval is denied unasked. */
  effects: string[];
  client?: string;
  version?: string;
}

/** A chat line: a message to the model, a slash command, or `!cmd` / `!!cmd`. */
export interface MessageLine {
  type: "message";
  text: string;
}

/** Stop what runs: a turn or a typed command (a second one kills at once). */
export interface InterruptLine {
  type: "interrupt";
}

/** Ask for a page of a tool's whole output; answered with a `view` of kind "output". */
export interface OutputLine {
  type: "output";
  /** The event's output id, or a view's id. */
  id: string;
  /** The audit session a view named; absent for the conversation's own. */
  session?: string;
  /** From 1; absent means 1. */
  page?: number;
}

/** The answers an approval line can take ("keep"/"drop" for a fact). */
export type AnswerDecision = "once" | "session" | "project" | "always" | "no" | "keep" | "drop";

/** The answer to an approval line. */
export interface AnswerLine {
  type: "answer";
  id: string;
  decision: AnswerDecision;
}

/** The answer to a choice line: `value` (null/absent: no answer), or `values` for toggles. */
export interface ChooseLine {
  type: "choose";
  id: string;
  value?: string | null;
  values?: string[];
}

/** Ask for completions of the input at `cursor` (in Unicode scalars). */
export interface CompleteLine {
  type: "complete";
  id: string;
  text: string;
  cursor: number;
}

/** Every line a front end sends. */
export type InLine =
  | HelloLine
  | MessageLine
  | InterruptLine
  | OutputLine
  | AnswerLine
  | ChooseLine
  | CompleteLine;

// --------------------------------------------------------------- out lines

/** How a note reads: plain text, quiet (ran:, tool output), a warning, or an error. */
export type NoteTone = "plain" | "muted" | "warn" | "error";

/**
 * A line of text for the person that is not the reply: the banner, the help
 * line, a slash command's output, ran:/unsupported:, the time and tokens
 * under a reply, a warning or an error. `kind` says which, for styling.
 */
export interface NoteLine {
  type: "note";
  text: string;
  tone: NoteTone;
  kind?: NoteKind;
}
export type NoteKind =
  | "banner"
  | "help"
  | "command"
  | "ran"
  | "unsupported"
  | "usage"
  | "stopped"
  | "fallback"
  | "approval"
  | "waiting"
  /** The turn condensed the conversation to fit the model's window. */
  | "condensed"
  /** A model pull the models tool started has ended (pulled, failed or cancelled). */
  | "model"
  | "error";

/** What the status line shows above every prompt; each part absent when unknown. */
export interface StatusLine {
  type: "status";
  model: string;
  /** Percent of the model's window the conversation uses. */
  contextPercent?: number;
  /** The last turn condensed the conversation to fit the window (absent when it did not). */
  condensed?: true;
  cwd: string;
  branch?: string;
  /** Lines added and removed in tracked files since the last commit. */
  added?: number;
  removed?: number;
  /** "approve at moderate", "never asks", "--yes". */
  approvalMode: string;
  /** The last turn's seconds and tokens, once there was one. */
  last?: { seconds: number; inputTokens: number; outputTokens: number };
  /** How many requests wait for the person (approvals in wisp mcp, questions). */
  waiting?: { approvals: number; questions: number };
}

/** A turn begins (phase "start") or ends (phase "end"). */
export interface TurnLine {
  type: "turn";
  phase: "start" | "end";
  /** The turn's audit id. */
  id: string;
  /** End only: how it ended. */
  outcome?: "replied" | "stopped" | "failed" | "round-limit";
  seconds?: number;
  inputTokens?: number;
  outputTokens?: number;
  /** End only: the ran: line, the unsupported: line, the error. */
  ran?: string | null;
  unsupported?: string | null;
  /** End only: the turn condensed the conversation to fit the window (absent when it did not). */
  condensed?: true;
  error?: string;
}

/** A piece of the reply as it streams; an empty text ends the reply. `thinking` for reasoning. */
export interface DeltaLine {
  type: "delta";
  text: string;
  thinking?: boolean;
}

/** An audit event of this session as it is recorded (tool.call, tool.result, command.typed, …). */
export interface EventLine {
  type: "event";
  event: Record<string, unknown> & { kind: string; id: string };
}

/** The scopes an approval may be answered with, in the order offered. */
export type ApprovalScope = "once" | "session" | "project" | "always" | "no";

/** A request for the person's decision: a command to approve, or a fact to keep. */
export interface ApprovalLine {
  type: "approval";
  id: string;
  /**
   * What waits: a command to run, a fact to keep, or a model action (the
   * models tool's pull, enable, disable or check; ADR 0625), which is
   * answered once or no.
   */
  kind: "command" | "fact" | "model";
  /**
   * What it asks in words, as the dialog's first line: the command, the
   * fact's `name = value`, or a model action as what it is (`pull model
   * ollama:qwen3:8b (downloads …)`), never its gate line alone.
   */
  words: string;
  /** "chat": this conversation's; "mcp": waiting in a wisp mcp server. */
  source: "chat" | "mcp";
  level: "safe" | "moderate" | "dangerous";
  /** The part asked about, and the whole line it belongs to. */
  command: string;
  line: string;
  cwd: string;
  reasons: string[];
  /** What the answer is remembered under. */
  pattern: string;
  outsideSandbox: boolean;
  /** The answers offered ("once" and "no" only outside the sandbox). */
  options: AnswerDecision[];
  /** For source "mcp": which client and thread it waits for. */
  client?: string;
  thread?: string;
}

/** One option of a choice. */
export interface ChoiceOption {
  value: string;
  label?: string;
  /** The value in force. */
  current?: boolean;
}

/** A choice for the person: a setting's value, a model, a question the model asks. */
export interface ChoiceLine {
  type: "choice";
  id: string;
  kind: "setting" | "model" | "question" | "pick";
  title: string;
  options: ChoiceOption[];
  /** A typed value is accepted besides the options. */
  typed?: boolean;
  /** Several options may be on at once: answered with `values`. */
  toggles?: boolean;
  source?: "chat" | "mcp";
}

/** A notification for the front end to post (only when its hello declared "notify"). */
export interface NotifyLine {
  type: "notify";
  title: string;
  body: string;
  subtitle?: string;
}

/** An approval or choice no longer waits (answered elsewhere, timed out, server gone). */
export interface WithdrawnLine {
  type: "withdrawn";
  id: string;
  reason: string;
}

/** One completion of the input. */
export interface Completion {
  /** The text replacing the input from `from` to the cursor. */
  text: string;
  detail?: string;
}

/** The answer to a complete line. */
export interface CompletionsLine {
  type: "completions";
  id: string;
  /** Where the replaced word starts, in Unicode scalars. */
  from: number;
  items: Completion[];
}

/** Something whole to show in a panel: a page of a tool's output, or a slash command's text. */
export interface ViewLine {
  type: "view";
  id: string;
  kind: "output" | "text";
  title: string;
  text: string;
  session?: string;
  page?: number;
  pages?: number;
}

/** What runs now (the working line), or null when nothing runs any more. */
export interface ActivityLine {
  type: "activity";
  activity: {
    kind: "turn" | "command";
    /** "waiting for the model", "running git status", "stopping the turn", … */
    text: string;
    /** When it began, in ms since the epoch. */
    since: number;
    stopping?: boolean;
  } | null;
}

/** The engine is done; the process exits with `code`. */
export interface ExitLine {
  type: "exit";
  code: number;
}

/** Every line the engine emits. */
export type OutLine =
  | NoteLine
  | StatusLine
  | TurnLine
  | DeltaLine
  | EventLine
  | ApprovalLine
  | ChoiceLine
  | NotifyLine
  | WithdrawnLine
  | CompletionsLine
  | ViewLine
  | ActivityLine
  | ExitLine;

// ----------------------------------------------------------------- reading

/** Which in types the engine knows. */
const IN_TYPES = new Set([
  "hello",
  "message",
  "interrupt",
  "output",
  "answer",
  "choose",
  "complete",
]);

/** What a line of input is: a known in line, or an object of a type the engine does not know. */
export type ParsedIn = { line: InLine } | { unknown: string };

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/**
 * Read one line of input. A line that is not a JSON object is a message (so
 * the protocol can be driven by hand); an object of an unknown type, or a
 * known type missing what it needs, is `unknown` and is ignored by the engine.
 */
export function parseInLine(raw: string): ParsedIn {
  const trimmed = raw.replace(/\r$/, "");
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return { line: { type: "message", text: trimmed } };
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return { line: { type: "message", text: trimmed } };
  }
  const o = value as Record<string, unknown>;
  const type = text(o.type) ?? "";
  if (!IN_TYPES.has(type)) return { unknown: type || "(no type)" };
  switch (type) {
    case "hello":
      return {
        line: {
          type,
          effects: Array.isArray(o.effects) ? o.effects.filter((e) => typeof e === "string") : [],
          ...(text(o.client) ? { client: text(o.client) } : {}),
          ...(text(o.version) ? { version: text(o.version) } : {}),
        },
      };
    case "message":
      return text(o.text) === undefined
        ? { unknown: "message without text" }
        : { line: { type, text: text(o.text)! } };
    case "interrupt":
      return { line: { type } };
    case "output": {
      const id = text(o.id);
      if (!id) return { unknown: "output without id" };
      const page = typeof o.page === "number" && Number.isInteger(o.page) && o.page >= 1
        ? o.page
        : 1;
      return {
        line: { type, id, page, ...(text(o.session) ? { session: text(o.session) } : {}) },
      };
    }
    case "answer": {
      const id = text(o.id);
      const decision = text(o.decision);
      const decisions = ["once", "session", "project", "always", "no", "keep", "drop"];
      if (!id || !decision || !decisions.includes(decision)) {
        return { unknown: "answer without id or decision" };
      }
      return { line: { type, id, decision: decision as AnswerDecision } };
    }
    case "choose": {
      const id = text(o.id);
      if (!id) return { unknown: "choose without id" };
      const values = Array.isArray(o.values)
        ? o.values.filter((v): v is string => typeof v === "string")
        : undefined;
      return {
        line: {
          type,
          id,
          value: typeof o.value === "string" ? o.value : null,
          ...(values ? { values } : {}),
        },
      };
    }
    case "complete": {
      const id = text(o.id) ?? "";
      const input = text(o.text) ?? "";
      const cursor = typeof o.cursor === "number" && o.cursor >= 0
        ? Math.floor(o.cursor)
        : [...input].length;
      return { line: { type, id, text: input, cursor } };
    }
  }
  return { unknown: type };
}

/** One out line as the JSON Lines face writes it (no newline). */
export function encodeOutLine(line: OutLine): string {
  return JSON.stringify(line);
}
