/**
 * The per-minute limit across processes: the times of notifications posted
 * in the last minute, read from the tail of the audit log (each `wisp notify`
 * is its own process, so memory alone would not count them).
 */
import { parseEventLine } from "../audit/reader.ts";

const TAIL_BYTES = 256 * 1024;

export function recentNotificationTimes(auditPath: string, now: number): number[] {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(auditPath, { read: true });
  } catch {
    return [];
  }
  try {
    const size = file.statSync().size;
    const start = Math.max(0, size - TAIL_BYTES);
    file.seekSync(start, Deno.SeekMode.Start);
    const buffer = new Uint8Array(size - start);
    let read = 0;
    while (read < buffer.length) {
      const n = file.readSync(buffer.subarray(read));
      if (n === null || n === 0) break;
      read += n;
    }
    const times: number[] = [];
    for (const line of new TextDecoder().decode(buffer.subarray(0, read)).split("\n")) {
      if (!line.includes('"notification"')) continue;
      const event = parseEventLine(line);
      if (!event || event.kind !== "notification" || event.posted !== true) continue;
      const t = Date.parse(event.ts);
      if (now - t < 60_000) times.push(t);
    }
    return times;
  } finally {
    file.close();
  }
}
