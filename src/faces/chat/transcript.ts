/**
 * Chat transcripts: what a conversation said, saved when the chat ends
 * (/quit, end of input) so `wisp chat --resume` can carry it on.
 *
 * One JSON file per chat in `<home>/transcripts/<id>.json`, written
 * atomically with mode 0600 (docs/chat.md describes the format). The id
 * sorts by time, so "the latest" is the last name in the folder. A
 * transcript holds the conversation's context — its store (every entry,
 * numbered, with the audit events that recorded them) and its running
 * summary — and the conversation's fact book with its task, without wisp's
 * instructions (a resumed chat composes its own, for the tools it offers
 * now) and without the permanent facts (they stay in facts.json). A
 * format-1 transcript (a message list) is read by replaying its messages
 * into a store; a format-2 one saved before the facts were saved simply has
 * none. A facts field that cannot be read costs only the facts: the rest
 * resumes, and the reader says what was wrong (ADR 0620).
 */
import { join } from "node:path";
import type { HomePaths } from "../../config/home.ts";
import { ensureHome } from "../../config/home.ts";
import type { ChatMessage } from "../../models/backend.ts";
import type { ContextSnapshot } from "../../context/context.ts";
import { ConversationStore } from "../../context/store.ts";
import { type FactBookState, readBookState } from "../../context/facts/mod.ts";
import { writeFileAtomicSync } from "../../util/atomic.ts";
import { homeWriteError, messageOf, UsageError, WispError } from "../../util/errors.ts";
import { randomHex } from "../../util/random_id.ts";

/** The format's version; a reader refuses a newer one. */
export const TRANSCRIPT_VERSION = 2;

/** A saved chat. */
export interface Transcript {
  version: number;
  id: string;
  /** When the chat began and when this was saved (ISO 8601). */
  started: string;
  saved: string;
  /** The model it last ran on. */
  model: string;
  /** The directory it ran in. */
  cwd: string;
  /** The audit sessions it ran under, oldest first (one per run of wisp chat). */
  sessions: string[];
  /** The conversation's store and running summary, without wisp's instructions. */
  context: ContextSnapshot;
  /** The lines the person submitted (what /history lists). */
  history: string[];
  /** The conversation's fact book (absent: saved before facts were saved, or facts off then). */
  facts?: FactBookState;
  /** The task set with /task (absent: none). */
  task?: string;
}

/** A transcript as read back: when its facts field was damaged, why (the facts are then left out). */
export type LoadedTranscript = Transcript & { factsUnreadable?: string };

/** A listing row. */
export interface TranscriptSummary {
  id: string;
  saved: string;
  model: string;
  cwd: string;
  /** How many messages the person sent. */
  turns: number;
  /** The first thing asked, shortened. */
  first: string;
}

const ID_PATTERN = /^[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$/;

/** A new transcript id: the start time (UTC) and a random suffix, so ids sort by time. */
export function newTranscriptId(now = new Date()): string {
  const iso = now.toISOString();
  const date = iso.slice(0, 10).replaceAll("-", "");
  const time = iso.slice(11, 19).replaceAll(":", "");
  return `${date}-${time}-${randomHex(3)}`;
}

function pathOf(paths: HomePaths, id: string): string {
  return join(paths.transcripts, `${id}.json`);
}

/** Save (or replace) a transcript. */
export function saveTranscript(paths: HomePaths, transcript: Transcript): string {
  const path = pathOf(paths, transcript.id);
  try {
    ensureHome(paths, paths.transcripts);
    writeFileAtomicSync(path, JSON.stringify(transcript, null, 2) + "\n", 0o600);
  } catch (error) {
    throw homeWriteError(error, path, "the transcript");
  }
  return path;
}

function isMessage(value: unknown): value is ChatMessage {
  if (!value || typeof value !== "object") return false;
  const m = value as Record<string, unknown>;
  return ["user", "assistant", "tool", "system"].includes(String(m.role)) &&
    typeof m.content === "string";
}

/** An empty context: a chat that has said nothing yet. */
export function emptyContext(): ContextSnapshot {
  return {
    store: new ConversationStore({ auditHolds: false }).snapshot(),
    summary: null,
  };
}

/** A format-1 transcript's messages as a store: each user message begins a turn. */
export function contextOfMessages(messages: readonly ChatMessage[]): ContextSnapshot {
  const store = new ConversationStore({ auditHolds: false });
  for (const message of messages) {
    if (message.role === "system") continue;
    if (message.role === "user") {
      store.end();
      store.begin(message.content);
    } else if (store.current) {
      store.add(message);
    }
  }
  store.end();
  return { store: store.snapshot(), summary: null };
}

const ENTRY_KINDS = new Set(["prompt", "reply", "output", "told"]);
const isCount = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v >= 0;

/** Whether a value has the shape of a saved context (what restoring relies on). */
function isContext(value: unknown): value is ContextSnapshot {
  if (!value || typeof value !== "object") return false;
  const { store, summary } = value as Record<string, unknown>;
  if (summary !== null) {
    const s = summary as Record<string, unknown> | undefined;
    if (!s || typeof s.text !== "string" || !isCount(s.throughTurn)) return false;
  }
  if (!store || typeof store !== "object") return false;
  const st = store as Record<string, unknown>;
  if (!isCount(st.droppedTurns) || !isCount(st.nextEntry) || !isCount(st.nextTurn)) return false;
  if (!Array.isArray(st.turns) || !Array.isArray(st.dropped)) return false;
  const entryOk = (e: unknown, held: boolean) => {
    if (!e || typeof e !== "object") return false;
    const r = e as Record<string, unknown>;
    return isCount(r.n) && isCount(r.turn) && ENTRY_KINDS.has(String(r.kind)) &&
      typeof r.at === "string" && typeof r.excerpt === "string" &&
      (!held || ((typeof r.text === "string" || r.text === null) && isCount(r.chars) &&
        isCount(r.tokens)));
  };
  if (
    st.told !== undefined && (!Array.isArray(st.told) || !st.told.every((e) => entryOk(e, true)))
  ) {
    return false;
  }
  return st.turns.every((t) => {
    const turn = t as Record<string, unknown> | null;
    return !!turn && isCount(turn.n) && Array.isArray(turn.entries) &&
      turn.entries.every((e) => entryOk(e, true));
  }) && st.dropped.every((e) => entryOk(e, false));
}

/** Read one transcript; a missing, unreadable or malformed one is a sentence naming it. */
export function loadTranscript(paths: HomePaths, id: string): LoadedTranscript {
  if (!ID_PATTERN.test(id)) {
    throw new UsageError(
      `${JSON.stringify(id)} is not a transcript id; wisp chat --list shows the saved ones`,
    );
  }
  const path = pathOf(paths, id);
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new UsageError(`no transcript ${id} is saved; wisp chat --list shows the saved ones`);
    }
    throw new WispError(`cannot read the transcript ${path} (${messageOf(error)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new WispError(
      `the transcript ${path} is not valid JSON; move it aside and resume another`,
    );
  }
  const t = value as Partial<Transcript> & { messages?: unknown };
  const v1 = t?.version === 1 && Array.isArray(t.messages) && t.messages.every(isMessage);
  if (
    !t || typeof t !== "object" || typeof t.version !== "number" ||
    (!v1 && t.version <= TRANSCRIPT_VERSION && !isContext(t.context))
  ) {
    throw new WispError(
      `the transcript ${path} is not in wisp's transcript format; move it aside and resume another`,
    );
  }
  if (t.version > TRANSCRIPT_VERSION) {
    throw new WispError(
      `the transcript ${path} was saved by a newer wisp (format ${t.version}); update wisp to resume it`,
    );
  }
  const facts = t.facts === undefined ? undefined : readBookState(t.facts);
  return {
    version: t.version,
    id,
    started: String(t.started ?? ""),
    saved: String(t.saved ?? ""),
    model: String(t.model ?? ""),
    cwd: String(t.cwd ?? ""),
    sessions: Array.isArray(t.sessions) ? t.sessions.map(String) : [],
    context: v1 ? contextOfMessages(t.messages as ChatMessage[]) : t.context!,
    history: Array.isArray(t.history) ? t.history.map(String) : [],
    ...(facts?.ok ? { facts: facts.state } : {}),
    ...(facts && !facts.ok ? { factsUnreadable: facts.reason } : {}),
    ...(typeof t.task === "string" && t.task !== "" ? { task: t.task } : {}),
  };
}

/** How many messages the person sent in a saved context (the turns begun). */
export function sentCount(context: ContextSnapshot): number {
  return context.store.nextTurn - 1;
}

/** The saved transcripts' ids, oldest first. */
export function transcriptIds(paths: HomePaths): string[] {
  const ids: string[] = [];
  try {
    for (const entry of Deno.readDirSync(paths.transcripts)) {
      const id = entry.name.replace(/\.json$/, "");
      if (entry.isFile && entry.name.endsWith(".json") && ID_PATTERN.test(id)) ids.push(id);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw new WispError(`cannot list ${paths.transcripts} (${messageOf(error)})`);
  }
  return ids.sort();
}

/** The latest transcript's id, or a sentence saying there is none. */
export function latestTranscriptId(paths: HomePaths): string {
  const ids = transcriptIds(paths);
  if (ids.length === 0) {
    throw new UsageError("no chat transcript is saved yet; start one with wisp chat");
  }
  return ids[ids.length - 1];
}

/** One row per saved transcript, oldest first; an unreadable one is left out. */
export function listTranscripts(paths: HomePaths): TranscriptSummary[] {
  const rows: TranscriptSummary[] = [];
  for (const id of transcriptIds(paths)) {
    let t: Transcript;
    try {
      t = loadTranscript(paths, id);
    } catch {
      continue;
    }
    const asked = t.history.filter((line) => !line.startsWith("/") && !line.startsWith("!"));
    const first = (asked[0] ?? "").replace(/\s+/g, " ");
    rows.push({
      id,
      saved: t.saved,
      model: t.model,
      cwd: t.cwd,
      turns: sentCount(t.context),
      first: first.length > 60 ? first.slice(0, 59) + "…" : first,
    });
  }
  return rows;
}
