/**
 * Environment hooks: variables and git settings that make a program run something it was not
 * named to run. One table, variable → what it runs → how the gate rates it; git's own settings
 * (from `-c`, `--config-env`, GIT_CONFIG_COUNT/KEY_n/VALUE_n, GIT_CONFIG_PARAMETERS, a config
 * file) go through a second table of the keys that name a program.
 *
 * A hook whose value is a command line is handed back as that text: the analysis parses it and
 * rates its commands like any payload (`GIT_PAGER=cat git log` is as safe as `cat`, and
 * `GIT_EDITOR='rm -rf ~' git commit` is as dangerous as the removal). A hook that loads code the
 * gate cannot read (a library, a file of shell code, a value known only when the line runs) is
 * dangerous by itself. Pure: files named by a hook are read by the rules (git_config.ts).
 */
import type { Level } from "../config/schema.ts";
import type { Assignment } from "./parse.ts";
import { literal, resolveWord, type Vars, type Word } from "./words.ts";
import { vimShellCommands } from "./payload_options.ts";

/** How the value of a hook is rated. */
export type HookRating =
  /** A shell command line: parsed and rated like any payload. */
  | "command"
  /** A program git or less runs with arguments of its own: rated as that command line. */
  | "program"
  /** less's input filters (`|cmd %s`, `||cmd`, `|-cmd`): the command after the pipes. */
  | "less-filter"
  /** A file of shell code run when a shell starts: dangerous, its contents are not read. */
  | "script-file"
  /** The dynamic loader: code loaded into every program. Dangerous. */
  | "loader"
  /** Where programs or modules are looked up: moderate. */
  | "search-path"
  /** Options an interpreter reads from the environment: dangerous when they load code. */
  | "interpreter-options"
  /** A shell function handed down in the environment (`BASH_FUNC_name%%`): dangerous. */
  | "shell-function"
  /** Shell state that changes how later lines are read or traced: moderate. */
  | "shell-state"
  /** GIT_CONFIG_COUNT with GIT_CONFIG_KEY_n/VALUE_n: each setting rated as git's own. */
  | "git-config-count"
  /** GIT_CONFIG_PARAMETERS: git's quoted `'key'='value'` list, each rated as git's own. */
  | "git-config-parameters"
  /** A git config file (GIT_CONFIG_GLOBAL, …): read and rated by the rules. */
  | "git-config-file"
  /** A repository folder (GIT_DIR): its config is read and rated by the rules. */
  | "git-dir"
  /** Where git finds its own programs: dangerous. */
  | "git-exec-path"
  /** A prompt: the commands in its `$(…)` and backticks run each time it is shown. */
  | "prompt"
  /** vim's start-up Ex commands: `!cmd` runs a shell command. */
  | "vim-command";

/** One environment hook. */
export interface EnvHook {
  /** The variable's name, or a pattern for a family (`DYLD_*`). */
  name: string | RegExp;
  /** What the variable makes run, for the reason a person reads. */
  runs: string;
  rating: HookRating;
}

/** Every environment variable the gate knows to make a program run something. */
export const ENV_HOOKS: readonly EnvHook[] = [
  { name: "LD_PRELOAD", runs: "a library loaded into every program", rating: "loader" },
  { name: "LD_AUDIT", runs: "a library loaded into every program", rating: "loader" },
  { name: "LD_LIBRARY_PATH", runs: "libraries found in its folders first", rating: "loader" },
  { name: /^DYLD_\w+$/, runs: "libraries loaded into every program (macOS)", rating: "loader" },
  { name: "BASH_ENV", runs: "a file of shell code every bash script runs", rating: "script-file" },
  { name: "ENV", runs: "a file of shell code sh runs at start", rating: "script-file" },
  { name: "ZDOTDIR", runs: "zsh's start-up files from its folder", rating: "script-file" },
  {
    name: "PYTHONSTARTUP",
    runs: "a Python file run when Python starts interactively",
    rating: "script-file",
  },
  { name: /^BASH_FUNC_.+$/, runs: "a shell function bash defines", rating: "shell-function" },
  { name: "PROMPT_COMMAND", runs: "a command bash runs before each prompt", rating: "command" },
  { name: "PAGER", runs: "the pager programs show output through", rating: "command" },
  { name: "GIT_PAGER", runs: "git's pager", rating: "command" },
  { name: "MANPAGER", runs: "man's pager", rating: "command" },
  { name: "SYSTEMD_PAGER", runs: "systemd tools' pager", rating: "command" },
  { name: "EDITOR", runs: "the editor programs open", rating: "command" },
  { name: "VISUAL", runs: "the editor programs open", rating: "command" },
  { name: "GIT_EDITOR", runs: "git's editor", rating: "command" },
  { name: "GIT_SEQUENCE_EDITOR", runs: "git rebase's todo editor", rating: "command" },
  { name: "GIT_SSH_COMMAND", runs: "the ssh git runs", rating: "command" },
  { name: "GIT_SSH", runs: "the ssh program git runs", rating: "program" },
  { name: "GIT_PROXY_COMMAND", runs: "a proxy program git runs", rating: "program" },
  { name: "GIT_ASKPASS", runs: "the program git asks passwords from", rating: "program" },
  { name: "SSH_ASKPASS", runs: "the program ssh asks passwords from", rating: "program" },
  { name: "SUDO_ASKPASS", runs: "the program sudo asks passwords from", rating: "program" },
  { name: "GIT_EXTERNAL_DIFF", runs: "the program git diff runs", rating: "program" },
  { name: "RUSTC_WRAPPER", runs: "a program cargo runs around every compile", rating: "program" },
  {
    name: "RUSTC_WORKSPACE_WRAPPER",
    runs: "a program cargo runs around every compile",
    rating: "program",
  },
  { name: "RUSTC", runs: "the compiler cargo runs", rating: "program" },
  { name: /^CARGO_BUILD_RUSTC(_WRAPPER)?$/, runs: "the compiler cargo runs", rating: "program" },
  { name: /^CARGO_TARGET_\w+_(RUNNER|LINKER)$/, runs: "a program cargo runs", rating: "command" },
  { name: /^(CC|CXX|LD|AR|CPP)$/, runs: "the compiler a build runs", rating: "program" },
  { name: "MAKESHELL", runs: "the shell make runs recipes with", rating: "program" },
  { name: "BROWSER", runs: "the browser programs open", rating: "command" },
  { name: "FCEDIT", runs: "the editor fc opens", rating: "command" },
  {
    name: /^[A-Z][A-Z0-9_]*_(EDITOR|PAGER|BROWSER)$/,
    runs: "the editor, pager or browser a program opens",
    rating: "command",
  },
  {
    name: /^npm_config_(script_shell|shell|editor|browser)$/i,
    runs: "a program npm runs scripts or editors with",
    rating: "command",
  },
  { name: /^PS[0-2]$/, runs: "a prompt the shell expands", rating: "prompt" },
  { name: /^(VIM|EX|GVIM)INIT$/, runs: "editor commands vim runs at start", rating: "vim-command" },
  { name: "GCONV_PATH", runs: "character-set modules loaded into programs", rating: "loader" },
  { name: "DOTNET_STARTUP_HOOKS", runs: "code loaded into every .NET program", rating: "loader" },
  { name: /^CORECLR_PROFILER_PATH(_\w+)?$/, runs: "a profiler loaded into .NET", rating: "loader" },
  {
    name: "JDK_JAVA_OPTIONS",
    runs: "options every Java program reads",
    rating: "interpreter-options",
  },
  { name: "PERL5DB", runs: "code perl's debugger runs", rating: "interpreter-options" },
  { name: "PYTHONBREAKPOINT", runs: "a function Python imports", rating: "interpreter-options" },
  { name: "LESSOPEN", runs: "an input filter less runs on every file", rating: "less-filter" },
  { name: "LESSCLOSE", runs: "a command less runs after each file", rating: "less-filter" },
  {
    name: "NODE_OPTIONS",
    runs: "options every node process reads",
    rating: "interpreter-options",
  },
  { name: "PERL5OPT", runs: "options every perl reads", rating: "interpreter-options" },
  { name: "RUBYOPT", runs: "options every ruby reads", rating: "interpreter-options" },
  {
    name: "JAVA_TOOL_OPTIONS",
    runs: "options every Java program reads",
    rating: "interpreter-options",
  },
  {
    name: "_JAVA_OPTIONS",
    runs: "options every Java program reads",
    rating: "interpreter-options",
  },
  { name: "PATH", runs: "programs found in its folders first", rating: "search-path" },
  { name: "PYTHONPATH", runs: "Python modules found in its folders first", rating: "search-path" },
  { name: "NODE_PATH", runs: "node modules found in its folders first", rating: "search-path" },
  { name: "PERL5LIB", runs: "perl modules found in its folders first", rating: "search-path" },
  { name: "RUBYLIB", runs: "ruby libraries found in its folders first", rating: "search-path" },
  { name: "IFS", runs: "how the shell splits words", rating: "shell-state" },
  { name: "PS4", runs: "a prompt bash expands while tracing", rating: "prompt" },
  { name: "SHELLOPTS", runs: "options every bash starts with", rating: "shell-state" },
  { name: "BASHOPTS", runs: "options every bash starts with", rating: "shell-state" },
  {
    name: "GIT_CONFIG_COUNT",
    runs: "git settings given in the environment",
    rating: "git-config-count",
  },
  {
    name: "GIT_CONFIG_PARAMETERS",
    runs: "git settings given in the environment",
    rating: "git-config-parameters",
  },
  { name: "GIT_CONFIG_GLOBAL", runs: "git's user config file", rating: "git-config-file" },
  { name: "GIT_CONFIG_SYSTEM", runs: "git's system config file", rating: "git-config-file" },
  { name: "GIT_CONFIG", runs: "a git config file", rating: "git-config-file" },
  { name: "GIT_DIR", runs: "the repository git uses, with its config", rating: "git-dir" },
  { name: "GIT_EXEC_PATH", runs: "the folder git runs its programs from", rating: "git-exec-path" },
  { name: "GIT_TEMPLATE_DIR", runs: "hooks a new repository starts with", rating: "search-path" },
];

const BY_NAME = new Map<string, EnvHook>();
const BY_PATTERN: EnvHook[] = [];
for (const h of ENV_HOOKS) {
  if (typeof h.name === "string") BY_NAME.set(h.name, h);
  else BY_PATTERN.push(h);
}

/** The hook a variable is, if any. */
export function envHook(name: string): EnvHook | undefined {
  return BY_NAME.get(name) ?? BY_PATTERN.find((h) => (h.name as RegExp).test(name));
}

/** One use of a hook in a line: where it came from, and what it runs or how it rates. */
export interface HookUse {
  /** The variable, or the git setting (`git -c core.pager`, `GIT_CONFIG_KEY_0 core.fsmonitor`). */
  source: string;
  /** What it makes run, in words. */
  runs: string;
  /** The command line it runs, when its value is one: rated as a payload. */
  command?: string;
  /** A level the hook sets by itself, with the reason. */
  level?: Level;
  reason?: string;
  /** A git config file the rules read and rate. */
  gitConfigFile?: string;
  /** A repository folder whose config the rules read and rate. */
  gitDir?: string;
}

/** Options that make an interpreter load code of its choosing. */
const LOADS_CODE: Record<string, RegExp> = {
  NODE_OPTIONS:
    /(^|\s)(-r|--require|--import|--loader|--experimental-loader|--experimental-policy|--inspect\S*|-e|--eval|-p|--print)(\s|=|$)/,
  PERL5OPT: /(^|\s)-[A-Za-z]*[MmdIe]/,
  RUBYOPT: /(^|\s)-[A-Za-z]*[rIe]/,
  JAVA_TOOL_OPTIONS: /-(javaagent|agentlib|agentpath|Xbootclasspath)|(^|\s)-XX:/,
  JDK_JAVA_OPTIONS: /-(javaagent|agentlib|agentpath|Xbootclasspath)|(^|\s)-XX:/,
  _JAVA_OPTIONS: /-(javaagent|agentlib|agentpath|Xbootclasspath)|(^|\s)-XX:/,
};

/** A value resolved against the line's variables; undefined when it is known only at run time. */
function valueOf(word: Word | null, vars: Vars, userHome: string): string | undefined {
  if (!word) return "";
  const l = literal(word);
  if (l !== undefined) return l;
  const r = resolveWord(word, vars, userHome);
  return r.unknown || r.globRegex ? undefined : r.value;
}

function dynamic(source: string, runs: string): HookUse {
  return {
    source,
    runs,
    level: "dangerous",
    reason: `${source} sets ${runs} to a value known only when the line runs`,
  };
}

/** The hook uses among the variables set for a part (its own and those `env` sets). */
export function envHookUses(assignments: Assignment[], vars: Vars, userHome: string): HookUse[] {
  const out: HookUse[] = [];
  const values = new Map<string, string | undefined>();
  for (const a of assignments) values.set(a.name, valueOf(a.value, vars, userHome));
  for (const a of assignments) {
    // `X='() { …; }; cmd'`: a bash that imports functions from any variable runs the rest.
    if (/^\(\)\s*\{/.test(values.get(a.name) ?? "")) {
      out.push({
        source: a.name,
        runs: "a shell function in the environment",
        level: "dangerous",
        reason: `${a.name} holds a shell function, which an older bash imports and may run`,
      });
    }
    const hook = envHook(a.name);
    if (!hook) continue;
    const value = values.get(a.name);
    const use = rateEnvHook(a.name, hook, value, values, vars);
    if (use) out.push(...use);
  }
  return out;
}

function rateEnvHook(
  name: string,
  hook: EnvHook,
  value: string | undefined,
  values: Map<string, string | undefined>,
  vars: Vars,
): HookUse[] | undefined {
  if (value === "") return undefined; // set empty: the program's own default
  if (value === undefined && hook.rating !== "search-path" && hook.rating !== "shell-state") {
    return [dynamic(name, hook.runs)];
  }
  return HOOK_RATINGS[hook.rating]({ name, hook, v: value ?? "", values, vars });
}

/** What a hook's rule reads: the variable, its hook, its value, and the line's other values. */
interface HookInput {
  name: string;
  hook: EnvHook;
  v: string;
  values: Map<string, string | undefined>;
  vars: Vars;
}

/** How each kind of environment hook is rated, one rule per kind. */
const HOOK_RATINGS: Record<EnvHook["rating"], (input: HookInput) => HookUse[] | undefined> = {
  "command": commandHook,
  "program": commandHook,
  "less-filter": lessFilterHook,
  "script-file": scriptFileHook,
  "loader": loaderHook,
  "shell-function": shellFunctionHook,
  "interpreter-options": interpreterOptionsHook,
  "search-path": searchPathHook,
  "shell-state": searchPathHook,
  "git-config-count": gitConfigCountHook,
  "git-config-parameters": gitConfigParametersHook,
  "git-config-file": gitConfigFileHook,
  "git-dir": gitDirHook,
  "prompt": promptHook,
  "vim-command": vimCommandHook,
  "git-exec-path": gitExecPathHook,
};

function commandHook({ name, hook, v }: HookInput): HookUse[] | undefined {
  return [{ source: name, runs: hook.runs, command: v }];
}

function lessFilterHook({ name, hook, v }: HookInput): HookUse[] | undefined {
  const command = v.replace(/^\|\|?-?/, "");
  return [{ source: name, runs: hook.runs, command }];
}

function scriptFileHook({ name, hook, v }: HookInput): HookUse[] | undefined {
  return [{
    source: name,
    runs: hook.runs,
    level: "dangerous",
    reason: `${name} makes the shell run the code in ${v}, which the gate does not read`,
  }];
}

function loaderHook({ name, hook }: HookInput): HookUse[] | undefined {
  return [{
    source: name,
    runs: hook.runs,
    level: "dangerous",
    reason: `${name} loads other code into the program (${hook.runs})`,
  }];
}

function shellFunctionHook({ name, hook }: HookInput): HookUse[] | undefined {
  return [{
    source: name,
    runs: hook.runs,
    level: "dangerous",
    reason: `${name} hands a shell function to every bash the program starts`,
  }];
}

function interpreterOptionsHook({ name, hook, v }: HookInput): HookUse[] | undefined {
  const loads = LOADS_CODE[name]?.test(v) ?? true;
  return [{
    source: name,
    runs: hook.runs,
    level: loads ? "dangerous" : "moderate",
    reason: loads
      ? `${name} makes the interpreter load or run code of its choosing (${v})`
      : `sets ${name}, which changes how the interpreter runs`,
  }];
}

function searchPathHook({ name, hook }: HookInput): HookUse[] | undefined {
  return [{
    source: name,
    runs: hook.runs,
    level: "moderate",
    reason: `sets ${name}, which changes what the program runs (${hook.runs})`,
  }];
}

function gitConfigCountHook({ name, hook, v, values, vars }: HookInput): HookUse[] | undefined {
  const count = /^\d+$/.test(v) ? Number(v) : NaN;
  if (!Number.isFinite(count) || count > 64) {
    return [{
      source: name,
      runs: hook.runs,
      level: "dangerous",
      reason: `${name}=${v} gives git settings the gate cannot read`,
    }];
  }
  const out: HookUse[] = [];
  for (let k = 0; k < count; k++) {
    const key = lookup(values, vars, `GIT_CONFIG_KEY_${k}`);
    const val = lookup(values, vars, `GIT_CONFIG_VALUE_${k}`);
    if (key === undefined || val === undefined) {
      out.push(dynamic(`GIT_CONFIG_KEY_${k}`, "a git setting"));
      continue;
    }
    out.push(...gitSettingUses(key, val, `GIT_CONFIG_KEY_${k} ${key}`));
  }
  return out;
}

function gitConfigParametersHook({ name, hook, v }: HookInput): HookUse[] | undefined {
  const pairs = parseConfigParameters(v);
  if (!pairs) {
    return [{
      source: name,
      runs: hook.runs,
      level: "dangerous",
      reason: `${name} holds git settings the gate cannot read`,
    }];
  }
  return pairs.flatMap(([k, val]) => gitSettingUses(k, val, `${name} ${k}`));
}

function gitConfigFileHook({ name, hook, v }: HookInput): HookUse[] | undefined {
  if (v === "/dev/null") return undefined;
  return [{ source: name, runs: hook.runs, gitConfigFile: v }];
}

function gitDirHook({ name, hook, v }: HookInput): HookUse[] | undefined {
  return [{ source: name, runs: hook.runs, gitDir: v }];
}

function promptHook({ name, hook, v }: HookInput): HookUse[] | undefined {
  const commands = substitutionTexts(v);
  return commands.length === 0
    ? undefined
    : commands.map((command) => ({ source: name, runs: hook.runs, command }));
}

function vimCommandHook({ name, hook, v }: HookInput): HookUse[] | undefined {
  const commands = vimShellCommands(v);
  if (commands === undefined) {
    return [{
      source: name,
      runs: hook.runs,
      level: "dangerous",
      reason: `${name} runs editor code that starts commands (${v})`,
    }];
  }
  return commands.map((command) => ({ source: name, runs: hook.runs, command }));
}

function gitExecPathHook({ name, hook, v }: HookInput): HookUse[] | undefined {
  return [{
    source: name,
    runs: hook.runs,
    level: "dangerous",
    reason: `${name} makes git run its programs from ${v}`,
  }];
}

/** The commands in a text's `$(…)` and backticks (a prompt, which the shell expands). */
function substitutionTexts(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\$\(((?:[^()]|\([^()]*\))*)\)|`([^`]*)`/g)) {
    const body = (m[1] ?? m[2] ?? "").trim();
    if (body !== "" && !body.startsWith("(")) out.push(body);
  }
  return out;
}

function lookup(values: Map<string, string | undefined>, vars: Vars, name: string) {
  if (values.has(name)) return values.get(name);
  const v = vars.get(name);
  return v && "value" in v ? v.value : undefined;
}

/**
 * GIT_CONFIG_PARAMETERS as git writes it: `'key'='value'` or `'key'` items separated by spaces,
 * each single-quoted with `'\''` for a quote. Undefined when it is not in that form.
 */
export function parseConfigParameters(text: string): Array<[string, string]> | undefined {
  const out: Array<[string, string]> = [];
  const item = /\s*'((?:[^']|'\\'')*)'(?:=('(?:[^']|'\\'')*'))?/y;
  let at = 0;
  const unquote = (s: string) => s.replaceAll("'\\''", "'");
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    item.lastIndex = at;
    const m = item.exec(text);
    if (!m) return undefined;
    if (m[2] !== undefined) out.push([unquote(m[1]), unquote(m[2].slice(1, -1))]);
    else {
      // 'key=value' in one quote (older git) or a bare key (true).
      const eq = m[1].indexOf("=");
      out.push(
        eq >= 0 ? [unquote(m[1].slice(0, eq)), unquote(m[1].slice(eq + 1))] : [
          unquote(m[1]),
          "true",
        ],
      );
    }
    at = item.lastIndex;
  }
  return out;
}

// -- git's own settings --------------------------------------------------------

/** How a git setting that names a program is read. */
type GitSettingKind =
  /** The value is a shell command line. */
  | "command"
  /** A boolean turns it off or on; any other value is a command line. */
  | "command-or-bool"
  /** `!cmd` is a command line; anything else is `git <value>`. */
  | "alias"
  /** `!cmd` is a command line, `/path` a program, a name `git credential-<name>`. */
  | "credential-helper"
  /** A folder of hooks git runs: dangerous (the gate does not read them). */
  | "hooks-path"
  /** Another config file, included. */
  | "include"
  /** Lets git reach transports that run commands. */
  | "protocol"
  /** Rewrites where git fetches from. */
  | "url-rewrite";

/** git settings that name a program to run. Keys are matched in lower case, subsections kept. */
const GIT_PROGRAM_SETTINGS: ReadonlyArray<{ key: RegExp; kind: GitSettingKind }> = [
  { key: /^core\.(pager|editor|sshcommand|askpass|gitproxy)$/, kind: "command" },
  { key: /^core\.fsmonitor$/, kind: "command-or-bool" },
  { key: /^core\.hookspath$/, kind: "hooks-path" },
  { key: /^sequence\.editor$/, kind: "command" },
  { key: /^diff\.external$/, kind: "command" },
  { key: /^diff\..+\.(command|textconv)$/, kind: "command" },
  { key: /^merge\..+\.driver$/, kind: "command" },
  { key: /^mergetool\..+\.(cmd|path)$/, kind: "command" },
  { key: /^difftool\..+\.(cmd|path)$/, kind: "command" },
  { key: /^filter\..+\.(clean|smudge|process)$/, kind: "command" },
  { key: /^gpg(\..+)?\.program$/, kind: "command" },
  { key: /^interactive\.difffilter$/, kind: "command" },
  { key: /^pager\..+$/, kind: "command-or-bool" },
  { key: /^(browser|man)\..+\.(cmd|path)$/, kind: "command" },
  { key: /^remote\..+\.(uploadpack|receivepack)$/, kind: "command" },
  { key: /^uploadpack\.packobjectshook$/, kind: "command" },
  { key: /^sendemail\.(smtpserver|tocmd|cccmd)$/, kind: "command" },
  { key: /^alias\..+$/, kind: "alias" },
  { key: /^credential(\..+)?\.helper$/, kind: "credential-helper" },
  { key: /^include(if\..+)?\.path$/, kind: "include" },
  { key: /^protocol(\..+)?\.allow$/, kind: "protocol" },
  { key: /^url\..+\.(insteadof|pushinsteadof)$/, kind: "url-rewrite" },
];

/** A git key as git compares it: section and name in lower case, the subsection as written. */
export function normaliseGitKey(key: string): string {
  const first = key.indexOf(".");
  const last = key.lastIndexOf(".");
  if (first < 0) return key.toLowerCase();
  if (first === last) return key.toLowerCase();
  return `${key.slice(0, first).toLowerCase()}.${key.slice(first + 1, last)}.${
    key.slice(last + 1).toLowerCase()
  }`;
}

const BOOLEAN = /^(true|false|yes|no|on|off|1|0)?$/i;

/** What one git setting makes git run; empty when it names no program. */
export function gitSettingUses(key: string, value: string, source: string): HookUse[] {
  const k = normaliseGitKey(key);
  const match = GIT_PROGRAM_SETTINGS.find((s) => s.key.test(k.toLowerCase()));
  if (!match) return [];
  const runs = `a program git runs (${key})`;
  const v = value.trim();
  switch (match.kind) {
    case "command":
      return v === "" ? [] : [{ source, runs, command: v }];
    case "command-or-bool":
      return BOOLEAN.test(v) ? [] : [{ source, runs, command: v }];
    case "alias":
      if (v.startsWith("!")) return [{ source, runs, command: v.slice(1) }];
      return v === "" ? [] : [{ source, runs, command: `git ${v}` }];
    case "credential-helper":
      if (v === "") return [];
      if (v.startsWith("!")) return [{ source, runs, command: v.slice(1) }];
      if (v.startsWith("/") || v.startsWith("~") || v.includes("/")) {
        return [{ source, runs, command: v }];
      }
      return [{ source, runs, command: `git credential-${v}` }];
    case "hooks-path":
      if (v === "/dev/null") return [];
      return [{
        source,
        runs: "hooks git runs",
        level: "dangerous",
        reason: `${source}: git runs the hooks in ${
          v || "that folder"
        }, which the gate does not read`,
      }];
    case "include":
      return v === "" ? [] : [{ source, runs: "another git config file", gitConfigFile: v }];
    case "protocol":
      return [{
        source,
        runs: "git transports",
        level: /ext|^protocol\.allow$/i.test(k) && !/^never$/i.test(v) ? "dangerous" : "moderate",
        reason: `${source}=${v} changes which transports git may use (ext:: runs commands)`,
      }];
    case "url-rewrite":
      return [{
        source,
        runs: "where git fetches from",
        level: /^(ext|fd)::/.test(v) || /ext::/.test(k) ? "dangerous" : "moderate",
        reason: `${source} rewrites where git fetches from`,
      }];
  }
}

/**
 * The hooks git's own options give: `-c key=value`, `--config-env=key=VAR`, `--exec-path=DIR`,
 * `--git-dir=DIR`; and the folders `-C` moves to, which decide the repository whose config git
 * reads. Only the options before the verb are git's.
 */
export function gitOptionUses(
  words: Word[],
  vars: Vars,
  userHome: string,
): { uses: HookUse[]; chdirs: string[]; dynamicChdir: boolean } {
  const uses: HookUse[] = [];
  const chdirs: string[] = [];
  let dynamicChdir = false;
  /** The value of option `name` at word i, spelled `name=v`, `name v` or `-cv`; the next index. */
  const take = (i: number, name: string, l: string): [string | undefined, number] => {
    if (l.startsWith(`${name}=`)) return [l.slice(name.length + 1), i + 1];
    if (l === name) return [valueOf(words[i + 1] ?? null, vars, userHome), i + 2];
    if (name.length === 2 && l.startsWith(name)) return [l.slice(2), i + 1];
    return [undefined, i + 1];
  };
  let i = 1;
  while (i < words.length) {
    const w = words[i];
    const l = literal(w) ?? valueOf(w, vars, userHome);
    if (l === undefined) {
      // An option spelled by a variable: git may read it as anything.
      uses.push(dynamic("git option", "a git option"));
      i++;
      continue;
    }
    if (!l.startsWith("-") || l === "--") break;
    const name = l.startsWith("--") ? l.split("=")[0] : l.slice(0, 2);
    if (name === "-c") {
      const [setting, next] = take(i, "-c", l);
      i = next;
      if (setting === undefined) {
        uses.push(dynamic("git -c", "a git setting"));
        continue;
      }
      const eq = setting.indexOf("=");
      const key = eq >= 0 ? setting.slice(0, eq) : setting;
      const value = eq >= 0 ? setting.slice(eq + 1) : "true";
      uses.push(...gitSettingUses(key, value, `git -c ${key}`));
      continue;
    }
    if (name === "--config-env") {
      const [setting, next] = take(i, "--config-env", l);
      i = next;
      const eq = setting?.indexOf("=") ?? -1;
      if (setting === undefined || eq < 0) {
        uses.push(dynamic("git --config-env", "a git setting"));
        continue;
      }
      const key = setting.slice(0, eq);
      const from = vars.get(setting.slice(eq + 1));
      if (gitSettingUses(key, "x", key).length === 0) continue;
      if (!from || !("value" in from)) {
        uses.push({
          source: `git --config-env ${key}`,
          runs: `a program git runs (${key})`,
          level: "dangerous",
          reason: `git --config-env ${key} takes a program from $${
            setting.slice(eq + 1)
          }, whose value the gate cannot see`,
        });
      } else uses.push(...gitSettingUses(key, from.value, `git --config-env ${key}`));
      continue;
    }
    if (name === "--exec-path") {
      if (!l.includes("=")) {
        i++;
        continue; // prints the path
      }
      const [dir, next] = take(i, "--exec-path", l);
      i = next;
      uses.push({
        source: "git --exec-path",
        runs: "the folder git runs its programs from",
        level: "dangerous",
        reason: `git --exec-path makes git run its programs from ${
          dir ?? "a folder named at run time"
        }`,
      });
      continue;
    }
    if (name === "--git-dir") {
      const [dir, next] = take(i, "--git-dir", l);
      i = next;
      if (dir === undefined) uses.push(dynamic("git --git-dir", "the repository git uses"));
      else uses.push({ source: "git --git-dir", runs: "the repository git uses", gitDir: dir });
      continue;
    }
    if (name === "-C") {
      const [dir, next] = take(i, "-C", l);
      i = next;
      if (dir === undefined) dynamicChdir = true;
      else chdirs.push(dir);
      continue;
    }
    if (["--work-tree", "--namespace", "--super-prefix", "--list-cmds"].includes(name)) {
      i += l.includes("=") ? 1 : 2;
      continue;
    }
    i++;
  }
  return { uses, chdirs, dynamicChdir };
}
