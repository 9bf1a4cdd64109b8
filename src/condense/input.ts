/**
 * Reading what triage reads, bounded: a file or standard input, up to
 * CAPTURE_LIMIT bytes kept (an over-long input keeps its head and tail halves
 * and names the bytes in between as not read). A file is read by offset, so a
 * huge log costs no more memory than the limit.
 */
import { boundBytes, CAPTURE_LIMIT } from "./triage.ts";

export interface BoundedInput {
  text: string;
  bytes: number;
  droppedBytes: number;
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function readExactly(file: Deno.FsFile, length: number): Promise<Uint8Array> {
  const buf = new Uint8Array(length);
  let got = 0;
  while (got < length) {
    const n = await file.read(buf.subarray(got));
    if (n === null) break;
    got += n;
  }
  return buf.subarray(0, got);
}

export async function readFileBounded(path: string, limit = CAPTURE_LIMIT): Promise<BoundedInput> {
  const file = await Deno.open(path, { read: true });
  try {
    const size = (await file.stat()).size;
    if (size <= limit) {
      const bytes = await readExactly(file, size);
      return { ...boundBytes(bytes, limit), bytes: bytes.length };
    }
    const half = Math.floor(limit / 2);
    const head = await readExactly(file, half);
    await file.seek(size - half, Deno.SeekMode.Start);
    const tail = await readExactly(file, half);
    const decoder = new TextDecoder();
    return {
      text: `${decoder.decode(head)}\n${decoder.decode(tail)}`,
      bytes: size,
      droppedBytes: size - head.length - tail.length,
    };
  } finally {
    file.close();
  }
}

/** Reads a stream to its end, keeping the first half-limit bytes and a rolling last half-limit. */
export async function readStreamBounded(
  stream: ReadableStream<Uint8Array>,
  limit = CAPTURE_LIMIT,
): Promise<BoundedInput> {
  const half = Math.floor(limit / 2);
  const head: Uint8Array[] = [];
  let headLength = 0;
  let tail: Uint8Array[] = [];
  let tailLength = 0;
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.length;
    let rest = chunk;
    if (headLength < half) {
      const take = rest.subarray(0, half - headLength);
      head.push(take);
      headLength += take.length;
      rest = rest.subarray(take.length);
    }
    if (rest.length === 0) continue;
    tail.push(rest);
    tailLength += rest.length;
    // Keep the tail within half the limit (and the array short).
    while (tailLength - tail[0].length >= half) {
      tailLength -= tail[0].length;
      tail.shift();
    }
    if (tail.length > 64) tail = [concat(tail, tailLength)];
  }
  const headBytes = concat(head, headLength);
  let tailBytes = concat(tail, tailLength);
  if (tailBytes.length > half) tailBytes = tailBytes.subarray(tailBytes.length - half);
  if (total <= limit) {
    return {
      text: new TextDecoder().decode(
        concat([headBytes, tailBytes], headBytes.length + tailBytes.length),
      ),
      bytes: total,
      droppedBytes: 0,
    };
  }
  const decoder = new TextDecoder();
  return {
    text: `${decoder.decode(headBytes)}\n${decoder.decode(tailBytes)}`,
    bytes: total,
    droppedBytes: total - headBytes.length - tailBytes.length,
  };
}
