/**
 * `wisp chat --json`: the engine's out lines as JSON Lines on stdout, its in
 * lines read as JSON Lines from stdin (protocol.ts). A line that is not a
 * JSON object is a message; an object of an unknown type is ignored. The
 * chat ends at /quit, at a second interrupt, or when the input closes.
 */
import type { ChatEngine } from "./engine.ts";
import { encodeOutLine, type OutLine, parseInLine } from "./protocol.ts";

/** The lines of a byte stream, decoded as UTF-8, without their line ends. */
export async function* inputLines(input: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let buffered = "";
  for await (const chunk of input.pipeThrough(new TextDecoderStream())) {
    buffered += chunk;
    let end: number;
    while ((end = buffered.indexOf("\n")) >= 0) {
      yield buffered.slice(0, end).replace(/\r$/, "");
      buffered = buffered.slice(end + 1);
    }
  }
  if (buffered !== "") yield buffered;
}

/** A writer of out lines as JSON Lines, each written whole and in order. */
export function jsonLineWriter(write: (bytes: Uint8Array) => void): (line: OutLine) => void {
  const encoder = new TextEncoder();
  return (line) => write(encoder.encode(encodeOutLine(line) + "\n"));
}

/** Feed `input`'s lines to a started engine until the chat ends; returns the exit code. */
export async function runJsonChat(
  engine: ChatEngine,
  input: ReadableStream<Uint8Array>,
): Promise<number> {
  const lines = inputLines(input);
  const quit = engine.quitRequested.then((code) => ({ quit: code }));
  for (;;) {
    const next = await Promise.race([lines.next(), quit]);
    if ("quit" in next) {
      // Stop reading: the rest of the input is not this chat's any more.
      void lines.return(undefined);
      return await engine.finish(next.quit);
    }
    if (next.done) return await engine.endOfInput();
    engine.receive(parseInLine(next.value));
  }
}
