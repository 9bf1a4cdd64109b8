/**
 * The model classifier: one side call to a local model per part the rules
 * leave open, with a fixed prompt and a fixed JSON schema, never supplied by a
 * caller. Its answer can only raise the rules' level (classifier.ts); a reply
 * that is not a verdict, an error, or no reply within the time limit is a
 * failure, which the gate takes as at least moderate. Answers are kept for
 * the session (one classifier per gate), keyed by the part and its folder, so
 * the same command is not sent twice.
 */
import { z } from "zod";
import type { Backend, ChatRequest } from "../models/backend.ts";
import type { ClassifierInput, ModelClassifier, ModelVerdict } from "./classifier.ts";

/** The fixed system instructions of every verdict request. */
export const CLASSIFIER_INSTRUCTIONS = [
  "You rate the risk of one shell command that an AI agent wants to run on a person's computer.",
  "Answer safe when it only reads or prints and changes nothing.",
  "Answer moderate when it changes files of the project it runs in, builds, installs, or fetches.",
  "Answer dangerous when it deletes or overwrites things that are hard to get back, changes files outside the project, reaches other machines, publishes, runs code that cannot be read, exposes secrets, or persists beyond the command.",
  "When unsure between two levels, answer the higher one.",
  "Give the reason in one short sentence.",
].join(" ");

/** The one answer a verdict may be: a level and a short reason. */
const VERDICT_SCHEMA = z.object({
  level: z.enum(["safe", "moderate", "dangerous"]),
  reason: z.string().max(400),
});
/** VERDICT_SCHEMA as the JSON Schema sent with the request. */
export const VERDICT_JSON_SCHEMA = z.toJSONSchema(VERDICT_SCHEMA, { io: "input" }) as Record<
  string,
  unknown
>;

/** How long one verdict may take before the part is taken as moderate. */
const DEFAULT_TIMEOUT_MS = 20_000;

/** The user message of one request: the part, the whole line, the folder, the rules' level. */
function verdictPrompt(input: ClassifierInput): string {
  return [
    `Command: ${input.command}`,
    `Whole line: ${input.line}`,
    `Working folder: ${input.cwd}`,
    `The rules rate it ${input.rulesLevel}; rate it yourself.`,
  ].join("\n");
}

/** The verdict in a reply, or an error that says why there is none. */
function parseVerdict(reply: string): z.infer<typeof VERDICT_SCHEMA> {
  const start = reply.indexOf("{");
  const end = reply.lastIndexOf("}");
  if (start < 0 || end < start) throw new Error("the model's reply held no JSON object");
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply.slice(start, end + 1));
  } catch {
    throw new Error("the model's reply was not valid JSON");
  }
  const result = VERDICT_SCHEMA.safeParse(parsed);
  if (!result.success) throw new Error("the model's reply did not give a level");
  return result.data;
}

/** What a model classifier is made from. */
export interface LocalModelOptions {
  /** The name audited as the classifier (model, system-model). */
  name: string;
  /** The backend to ask; resolved on the first part that needs it (an error fails that part). */
  backend: () => Backend | Promise<Backend>;
  /** The time limit per verdict (default 20 s). */
  timeoutMs?: number;
}

/** The model classifier over one backend, with the session's cache. */
export class LocalModelClassifier implements ModelClassifier {
  readonly name: string;
  readonly by = "model" as const;
  readonly #options: LocalModelOptions;
  readonly #cache = new Map<string, ModelVerdict>();
  #backend: Backend | undefined;

  constructor(options: LocalModelOptions) {
    this.name = options.name;
    this.#options = options;
  }

  async classify(input: ClassifierInput, signal?: AbortSignal): Promise<ModelVerdict> {
    const key = `${input.cwd}\u0000${input.command}`;
    const hit = this.#cache.get(key);
    if (hit) return { ...hit, cached: true };
    this.#backend ??= await this.#options.backend();
    const backend = this.#backend;
    const limitMs = this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error("time limit"));
    }, limitMs);
    const request: ChatRequest = {
      messages: [
        { role: "system", content: CLASSIFIER_INSTRUCTIONS },
        { role: "user", content: verdictPrompt(input) },
      ],
      schema: VERDICT_JSON_SCHEMA,
      think: false,
      signal: controller.signal,
    };
    let reply = "";
    try {
      // The reply races the limit: a stream that ignores its stop signal still ends the wait.
      const read = (async () => {
        for await (const event of backend.chat(request)) {
          if (event.type === "text") reply += event.text;
        }
      })();
      const stopped = new Promise<never>((_, reject) => {
        const fail = () =>
          reject(
            new Error(
              timedOut
                ? `${backend.name} gave no verdict within ${limitMs / 1000} s`
                : "the turn was stopped",
            ),
          );
        if (controller.signal.aborted) fail();
        controller.signal.addEventListener("abort", fail, { once: true });
      });
      read.catch(() => {}); // its failure after the limit is not news
      await Promise.race([read, stopped]);
    } catch (error) {
      if (timedOut) throw new Error(`${backend.name} gave no verdict within ${limitMs / 1000} s`);
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      controller.abort();
    }
    const verdict = parseVerdict(reply);
    const result: ModelVerdict = {
      level: verdict.level,
      reasons: [`${backend.name} rates it ${verdict.level}: ${verdict.reason}`],
      source: backend.name,
    };
    this.#cache.set(key, result);
    return result;
  }
}
