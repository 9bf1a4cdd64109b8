/**
 * The approval dialog at a terminal: what the gate asks (level, command, the
 * whole line when the command is one part of it, directory, reasons, the
 * pattern an answer is remembered under) drawn on stderr, and one key line
 * answered with a single key, no Enter:
 *
 *   [y]once [s]ession [p]roject 30d [a]lways 30d [n]o
 *
 * A dangerous command is offered only once and session (the gate remembers
 * it no longer); a command outside the sandbox only `[y]once [n]o`, under
 * `⚠ approve OUTSIDE the sandbox` and `never remembered`; a model action
 * (the models tool's pull, enable, disable, check) likewise, under
 * `⚠ approve a model action` and its words. `n`, Enter, Ctrl-C,
 * Ctrl-D and the end of input refuse; any other key is ignored.
 *
 * It is the ApprovalHost of every face at a terminal: the plain chat and the
 * one-job subcommands (`wisp triage -- cmd`, `watch`, `draft`). A face whose
 * standard input is not a terminal has no host (`terminalApprovalHost`
 * returns undefined), so piped input can never answer: the gate refuses
 * what it would ask, saying no one can be asked.
 */
import type { ApprovalAnswer, ApprovalHost, ApprovalRequest } from "../../gate/gate.ts";
import { askedWords } from "../../gate/pending.ts";
import { PLAIN_TONES, type Tones } from "./tones.ts";
import { type Key, type TerminalInput, terminalInput } from "./input.ts";

/** The key and words of each answer, in the order the key line shows them. */
const CHOICES: { answer: ApprovalAnswer; key: string; label: string }[] = [
  { answer: "once", key: "y", label: "[y]once" },
  { answer: "session", key: "s", label: "[s]ession" },
  { answer: "project", key: "p", label: "[p]roject 30d" },
  { answer: "always", key: "a", label: "[a]lways 30d" },
  { answer: "no", key: "n", label: "[n]o" },
];

/** A reason is shortened to this many characters on its line. */
const REASON_WIDTH = 110;

/**
 * The answers the dialog offers for a request: once and no outside the
 * sandbox, else what the gate lets it remember. wisp-tui's dialog asks the
 * same of an approval line, so it takes only the two fields it reads.
 */
export function offered(
  request: Pick<ApprovalRequest, "outsideSandbox" | "rememberable">,
): ApprovalAnswer[] {
  if (request.outsideSandbox) return ["once", "no"];
  const allowed = new Set<ApprovalAnswer>([...request.rememberable, "no"]);
  return CHOICES.map((c) => c.answer).filter((a) => allowed.has(a));
}

/** The one key line for the answers offered. Pure. */
export function keyLine(answers: ApprovalAnswer[]): string {
  return CHOICES.filter((c) => answers.includes(c.answer)).map((c) => c.label).join(" ");
}

/**
 * The answer a typed letter gives among those offered (`y`, `s`, `p`, `a`,
 * `n`, either case); undefined for any other letter. Pure; wisp-tui's
 * dialog reads its letters here too, so both dialogs take the same keys.
 */
export function answerForLetter(
  letter: string,
  answers: ApprovalAnswer[],
): ApprovalAnswer | undefined {
  const choice = CHOICES.find((c) => c.key === letter.toLowerCase());
  return choice && answers.includes(choice.answer) ? choice.answer : undefined;
}

/** The answer a key gives among those offered; "refuse" for a key that refuses; undefined to keep waiting. Pure. */
export function answerOf(key: Key, answers: ApprovalAnswer[]): ApprovalAnswer | undefined {
  switch (key.kind) {
    case "enter":
    case "interrupt":
    case "eof-key":
    case "end":
      return "no";
    case "other":
      return undefined;
    case "char":
      return answerForLetter(key.char, answers);
  }
}

function shorten(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

/** `/home/me/src` as `~/src` when it is under the person's home. */
export function tildePath(path: string, home = Deno.env.get("HOME")): string {
  if (!home || home === "/") return path;
  if (path === home) return "~";
  return path.startsWith(home + "/") ? `~${path.slice(home.length)}` : path;
}

/** The dialog's lines, before the key line. Pure given the palette. */
export function dialogLines(request: ApprovalRequest, colour: Tones): string[] {
  const levelTone = request.level === "dangerous" ? colour.bad : colour.warn;
  const lines: string[] = [];
  const modelAction = request.kind === "modelAction";
  if (modelAction) {
    // Named as what it does (pull model …), not as the line the gate judged (ADR 0625).
    lines.push(
      `${levelTone("⚠ approve a model action")} (${request.level}): ${
        colour.bold(askedWords(request))
      }`,
    );
  } else if (request.outsideSandbox) {
    lines.push(
      `${colour.bad("⚠ approve OUTSIDE the sandbox")} (${request.level}): ${request.command}`,
    );
  } else {
    lines.push(`${levelTone(`⚠ ${request.level}`)}: ${colour.bold(request.command)}`);
  }
  if (!modelAction && request.line.trim() !== request.command.trim()) {
    lines.push(`  line: ${request.line}`);
  }
  lines.push(`  in: ${tildePath(request.cwd)}`);
  for (const reason of request.reasons) lines.push(`  · ${shorten(reason, REASON_WIDTH)}`);
  lines.push(
    request.outsideSandbox || modelAction
      ? "  never remembered: asked every time"
      : `  remembered as: ${request.pattern}`,
  );
  return lines;
}

/** The line written once an answer is given (wisp-tui's scrollback line too). Pure. */
export function answeredLine(
  answer: ApprovalAnswer,
  request: Pick<ApprovalRequest, "command">,
): string {
  const what: Record<ApprovalAnswer, string> = {
    once: "approved once",
    session: "approved for this session",
    project: "approved for this project (30 days)",
    always: "approved always (30 days)",
    no: "refused",
  };
  return `⚠ ${what[answer]}: ${askedWords(request)}`;
}

/** Where the dialog writes, stderr in use. */
export type DialogWriter = (text: string) => void;

export interface TerminalDialogOptions {
  input?: TerminalInput;
  write?: DialogWriter;
  colour?: Tones;
  /**
   * Called before the dialog is drawn and after it is answered, so a face
   * can erase and redraw its working line around it.
   */
  around?: { before?(): void; after?(): void };
}

/** The approval dialog as an ApprovalHost. */
export class TerminalApprovalHost implements ApprovalHost {
  readonly #input: TerminalInput;
  readonly #write: DialogWriter;
  readonly #colour: Tones;
  readonly #around: TerminalDialogOptions["around"];
  /** One dialog at a time: a second request waits for the first to be answered. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: TerminalDialogOptions = {}) {
    this.#input = options.input ?? terminalInput();
    this.#write = options.write ?? writeStderr;
    this.#colour = options.colour ?? PLAIN_TONES;
    this.#around = options.around;
  }

  approve(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalAnswer> {
    const turn = this.#queue.then(async () => {
      if (signal?.aborted) return "no" as const;
      this.#around?.before?.();
      const answer = await askOnTerminal(request, {
        input: this.#input,
        write: this.#write,
        colour: this.#colour,
        ...(signal ? { signal } : {}),
      });
      this.#write(`${this.#colour.dim(answeredLine(answer, request))}\n`);
      this.#around?.after?.();
      return answer;
    });
    this.#queue = turn.catch(() => {});
    return turn;
  }
}

/**
 * Draw the dialog and read keys until one answers; returns the answer (the
 * caller says what became of it). An abort, like the end of input, refuses.
 */
export async function askOnTerminal(
  request: ApprovalRequest,
  options: { input: TerminalInput; write: DialogWriter; colour: Tones; signal?: AbortSignal },
): Promise<ApprovalAnswer> {
  const { input, write, colour, signal } = options;
  const answers = offered(request);
  const lines = dialogLines(request, colour);
  write(`${lines.join("\n")}\n  ${colour.warn(keyLine(answers))} › `);
  let answer: ApprovalAnswer | undefined;
  while (answer === undefined) answer = answerOf(await input.readKey(signal), answers);
  write(`${CHOICES.find((c) => c.answer === answer)!.key}\n`);
  return answer;
}

function writeStderr(text: string): void {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  try {
    while (offset < bytes.length) offset += Deno.stderr.writeSync(bytes.subarray(offset));
  } catch { /* stderr closed: the answer still counts */ }
}

/**
 * The dialog for this process when a person can answer it: standard input
 * and standard error are terminals. Undefined otherwise (piped input, a
 * closed stdin), so that what needs asking is refused.
 */
export function terminalApprovalHost(
  options: TerminalDialogOptions = {},
): TerminalApprovalHost | undefined {
  if (!Deno.stdin.isTerminal() || !Deno.stderr.isTerminal()) return undefined;
  return new TerminalApprovalHost(options);
}
