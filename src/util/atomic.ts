/**
 * State is never half-written: a file in wisp's home is written to a
 * temporary file in the same folder, flushed, and renamed over the old one.
 * A crash at any moment leaves either the old file or the new one.
 */
import { basename, dirname, join } from "node:path";

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

export function writeFileAtomicSync(path: string, data: string | Uint8Array, mode = 0o600): void {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const dir = dirname(path);
  const temp = join(
    dir,
    `.${basename(path)}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`,
  );
  let file: Deno.FsFile | undefined;
  try {
    file = Deno.openSync(temp, { write: true, createNew: true, mode });
    let written = 0;
    while (written < bytes.length) written += file.writeSync(bytes.subarray(written));
    file.syncSync();
    file.close();
    file = undefined;
    if (Deno.build.os !== "windows") Deno.chmodSync(temp, mode);
    Deno.renameSync(temp, path);
    removeStaleTemps(path);
  } catch (error) {
    try {
      file?.close();
    } catch { /* already closed */ }
    try {
      Deno.removeSync(temp);
    } catch { /* never created */ }
    throw error;
  }
}
