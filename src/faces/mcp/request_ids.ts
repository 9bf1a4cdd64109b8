/**
 * Requests wisp's server sends to the client (elicitation/create) never use
 * JSON-RPC id 0. SDK-based clients treat a falsy request id as no id: a
 * notifications/cancelled for request 0 is never matched to the dialog it
 * withdraws, so the first dialog stayed on screen after the person answered
 * from a terminal. The SDK numbers a session's requests from a counter that
 * starts at 0 and has no option for it; moving the counter past 0 before
 * the first request is the smallest change that needs no fork (ADR 0342).
 */

/** The SDK's request counter, a private field of its Protocol class. */
interface Counter {
  _requestMessageId?: unknown;
}

/**
 * Make `protocol`'s next request id 1 when it would be 0. Returns false when
 * the SDK no longer has the counter (an upgrade renamed it): the caller logs
 * it, and the test of the first request's id fails.
 */
export function skipRequestIdZero(protocol: object): boolean {
  const counter = protocol as Counter;
  if (typeof counter._requestMessageId !== "number") return false;
  if (counter._requestMessageId === 0) counter._requestMessageId = 1;
  return true;
}
