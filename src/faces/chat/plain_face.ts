/**
 * A minimal line renderer for `wisp chat` without --json: the engine's out
 * lines as text (the reply on stdout, everything else on stderr) and each
 * line read from stdin as a message. It is the stand-in until the full
 * plain chat (the single-key approval dialog, colour, the working line)
 * replaces it; both speak only the protocol's lines.
 *
 * An approval is asked only when stdin is a terminal (the engine refuses
 * it unasked otherwise, so piped input can never answer one): the next line
 * typed is the answer, y/s/p/a/n, anything else refusing.
 */
import type { ChatEngine } from "./engine.ts";
import type { ApprovalLine, ChoiceLine, OutLine } from "./protocol.ts";
import { inputLines } from "./json_face.ts";
import { foldOutput } from "./fold.ts";

export interface PlainIO {
  out(text: string): void;
  err(text: string): void;
}

const KEYS: Record<string, "once" | "session" | "project" | "always" | "no"> = {
  y: "once",
  s: "session",
  p: "project",
  a: "always",
  n: "no",
};

/** The plain renderer's state: what waits for the next typed line. */
export class PlainRenderer {
  #approval: ApprovalLine | undefined;
  #choice: ChoiceLine | undefined;
  #midReply = false;

  constructor(readonly io: PlainIO, readonly shownOutputLines: number) {}

  /** Whether the next typed line answers something rather than being a message. */
  get waiting(): boolean {
    return this.#approval !== undefined || this.#choice !== undefined;
  }

  render(line: OutLine): void {
    const err = (text: string) => this.io.err(text + "\n");
    switch (line.type) {
      case "delta":
        if (line.thinking) return;
        if (line.text === "") {
          if (this.#midReply) this.io.out("\n");
          this.#midReply = false;
          return;
        }
        this.#midReply = !line.text.endsWith("\n");
        this.io.out(line.text);
        return;
      case "note":
        err(line.text);
        return;
      case "status":
        err(
          `${line.model}${
            line.contextPercent !== undefined ? `:${line.contextPercent}% used` : ""
          } · ${line.cwd}${line.branch ? `:${line.branch}` : ""}   ${line.approvalMode}`,
        );
        this.io.err("> ");
        return;
      case "event":
        this.#event(line.event);
        return;
      case "approval":
        this.#approval = line;
        if (line.kind === "model") {
          // A model action is named as what it is, and taken once or not at all.
          err(`⚠ approve a model action (${line.level}): ${line.words}`);
          for (const reason of line.reasons) err(`  · ${reason.slice(0, 110)}`);
          err("  never remembered");
          this.io.err("[y]once [n]o ");
          return;
        }
        err(
          `${line.outsideSandbox ? "⚠ approve OUTSIDE the sandbox" : line.level}: ${line.command}`,
        );
        if (line.line !== line.command) err(`  in: ${line.line}`);
        err(`  directory: ${line.cwd}`);
        for (const reason of line.reasons) err(`  · ${reason.slice(0, 110)}`);
        if (!line.outsideSandbox) err(`  remembered as: ${line.pattern}`);
        else err("  never remembered");
        this.io.err(
          line.outsideSandbox
            ? "[y]once [n]o "
            : "[y]once [s]ession [p]roject 30d [a]lways 30d [n]o ",
        );
        return;
      case "choice":
        this.#choice = line;
        err(line.title);
        line.options.forEach((o, i) =>
          err(`  ${i + 1}. ${o.value}${o.label ? `  ${o.label}` : ""}${o.current ? " *" : ""}`)
        );
        this.io.err("a number or a value, Enter leaves it: ");
        return;
      case "withdrawn":
        if (this.#approval?.id === line.id) this.#approval = undefined;
        if (this.#choice?.id === line.id) this.#choice = undefined;
        err(`⚠ no longer waiting: ${line.reason}`);
        return;
      case "view":
        err(`── ${line.title}`);
        this.io.err(line.text.endsWith("\n") || line.text === "" ? line.text : line.text + "\n");
        return;
      default:
        return;
    }
  }

  #event(event: Record<string, unknown>): void {
    const err = (text: string) => this.io.err(text + "\n");
    const showOutput = (text: string, id: string) => {
      const folded = foldOutput(text, this.shownOutputLines, id.slice(0, 8));
      for (const l of folded.lines) err(`    ${l}`);
      if (folded.fold) err(`    ${folded.fold}`);
    };
    if (event.kind === "tool.call") {
      const args = event.arguments as Record<string, unknown> | undefined;
      const what = typeof args?.command === "string"
        ? args.command
        : typeof args?.path === "string"
        ? args.path
        : "";
      err(`⚙ ${event.tool}${what ? ` ${what}` : ""}`);
    } else if (event.kind === "tool.result") {
      const text = typeof event.text === "string" ? event.text : "";
      const [first, ...rest] = text.split("\n");
      err(`↳ ${first}`);
      showOutput(rest.join("\n"), String(event.callId ?? event.id));
    } else if (event.kind === "command.typed") {
      const stopped = event.stopped === true;
      err(`↳ exit ${event.exitStatus ?? "-"}${stopped ? " (stopped by you)" : ""}`);
      showOutput(typeof event.output === "string" ? event.output : "", String(event.id));
    }
  }

  /** A typed line that answers what waits: the answer line to send, or null when nothing waits. */
  answerFor(text: string): import("./protocol.ts").InLine | null {
    const trimmed = text.trim();
    if (this.#approval) {
      const approval = this.#approval;
      this.#approval = undefined;
      const decision = KEYS[trimmed.toLowerCase()] ?? "no";
      const allowed = approval.options.includes(decision) ? decision : "no";
      return { type: "answer", id: approval.id, decision: allowed };
    }
    if (this.#choice) {
      const choice = this.#choice;
      this.#choice = undefined;
      if (trimmed === "" || trimmed.startsWith("/")) {
        return { type: "choose", id: choice.id, value: null };
      }
      const n = Number(trimmed);
      const value = Number.isInteger(n) && n >= 1 && n <= choice.options.length
        ? choice.options[n - 1].value
        : trimmed;
      return { type: "choose", id: choice.id, value };
    }
    return null;
  }
}

/** Run the plain chat over `input` until it ends; returns the exit code. */
export async function runPlainChat(
  engine: ChatEngine,
  renderer: PlainRenderer,
  input: ReadableStream<Uint8Array>,
): Promise<number> {
  const lines = inputLines(input);
  const quit = engine.quitRequested.then((code) => ({ quit: code }));
  for (;;) {
    const next = await Promise.race([lines.next(), quit]);
    if ("quit" in next) {
      void lines.return(undefined);
      return await engine.finish(next.quit);
    }
    if (next.done) return await engine.endOfInput();
    const answer = renderer.waiting ? renderer.answerFor(next.value) : null;
    engine.handle(answer ?? { type: "message", text: next.value });
  }
}
