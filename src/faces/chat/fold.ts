/**
 * How chat shows a tool's or a typed command's output under its line: up to
 * `shownOutputLines` lines and at most 2 KiB, then a fold line naming how
 * much more there is and the /show id that prints it whole. Every chat front
 * end folds the same way, so it lives here beside the protocol.
 */

/** The most bytes shown under one call, whatever the line count. */
export const SHOWN_OUTPUT_BYTES = 2048;

/** Output folded for showing: the lines shown, and the fold line when there is more. */
export interface Folded {
  lines: string[];
  /** "… 84 more lines, 3210 bytes in all: /show 8a7b6c5d", or null when all of it is shown. */
  fold: string | null;
}

const encoder = new TextEncoder();

/** Fold `text` to `maxLines` lines and SHOWN_OUTPUT_BYTES bytes; `showId` goes on the fold line. */
export function foldOutput(text: string, maxLines: number, showId: string): Folded {
  const body = text.replace(/\n$/, "");
  if (body === "") return { lines: [], fold: null };
  const all = body.split("\n");
  const lines: string[] = [];
  let bytes = 0;
  for (const line of all) {
    if (lines.length >= maxLines) break;
    const size = encoder.encode(line).length + 1;
    if (bytes + size > SHOWN_OUTPUT_BYTES) break;
    lines.push(line);
    bytes += size;
  }
  const more = all.length - lines.length;
  if (more === 0) return { lines, fold: null };
  const total = encoder.encode(text).length;
  return {
    lines,
    fold: `… ${more} more line${more === 1 ? "" : "s"}, ${total} bytes in all: /show ${showId}`,
  };
}
