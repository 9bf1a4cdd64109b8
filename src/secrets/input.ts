/**
 * Input plumbing for the front ends: peek at the start of a stream (is it a
 * diff? is it binary?) without losing it, read a bounded whole, and walk the
 * files under a directory.
 */
import { join } from "node:path";
import { notRegularKind, UnsafePath } from "../util/fs_safe.ts";
import { newNotes, walk } from "../util/walk.ts";
import { concatBytes } from "../util/bytes.ts";

export interface Peeked {
  head: Uint8Array;
  /** The whole stream again, head included. */
  stream: ReadableStream<Uint8Array>;
  done: boolean;
}

/** Read at least `bytes` (or to the end) and return them with a stream that replays them. */
export async function peek(stream: ReadableStream<Uint8Array>, bytes: number): Promise<Peeked> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let done = false;
  while (size < bytes) {
    const next = await reader.read();
    if (next.done) {
      done = true;
      break;
    }
    chunks.push(next.value);
    size += next.value.length;
  }
  const head = concatBytes(chunks, size);
  let replayed = false;
  const replay = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!replayed) {
        replayed = true;
        if (head.length > 0) controller.enqueue(head);
        if (done) controller.close();
        return;
      }
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { head, stream: replay, done };
}

/** Read a whole stream as text, or null when it is longer than `maxBytes`. */
export async function readBounded(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<string | null> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const next = await reader.read();
    if (next.done) break;
    size += next.value.length;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(next.value);
  }
  return new TextDecoder().decode(concatBytes(chunks, size));
}

/** What a walk of the inputs could not cover: folders it could not list. */
export interface WalkReport {
  unreadable: string[];
}

/**
 * Files under `root` (itself when a file), in name order, through the search traversal
 * (docs/adr/0005-search-traversal.md): `.gitignore`, `.ignore`, `.rgignore` and the repository's
 * `.git/info/exclude` are honoured, symbolic links below the root and `.git` are skipped. Unlike
 * a search, a scan also walks dot-files (`.env`, `.npmrc`) and credential files, without caps.
 * The root itself is followed when it is a link (it was named), and a file or a folder named as
 * the root is scanned even when an ignore file lists it. A root that is neither a regular file nor a folder
 * (a device, a FIFO, a socket) is an UnsafePath error, so nothing waits on it or reads it without
 * end. Folders that cannot be listed go to `report.unreadable`.
 */
export function* walkFiles(
  root: string,
  report: WalkReport = { unreadable: [] },
): Generator<string> {
  const info = Deno.statSync(root);
  if (info.isFile) {
    yield root;
    return;
  }
  if (!info.isDirectory) {
    throw new UnsafePath(root, `is ${notRegularKind(info)}, not a regular file`);
  }
  const notes = { ...newNotes(), unreadable: [] as string[] };
  const entries = walk({
    root: Deno.realPathSync(root),
    deadline: Infinity,
    hidden: true,
    credentialFiles: true,
    namedRootWins: true,
    limits: { entriesPerFolder: Infinity, files: Infinity },
    // Each file is opened and measured when it is read (scan_input.ts): no lstat per file here.
    sizes: false,
  }, notes);
  for (const entry of entries) {
    yield join(root, entry.relative);
    // Report each unlisted folder as soon as the walk meets it.
    while (notes.unreadable.length > 0) {
      report.unreadable.push(join(root, notes.unreadable.shift()!));
    }
  }
  for (const folder of notes.unreadable) report.unreadable.push(join(root, folder));
}
