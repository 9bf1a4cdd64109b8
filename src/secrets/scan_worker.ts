/**
 * A worker of the scan pool (pool.ts): scans the batches of files it is
 * sent, one file at a time, and posts back each batch's findings (masked
 * previews and offsets, never values) and counts. A file too large to be
 * read whole is scanned in bounded windows when the request says so, else
 * sent back untouched for the caller to stream itself; a worker holds at most
 * one file's text and its batch's findings.
 */
/// <reference lib="deno.worker" />
import type { ScanOptions } from "./types.ts";
import type { SecretFinding } from "./types.ts";
import { scanFile, WHOLE_FILE_BYTES } from "./scan_input.ts";
import type { FileReply, PoolReply, PoolRequest } from "./pool.ts";

/** Scan one file; what is sent back for it. */
async function scanOne(path: string, options: ScanOptions, scanLarge: boolean): Promise<FileReply> {
  try {
    if (!scanLarge && Deno.statSync(path).size > WHOLE_FILE_BYTES) return { large: true };
    const findings: SecretFinding[] = [];
    const result = await scanFile(path, options, (found) => {
      for (const f of found) findings.push(f);
    });
    return { result, findings };
  } catch (error) {
    return {
      error: {
        name: error instanceof Error ? error.name : "Error",
        message: error instanceof Error ? error.message : String(error),
      },
    };
  }
}

async function handle(request: PoolRequest): Promise<void> {
  const replies: FileReply[] = [];
  for (const path of request.paths) {
    replies.push(await scanOne(path, request.options, request.scanLarge));
  }
  self.postMessage({ id: request.id, replies } satisfies PoolReply);
}

// Requests are handled in order: a batch of small files does not wait on anything else.
self.onmessage = (event: MessageEvent<PoolRequest>) => void handle(event.data);
