/**
 * A conversation's fact book: every fact said in it, each value a version
 * with its source, the newer replacing the older under the same kind and
 * the same name (as the kind's normaliser reads it), a lower-ranked source
 * never replacing a higher one. The book is what composition puts into a
 * request (`lines()`), what the memory tool recalls (`history()`), and what
 * an MCP caller names when it asks to keep a fact (`find()`).
 *
 * Ranks, highest first: what the person (or an MCP caller, for the person)
 * states or has kept; what a tool observed; what the model noted or the
 * distiller drew from dropped turns.
 */
import type { FactClass, FactKind } from "./kinds.ts";
import { findKind } from "./kinds.ts";
import { type NormaliseContext, normaliseName } from "./normalise.ts";
import type { FactBookState } from "./book_state.ts";

/** Who said a fact. */
export type FactAuthor = "person" | "caller" | "tool" | "model";
/** How it came to be said. */
export type FactMethod = "stated" | "observed" | "noted" | "distilled" | "kept";

/** Where a version came from. */
export interface FactSource {
  by: FactAuthor;
  method: FactMethod;
  /** The turn it was said in (absent for a permanent fact from an earlier conversation). */
  turn?: number;
  /** For a fact drawn from several turns: the last of them (`turns 3–5`, with `turn` the first). */
  lastTurn?: number;
  /** The store entry it came from. */
  entry?: number;
  /** The tool that observed it. */
  tool?: string;
  /** When the person kept it (a permanent fact). */
  keptAt?: string;
}

/** What a version's value is now. */
export type FactState = "current" | "superseded" | "outranked" | "expired";

/** One value of one fact. */
export interface FactVersion {
  /** c1, c2, … in the order recorded; every version has its own. */
  id: string;
  subject: string;
  /** The name as written. */
  name: string;
  /** The name as the kind's normaliser reads it. */
  key: string;
  value: string;
  class: FactClass;
  source: FactSource;
  at: string;
  state: FactState;
  /** The version this one replaced. */
  supersedes?: string;
  /** permanent: kept in wisp's home (or offered from it); thread: this conversation's alone. */
  scope: "thread" | "permanent";
}

/** A fact as someone states it. */
export interface FactInput {
  subject: string;
  name?: string;
  value: string;
  source: FactSource;
}

/** A fact the book refuses (an unknown kind, an empty value), as one sentence. */
export class FactError extends Error {}

/** Where the book reports what it records (an audit sink's `record`, or nothing). */
export type FactEventSink = (kind: "fact.recorded", fields: Record<string, unknown>) => void;

/** A permanent fact offered from wisp's home (permanent.ts). */
export interface OfferedFact {
  subject: string;
  name: string;
  value: string;
  keptAt: string;
}

/** What a book is made from: the kinds, the permanent facts offered, how names are read, where events go. */
export interface FactBookOptions {
  kinds: readonly FactKind[];
  /** Permanent facts from wisp's home, offered to this conversation. */
  permanent?: readonly OfferedFact[];
  normalise?: NormaliseContext;
  onEvent?: FactEventSink;
}

/** The most characters a name or value keeps; longer ones are cut with an ellipsis. */
const NAME_MAX = 120;
const VALUE_MAX = 300;
/** Characters per token where the kind's share of the window is measured (the documented estimate). */
const CHARS_PER_TOKEN = 4;

function rankOf(source: FactSource): number {
  switch (source.by) {
    case "person":
    case "caller":
      return 3;
    case "tool":
      return 2;
    case "model":
      return 1;
  }
}

/** Where a fact's current version is found: its kind and its name as normalised. */
function slotOf(fact: { subject: string; key: string }): string {
  return `${fact.subject}\u0000${fact.key}`;
}

function cut(text: string, max: number): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length <= max ? one : one.slice(0, max - 1) + "…";
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A source as a fact's line reads it: `from tool run_command, turn 2, entry 9`, `model, noted, turn 4`. */
export function sourceText(source: FactSource): string {
  const where = [
    ...(source.turn !== undefined
      ? [
        source.lastTurn !== undefined && source.lastTurn !== source.turn
          ? `turns ${source.turn}–${source.lastTurn}`
          : `turn ${source.turn}`,
      ]
      : []),
    ...(source.entry !== undefined ? [`entry ${source.entry}`] : []),
  ];
  if (source.method === "kept") {
    const date = source.keptAt ? new Date(source.keptAt) : undefined;
    const when = date && !Number.isNaN(date.getTime())
      ? ` ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`
      : "";
    return `yours, kept${when}`;
  }
  if (source.by === "tool") {
    return [`from tool ${source.tool ?? "?"}`, ...where].join(", ");
  }
  const who = source.by === "person" ? "you" : source.by;
  return [who, source.method, ...where].join(", ");
}

/** A fact's `subject name = value` text, as lines and requests show it. */
export function factText(fact: { subject: string; name: string; value: string }): string {
  return `${fact.subject}${fact.name ? ` ${fact.name}` : ""} = ${fact.value}`;
}

/** One conversation's facts (see the module comment). */
export class FactBook {
  readonly kinds: readonly FactKind[];
  #versions: FactVersion[] = [];
  /** Index of the current version of each fact (subject + key). */
  #current = new Map<string, FactVersion>();
  /** Facts the person declined to keep: not asked about again. */
  #declined = new Set<string>();
  #next = 1;
  #turn = 0;
  /** The current facts in order, kept until the book changes (lines() runs for every request). */
  #ordered: FactVersion[] | undefined;
  /** Each version's line, made once: a version's text and source never change. */
  #lineOf = new WeakMap<FactVersion, string>();

  constructor(readonly options: FactBookOptions) {
    this.kinds = options.kinds;
    for (const fact of options.permanent ?? []) {
      try {
        const version = this.#add(
          {
            subject: fact.subject,
            name: fact.name,
            value: fact.value,
            source: { by: "person", method: "kept", keptAt: fact.keptAt },
          },
          "permanent",
          false,
        );
        void version;
      } catch { /* a kind since removed from config: not offered */ }
    }
  }

  /** The turn now running; ephemeral facts last this turn and the next. */
  get turn(): number {
    return this.#turn;
  }

  /** Start turn `n` (from 1): ephemeral facts older than the turn before it expire. */
  beginTurn(n: number): void {
    this.#turn = n;
    for (const [k, v] of this.#current) {
      if (v.class === "ephemeral" && (v.source.turn ?? 0) < n - 1) {
        v.state = "expired";
        this.#current.delete(k);
        this.#ordered = undefined;
      }
    }
  }

  /**
   * Record a fact. A value equal to the current one from a source of the
   * same or a lower rank changes nothing (the current version is returned);
   * a different value replaces the current one unless the current one's
   * source outranks it, in which case it is kept as `outranked`.
   */
  record(input: FactInput): FactVersion {
    return this.#add(input, "thread", true);
  }

  #add(input: FactInput, scope: "thread" | "permanent", report: boolean): FactVersion {
    const kind = findKind(this.kinds, input.subject);
    if (!kind) {
      throw new FactError(
        `there is no fact kind "${input.subject}"; the kinds are ${
          this.kinds.map((k) => k.name).join(", ")
        } (facts.kinds in config.json adds more)`,
      );
    }
    const value = cut(input.value.replace(/^["'“”‘’]+|["'“”‘’]+$/g, ""), VALUE_MAX);
    if (value === "") throw new FactError(`a ${kind.name} fact needs a value after =`);
    const name = kind.normaliser === "single" ? "" : cut(input.name ?? "", NAME_MAX);
    if (kind.normaliser !== "single" && name === "") {
      throw new FactError(`a ${kind.name} fact needs a name before =: ${kind.name} NAME = VALUE`);
    }
    const key = normaliseName(kind.normaliser, name, this.options.normalise);
    const slot = `${kind.name}\u0000${key}`;
    const current = this.#current.get(slot);
    if (current && current.value === value && rankOf(current.source) >= rankOf(input.source)) {
      return current;
    }
    const outranked = current !== undefined && rankOf(current.source) > rankOf(input.source);
    const version: FactVersion = {
      id: `c${this.#next++}`,
      subject: kind.name,
      name,
      key,
      value,
      class: kind.class,
      source: {
        ...input.source,
        ...(input.source.turn === undefined && scope === "thread" && this.#turn > 0
          ? { turn: this.#turn }
          : {}),
      },
      at: new Date().toISOString(),
      state: outranked ? "outranked" : "current",
      ...(current && !outranked ? { supersedes: current.id } : {}),
      scope: current?.scope === "permanent" && !outranked && current.value === value
        ? "permanent"
        : scope,
    };
    if (current && !outranked) current.state = "superseded";
    if (!outranked) {
      this.#current.set(slot, version);
      this.#ordered = undefined;
    }
    this.#versions.push(version);
    if (report) {
      this.options.onEvent?.("fact.recorded", {
        factId: version.id,
        subject: version.subject,
        name: version.name,
        value: version.value,
        class: version.class,
        by: version.source.by,
        method: version.source.method,
        source: sourceText(version.source),
        ...(version.supersedes ? { supersedes: version.supersedes } : {}),
        ...(outranked ? { outranked: true } : {}),
      });
    }
    return version;
  }

  /** The version with this id (any state), or undefined. */
  find(id: string): FactVersion | undefined {
    return this.#versions.find((v) => v.id === id.trim().toLowerCase());
  }

  /** The current version of the fact a version belongs to, or undefined when it has none now. */
  currentOf(version: FactVersion): FactVersion | undefined {
    return this.#current.get(`${version.subject}\u0000${version.key}`);
  }

  /** Every version of the fact `id` belongs to, oldest first. */
  history(id: string): FactVersion[] {
    const version = this.find(id);
    if (!version) return [];
    return this.#versions.filter((v) => v.subject === version.subject && v.key === version.key);
  }

  /** The current facts, in kind order, then in the order recorded. */
  current(): FactVersion[] {
    if (!this.#ordered) {
      const order = new Map(this.kinds.map((k, i) => [k.name, i]));
      const seq = (v: FactVersion) => Number(v.id.slice(1));
      this.#ordered = [...this.#current.values()].sort((a, b) =>
        (order.get(a.subject) ?? 0) - (order.get(b.subject) ?? 0) || seq(a) - seq(b)
      );
    }
    return [...this.#ordered];
  }

  #line(fact: FactVersion): string {
    let line = this.#lineOf.get(fact);
    if (line === undefined) {
      line = lineOf(fact);
      this.#lineOf.set(fact, line);
    }
    return line;
  }

  /** Every version recorded, oldest first. */
  all(): readonly FactVersion[] {
    return this.#versions;
  }

  /** Mark a fact as kept in wisp's home (its current version, and the fact's later equal values). */
  markPermanent(id: string): FactVersion | undefined {
    const version = this.find(id);
    const current = version ? this.currentOf(version) ?? version : undefined;
    if (current) current.scope = "permanent";
    return current;
  }

  /**
   * The book as plain JSON for a transcript (book_state.ts): the versions
   * this conversation recorded, not the permanent facts offered from wisp's
   * home (those stay in facts.json).
   */
  snapshot(): FactBookState {
    return {
      versions: this.#versions
        .filter((v) => v.source.method !== "kept")
        .map((v) => ({ ...v, source: { ...v.source } })),
      declined: [...this.#declined],
      next: this.#next,
      turn: this.#turn,
    };
  }

  /**
   * Take on a saved state in a book that holds only the permanent facts
   * offered to it (a resumed chat). The saved versions keep their ids,
   * sources and states; a version of a kind no longer configured is left
   * out. Each offered permanent fact is then laid over them: where the
   * conversation's own current version of that fact ranks as high (the
   * person stated it after the offer), that version stays current;
   * otherwise the offered fact does, under a new id. Returns how many saved
   * versions were left out. Throws when the book already holds facts of
   * its own.
   */
  restore(state: FactBookState): number {
    if (this.#versions.some((v) => v.source.method !== "kept")) {
      throw new Error("a fact book is restored only before it records anything");
    }
    const offered = [...this.#versions];
    const known = new Set(this.kinds.map((k) => k.name));
    const saved = state.versions.filter((v) => v.source.method !== "kept");
    const usable = saved.filter((v) => known.has(v.subject));
    this.#versions = usable.map((v) => ({ ...v, source: { ...v.source } }));
    this.#current.clear();
    for (const v of this.#versions) {
      if (v.state === "current") this.#current.set(slotOf(v), v);
    }
    this.#declined = new Set(state.declined);
    const highest = Math.max(0, ...this.#versions.map((v) => Number(v.id.slice(1))));
    this.#next = Math.max(state.next, highest + 1);
    this.#turn = state.turn;
    for (const fact of offered) {
      const slot = slotOf(fact);
      const current = this.#current.get(slot);
      if (current && rankOf(current.source) >= rankOf(fact.source)) {
        if (current.value === fact.value) current.scope = "permanent";
        continue;
      }
      if (current) current.state = "outranked";
      const version: FactVersion = { ...fact, id: `c${this.#next++}`, state: "current" };
      this.#current.set(slot, version);
      this.#versions.push(version);
    }
    this.#ordered = undefined;
    return saved.length - usable.length;
  }

  /**
   * A way back to the book as it is now: calling the returned function
   * forgets every version recorded since and puts back each older
   * version's state. Condensing takes one before it distils, so a stopped
   * condensing leaves no fact half-applied.
   */
  checkpoint(): () => void {
    const count = this.#versions.length;
    const states = this.#versions.map((v) => ({ state: v.state, scope: v.scope }));
    const current = new Map(this.#current);
    const declined = new Set(this.#declined);
    const next = this.#next;
    return () => {
      this.#versions.length = count;
      this.#versions.forEach((v, i) => Object.assign(v, states[i]));
      this.#current = current;
      this.#declined = declined;
      this.#next = next;
      this.#ordered = undefined;
    };
  }

  /** The person declined to keep this fact: the book remembers not to ask again. */
  decline(id: string): void {
    const version = this.find(id);
    if (version) this.#declined.add(`${version.subject}\u0000${version.key}\u0000${version.value}`);
  }

  /** Whether the person declined to keep this fact's value. */
  declined(version: FactVersion): boolean {
    return this.#declined.has(`${version.subject}\u0000${version.key}\u0000${version.value}`);
  }

  /**
   * What composition puts into the request: one line per current fact,
   * `c3 entity release codename = BLUE HERON (model, noted, turn 4)`. With
   * `windowTokens`, a kind that sets a share keeps only its newest lines
   * that fit that share of the window.
   */
  lines(options: { windowTokens?: number } = {}): string[] {
    const facts = this.current();
    const bounded = options.windowTokens !== undefined && this.kinds.some((k) => k.share);
    if (!bounded) return facts.map((f) => this.#line(f));
    const kept = new Set(facts);
    if (options.windowTokens !== undefined) {
      for (const kind of this.kinds) {
        if (kind.share === undefined) continue;
        let room = kind.share * options.windowTokens * CHARS_PER_TOKEN;
        const ofKind = facts.filter((f) => f.subject === kind.name).reverse();
        for (const fact of ofKind) {
          room -= this.#line(fact).length + 1;
          if (room < 0) kept.delete(fact);
        }
      }
    }
    return facts.filter((f) => kept.has(f)).map((f) => this.#line(f));
  }
}

/** One fact's line. */
export function lineOf(fact: FactVersion): string {
  return `${fact.id} ${factText(fact)} (${sourceText(fact.source)})`;
}
