/**
 * The command tree, and the words it answers that are not commands. Each
 * subcommand lives in its own file under src/cli/ and exports
 * `register(program)`; its heavy modules are imported inside its action, so
 * `wisp --version` and `wisp --help` load almost nothing.
 *
 * To add a subcommand: write src/cli/<name>.ts with `register`, add it to
 * COMMANDS below (keep the order: it is the order of `wisp --help`), take it
 * out of NOT_BUILT if it was there, and regenerate src/cli/near_words.ts
 * (`deno run -A scripts/near_words.ts`; a test says when it is stale).
 *
 * Words (docs/exit-codes.md, "Commands and prompts"; ADR 0210): a prompt's
 * first word, when it is a lowercase word given before any `--` and without
 * naming `respond`, must not be a command. A command of the spec that this
 * build lacks is a placeholder here that says so; a near miss of a command
 * name (`doctr`) is refused with a suggestion unless it is an English word.
 */
import { Command } from "commander";
import { versionString } from "./version.ts";
import { load } from "./lazy.ts";
import { UsageError } from "../util/errors.ts";
import * as config from "./config.ts";
import * as logs from "./logs.ts";
import * as doctor from "./doctor.ts";
import * as scan from "./scan.ts";
import * as redact from "./redact.ts";
import * as respond from "./respond.ts";
import * as chat from "./chat.ts";
import * as tools from "./tools.ts";
import * as models from "./models.ts";
import * as approvals from "./approvals.ts";
import * as approvalsPending from "./approvals_pending.ts";
import * as facts from "./facts.ts";
import * as questions from "./questions.ts";
import * as mcp from "./mcp.ts";
import * as classifier from "./classifier.ts";
import * as notify from "./notify.ts";
import * as sandbox from "./sandbox.ts";
import * as triage from "./triage.ts";
import * as draft from "./draft.ts";
import * as watch from "./watch.ts";
import * as completions from "./completions.ts";

interface CommandModule {
  register(program: Command): void;
}

const COMMANDS: CommandModule[] = [
  respond,
  chat,
  tools,
  models,
  mcp,
  logs,
  config,
  doctor,
  approvals,
  approvalsPending,
  facts,
  questions,
  classifier,
  notify,
  sandbox,
  scan,
  redact,
  triage,
  draft,
  watch,
  completions,
];

/**
 * The commands the spec documents that this build does not have yet. Each is
 * a hidden placeholder, so its name is never taken for a prompt and says it
 * is not built yet (exit 64).
 */
export const NOT_BUILT: readonly (readonly string[])[] = [];

/** One-word prompts that are another tool's command, and what wisp offers instead. */
const OTHER_TOOLS_WORDS: Record<string, string> = {
  version: "wisp has no version command; wisp --version prints the version",
  update: "wisp has no update command; update it with what installed it " +
    "(brew upgrade pidster/tap/wisp for Homebrew)",
  upgrade: "wisp has no upgrade command; upgrade it with what installed it " +
    "(brew upgrade pidster/tap/wisp for Homebrew)",
};

export function buildProgram(): Command {
  const program = new Command("wisp")
    .description(
      "A small AI agent that runs on your own machine: a local model with tools, behind a policy, " +
        "a risk classifier, your approval, an OS sandbox and an audit log.",
    )
    .version(versionString(), "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .showSuggestionAfterError(true)
    .configureHelp({ sortSubcommands: false, showGlobalOptions: false });
  for (const module of COMMANDS) module.register(program);
  for (const path of NOT_BUILT) addPlaceholder(program, path);
  return program;
}

function addPlaceholder(program: Command, path: readonly string[]): void {
  let parent = program;
  for (const name of path.slice(0, -1)) {
    parent = parent.commands.find((c) => c.name() === name) ?? parent;
  }
  const name = path[path.length - 1];
  if (parent.commands.some((c) => c.name() === name)) return; // built since
  const where = path.length === 1 ? "wisp --help" : `wisp ${path.slice(0, -1).join(" ")} --help`;
  parent.command(name, { hidden: true })
    .description("not built yet in this version of wisp")
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new UsageError(
        `wisp ${path.join(" ")} is not built yet in this version; '${where}' lists what is`,
      );
    });
}

/** The names a word is compared with: every subcommand of `command`, placeholders and help included. */
export function commandNames(command: Command): string[] {
  const names = command.commands.flatMap((c) => [c.name(), ...c.aliases()]);
  return [...names, "help"];
}

/**
 * Optimal string alignment distance: letters added, removed or changed, and
 * two neighbours swapped, each counting one.
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d[i] = [i];
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(
        d[i - 1][j] + 1,
        d[i][j - 1] + 1,
        d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/**
 * The names `word` is a near miss of, closest first: one edit away from a
 * name, two from a name of eight letters or more; words and names shorter
 * than three letters are never near misses.
 */
export function nearMisses(word: string, names: readonly string[]): string[] {
  if (word.length < 3) return [];
  const scored = names
    .filter((name) => name !== word && name.length >= 3)
    .map((name) => ({ name, distance: editDistance(word, name) }))
    .filter(({ name, distance }) => distance <= (name.length >= 8 ? 2 : 1));
  scored.sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name));
  return [...new Set(scored.map((s) => s.name))];
}

/** `did you mean list?`, or "" when no name is near. */
export function suggestion(word: string, names: readonly string[]): string {
  const near = nearMisses(word, names);
  if (near.length === 0) return "";
  return `did you mean ${near.length === 1 ? near[0] : `one of ${near.join(", ")}`}?`;
}

/** How to send the words as a prompt after all. */
function asPrompt(words: readonly string[]): string {
  return `(wisp -- ${words[0]}${words.length > 1 ? " …" : ""} sends it to the model as a prompt)`;
}

/**
 * Refuse a prompt whose first word is a command word (the rule above): the
 * default command's check, run before it sends anything to a model. `argv`
 * is what the person typed; `words` the prompt as parsed.
 */
export async function promptWordProblem(
  argv: readonly string[],
  words: readonly string[],
  program: Command,
): Promise<string | undefined> {
  const first = words[0];
  if (first === undefined || argv[0] === "respond") return undefined;
  // The words after a `--` are the prompt as typed.
  const separator = argv.indexOf("--");
  if (separator >= 0 && words.length <= argv.length - separator - 1) return undefined;
  if (!/^[a-z][a-z-]*$/.test(first)) return undefined;
  if (words.length === 1 && Object.hasOwn(OTHER_TOOLS_WORDS, first)) {
    return `${OTHER_TOOLS_WORDS[first]} ${asPrompt(words)}`;
  }
  const near = nearMisses(first, commandNames(program));
  if (near.length === 0) return undefined;
  const { NEAR_WORDS } = await load<typeof import("./near_words.ts")>(
    import.meta.resolve("./near_words.ts"),
  );
  if (NEAR_WORDS.words.includes(first)) return undefined;
  return `unknown command '${first}'; ${suggestion(first, near)} ${asPrompt(words)}`;
}

/**
 * `wisp help X` (or `wisp config help X`) for an X that is not a command:
 * commander would print the whole help and exit 0; this is a usage error.
 */
export function helpTopicProblem(argv: readonly string[], program: Command): string | undefined {
  let command = program;
  let i = 0;
  for (; i < argv.length; i++) {
    const next = command.commands.find((c) =>
      c.name() === argv[i] || c.aliases().includes(argv[i])
    );
    if (!next) break;
    command = next;
  }
  const topic = argv[i + 1];
  if (argv[i] !== "help" || command.commands.length === 0 || topic === undefined) return undefined;
  if (topic.startsWith("-") || command.commands.some((c) => c.name() === topic)) return undefined;
  return unknownCommandSentence(topic, command);
}

/** `unknown command 'lst' for 'wisp config'; did you mean list? (…)`: one sentence. */
export function unknownCommandSentence(word: string, group: Command): string {
  const path: string[] = [];
  for (let c: Command | null = group; c && c.parent; c = c.parent) path.unshift(c.name());
  const where = path.length === 0 ? "" : ` for 'wisp ${path.join(" ")}'`;
  const help = `'wisp ${[...path, "--help"].join(" ")}' lists ${
    path.length ? "its" : "the"
  } commands`;
  const near = suggestion(word, commandNames(group));
  return `unknown command '${word}'${where}; ${near ? `${near} (${help})` : help}`;
}
