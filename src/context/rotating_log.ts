/**
 * Reading the texts a conversation store still needs out of an audit log
 * file that is about to rotate away (ADR 0590, amended): the store refers into
 * the audit for every output it let go, and once the file holding an event is
 * removed the only whole copy is gone. The audit writer says which file goes
 * next (src/audit/writer.ts `onRotation`); the store asks this module for the
 * texts of its events in it and keeps them in its own copy file.
 */
import type { EntryKind } from "./store.ts";

/**
 * The whole text an audit event holds for a store entry: a tool's result and
 * the model's words are the event's `text`; a command the person ran is its
 * command line and its output. The one reading both the memory tool's recall
 * and the store's copy use.
 */
export function auditedText(
  kind: EntryKind,
  event: Record<string, unknown> | undefined,
): string | undefined {
  if (typeof event?.text === "string") return event.text;
  if (kind === "told" && typeof event?.output === "string") {
    return `$ ${String(event.command ?? "")}\n${event.output}`;
  }
  return undefined;
}

/**
 * The id of an audit line without parsing it: the writer puts `ts`, `session`
 * and `seq` first and `id` fourth, so the first `"id":"` is the event's own.
 */
function lineId(line: string): string | undefined {
  const at = line.indexOf('"id":"');
  if (at < 0) return undefined;
  const start = at + 6;
  const end = line.indexOf('"', start);
  return end > start ? line.slice(start, end) : undefined;
}

/** The file read during the current rotation's listeners, shared by every store. */
let lastRead: { file: string; content: string | undefined } | undefined;

/**
 * The text of `file`, read once however many stores ask during one rotation:
 * the audit writer calls every listener synchronously, one after another, so
 * every MCP thread's store asks for the same file in the same task. The copy
 * is dropped in the next microtask, so a later rotation reads the file again
 * and no log text is held after the listeners have run. Undefined when the
 * file cannot be read (already gone).
 */
function readOncePerRotation(file: string): string | undefined {
  if (lastRead?.file === file) return lastRead.content;
  let content: string | undefined;
  try {
    content = Deno.readTextFileSync(file);
  } catch {
    content = undefined;
  }
  if (lastRead === undefined) queueMicrotask(() => lastRead = undefined);
  lastRead = { file, content };
  return content;
}

/**
 * The texts of the wanted events that `file` holds, by event id. Only the
 * lines whose id is wanted are parsed; a file that cannot be read (already
 * gone) or a damaged line gives nothing for those events.
 */
export function textsInLogFile(
  file: string,
  wanted: ReadonlyMap<string, EntryKind>,
): Map<string, string> {
  const found = new Map<string, string>();
  if (wanted.size === 0) return found;
  const content = readOncePerRotation(file);
  if (content === undefined) return found;
  let from = 0;
  while (from < content.length && found.size < wanted.size) {
    let to = content.indexOf("\n", from);
    if (to < 0) to = content.length;
    const line = content.slice(from, to);
    from = to + 1;
    const id = lineId(line);
    const kind = id === undefined ? undefined : wanted.get(id);
    if (kind === undefined) continue;
    try {
      const text = auditedText(kind, JSON.parse(line));
      if (text !== undefined) found.set(id!, text);
    } catch { /* a damaged line: that event's text is not recovered */ }
  }
  return found;
}
