/**
 * Chat's slash commands: a chat line starting with `/` is a command to the
 * chat, never sent to the model. Each answers with note lines (a view for
 * an output shown whole), or a choice when it needs a value it was not
 * given. /fact, /facts, /task and /inspect context work on the
 * conversation's fact book and context (facts.ts); /approvals and /questions
 * answer what waits in wisp mcp servers (waiting.ts).
 *
 * Completion of the input (the protocol's complete line) lives here too: it
 * offers the same commands, settings and values.
 */
import { z } from "zod";
import { configSchema, SETTINGS } from "../../config/schema.ts";
import { editDistance } from "../../models/validate.ts";
import { messageOf } from "../../util/errors.ts";
import type { ChatEngine } from "./engine.ts";
import type { Completion, CompletionsLine } from "./protocol.ts";
import { foldOutput } from "./fold.ts";
import { usageText } from "./engine.ts";
import { emptyContext, newTranscriptId } from "./transcript.ts";
import { contextView } from "../../context/view.ts";
import { factCommand, factsCommand, taskCommand } from "./facts.ts";
import { meanSeconds } from "./turn_tally.ts";

/** The commands, in the order /help lists them, with what each does. */
export const SLASH_COMMANDS: readonly { name: string; usage: string; what: string }[] = [
  { name: "help", usage: "/help", what: "list these commands" },
  { name: "quit", usage: "/quit", what: "save the transcript and leave" },
  { name: "new", usage: "/new", what: "save this conversation and start a new one" },
  { name: "model", usage: "/model [NAME]", what: "switch the model (a choice without a name)" },
  {
    name: "config",
    usage: "/config show | set KEY [VALUE…] | unset KEY",
    what: "show or change settings, as wisp config does",
  },
  { name: "show", usage: "/show [ID]", what: "print an output whole (a list without an id)" },
  { name: "last", usage: "/last", what: "print the last output whole" },
  { name: "history", usage: "/history", what: "list the lines sent in this chat" },
  { name: "stats", usage: "/stats", what: "turns and classifier calls of this session" },
  { name: "tokens", usage: "/tokens", what: "the size of the conversation" },
  {
    name: "inspect",
    usage: "/inspect context | thinking | calls",
    what: "what the model sees, its thinking, the calls made",
  },
  {
    name: "approvals",
    usage: "/approvals pending | approve ID [SCOPE] | deny ID",
    what: "commands waiting in wisp mcp",
  },
  { name: "fact", usage: "/fact SUBJECT [NAME] = VALUE", what: "state a fact for the model" },
  { name: "facts", usage: "/facts keep ID | drop ID", what: "facts waiting in wisp mcp" },
  {
    name: "task",
    usage: "/task [TEXT | clear]",
    what: "the task the model sees beside each request",
  },
  {
    name: "questions",
    usage: "/questions answer ID | decline ID",
    what: "the model's questions waiting in wisp mcp",
  },
];

const NAMES = SLASH_COMMANDS.map((c) => c.name);

/** The commands near a misspelt one: a prefix of it, or two edits away at most. */
export function nearCommands(word: string): string[] {
  const w = word.toLowerCase();
  if (w === "") return [];
  return NAMES
    .map((name) => ({ name, distance: editDistance(w, name) }))
    .filter(({ name, distance }) =>
      name.startsWith(w) || w.startsWith(name) || distance <= (name.length >= 6 ? 2 : 1)
    )
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .map(({ name }) => `/${name}`);
}

/** Split a slash line into the command and its words. */
function words(text: string): { name: string; args: string[]; rest: string } {
  const body = text.slice(1);
  const match = /^(\S*)\s*([\s\S]*)$/.exec(body)!;
  const rest = match[2].trim();
  return { name: match[1], args: rest === "" ? [] : rest.split(/\s+/), rest };
}

/** Run one slash command line. */
export async function runSlash(engine: ChatEngine, text: string): Promise<void> {
  const { name, args, rest } = words(text);
  const say = (line: string) => engine.note(line, "plain", "command");
  switch (name) {
    case "help": {
      say("commands:");
      const width = Math.max(...SLASH_COMMANDS.map((c) => c.usage.length));
      for (const c of SLASH_COMMANDS) say(`  ${c.usage.padEnd(width)}  ${c.what}`);
      say("  !CMD  run a command yourself, in the sandbox; !!CMD outside it");
      return;
    }
    case "quit":
    case "exit":
      engine.requestQuit(0);
      return;
    case "new": {
      const saved = engine.saveTranscript();
      if (saved) say(`transcript saved: ${engine.transcript.id}`);
      engine.history.length = 0;
      engine.transcript = {
        ...engine.transcript,
        id: newTranscriptId(),
        started: new Date().toISOString(),
        sessions: [engine.session.id],
        context: emptyContext(),
        history: [],
        facts: undefined,
        task: undefined,
      };
      engine.factBook = undefined;
      // The task was the last conversation's, as its facts were.
      engine.task = undefined;
      // The thinking was the last conversation's; the outputs stay for /show (the chat's).
      engine.thoughts.length = 0;
      await engine.openConversation(emptyContext());
      say("a new conversation; the model remembers nothing of the last one");
      return;
    }
    case "model":
      await model(engine, args[0]);
      return;
    case "config":
      await config(engine, args);
      return;
    case "show": {
      if (args.length === 0) {
        if (engine.outputs.length === 0) {
          say("no output in this chat yet");
          return;
        }
        for (const o of engine.outputs) say(`  ${o.id.slice(0, 8)}  ${o.title}`);
        return;
      }
      await show(engine, args[0]);
      return;
    }
    case "last":
      if (engine.outputs.length === 0) {
        say("no output in this chat yet");
        return;
      }
      await show(engine, "");
      return;
    case "history":
      if (engine.history.length <= 1) {
        say("nothing sent in this chat yet");
        return;
      }
      // The /history line itself is the last; list what came before it.
      engine.history.slice(0, -1).forEach((line, i) =>
        say(`${String(i + 1).padStart(4)}  ${line}`)
      );
      return;
    case "stats":
      stats(engine);
      return;
    case "tokens":
      tokens(engine);
      return;
    case "inspect":
      inspect(engine, args[0]);
      return;
    case "approvals":
      await approvals(engine, args);
      return;
    case "fact":
      factCommand(engine, rest);
      return;
    case "facts":
      await factsCommand(engine, args);
      return;
    case "questions":
      await questions(engine, args);
      return;
    case "task":
      taskCommand(engine, rest);
      return;
    default: {
      const near = nearCommands(name);
      engine.note(
        `/${name} is not a chat command${
          near.length > 0 ? `; did you mean ${near.join(" or ")}?` : ""
        } /help lists them`,
        "warn",
        "command",
      );
    }
  }
}

async function model(engine: ChatEngine, given: string | undefined): Promise<void> {
  let name = given;
  if (name === undefined) {
    let names: string[] = [];
    try {
      names = await engine.options.runnableModels();
    } catch (error) {
      engine.note(`error: ${messageOf(error)}`, "error", "error");
      return;
    }
    if (names.length === 0) {
      engine.note("no other model can run on this machine now; wisp models says why", "warn");
      return;
    }
    const chosen = await engine.choose({
      kind: "model",
      title: "the model for this chat",
      options: names.map((n) => ({
        value: n,
        ...(n === engine.backend.name ? { current: true } : {}),
      })),
      typed: true,
    });
    if (!chosen.value) {
      engine.note(`the model stays ${engine.backend.name}`, "muted", "command");
      return;
    }
    name = chosen.value;
  }
  try {
    const backend = await engine.options.backend(name, true);
    const carried = engine.conversation.context.snapshot();
    engine.backend = backend;
    await engine.openConversation(carried);
    engine.note(`now on ${backend.name}; the conversation carries on`, "plain", "command");
  } catch (error) {
    engine.note(`error: ${messageOf(error)}; the model stays ${engine.backend.name}`, "error");
  }
}

/** The values a setting takes, read from the config's JSON Schema: an enum's, or true/false. */
export function settingValues(key: string): string[] | undefined {
  const schema = z.toJSONSchema(configSchema, { io: "input" }) as Record<string, unknown>;
  let node: Record<string, unknown> | undefined = schema;
  for (const part of key.split(".")) {
    const props = node?.properties as Record<string, Record<string, unknown>> | undefined;
    node = props?.[part];
    if (!node) return undefined;
  }
  const pick = (n: Record<string, unknown>): string[] | undefined => {
    if (Array.isArray(n.enum)) return n.enum.map(String);
    if (n.type === "boolean") return ["true", "false"];
    for (const alt of [n.anyOf, n.oneOf]) {
      if (Array.isArray(alt)) {
        const values = alt.flatMap((a) => pick(a as Record<string, unknown>) ?? []);
        if (values.length > 0) return values;
      }
    }
    return undefined;
  };
  return pick(node);
}

async function config(engine: ChatEngine, args: string[]): Promise<void> {
  const [verb, key, ...value] = args;
  const change = engine.options.changeConfig;
  if (verb === undefined || verb === "show") {
    engine.emit({
      type: "view",
      id: "config",
      kind: "text",
      title: "config",
      text: JSON.stringify(engine.options.configView(), null, 2),
    });
    return;
  }
  if ((verb !== "set" && verb !== "unset") || key === undefined) {
    engine.note(
      "/config takes show, set KEY [VALUE…] or unset KEY; wisp config list names the settings",
      "warn",
      "command",
    );
    return;
  }
  if (!change) {
    engine.note("settings cannot be changed from this chat", "warn", "command");
    return;
  }
  let words = value;
  if (verb === "set" && words.length === 0) {
    const values = key === "model"
      ? await engine.options.runnableModels().catch(() => [] as string[])
      : settingValues(key) ?? [];
    const current = currentValue(engine, key);
    const chosen = await engine.choose({
      kind: "setting",
      title: `/config set ${key}`,
      options: values.map((v) => ({ value: v, ...(v === current ? { current: true } : {}) })),
      typed: true,
    });
    if (!chosen.value) {
      engine.note(`${key} is left as it was`, "muted", "command");
      return;
    }
    words = [chosen.value];
  }
  try {
    const lines = await change(key, verb === "set" ? words : undefined);
    for (const line of lines) engine.note(line, "plain", "command");
  } catch (error) {
    engine.note(`error: ${messageOf(error)}`, "error", "error");
  }
}

function currentValue(engine: ChatEngine, key: string): string | undefined {
  let node: unknown = engine.config;
  for (const part of key.split(".")) {
    if (!node || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node === undefined ? undefined : String(node);
}

async function show(engine: ChatEngine, id: string): Promise<void> {
  const output = engine.findOutput(id);
  if (!output) {
    engine.note(`no output ${id} in this chat; /show lists them`, "warn", "command");
    return;
  }
  const whole = await engine.wholeOutput(output);
  engine.emit({
    type: "view",
    id: output.id,
    kind: "output",
    title: output.title,
    text: whole,
    page: 1,
    pages: 1,
  });
}

/** The conversation's size: the store's turns and entries, and the next request's tokens. */
function tokens(engine: ChatEngine): void {
  const context = engine.conversation.context;
  const store = context.store;
  const inView = store.turns.length;
  const count = (n: number, one: string, many: string) =>
    `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
  engine.note(
    `the conversation holds ${count(store.turnCount, "turn", "turns")} (${inView} in view${
      store.droppedTurns ? `, ${store.droppedTurns} folded into the summary` : ""
    }), ${count(store.entryCount, "entry", "entries")}; the next request is about ${
      (engine.contextTokens() ?? 0).toLocaleString("en-US")
    } tokens of ${engine.conversation.window.toLocaleString("en-US")} (${
      engine.contextPercent() ?? 0
    }%), tool definitions included`,
    "plain",
    "command",
  );
}

function stats(engine: ChatEngine): void {
  const say = (line: string) => engine.note(line, "plain", "command");
  const turns = engine.turnTally;
  if (turns.last === undefined) {
    say("no turn yet in this session");
  } else {
    const failed = turns.failed;
    say(
      `turns: ${turns.count}${failed ? ` (${failed} failed)` : ""} · mean ${
        meanSeconds(turns).toFixed(1)
      } s · slowest ${turns.slowestSeconds.toFixed(1)} s`,
    );
    say(`last: ${usageText(turns.last.seconds, turns.last)}`);
  }
  const store = engine.conversation.context.store;
  const condensed = turns.condensed;
  say(
    `context: ${store.turnCount} turn${
      store.turnCount === 1 ? "" : "s"
    } in the store, ${store.droppedTurns} folded into the summary; ${condensed} turn${
      condensed === 1 ? "" : "s"
    } of this session condensed`,
  );
  say(`classifier calls: ${engine.classifierCalls} (the rules classifier is not counted)`);
}

function inspect(engine: ChatEngine, what: string | undefined): void {
  const say = (line: string) => engine.note(line, "plain", "command");
  switch (what) {
    case "context":
      engine.emit({
        type: "view",
        id: "context",
        kind: "text",
        title: "context",
        text: contextView(engine.conversation.context),
      });
      return;
    case "thinking":
      if (engine.thoughts.length === 0) {
        say("the model has not reported any thinking in this conversation");
        return;
      }
      for (const t of engine.thoughts) {
        say(`∴ ${t.turn}`);
        const folded = foldOutput(t.text, engine.config.shownOutputLines, t.turn);
        for (const line of folded.lines) say(`  ${line}`);
      }
      return;
    case "calls": {
      if (engine.outputs.length === 0) {
        say("no call in this conversation yet");
        return;
      }
      for (const o of engine.outputs) {
        const first = o.text.split("\n")[0] ?? "";
        say(`  ${o.id.slice(0, 8)}  ${o.title}: ${first.slice(0, 100)}`);
      }
      return;
    }
    default:
      engine.note("/inspect takes context, thinking or calls", "warn", "command");
  }
}

async function approvals(engine: ChatEngine, args: string[]): Promise<void> {
  const [verb, id, scope] = args;
  const say = (line: string) => engine.note(line, "plain", "command");
  const { listPending, SCOPES } = await import("../../gate/pending.ts");
  const dir = engine.options.paths.pending;
  if (verb === undefined || verb === "pending") {
    const listed = await listPending(dir);
    if (listed.length === 0) {
      say("no command waits for approval in wisp mcp");
      return;
    }
    for (const { request } of listed) {
      say(
        `⚠ ${request.id} waiting in wisp mcp (${request.client}, thread ${request.thread}): run ${request.command}${
          request.outsideSandbox ? " OUTSIDE THE SANDBOX, this once," : ""
        } in ${request.cwd}, ${request.level}`,
      );
    }
    say("  answer with /approvals approve ID [once|session|project|always] or /approvals deny ID");
    return;
  }
  if (verb !== "approve" && verb !== "deny") {
    engine.note("/approvals takes pending, approve ID [SCOPE] or deny ID", "warn", "command");
    return;
  }
  if (!engine.options.inputIsTerminal) {
    engine.note(
      "/approvals answers only when the chat's input is a terminal, so that no program can answer for you; answer with wisp approvals at a terminal",
      "warn",
      "command",
    );
    return;
  }
  let chosenId = id;
  if (!chosenId) {
    // Without an id: a choice of what waits.
    const listed = await listPending(dir);
    if (listed.length === 0) {
      say("no command waits for approval in wisp mcp");
      return;
    }
    const chosen = await engine.choose({
      kind: "pick",
      title: `/approvals ${verb}: which request?`,
      options: listed.map(({ request }) => ({
        value: request.id,
        label: `${request.command} (${request.client}, thread ${request.thread}, ${request.level})`,
      })),
    });
    if (!chosen.value) {
      say("nothing was answered");
      return;
    }
    chosenId = chosen.value;
  }
  const target = chosenId;
  if (verb === "approve" && scope !== undefined && !(SCOPES as readonly string[]).includes(scope)) {
    engine.note(`the scope must be one of ${SCOPES.join(", ")} (it is "${scope}")`, "warn");
    return;
  }
  // One module answers for every chat face: the same checks as wisp approvals, audited via chat.
  const { WaitingInMcp } = await import("./waiting.ts");
  const waiting = new WaitingInMcp({ dir, stdinIsTerminal: engine.options.inputIsTerminal });
  const result = await waiting.answer(target, verb, scope, engine.session.audit);
  engine.note(result.message, result.exitCode === 0 ? "plain" : "warn", "command");
}

/**
 * `/questions [pending] | answer ID | decline ID`: the model's questions
 * waiting in wisp mcp. `answer` shows the question as a choice and reads the
 * answer at its own prompt, so it is never part of a line typed here; only
 * a chat reading a terminal answers (waiting.ts).
 */
async function questions(engine: ChatEngine, args: string[]): Promise<void> {
  const [verb, id] = args;
  const say = (line: string) => engine.note(line, "plain", "command");
  const { WaitingInMcp } = await import("./waiting.ts");
  const { NONE_OF_THESE } = await import("../../tools/ask.ts");
  const waiting = new WaitingInMcp({
    dir: engine.options.paths.pending,
    stdinIsTerminal: engine.options.inputIsTerminal,
  });
  if (verb === undefined || verb === "pending") {
    const waitingNow = await waiting.questions();
    if (waitingNow.length === 0) {
      say("no question waits for an answer in wisp mcp");
      return;
    }
    for (const q of waitingNow) {
      const options = q.options.length > 0 ? ` (${q.options.join(" | ")})` : "";
      say(`? ${q.id} (${q.client}, thread ${q.thread}): ${q.question}${options}`);
    }
    say("  answer with /questions answer ID, or /questions decline ID");
    return;
  }
  if (verb !== "answer" && verb !== "decline") {
    engine.note("/questions takes pending, answer ID or decline ID", "warn", "command");
    return;
  }
  if (!id) {
    engine.note(`/questions ${verb} needs the question's id; /questions lists them`, "warn");
    return;
  }
  let text: string | undefined;
  if (verb === "answer" && engine.options.inputIsTerminal) {
    const question = (await waiting.questions()).find((q) => q.id === id);
    if (question) {
      const { value } = await engine.choose({
        kind: "question",
        title: question.question,
        options: question.options.length > 0
          ? [...question.options, NONE_OF_THESE].map((value) => ({ value }))
          : [],
        ...(question.options.length === 0 ? { typed: true } : {}),
        source: "mcp",
      });
      if (value === null) {
        say(`nothing was sent; ${id} still waits (/questions decline ${id} declines it)`);
        return;
      }
      text = value;
    }
  }
  const result = await waiting.answerQuestion(id, verb, text, engine.session.audit);
  engine.note(result.message, result.exitCode === 0 ? "plain" : "warn", "command");
}

// ---------------------------------------------------------- completions

/** Completions of the input at `cursor`: command names, then settings and their values. */
export function completeInput(
  engine: ChatEngine,
  id: string,
  text: string,
  cursor: number,
): CompletionsLine {
  const chars = [...text].slice(0, cursor).join("");
  const none: CompletionsLine = { type: "completions", id, from: cursor, items: [] };
  if (!chars.startsWith("/")) return none;
  const parts = chars.split(" ");
  const word = parts[parts.length - 1];
  const from = cursor - [...word].length;
  const items = (values: readonly string[]): Completion[] =>
    values.filter((v) => v.startsWith(word)).map((v) => ({ text: v }));
  if (parts.length === 1) {
    return {
      type: "completions",
      id,
      from,
      items: SLASH_COMMANDS.filter((c) => `/${c.name}`.startsWith(word)).map((c) => ({
        text: `/${c.name}`,
        detail: c.what,
      })),
    };
  }
  const command = parts[0].slice(1);
  const args = parts.slice(1, -1);
  const sub: Record<string, readonly string[]> = {
    config: ["show", "set", "unset"],
    inspect: ["context", "thinking", "calls"],
    approvals: ["pending", "approve", "deny"],
    facts: ["keep", "drop"],
    questions: ["answer", "decline"],
  };
  if (args.length === 0 && sub[command]) {
    return { type: "completions", id, from, items: items(sub[command]) };
  }
  if (command === "config" && (args[0] === "set" || args[0] === "unset")) {
    if (args.length === 1) {
      return {
        type: "completions",
        id,
        from,
        items: items(SETTINGS.filter((s) => !s.pattern).map((s) => s.key)),
      };
    }
    if (args.length === 2 && args[0] === "set") {
      const values = args[1] === "model" ? [engine.backend.name] : settingValues(args[1]) ?? [];
      return { type: "completions", id, from, items: items(values) };
    }
  }
  return none;
}
