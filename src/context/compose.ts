/**
 * Composing a request from the store: wisp's instructions (with the
 * extension layers), the facts and the running summary, the turns in view —
 * each tool output whole in its own turn and a short reference after it —
 * and the running turn, which ends with the request. Pure: the store, the
 * facts and the summary come in, the chat messages go out.
 */
import type { ChatMessage } from "../models/backend.ts";
import type { StoreTurn } from "./store.ts";
import { outputReference } from "./reference.ts";

/** The running summary of the turns dropped from view. */
export interface RunningSummary {
  text: string;
  /** The turns it covers, from 1 to this. */
  throughTurn: number;
}

/** What a request is composed from. */
export interface ComposeInput {
  instructions: string;
  /** The conversation's facts, one line each. */
  facts: readonly string[];
  summary: RunningSummary | null;
  turns: readonly StoreTurn[];
  /** Outputs of the running turn shown as references all the same (condensing chose them). */
  referenced: ReadonlySet<number>;
  /** The conversation has the memory tool (references name its recall). */
  memory: boolean;
}

/** The system message: the instructions, then the facts and the summary when there are any. */
export function systemText(
  input: Pick<ComposeInput, "instructions" | "facts" | "summary">,
): string {
  const parts = [input.instructions];
  if (input.facts.length > 0) {
    parts.push(`Facts of this conversation:\n${input.facts.map((f) => `- ${f}`).join("\n")}`);
  }
  if (input.summary && input.summary.text.trim() !== "") {
    parts.push(
      `Summary of this conversation's earlier turns (1 to ${input.summary.throughTurn}, no longer shown):\n${input.summary.text.trim()}`,
    );
  }
  return parts.join("\n\n");
}

/** The messages of one turn as a request carries them. */
export function turnMessages(
  turn: StoreTurn,
  referenced: ReadonlySet<number>,
  memory: boolean,
): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const entry of turn.entries) {
    if (entry.kind === "prompt" || entry.kind === "told") {
      out.push({ role: "user", content: entry.text ?? "" });
    } else if (entry.kind === "reply") {
      out.push({
        role: "assistant",
        content: entry.text ?? "",
        ...(entry.calls?.length ? { toolCalls: entry.calls } : {}),
      });
    } else {
      const whole = turn.open && !referenced.has(entry.n) && entry.text !== null;
      out.push({
        role: "tool",
        content: whole ? entry.text! : outputReference(entry, memory),
        ...(entry.callId ? { toolCallId: entry.callId } : {}),
        ...(entry.tool ? { toolName: entry.tool } : {}),
      });
    }
  }
  return out;
}

/** The whole request, system message first. */
export function composeMessages(input: ComposeInput): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: "system", content: systemText(input) }];
  for (const turn of input.turns) {
    messages.push(...turnMessages(turn, input.referenced, input.memory));
  }
  return messages;
}
