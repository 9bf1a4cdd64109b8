/**
 * A model behind a fake server for the context tests: it measures every
 * request it receives the way the issue asks — about four characters a token
 * over the whole request body's messages and tool schemas — reports that
 * count back as the server's usage, and refuses (as a real server would) any
 * request past its window, recording the refusal so the test fails on it.
 *
 * It plays a small model in a long MCP thread: asked a numbered task, it runs
 * that turn's command; given the command's output, it says it is done; asked
 * the closing question, it answers with the codename it can find in what it
 * was sent (the running summary, the facts, or a turn still in view), or says
 * it cannot see one. Asked for the running summary (wisp's side call, known
 * by its fixed instructions), it keeps every codename line it is shown.
 */
import { SUMMARY_PROMPT } from "../../src/context/summary.ts";

export const CODENAME = "BLUE-HERON-4217";
export const WINDOW = 8192;
export const CHARS_PER_TOKEN = 4;

interface Message {
  role: string;
  content?: string | null;
}

/** The request's size as the fake server counts it: messages and tools, four characters a token. */
export function measuredTokens(body: Record<string, unknown>): number {
  const text = JSON.stringify(body.messages ?? []) + JSON.stringify(body.tools ?? []);
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** The command turn `n` runs: about 5 KB of output, turn 1 printing the codename first. */
export function commandOf(n: number): string {
  return n === 1 ? `echo codename ${CODENAME}; seq 10000 10800` : `echo turn ${n}; seq 10000 10800`;
}

export type Step =
  | { kind: "text"; text: string; inputTokens: number }
  | { kind: "call"; command: string; inputTokens: number }
  | { kind: "too_long"; inputTokens: number };

export interface MeasuringModel {
  /** Each request's measured tokens, in order (side calls included). */
  sizes: number[];
  /** Requests past the window: each one fails the test. */
  oversized: number[];
  /** Summary side calls answered. */
  summaries: number;
  /** The last request of the conversation proper (not a side call). */
  last(): Message[];
  /** The next step for a request body. */
  step(body: Record<string, unknown>): Step;
}

function contentOf(m: Message): string {
  return typeof m.content === "string" ? m.content : "";
}

export function measuringModel(window = WINDOW): MeasuringModel {
  const model: MeasuringModel & { lastMessages: Message[] } = {
    sizes: [],
    oversized: [],
    summaries: 0,
    lastMessages: [],
    last: () => model.lastMessages,
    step(body) {
      const tokens = measuredTokens(body);
      model.sizes.push(tokens);
      if (tokens > window) {
        model.oversized.push(tokens);
        return { kind: "too_long", inputTokens: tokens };
      }
      const messages = (body.messages ?? []) as Message[];
      const all = messages.map(contentOf).join("\n");
      if (contentOf(messages[0] ?? { role: "" }) === SUMMARY_PROMPT) {
        model.summaries++;
        // Keep every codename the request shows (the summary so far and the turns leaving view).
        const found = [...new Set(all.match(/codename [A-Z]+-[A-Z]+-\d+/g) ?? [])];
        const turns = [...all.matchAll(/## turn (\d+)/g)].map((m) => m[1]);
        const text = [
          ...found.map((c) => `The first command printed ${c}.`),
          `Turns ${turns[0] ?? "?"} to ${
            turns.at(-1) ?? "?"
          } each ran a command that printed numbers.`,
        ].join("\n");
        return { kind: "text", text, inputTokens: tokens };
      }
      model.lastMessages = messages;
      const lastMessage = messages[messages.length - 1];
      if (lastMessage?.role === "tool") return { kind: "text", text: "Done.", inputTokens: tokens };
      const prompt = contentOf(lastMessage ?? { role: "" });
      const task = prompt.match(/^Task (\d+):/);
      if (task) return { kind: "call", command: commandOf(Number(task[1])), inputTokens: tokens };
      const codename = all.match(/codename ([A-Z]+-[A-Z]+-\d+)/);
      return {
        kind: "text",
        text: codename ? `The codename was ${codename[1]}.` : "I cannot see a codename.",
        inputTokens: tokens,
      };
    },
  };
  return model;
}
