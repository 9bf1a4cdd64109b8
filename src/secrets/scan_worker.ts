/**
 * A worker of the scan pool (pool.ts): scans the files it is sent, one at a
 * time, and posts back each file's findings (masked previews and offsets,
 * never values) and counts. A file too large to be read whole is sent back
 * untouched, for the caller to stream itself (so a worker never holds more
 * than one small file and its findings).
 */
/// <reference lib="deno.worker" />
import type { ScanOptions } from "./types.ts";
import type { SecretFinding } from "./types.ts";
import { scanFile, WHOLE_FILE_BYTES } from "./scan_input.ts";
import type { PoolReply, PoolRequest } from "./pool.ts";

function reply(message: PoolReply): void {
  self.postMessage(message);
}

async function handle(id: number, path: string, options: ScanOptions): Promise<void> {
  try {
    if (Deno.statSync(path).size > WHOLE_FILE_BYTES) {
      reply({ id, large: true });
      return;
    }
    const findings: SecretFinding[] = [];
    const result = await scanFile(path, options, (found) => {
      for (const f of found) findings.push(f);
    });
    reply({ id, result, findings });
  } catch (error) {
    reply({
      id,
      error: {
        name: error instanceof Error ? error.name : "Error",
        message: error instanceof Error ? error.message : String(error),
      },
    });
  }
}

self.onmessage = (event: MessageEvent<PoolRequest>) => {
  const { id, path, options } = event.data;
  // Requests are handled in order; scanFile of a small file does not wait on anything else.
  void handle(id, path, options);
};
