/**
 * stdout is the product, stderr the commentary. These writers are synchronous
 * (output order is the order of calls) and treat a closed pipe as the reader
 * having left, not as an error. Colour only on a terminal without NO_COLOR or
 * TERM=dumb.
 */
const encoder = new TextEncoder();

function writeAll(stream: { writeSync(p: Uint8Array): number }, text: string): void {
  const bytes = encoder.encode(text);
  let offset = 0;
  try {
    while (offset < bytes.length) offset += stream.writeSync(bytes.subarray(offset));
  } catch (error) {
    if (error instanceof Deno.errors.BrokenPipe) return;
    throw error;
  }
}

export function out(text: string): void {
  writeAll(Deno.stdout, text);
}

export function outLine(text = ""): void {
  writeAll(Deno.stdout, text + "\n");
}

export function err(text: string): void {
  writeAll(Deno.stderr, text);
}

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
