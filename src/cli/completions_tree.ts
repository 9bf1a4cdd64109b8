/**
 * What the completion scripts know, read from the commander command tree:
 * every visible command path with its subcommands, options and arguments,
 * and where each value comes from. The tree is walked, never listed by hand;
 * the one hand-kept part is VALUE_HOOKS, which says which arguments and
 * options take values from wisp's own files (models, settings, pending
 * requests, tool names), and a test checks every hook still names a real
 * argument or option.
 */
import { type Command, Help } from "commander";
import { SCOPES } from "../gate/pending.ts";
import { SHELLS } from "./completions_scripts.ts";

/** The kinds `wisp completions values KIND` answers (src/cli/completions_values.ts). */
export const VALUE_KINDS = [
  "models",
  "settings",
  "setting-values",
  "pending",
  "pending-facts",
  "approvals",
  "classifier-versions",
  "tools",
] as const;
export type ValueKind = (typeof VALUE_KINDS)[number];

/** Where a value is completed from. */
export type ValueSource =
  /** Fixed words, known when the script is generated. */
  | { words: readonly string[] }
  /** `wisp completions values KIND` at Tab time; `settingArgument` passes that argument along. */
  | { kind: ValueKind; settingArgument?: number }
  /** The shell's own file-name completion. */
  | { files: true };

/** One option of a command path. */
export interface CompletionOption {
  /** Its spellings: `-m`, `--model`. */
  names: string[];
  description: string;
  /** Whether the next word is its value. */
  takesValue: boolean;
  values?: ValueSource;
}

/** One positional argument. */
export interface CompletionArgument {
  name: string;
  variadic: boolean;
  values?: ValueSource;
}

/** One command path, `wisp` or `wisp config set`, as the scripts complete it. */
export interface CompletionNode {
  /** The words from `wisp`: ["wisp", "config", "set"]. */
  path: string[];
  subcommands: { name: string; description: string }[];
  options: CompletionOption[];
  arguments: CompletionArgument[];
}

/**
 * The arguments and options whose values come from wisp's own files, keyed by
 * command path and argument name (`config set <key>`), or by an option's long
 * name (`--tool`) on any command. The setting a value is for is the `key`
 * argument, passed along by its position.
 */
export const VALUE_HOOKS: {
  arguments: Record<string, ValueSource>;
  options: Record<string, ValueSource>;
} = {
  arguments: {
    "config get key": { kind: "settings" },
    "config set key": { kind: "settings" },
    "config set value": { kind: "setting-values", settingArgument: 0 },
    "config unset key": { kind: "settings" },
    "approvals approve id": { kind: "pending" },
    "approvals deny id": { kind: "pending" },
    "approvals revoke id": { kind: "approvals" },
    "facts keep id": { kind: "pending-facts" },
    "facts drop id": { kind: "pending-facts" },
    "classifier use version": { kind: "classifier-versions" },
    "classifier remove version": { kind: "classifier-versions" },
    "classifier measure version": { kind: "classifier-versions" },
    "models enable name": { kind: "models" },
    "models disable name": { kind: "models" },
    "completions shell": { words: SHELLS },
    "completions print shell": { words: SHELLS },
    "completions install shell": { words: SHELLS },
  },
  options: {
    "--tool": { kind: "tools" },
    "--model": { kind: "models" },
    "--scope": { words: SCOPES },
  },
};

/** Argument and value names that are file names, whatever command takes them. */
const FILE_NAMES = new Set(["file", "files", "path"]);

/** The subcommand a group runs when none is named (commander keeps it private). */
function defaultSubcommand(command: Command): Command | undefined {
  const name = (command as unknown as { _defaultCommandName: string | null })._defaultCommandName;
  return name ? command.commands.find((c) => c.name() === name) : undefined;
}

/** The placeholder name of an option's value: `--model <name>` → "name". */
function valueName(flags: string): string | undefined {
  return /[<[]([^>\]]+)[>\]]/.exec(flags)?.[1]?.replace(/\.\.\.$/, "");
}

function optionsOf(command: Command, help: Help): CompletionOption[] {
  return help.visibleOptions(command).map((option) => {
    const names = [option.short, option.long].filter((n): n is string => Boolean(n));
    const takesValue = option.required || option.optional;
    const choices = option.argChoices;
    const hooked = option.long ? VALUE_HOOKS.options[option.long] : undefined;
    const value = valueName(option.flags);
    const values: ValueSource | undefined = choices
      ? { words: choices }
      : hooked ?? (value && FILE_NAMES.has(value) ? { files: true } : undefined);
    return {
      names,
      description: option.description,
      takesValue,
      ...(takesValue && values ? { values } : {}),
    };
  });
}

function argumentsOf(command: Command, path: string[]): CompletionArgument[] {
  return command.registeredArguments.map((argument) => {
    const key = [...path.slice(1), argument.name()].join(" ");
    const hooked = VALUE_HOOKS.arguments[key];
    const values: ValueSource | undefined = argument.argChoices
      ? { words: argument.argChoices }
      : hooked ?? (FILE_NAMES.has(argument.name()) ? { files: true } : undefined);
    return {
      name: argument.name(),
      variadic: argument.variadic,
      ...(values ? { values } : {}),
    };
  });
}

/**
 * Every visible command path of `program`, `wisp` first. A group with a
 * default subcommand (`wisp` runs respond, `wisp config` runs show) also
 * takes that subcommand's options and arguments, as commander parses it.
 */
export function completionTree(program: Command): CompletionNode[] {
  const help = new Help();
  const nodes: CompletionNode[] = [];
  const walk = (command: Command, path: string[]) => {
    const visible = help.visibleCommands(command);
    const fallback = defaultSubcommand(command);
    const options = optionsOf(command, help);
    let args = argumentsOf(command, path);
    if (fallback) {
      const seen = new Set(options.flatMap((o) => o.names));
      for (const option of optionsOf(fallback, help)) {
        if (!option.names.some((n) => seen.has(n))) options.push(option);
      }
      if (args.length === 0) args = argumentsOf(fallback, [...path, fallback.name()]);
    }
    nodes.push({
      path,
      subcommands: visible.map((c) => ({ name: c.name(), description: c.description() })),
      options,
      arguments: args,
    });
    for (const sub of visible) {
      if (sub.name() === "help" && !command.commands.includes(sub)) continue; // commander's own
      walk(sub, [...path, sub.name()]);
    }
  };
  walk(program, [program.name()]);
  return nodes;
}
