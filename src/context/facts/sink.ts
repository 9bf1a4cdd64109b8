/**
 * The fact book behind the context's seam: what condensing and composition
 * call (`distil(turnsText, source)`, `lines()`) and the memory tool's `note`,
 * with sources written as the context writes them ("turns 3–5", "model,
 * noted, turn 4"). A conversation hands `bookSink(…)` to the context as its
 * facts; the shape matches the context's FactSink, so nothing converts.
 */
import type { AuditSink } from "../../audit/writer.ts";
import type { Backend } from "../../models/backend.ts";
import { type FactBook, FactError, lineOf } from "./book.ts";
import { distil } from "./distiller.ts";

/** A fact the model noted, as the memory tool hands it over. */
export interface NotedFactInput {
  subject: string;
  name: string;
  value: string;
  /** "model, noted, turn 4". */
  source: string;
}

/** What the sink works with: the book, the model that distils, the audit. */
export interface BookSinkOptions {
  book: FactBook;
  /** The conversation's model, for the distiller; absent, dropped turns are not distilled. */
  backend?: Backend;
  audit?: Pick<AuditSink, "record">;
}

/** Who set a fact, in the sentence a refused note gives. */
const WHO = {
  person: "the person",
  caller: "the caller",
  tool: "a tool",
  model: "the model",
} as const;

/** The turns a source names: "turn 4" → [4], "turns 3–5" → [3, 5]. */
export function turnsOf(source: string): { turn?: number; lastTurn?: number } {
  const m = /\bturns? (\d+)(?:\s*[–-]\s*(\d+))?/.exec(source);
  if (!m) return {};
  return { turn: Number(m[1]), ...(m[2] ? { lastTurn: Number(m[2]) } : {}) };
}

/** The book as the context's facts (see the module comment). */
export function bookSink(options: BookSinkOptions): {
  distil(turnsText: string, source: string, signal?: AbortSignal): Promise<void>;
  lines(): string[];
  note(fact: NotedFactInput): string;
  checkpoint(): () => void;
} {
  const { book, backend, audit } = options;
  return {
    async distil(turnsText, source, signal) {
      if (!backend) return;
      try {
        await distil(turnsText, turnsOf(source), backend, book, {
          // The turn's stop reaches the side call: stopping the turn cancels its request.
          ...(signal ? { signal } : {}),
          // Inside a turn, the session tags every event's `turn` with the turn's id, which
          // the catalogue's numeric `turn` refuses: the dropped turn's number goes as fromTurn.
          onDone: ({ turn, ...fields }) =>
            audit?.record("fact.distilled", {
              ...fields,
              ...(turn !== undefined ? { fromTurn: turn } : {}),
            }),
        });
      } catch (error) {
        // Only the book's own refusals are expected here; anything else is a bug worth a line.
        audit?.record("fact.distilled", {
          model: backend.name,
          recorded: 0,
          refused: `the distiller failed: ${(error as Error).message}`,
        });
      }
    },
    lines: () => book.lines(),
    checkpoint: () => book.checkpoint(),
    note(fact) {
      const { turn } = turnsOf(fact.source);
      try {
        const version = book.record({
          subject: fact.subject,
          name: fact.name,
          value: fact.value,
          source: { by: "model", method: "noted", ...(turn !== undefined ? { turn } : {}) },
        });
        if (version.state === "outranked") {
          const current = book.currentOf(version)!;
          return `error: ${current.subject}${current.name ? ` ${current.name}` : ""} was set by ${
            WHO[current.source.by]
          } and stays: ${lineOf(current)}`;
        }
        return `noted: ${lineOf(version)}`;
      } catch (error) {
        if (error instanceof FactError) return `error: ${error.message}`;
        throw error;
      }
    },
  };
}
