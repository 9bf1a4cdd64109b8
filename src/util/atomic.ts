/**
 * State is never half-written: a file in wisp's home is written to a
 * temporary file in the same folder, flushed, and renamed over the old one.
 * A crash at any moment leaves either the old file or the new one.
 */
import { basename, dirname, join } from "node:path";

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
