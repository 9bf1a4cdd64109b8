/**
 * How something inside a tool call (an approval waiting, a model standing in) tells the client of
 * that call: a `notifications/progress` on the call's progress token, when it
 * carried one (related to the call), and an MCP log message
 * (`notifications/message`, level warning, dropped by the SDK when the client
 * asked for less with logging/setLevel). The server sets the scope around
 * each tools/call; the approval host reads it wherever the gate asks from.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** Tell the client of the current call something it should see now. */
export type Announce = (message: string) => Promise<void>;

/** The current tool call's way to announce, carried through its async calls. */
export const callAnnouncer = new AsyncLocalStorage<Announce>();

/** What the server needs from the SDK to announce on one call. */
export interface CallChannel {
  /** The call's `_meta.progressToken`, if it gave one. */
  progressToken?: string | number;
  /** Send a progress notification related to the call. */
  progress(params: Record<string, unknown>): Promise<void>;
  /** Send a log message (the SDK honours the client's logging level). */
  log(params: { level: "warning"; logger: string; data: string }): Promise<void>;
}

/** The announcer of one call: progress (counting up from 1) and a log message, each when it can go. */
export function announcerFor(channel: CallChannel): Announce {
  let progress = 0;
  return async (message) => {
    const sends: Promise<void>[] = [];
    if (channel.progressToken !== undefined) {
      sends.push(
        channel.progress({ progressToken: channel.progressToken, progress: ++progress, message }),
      );
    }
    sends.push(channel.log({ level: "warning", logger: "wisp", data: message }));
    // A client that went away cannot be told; the wait goes on either way.
    await Promise.allSettled(sends);
  };
}
