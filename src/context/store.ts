/**
 * A conversation's store: every message of every turn as a numbered entry,
 * the one source each request is composed from (compose.ts). Entries are
 * numbered from 1 across the conversation, turns from 1.
 *
 * The audit log is the one verbatim record; the store refers into it. Each
 * entry names the audit event that recorded it (`prompt`, `response`,
 * `tool.result`) once its turn ends. Prompts and the model's own words are
 * small and are kept in memory so that composing never reads the audit
 * files. A tool's output is kept whole while its turn is in view and the
 * store holds less than `heldOutputBytes` of outputs; past that, the oldest
 * outputs the audit holds are let go and only their excerpt stays (a
 * reference needs no more, and a recall reads the audit). An output the
 * audit does not hold (audit off, no event found) is never let go while its
 * turn is in view, and when its turn is dropped the store copies it to a
 * file of its own (store_copy.ts) so a recall still returns it whole. An
 * entry the audit holds is copied there too when the log file holding its
 * event is about to rotate away (copyBeforeRotation, rotating_log.ts).
 * ADR 0500 and ADR 0590 record this.
 */
import type { AuditEvent } from "../audit/catalogue.ts";
import type { ChatMessage, ToolCall } from "../models/backend.ts";
import { messageTokens } from "./tokens.ts";
import { type CopiedText, StoreCopy } from "./store_copy.ts";
import { textsInLogFile } from "./rotating_log.ts";

/**
 * What an entry is: the person's message, the model's words (and calls), a
 * tool's output, or what the model is told of a command the person ran
 * themselves (chat's `!`), which goes with the next turn, before its prompt.
 */
export type EntryKind = "prompt" | "reply" | "output" | "told";

/** One message of a turn, numbered across the conversation. */
export interface StoreEntry {
  /** The entry's number in the conversation, from 1. */
  readonly n: number;
  /** The turn it belongs to, from 1. */
  readonly turn: number;
  readonly kind: EntryKind;
  /** When it was stored (ISO time). */
  readonly at: string;
  /** On a reply: the calls it made. */
  readonly calls?: ToolCall[];
  /** On an output: the tool and the call it answers. */
  readonly tool?: string;
  readonly callId?: string;
  /** On an output: the call's arguments as the model wrote them. */
  readonly arguments?: unknown;
  /** The whole text, or null once let go (the audit holds it). */
  text: string | null;
  /** The first and last lines, at most EXCERPT_CHARS: what a summary of a let-go output reads. */
  readonly excerpt: string;
  /** The whole text's length in characters. */
  readonly chars: number;
  /** The whole message's estimated tokens. */
  readonly tokens: number;
  /** The audit event that recorded it, once its turn ended (absent when the audit is off). */
  auditEvent?: string;
  /** The store's own copy, taken when the log file holding its event was to rotate away. */
  copy?: CopiedText;
}

/** One turn's entries, in order. */
export interface StoreTurn {
  readonly n: number;
  readonly entries: StoreEntry[];
  /** The turn is running (its entries are still being added). */
  open: boolean;
}

/** An entry as a recall finds it after its turn left the store: where to read it. */
export interface DroppedEntry {
  readonly n: number;
  readonly turn: number;
  readonly kind: EntryKind;
  readonly tool?: string;
  readonly at: string;
  /** Kept only when the audit does not hold the entry. */
  readonly excerpt: string;
  readonly auditEvent?: string;
  /** Where the store's own copy of the whole text is, when the audit does not hold it. */
  readonly copy?: CopiedText;
}

const EXCERPT_CHARS = 1024;
/** Outputs held whole in memory, at most, before the oldest the audit holds are let go. */
export const HELD_OUTPUT_BYTES = 4 * 1024 * 1024;

/** The first and last lines of a text, at most `max` characters in all. */
export function excerptOf(text: string, max = EXCERPT_CHARS): string {
  if (text.length <= max) return text;
  const head = text.slice(0, Math.floor(max * 0.6));
  const tail = text.slice(text.length - Math.floor(max * 0.4) + 10);
  const headCut = head.lastIndexOf("\n") > head.length / 2
    ? head.slice(0, head.lastIndexOf("\n"))
    : head;
  const tailCut = tail.indexOf("\n") !== -1 && tail.indexOf("\n") < tail.length / 2
    ? tail.slice(tail.indexOf("\n") + 1)
    : tail;
  // A slice of a string keeps the whole string alive in V8; re-encoding makes the excerpt a
  // string of its own, so a let-go or dropped output's text can be collected (bench/context_bench.ts).
  return new TextDecoder().decode(new TextEncoder().encode(`${headCut}\n[…]\n${tailCut}`));
}

/** What the store may assume about the audit, and how much output it holds. */
export interface StoreOptions {
  /** The audit log records events to its file (the store may then let outputs go). */
  auditHolds: boolean;
  heldOutputBytes?: number;
  /**
   * The file the store copies an entry into when the entry leaves view and
   * the audit does not hold it (store_copy.ts); without it only the excerpt stays.
   */
  copyFile?: string;
}

/**
 * A store as saved (a chat's transcript): the turns in view with their
 * entries, what is known of the dropped entries, and the counters, so a
 * restored store numbers on where it stopped. Plain JSON.
 */
export interface StoreSnapshot {
  turns: { n: number; entries: StoreEntry[] }[];
  /** Told entries waiting for the next turn (absent: none). */
  told?: StoreEntry[];
  dropped: DroppedEntry[];
  droppedTurns: number;
  nextEntry: number;
  nextTurn: number;
}

/** Every entry of a conversation: the turns in view whole, the dropped ones as where to find them. */
export class ConversationStore {
  #turns: StoreTurn[] = [];
  #dropped: DroppedEntry[] = [];
  /** Told entries waiting for the next turn, numbered already. */
  #told: StoreEntry[] = [];
  #droppedTurns = 0;
  #nextEntry = 1;
  #nextTurn = 1;
  #heldOutputChars = 0;
  readonly #heldMax: number;
  readonly #copy: StoreCopy | undefined;

  constructor(readonly options: StoreOptions) {
    this.#heldMax = options.heldOutputBytes ?? HELD_OUTPUT_BYTES;
    this.#copy = options.copyFile ? new StoreCopy(options.copyFile) : undefined;
  }

  /** The turns still in view, oldest first (the running one last). */
  get turns(): readonly StoreTurn[] {
    return this.#turns;
  }

  /** The running turn, or undefined between turns. */
  get current(): StoreTurn | undefined {
    const last = this.#turns.at(-1);
    return last?.open ? last : undefined;
  }

  /** Turns dropped from view so far (they live on in the summary, the facts and the audit). */
  get droppedTurns(): number {
    return this.#droppedTurns;
  }

  /** How many entries were ever stored. */
  get entryCount(): number {
    return this.#nextEntry - 1;
  }

  /** How many turns were ever begun. */
  get turnCount(): number {
    return this.#nextTurn - 1;
  }

  /** Characters of output text held whole in memory. */
  get heldOutputChars(): number {
    return this.#heldOutputChars;
  }

  /** An entry by number: in view, or what is known of a dropped one. */
  entry(n: number): StoreEntry | DroppedEntry | undefined {
    for (const turn of this.#turns) {
      const found = turn.entries.find((e) => e.n === n);
      if (found) return found;
    }
    return this.#dropped.find((e) => e.n === n);
  }

  /** Every entry in view, oldest first. */
  *entries(): Iterable<StoreEntry> {
    for (const turn of this.#turns) yield* turn.entries;
  }

  /**
   * Tell the model, with the next turn, of something the person did (a
   * command they ran): an entry of its own, numbered now, placed before the
   * next turn's prompt. `text` is given the entry's number (a recall names
   * it); `auditEvent` is the event holding the whole of it.
   */
  tell(text: (n: number) => string, auditEvent?: string): StoreEntry {
    const n = this.#nextEntry++;
    const content = text(n);
    const entry: StoreEntry = {
      n,
      turn: this.#nextTurn,
      kind: "told",
      at: new Date().toISOString(),
      text: content,
      excerpt: "",
      chars: content.length,
      tokens: messageTokens({ role: "user", content }),
      ...(auditEvent ? { auditEvent } : {}),
    };
    this.#told.push(entry);
    return entry;
  }

  /** Told entries waiting for the next turn. */
  get told(): readonly StoreEntry[] {
    return this.#told;
  }

  /** Begin a turn with the person's (or caller's) message, after what it is to be told. */
  begin(prompt: string): StoreTurn {
    const turn: StoreTurn = { n: this.#nextTurn++, entries: [...this.#told], open: true };
    this.#told = [];
    this.#turns.push(turn);
    this.#push(turn, { kind: "prompt", text: prompt, message: { role: "user", content: prompt } });
    return turn;
  }

  /** Add a message of the running turn: the model's words and calls, or a tool's output. */
  add(message: ChatMessage): StoreEntry {
    const turn = this.current;
    if (!turn) throw new Error("no turn is running: begin one before adding to it");
    if (message.role === "assistant") {
      return this.#push(turn, {
        kind: "reply",
        text: message.content,
        message,
        ...(message.toolCalls?.length ? { calls: message.toolCalls } : {}),
      });
    }
    if (message.role === "tool") {
      const call = this.#callOf(turn, message.toolCallId);
      return this.#push(turn, {
        kind: "output",
        text: message.content,
        message,
        tool: message.toolName ?? call?.name ?? "tool",
        ...(message.toolCallId ? { callId: message.toolCallId } : {}),
        ...(call ? { arguments: call.rawArguments ?? call.arguments } : {}),
      });
    }
    throw new Error(`a ${message.role} message is not part of a turn`);
  }

  /**
   * The running turn ended: link its entries to the audit events that
   * recorded them (in order, by kind and text), then let go of the oldest
   * outputs past the held limit when the audit holds them.
   */
  end(events: readonly AuditEvent[] = []): void {
    const turn = this.current;
    if (!turn) return;
    turn.open = false;
    const used = new Set<string>();
    const find = (kind: string, text: string | null, tool?: string) =>
      events.find((e) =>
        e.kind === kind && !used.has(e.id) && e.text === text &&
        (tool === undefined || e.tool === tool)
      );
    for (const entry of turn.entries) {
      if (entry.kind === "told") continue; // linked when told
      const event = entry.kind === "prompt"
        ? find("prompt", entry.text)
        : entry.kind === "reply"
        ? find("response", entry.text)
        : find("tool.result", entry.text, entry.tool);
      if (event) {
        used.add(event.id);
        entry.auditEvent = event.id;
      }
    }
    this.#release();
  }

  /** Drop the oldest `count` finished turns from view; returns them, oldest first. */
  drop(count: number): StoreTurn[] {
    const out: StoreTurn[] = [];
    while (out.length < count && this.#turns.length > 0 && !this.#turns[0].open) {
      const turn = this.#turns.shift()!;
      for (const entry of turn.entries) {
        if (entry.kind === "output" && entry.text !== null) this.#heldOutputChars -= entry.chars;
        // Where the audit does not hold the text, the store keeps its own copy on disk. With
        // the audit off, events still get ids (a turn's receipt reads them) but no file has them.
        const audited = this.options.auditHolds && entry.auditEvent !== undefined;
        const copy = entry.copy ??
          (!audited && entry.text !== null ? this.#copy?.write(entry.text) : undefined);
        this.#dropped.push({
          n: entry.n,
          turn: entry.turn,
          kind: entry.kind,
          at: entry.at,
          // A recall reads what the audit holds; the excerpt is kept only where it does not.
          excerpt: audited ? "" : entry.excerpt,
          ...(entry.tool ? { tool: entry.tool } : {}),
          ...(entry.auditEvent ? { auditEvent: entry.auditEvent } : {}),
          ...(copy ? { copy } : {}),
        });
      }
      this.#droppedTurns++;
      out.push(turn);
    }
    return out;
  }

  /**
   * Keep the store's own copy of every text it refers into `file` for: the
   * audit writer is about to remove that log file, or removes it next
   * (ADR 0590, amended). Entries whose text the store still holds, or has a
   * copy of already, are not read. Returns how many texts were copied.
   */
  copyBeforeRotation(file: string): number {
    const copyFile = this.#copy;
    if (!copyFile || !this.options.auditHolds) return 0;
    const needsCopy = (e: { auditEvent?: string; copy?: CopiedText }, held: boolean) =>
      e.auditEvent !== undefined && e.copy === undefined && !held;
    const wanted = new Map<string, EntryKind>();
    for (const entry of this.entries()) {
      if (needsCopy(entry, entry.text !== null)) wanted.set(entry.auditEvent!, entry.kind);
    }
    for (const entry of this.#dropped) {
      if (needsCopy(entry, false)) wanted.set(entry.auditEvent!, entry.kind);
    }
    const texts = textsInLogFile(file, wanted);
    if (texts.size === 0) return 0;
    let copied = 0;
    const copyOf = (event: string | undefined) => {
      const text = event === undefined ? undefined : texts.get(event);
      const copy = text === undefined ? undefined : copyFile.write(text);
      if (copy) copied++;
      return copy;
    };
    for (const entry of this.entries()) {
      if (!needsCopy(entry, entry.text !== null)) continue;
      const copy = copyOf(entry.auditEvent);
      if (copy) entry.copy = copy;
    }
    this.#dropped = this.#dropped.map((entry) => {
      const copy = needsCopy(entry, false) ? copyOf(entry.auditEvent) : undefined;
      return copy ? { ...entry, copy } : entry;
    });
    return copied;
  }

  /**
   * Put back the turns the last `drop` returned (a condensing that was
   * stopped): in view again, no longer counted as dropped. Text already
   * copied to the copy file stays there unread (the file only grows).
   */
  undrop(turns: readonly StoreTurn[]): void {
    const entries = turns.reduce((sum, t) => sum + t.entries.length, 0);
    this.#dropped.splice(this.#dropped.length - entries, entries);
    this.#droppedTurns -= turns.length;
    this.#turns.unshift(...turns);
    for (const turn of turns) {
      for (const entry of turn.entries) {
        if (entry.kind === "output" && entry.text !== null) this.#heldOutputChars += entry.chars;
      }
    }
  }

  /** The store as plain JSON, every turn closed (a running turn is saved as it stands). */
  snapshot(): StoreSnapshot {
    return {
      turns: this.#turns.map((t) => ({ n: t.n, entries: t.entries.map((e) => ({ ...e })) })),
      dropped: this.#dropped.map((e) => ({ ...e })),
      ...(this.#told.length > 0 ? { told: this.#told.map((e) => ({ ...e })) } : {}),
      droppedTurns: this.#droppedTurns,
      nextEntry: this.#nextEntry,
      nextTurn: this.#nextTurn,
    };
  }

  /**
   * Take on a saved store in place of an empty one (a resumed chat). Its
   * turns are all finished; entries keep their numbers and audit events.
   * Throws when this store already holds a turn.
   */
  restore(snapshot: StoreSnapshot): void {
    if (this.#nextTurn !== 1) throw new Error("a store is restored only while it is empty");
    this.#turns = snapshot.turns.map((t) => ({
      n: t.n,
      entries: t.entries.map((e) => ({ ...e })),
      open: false,
    }));
    this.#dropped = snapshot.dropped.map((e) => ({ ...e }));
    this.#told = (snapshot.told ?? []).map((e) => ({ ...e, turn: snapshot.nextTurn }));
    this.#droppedTurns = snapshot.droppedTurns;
    this.#nextEntry = snapshot.nextEntry;
    this.#nextTurn = snapshot.nextTurn;
    this.#heldOutputChars = 0;
    for (const entry of this.entries()) {
      if (entry.kind === "output" && entry.text !== null) this.#heldOutputChars += entry.chars;
    }
  }

  #callOf(turn: StoreTurn, id: string | undefined): ToolCall | undefined {
    if (!id) return undefined;
    for (let i = turn.entries.length - 1; i >= 0; i--) {
      const call = turn.entries[i].calls?.find((c) => c.id === id);
      if (call) return call;
    }
    return undefined;
  }

  #push(
    turn: StoreTurn,
    fields: {
      kind: EntryKind;
      text: string;
      message: ChatMessage;
      calls?: ToolCall[];
      tool?: string;
      callId?: string;
      arguments?: unknown;
    },
  ): StoreEntry {
    const { message, ...rest } = fields;
    const entry: StoreEntry = {
      ...rest,
      n: this.#nextEntry++,
      turn: turn.n,
      at: new Date().toISOString(),
      excerpt: fields.kind === "output" ? excerptOf(fields.text) : "",
      chars: fields.text.length,
      tokens: messageTokens(message),
    };
    if (entry.kind === "output") this.#heldOutputChars += entry.chars;
    turn.entries.push(entry);
    return entry;
  }

  /** Let go of the oldest held outputs the audit holds until the held text is within its limit. */
  #release(): void {
    if (!this.options.auditHolds || this.#heldOutputChars <= this.#heldMax) return;
    for (const turn of this.#turns) {
      if (turn.open) break;
      for (const entry of turn.entries) {
        if (this.#heldOutputChars <= this.#heldMax) return;
        if (entry.kind !== "output" || entry.text === null || !entry.auditEvent) continue;
        entry.text = null;
        this.#heldOutputChars -= entry.chars;
      }
    }
  }
}
