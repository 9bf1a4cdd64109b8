/**
 * The short reference that stands in for a tool's output after the turn it
 * belongs to (or earlier, when condensing): which entry, what produced it,
 * its first line and size, and how to see it again. With the memory tool the
 * way back is a recall; without it, a tool that only reads can be called
 * again, and a command's or an edit's output is not to be fetched by running
 * it again. Pure.
 */
import type { StoreEntry } from "./store.ts";
import { formatBytes } from "../util/bytes.ts";

/** Tools whose calls only read: calling one again shows its output again. */
const READ_ONLY_TOOLS = new Set([
  "read_file",
  "grep",
  "find",
  "ls",
  "system_info",
  "inspect",
  "current_date",
  "memory",
]);

const FIRST_LINE_CHARS = 100;
const ARGUMENT_CHARS = 80;

function clip(text: string, max: number): string {
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}

/** What produced the output, in a few words: `run_command "ls -la"`, `read_file README.md`. */
export function callLabel(entry: Pick<StoreEntry, "tool" | "arguments">): string {
  const tool = entry.tool ?? "tool";
  const args = entry.arguments;
  if (args && typeof args === "object" && !Array.isArray(args)) {
    const record = args as Record<string, unknown>;
    const main = record.command ?? record.path ?? record.pattern ?? record.topic ?? record.request;
    if (typeof main === "string" && main !== "") {
      return `${tool} ${JSON.stringify(clip(main.replace(/\s+/g, " "), ARGUMENT_CHARS))}`;
    }
  }
  if (typeof args === "string" && args !== "") return `${tool} ${clip(args, ARGUMENT_CHARS)}`;
  return tool;
}

/** The first line with words in it (within the text's first KiB), clipped. */
function firstLine(text: string): string {
  // Only the start is looked at: composing makes a reference for every earlier output.
  const line = text.slice(0, 1024).split(/\r\n|\r|\n/).find((l) => l.trim() !== "") ?? "";
  return clip(line.trim(), FIRST_LINE_CHARS);
}

/**
 * References already made: an entry's reference never changes (its first
 * line survives in the excerpt when the text is let go), and composing makes
 * one for every earlier output of every request.
 */
const made = new WeakMap<StoreEntry, { memory: boolean; text: string }>();

/** The reference an output gets in place of its text. */
export function outputReference(entry: StoreEntry, memory: boolean): string {
  const known = made.get(entry);
  if (known?.memory === memory) return known.text;
  const text = referenceText(entry, memory);
  made.set(entry, { memory, text });
  return text;
}

function referenceText(entry: StoreEntry, memory: boolean): string {
  const time = entry.at.slice(11, 19);
  const first = firstLine(entry.text ?? entry.excerpt);
  const what = `${callLabel(entry)} at ${time}, ${formatBytes(entry.chars)}${
    first ? `, first line: ${first}` : ""
  }`;
  if (memory) {
    return `[output of entry ${entry.n} not repeated: ${what}; to see it: memory "recall entry ${entry.n}"]`;
  }
  const how = READ_ONLY_TOOLS.has(entry.tool ?? "")
    ? "call it again to see it"
    : "do not run it again to see it";
  return `[output of entry ${entry.n} not repeated: ${what}; ${how}]`;
}
