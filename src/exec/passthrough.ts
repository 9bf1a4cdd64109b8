/**
 * Which of its caller's descriptors `wisp sandbox`'s program gets as they are,
 * and which through a pipe wisp copies (docs/adr/0262-descriptors-through-pipes.md).
 *
 * A descriptor handed to a confined program is a door past the sandbox: on
 * Linux, `/proc/self/fd/N` and `/dev/stdin` reopen the file it names with a
 * mode of the program's choosing, so `wisp sandbox -- CMD < ~/.bashrc` would
 * let CMD rewrite ~/.bashrc, and a folder given as stdin (or `1< dir`) lets it
 * create files there. A descriptor is handed over as it is only when
 * reopening it reaches nothing more than the descriptor already gives:
 *
 * - a terminal (the program has no controlling terminal, so it cannot push
 *   keystrokes into it: the launcher starts a new session), a pipe or FIFO
 *   (reopened, it is the same pipe), or /dev/null;
 * - for stdout and stderr, also a regular file opened for writing: the caller
 *   asked the output to go there.
 *
 * Everything else — a file or folder as stdin, a descriptor opened only for
 * reading as stdout, a socket, another device — becomes a pipe wisp copies
 * through. Deno cannot read /proc/self/fdinfo under the permission fence, so
 * the kernel is asked in process through the C library
 * (src/platform/descriptors.ts); where that cannot be done, the question goes
 * to a fixed script in the host view (the launcher with a read-only profile)
 * that inherits wisp's three descriptors and answers in its exit status. When
 * neither can answer, every descriptor is piped. On a Mac,
 * /dev/fd/N duplicates a descriptor and never widens its mode, so only a
 * non-terminal stdin is piped there, as the rule for every platform says.
 */
import { hostViewLaunch } from "../platform/host_view.ts";
import { runHelper } from "../platform/helper_process.ts";
import { hostOs } from "../platform/os.ts";
import { descriptorFacts } from "../platform/descriptors.ts";

export type Passing = "inherit" | "piped";

/** The answer script: bit N set when descriptor N may be handed over as it is. */
const DESCRIPTOR_SCRIPT = `plain() {
  [ -t "$1" ] || [ -p /proc/self/fd/$1 ] || [ /proc/self/fd/$1 -ef /dev/null ]
}
written() {
  [ -f /proc/self/fd/$1 ] || return 1
  f=
  while read -r k v; do [ "$k" = flags: ] && f=$v; done < /proc/self/fdinfo/$1
  [ -n "$f" ] && [ $(( 0$f & 3 )) -ne 0 ]
}
b=0
plain 0 && b=$((b + 1))
{ plain 1 || written 1; } && b=$((b + 2))
{ plain 2 || written 2; } && b=$((b + 4))
exit $b
`;

const ALL_PIPED: [Passing, Passing, Passing] = ["piped", "piped", "piped"];

function isTerminal(stream: { isTerminal(): boolean }): boolean {
  try {
    return stream.isTerminal();
  } catch {
    return false; // closed: not a terminal
  }
}

/**
 * The script's answer, asked of the kernel in this process (Linux): a
 * terminal, a pipe or /dev/null passes; stdout and stderr also pass as a
 * regular file opened for writing. Undefined when the facts cannot be asked
 * here (no FFI permission, a C library without statx).
 */
export function passingInProcess(): [Passing, Passing, Passing] | undefined {
  const terminals = [Deno.stdin, Deno.stdout, Deno.stderr].map(isTerminal);
  const passing: Passing[] = [];
  for (const fd of [0, 1, 2]) {
    const facts = descriptorFacts(fd);
    if (facts === undefined) return undefined;
    const plain = terminals[fd] || (facts !== null && (facts.fifo || facts.devNull));
    const written = fd !== 0 && facts !== null && facts.regular && facts.writable;
    passing.push(plain || written ? "inherit" : "piped");
  }
  return passing as [Passing, Passing, Passing];
}

/** How the program gets wisp's stdin, stdout and stderr. */
export async function descriptorPassing(
  os: string = hostOs(),
): Promise<[Passing, Passing, Passing]> {
  if (os !== "linux") {
    let terminal = false;
    try {
      terminal = Deno.stdin.isTerminal();
    } catch { /* no stdin: a pipe */ }
    return [terminal ? "inherit" : "piped", "inherit", "inherit"];
  }
  return passingInProcess() ?? await passingByScript(os);
}

/** The host-view script's answer (Linux); every descriptor piped when it cannot answer. */
export async function passingByScript(
  os: string = hostOs(),
): Promise<[Passing, Passing, Passing]> {
  const launch = hostViewLaunch(["/bin/sh", "-c", DESCRIPTOR_SCRIPT], os);
  const status = await runHelper(launch, { inheritDescriptors: true });
  if (!status.started) return ALL_PIPED;
  const code = status.signal ? 255 : status.code;
  if (code < 0 || code > 7) return ALL_PIPED;
  return [0, 1, 2].map((fd) => (code & (1 << fd)) ? "inherit" : "piped") as [
    Passing,
    Passing,
    Passing,
  ];
}

let asked: Promise<[Passing, Passing, Passing]> | undefined;

/** descriptorPassing, asked once per process (wisp sandbox starts it early, beside the gate). */
export function passingOnce(): Promise<[Passing, Passing, Passing]> {
  asked ??= descriptorPassing();
  return asked;
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
