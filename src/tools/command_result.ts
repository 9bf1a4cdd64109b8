/**
 * The run_command result as the model reads it, bounded as a whole to the
 * tool-output budget: `exit status: N`, `stdout:` and `stderr:` with their
 * text (empty streams left out), then the notes (`timed out:`, `stopped:`,
 * `sandbox:`, `held back:`). When the streams do not fit, the room is shared
 * in proportion to their sizes, a stream with something to show gets at least
 * a fifth of it, and each shows its first and last lines, cut at line ends,
 * around a marker; the `held back:` note names the lines held back by their
 * numbers in the stored output, so a recall from that line lands on the first
 * one held back.
 */
import { cutToBytes, formatBytes, formatCount } from "../util/bytes.ts";
import type { CapturedStream } from "../exec/capture.ts";
import { exitLine, type KeptWhole } from "../exec/keep.ts";
import type { CommandOutput, CommandRenderer } from "../exec/runner.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function size(text: string): number {
  return encoder.encode(text).length;
}

/** A finished command's output as the runner hands it over, and where its whole output was kept. */
export interface RenderInput extends CommandOutput {
  /** Where the whole was kept when something must be held back (null: not kept). */
  kept?: KeptWhole | null;
}

export interface StreamCut {
  text: string;
  whole: boolean;
  /** 1-based line numbers in the stream of the first and last held-back lines. */
  fromLine?: number;
  toLine?: number;
  heldLines?: number;
  heldBytes?: number;
}

/** A stream's text with a line feed at its end (an empty stream stays empty). */
function withNewline(text: string): string {
  return text === "" || text.endsWith("\n") ? text : text + "\n";
}

/** The whole of a stream when it is all in memory. */
function wholeText(stream: CapturedStream): string | undefined {
  return stream.complete ? decoder.decode(stream.head) : undefined;
}

/** Bytes of `data` up to and including the last line feed within `max` bytes (0 when none). */
function headCut(data: Uint8Array, max: number): number {
  const limit = Math.min(max, data.length);
  const nl = data.subarray(0, limit).lastIndexOf(10);
  return nl === -1 ? 0 : nl + 1;
}

/**
 * Start offset of the last whole lines of `data` within `max` bytes:
 * the first line start at or after `data.length - max`. `startsAtLine`: data[0]
 * begins a line (a whole stream); a ring's first byte may not.
 */
function tailCut(data: Uint8Array, max: number, startsAtLine: boolean): number {
  if (max <= 0) return data.length;
  const start = Math.max(0, data.length - max);
  if (start === 0 && startsAtLine) return 0;
  const from = start === 0 ? 0 : start - 1;
  const nl = data.indexOf(10, from);
  if (nl === -1) return data.length; // no whole line fits
  return nl + 1;
}

/** Count line feeds. */
function newlines(data: Uint8Array): number {
  let n = 0;
  for (let i = data.indexOf(10); i !== -1; i = data.indexOf(10, i + 1)) n++;
  return n;
}

/** Step back over UTF-8 continuation bytes so a cut never splits a character. */
function charBoundary(data: Uint8Array, at: number): number {
  let end = Math.min(at, data.length);
  while (end > 0 && end < data.length && (data[end] & 0xc0) === 0x80) end--;
  return end;
}

/**
 * Cut one stream to `room` bytes: its first lines (about half the room) and
 * its last lines (the rest), with a marker between them.
 */
export function cutStream(stream: CapturedStream, room: number): StreamCut {
  const whole = wholeText(stream);
  if (whole !== undefined && stream.bytes <= room) return { text: withNewline(whole), whole: true };
  const headSource = stream.head;
  const tailSource = stream.complete ? stream.head : stream.tail;
  const tailSourceOffset = stream.bytes - tailSource.length; // stream offset of tailSource[0]
  const marker = (lines: number, bytes: number) =>
    `[… ${formatCount(lines)} line${lines === 1 ? "" : "s"} (${formatBytes(bytes)}) held back …]\n`;
  const markerRoom = size(marker(stream.lines, stream.bytes));
  const usable = Math.max(0, room - markerRoom);
  const half = Math.floor(usable / 2);

  let headLen = headCut(headSource, half);
  let headPartial = false;
  if (headLen === 0 && half > 0) {
    // One long first line: show its beginning.
    headLen = charBoundary(headSource, Math.min(half, headSource.length));
    headPartial = headLen > 0;
  }
  const tailRoom = usable - headLen - (headPartial ? 1 : 0);
  let tailStart = tailCut(tailSource, tailRoom, stream.complete);
  // Never show a byte twice (when the head and the tail overlap in a whole stream).
  const tailStreamStart = Math.max(tailSourceOffset + tailStart, headLen);
  tailStart = tailStreamStart - tailSourceOffset;
  const tailBytes = tailSource.subarray(Math.min(tailStart, tailSource.length));

  const headBytes = headSource.subarray(0, headLen);
  const headLines = newlines(headBytes); // whole lines shown at the start
  const tailLines = tailBytes.length === 0
    ? 0
    : newlines(tailBytes) + (tailBytes[tailBytes.length - 1] === 10 ? 0 : 1);
  const fromLine = headLines + 1;
  const toLine = Math.max(fromLine, stream.lines - tailLines);
  const heldLines = toLine - fromLine + 1;
  const heldBytes = Math.max(0, stream.bytes - headLen - tailBytes.length);
  let text = decoder.decode(headBytes);
  if (headPartial) text += "\n";
  text += marker(heldLines, heldBytes);
  text += withNewline(decoder.decode(tailBytes));
  return { text, whole: false, fromLine, toLine, heldLines, heldBytes };
}

/** Share `room` between two needs: in proportion, each with something to show at least a fifth. */
export function shareRoom(room: number, needA: number, needB: number): [number, number] {
  if (needA + needB <= room) return [needA, needB];
  if (needA === 0) return [0, Math.min(needB, room)];
  if (needB === 0) return [Math.min(needA, room), 0];
  const fifth = Math.floor(room / 5);
  let a = Math.floor((room * needA) / (needA + needB));
  a = Math.max(a, Math.min(needA, fifth));
  let b = room - a;
  if (b < Math.min(needB, fifth)) {
    b = Math.min(needB, fifth);
    a = room - b;
  }
  // A stream that needs less than its share gives the rest to the other.
  if (a > needA) {
    b += a - needA;
    a = needA;
  }
  if (b > needB) {
    a += b - needB;
    b = needB;
  }
  return [a, b];
}

/** Line number in the stored output of line 1 of each stream (the stored text is the whole rendering). */
export function storedLineOffsets(
  stdout: CapturedStream,
  _stderr: CapturedStream,
): { stdout: number; stderr: number } {
  // line 1: exit status; then "stdout:" and its lines; then "stderr:" and its lines.
  const stdoutFirst = 3;
  const stderrFirst = 1 + (stdout.bytes > 0 ? 1 + stdout.lines : 0) + 2;
  return { stdout: stdoutFirst, stderr: stderrFirst };
}

function heldBackNote(
  parts: Array<{ label: string; from: number; to: number; bytes: number }>,
  kept: KeptWhole | null | undefined,
  memory: boolean,
): string {
  const ranges = parts.map((p) =>
    `${p.label} lines ${formatCount(p.from)}–${formatCount(p.to)} (${formatBytes(p.bytes)})`
  )
    .join(", ");
  if (!kept) {
    return `held back: ${ranges}; the held-back lines were not kept (no output store here)`;
  }
  const cut = kept.truncated ? "; it was cut at 16 MiB and the rest was not kept" : "";
  const where = `the whole output is kept as output ${kept.id} (${
    formatCount(kept.lines)
  } lines)${cut}`;
  if (!memory) return `held back: ${ranges}; ${where}; do not run the command again to see it`;
  const first = parts[0]?.from ?? 1;
  return `held back: ${ranges}; ${where}; memory "recall output ${kept.id} from line ${first}" pages it, ` +
    `"recall output ${kept.id} matching PATTERN" filters it, "summarise output ${kept.id}" gives the notable ` +
    `lines, "condense output ${kept.id}: QUESTION" answers from all of it; do not run the command again to see it`;
}

/** The whole rendering with nothing held back (what the store keeps), when both streams are in memory. */
export function renderWhole(
  exitStatus: number | null,
  stdout: string,
  stderr: string,
  notes: string[] = [],
): string {
  let text = exitLine(exitStatus) + "\n";
  if (stdout !== "") text += "stdout:\n" + withNewline(stdout);
  if (stderr !== "") text += "stderr:\n" + withNewline(stderr);
  for (const note of notes) text += note + "\n";
  return text;
}

/** Whether the result fits the budget whole (nothing needs keeping). */
export function fitsWhole(input: Omit<RenderInput, "kept">): boolean {
  const out = wholeText(input.stdout);
  const err = wholeText(input.stderr);
  if (out === undefined || err === undefined) return false;
  return size(renderWhole(input.exitStatus, out, err, input.notes).replace(/\n$/, "")) <=
    input.budget;
}

export interface Rendered {
  text: string;
  heldBack: boolean;
}

export function renderResult(input: RenderInput): Rendered {
  if (fitsWhole(input)) {
    const text = renderWhole(
      input.exitStatus,
      wholeText(input.stdout)!,
      wholeText(input.stderr)!,
      input.notes,
    );
    return { text: text.replace(/\n$/, ""), heldBack: false };
  }
  const header = exitLine(input.exitStatus) + "\n";
  const notes = input.notes.map((n) => n + "\n").join("");
  const labels = (input.stdout.bytes > 0 ? 8 : 0) + (input.stderr.bytes > 0 ? 8 : 0);
  // Measure the held-back note with the widest numbers it can hold.
  const widest = [
    ...(input.stdout.bytes > 0
      ? [{
        label: "stdout",
        from: input.stdout.lines,
        to: input.stdout.lines * 10 + 99,
        bytes: input.stdout.bytes,
      }]
      : []),
    ...(input.stderr.bytes > 0
      ? [{
        label: "stderr",
        from: input.stderr.lines,
        to: input.stderr.lines * 10 + 99,
        bytes: input.stderr.bytes,
      }]
      : []),
  ];
  const noteRoom = size(
    heldBackNote(
      widest,
      input.kept ?? { id: "x".repeat(16), lines: 10 ** 9, truncated: true },
      input.memory,
    ),
  );
  const room = Math.max(0, input.budget - size(header) - size(notes) - labels - noteRoom - 2);
  const [outRoom, errRoom] = shareRoom(room, input.stdout.bytes, input.stderr.bytes);
  const offsets = storedLineOffsets(input.stdout, input.stderr);
  const out = input.stdout.bytes > 0 ? cutStream(input.stdout, outRoom) : undefined;
  const err = input.stderr.bytes > 0 ? cutStream(input.stderr, errRoom) : undefined;
  const parts: Array<{ label: string; from: number; to: number; bytes: number }> = [];
  if (out && !out.whole) {
    parts.push({
      label: "stdout",
      from: out.fromLine! + offsets.stdout - 1,
      to: out.toLine! + offsets.stdout - 1,
      bytes: out.heldBytes!,
    });
  }
  if (err && !err.whole) {
    parts.push({
      label: "stderr",
      from: err.fromLine! + offsets.stderr - 1,
      to: err.toLine! + offsets.stderr - 1,
      bytes: err.heldBytes!,
    });
  }
  let text = header;
  if (out) text += "stdout:\n" + out.text;
  if (err) text += "stderr:\n" + err.text;
  text += notes;
  if (parts.length > 0) text += heldBackNote(parts, input.kept, input.memory);
  text = text.replace(/\n$/, "");
  if (size(text) > input.budget) text = cutToBytes(text, input.budget);
  return { text, heldBack: parts.length > 0 };
}

/** The run_command rendering, as the runner takes it (RunRequest.render). */
export const commandResultRenderer: CommandRenderer = {
  fits: fitsWhole,
  render: (input) => renderResult(input).text,
};
