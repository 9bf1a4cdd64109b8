/**
 * The ask tool's inquiry effect for a chat: the question goes out as a
 * choice line of kind "question" (its options, then "none of these"; a
 * free-text question takes a typed value), and the value that comes back is
 * read as the ask tool reads an answer. No value (Enter alone, the input
 * closed, the turn stopped) declines.
 */
import type { ChoiceLine } from "./protocol.ts";
import { type Inquirer, type InquiryOutcome, NONE_OF_THESE, readAnswer } from "../../tools/ask.ts";

/** How a chat offers a choice and waits for its value (ChatEngine.choose). */
export type Choose = (
  choice: Omit<ChoiceLine, "type" | "id">,
) => Promise<{ value: string | null }>;

/** The chat's inquirer over its choice lines. */
export function chatInquirer(choose: Choose): Inquirer {
  return {
    async ask(inquiry, signal): Promise<InquiryOutcome> {
      if (signal?.aborted) return { kind: "declined" };
      const options = inquiry.options.length > 0
        ? [...inquiry.options, NONE_OF_THESE].map((value) => ({ value }))
        : [];
      const picked = choose({
        kind: "question",
        title: inquiry.question,
        options,
        ...(inquiry.options.length === 0 ? { typed: true } : {}),
        source: "chat",
      });
      const stopped = new Promise<{ value: null }>((resolve) =>
        signal?.addEventListener("abort", () => resolve({ value: null }), { once: true })
      );
      const { value } = await Promise.race([picked, stopped]);
      if (value === null) return { kind: "declined" };
      return readAnswer(inquiry.options, value);
    },
  };
}
