/**
 * The one way wisp starts a helper process: a program wisp itself chose,
 * with a fixed argv (the sandbox launcher on `true` for the nested-sandbox
 * probe, a fixed read in the host view, a notifier, doctor's write probe).
 * Never a line the model wrote; those go through the runner in src/exec/.
 *
 * No shell stands between wisp and the program, stdin is closed unless the
 * caller hands over its own descriptors, what is kept of the output is
 * bounded, and the program is killed when its time is up. The environment is
 * wisp's own: every helper today needs it (a notifier needs the desktop
 * session's variables, the launcher decides what its command sees).
 */
import type { Launch } from "./types.ts";

/** Where a helper's stdout or stderr goes: kept (bounded) or thrown away. */
export type HelperStream = "keep" | "discard";

/** How to start a helper. */
export interface HelperOptions {
  /** The folder it starts in; `/` unless given. */
  cwd?: string;
  /** What happens to its stdout; thrown away unless given. */
  stdout?: HelperStream;
  /** What happens to its stderr; thrown away unless given. */
  stderr?: HelperStream;
  /**
   * Hand the helper wisp's own stdin, stdout and stderr instead (for a probe
   * that inspects them); `stdout` and `stderr` are then ignored.
   */
  inheritDescriptors?: boolean;
  /** Killed (SIGKILL) after this long; 10 seconds unless given. */
  timeoutMs?: number;
  /** At most this much of each kept stream; past it the helper is stopped. */
  maxBytes?: number;
}

/** What a helper did. */
export type HelperResult =
  | {
    started: true;
    /** It exited 0, was not killed, and no kept stream passed maxBytes. */
    ok: boolean;
    code: number;
    /** The signal that ended it, when one did (a timeout is SIGKILL). */
    signal: Deno.Signal | null;
    stdout: Uint8Array;
    stderr: Uint8Array;
    /** A kept stream passed maxBytes: it was cut there and the helper stopped. */
    cut: boolean;
    /** It ran out of time and was killed. */
    timedOut: boolean;
  }
  | {
    started: false;
    /** The program does not exist. */
    notFound: boolean;
    /** Why it could not start, in the OS's words. */
    reason: string;
  };

/** The default limit on each kept stream. */
export const HELPER_MAX_BYTES = 32 * 1024 * 1024;

/** The default time limit. */
export const HELPER_TIMEOUT_MS = 10_000;

/** Start `launch` as a helper process and wait for it to end (never throws). */
export async function runHelper(
  launch: Launch,
  options: HelperOptions = {},
): Promise<HelperResult> {
  const inherit = options.inheritDescriptors === true;
  const keepOut = !inherit && options.stdout === "keep";
  const keepErr = !inherit && options.stderr === "keep";
  const maxBytes = options.maxBytes ?? HELPER_MAX_BYTES;
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(launch.program, {
      args: launch.args,
      stdin: inherit ? "inherit" : "null",
      stdout: inherit ? "inherit" : keepOut ? "piped" : "null",
      stderr: inherit ? "inherit" : keepErr ? "piped" : "null",
      cwd: options.cwd ?? "/",
    }).spawn();
  } catch (error) {
    return {
      started: false,
      notFound: error instanceof Deno.errors.NotFound,
      reason: error instanceof Error ? error.message : String(error),
    };
  }
  let timedOut = false;
  let cut = false;
  const kill = () => {
    try {
      child.kill("SIGKILL");
    } catch { /* ended */ }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, options.timeoutMs ?? HELPER_TIMEOUT_MS);
  const onCut = () => {
    cut = true;
    kill();
  };
  try {
    const [stdout, stderr, status] = await Promise.all([
      keepOut ? collect(child.stdout, maxBytes, onCut) : Promise.resolve(new Uint8Array()),
      keepErr ? collect(child.stderr, maxBytes, onCut) : Promise.resolve(new Uint8Array()),
      child.status,
    ]);
    return {
      started: true,
      ok: status.success && !cut && !timedOut,
      code: status.code,
      signal: status.signal,
      stdout,
      stderr,
      cut,
      timedOut,
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Read a stream to its end, keeping at most `maxBytes`; `onCut` once when it passes them. */
async function collect(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
  onCut: () => void,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  for await (const chunk of stream) {
    if (cut) continue;
    if (size + chunk.length > maxBytes) {
      chunks.push(chunk.subarray(0, maxBytes - size));
      size = maxBytes;
      cut = true;
      onCut();
      continue;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
