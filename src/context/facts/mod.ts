/**
 * Facts, for the rest of wisp: a conversation opens its book with
 * `openFactBook`, composition puts `book.lines()` into each request, and
 * condensing hands dropped turns to `distil(text, source, backend, book)`.
 * `bookSink({ book, backend, audit })` is all of that in the shape the
 * context's fact seam takes (distil, lines, note).
 *
 *   const book = openFactBook({ config, paths, audit });
 *   book.beginTurn(turn);
 *   const factLines = book.lines({ windowTokens });
 *   for (const fact of observe({ tool, command, cwd, exitStatus, output, turn, entry })) book.record(fact);
 *   await distil(droppedText, { turn, entry }, backend, book, { onDone: (f) => audit.record("fact.distilled", f) });
 */
import type { Config } from "../../config/schema.ts";
import type { HomePaths } from "../../config/home.ts";
import type { AuditSink } from "../../audit/writer.ts";
import { FactBook } from "./book.ts";
import { type FactKindSetting, resolveKinds } from "./kinds.ts";
import { gitRootOf } from "./normalise.ts";
import { offeredFacts } from "./permanent.ts";
import type { Backend } from "../../models/backend.ts";
import type { FactSink } from "../facts_sink.ts";
import { bookSink } from "./sink.ts";

// The pieces the rest of wisp uses, from the files that own them.
export { FactBook, FactError, factText, lineOf, sourceText } from "./book.ts";
export type { FactInput, FactSource, FactVersion, OfferedFact } from "./book.ts";
export { readBookState } from "./book_state.ts";
export type { FactBookState } from "./book_state.ts";
export { findKind, resolveKinds } from "./kinds.ts";
export type { FactClass, FactKind } from "./kinds.ts";
export { distil, parseDistillerReply } from "./distiller.ts";
export { observe } from "./observe.ts";
export { parseFactStatement } from "./statement.ts";
export { bookSink } from "./sink.ts";
export type { BookSinkOptions, NotedFactInput } from "./sink.ts";
export type { FactStatement } from "./statement.ts";
export type { ObservedRun } from "./observe.ts";
export type { DistilResult } from "./distiller.ts";
export { keepPermanentFact, offeredFacts, readPermanentFacts } from "./permanent.ts";
export type { PermanentFact } from "./permanent.ts";

/**
 * A conversation's fact book: the kinds from config.json, the permanent
 * facts from wisp's home offered to it, paths read from `cwd`, each fact
 * recorded audited as fact.recorded. Undefined when facts.enabled is false.
 */
export function openFactBook(options: {
  config: Pick<Config, "facts">;
  paths: Pick<HomePaths, "facts">;
  audit?: Pick<AuditSink, "record">;
  cwd?: string;
}): FactBook | undefined {
  if (!options.config.facts.enabled) return undefined;
  const audit = options.audit;
  return new FactBook({
    kinds: resolveKinds(options.config.facts.kinds as FactKindSetting[]),
    permanent: offeredFacts(options.paths.facts),
    normalise: { cwd: options.cwd ?? Deno.cwd(), repoRootOf: gitRootOf },
    ...(audit ? { onEvent: (kind, fields) => audit.record(kind, fields as never) } : {}),
  });
}

/**
 * A conversation's facts, opened and wired in one step: its book (see
 * openFactBook) and the sink the context takes (`ConversationOptions.facts`),
 * whose distiller is `backend`. Undefined when facts.enabled is false.
 */
export function openConversationFacts(options: {
  config: Pick<Config, "facts">;
  paths: Pick<HomePaths, "facts">;
  audit?: Pick<AuditSink, "record">;
  cwd?: string;
  backend?: Backend;
}): { book: FactBook; sink: FactSink } | undefined {
  const book = openFactBook(options);
  if (!book) return undefined;
  return {
    book,
    sink: bookSink({
      book,
      ...(options.backend ? { backend: options.backend } : {}),
      ...(options.audit ? { audit: options.audit } : {}),
    }),
  };
}
