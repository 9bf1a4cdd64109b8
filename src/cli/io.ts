/**
 * stdout is the product, stderr the commentary. These writers are synchronous
 * (output order is the order of calls). A closed stdout means the reader has
 * left (`wisp logs -f | head -1`): the command ends there, quietly, with exit
 * 0, as a Unix tool ended by SIGPIPE does (Deno ignores SIGPIPE, so a write
 * reports it as BrokenPipe instead). A closed stderr loses only commentary,
 * and the command goes on. Colour only on a terminal without NO_COLOR or
 * TERM=dumb.
 */
const encoder = new TextEncoder();

/** Write all of `text`; false when the reader has closed the pipe. */
function writeAll(stream: { writeSync(p: Uint8Array): number }, text: string): boolean {
  const bytes = encoder.encode(text);
  let offset = 0;
  try {
    while (offset < bytes.length) offset += stream.writeSync(bytes.subarray(offset));
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.BrokenPipe) return false;
    throw error;
  }
}

/**
 * The reader of stdout has gone: end now with exit 0. Nothing is left to
 * flush (every write here is synchronous, and an audit log holding events
 * writes them at exit), and what the command started in the sandbox dies
 * with it (bubblewrap's --die-with-parent).
 */
function readerGone(): never {
  Deno.exit(0);
}

/** Text on stdout, the product. */
export function out(text: string): void {
  if (!writeAll(Deno.stdout, text)) readerGone();
}

/** A line on stdout. */
export function outLine(text = ""): void {
  out(text + "\n");
}

/** Text on stderr, the commentary. */
export function err(text: string): void {
  writeAll(Deno.stderr, text);
}

/** A line on stderr. */
export function errLine(text = ""): void {
  writeAll(Deno.stderr, text + "\n");
}

export function stdoutIsTerminal(): boolean {
  return Deno.stdout.isTerminal();
}

export function stdinIsTerminal(): boolean {
  return Deno.stdin.isTerminal();
}

/** Colour is used when the stream is a terminal and neither NO_COLOR nor TERM=dumb says otherwise. */
export function colourEnabled(
  isTerminal: boolean,
  env: (n: string) => string | undefined = Deno.env.get,
): boolean {
  if (!isTerminal) return false;
  const noColor = env("NO_COLOR");
  if (noColor !== undefined && noColor !== "") return false;
  if (env("TERM") === "dumb") return false;
  return true;
}

export interface Palette {
  ok(s: string): string;
  bad(s: string): string;
  warn(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

const plain: Palette = {
  ok: (s) => s,
  bad: (s) => s,
  warn: (s) => s,
  dim: (s) => s,
  bold: (s) => s,
};
const sgr = (code: string) => (s: string) => `\x1b[${code}m${s}\x1b[0m`;
const coloured: Palette = {
  ok: sgr("38;2;64;176;170"),
  bad: sgr("38;2;230;96;64"),
  warn: sgr("38;2;232;170;64"),
  dim: sgr("2"),
  bold: sgr("1"),
};

export function palette(enabled: boolean): Palette {
  return enabled ? coloured : plain;
}

/** The process exit code a command asks for without throwing (a finding, not an error). */
export const cliState = { exitCode: 0 };
