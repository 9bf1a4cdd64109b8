/**
 * The fact distiller: one of wisp's own side calls. Given the text of turns
 * about to be dropped from the context, it asks the conversation's model —
 * with a fixed prompt, a fixed JSON schema, no tools and thinking off,
 * whatever the conversation chose — for the facts worth keeping, of the
 * kinds that let the distiller find them (`distil` true). What it returns
 * is recorded in the book as the model's (method distilled), below anything
 * the person stated or a tool observed.
 *
 * A reply that is not the schema's JSON is refused whole, with one sentence
 * saying what was wrong; nothing from it is recorded and nothing throws.
 */
import { z } from "zod";
import type { Backend, ChatRequest } from "../../models/backend.ts";
import { type FactBook, FactError, type FactSource, type FactVersion } from "./book.ts";
import type { FactKind } from "./kinds.ts";

/** The most facts one distillation records. */
export const DISTIL_MAX_FACTS = 12;
/** The most characters of text one distillation reads (the rest is left out and said so). */
export const DISTIL_MAX_CHARS = 16_000;

/** The fixed instructions; the kinds are listed after them. */
export const DISTILLER_INSTRUCTIONS =
  "You extract durable facts from part of a conversation that is about to be dropped from the " +
  "context. Return only facts stated or shown in the text, never guesses. Each fact has a subject " +
  "(one of the kinds listed), a name (what it is about, a few words; empty for kinds that hold one " +
  "value per conversation) and a value (short, exact: copy names, numbers, paths and commands as " +
  "written). Return at most " + DISTIL_MAX_FACTS +
  " facts, the most useful first; return an empty " +
  'list when nothing is worth keeping. Reply with JSON only: {"facts": [{"subject", "name", "value"}]}.';

/** The kinds the distiller is asked for. */
export function distilledKinds(kinds: readonly FactKind[]): FactKind[] {
  return kinds.filter((k) => k.distil && k.class !== "ephemeral");
}

/** The JSON schema the reply must match, for the kinds asked for. */
export function distillerSchema(kinds: readonly FactKind[]): Record<string, unknown> {
  return {
    type: "object",
    properties: {
      facts: {
        type: "array",
        maxItems: DISTIL_MAX_FACTS,
        items: {
          type: "object",
          properties: {
            subject: { type: "string", enum: distilledKinds(kinds).map((k) => k.name) },
            name: { type: "string" },
            value: { type: "string" },
          },
          required: ["subject", "name", "value"],
        },
      },
    },
    required: ["facts"],
  };
}

/** The request a distillation sends: system instructions with the kinds, the text, the schema. */
export function distillerRequest(
  text: string,
  kinds: readonly FactKind[],
  signal?: AbortSignal,
): ChatRequest {
  const asked = distilledKinds(kinds);
  const kindLines = asked.map((k) =>
    `- ${k.name}: ${k.description}${k.normaliser === "single" ? " (one per conversation)" : ""}`
  );
  const shown = text.length > DISTIL_MAX_CHARS
    ? text.slice(0, DISTIL_MAX_CHARS) +
      `\n[… ${text.length - DISTIL_MAX_CHARS} more characters not shown]`
    : text;
  return {
    messages: [
      { role: "system", content: `${DISTILLER_INSTRUCTIONS}\nKinds:\n${kindLines.join("\n")}` },
      { role: "user", content: `The text:\n<<<\n${shown}\n>>>` },
    ],
    schema: distillerSchema(kinds),
    think: false,
    ...(signal ? { signal } : {}),
  };
}

const replyShape = z.object({
  facts: z.array(
    z.object({
      subject: z.string(),
      name: z.string(),
      value: z.string(),
    }).strict(),
  ).max(DISTIL_MAX_FACTS),
}).strict();

/** The facts a reply holds, or the sentence it is refused with. Pure. */
export function parseDistillerReply(
  reply: string,
  kinds: readonly FactKind[],
): { ok: true; facts: { subject: string; name: string; value: string }[] } | {
  ok: false;
  reason: string;
} {
  const text = reply.trim().replace(/^```(?:json)?\s*\n?/, "").replace(/\n?```\s*$/, "");
  if (text === "") return { ok: false, reason: "the distiller's reply was empty" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {
      ok: false,
      reason: `the distiller's reply was not JSON (it began "${
        text.slice(0, 40).replace(/\s+/g, " ")
      }"), so no facts were taken from it`,
    };
  }
  const parsed = replyShape.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length > 0 ? issue.path.join(".") : "the reply";
    return {
      ok: false,
      reason: `the distiller's reply did not match its schema (${where}: ${
        issue.message.replace(/^Invalid input: /, "")
      }), so no facts were taken from it`,
    };
  }
  const asked = new Set(distilledKinds(kinds).map((k) => k.name));
  const stray = parsed.data.facts.find((f) => !asked.has(f.subject.trim().toLowerCase()));
  if (stray) {
    return {
      ok: false,
      reason:
        `the distiller's reply named the kind "${stray.subject}", which it was not asked for, so no facts were taken from it`,
    };
  }
  return { ok: true, facts: parsed.data.facts };
}

/** What a distillation came to. */
export interface DistilResult {
  recorded: FactVersion[];
  /** Facts of the reply the book refused (an empty value, say), each with its sentence. */
  skipped: string[];
  /** Why the reply was refused whole; absent when it was read. */
  refused?: string;
}

/**
 * Distil `text` (dropped turns) into `book` with `backend`: one side call,
 * the reply checked against the schema, each fact recorded with `source`
 * (by model, method distilled). Never throws for what the model or its
 * server does; `onDone` hears the outcome (for the audit's fact.distilled).
 * With `signal` aborted (the turn stopped) the call is cancelled and nothing
 * is recorded.
 */
export async function distil(
  text: string,
  source: Omit<FactSource, "by" | "method">,
  backend: Backend,
  book: FactBook,
  options: {
    signal?: AbortSignal;
    onDone?: (fields: { model: string; recorded: number; refused?: string; turn?: number }) => void;
  } = {},
): Promise<DistilResult> {
  const done = (result: DistilResult): DistilResult => {
    options.onDone?.({
      model: backend.name,
      recorded: result.recorded.length,
      ...(result.refused ? { refused: result.refused } : {}),
      ...(source.turn !== undefined ? { turn: source.turn } : {}),
    });
    return result;
  };
  if (distilledKinds(book.kinds).length === 0) {
    return done({ recorded: [], skipped: [], refused: "no fact kind lets the distiller find it" });
  }
  const stopped = () =>
    done({ recorded: [], skipped: [], refused: "the distiller was stopped with the turn" });
  if (options.signal?.aborted) return stopped();
  let reply = "";
  try {
    for await (const event of backend.chat(distillerRequest(text, book.kinds, options.signal))) {
      if (event.type === "text") reply += event.text;
      // Thinking, were the server to send any, is not the reply and is not kept.
    }
  } catch (error) {
    if (options.signal?.aborted) return stopped();
    return done({
      recorded: [],
      skipped: [],
      refused: `the distiller could not run on ${backend.name}: ${
        (error as Error).message ?? String(error)
      }`,
    });
  }
  // A reply that came in just as the turn stopped is not recorded either.
  if (options.signal?.aborted) return stopped();
  const parsed = parseDistillerReply(reply, book.kinds);
  if (!parsed.ok) return done({ recorded: [], skipped: [], refused: parsed.reason });
  const recorded: FactVersion[] = [];
  const skipped: string[] = [];
  for (const fact of parsed.facts) {
    try {
      recorded.push(book.record({
        subject: fact.subject,
        name: fact.name,
        value: fact.value,
        source: { ...source, by: "model", method: "distilled" },
      }));
    } catch (error) {
      if (!(error instanceof FactError)) throw error;
      skipped.push(error.message);
    }
  }
  return done({ recorded, skipped });
}
