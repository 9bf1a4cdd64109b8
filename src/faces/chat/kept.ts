/**
 * How much of what a chat has seen it keeps in memory, so that a chat left
 * running for days holds the latest of each kind and not all of it (ADR 0635).
 * The bounds are chosen to be out of a person's way: more than a screen of
 * /show or /history lists, and about what a shell keeps of its history.
 *
 * What the conversation itself holds (its store) is not bounded here: the
 * context condenses it as it nears the model's window.
 */

/**
 * The outputs kept for /show, /last and /inspect calls: the latest 100. An
 * older one's whole text stays in the session's output store when it was
 * kept there; only the chat's copy of it is let go.
 */
export const KEPT_OUTPUTS = 100;

/** The lines kept for /history and the transcript: the latest 500, as bash keeps by default. */
export const KEPT_HISTORY = 500;

/**
 * The thinking stretches kept for /inspect thinking: those of the latest 20
 * turns. They belong to a conversation, so /new lets them all go.
 */
export const KEPT_THOUGHTS = 20;

/**
 * Append `item` to `list` and drop its oldest entries beyond `limit`, so the
 * list holds the latest `limit` at most. The list is changed in place, as the
 * engine's lists are read where they are.
 */
export function pushLatest<T>(list: T[], item: T, limit: number): void {
  list.push(item);
  keepLatest(list, limit);
}

/** Drop the oldest entries of `list` beyond `limit`, in place. */
export function keepLatest<T>(list: T[], limit: number): void {
  const over = list.length - limit;
  if (over > 0) list.splice(0, over);
}
