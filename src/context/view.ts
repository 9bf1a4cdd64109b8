/**
 * The composed context as a person or a client reads it (MCP's
 * wisp://threads/{id}/context): a header with the window, the measured size,
 * the turns in view and dropped, then each message of the next request as
 * it would be sent, tool calls spelled out. Reading it costs the model
 * nothing and changes nothing (no condensing happens here). Pure.
 */
import type { ConversationContext } from "./context.ts";
import { formatCount } from "../util/bytes.ts";

/** The next request's context, as text. */
export function contextView(context: ConversationContext): string {
  const messages = context.compose();
  const tokens = context.measure(messages, []);
  const store = context.store;
  const inView = store.turns.map((t) => t.n);
  const lines = [
    `context: about ${formatCount(tokens)} of ${
      formatCount(context.window)
    } tokens (tool definitions not counted), ` +
    `${store.turnCount} turn${store.turnCount === 1 ? "" : "s"}; ` +
    (inView.length ? `turns ${inView[0]} to ${inView[inView.length - 1]} in view` : "no turn yet") +
    (store.droppedTurns ? `, ${store.droppedTurns} dropped into the summary` : ""),
    `estimate: 4 characters a token × ${
      context.calibration.factor.toFixed(2)
    } (calibrated from ${context.calibration.reports} server count${
      context.calibration.reports === 1 ? "" : "s"
    })`,
    "",
  ];
  for (const message of messages) {
    lines.push(`── ${message.role}${message.toolName ? ` (${message.toolName})` : ""} ──`);
    if (message.content !== "") lines.push(message.content);
    for (const call of message.toolCalls ?? []) {
      lines.push(`call ${call.name} ${call.rawArguments ?? JSON.stringify(call.arguments)}`);
    }
  }
  return lines.join("\n") + "\n";
}

/** The note a face prints when a turn condensed its conversation, or null when it did not. */
export function condensedNote(
  condensings: readonly { referenced: readonly number[]; droppedTurns: readonly number[] }[],
  model: string,
  window: number,
): string | null {
  if (condensings.length === 0) return null;
  const referenced = condensings.reduce((n, c) => n + c.referenced.length, 0);
  const dropped = condensings.reduce((n, c) => n + c.droppedTurns.length, 0);
  const what = [
    ...(referenced
      ? [`${referenced} earlier output${referenced === 1 ? "" : "s"} shown as references`]
      : []),
    ...(dropped ? [`${dropped} turn${dropped === 1 ? "" : "s"} folded into the summary`] : []),
  ].join(", ");
  return `note: the conversation was condensed to fit ${model}'s ${
    formatCount(window)
  }-token window (${what})`;
}
