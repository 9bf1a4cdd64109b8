/**
 * Chat's fact commands, on the conversation's fact book (the book the
 * context shows beside each request, src/context/facts/):
 *
 * - `/fact` lists the conversation's facts with their ids; `/fact SUBJECT
 *   [NAME] = VALUE` states one as the person's (it outranks the tools' and
 *   the model's); `/fact ID permanent` keeps one in wisp's home for later
 *   conversations.
 * - `/facts keep|drop [ID]` answers a wisp mcp caller's request to keep a
 *   fact, with the same checks as `wisp facts keep|drop`.
 * - `/task [TEXT | clear]` states the conversation's task fact.
 *
 * Keeping a fact writes wisp's home, so, as `wisp facts keep`, it answers
 * only when the chat's input is a terminal: no program feeding the chat can
 * keep a fact for the person.
 */
import {
  FactError,
  keepPermanentFact,
  lineOf,
  parseFactStatement,
  sourceText,
} from "../../context/facts/mod.ts";
import { messageOf } from "../../util/errors.ts";
import type { ChatEngine } from "./engine.ts";
import { answeredInChat } from "./waiting.ts";

const FACTS_OFF =
  "this chat keeps no facts (facts.enabled is false); /config set facts.enabled true turns them on for the next conversation";

function say(engine: ChatEngine, line: string): void {
  engine.note(line, "plain", "command");
}

function warn(engine: ChatEngine, line: string): void {
  engine.note(line, "warn", "command");
}

/** The turn a statement made now belongs to: the next one. */
function nextTurn(engine: ChatEngine): number {
  return engine.conversation.context.store.turnCount + 1;
}

/** Why keeping is refused here, or undefined when the chat's input is a terminal. */
function notAtTerminal(engine: ChatEngine, what: string): string | undefined {
  if (engine.options.inputIsTerminal) return undefined;
  return `${what} answers only when the chat's input is a terminal, so that no program can keep a fact for you; use wisp facts at a terminal`;
}

/** /fact, /fact SUBJECT [NAME] = VALUE, /fact ID permanent. */
export function factCommand(engine: ChatEngine, rest: string): void {
  const book = engine.factBook;
  if (!book) {
    warn(engine, FACTS_OFF);
    return;
  }
  if (rest === "") {
    const facts = book.current();
    if (facts.length === 0) {
      say(engine, "no facts in this conversation yet; /fact SUBJECT [NAME] = VALUE states one");
      return;
    }
    for (const f of facts) {
      say(engine, `  ${f.id}  ${lineOf(f)}${f.scope === "permanent" ? " (permanent)" : ""}`);
    }
    return;
  }
  const keep = /^(c\d+)\s+permanent$/i.exec(rest);
  if (keep) {
    keepAsPermanent(engine, keep[1].toLowerCase());
    return;
  }
  const parsed = parseFactStatement(rest, book.kinds);
  if (!parsed.ok) {
    warn(engine, parsed.reason);
    return;
  }
  try {
    const version = book.record({
      ...parsed.fact,
      source: { by: "person", method: "stated", turn: nextTurn(engine) },
    });
    say(engine, `fact ${version.id}: ${lineOf(version)} (the model sees it beside each request)`);
  } catch (error) {
    if (!(error instanceof FactError)) throw error;
    warn(engine, error.message);
  }
}

/** /fact ID permanent: the fact goes to facts.json, offered to later conversations. */
function keepAsPermanent(engine: ChatEngine, id: string): void {
  const refused = notAtTerminal(engine, "/fact ID permanent");
  if (refused) {
    warn(engine, refused);
    return;
  }
  const book = engine.factBook!;
  const found = book.find(id);
  const fact = found ? book.currentOf(found) ?? found : undefined;
  if (!fact) {
    warn(engine, `no fact ${id} in this conversation; /fact lists them`);
    return;
  }
  try {
    const kept = keepPermanentFact(engine.options.paths.facts, {
      subject: fact.subject,
      name: fact.name,
      key: fact.key,
      value: fact.value,
      from: { factId: fact.id, source: sourceText(fact.source) },
      via: engine.via,
    });
    book.markPermanent(fact.id);
    if (!kept.already) {
      engine.session.audit.record("fact.kept", {
        fact: `${fact.subject}${fact.name ? ` ${fact.name}` : ""} = ${fact.value}`,
        permanentId: kept.fact.id,
        by: "chat",
      });
    }
    say(
      engine,
      kept.already
        ? `already kept: ${lineOf(fact)}`
        : `kept as a permanent fact: ${lineOf(fact)} (later conversations are offered it)`,
    );
  } catch (error) {
    warn(engine, `${messageOf(error)}; nothing was kept`);
  }
}

/** /facts keep|drop [ID]: a wisp mcp caller's fact, answered as wisp facts keep|drop does. */
export async function factsCommand(engine: ChatEngine, args: string[]): Promise<void> {
  const [verb, id] = args;
  if (verb !== "keep" && verb !== "drop") {
    warn(engine, "/facts takes keep ID or drop ID; wisp facts pending lists what waits");
    return;
  }
  const refused = notAtTerminal(engine, `/facts ${verb}`);
  if (refused) {
    warn(engine, refused);
    return;
  }
  const { listPendingFacts } = await import("../../gate/pending.ts");
  const dir = engine.options.paths.pending;
  let target = id;
  if (!target) {
    const listed = await listPendingFacts(dir);
    if (listed.length === 0) {
      say(engine, "no fact waits to be kept in wisp mcp");
      return;
    }
    const chosen = await engine.choose({
      kind: "pick",
      title: `/facts ${verb}: which fact?`,
      options: listed.map(({ request }) => ({
        value: request.id,
        label: `${request.fact.subject}${
          request.fact.name ? ` ${request.fact.name}` : ""
        } = ${request.fact.value} (${request.client}, thread ${request.thread})`,
      })),
    });
    if (!chosen.value) {
      say(engine, "nothing was answered");
      return;
    }
    target = chosen.value;
  }
  const { answerPending } = await import("../mcp/answer.ts");
  // A request whose server stopped is applied here, and audited here (as wisp facts does).
  const audited = (
    kind: "fact.kept" | "fact.dropped",
    request: { id: string; thread: string; fact: { subject: string; name: string; value: string } },
    permanentId?: string,
  ) =>
    engine.session.audit.record(kind, {
      fact: `${request.fact.subject}${
        request.fact.name ? ` ${request.fact.name}` : ""
      } = ${request.fact.value}`,
      ...(permanentId ? { permanentId } : {}),
      by: "chat, its server had stopped",
      pendingId: request.id,
      thread: request.thread,
    } as never);
  const result = await answerPending(dir, target, {
    decision: verb,
    factsPath: engine.options.paths.facts,
    via: engine.via,
    onKept: (request, permanentId) => audited("fact.kept", request, permanentId),
    onDropped: (request) => audited("fact.dropped", request),
  });
  if (result.exitCode === 0) answeredInChat(target);
  engine.note(result.message, result.exitCode === 0 ? "plain" : "warn", "command");
}

/**
 * /task shows, sets or clears the conversation's task. With facts on, the
 * task is the book's task fact, the person's own (the model's `task` note
 * cannot replace it), shown beside each request; with facts off, it rides
 * on each prompt.
 */
export function taskCommand(engine: ChatEngine, rest: string): void {
  const book = engine.factBook;
  if (rest === "") {
    say(engine, engine.task ? `the task: ${engine.task}` : "no task is set; /task TEXT sets one");
    return;
  }
  if (rest === "clear") {
    engine.task = undefined;
    say(
      engine,
      book?.current().some((f) => f.subject === "task")
        ? "the task is cleared here; its fact stays among this conversation's facts until /task TEXT replaces it or /new starts over"
        : "the task is cleared",
    );
    return;
  }
  if (book) {
    try {
      book.record({
        subject: "task",
        value: rest,
        source: { by: "person", method: "stated", turn: nextTurn(engine) },
      });
    } catch (error) {
      if (!(error instanceof FactError)) throw error;
      warn(engine, error.message);
      return;
    }
  }
  engine.task = rest;
  say(engine, `the task: ${rest} (the model sees it beside each request)`);
}
