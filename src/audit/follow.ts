/**
 * Following the audit log as it grows, across rotation: the tailer holds the
 * file it is reading open, and when audit.jsonl is rotated away (its inode
 * changes) it drains the old file to its end and then starts on the new one
 * from its beginning. A partial last line waits for its newline.
 */
import { auditFiles, parseEventLine } from "./reader.ts";
import type { AuditEvent } from "./catalogue.ts";

export class AuditTailer {
  #file: Deno.FsFile | undefined;
  #ino: number | null = null;
  #partial = "";
  #decoder = new TextDecoder();
  #buffer = new Uint8Array(64 * 1024);
  skippedLines = 0;

  constructor(readonly path: string) {}

  /**
   * Start at the end of the current file: only what is appended later is
   * read. Returns the offset it starts from, so that a caller printing what
   * was there before can stop exactly there.
   */
  startAtEnd(): number {
    this.#openCurrent(true);
    try {
      return this.#file?.seekSync(0, Deno.SeekMode.Current) ?? 0;
    } catch {
      return 0;
    }
  }

  /** Read what has arrived since the last poll. */
  poll(): AuditEvent[] {
    const events: AuditEvent[] = [];
    if (!this.#file) {
      if (!this.#openCurrent(false)) return events;
    }
    this.#drain(events);
    let current: Deno.FileInfo | undefined;
    try {
      current = Deno.statSync(this.path);
    } catch { /* rotated and not yet recreated */ }
    if (current && current.ino !== this.#ino) {
      // Rotated. Lines the writer appended to our file after the drain above
      // and before it rotated are read now: nothing appends to a file once it
      // has been rotated away. If it rotated more than once since the last
      // poll, the files between ours and the current one are read whole.
      this.#drain(events);
      this.#flushPartial(events);
      const files = auditFiles(this.path);
      const ours = files.findIndex((file) => {
        try {
          return Deno.statSync(file).ino === this.#ino;
        } catch {
          return false;
        }
      });
      this.#close();
      if (ours >= 0) {
        for (const file of files.slice(ours + 1, -1)) {
          try {
            for (const line of Deno.readTextFileSync(file).split("\n")) this.#take(line, events);
          } catch { /* rotated away meanwhile */ }
        }
      }
      if (this.#openCurrent(false)) this.#drain(events);
    }
    return events;
  }

  close(): void {
    this.#close();
  }

  #openCurrent(atEnd: boolean): boolean {
    try {
      this.#file = Deno.openSync(this.path, { read: true });
      const info = this.#file.statSync();
      this.#ino = info.ino;
      if (atEnd) this.#file.seekSync(0, Deno.SeekMode.End);
      return true;
    } catch {
      this.#file = undefined;
      return false;
    }
  }

  #drain(events: AuditEvent[]): void {
    if (!this.#file) return;
    while (true) {
      const n = this.#file.readSync(this.#buffer);
      if (n === null || n === 0) break;
      this.#partial += this.#decoder.decode(this.#buffer.subarray(0, n), { stream: true });
      const lines = this.#partial.split("\n");
      this.#partial = lines.pop() ?? "";
      for (const line of lines) this.#take(line, events);
    }
  }

  #take(line: string, events: AuditEvent[]): void {
    if (line.trim() === "") return;
    const event = parseEventLine(line);
    if (event) events.push(event);
    else this.skippedLines++;
  }

  #flushPartial(events: AuditEvent[]): void {
    if (this.#partial !== "") this.#take(this.#partial, events);
    this.#partial = "";
  }

  #close(): void {
    try {
      this.#file?.close();
    } catch { /* already closed */ }
    this.#file = undefined;
  }
}
