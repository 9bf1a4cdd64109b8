/**
 * Scan one input (a file or standard input) the way every front end does:
 * binary is skipped, a unified diff is scanned by its added lines and located
 * in the files it changes, anything else is streamed in bounded windows.
 */
import type { ScanOptions, SecretFinding } from "./types.ts";
import { countByKind } from "./scanner.ts";
import { looksLikeDiff, scanDiff } from "./diff.ts";
import { looksBinary, scanStream } from "./stream.ts";
import { peek, readBounded } from "./input.ts";

/** A diff is held whole to be scanned; one larger than this is refused (fail closed). */
export const MAX_DIFF_BYTES = 256 * 1024 * 1024;
const PEEK_BYTES = 64 * 1024;

export interface InputResult {
  binary: boolean;
  diff: boolean;
  counts: Record<string, number>;
}

export async function scanInput(
  stream: ReadableStream<Uint8Array>,
  options: ScanOptions,
  onFindings: (findings: SecretFinding[]) => void,
): Promise<InputResult> {
  const peeked = await peek(stream, PEEK_BYTES);
  if (looksBinary(peeked.head)) {
    await peeked.stream.cancel().catch(() => {});
    return { binary: true, diff: false, counts: {} };
  }
  const headText = new TextDecoder().decode(peeked.head);
  if (looksLikeDiff(headText)) {
    const whole = await readBounded(peeked.stream, MAX_DIFF_BYTES);
    if (whole !== null) {
      const findings = scanDiff(whole, { personal: options.personal, thorough: options.thorough });
      if (findings.length > 0) onFindings(findings);
      return { binary: false, diff: true, counts: countByKind(findings) };
    }
    throw new Error(
      `the diff is larger than ${
        MAX_DIFF_BYTES / 1024 / 1024
      } MiB; scan the files it changes instead`,
    );
  }
  const result = await scanStream(peeked.stream, options, onFindings);
  return { binary: result.binary, diff: false, counts: result.counts };
}
