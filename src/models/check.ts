/**
 * `wisp models check`: what a model can do, asked of the model itself. Three
 * short questions, each once, within a time limit: a plain reply (the first,
 * which loads the model, gets longer), a call to a tool, and a reply held to
 * a JSON schema. What passes is what config.json records for a runtime that
 * does not say (llama.cpp); a runtime that reports its own capabilities is not
 * checked.
 */
import type { Backend, ChatRequest } from "./backend.ts";
import { messageOf } from "../util/errors.ts";

/** The capabilities a check can pass, as config.json names them. */
export type CheckedCapability = "toolCalling" | "guidedGeneration";

export interface QuestionResult {
  /** What was asked: "reply", "tool calling", "structured reply". */
  question: string;
  passed: boolean;
  seconds: number;
  /** Why it failed, in a few words. */
  why?: string;
  /** The capability it decides, if any (a plain reply decides none). */
  capability?: CheckedCapability;
}

export interface CheckLimits {
  /** The first question, which loads the model. */
  firstMs: number;
  /** Each of the others. */
  eachMs: number;
}

export const CHECK_LIMITS: CheckLimits = { firstMs: 180_000, eachMs: 60_000 };

/** "3 min", "60 s": a limit as the check announces it. */
export function limitWords(ms: number): string {
  return ms >= 120_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)} s`;
}

interface Question {
  question: string;
  capability?: CheckedCapability;
  request: Omit<ChatRequest, "signal">;
  /** Undefined when it passed, else why not. */
  judge(
    text: string,
    calls: { name: string; arguments: Record<string, unknown> }[],
  ): string | undefined;
}

const RECORD_WORD = {
  name: "record_word",
  description: "Record one word.",
  parameters: {
    type: "object",
    properties: { word: { type: "string", description: "the word to record" } },
    required: ["word"],
  },
};

const QUESTIONS: Question[] = [
  {
    question: "reply",
    request: { messages: [{ role: "user", content: "Reply with exactly one word: ready" }] },
    judge: (text) => text.trim() === "" ? "the reply was empty" : undefined,
  },
  {
    question: "tool calling",
    capability: "toolCalling",
    request: {
      messages: [{
        role: "user",
        content: "Call the record_word tool with the word blue. Do not reply with text.",
      }],
      tools: [RECORD_WORD],
    },
    judge: (_text, calls) =>
      calls.some((c) => c.name === "record_word") ? undefined : "no call to record_word arrived",
  },
  {
    question: "structured reply",
    capability: "guidedGeneration",
    request: {
      messages: [{ role: "user", content: 'Give the colour of the sky as JSON: {"word": "..."}' }],
      schema: {
        type: "object",
        properties: { word: { type: "string" } },
        required: ["word"],
        additionalProperties: false,
      },
    },
    judge: (text) => {
      try {
        const value = JSON.parse(text.trim());
        return value && typeof value === "object" && typeof value.word === "string"
          ? undefined
          : "the reply did not match the schema";
      } catch {
        return "the reply was not JSON";
      }
    },
  },
];

async function ask(backend: Backend, q: Question, limitMs: number): Promise<QuestionResult> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  const signal = AbortSignal.timeout(limitMs);
  let text = "";
  const calls: { name: string; arguments: Record<string, unknown> }[] = [];
  try {
    for await (const event of backend.chat({ ...q.request, signal, think: false })) {
      if (event.type === "text") text += event.text;
      if (event.type === "tool_call") calls.push(event.call);
    }
  } catch (error) {
    const why = signal.aborted ? `no answer within ${limitWords(limitMs)}` : messageOf(error);
    return {
      question: q.question,
      capability: q.capability,
      passed: false,
      seconds: seconds(),
      why,
    };
  }
  const why = q.judge(text, calls);
  return {
    question: q.question,
    capability: q.capability,
    passed: why === undefined,
    seconds: seconds(),
    ...(why ? { why } : {}),
  };
}

/**
 * Ask the three questions in order, each once; `onResult` hears each as it
 * ends. A failed first question (no reply at all) still lets the others run:
 * each says what it saw.
 */
export async function checkModel(
  backend: Backend,
  limits: CheckLimits = CHECK_LIMITS,
  onResult: (result: QuestionResult) => void = () => {},
): Promise<QuestionResult[]> {
  const results: QuestionResult[] = [];
  for (const [index, q] of QUESTIONS.entries()) {
    const result = await ask(backend, q, index === 0 ? limits.firstMs : limits.eachMs);
    results.push(result);
    onResult(result);
  }
  return results;
}

/** "passed in 2.3 s" / "failed in 1.3 s (no call to record_word arrived)". */
export function resultWords(result: QuestionResult): string {
  const time = `${result.seconds.toFixed(1)} s`;
  return result.passed
    ? `${result.question}: passed in ${time}`
    : `${result.question}: failed in ${time} (${result.why})`;
}

export interface Verified {
  date: string;
  passed: CheckedCapability[];
  failed: CheckedCapability[];
}

/**
 * What config.json records after a check: the capabilities that passed, with
 * those declared by hand kept when their check failed (and named, to say so),
 * and those an earlier check recorded and this one failed taken out.
 */
export function recordedCapabilities(
  results: QuestionResult[],
  current: { capabilities?: string[]; verified?: { passed?: string[] } } | undefined,
  today: string,
): { capabilities: string[]; verified: Verified; keptByHand: string[] } {
  const passed = results.filter((r) => r.passed && r.capability).map((r) => r.capability!);
  const failed = results.filter((r) => !r.passed && r.capability).map((r) => r.capability!);
  const earlierChecked = new Set(current?.verified?.passed ?? []);
  const declared = current?.capabilities ?? [];
  // Declared by hand: in the list, and not put there by an earlier check.
  const byHand = declared.filter((c) => !earlierChecked.has(c));
  const keptByHand = byHand.filter((c) => (failed as string[]).includes(c));
  const capabilities = [
    ...new Set([...byHand, ...passed]),
  ];
  return { capabilities, verified: { date: today, passed, failed }, keptByHand };
}

/** Capabilities as a person reads them. */
export function capabilityWords(names: readonly string[]): string {
  const words: Record<string, string> = {
    toolCalling: "tools",
    guidedGeneration: "structured replies",
    reasoning: "thinking",
    vision: "vision",
  };
  return names.map((n) => words[n] ?? n).join(", ");
}
