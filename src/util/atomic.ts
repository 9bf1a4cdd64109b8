/**
 * State is never half-written: a file in wisp's home is written to a
 * temporary file in the same folder, flushed, and renamed over the old one.
 * A crash at any moment leaves either the old file or the new one.
 */
import { basename, dirname, join } from "./path.ts";
import { hasModeBits } from "./host_os.ts";
import { homeWriteError } from "./errors.ts";

/** A temporary file this old was left by a process killed mid-write. */
const STALE_TEMP_MS = 10 * 60 * 1000;

/** Remove temporary files of `path` that a killed writer left behind. */
export function removeStaleTemps(path: string, now = Date.now()): number {
  const dir = dirname(path);
  const prefix = `.${basename(path)}.`;
  let removed = 0;
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (!entry.isFile || !entry.name.startsWith(prefix) || !entry.name.endsWith(".tmp")) continue;
      const full = join(dir, entry.name);
      try {
        const mtime = Deno.statSync(full).mtime?.getTime() ?? now;
        if (now - mtime > STALE_TEMP_MS) {
          Deno.removeSync(full);
          removed++;
        }
      } catch { /* gone meanwhile */ }
    }
  } catch { /* folder unreadable: nothing to tidy */ }
  return removed;
}

/** A new version of a file, written and flushed beside it, not yet in its place. */
export interface PreparedFile {
  /** Rename it over the old file. */
  commit(): void;
  /** Remove it, leaving the old file as it was. */
  abort(): void;
}

/**
 * Write the new version of `path` to a temporary file in the same folder and
 * flush it, without replacing anything yet: a caller that must do something
 * first (write the audit event that announces the change) commits after it.
 * A failure is one sentence naming the path (util/errors.ts).
 */
export function prepareFileAtomicSync(
  path: string,
  data: string | Uint8Array,
  mode = 0o600,
): PreparedFile {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const dir = dirname(path);
  const temp = join(
    dir,
    `.${basename(path)}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`,
  );
  const removeTemp = () => {
    try {
      Deno.removeSync(temp);
    } catch { /* never created, or already renamed */ }
  };
  let file: Deno.FsFile | undefined;
  try {
    file = Deno.openSync(temp, { write: true, createNew: true, mode });
    let written = 0;
    while (written < bytes.length) written += file.writeSync(bytes.subarray(written));
    file.syncSync();
    file.close();
    file = undefined;
    if (hasModeBits()) Deno.chmodSync(temp, mode);
  } catch (error) {
    try {
      file?.close();
    } catch { /* already closed */ }
    removeTemp();
    throw homeWriteError(error, path, "the file");
  }
  return {
    commit() {
      try {
        Deno.renameSync(temp, path);
      } catch (error) {
        removeTemp();
        throw homeWriteError(error, path, "the file");
      }
      removeStaleTemps(path);
    },
    abort: removeTemp,
  };
}

/** Replace `path` with `data` atomically: the old file or the new one, never half of each. */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, mode = 0o600): void {
  prepareFileAtomicSync(path, data, mode).commit();
}
