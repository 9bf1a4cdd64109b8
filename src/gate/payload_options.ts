/**
 * Options that name a command for a program to run: `rg --pre CMD`, `tar -I CMD`, `rsync -e CMD`,
 * `ssh -o ProxyCommand=CMD`, `git grep -O CMD`, `git rebase -x CMD`, `git submodule foreach CMD`,
 * `make SHELL=CMD`, `vim -c '!CMD'`, `gdb -ex 'shell CMD'`, `npx -c CMD`, … One table of the
 * options, read as GNU getopt reads them (abbreviated long options, `--opt=value` and
 * `--opt value`, a short option's value attached or in the next word, clusters), and a few readers
 * for values that hold a command inside something else (an ssh setting, a vim command).
 *
 * Each command found is handed back as a hook use with the command's text: the analysis parses it
 * and rates its commands like any payload (so `rg --pre sudo` is refused like `sudo`, and
 * `rg --pre cat` is as safe as `cat`). A value known only when the line runs is dangerous.
 * Pure.
 */
import type { HookUse } from "./hooks.ts";
import { isLongOption } from "./options.ts";
import { CODE_SCAN_LIMIT } from "./programs.ts";
import { literal, resolveWord, type Vars, type Word } from "./words.ts";
import { shellQuote } from "../util/shell_words.ts";

/** How an option's value is run. */
type ValueKind =
  /** A command line (or a program with arguments): parsed and rated as a payload. */
  | "command"
  /** tar --checkpoint-action: `exec=CMD` runs CMD, other actions run nothing. */
  | "checkpoint-action"
  /** ssh -o: `ProxyCommand=CMD`, `LocalCommand CMD`, `Match exec CMD`, … */
  | "ssh-setting"
  /** vim -c/+: an Ex command; `!CMD`, `r !CMD`, `w !CMD`, `terminal CMD` run a shell command. */
  | "vim-command"
  /** gdb -ex: `shell CMD` or `!CMD`. */
  | "gdb-command"
  /** emacs --eval: Lisp whose shell-command, call-process, … run commands. */
  | "elisp";

/** One option that hands a program a command to run. */
interface PayloadOption {
  /** The programs (basenames) that read it. */
  programs: readonly string[];
  /** For a verb program: the verb it belongs to (`git grep`). */
  verb?: string;
  /** The short option's letter. */
  short?: string;
  /** The long option's names, without dashes (abbreviations are read as getopt reads them). */
  long?: readonly string[];
  /** The value only counts attached (`-Ovim`, `--open-files-in-pager=vim`): it is optional. */
  attachedOnly?: boolean;
  /** `+CMD` (vim). */
  plus?: boolean;
  kind: ValueKind;
  /** What the command is, for the reason a person reads. */
  runs: string;
}

const SSH_FAMILY = ["ssh", "scp", "sftp", "autossh", "slogin"];
const VIM_FAMILY = ["vim", "vi", "nvim", "view", "vimdiff", "gvim", "ex", "nvi", "evim"];

/** Every option the gate knows to hand a program a command to run. */
const PAYLOAD_OPTIONS: readonly PayloadOption[] = [
  {
    programs: ["emacs", "emacsclient"],
    short: "eval",
    long: ["eval"],
    kind: "elisp",
    runs: "a command Emacs Lisp runs",
  },
  { programs: ["emacsclient"], short: "e", kind: "elisp", runs: "a command Emacs Lisp runs" },
  {
    programs: ["rg", "ripgrep"],
    long: ["pre"],
    kind: "command",
    runs: "a program rg runs on every file it searches",
  },
  {
    programs: ["rg", "ripgrep"],
    long: ["hostname-bin"],
    kind: "command",
    runs: "a program rg runs to learn the host's name",
  },
  {
    programs: ["tar", "gtar", "bsdtar"],
    short: "I",
    long: ["use-compress-program"],
    kind: "command",
    runs: "the compression program tar runs",
  },
  {
    programs: ["tar", "gtar"],
    long: ["to-command"],
    kind: "command",
    runs: "a command tar pipes every file into",
  },
  {
    programs: ["tar", "gtar"],
    short: "F",
    long: ["info-script", "new-volume-script"],
    kind: "command",
    runs: "a script tar runs at each volume",
  },
  {
    programs: ["tar", "gtar"],
    long: ["rsh-command", "rmt-command"],
    kind: "command",
    runs: "the remote shell tar runs",
  },
  {
    programs: ["tar", "gtar"],
    long: ["checkpoint-action"],
    kind: "checkpoint-action",
    runs: "a command tar runs at checkpoints",
  },
  {
    programs: ["rsync"],
    short: "e",
    long: ["rsh"],
    kind: "command",
    runs: "the remote shell rsync runs",
  },
  {
    programs: ["rsync"],
    long: ["rsync-path"],
    kind: "command",
    runs: "the command rsync runs on the other side",
  },
  {
    programs: SSH_FAMILY,
    short: "o",
    kind: "ssh-setting",
    runs: "a command an ssh setting runs",
  },
  { programs: ["scp", "sftp"], short: "S", kind: "command", runs: "the program scp runs as ssh" },
  {
    programs: ["git"],
    verb: "grep",
    short: "O",
    long: ["open-files-in-pager"],
    attachedOnly: true,
    kind: "command",
    runs: "the pager git grep opens the files in",
  },
  {
    programs: ["git"],
    verb: "rebase",
    short: "x",
    long: ["exec"],
    kind: "command",
    runs: "a command git rebase runs after each commit",
  },
  {
    programs: ["git"],
    verb: "difftool",
    short: "x",
    long: ["extcmd"],
    kind: "command",
    runs: "the diff program git difftool runs",
  },
  {
    programs: VIM_FAMILY,
    short: "c",
    long: ["cmd"],
    plus: true,
    kind: "vim-command",
    runs: "a shell command the editor runs",
  },
  {
    programs: ["gdb"],
    short: "ex",
    long: ["eval-command"],
    kind: "gdb-command",
    runs: "a shell command gdb runs",
  },
  {
    programs: ["gdb"],
    short: "iex",
    long: ["init-eval-command"],
    kind: "gdb-command",
    runs: "a shell command gdb runs",
  },
  {
    programs: ["npx", "pnpx", "bunx"],
    short: "c",
    long: ["call"],
    kind: "command",
    runs: "a command npx runs",
  },
  {
    programs: ["zip"],
    long: ["unzip-command"],
    short: "TT",
    kind: "command",
    runs: "the test command zip runs",
  },
  { programs: ["man"], short: "P", long: ["pager"], kind: "command", runs: "the pager man runs" },
  {
    programs: ["less", "more"],
    plus: true,
    kind: "vim-command",
    runs: "a shell command the pager runs (+!cmd)",
  },
  ...["clone", "fetch", "pull", "ls-remote", "archive"].map((verb): PayloadOption => ({
    programs: ["git"],
    verb,
    short: verb === "clone" ? "u" : undefined,
    long: verb === "archive" ? ["exec"] : ["upload-pack"],
    kind: "command",
    runs: "the program git runs on the other side",
  })),
  {
    programs: ["git"],
    verb: "push",
    long: ["receive-pack", "exec"],
    kind: "command",
    runs: "the program git runs on the other side",
  },
  {
    programs: ["git"],
    verb: "filter-branch",
    long: [
      "tree-filter",
      "index-filter",
      "msg-filter",
      "env-filter",
      "commit-filter",
      "parent-filter",
      "tag-name-filter",
    ],
    kind: "command",
    runs: "a filter git runs on every commit",
  },
];

/** A word's value; undefined when it is known only when the line runs. */
function valueOf(word: Word | undefined, vars: Vars, userHome: string): string | undefined {
  if (!word) return undefined;
  const l = literal(word);
  if (l !== undefined) return l;
  const r = resolveWord(word, vars, userHome);
  return r.unknown ? undefined : r.value;
}

/** The verb of a verb program: the first argument that is not an option (git's own skipped). */
function verbOf(values: Array<string | undefined>): { verb: string | undefined; at: number } {
  for (let i = 1; i < values.length; i++) {
    const v = values[i];
    if (v === undefined) return { verb: undefined, at: i };
    if (/^-[Cc]$|^--(git-dir|work-tree|namespace|config-env|super-prefix)$/.test(v)) {
      i++;
      continue;
    }
    if (!v.startsWith("-")) return { verb: v, at: i };
  }
  return { verb: undefined, at: values.length };
}

/** The command in an ssh setting (`ProxyCommand=cmd`, `LocalCommand cmd`, `Match exec "cmd"`). */
function sshSettingCommand(setting: string): string | undefined | null {
  const m = /^\s*(\w+)\s*(?:=\s*|\s+)([\s\S]*)$/.exec(setting);
  if (!m) return null;
  const key = m[1].toLowerCase();
  if (
    key === "proxycommand" || key === "localcommand" || key === "knownhostscommand" ||
    key === "remotecommand"
  ) {
    return m[2].trim() === "none" ? null : m[2];
  }
  if (key === "match") {
    const exec = /\bexec\s+("(?:[^"\\]|\\.)*"|\S+)/i.exec(m[2]);
    return exec ? exec[1].replace(/^"|"$/g, "") : null;
  }
  if (key === "pkcs11provider" || key === "securitykeyprovider") return undefined;
  return null;
}

/** The shell commands an Ex command runs (`!cmd`, `silent !cmd`, `r !cmd`, `w !cmd`, `terminal cmd`). */
export function vimShellCommands(text: string): string[] | undefined {
  const ex = text.slice(0, CODE_SCAN_LIMIT);
  const out: string[] = [];
  // `|` separates Ex commands, except after `!` where the rest is the shell's.
  const re =
    /(?:^|\|)[\s:]*(?:sil(?:ent)?!?\s+)?[\d,.$%]*(?:(?:r(?:ead)?|w(?:rite)?)[ \t]*)?(?:!|ter(?:minal)?\s|sh(?:ell)?\s*$)(.*)/g;
  for (const m of ex.matchAll(re)) out.push(m[1].trim() || "sh");
  // system(), systemlist(), job_start(), jobstart(), libcallnr on a shell: code that runs commands;
  // so do the Ex commands that run another language's code, and `execute`, which builds one.
  if (/\b(system|systemlist|job_?start|termopen|libcall\w*)\s*\(/.test(ex)) return undefined;
  if (
    /(?:^|\|)[\s:]*(?:sil(?:ent)?!?\s+)?(?:lua|luado|luafile|py3?|python3?|pyx|pythonx|py3do|pydo|perl|perldo|ruby|rubydo|tcl|tcldo|mzscheme|exe(?:cute)?)\b/
      .test(ex)
  ) return undefined;
  return out;
}

/** The shell commands a gdb command runs (`shell cmd`, `!cmd`, `pipe … | cmd`). */
function gdbShellCommands(command: string): string[] {
  const m = /^\s*(?:shell\s+|!|pipe\s+[^|]*\|)(.*)$/.exec(command);
  return m ? [m[1]] : [];
}

/**
 * The commands Emacs Lisp runs: `(shell-command "cmd")` and its kin take a command line;
 * `(call-process "prog" nil t nil "arg"…)`, `(process-lines "prog" "arg"…)` and
 * `(start-process "name" buffer "prog" "arg"…)` a program and its arguments.
 */
function elispCommands(code: string): string[] {
  const out: string[] = [];
  const str = String.raw`"((?:[^"\\]|\\.)*)"`;
  const unescape = (t: string) => t.replace(/\\(.)/g, "$1");
  const shellForms = new RegExp(
    String
      .raw`\((?:async-)?shell-command(?:-to-string)?\s+${str}|\(call-process-shell-command\s+${str}`,
    "g",
  );
  for (const m of code.matchAll(shellForms)) out.push(unescape(m[1] ?? m[2]));
  const strings = (rest: string) =>
    [...rest.matchAll(new RegExp(str, "g"))].map((a) => unescape(a[1]));
  for (const m of code.matchAll(/\((call-process|process-lines|start-process)\s+([^)]*)\)/g)) {
    const list = m[1] === "start-process" ? strings(m[2]).slice(1) : strings(m[2]);
    if (list.length > 0) out.push(list.map(shellQuote).join(" "));
  }
  return out;
}

/** Turn one option value into hook uses. */
function usesOf(
  spec: PayloadOption,
  source: string,
  value: string | undefined,
): HookUse[] {
  if (value === undefined) {
    return [{
      source,
      runs: spec.runs,
      level: "dangerous",
      reason: `${source} runs ${spec.runs.replace(/^an? /, "")} known only when the line runs`,
    }];
  }
  const command = (text: string): HookUse => ({ source, runs: spec.runs, command: text });
  switch (spec.kind) {
    case "command":
      return value.trim() === "" ? [] : [command(value)];
    case "checkpoint-action": {
      const m = /^exec=([\s\S]*)$/.exec(value);
      return m ? [command(m[1])] : [];
    }
    case "ssh-setting": {
      const c = sshSettingCommand(value);
      if (c === null) return [];
      if (c === undefined) {
        return [{
          source,
          runs: "a library ssh loads",
          level: "dangerous",
          reason: `${source} makes ssh load a library (${value})`,
        }];
      }
      return [command(c)];
    }
    case "vim-command": {
      const cmds = vimShellCommands(value);
      if (cmds === undefined) {
        return [{
          source,
          runs: spec.runs,
          level: "dangerous",
          reason: `${source} runs editor code that starts commands (${value})`,
        }];
      }
      return cmds.map(command);
    }
    case "gdb-command":
      return gdbShellCommands(value).map(command);
    case "elisp":
      return elispCommands(value).map(command);
  }
}

/**
 * The commands the options of a program hand it to run, read from its words (the program word
 * first) as getopt reads them; options end at `--`.
 */
export function payloadOptionUses(
  program: string,
  words: Word[],
  vars: Vars,
  userHome: string,
): HookUse[] {
  return bounded(program, optionUsesOf(program, words, vars, userHome));
}

/** The most commands one part hands over; more are not parsed one by one but dangerous. */
const MAX_PAYLOAD_USES = 16;

/** A list of uses kept to MAX_PAYLOAD_USES: beyond it, one dangerous use stands for them all. */
export function bounded(program: string, uses: HookUse[]): HookUse[] {
  if (uses.length <= MAX_PAYLOAD_USES) return uses;
  return [{
    source: program,
    runs: "more commands than the gate checks",
    level: "dangerous",
    reason: `${program} is given ${uses.length} commands to run, more than the gate checks`,
  }];
}

function optionUsesOf(
  program: string,
  words: Word[],
  vars: Vars,
  userHome: string,
): HookUse[] {
  const specs = PAYLOAD_OPTIONS.filter((s) => s.programs.includes(program));
  const out: HookUse[] = [];
  if (program === "make" || program === "gmake") out.push(...makeShellUses(words, vars, userHome));
  if ((program === "rg" || program === "ripgrep") && searchesZip(words, vars, userHome)) {
    out.push({
      source: "rg --search-zip",
      runs: "decompression programs",
      level: "moderate",
      reason: "rg -z runs decompression programs on the files it searches",
    });
  }
  if (program === "enable" && words.some((w) => /^-[a-z]*f/.test(literal(w) ?? ""))) {
    out.push({
      source: "enable -f",
      runs: "a builtin loaded from a shared library",
      level: "dangerous",
      reason: "enable -f loads a shell builtin from a shared library, code the gate cannot read",
    });
  }
  if (program === "sed" || program === "gsed") out.push(...sedCommands(words, vars, userHome));
  if (specs.length === 0) return out;
  const values = words.map((w) => valueOf(w, vars, userHome));
  const verb = verbOf(values);
  for (let i = 1; i < words.length; i++) {
    const arg = values[i];
    if (arg === "--") break;
    if (arg === undefined || !/^[-+]/.test(arg)) continue;
    for (const spec of specs) {
      if (spec.verb !== undefined && (spec.verb !== verb.verb || i < verb.at)) continue;
      const found = matchOption(spec, arg, values[i + 1], words[i + 1] !== undefined);
      if (!found) continue;
      out.push(
        ...usesOf(spec, `${program}${spec.verb ? ` ${spec.verb}` : ""} ${found.name}`, found.value),
      );
      if (found.tookNext) i++;
      break;
    }
  }
  if (program === "git" && verb.verb === "submodule" && values[verb.at + 1] === "foreach") {
    let k = verb.at + 2;
    while (values[k] === "--recursive" || values[k] === "-q" || values[k] === "--quiet") k++;
    // foreach hands its words to a shell as they are.
    out.push(
      ...trailingCommand(
        "git submodule foreach",
        "a command git runs in every submodule",
        values.slice(k),
        (w) => w.join(" "),
      ),
    );
  }
  if (program === "git" && verb.verb === "bisect" && values[verb.at + 1] === "run") {
    // bisect run executes its words as an argv.
    out.push(
      ...trailingCommand(
        "git bisect run",
        "a command git runs at every step",
        values.slice(verb.at + 2),
        (w) => w.map(shellQuote).join(" "),
      ),
    );
  }
  return out;
}

/**
 * The command a program runs from the rest of its words (`git submodule
 * foreach …`, `git bisect run …`): the words as a line, or dangerous when a
 * word is known only when the line runs; nothing when there are none.
 */
function trailingCommand(
  source: string,
  runs: string,
  rest: (string | undefined)[],
  asLine: (words: string[]) => string,
): HookUse[] {
  if (rest.some((v) => v === undefined)) {
    return [{
      source,
      runs,
      level: "dangerous",
      reason: `${source} runs a command known only when the line runs`,
    }];
  }
  return rest.length > 0 ? [{ source, runs, command: asLine(rest as string[]) }] : [];
}

/** Does `arg` spell the option of `spec`? Its name as given, its value, and whether it took the next word. */
function matchOption(
  spec: PayloadOption,
  arg: string,
  next: string | undefined,
  hasNext: boolean,
): { name: string; value: string | undefined; tookNext: boolean } | undefined {
  if (arg.startsWith("--")) {
    const name = arg.slice(2).split("=")[0];
    if (!spec.long?.some((l) => isLongOption(arg, l) && name.length >= Math.min(2, l.length))) {
      return undefined;
    }
    const eq = arg.indexOf("=");
    if (eq >= 0) return { name: arg.slice(0, eq), value: arg.slice(eq + 1), tookNext: false };
    if (spec.attachedOnly) return undefined;
    return { name: arg, value: hasNext ? next : "", tookNext: true };
  }
  if (spec.plus && arg.startsWith("+") && arg.length > 1) {
    return { name: "+", value: arg.slice(1), tookNext: false };
  }
  if (!arg.startsWith("-") || arg.startsWith("--") || !spec.short) return undefined;
  // A short option alone or last in a cluster takes the next word; inside one, the rest.
  if (spec.short.length > 1) {
    // Single-dash long options (zip -TT, gdb -ex): whole word.
    if (arg === `-${spec.short}`) return { name: arg, value: hasNext ? next : "", tookNext: true };
    return undefined;
  }
  const at = arg.indexOf(spec.short, 1);
  if (at < 0 || !/^-[A-Za-z0-9]+/.test(arg.slice(0, at + 1))) return undefined;
  const rest = arg.slice(at + 1);
  if (rest !== "") {
    return { name: `-${spec.short}`, value: rest.replace(/^=/, ""), tookNext: false };
  }
  if (spec.attachedOnly) return undefined;
  return { name: `-${spec.short}`, value: hasNext ? next : "", tookNext: true };
}

/** Package runners: `npx X`, `npm exec X`, `pnpm dlx X`, `yarn dlx X`, `bunx X`, `bun x X`. */
const RUNNERS: ReadonlyArray<[string, string | null]> = [
  ["npx", null],
  ["pnpx", null],
  ["bunx", null],
  ["npm", "exec"],
  ["npm", "x"],
  ["pnpm", "dlx"],
  ["pnpm", "exec"],
  ["yarn", "dlx"],
  ["bun", "x"],
];

/** A word that may name a package runner (checked before anything is resolved). */
const RUNNER_WORD = /(^|\/|["'])(npx|pnpx|bunx|npm|pnpm|yarn|bun|deno)["']?$/;

/** A package spec that is code from a URL, a tarball or a git host, not a registry package. */
const REMOTE_SPEC =
  /^(https?:|git(\+\w+)?:|git@|github:|gitlab:|bitbucket:|gist:|file:)|\.(tgz|tar\.gz|tar)$|^[\w.-]+\/[\w.-]+(#\S*)?$/i;

/**
 * Code fetched from a URL, a tarball or a git repository and run: `npx github:x/y`,
 * `npm exec --package=https://…/t.tgz -- t`, `bun run https://…/s.ts`. Dangerous: what runs is
 * not a package the registry serves, and the gate cannot read it.
 */
export function remotePackageUses(words: Word[], vars: Vars, userHome: string): HookUse[] {
  // Most parts name no package runner: look before resolving every word.
  if (!words.some((w) => RUNNER_WORD.test(literal(w) ?? w.raw))) return [];
  const values = words.map((w) => valueOf(w, vars, userHome));
  const out: HookUse[] = [];
  const flag = (source: string, spec: string) =>
    out.push({
      source,
      runs: "code fetched from elsewhere",
      level: "dangerous",
      reason: `${source} runs code fetched from ${spec}, which the gate cannot read`,
    });
  for (let i = 0; i < values.length; i++) {
    const prog = (values[i] ?? "").split("/").pop() ?? "";
    const runner = RUNNERS.find(([p, verb]) =>
      p === prog && (verb === null || values[i + 1] === verb)
    );
    const isBunRun = (prog === "bun" || prog === "deno") && values[i + 1] === "run";
    if (!runner && !isBunRun && !(prog === "bun" && /^https?:/.test(values[i + 1] ?? ""))) continue;
    const source = runner?.[1] ? `${prog} ${runner[1]}` : isBunRun ? `${prog} run` : prog;
    let k = i + (runner?.[1] || isBunRun ? 2 : 1);
    for (; k < values.length; k++) {
      const v = values[k];
      if (v === undefined) break;
      const pkg = /^(-p|--package)$/.test(v)
        ? values[++k]
        : /^--package=/.test(v)
        ? v.slice(10)
        : /^-p./.test(v)
        ? v.slice(2)
        : undefined;
      if (pkg !== undefined) {
        if (REMOTE_SPEC.test(pkg) && !pkg.startsWith("@")) flag(source, pkg);
        continue;
      }
      if (v === "--") continue;
      if (v.startsWith("-")) continue;
      // The first positional: the package (or script) to run.
      if (/^https?:/.test(v) || (!isBunRun && REMOTE_SPEC.test(v) && !v.startsWith("@"))) {
        flag(source, v);
      }
      break;
    }
  }
  return out;
}

/** `make SHELL=…` (and `MAKESHELL`): the program make runs every recipe with. */
function makeShellUses(words: Word[], vars: Vars, userHome: string): HookUse[] {
  const out: HookUse[] = [];
  for (const w of words.slice(1)) {
    const first = w.segs[0];
    if (first?.kind !== "lit") continue;
    const m = /^(SHELL|MAKESHELL|\.SHELLFLAGS)=/.exec(first.text);
    if (!m) continue;
    const value = valueOf(
      { raw: w.raw, segs: [{ ...first, text: first.text.slice(m[0].length) }, ...w.segs.slice(1)] },
      vars,
      userHome,
    );
    const source = `make ${m[1]}`;
    if (value === undefined) {
      out.push({
        source,
        runs: "the shell make runs recipes with",
        level: "dangerous",
        reason: `${source} is known only when the line runs`,
      });
    } else if (m[1] !== ".SHELLFLAGS" && value !== "") {
      out.push({ source, runs: "the shell make runs recipes with", command: value });
    }
  }
  return out;
}

/**
 * GNU sed's `e` command (`1e CMD`, `e CMD`) and the `e` flag of `s` (`s/x/CMD/e`) run shell
 * commands: each is handed back as a command line. The script is every `-e` value, or the first
 * operand when there is none.
 */
function sedCommands(words: Word[], vars: Vars, userHome: string): HookUse[] {
  const values = words.slice(1).map((w) => valueOf(w, vars, userHome));
  const scripts: Array<string | undefined> = [];
  let operand: string | undefined | null = null;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === "-e" || v === "--expression") scripts.push(values[++i]);
    else if (v?.startsWith("--expression=")) scripts.push(v.slice(13));
    else if (v !== undefined && /^-[a-zA-Z]*e$/.test(v) && !v.startsWith("--")) {
      scripts.push(values[++i]);
    } else if (v === "-f" || v === "--file") i++;
    else if (operand === null && (v === undefined || !v.startsWith("-"))) operand = v;
  }
  if (scripts.length === 0 && operand !== null) scripts.push(operand);
  const out: HookUse[] = [];
  const source = "sed e";
  const runs = "a shell command sed runs";
  for (const whole of scripts) {
    if (whole === undefined) continue;
    const script = whole.slice(0, CODE_SCAN_LIMIT);
    // An address (a line, `$`, a /regex/) or a range of two; then `e` with an optional command.
    const address = String.raw`(?:\d+|\$|/(?:[^/\\]|\\.)*/)`;
    const eCommand = new RegExp(
      String
        .raw`(?:^|[;\n{}])\s*(?:${address}(?:\s*,\s*${address})?)?\s*!?\s*e(?:\s+([^;\n}]*))?(?=$|[;\n}])`,
      "g",
    );
    for (const m of script.matchAll(eCommand)) {
      const c = (m[1] ?? "").trim();
      // `e` alone runs the pattern space: a command the input decides.
      if (c === "") {
        out.push({
          source,
          runs,
          level: "dangerous",
          reason: "sed e runs each line of its input as a command",
        });
      } else out.push({ source, runs, command: c });
    }
    // s/regex/replacement/flags with the e flag runs the result as a command.
    const sFlagE =
      /(?:^|[;\n{}])[^;\n{}s]{0,64}?s([^\w\s\\])((?:(?!\1)[^\\]|\\.)*)\1((?:(?!\1)[^\\]|\\.)*)\1([gpiImMe0-9w]*)/g;
    for (const m of script.matchAll(sFlagE)) {
      if (!m[4].includes("e")) continue;
      const replacement = m[3];
      if (/[&\\]/.test(replacement)) {
        out.push({
          source,
          runs,
          level: "dangerous",
          reason: "sed s///e runs a command built from its input",
        });
      } else out.push({ source: "sed s///e", runs, command: replacement });
    }
  }
  return out;
}

function searchesZip(words: Word[], vars: Vars, userHome: string): boolean {
  for (const w of words.slice(1)) {
    const v = valueOf(w, vars, userHome);
    if (v === "--") return false;
    if (v !== undefined && (isLongOption(v, "search-zip") || /^-[A-Za-z]*z/.test(v))) return true;
  }
  return false;
}
