/**
 * wisp-tui's dialogs as state: the approvals, facts to keep, choices and
 * questions the chat engine sends, one shown at a time and the rest waiting
 * in arrival order, and what each key does to the one shown. Nothing here
 * draws (dialog_view.ts does) or reads the clock (it is passed in), so every
 * decision can be tested with a fake clock.
 *
 * The rules, from the spec's approval dialog:
 * - A request waiting in wisp mcp (`source: "mcp"`) that arrives while the
 *   input box has text is parked: it does not take the box. The app prints
 *   `parkedNote(line)`, the status bar counts it, and it opens once the
 *   input is emptied (`inputEmptied`) or from the status bar
 *   (`openParked`).
 * - The half-second guard: a dialog takes keys only once the keyboard has
 *   been quiet for `guardMs` since it appeared. A key pressed sooner was
 *   meant for the input box (the person was typing when it came up): it is
 *   `held` for the box, and the quiet starts again from it. Ctrl-C and
 *   Ctrl-D answer at once, guard or not: they refuse a command, drop a
 *   fact, and leave a choice without an answer.
 *
 * Where the spec is silent we follow what people used to Claude Code's and
 * Codex's dialogs expect: Esc refuses an approval and drops a fact, as it
 * leaves a choice without an answer; Enter alone does not answer an
 * approval (a deliberate letter does); in a choice that accepts a typed
 * value, digits are typed text rather than picks, so `20` can be typed.
 */
import type {
  AnswerDecision,
  AnswerLine,
  ApprovalLine,
  ChoiceLine,
  ChooseLine,
} from "../chat/protocol.ts";
import type { ApprovalAnswer } from "../../gate/gate.ts";
import { answeredLine, answerForLetter, offered } from "../terminal/approval_dialog.ts";
import { isCtrl, isNamed, type Key } from "./key.ts";

/** A command to approve, with the answers its dialog offers in key-line order. */
export interface ApprovalDialog {
  kind: "approval";
  line: ApprovalLine;
  answers: ApprovalAnswer[];
}

/** A fact a wisp mcp caller asks to keep: `[k]eep [d]rop`. */
export interface FactDialog {
  kind: "fact";
  line: ApprovalLine;
}

/** A choice or a question: a picker with a selection, a typed value, and the toggles on. */
export interface ChoiceDialog {
  kind: "choice";
  line: ChoiceLine;
  /** The index of the selected option. */
  selected: number;
  /** What is typed into the picker's line (choices with `typed: true`). */
  typed: string;
  /** The values toggled on (choices with `toggles: true`), in option order. */
  on: string[];
}

/** The dialog shown, as the view draws it. */
export type OpenDialog = ApprovalDialog | FactDialog | ChoiceDialog;

/** What a key did to the dialog shown. */
export type DialogKeyResult =
  /** Answered: send `send` to the engine, print `record` in the scrollback; the dialog closed. */
  | { kind: "answer"; send: AnswerLine | ChooseLine; record: string }
  /** Pressed inside the guard: the key belongs to the input box. */
  | { kind: "held" }
  /** The selection or the typed value changed: redraw. */
  | { kind: "moved" }
  /** Nothing to do with this key (or nothing is open). */
  | { kind: "ignored" };

/** What became of an offered line. */
export type OfferOutcome = "shown" | "queued" | "parked";

/** The options of a DialogQueue. */
export interface DialogQueueOptions {
  /** The clock, in ms (Date.now in use). */
  now: () => number;
  /** How long the keyboard must be quiet before a dialog takes keys; 500 ms. */
  guardMs?: number;
}

interface Entry {
  dialog: OpenDialog;
  parked: boolean;
}

const SCOPES: readonly ApprovalAnswer[] = ["once", "session", "project", "always", "no"];

/** The answers an approval line's dialog offers: `once` and `no` outside the sandbox. Pure. */
export function offeredAnswers(line: ApprovalLine): ApprovalAnswer[] {
  const rememberable = line.options.filter((o): o is ApprovalAnswer =>
    (SCOPES as readonly AnswerDecision[]).includes(o)
  );
  return offered({ outsideSandbox: line.outsideSandbox, rememberable });
}

/** What a line asks about, in a few words: the command, the fact, or the choice's title. */
export function subjectOf(line: ApprovalLine | ChoiceLine): string {
  return line.type === "approval" ? (line.words || line.command) : line.title;
}

/** The note printed when a request from wisp mcp is parked. Pure. */
export function parkedNote(line: ApprovalLine | ChoiceLine): string {
  return `⚠ waiting in wisp mcp: ${
    subjectOf(line)
  } · its dialog opens when the input is empty, or from the status bar`;
}

/** The dialog state for a line, as it first appears. Pure. */
export function dialogFor(line: ApprovalLine | ChoiceLine): OpenDialog {
  if (line.type === "approval") {
    return line.kind === "fact"
      ? { kind: "fact", line }
      : { kind: "approval", line, answers: offeredAnswers(line) };
  }
  const current = line.options.findIndex((o) => o.current);
  return {
    kind: "choice",
    line,
    selected: Math.max(0, current),
    typed: "",
    on: line.toggles ? line.options.filter((o) => o.current).map((o) => o.value) : [],
  };
}

/** One dialog shown at a time, the rest queued or parked; see the module comment. */
export class DialogQueue {
  readonly #now: () => number;
  readonly #guardMs: number;
  #shown: Entry | undefined;
  /** When the guard's quiet began: the dialog appearing, or the last key held. */
  #quietSince = 0;
  /** Queued and parked entries, in arrival order. */
  #waiting: Entry[] = [];

  constructor(options: DialogQueueOptions) {
    this.#now = options.now;
    this.#guardMs = options.guardMs ?? 500;
  }

  /** Whether a dialog is shown. */
  get isOpen(): boolean {
    return this.#shown !== undefined;
  }

  /** The dialog shown, if any. */
  current(): Readonly<OpenDialog> | undefined {
    return this.#shown?.dialog;
  }

  /** When the dialog shown starts taking keys (ms, the clock's), so the app redraws its keys line then. */
  guardEndsAt(): number | undefined {
    return this.#shown ? this.#quietSince + this.#guardMs : undefined;
  }

  /** Whether the dialog shown takes keys now (its keys line drawn live rather than dim). */
  live(): boolean {
    const ends = this.guardEndsAt();
    return ends !== undefined && this.#now() >= ends;
  }

  /**
   * A line from the engine. It is shown when nothing is; else it queues,
   * unless it waits in wisp mcp and the input box has text: then it is
   * parked (print `parkedNote(line)`). A line already held is left as it is.
   */
  offer(line: ApprovalLine | ChoiceLine, inputHasText: boolean): OfferOutcome {
    const known = this.#find(line.id);
    if (known) return known === this.#shown ? "shown" : known.parked ? "parked" : "queued";
    const entry: Entry = { dialog: dialogFor(line), parked: false };
    if (line.source === "mcp" && inputHasText) {
      entry.parked = true;
      this.#waiting.push(entry);
      return "parked";
    }
    if (this.#shown) {
      this.#waiting.push(entry);
      return "queued";
    }
    this.#show(entry);
    return "shown";
  }

  /** The input box became empty (sent or cleared): parked dialogs queue, the first opens. True when one opened. */
  inputEmptied(): boolean {
    for (const entry of this.#waiting) entry.parked = false;
    return this.#showNext();
  }

  /**
   * The status bar's approvals item: the earliest parked dialog opens now
   * (or queues behind the one shown); the others stay parked, each opened in
   * turn from the bar. True when one opened.
   */
  openParked(): boolean {
    const first = this.#waiting.find((e) => e.parked);
    if (!first) return false;
    first.parked = false;
    return this.#showNext();
  }

  /**
   * A request no longer waits (answered elsewhere, timed out): closed
   * wherever it is, with the scrollback line to print; undefined when it is
   * not held here.
   */
  withdraw(id: string, reason: string): string | undefined {
    const entry = this.#find(id);
    if (!entry) return undefined;
    if (entry === this.#shown) {
      this.#shown = undefined;
      this.#showNext();
    } else {
      this.#waiting = this.#waiting.filter((e) => e !== entry);
    }
    return `⚠ no longer waiting: ${reason}`;
  }

  /** Requests held (shown, queued and parked): approvals (facts too) and the model's questions. */
  counts(): { approvals: number; questions: number } {
    const all = [...(this.#shown ? [this.#shown] : []), ...this.#waiting];
    return {
      approvals: all.filter((e) => e.dialog.kind !== "choice").length,
      questions: all.filter((e) => e.dialog.kind === "choice" && e.dialog.line.kind === "question")
        .length,
    };
  }

  /** A key while a dialog may be shown; see DialogKeyResult. */
  key(key: Key): DialogKeyResult {
    const entry = this.#shown;
    if (!entry) return { kind: "ignored" };
    const dialog = entry.dialog;
    if (isCtrl(key, "c") || isCtrl(key, "d")) return this.#answer(refusal(dialog));
    if (!this.live()) {
      this.#quietSince = this.#now();
      return { kind: "held" };
    }
    switch (dialog.kind) {
      case "approval":
        return this.#answerOrIgnore(approvalKey(dialog, key));
      case "fact":
        return this.#answerOrIgnore(factKey(dialog, key));
      case "choice": {
        const step = choiceKey(dialog, key);
        if (step === undefined) return { kind: "ignored" };
        if ("send" in step) return this.#answer(step);
        entry.dialog = step;
        return { kind: "moved" };
      }
    }
  }

  #answerOrIgnore(answer: DialogAnswer | undefined): DialogKeyResult {
    return answer ? this.#answer(answer) : { kind: "ignored" };
  }

  #answer(answer: DialogAnswer): DialogKeyResult {
    this.#shown = undefined;
    this.#showNext();
    return { kind: "answer", ...answer };
  }

  #find(id: string): Entry | undefined {
    if (this.#shown?.dialog.line.id === id) return this.#shown;
    return this.#waiting.find((e) => e.dialog.line.id === id);
  }

  #show(entry: Entry): void {
    this.#shown = entry;
    this.#quietSince = this.#now();
  }

  /** With nothing shown, the earliest entry not parked opens. True when one did. */
  #showNext(): boolean {
    if (this.#shown) return false;
    const next = this.#waiting.find((e) => !e.parked);
    if (!next) return false;
    this.#waiting = this.#waiting.filter((e) => e !== next);
    this.#show(next);
    return true;
  }
}

/** An answer: the line to send the engine and the one scrollback line. */
export interface DialogAnswer {
  send: AnswerLine | ChooseLine;
  record: string;
}

/** How Ctrl-C answers: refuse, drop, no answer. Pure. */
function refusal(dialog: OpenDialog): DialogAnswer {
  switch (dialog.kind) {
    case "approval":
      return approvalAnswer(dialog, "no");
    case "fact":
      return factAnswer(dialog, "drop");
    case "choice":
      return choiceAnswer(dialog, null);
  }
}

function approvalAnswer(dialog: ApprovalDialog, decision: ApprovalAnswer): DialogAnswer {
  return {
    send: { type: "answer", id: dialog.line.id, decision },
    record: answeredLine(decision, dialog.line),
  };
}

function factAnswer(dialog: FactDialog, decision: "keep" | "drop"): DialogAnswer {
  return {
    send: { type: "answer", id: dialog.line.id, decision },
    record: decision === "keep"
      ? `⚠ kept as a permanent fact: ${dialog.line.command}`
      : `⚠ dropped: ${dialog.line.command}`,
  };
}

/** The answer to a choice: a value (null: no answer), or the toggles' values. */
function choiceAnswer(
  dialog: ChoiceDialog,
  value: string | null | { values: string[] },
): DialogAnswer {
  const { line } = dialog;
  const labelOf = (v: string) => line.options.find((o) => o.value === v)?.label ?? v;
  if (value !== null && typeof value === "object") {
    const words = value.values.length === 0 ? "none" : value.values.map(labelOf).join(", ");
    return {
      send: { type: "choose", id: line.id, values: value.values },
      record: `? ${line.title}: ${words}`,
    };
  }
  return {
    send: { type: "choose", id: line.id, value },
    record: `? ${line.title}: ${value === null ? "no answer" : labelOf(value)}`,
  };
}

/** The one character a text key typed, or undefined for several or none. */
function singleChar(key: Key): string | undefined {
  if (key.kind !== "text") return undefined;
  const chars = [...key.text];
  return chars.length === 1 ? chars[0] : undefined;
}

/** What a key answers to a command's approval, if anything. Pure. */
function approvalKey(dialog: ApprovalDialog, key: Key): DialogAnswer | undefined {
  if (isNamed(key, "escape")) return approvalAnswer(dialog, "no");
  const char = singleChar(key);
  const decision = char ? answerForLetter(char, dialog.answers) : undefined;
  return decision ? approvalAnswer(dialog, decision) : undefined;
}

/** What a key answers to a fact: k keeps, d (or Esc) drops. Pure. */
function factKey(dialog: FactDialog, key: Key): DialogAnswer | undefined {
  if (isNamed(key, "escape")) return factAnswer(dialog, "drop");
  const char = singleChar(key)?.toLowerCase();
  if (char === "k") return factAnswer(dialog, "keep");
  if (char === "d") return factAnswer(dialog, "drop");
  return undefined;
}

/** Printable text for the picker's typed line: newlines become spaces, control characters go. */
function printable(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/\r?\n/g, " ").replace(/[\x00-\x1f\x7f]/g, "");
}

/**
 * What a key does to a picker: the dialog's next state (moved), an answer,
 * or undefined when the key does nothing here. Pure.
 */
export function choiceKey(dialog: ChoiceDialog, key: Key): ChoiceDialog | DialogAnswer | undefined {
  const { line } = dialog;
  const last = line.options.length - 1;
  const select = (index: number) =>
    last < 0 || index === dialog.selected ? undefined : { ...dialog, selected: index };
  const toggle = (index: number): ChoiceDialog => {
    const value = line.options[index].value;
    const on = dialog.on.includes(value)
      ? dialog.on.filter((v) => v !== value)
      : [...dialog.on, value];
    // Kept in option order, so the values sent read as the list does.
    const ordered = line.options.map((o) => o.value).filter((v) => on.includes(v));
    return { ...dialog, selected: index, on: ordered };
  };

  if (isNamed(key, "escape")) return choiceAnswer(dialog, null);
  if (isNamed(key, "up")) return select(Math.max(0, dialog.selected - 1));
  if (isNamed(key, "down")) return select(Math.min(last, dialog.selected + 1));
  if (isNamed(key, "home")) return select(0);
  if (isNamed(key, "end")) return select(last);
  if (isNamed(key, "enter")) {
    if (line.typed && dialog.typed.trim() !== "") return choiceAnswer(dialog, dialog.typed.trim());
    if (line.toggles) return choiceAnswer(dialog, { values: dialog.on });
    if (last >= 0) return choiceAnswer(dialog, line.options[dialog.selected].value);
    return undefined;
  }
  if (isNamed(key, "backspace")) {
    if (!line.typed || dialog.typed === "") return undefined;
    return { ...dialog, typed: [...dialog.typed].slice(0, -1).join("") };
  }
  if (key.kind !== "text" && key.kind !== "paste") return undefined;
  if (line.toggles && key.text === " " && dialog.typed === "" && last >= 0) {
    return toggle(dialog.selected);
  }
  if (line.typed) {
    const text = printable(key.text);
    return text === "" ? undefined : { ...dialog, typed: dialog.typed + text };
  }
  const char = singleChar(key);
  if (char && /^[1-9]$/.test(char)) {
    const index = Number(char) - 1;
    if (index > last) return undefined;
    return line.toggles ? toggle(index) : choiceAnswer(dialog, line.options[index].value);
  }
  return undefined;
}
