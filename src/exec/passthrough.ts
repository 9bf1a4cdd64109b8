/**
 * Which of its caller's descriptors `wisp sandbox`'s program gets as they are,
 * and which through a pipe wisp copies (docs/adr/0262-descriptors-through-pipes.md).
 *
 * A descriptor handed to a confined program is a door past the sandbox: on
 * Linux, `/proc/self/fd/N` and `/dev/stdin` reopen the file it names with a
 * mode of the program's choosing, so `wisp sandbox -- CMD < ~/.bashrc` would
 * let CMD rewrite ~/.bashrc, and a folder given as stdin (or `1< dir`) lets it
 * create files there. So each of stdin, stdout and stderr is a pipe wisp
 * copies through, unless it is a terminal: a terminal is no file, reopening it
 * reaches only the same terminal, and the program has no controlling terminal
 * to push keystrokes into (the launcher starts a new session), so interactive
 * use keeps working. (Deno cannot read /proc/self/fdinfo under the permission
 * fence, so a descriptor's open mode cannot be asked: every file is piped.)
 */

export type Passing = "inherit" | "piped";

/** How the program gets wisp's descriptor: as it is when it is a terminal, else through a pipe. */
export function passing(stream: { isTerminal(): boolean }): Passing {
  try {
    return stream.isTerminal() ? "inherit" : "piped";
  } catch {
    return "piped";
  }
}

const CHUNK = 256 * 1024;

/** Copy wisp's stdin into the program's pipe until either ends; never throws. */
export async function feedStdin(into: WritableStream<Uint8Array>): Promise<void> {
  const writer = into.getWriter();
  const buffer = new Uint8Array(CHUNK);
  try {
    for (;;) {
      const n = await Deno.stdin.read(buffer);
      if (n === null) break;
      await writer.write(buffer.subarray(0, n));
    }
  } catch { /* the program stopped reading, or wisp's stdin failed: end its input */ }
  await writer.close().catch(() => {});
}

/** Copy the program's output to wisp's own descriptor until it ends; never throws. */
export async function copyOut(
  from: ReadableStream<Uint8Array>,
  to: typeof Deno.stdout | typeof Deno.stderr,
): Promise<void> {
  try {
    for await (const chunk of from) {
      let written = 0;
      while (written < chunk.length) written += await to.write(chunk.subarray(written));
    }
  } catch { /* wisp's output closed: the rest is dropped, as a closed pipe would */ }
}
