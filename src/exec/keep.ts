/**
 * Keeping a whole output in the store: the rendering with nothing held back
 * (`exit status`, `stdout:`, stream, `stderr:`, stream), from memory or from
 * the streams' spill files (docs/adr/0116-bounded-capture.md).
 */
import type { OutputStore, OutputWriter } from "../audit/output_store.ts";
import type { CapturedStream } from "./capture.ts";

/** The first line of a command's result, and of its kept whole output. */
export function exitLine(exitStatus: number | null): string {
  return `exit status: ${exitStatus === null ? "none (the command could not start)" : exitStatus}`;
}

/** Where the whole output was kept, or null when it could not be. */
export interface KeptWhole {
  id: string;
  lines: number;
  truncated: boolean;
}

/** Copy a spill file into the stored output. */
function copyInto(writer: OutputWriter, path: string): void {
  const file = Deno.openSync(path, { read: true });
  try {
    const buffer = new Uint8Array(256 * 1024);
    for (;;) {
      const n = file.readSync(buffer);
      if (n === null || n === 0) break;
      writer.append(buffer.subarray(0, n));
      if (writer.truncated) break;
    }
  } finally {
    file.close();
  }
}

/** Write the whole rendering (header, stdout:, stream, stderr:, stream) to the store. */
export function keepWhole(
  store: OutputStore,
  id: string,
  exitStatus: number | null,
  stdout: CapturedStream,
  stderr: CapturedStream,
): KeptWhole {
  const writer = store.create(id);
  writer.appendText(exitLine(exitStatus) + "\n");
  let truncated = false;
  for (const [label, stream] of [["stdout", stdout], ["stderr", stderr]] as const) {
    if (stream.bytes === 0) continue;
    writer.appendText(`${label}:\n`);
    if (stream.spill) {
      copyInto(writer, stream.spill.path);
      truncated ||= stream.spill.truncated;
    } else {
      writer.append(stream.head);
    }
    const last = stream.spill ? undefined : stream.head[stream.head.length - 1];
    if (
      stream.spill ? !stream.tail.length || stream.tail[stream.tail.length - 1] !== 10 : last !== 10
    ) {
      writer.appendText("\n");
    }
  }
  const kept = writer.close();
  return { id, lines: kept.lines, truncated: truncated || !!kept.truncated };
}
