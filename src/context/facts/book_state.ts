/**
 * A fact book's state as plain JSON, for a chat transcript to save and a
 * resumed chat to restore (ADR 0620): every version the conversation itself
 * recorded — stated, observed, noted, distilled — with its id, source and
 * state, the values the person declined to keep, and the counters. The
 * permanent facts offered from wisp's home are not in it: they stay in
 * facts.json and a resumed book is offered them afresh.
 *
 * `readBookState` checks a saved value's shape and says in one phrase what
 * is wrong with a damaged one; it never throws.
 */
import type { FactVersion } from "./book.ts";
import { FACT_CLASSES } from "./kinds.ts";

/** What a book saves (see the module comment). */
export interface FactBookState {
  /** The conversation's own versions, oldest first. */
  versions: FactVersion[];
  /** The values the person declined to keep, as the book keys them. */
  declined: string[];
  /** The number the next version's id takes (c<next>). */
  next: number;
  /** The turn the book was in. */
  turn: number;
}

const AUTHORS = new Set(["person", "caller", "tool", "model"]);
const METHODS = new Set(["stated", "observed", "noted", "distilled", "kept"]);
const STATES = new Set(["current", "superseded", "outranked", "expired"]);
const CLASSES = new Set<string>(FACT_CLASSES);
const ID = /^c[1-9][0-9]*$/;

const isCount = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v >= 0;
const isText = (v: unknown) => typeof v === "string";
const optional = (v: unknown, check: (v: unknown) => boolean) => v === undefined || check(v);

/** Why one saved version is unusable, or undefined when it is whole. */
function versionProblem(value: unknown, index: number): string | undefined {
  const where = `version ${index + 1}`;
  if (!value || typeof value !== "object") return `${where} is not an object`;
  const v = value as Record<string, unknown>;
  if (!isText(v.id) || !ID.test(v.id as string)) return `${where} has no id like c7`;
  for (const field of ["subject", "name", "key", "value", "at"]) {
    if (!isText(v[field])) return `${where} (${v.id}) has no ${field}`;
  }
  if (!CLASSES.has(String(v.class))) return `${where} (${v.id}) has an unknown class`;
  if (!STATES.has(String(v.state))) return `${where} (${v.id}) has an unknown state`;
  if (v.scope !== "thread" && v.scope !== "permanent") {
    return `${where} (${v.id}) has an unknown scope`;
  }
  if (!optional(v.supersedes, isText)) return `${where} (${v.id}) has a malformed supersedes`;
  const s = v.source as Record<string, unknown> | undefined;
  if (
    !s || typeof s !== "object" || !AUTHORS.has(String(s.by)) || !METHODS.has(String(s.method)) ||
    !optional(s.turn, isCount) || !optional(s.lastTurn, isCount) || !optional(s.entry, isCount) ||
    !optional(s.tool, isText) || !optional(s.keptAt, isText)
  ) {
    return `${where} (${v.id}) has a malformed source`;
  }
  return undefined;
}

/**
 * A saved book state, checked: the state, or the reason it cannot be used
 * (the first thing found wrong). Pure.
 */
export function readBookState(
  value: unknown,
): { ok: true; state: FactBookState } | { ok: false; reason: string } {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, reason: "it is not an object" };
  }
  const s = value as Record<string, unknown>;
  if (!Array.isArray(s.versions)) return { ok: false, reason: "it has no list of versions" };
  if (!Array.isArray(s.declined) || !s.declined.every(isText)) {
    return { ok: false, reason: "its declined list is malformed" };
  }
  if (!isCount(s.next) || (s.next as number) < 1) {
    return { ok: false, reason: "its next id is malformed" };
  }
  if (!isCount(s.turn)) return { ok: false, reason: "its turn is malformed" };
  const ids = new Set<string>();
  for (const [index, version] of s.versions.entries()) {
    const problem = versionProblem(version, index);
    if (problem) return { ok: false, reason: problem };
    const { id } = version as { id: string };
    if (ids.has(id)) return { ok: false, reason: `the id ${id} is used twice` };
    if (Number(id.slice(1)) >= (s.next as number)) {
      return { ok: false, reason: `the id ${id} is not below its next id` };
    }
    ids.add(id);
  }
  return {
    ok: true,
    state: {
      versions: (s.versions as FactVersion[]).map((v) => ({ ...v, source: { ...v.source } })),
      declined: [...(s.declined as string[])],
      next: s.next as number,
      turn: s.turn as number,
    },
  };
}
