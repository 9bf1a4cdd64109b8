/**
 * Verification reads each call's whole output, not only the part the model
 * was shown: a result that held lines back names its stored output, and this
 * reads it back (bounded) so a claim quoting a held-back line is supported.
 */
import type { TurnCall } from "../audit/calls.ts";

/** The most read back per call, and per turn. */
export const WHOLE_PER_CALL_BYTES = 4 * 1024 * 1024;
const WHOLE_PER_TURN_BYTES = 16 * 1024 * 1024;

/** Reads up to `max` bytes of a stored output; null when it is not there. */
export type ReadStored = (id: string, max: number) => Promise<string | null>;

export async function withWholeOutputs(
  calls: readonly TurnCall[],
  read: ReadStored,
): Promise<TurnCall[]> {
  let room = WHOLE_PER_TURN_BYTES;
  const out: TurnCall[] = [];
  for (const call of calls) {
    if (!call.outputId || room <= 0) {
      out.push(call);
      continue;
    }
    let whole: string | null = null;
    try {
      whole = await read(call.outputId, Math.min(room, WHOLE_PER_CALL_BYTES));
    } catch {
      whole = null;
    }
    if (whole === null) {
      out.push(call);
      continue;
    }
    room -= whole.length;
    out.push({ ...call, whole });
  }
  return out;
}

/** A ReadStored over the output store's readRange. */
export function storeReader(
  store: { readRange(id: string, offset: number, length: number): Promise<Uint8Array> },
): ReadStored {
  return async (id, max) => {
    try {
      return new TextDecoder().decode(await store.readRange(id, 0, max));
    } catch {
      return null;
    }
  };
}
