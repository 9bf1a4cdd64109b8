/**
 * Input plumbing for the front ends: peek at the start of a stream (is it a
 * diff? is it binary?) without losing it, read a bounded whole, and walk the
 * files under a directory.
 */
import { join } from "node:path";
import { notRegularKind, UnsafePath } from "../util/fs_safe.ts";

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
  const head = concat(chunks, size);
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

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
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
  return new TextDecoder().decode(concat(chunks, size));
}

/**
 * Files under `root` (itself when a file), sorted, skipping `.git` folders and
 * symlinks below it. The root itself is followed when it is a link (it was
 * named); a root that is neither a regular file nor a folder (a device, a
 * FIFO, a socket) is an UnsafePath error, so nothing waits on it or reads it
 * without end.
 */
export function* walkFiles(root: string): Generator<string> {
  yield* walkBelow(root, Deno.statSync(root), true);
}

function* walkBelow(root: string, info: Deno.FileInfo, named = false): Generator<string> {
  if (info.isFile) {
    yield root;
    return;
  }
  if (!info.isDirectory) {
    if (named) throw new UnsafePath(root, `is ${notRegularKind(info)}, not a regular file`);
    return;
  }
  const entries = [...Deno.readDirSync(root)];
  entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  for (const entry of entries) {
    if (entry.isSymlink) continue;
    if (entry.isDirectory && entry.name === ".git") continue;
    const path = join(root, entry.name);
    if (entry.isDirectory) yield* walkBelow(path, Deno.lstatSync(path));
    else if (entry.isFile) yield path;
  }
}
