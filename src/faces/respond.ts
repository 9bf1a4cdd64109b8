/**
 * The respond face: one prompt in, one reply out. The reply goes to stdout as
 * it streams (or whole, with --no-stream); everything else — warnings, the
 * `ran:` and `unsupported:` lines, errors — goes to stderr. There is no one
 * to ask: a command that needs approval is refused unless --yes, and the
 * reply says so. The model named (or configured) is the model used: an
 * unavailable one fails with the reason, never falling back to another.
 *
 * Exit codes: 0 a reply; 1 a failure (model unavailable, the model's stream
 * broke, the turn ran out of rounds); 64 a usage error (an unknown tool, an
 * unreadable schema, an empty prompt, a malformed config); 130 stopped by
 * Ctrl-C.
 */
import { condensedNote } from "../context/view.ts";
import { openConversationFacts } from "../context/facts/mod.ts";
import type { Config } from "../config/schema.ts";
import type { HomePaths } from "../config/home.ts";
import { EXIT, messageOf, UsageError, WispError } from "../util/errors.ts";
import type { Backend } from "../models/backend.ts";
import { Session } from "../session/session.ts";
import type { Notifier } from "../notify/notifier.ts";
import { openNotifier } from "../notify/world.ts";
import { SANDBOX_OFF_WARNING } from "../exec/runner.ts";
import { BYTES_PER_TOKEN } from "../tools/budget.ts";
import { Conversation, TurnFailed } from "../agent/conversation.ts";
import type { TurnOutcome } from "../agent/turn.ts";
import { log } from "../util/log.ts";

/** The most a piped prompt may hold. */
const PROMPT_MAX_BYTES = 4 * 1024 * 1024;
/** The most a --schema file may hold. */
const SCHEMA_MAX_BYTES = 256 * 1024;

const YES_WARNING =
  "warning: --yes: commands that would ask you run without asking; the deny list, sandbox, classifier and audit still apply";

const UNSAFE_WARNING =
  "warning: --unsafe: commands run without the sandbox and can write anywhere you can, wisp's home included";

export interface RespondOptions {
  prompt: string;
  model?: string;
  /** --tool, repeated: exactly these tools. */
  tools?: string[];
  noTools?: boolean;
  instructions?: string;
  /** The JSON Schema the reply must match (already read from --schema). */
  schema?: Record<string, unknown>;
  stream: boolean;
  yes: boolean;
  unsafe: boolean;
  argv?: string[];
}

/** Where respond writes; the CLI passes stdout and stderr, tests and benches their own. */
export interface RespondIO {
  out(text: string): void;
  err(text: string): void;
  /** How a quiet line (ran:, unsupported:) is styled on stderr; plain by default. */
  muted?(text: string): string;
  /** How a warning is styled on stderr; plain by default. */
  warn?(text: string): string;
}

export interface RespondDeps {
  config: Config;
  paths: HomePaths;
  /** The backend for a model name (the registry's resolveModel + checkAvailable in the CLI). */
  backend(name: string, tools: boolean): Promise<Backend>;
  signal?: AbortSignal;
  /** The launch directory; the working directory by default. */
  root?: string;
  /** The notifier the notify tool posts through; the real one (terminal on stderr, the OS) by default. */
  notifier?: Notifier;
}

export interface RespondResult {
  code: number;
  outcome?: TurnOutcome;
  ran?: string | null;
  unsupported?: string | null;
}

/**
 * Whether the prompt cannot fit the window, as a sentence, or null. Counted at
 * 4 bytes a token, which underestimates most text, so a prompt refused here
 * would certainly have been cut by the server; a closer call is left to it.
 */
function promptOverflow(
  prompt: string,
  instructions: string,
  windowTokens: number,
): string | null {
  const bytes = new TextEncoder().encode(prompt).length +
    new TextEncoder().encode(instructions).length;
  const tokens = Math.ceil(bytes / BYTES_PER_TOKEN);
  if (tokens <= windowTokens) return null;
  return `the prompt and instructions are about ${
    tokens.toLocaleString("en-US")
  } tokens, more than the window of ` +
    `${windowTokens.toLocaleString("en-US")}`;
}

/** Read a --schema file: a JSON object, bounded; any problem is a usage error naming the file. */
export function readSchemaFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    const info = Deno.statSync(path);
    if (!info.isFile) {
      throw new UsageError(`--schema ${path} is not a file; give a JSON Schema file`);
    }
    if (info.size > SCHEMA_MAX_BYTES) {
      throw new UsageError(`--schema ${path} is larger than 256 KiB; give a smaller JSON Schema`);
    }
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof WispError) throw error;
    if (error instanceof Deno.errors.NotFound) {
      throw new UsageError(`--schema ${path} does not exist; give a JSON Schema file`);
    }
    throw new UsageError(`cannot read --schema ${path} (${messageOf(error)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `--schema ${path} is not valid JSON (${messageOf(error)}); give a JSON Schema file`,
    );
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new UsageError(`--schema ${path} must hold a JSON object (a JSON Schema)`);
  }
  return value as Record<string, unknown>;
}

/** Read a piped prompt, bounded. */
export async function readPipedPrompt(
  stream: ReadableStream<Uint8Array>,
  max = PROMPT_MAX_BYTES,
): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > max) {
      throw new UsageError(
        `the prompt on standard input is larger than ${
          max / (1024 * 1024)
        } MiB; give a shorter one`,
      );
    }
    chunks.push(chunk);
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder().decode(all);
}

export async function respond(
  options: RespondOptions,
  deps: RespondDeps,
  io: RespondIO,
): Promise<RespondResult> {
  const prompt = options.prompt.trim();
  if (prompt === "") {
    throw new UsageError("the prompt is empty; give one as an argument or on standard input");
  }
  if (options.noTools && options.tools && options.tools.length > 0) {
    throw new UsageError("--tool and --no-tools cannot be used together; choose one");
  }
  const muted = io.muted ?? ((text: string) => text);
  const warn = io.warn ?? ((text: string) => text);
  if (options.yes) io.err(warn(YES_WARNING) + "\n");
  if (options.unsafe) io.err(warn(UNSAFE_WARNING) + "\n");
  else if (!deps.config.commandPolicy.sandbox.enabled) io.err(warn(SANDBOX_OFF_WARNING) + "\n");

  const session = Session.open({
    face: "respond",
    paths: deps.paths,
    config: deps.config,
    root: deps.root,
    // The terminal route writes to stderr when it is a terminal; respond has no front end to post.
    notifier: deps.notifier ??
      openNotifier(deps.config.notifications, deps.paths.auditLog, { terminal: true }),
    yes: options.yes,
    unsafe: options.unsafe,
    argv: options.argv,
  });
  try {
    // An unknown tool name is a usage error before any model is asked.
    const tools = session.tools({ only: options.tools, noTools: options.noTools });
    const modelName = options.model ?? deps.config.model;
    const backend = await deps.backend(modelName, tools.length > 0);
    log(
      "debug",
      `model ${backend.name}, chosen by ${options.model ? "--model" : "config.json's model"}`,
    );
    if (options.schema) {
      const caps = await backend.capabilities();
      if (!caps.structured) {
        throw new WispError(
          `${backend.name} cannot be held to a JSON schema; choose another model from wisp models, or leave out --schema`,
        );
      }
    }
    // The conversation's facts: permanent ones offered, dropped turns distilled, notes kept.
    const facts = openConversationFacts({
      config: deps.config,
      paths: deps.paths,
      audit: session.audit,
      cwd: session.root,
      backend,
    });
    const conversation = await Conversation.open(session, {
      backend,
      tools,
      instructions: options.instructions,
      ...(facts ? { facts: facts.sink } : {}),
    });
    const overflow = promptOverflow(prompt, conversation.instructions, conversation.window);
    if (overflow) {
      throw new WispError(
        `${overflow} for ${backend.name}; give a shorter prompt, or pick a model with a larger window`,
      );
    }
    let printed = "";
    let report;
    try {
      report = await conversation.turn({
        prompt,
        schema: options.schema,
        signal: deps.signal,
        hooks: {
          onText: (text) => {
            if (!options.stream) return;
            printed += text;
            io.out(text);
          },
        },
      });
    } catch (error) {
      if (!(error instanceof TurnFailed)) throw error;
      // The model failed part-way: say what the turn ran before it did, then fail.
      if (printed !== "" && !printed.endsWith("\n")) io.out("\n");
      if (error.ran) io.err(muted(error.ran) + "\n");
      throw error.failure;
    }
    const { outcome, ran, unsupported } = report;
    if (!options.stream) {
      printed = outcome.text;
      io.out(printed);
    }
    if (printed !== "" && !printed.endsWith("\n")) io.out("\n");
    if (ran) io.err(muted(ran) + "\n");
    const condensed = condensedNote(
      conversation.context.condensedThisTurn,
      backend.name,
      conversation.window,
    );
    if (condensed) io.err(muted(condensed) + "\n");
    if (unsupported) io.err(muted(unsupported) + "\n");
    if (outcome.stopped) {
      io.err("stopped by you\n");
      return { code: EXIT.interrupted, outcome, ran, unsupported };
    }
    if (outcome.roundLimit) {
      io.err(
        `error: the model was still calling tools after ${outcome.rounds} requests, so wisp ended the turn; ask for less at once\n`,
      );
      return { code: EXIT.failure, outcome, ran, unsupported };
    }
    if (outcome.cutOff) io.err("note: the reply was cut off at the model's length limit\n");
    return { code: EXIT.ok, outcome, ran, unsupported };
  } finally {
    session.close();
  }
}
