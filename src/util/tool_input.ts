/**
 * Files a tool reads because a caller named them (condensing tools, secret
 * scans, `wisp triage FILE`): only regular files, and never more than a
 * bound. A device (`/dev/zero` never ends, `/dev/urandom` never ends either),
 * a FIFO (opening it waits for a writer), a socket or a folder is refused
 * with a sentence before anything is read, and a regular file is read by a
 * loop that stops at the bound whatever size the file claims (a file can grow
 * while it is read, and some file systems report no size at all).
 *
 * The checks are fs_safe's `openForRead`: lstat of the real path, open, and
 * the descriptor compared with what lstat saw, so a swap in between is caught.
 */
import { type OpenedForRead, openForRead, readAllBounded, UnsafePath } from "./fs_safe.ts";

/** A tool argument the caller can fix (a missing file, a device, both text and path): one sentence. */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolInputError";
  }
}

/** The sentence for an error met opening or reading `given`, or undefined when it is not a caller's problem. */
function inputFileProblem(error: unknown, given: string): string | undefined {
  if (error instanceof UnsafePath) return `${given} ${error.detail}`;
  if (error instanceof Deno.errors.NotFound) return `${given} does not exist`;
  if (error instanceof Deno.errors.NotADirectory) return `${given} does not exist`;
  if (error instanceof Deno.errors.IsADirectory) return `${given} is a folder, not a file`;
  if (error instanceof Deno.errors.PermissionDenied) {
    return `${given} cannot be read (permission denied)`;
  }
  if (error instanceof Deno.errors.NotCapable) {
    return `${given} cannot be read: wisp's permission fence does not reach it`;
  }
  return undefined;
}

/**
 * Open `path` (absolute) as a regular file for reading. `given` is how the
 * caller wrote it, for the sentence. Throws ToolInputError for anything the
 * caller can fix; the caller closes the file.
 */
export function openInputFile(path: string, given = path): OpenedForRead {
  try {
    return openForRead(path);
  } catch (error) {
    const problem = inputFileProblem(error, given);
    throw problem === undefined ? error : new ToolInputError(problem);
  }
}

/** A size for the sentence: whole MiB from 1 MiB up, bytes below. */
function mib(bytes: number): string {
  return bytes >= 1048576 ? `${Math.round(bytes / 1048576)} MiB` : `${bytes} bytes`;
}

/**
 * Read a regular file whole, at most `max` bytes: a larger one (by its size,
 * or by what the read found) is a ToolInputError naming the bound.
 */
export function readWholeInput(path: string, max: number, given = path): Uint8Array {
  const opened = openInputFile(path, given);
  try {
    if (opened.stamp.size > max) {
      throw new ToolInputError(
        `${given} is ${mib(opened.stamp.size)}; at most ${mib(max)} is read whole`,
      );
    }
    try {
      return readAllBounded(opened.file, max);
    } catch (error) {
      if (error instanceof RangeError) {
        throw new ToolInputError(`${given} grew past ${mib(max)} while it was read`);
      }
      const problem = inputFileProblem(error, given);
      throw problem === undefined ? error : new ToolInputError(problem);
    }
  } finally {
    opened.file.close();
  }
}
