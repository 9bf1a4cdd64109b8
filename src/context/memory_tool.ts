/**
 * memory: the conversation's memory, for the model — one text argument whose
 * first word is the verb, because the references the model reads already
 * spell a recall (`memory "recall entry 7"`), and a small model copies a
 * phrase more reliably than it fills optional fields.
 *
 * - recall entry N | turn N | output ID | task | fact NAME [from line M]:
 *   earlier material in full, a page at a time within the tool-output
 *   budget, read from the audit log (the one verbatim record) or, where the
 *   audit does not hold it, from the conversation's store; the header says
 *   which.
 * - summarise entry N | output ID [overview]: the notable lines by exact
 *   readers (triage's), no model.
 * - condense entry N | output ID: QUESTION: the question asked of each chunk
 *   of the whole in a side call of the conversation's model, the answers
 *   joined.
 * - note SUBJECT NAME = VALUE, task THE TASK; objective: …: a fact the model
 *   wants kept, through the conversation's facts (at most 12 a turn).
 *
 * Off by default (context.memory, or named in a conversation's tool list).
 * It reads only the conversation's own record and the audit log, writes only
 * the conversation's facts, runs no command, and needs no approval. Every
 * call is also audited as `context.memory`. ADR 0504 records the choices.
 */
import { z } from "zod";
import { readAuditLog } from "../audit/reader.ts";
import type { AuditEvent } from "../audit/catalogue.ts";
import { triageText } from "../condense/triage.ts";
import type { Tool, ToolContext, ToolResult } from "../tools/tool.ts";
import { byteLength, formatBytes, formatCount } from "../util/bytes.ts";
import { ConversationContext } from "./context.ts";
import type { DroppedEntry, StoreEntry } from "./store.ts";
import { readCopiedText } from "./store_copy.ts";
import { auditedText } from "./rotating_log.ts";
import { callLabel } from "./reference.ts";

/** Notes (and tasks) a turn may keep. */
export const NOTES_PER_TURN = 12;
/** A task is cut to this many characters. */
const TASK_CHARS = 300;
/** condense reads at most this many chunks of an output. */
const CONDENSE_CHUNKS = 48;
/** The subjects the model may note (the person's own kinds — file, service, machine — are the tools'). */
export const NOTE_SUBJECTS = [
  "task",
  "decision",
  "preference",
  "entity",
  "tests",
  "workdir",
  "branch",
];
const EXAMPLE = "note entity release codename = BLUE HERON";

const memorySchema = z.object({
  request: z.string().describe(
    `"recall entry 7", "recall turn 3", "recall task", "recall fact codename", or "${EXAMPLE}".`,
  ),
});
type MemoryArgs = z.infer<typeof memorySchema>;

/** The verb and the rest of a request; no verb is a recall, remember is note. */
export function parseRequest(request: string): { verb: string; rest: string } {
  const text = request.trim().replace(/^memory\s+/i, "").replace(/^"(.*)"$/s, "$1").trim();
  const match = text.match(/^(\w+)\s*(.*)$/s);
  const first = match?.[1].toLowerCase() ?? "";
  const verbs: Record<string, string> = {
    recall: "recall",
    summarise: "summarise",
    summarize: "summarise",
    condense: "condense",
    note: "note",
    remember: "note",
    task: "task",
  };
  if (verbs[first]) return { verb: verbs[first], rest: match![2].trim() };
  return { verb: "recall", rest: text };
}

/** What a recall, summarise or condense names: an entry, a turn, a stored output, the task, a fact. */
type Target =
  | { kind: "entry"; n: number }
  | { kind: "turn"; n: number }
  | { kind: "output"; id: string }
  | { kind: "task" }
  | { kind: "fact"; name: string };

/** Read "entry 7 from line 60", "output 3f9a2c1b", "turn 3", "task", "fact codename". */
export function parseTarget(
  text: string,
): { target: Target; fromLine: number; rest: string } | null {
  const from = text.match(/\s+from line\s+(\d+)\b/i);
  const fromLine = from ? Math.max(1, Number(from[1])) : 1;
  const body = from ? text.replace(from[0], " ").trim() : text.trim();
  let m = body.match(/^entry\s+#?(\d+)\b\s*(.*)$/is);
  if (m) return { target: { kind: "entry", n: Number(m[1]) }, fromLine, rest: m[2] };
  m = body.match(/^#?(\d+)\b\s*(.*)$/s);
  if (m) return { target: { kind: "entry", n: Number(m[1]) }, fromLine, rest: m[2] };
  m = body.match(/^turn\s+#?(\d+)\b\s*(.*)$/is);
  if (m) return { target: { kind: "turn", n: Number(m[1]) }, fromLine, rest: m[2] };
  m = body.match(/^output\s+([A-Za-z0-9_-]+)\s*(.*)$/is);
  if (m) return { target: { kind: "output", id: m[1] }, fromLine, rest: m[2] };
  if (/^task\b/i.test(body)) return { target: { kind: "task" }, fromLine, rest: "" };
  m = body.match(/^facts?\s+(.+)$/is);
  if (m) return { target: { kind: "fact", name: m[1].trim() }, fromLine, rest: "" };
  return null;
}

/** The text of an entry or output, and where it was read from. */
interface Material {
  header: string;
  text: string;
  from: "the audit log" | "the conversation's store" | "the output store";
}

function conversationOf(ctx: ToolContext): ConversationContext | undefined {
  return ctx.conversation instanceof ConversationContext ? ctx.conversation : undefined;
}

/** The audit events of this session, read once per call. */
function auditEvent(ctx: ToolContext, id: string): AuditEvent | undefined {
  if (!ctx.config.audit.enabled) return undefined;
  try {
    return readAuditLog(ctx.home.auditLog).events.find((e) => e.id === id);
  } catch {
    return undefined;
  }
}

function entryHeader(entry: StoreEntry | DroppedEntry, from: string): string {
  const what = entry.kind === "output"
    ? `${entry.tool ?? "tool"} output`
    : entry.kind === "prompt"
    ? "the person's message"
    : entry.kind === "told"
    ? "a command the person ran themselves"
    : "the model's words";
  return `entry ${entry.n}: ${what}, turn ${entry.turn} at ${entry.at.slice(11, 19)}, from ${from}`;
}

function entryMaterial(ctx: ToolContext, entry: StoreEntry | DroppedEntry): Material | string {
  const event = entry.auditEvent ? auditEvent(ctx, entry.auditEvent) : undefined;
  const args = "arguments" in entry && entry.arguments !== undefined
    ? `\narguments: ${JSON.stringify(entry.arguments)}`
    : "";
  const audited = auditedText(entry.kind, event);
  if (audited !== undefined) {
    return {
      header: entryHeader(entry, "the audit log") + args,
      text: audited,
      from: "the audit log",
    };
  }
  const text = "text" in entry && entry.text !== null ? entry.text : null;
  if (text !== null) {
    return {
      header: entryHeader(entry, "the conversation's store") + args,
      text,
      from: "the conversation's store",
    };
  }
  const copy = "copy" in entry && entry.copy ? entry.copy : undefined;
  const copied = copy ? readCopiedText(copy) : undefined;
  if (copied !== undefined) {
    return {
      header: entryHeader(
        entry,
        "the conversation's store (its own copy: the audit log does not hold it)",
      ) + args,
      text: copied,
      from: "the conversation's store",
    };
  }
  const why = whyNotHeld(ctx, entry, copy !== undefined);
  if (entry.excerpt) {
    return {
      header: entryHeader(
        entry,
        `the conversation's store (its first and last lines only: ${why})`,
      ) + args,
      text: entry.excerpt,
      from: "the conversation's store",
    };
  }
  return `memory: entry ${entry.n} is no longer held: ${why}`;
}

/** Why the whole text of an entry cannot be read, in plain words. */
function whyNotHeld(ctx: ToolContext, entry: StoreEntry | DroppedEntry, hadCopy: boolean): string {
  if (hadCopy) return "the store's own copy of it was removed or cannot be read";
  if (entry.auditEvent && ctx.config.audit.enabled) {
    return "the audit log no longer holds it (its event rotated out of the kept log files)";
  }
  if (!ctx.config.audit.enabled) return "the audit is off, and the store kept no copy of it";
  return "the audit log does not hold it and the store kept no copy of it";
}

async function outputMaterial(ctx: ToolContext, id: string): Promise<Material | string> {
  const store = ctx.outputStore as
    | {
      readRange(id: string, offset: number, length: number): Promise<Uint8Array>;
      size(id: string): number;
    }
    | undefined;
  if (!store) return `memory: there is no output store here, so there is no output ${id}`;
  try {
    const size = store.size(id);
    const bytes = await store.readRange(id, 0, size);
    return {
      header: `output ${id}: ${formatBytes(size)}, from the output store`,
      text: new TextDecoder().decode(bytes),
      from: "the output store",
    };
  } catch {
    return `memory: there is no output ${id}; the held-back notes name the outputs kept`;
  }
}

function stored(conversation: ConversationContext): string {
  const count = conversation.store.entryCount;
  return count === 0
    ? "nothing is stored yet: the first turn is all in view"
    : `entries 1 to ${count} and turns 1 to ${conversation.store.turnCount} are stored`;
}

/** One page of numbered lines within `budget` bytes, from `fromLine`. */
export function page(
  material: Material,
  fromLine: number,
  budget: number,
  again: string,
  matching?: string,
): string {
  const lines = material.text.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const wanted = matching?.toLowerCase();
  const head = material.header + (matching ? `\nlines matching "${matching}":` : "") + "\n";
  const endLine = "[end of what recall found]";
  if (fromLine > lines.length) {
    return `memory: ${material.header.split("\n")[0]} has ${
      formatCount(lines.length)
    } lines; there is no line ${fromLine}`;
  }
  let used = byteLength(head) + 120;
  const out: string[] = [];
  let n = fromLine;
  for (; n <= lines.length; n++) {
    if (wanted !== undefined && !lines[n - 1].toLowerCase().includes(wanted)) continue;
    const line = `${n}\t${lines[n - 1]}`;
    const size = byteLength(line) + 1;
    if (used + size > budget && out.length > 0) break;
    out.push(line.length > budget ? line.slice(0, budget - 200) + "…" : line);
    used += size;
  }
  if (matching && out.length === 0) {
    out.push(`(no line from ${fromLine} on contains "${matching}")`);
  }
  const filter = matching ? ` matching ${matching}` : "";
  const tail = n <= lines.length
    ? `[more: memory "${again}${filter} from line ${n}"]`
    : `[end of output]\n${endLine}`;
  return head + out.join("\n") + "\n" + tail;
}

/** What a turn held, entry by entry: prompts and words whole, outputs named (recall them by entry). */
function turnView(conversation: ConversationContext, n: number): string | null {
  const turn = conversation.store.turns.find((t) => t.n === n);
  if (!turn) return null;
  const lines = [`turn ${n}: ${turn.entries.length} entries, from the conversation's store`];
  for (const entry of turn.entries) {
    if (entry.kind === "prompt") lines.push(`entry ${entry.n}, the person: ${entry.text}`);
    else if (entry.kind === "told") lines.push(`entry ${entry.n}, told: ${entry.text}`);
    else if (entry.kind === "reply") {
      if ((entry.text ?? "").trim() !== "") {
        lines.push(`entry ${entry.n}, the model: ${entry.text}`);
      }
      for (const call of entry.calls ?? []) {
        lines.push(`  called ${callLabel({ tool: call.name, arguments: call.arguments })}`);
      }
    } else {
      lines.push(
        `entry ${entry.n}, ${callLabel(entry)} output (${
          formatBytes(entry.chars)
        }): memory "recall entry ${entry.n}" shows it`,
      );
    }
  }
  lines.push("[end of what recall found]");
  return lines.join("\n");
}

async function materialOf(
  ctx: ToolContext,
  conversation: ConversationContext,
  target: Target,
): Promise<Material | string> {
  if (target.kind === "output") return await outputMaterial(ctx, target.id);
  if (target.kind !== "entry") return "memory: name an entry or an output, such as entry 7";
  const entry = conversation.store.entry(target.n);
  if (!entry) return `memory: there is no entry ${target.n}; ${stored(conversation)}`;
  // The running turn's entries are in view whole, except what it was told (a notice of a
  // command the person ran shows only the output's first and last lines).
  if (
    entry.kind !== "told" && conversation.store.current?.entries.some((e) => e.n === entry.n)
  ) {
    return `memory: entry ${target.n} is this turn's own, and is in view whole; a turn's entries are stored when it ends`;
  }
  return entryMaterial(ctx, entry);
}

async function recall(
  ctx: ToolContext,
  conversation: ConversationContext,
  rest: string,
): Promise<{ text: string; action: Record<string, unknown> }> {
  const parsed = parseTarget(rest);
  if (!parsed) {
    return {
      text:
        `memory: say what to recall, such as recall entry 7, recall turn 3, recall task or recall fact codename; ${
          stored(conversation)
        }`,
      action: { verb: "recall", failure: "no target" },
    };
  }
  const { target, fromLine } = parsed;
  if (target.kind === "turn") {
    const view = turnView(conversation, target.n);
    const dropped = target.n >= 1 && target.n <= conversation.store.droppedTurns;
    return {
      text: view ??
        (dropped
          ? `memory: turn ${target.n} left the context: the summary holds it, and its entries can be recalled one by one; ${
            stored(conversation)
          }`
          : `memory: there is no turn ${target.n}; ${stored(conversation)}`),
      action: { verb: "recall", target: "turn", turn: target.n, found: view !== null },
    };
  }
  if (target.kind === "task" || target.kind === "fact") {
    const wanted = target.kind === "task" ? "task" : target.name.toLowerCase();
    const lines = conversation.facts.lines().filter((l) => l.toLowerCase().includes(wanted));
    return {
      text: lines.length > 0
        ? `${target.kind === "task" ? "the task" : `fact "${target.name}"`}: ${lines.length} line${
          lines.length === 1 ? "" : "s"
        }\n${lines.join("\n")}\n[end of what recall found]`
        : `memory: no ${
          target.kind === "task" ? "task is set" : `fact matches "${target.name}"`
        } in this conversation${
          conversation.facts.lines().length === 0 ? " (it keeps no facts yet)" : ""
        }`,
      action: { verb: "recall", target: target.kind, found: lines.length },
    };
  }
  const material = await materialOf(ctx, conversation, target);
  const label = target.kind === "entry" ? `entry ${target.n}` : `output ${target.id}`;
  // "recall output ID matching PATTERN": only the lines that contain it (case aside).
  const matching = parsed.rest.match(/^matching\s+(.+)$/is)?.[1].trim().replace(/^"(.*)"$/s, "$1");
  if (typeof material === "string") {
    return { text: material, action: { verb: "recall", target: target.kind, failure: material } };
  }
  return {
    text: page(material, fromLine, ctx.budgetBytes, `recall ${label}`, matching),
    action: {
      verb: "recall",
      target: target.kind,
      ...(target.kind === "entry" ? { entries: [target.n] } : { output: target.id }),
      fromLine,
      ...(matching ? { filter: matching } : {}),
      source: material.from,
    },
  };
}

/** The notable lines of a text by exact readers, or its overview; no model. */
export function summariseText(text: string, overview: boolean, budget: number): string {
  const lines = text.split(/\r\n|\r|\n/);
  const size = `${formatCount(lines.length)} lines, ${formatBytes(byteLength(text))}`;
  const last = [...lines].reverse().find((l) => l.trim() !== "") ?? "";
  const exit = text.match(/^exit status:? (\d+)/m);
  const ended = exit
    ? `exit status ${exit[1]}${exit[1] === "0" ? "" : " (failed)"}`
    : `last line: ${last.slice(0, 160)}`;
  const out: string[] = [];
  if (overview) {
    out.push(`overview (exact readers, no model): ${size}; ${ended}`);
    const headings = lines.map((l, i) => ({ l, i })).filter(({ l }) =>
      /^(#{1,4} |={3,}|-{3,} |[A-Z][A-Za-z ]{2,40}:$)/.test(l)
    );
    if (headings.length) {
      out.push(`${headings.length} heading-like lines:`);
      for (const { l, i } of headings.slice(0, 20)) out.push(`L${i + 1} ${l.slice(0, 160)}`);
    }
    out.push("first lines:", ...lines.slice(0, 5).map((l, i) => `L${i + 1} ${l.slice(0, 160)}`));
    out.push(
      "last lines:",
      ...lines.slice(-5).map((l, i) => `L${lines.length - 4 + i} ${l.slice(0, 160)}`),
    );
  } else {
    out.push(`notable lines (exact readers, no model): ${size}; ${ended}`);
    const triage = triageText(text);
    if (triage.findings.length > 0) {
      out.push(triage.headline);
      for (const f of triage.findings) {
        const at = lines.findIndex((l) => l.includes(f.message.slice(0, 60)));
        out.push(
          `${at >= 0 ? `L${at + 1} ` : ""}${f.kind.replace("_", " ")}${
            f.test ? ` ${f.test}` : ""
          } ${f.location ? `at ${f.location}: ` : ""}${f.message}`,
        );
        for (const d of f.detail ?? []) out.push(`  ${d}`);
      }
    } else {
      const errors = lines.map((l, i) => ({ l, i })).filter(({ l }) =>
        /\b(error|fail(ed|ure)?|fatal|panic|exception)\b/i.test(l)
      );
      if (errors.length) {
        out.push(`no reader explained it; ${errors.length} lines mention an error, such as:`);
        for (const { l, i } of errors.slice(0, 12)) out.push(`L${i + 1} ${l.slice(0, 200)}`);
      } else {
        out.push(
          "no reader explained it, and no line mentions an error; the first and last lines:",
        );
        out.push(...lines.slice(0, 5).map((l, i) => `L${i + 1} ${l.slice(0, 160)}`));
        out.push(...lines.slice(-5).map((l, i) => `L${lines.length - 4 + i} ${l.slice(0, 160)}`));
      }
    }
  }
  let result = out.join("\n");
  if (byteLength(result) > budget) result = result.slice(0, budget - 80) + "\n[cut to the budget]";
  return result;
}

async function summarise(ctx: ToolContext, conversation: ConversationContext, rest: string) {
  const overview = /\boverview\b/i.test(rest);
  const parsed = parseTarget(rest.replace(/\boverview\b/i, "").trim());
  if (!parsed || (parsed.target.kind !== "entry" && parsed.target.kind !== "output")) {
    return {
      text:
        "error: write summarise entry N or summarise output ID, with overview after it for an overview",
      action: { verb: "summarise", failure: "no target" },
    };
  }
  const material = await materialOf(ctx, conversation, parsed.target);
  if (typeof material === "string") {
    return { text: material, action: { verb: "summarise", failure: material } };
  }
  return {
    text: `${material.header.split("\n")[0]}\n${
      summariseText(material.text, overview, ctx.budgetBytes)
    }`,
    action: {
      verb: "summarise",
      target: parsed.target,
      summary: overview ? "overview" : "notable",
    },
  };
}

const COMBINE_PROMPT = [
  "You combine answers to one question, each drawn from a different part of a longer text, into one answer.",
  "Keep exact values (names, numbers, paths, messages) as written; drop repetition.",
].join("\n");

const CONDENSE_PROMPT = [
  "You answer one question about a part of a longer text, using only that part.",
  "Quote exact values (names, numbers, paths, messages) as written.",
  "When the part says nothing about the question, answer exactly: nothing here.",
].join("\n");

async function condense(ctx: ToolContext, conversation: ConversationContext, rest: string) {
  const colon = rest.indexOf(":");
  const question = colon === -1 ? "" : rest.slice(colon + 1).trim();
  const parsed = parseTarget(colon === -1 ? rest : rest.slice(0, colon));
  if (
    !parsed || (parsed.target.kind !== "entry" && parsed.target.kind !== "output") ||
    question === ""
  ) {
    return {
      text: "error: write condense entry N: QUESTION, or condense output ID: QUESTION",
      action: { verb: "condense", failure: "no question" },
    };
  }
  if (!conversation.sideCall) {
    return {
      text:
        "memory: condense needs the conversation's model, and there is none here; use summarise, or recall with from line",
      action: { verb: "condense", failure: "no model" },
    };
  }
  const material = await materialOf(ctx, conversation, parsed.target);
  if (typeof material === "string") {
    return { text: material, action: { verb: "condense", failure: material } };
  }
  const chunkChars = Math.max(1024, Math.floor(conversation.window * 4 * 0.5));
  const lines = material.text.split(/\r\n|\r|\n/);
  const chunks: { from: number; to: number; text: string }[] = [];
  let start = 0;
  while (start < lines.length) {
    let end = start;
    let size = 0;
    while (end < lines.length && (size + lines[end].length + 1 <= chunkChars || end === start)) {
      size += lines[end].length + 1;
      end++;
    }
    chunks.push({
      from: start + 1,
      to: end,
      text: lines.slice(start, end).join("\n").slice(0, chunkChars),
    });
    start = end;
  }
  const read = chunks.slice(0, CONDENSE_CHUNKS);
  const answers: string[] = [];
  let failed = 0;
  for (const chunk of read) {
    try {
      const answer = (await conversation.sideCall(
        CONDENSE_PROMPT,
        `Question: ${question}\n\nLines ${chunk.from} to ${chunk.to}:\n${chunk.text}`,
        ctx.signal,
      )).trim();
      if (answer !== "" && !/^nothing here\.?$/i.test(answer)) {
        answers.push(`L${chunk.from}–${chunk.to}: ${answer}`);
      }
    } catch {
      if (ctx.signal?.aborted) throw new DOMException("aborted", "AbortError");
      failed++;
    }
  }
  const more = chunks.length > read.length
    ? ` (the output had ${chunks.length} chunks; the first ${read.length} were read)`
    : "";
  const head = `condense of ${material.header.split("\n")[0]}: "${question}"; ${
    formatCount(read.at(-1)?.to ?? 0)
  } lines in ${read.length} chunk${read.length === 1 ? "" : "s"}${more}, written by the model${
    failed ? `; ${failed} chunk${failed === 1 ? "" : "s"} failed` : ""
  }`;
  let body = answers.length > 0 ? answers.join("\n") : "no chunk said anything about it";
  let combined = false;
  if (byteLength(body) > ctx.budgetBytes - 400) {
    // Too long to return: the model is asked once more to combine the answers.
    try {
      const joined = (await conversation.sideCall(
        COMBINE_PROMPT,
        `Question: ${question}\n\nAnswers, in the order of the text:\n${
          body.slice(0, Math.floor(conversation.window * 4 * 0.5))
        }\n\nWrite one answer in at most ${Math.floor((ctx.budgetBytes - 600) / 6)} words.`,
        ctx.signal,
      )).trim();
      if (joined !== "") {
        body = joined;
        combined = true;
      }
    } catch {
      if (ctx.signal?.aborted) throw new DOMException("aborted", "AbortError");
    }
    if (byteLength(body) > ctx.budgetBytes - 400) {
      body = body.slice(0, ctx.budgetBytes - 500) + "\n[cut to the budget]";
    }
  }
  return {
    text: `${head}\n${body}`,
    action: {
      verb: "condense",
      target: parsed.target,
      chunks: read.length,
      failedChunks: failed,
      combined,
    },
  };
}

/** Read a note: SUBJECT NAME = VALUE, SUBJECT: NAME = VALUE, or SUBJECT NAME: VALUE. */
export function parseNote(rest: string): { subject: string; name: string; value: string } | string {
  const text = rest.trim();
  const m = text.match(/^(\w+)\s*:?\s*(.*)$/s);
  if (!m || m[2].trim() === "") return `error: write note SUBJECT NAME = VALUE, such as ${EXAMPLE}`;
  const subject = m[1].toLowerCase();
  if (!NOTE_SUBJECTS.includes(subject)) {
    return `error: no subject ${subject} to note; use one of ${
      NOTE_SUBJECTS.join(", ")
    }, such as ${EXAMPLE}`;
  }
  const body = m[2].trim();
  const eq = body.indexOf("=");
  const sep = eq !== -1 ? eq : body.indexOf(":");
  if (sep === -1) return `error: write note SUBJECT NAME = VALUE, such as ${EXAMPLE}`;
  const name = body.slice(0, sep).trim();
  const value = body.slice(sep + 1).trim().replace(/^["'“](.*)["'”]$/s, "$1");
  if (name === "") return `error: say which ${subject} it is before the =, such as ${EXAMPLE}`;
  if (value === "") return `error: write note SUBJECT NAME = VALUE, such as ${EXAMPLE}`;
  return { subject, name, value };
}

const notesTaken = new WeakMap<ConversationContext, { turn: number; count: number }>();

function takeNote(conversation: ConversationContext): boolean {
  const turn = conversation.store.turnCount;
  const taken = notesTaken.get(conversation);
  const count = taken?.turn === turn ? taken.count : 0;
  if (count >= NOTES_PER_TURN) return false;
  notesTaken.set(conversation, { turn, count: count + 1 });
  return true;
}

function keep(
  conversation: ConversationContext,
  fact: { subject: string; name: string; value: string },
): string {
  if (!conversation.facts.note) {
    return "error: this conversation keeps no facts, so nothing was noted; say it in your reply instead";
  }
  return conversation.facts.note({
    ...fact,
    source: `model, noted, turn ${conversation.store.turnCount}`,
  });
}

function note(conversation: ConversationContext, rest: string) {
  const parsed = parseNote(rest);
  if (typeof parsed === "string") {
    return { text: parsed, action: { verb: "note", failure: parsed } };
  }
  if (!takeNote(conversation)) {
    return {
      text: `error: at most ${NOTES_PER_TURN} notes a turn; the rest were not kept`,
      action: { verb: "note", failure: "limit" },
    };
  }
  const text = keep(conversation, parsed);
  return {
    text,
    action: { verb: "note", ...parsed, ...(text.startsWith("error:") ? { failure: text } : {}) },
  };
}

function task(conversation: ConversationContext, rest: string) {
  if (rest.trim() === "") return null; // task alone recalls it
  const m = rest.match(/^(.*?)(?:[;,.]\s*objective:\s*|\.\s*Objective:\s*)(.*)$/is);
  const value = (m ? `${m[1].trim()}; objective: ${m[2].trim()}` : rest.trim()).slice(
    0,
    TASK_CHARS,
  );
  if (!takeNote(conversation)) {
    return {
      text: `error: at most ${NOTES_PER_TURN} notes a turn; the rest were not kept`,
      action: { verb: "task", failure: "limit" },
    };
  }
  const kept = keep(conversation, { subject: "task", name: "", value });
  const text = kept.startsWith("error:") ? kept : `noted the task: ${value}`;
  return {
    text,
    action: { verb: "task", value, ...(kept.startsWith("error:") ? { failure: kept } : {}) },
  };
}

/** The memory tool, as the session registers it. */
export const memoryTool: Tool<MemoryArgs> = {
  name: "memory",
  description:
    "This conversation's memory, not the machine's RAM (that is system_info): recall earlier material in full, or note a fact to keep.",
  schema: memorySchema,
  parallelSafe: true,
  gatesBeforeEffect: false,
  examplePrompt: 'Use memory to recall entry 3 of this conversation ("recall entry 3").',
  limits: () => [
    "A recall shows one page within the tool-output budget and names the next page.",
    "condense reads at most 48 chunks of an output, each one side call of the conversation's model.",
    `At most ${NOTES_PER_TURN} notes (or tasks) a turn; a task is cut to ${TASK_CHARS} characters.`,
    "It reads only this conversation's record and the audit log; it runs nothing and needs no approval.",
  ],
  async run(args, ctx): Promise<ToolResult> {
    const conversation = conversationOf(ctx);
    if (!conversation) {
      return {
        ok: false,
        text: "memory: this call belongs to no conversation, so there is nothing to recall",
      };
    }
    const { verb, rest } = parseRequest(args.request);
    let result: { text: string; action: Record<string, unknown> };
    if (verb === "summarise") result = await summarise(ctx, conversation, rest);
    else if (verb === "condense") result = await condense(ctx, conversation, rest);
    else if (verb === "note") result = note(conversation, rest);
    else if (verb === "task") {
      result = task(conversation, rest) ?? await recall(ctx, conversation, "task");
    } else result = await recall(ctx, conversation, rest);
    ctx.audit.record("context.memory", { request: args.request, ...result.action, verb });
    const ok = !/^(error:|memory:)/.test(result.text);
    return { ok, text: result.text };
  },
};
