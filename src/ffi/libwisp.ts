/**
 * The bindings to libwisp (ffi/wisp_ffi.h): the library loaded once, found
 * by locate.ts, and each function of the ABI as a typed TypeScript call.
 * Text answers come back as JSON in a buffer of ours (grown and asked again
 * when the answer is longer); a negative answer is an ABI error, thrown as
 * `LibwispError` with its code's name.
 *
 * The library is never closed while loaded: a reply's thread inside it may
 * still be running, and unloading code a thread returns into crashes.
 */
import { hereWorld, libwispCandidates, type LocateWorld } from "./locate.ts";
import {
  ABI_VERSION,
  type AbiError,
  abiErrorName,
  LIBWISP_SYMBOLS,
  type LibwispSymbols,
} from "./symbols.ts";

/** A failure the library reported, by its ABI error code. */
export class LibwispError extends Error {
  constructor(readonly code: AbiError, message: string) {
    super(message);
    this.name = "LibwispError";
  }
}

/** A loaded libwisp: where it came from and its functions. */
export interface Libwisp {
  path: string;
  symbols: LibwispSymbols;
}

let loaded: { path: string; library: Libwisp | undefined; why?: string } | undefined;

/**
 * Open the library at `path` and check its ABI version. Throws a sentence
 * when it does not load or speaks another ABI.
 */
export function openLibwisp(path: string): Libwisp {
  let library: Deno.DynamicLibrary<typeof LIBWISP_SYMBOLS>;
  try {
    library = Deno.dlopen(path, LIBWISP_SYMBOLS);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      throw new Error(`${path} is there, but wisp's permission set does not let it load`);
    }
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(
      /undefined symbol|symbol not found/i.test(message)
        ? `${path} lacks functions of wisp's native ABI; rebuild it (deno task native)`
        : `${path} does not load as a library`,
    );
  }
  const version = library.symbols.wisp_abi_version();
  if (version !== ABI_VERSION) {
    library.close(); // nothing of it ran but this one call
    throw new Error(
      `${path} speaks native ABI ${version}, and this wisp speaks ${ABI_VERSION}; rebuild it`,
    );
  }
  return { path, symbols: library.symbols };
}

/**
 * libwisp for this process, loaded the first time it is asked for; undefined
 * when no candidate exists or it would not load (`libwispProblem` says why).
 */
export function libwisp(world: LocateWorld = hereWorld()): Libwisp | undefined {
  const candidates = libwispCandidates(world);
  const key = candidates.map((c) => c.path).join("\n");
  if (loaded && loaded.path === key) return loaded.library;
  loaded = { path: key, library: undefined };
  for (const candidate of candidates) {
    try {
      if (!Deno.statSync(candidate.path).isFile) continue;
    } catch {
      continue;
    }
    try {
      loaded.library = openLibwisp(candidate.path);
    } catch (error) {
      loaded.why = (error as Error).message;
    }
    break; // the first that exists decides, as doctor reports
  }
  return loaded.library;
}

/** Why the last `libwisp()` found nothing usable, when a file was there. */
export function libwispProblem(): string | undefined {
  return loaded?.why;
}

/** A NUL-terminated UTF-8 copy of a string. */
export function cString(text: string): Uint8Array<ArrayBuffer> {
  const bytes = new TextEncoder().encode(text);
  const out = new Uint8Array(bytes.length + 1);
  out.set(bytes);
  return out;
}

/** Throw the ABI error a negative answer names. */
function fail(code: number, what: string): never {
  const name = abiErrorName(code);
  throw new LibwispError(name, `${what} failed (${name.replace("-", " ")})`);
}

/**
 * Call a function that writes JSON into a buffer of ours, growing the
 * buffer when the answer is longer, and parse the answer.
 */
export function readJson<T>(
  what: string,
  call: (out: Uint8Array<ArrayBuffer>, cap: bigint) => number | bigint,
  start = 64 * 1024,
): T {
  let size = start;
  for (let attempt = 0; attempt < 8; attempt++) {
    const out = new Uint8Array(size);
    const length = Number(call(out, BigInt(size)));
    if (length < 0) fail(-length, what);
    if (length <= size) return JSON.parse(new TextDecoder().decode(out.subarray(0, length))) as T;
    size = length + 4096; // the table grew meanwhile: leave room
  }
  throw new LibwispError("internal", `${what} kept growing past the buffer`);
}

/** A process as the table lists it. */
export interface NativeProcess {
  pid: number;
  ppid: number;
  /** The real user's id. */
  uid: number;
  /** One letter as ps shows it: R, S, D, T, Z. */
  state: string;
  name: string;
  rssBytes: number;
  cpuMs: number;
  /** Unix seconds. */
  startTime: number;
}

/** One process's details; null where the library may not read a field. */
export interface NativeProcessDetails extends NativeProcess {
  path: string | null;
  cwd: string | null;
  args: string[] | null;
}

/** A listening socket and the processes that hold it. */
export interface NativeListener {
  proto: "tcp" | "tcp6" | "udp" | "udp6";
  address: string;
  port: number;
  pids: number[];
}

/** Every process this user may see. */
export function processTable(lib: Libwisp): NativeProcess[] {
  return readJson("the process table", (out, cap) => lib.symbols.wisp_process_table(out, cap));
}

/** One process's details, or undefined when there is no such process. */
export function processDetails(lib: Libwisp, pid: number): NativeProcessDetails | undefined {
  try {
    return readJson(
      `process ${pid}`,
      (out, cap) => lib.symbols.wisp_process_details(pid, out, cap),
      4096, // most command lines fit; a longer one is asked again
    );
  } catch (error) {
    if (error instanceof LibwispError && error.code === "not-found") return undefined;
    throw error;
  }
}

/** Every listening socket, with its processes. */
export function listeningPorts(lib: Libwisp): NativeListener[] {
  return readJson("the listening ports", (out, cap) => lib.symbols.wisp_listening_ports(out, cap));
}

/** Signal a process group; returns 0 or the errno of the failure. */
export function killGroup(lib: Libwisp, pgid: number, signal: number): number {
  return lib.symbols.wisp_killpg(pgid, signal);
}
