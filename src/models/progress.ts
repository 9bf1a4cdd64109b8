/**
 * Download progress on stderr: on a terminal one line redrawn in place (the
 * file, a bar, bytes done of the total, the rate and the time left); piped, a
 * plain line when each file starts and when it is done, so a log shows what
 * happened without a carriage return in it.
 */
import { formatDecimalBytes } from "../util/bytes.ts";

export interface ProgressSink {
  /** Write text as it is (the terminal form uses \r). */
  write(text: string): void;
  /** Whether the sink is a terminal. */
  terminal: boolean;
  /** Now, in milliseconds (performance.now by default; a test passes its own). */
  now?: () => number;
}

/** "0:40", "1:02:03": seconds as a clock. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

/** The one line a terminal shows for a file: name, bar, bytes, rate, ETA. */
export function progressLine(
  label: string,
  done: number,
  total: number,
  bytesPerSecond: number,
  width = 20,
): string {
  const share = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(share * width);
  const bar = "#".repeat(filled) + "-".repeat(width - filled);
  const percent = `${Math.floor(share * 100)}%`.padStart(4);
  const rate = bytesPerSecond > 0 ? `${formatDecimalBytes(bytesPerSecond)}/s` : "–";
  const eta = bytesPerSecond > 0 && total > done
    ? `ETA ${clock((total - done) / bytesPerSecond)}`
    : "";
  return `${label} [${bar}] ${percent} ${formatDecimalBytes(done)} / ${
    formatDecimalBytes(total)
  } ${rate} ${eta}`
    .trimEnd();
}

/** One file's progress, fed the bytes done so far. */
export class FileProgress {
  #started: number;
  #lastDrawn = -Infinity;
  #done = 0;
  #finished = false;
  readonly #now: () => number;

  constructor(
    readonly sink: ProgressSink,
    readonly label: string,
    readonly total: number,
    /** Bytes already there before this run (a resumed download): not counted in the rate. */
    readonly resumedFrom = 0,
  ) {
    this.#now = sink.now ?? (() => performance.now());
    this.#started = this.#now();
    this.#done = resumedFrom;
    if (!sink.terminal) {
      sink.write(
        `${label} (${formatDecimalBytes(total)})${
          resumedFrom > 0 ? `, resuming at ${formatDecimalBytes(resumedFrom)}` : ""
        }\n`,
      );
    }
  }

  /** The bytes per second this run has fetched at. */
  rate(): number {
    const seconds = (this.#now() - this.#started) / 1000;
    return seconds > 0 ? (this.#done - this.resumedFrom) / seconds : 0;
  }

  update(done: number): void {
    this.#done = done;
    if (!this.sink.terminal) return;
    const now = this.#now();
    // Redraw at most ten times a second; the last one is drawn by finish().
    if (now - this.#lastDrawn < 100) return;
    this.#lastDrawn = now;
    this.sink.write(`\r\x1b[2K${progressLine(this.label, done, this.total, this.rate())}`);
  }

  /** The file is complete (or stopped: `outcome` says how). */
  finish(outcome = "done"): void {
    if (this.#finished) return;
    this.#finished = true;
    const seconds = (this.#now() - this.#started) / 1000;
    if (this.sink.terminal) {
      this.sink.write(
        `\r\x1b[2K${progressLine(this.label, this.#done, this.total, this.rate())}\n`,
      );
      if (outcome !== "done") this.sink.write(`${this.label}: ${outcome}\n`);
      return;
    }
    this.sink.write(
      outcome === "done"
        ? `${this.label}: ${formatDecimalBytes(this.#done - this.resumedFrom)} in ${
          seconds.toFixed(1)
        } s\n`
        : `${this.label}: ${outcome} at ${formatDecimalBytes(this.#done)} of ${
          formatDecimalBytes(this.total)
        }\n`,
    );
  }
}

/** A sink on stderr. */
export function stderrSink(): ProgressSink {
  const encoder = new TextEncoder();
  return {
    terminal: Deno.stderr.isTerminal(),
    write: (text) => {
      Deno.stderr.writeSync(encoder.encode(text));
    },
  };
}
