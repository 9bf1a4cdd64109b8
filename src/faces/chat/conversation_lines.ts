/**
 * What a conversation's events look like to a person, in one place for every
 * chat face: the engine's event, note, withdrawn and view lines
 * (protocol.ts) turned into lines of text, each with a tone and an indent.
 * The plain chat paints the tones with its palette and writes the lines;
 * wisp-tui paints the same lines in its scrollback. Nothing here writes.
 *
 * - A model's call is one line, `⚙ run_command git status` (tool_words.ts),
 *   its end `↳ exit 0` (from command.outcome; another tool's result gives
 *   its first line as `↳ …`), then its output folded (fold.ts), indented 4.
 * - The gate's verdicts (`· moderate by rules`, `· approved (session)`,
 *   `· blocked by policy: …`) go under the call they are about, indented 2.
 *   The gate is asked about every call of a response before any runs
 *   (agent/prepare.ts), so a verdict is held until its call's line shows;
 *   one whose call never shows (a refused call) comes out with the next note,
 *   or whenever the face calls flush() (before a reply's text, a dialog).
 * - A command the person typed (`!ls`) ends `↳ exit 0`, `(stopped by you)`
 *   when they stopped it, its output folded under it.
 */
import type { NoteLine, ViewLine, WithdrawnLine } from "./protocol.ts";
import { foldOutput } from "./fold.ts";
import { callWords, commandOf } from "./tool_words.ts";

/**
 * How a shown line reads. A note keeps the engine's tone; a tool's call is
 * "tool"; what the tools and the gate say about it is "muted".
 */
export type LineTone = "plain" | "muted" | "warn" | "error" | "tool";

/** One line for a person: its text (no newline, no colour), its tone, and how many columns it sits in. */
export interface ShownLine {
  text: string;
  tone: LineTone;
  indent: number;
}

/** Columns a gate verdict sits in under its call. */
const GATE_INDENT = 2;
/** Columns a call's output sits in under it. */
const OUTPUT_INDENT = 4;

const line = (text: string, tone: LineTone, indent = 0): ShownLine => ({ text, tone, indent });

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

/** Turns events and notes into the lines a person reads; keeps the gate's lines until their call shows. */
export class ConversationLines {
  /** Gate lines whose call has not shown yet, with the command line each is about. */
  #held: { line: string; text: string }[] = [];

  constructor(private readonly options: { shownOutputLines: number }) {}

  /** The lines for one audit event; none for an event a person does not read (or one held). */
  event(event: Record<string, unknown>): ShownLine[] {
    const kind = event.kind;
    if (kind === "tool.call") {
      const shown = [line(`⚙ ${callWords(String(event.tool), event.arguments)}`, "tool")];
      // The verdicts about this call's command go under it; those about later calls wait.
      const command = commandOf(event.arguments);
      const mine = command === undefined ? [] : this.#held.filter((g) => g.line === command);
      this.#held = this.#held.filter((g) => !mine.includes(g));
      for (const g of mine) shown.push(line(g.text, "muted", GATE_INDENT));
      return shown;
    }
    const gate = gateLine(event);
    if (gate) {
      const about = typeof event.line === "string" ? event.line : String(event.command ?? "");
      this.#held.push({ line: about, text: gate });
      return [];
    }
    if (kind === "command.outcome" && event.origin !== "person") {
      const status = event.exitStatus ?? (event.signal ? `signal ${event.signal}` : "-");
      const how = event.stopped ? " (stopped)" : event.timedOut ? " (timed out)" : "";
      return [line(`↳ exit ${status}${how}`, "muted")];
    }
    if (kind === "tool.result") {
      const text = typeof event.text === "string" ? event.text : "";
      const id = String(event.callId ?? event.id).slice(0, 8);
      if (event.tool === "run_command") {
        // The exit line came from command.outcome; the output follows, without its status line.
        return this.#fold(text.replace(/^exit status:[^\n]*\n?/, ""), id);
      }
      const [first, ...rest] = text.split("\n");
      return [line(`↳ ${first}`, "muted"), ...this.#fold(rest.join("\n"), id)];
    }
    if (kind === "command.typed") {
      const stopped = event.stopped === true ? " (stopped by you)" : "";
      const output = typeof event.output === "string" ? event.output : "";
      return [
        line(`↳ exit ${event.exitStatus ?? "-"}${stopped}`, "muted"),
        ...this.#fold(output, String(event.id).slice(0, 8)),
      ];
    }
    return [];
  }

  /** A note's lines in its tone, after the gate lines still held (their call will not show now). */
  note(note: NoteLine): ShownLine[] {
    return [...this.flush(), ...note.text.split("\n").map((text) => line(text, note.tone))];
  }

  /** The line saying an approval or a choice no longer waits, and why. */
  withdrawn(withdrawn: WithdrawnLine): ShownLine[] {
    return [line(`⚠ no longer waiting: ${withdrawn.reason}`, "muted")];
  }

  /** A view: its title as a rule, then its text as it is. */
  view(view: ViewLine): ShownLine[] {
    const title = line(`── ${view.title}`, "muted");
    if (view.text === "") return [title];
    return [title, ...view.text.replace(/\n$/, "").split("\n").map((text) => line(text, "plain"))];
  }

  /** The gate lines whose call never came (a refused call is not run), to show where they are. */
  flush(): ShownLine[] {
    const held = this.#held;
    this.#held = [];
    return held.map((g) => line(g.text, "muted", GATE_INDENT));
  }

  #fold(text: string, id: string): ShownLine[] {
    const folded = foldOutput(text, this.options.shownOutputLines, id);
    const shown = folded.lines.map((text) => line(text, "muted", OUTPUT_INDENT));
    if (folded.fold) shown.push(line(folded.fold, "muted", OUTPUT_INDENT));
    return shown;
  }
}
