/**
 * A fact as a person or a model writes it in one line: `SUBJECT [NAME] =
 * VALUE` (the person's `/fact`, the memory tool's `note`), and the forms a
 * small model writes instead, `SUBJECT: NAME = VALUE` and `SUBJECT NAME:
 * VALUE`. Quotes around the value are dropped. Pure.
 */
import { type FactKind, findKind } from "./kinds.ts";

/** A statement read: the kind, the name (empty for a single kind) and the value. */
export interface FactStatement {
  subject: string;
  name: string;
  value: string;
}

const QUOTES = /^(["'“”‘’`])(.*)\1$|^“(.*)”$|^‘(.*)’$/s;

function unquote(text: string): string {
  const trimmed = text.trim();
  const m = QUOTES.exec(trimmed);
  return m ? (m[2] ?? m[3] ?? m[4] ?? "").trim() : trimmed;
}

/**
 * Read one statement against the conversation's kinds; a sentence saying
 * what is wrong when it is not one.
 */
export function parseFactStatement(
  text: string,
  kinds: readonly FactKind[],
): { ok: true; fact: FactStatement } | { ok: false; reason: string } {
  const line = text.replace(/\s+/g, " ").trim();
  const form =
    "write it as SUBJECT NAME = VALUE, for example: entity release codename = BLUE HERON";
  // The subject is the first word, with or without a colon after it.
  const head = /^([A-Za-z][\w-]*):?(?:\s+|$)/.exec(line);
  if (!head) return { ok: false, reason: `"${line}" does not start with a kind; ${form}` };
  const kind = findKind(kinds, head[1]);
  if (!kind) {
    return {
      ok: false,
      reason: `there is no fact kind "${head[1]}"; the kinds are ${
        kinds.map((k) => k.name).join(", ")
      }`,
    };
  }
  const rest = line.slice(head[0].length);
  if (kind.normaliser === "single") {
    // One value per conversation: everything after the kind (and an = or :) is the value, so a
    // task keeps its `; objective: …` whole.
    const equals = rest.indexOf("=");
    const value = unquote(
      head[0].includes(":") || equals < 0 ? rest.replace(/^=/, "") : rest.slice(equals + 1),
    );
    if (value === "") return { ok: false, reason: `"${line}" has no value; ${form}` };
    return { ok: true, fact: { subject: kind.name, name: "", value } };
  }
  let name: string;
  let value: string;
  const equals = rest.indexOf("=");
  if (equals >= 0) {
    name = rest.slice(0, equals).trim();
    value = rest.slice(equals + 1);
  } else {
    const colon = rest.indexOf(":");
    if (colon < 0) return { ok: false, reason: `"${line}" has no value after = or :; ${form}` };
    name = rest.slice(0, colon).trim();
    value = rest.slice(colon + 1);
  }
  value = unquote(value);
  if (value === "") return { ok: false, reason: `"${line}" has no value after =; ${form}` };
  if (name === "") {
    return { ok: false, reason: `a ${kind.name} fact needs a name before =; ${form}` };
  }
  return {
    ok: true,
    fact: { subject: kind.name, name: unquote(name), value },
  };
}
