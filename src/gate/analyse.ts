/**
 * From parsed simple commands to the parts the gate rates: each command with
 * its wrappers unwrapped to the program that really runs (env, timeout,
 * xargs, find -exec, sudo, …), the payloads of `sh -c`, `eval`, here-docs and
 * literal text piped into a shell parsed as lines of their own, and what the
 * line itself tells about variables and the working directory at that point.
 */
import { basename } from "../util/path.ts";
import {
  type Assignment,
  type ParsedLine,
  parseLine,
  ShellParserNotReady,
  type SimpleCommand,
} from "./parse.ts";
import { CODE_SCAN_LIMIT, INTERPRETERS } from "./programs.ts";
import { payloadOptionUses, remotePackageUses } from "./payload_options.ts";
import { LONG_OPTIONS, spellOutLongOption } from "./options.ts";
import { codeShellouts } from "./code_shellouts.ts";
import { envHookUses, gitOptionUses, type HookUse } from "./hooks.ts";
import { LineFiles, type RanFile, runsAsShell, WRITTEN_FILE_PAYLOAD } from "./line_effects.ts";
import {
  expandBraces,
  globOptionCandidate,
  globProgramCandidate,
  isGlobbedOption,
} from "./expand.ts";
import {
  decodeAnsiC,
  display,
  hasGlob,
  isDynamic,
  literal,
  litWord,
  resolveWord,
  setSubstitutionResolver,
  type Vars,
  type Word,
} from "./words.ts";

export interface Part {
  /** The simple command this part comes from. */
  cmd: SimpleCommand;
  /** The text a person is asked about: the simple command as written. */
  text: string;
  /** The program that really runs and its arguments, wrappers removed. */
  words: Word[];
  argv: string[];
  /** Basename of the program ("" when it is only known at run time). */
  program: string;
  /** The program word as written, resolved (may be a path). */
  programPath: string;
  /** Wrappers removed, outermost first (env, timeout, sudo, …). */
  wrappers: string[];
  /** The program is chosen when the line runs ($X, $(…), "${CMD}"). */
  dynamicProgram: boolean;
  /** Values of variables the line set before this part, and the environment's. */
  vars: Vars;
  /** Working directories this part may run in (the first is the most likely). */
  cwds: string[];
  /** Payload nesting: 0 for the line itself, 1 inside `sh -c '…'`, … */
  depth: number;
  /** The part whose payload this is. */
  carrier: Part | null;
  /** Parts earlier in the same pipeline. */
  upstream: Part[];
  /** Parts that run inside this part's substitutions. */
  substitutions: Part[];
  /** xargs, find -exec, parallel: more arguments arrive at run time. */
  argsAtRunTime: boolean;
  /** How the part got its own payload parts ("sh -c", "eval", "here-doc", …). */
  payloadKind: string | null;
  /** The payload text, when it could be known. */
  payload: string | null;
  /** The payload could not be known before the line runs. */
  payloadDynamic: boolean;
  /** Parser error of the payload. */
  payloadError: string | null;
  /** The part reads a shell script from stdin. */
  readsScriptFromStdin: boolean;
  /** Variables set for this part: its own assignments, then those `env NAME=value` gives. */
  assignments: Assignment[];
  /** Environment hooks and git settings that make the program run something (hooks.ts). */
  hooks: HookUse[];
  /** For git: the folders `-C` moves to (null: named only at run time). */
  gitChdirs?: string[] | null;
  /** The hook whose command this part is part of (`GIT_EDITOR`, `git -c core.pager`). */
  hookSource?: string;
  /** A file this part runs that the line made before it (line_effects.ts). */
  ranFile?: RanFile;
}

export interface Analysis {
  line: string;
  ok: boolean;
  error?: string;
  parts: Part[];
  parsed: ParsedLine;
  /** Functions the line defines, with the parts of their bodies. */
  functions: Array<{ name: string; parts: Part[] }>;
  userHome: string;
  tooDeep: boolean;
}

export interface AnalyseOptions {
  cwd: string;
  userHome: string;
  /** Variables from the environment the command inherits (HOME, PWD, WISP_HOME, TMPDIR, …). */
  env?: Record<string, string>;
}

export const SHELLS = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "mksh",
  "ash",
  "fish",
  "csh",
  "tcsh",
  "yash",
  "posh",
  "rbash",
  "busybox",
]);

/** How deep payloads nest before the gate stops looking and calls it dangerous. */
const MAX_PAYLOAD_DEPTH = 6;

export function analyse(parsed: ParsedLine, options: AnalyseOptions): Analysis {
  const vars: Vars = new Map();
  for (const [k, v] of Object.entries(options.env ?? {})) vars.set(k, { value: v });
  vars.set("HOME", { value: options.userHome });
  vars.set("PWD", { value: options.cwd });
  const state: AnalyseState = {
    aliases: new Map(),
    hashed: new Map(),
    expandAliases: false,
    tooDeep: false,
    functions: [],
  };
  const parts = analyseParsed(parsed, vars, [options.cwd], 0, null, options, state);
  const functions = state.functions;
  return {
    line: parsed.line,
    ok: parsed.ok,
    error: parsed.error,
    parts,
    parsed,
    functions,
    userHome: options.userHome,
    tooDeep: state.tooDeep,
  };
}

interface AnalyseState {
  /** Aliases the line defines (`alias ll='ls -la'`), by name. */
  aliases: Map<string, string>;
  /** Names `hash -p PATH NAME` bound to a program path. */
  hashed: Map<string, string>;
  /** `shopt -s expand_aliases` ran earlier in the line: bash expands them. */
  expandAliases: boolean;
  tooDeep: boolean;
  /** Functions defined anywhere in the line or its payloads, with the parts of their bodies. */
  functions: Array<{ name: string; parts: Part[] }>;
}

function analyseParsed(
  parsed: ParsedLine,
  vars: Vars,
  cwds: string[],
  depth: number,
  carrier: Part | null,
  options: AnalyseOptions,
  state: AnalyseState,
): Part[] {
  const out: Part[] = [];
  const byCmd = new Map<number, Part[]>();
  const files = new LineFiles(options.userHome);
  const order = [...parsed.commands].sort((a, b) => a.start - b.start || a.id - b.id);
  for (const cmd of order) {
    const snapshot: Vars = new Map(vars);
    const here = [...cwds];
    applyAssignments(cmd, vars, parsed, options);
    const prefixVars = prefixVariables(cmd, snapshot, options);
    const made = partsOf(
      cmd,
      cmd.words,
      prefixVars,
      here,
      depth,
      carrier,
      parsed,
      byCmd,
      options,
      state,
    );
    noteAliases(made[0], state);
    for (const p of made) out.push(p);
    byCmd.set(cmd.id, made);
    if (made[0]) readRanFile(made[0], files, byCmd, parsed);
    for (const p of made) files.record(p, byCmd);
    trackShellState(made[0], cmd, vars, cwds, snapshot, options);
  }
  linkParts(out, depth, byCmd, parsed, state);
  return withPayloadParts(out, depth, options, state);
}

/** Assignments on a line of their own (or alone) change the line's variables from here on. */
function applyAssignments(
  cmd: SimpleCommand,
  vars: Vars,
  parsed: ParsedLine,
  options: AnalyseOptions,
): void {
  // Assignments: a standalone one changes the line's variables from here on.
  if (cmd.standaloneAssignments || cmd.words.length === 0) {
    for (const a of cmd.assignments) {
      if (!a.value) {
        vars.set(a.name, { value: "" });
        continue;
      }
      const r = resolveWord(a.value, vars, options.userHome);
      if (!r.unknown && !r.globRegex) vars.set(a.name, { value: r.value });
      else if (r.tainted) vars.set(a.name, { tainted: r.tainted });
      else if (a.value.segs.some((s) => s.kind === "sub")) {
        const subs = parsed.commands.filter((c) => c.substitutionOf === cmd.id);
        const feeder = subs.map((c) => feederKind(c.words)).find((k) => k);
        if (feeder) vars.set(a.name, { tainted: feeder });
        else vars.delete(a.name);
      } else vars.delete(a.name);
    }
  }
}

/** The variables a command's own prefix assignments (`X=1 cmd`) give it. */
function prefixVariables(cmd: SimpleCommand, snapshot: Vars, options: AnalyseOptions): Vars {
  const prefixVars: Vars = new Map(snapshot);
  for (const a of cmd.assignments) {
    if (cmd.standaloneAssignments) continue;
    const r = a.value
      ? resolveWord(a.value, snapshot, options.userHome)
      : { value: "", unknown: false };
    if (!r.unknown) prefixVars.set(a.name, { value: r.value });
    else prefixVars.delete(a.name);
  }
  return prefixVars;
}

/** A file the line made before: its text, when the line wrote it, is read as a payload. */
function readRanFile(
  part: Part,
  files: LineFiles,
  byCmd: Map<number, Part[]>,
  parsed: ParsedLine,
): void {
  // A file the line made before: its text, when the line wrote it, is read as a payload.
  const ran = files.ranBy(part, byCmd, parsed);
  if (ran) {
    part.ranFile = ran;
    if (
      ran.content !== undefined && part.payloadKind === null &&
      runsAsShell(part, ran.content)
    ) {
      part.payloadKind = WRITTEN_FILE_PAYLOAD;
      part.payload = ran.content;
      part.readsScriptFromStdin = false;
    }
  }
}

/**
 * What a command changes for the commands after it: the working folder
 * (cd, pushd), the positional parameters (set --), and variables it sets or
 * makes unknown (printf -v, read, mapfile).
 */
function trackShellState(
  first: Part | undefined,
  cmd: SimpleCommand,
  vars: Vars,
  cwds: string[],
  snapshot: Vars,
  options: AnalyseOptions,
): void {
  // cd/pushd change where later relative paths land; keep every candidate.
  if (
    first && (first.program === "cd" || first.program === "pushd") && cmd.substitutionOf === null
  ) {
    const target = first.words.slice(1).find((w) => !(literal(w) ?? "").startsWith("-"));
    if (!target) cwds.push(options.userHome);
    else {
      const r = resolveWord(target, snapshot, options.userHome);
      if (!r.unknown && !r.globRegex) {
        const base = cwds[cwds.length - 1];
        const next = r.value.startsWith("/") ? r.value : `${base}/${r.value}`;
        cwds.push(normalisePath(next));
      }
    }
  }
  // `set -- a b` sets the positional parameters.
  if (first && first.program === "set" && first.argv[1] === "--" && cmd.substitutionOf === null) {
    const args = first.words.slice(2).map((w) => literal(w));
    if (args.every((a) => a !== undefined)) vars.set("@", { value: args.join(" ") });
    else vars.delete("@");
  }
  // `printf -v NAME …` and `read NAME <<< literal` set a variable the line can know.
  const known = first && cmd.substitutionOf === null ? staticAssignment(first) : undefined;
  if (known) vars.set(known.name, { value: known.value });
  // Loop variables and `read` targets are unknown from here on.
  else if (first && (first.program === "read" || first.program === "mapfile")) {
    for (const w of first.words.slice(1)) {
      const l = literal(w);
      if (l && !l.startsWith("-")) vars.delete(l);
    }
  }
}

/** Link pipelines and substitutions now that every part exists; note the functions defined. */
function linkParts(
  out: Part[],
  depth: number,
  byCmd: Map<number, Part[]>,
  parsed: ParsedLine,
  state: AnalyseState,
): void {
  for (const p of out) {
    if (p.depth !== depth) continue;
    p.upstream = p.cmd.upstream.flatMap((id) => byCmd.get(id) ?? []);
    p.substitutions = parsed.commands
      .filter((c) => isInside(parsed, c, p.cmd.id))
      .flatMap((c) => byCmd.get(c.id) ?? []);
  }
  for (const f of parsed.functions) {
    state.functions.push({
      name: f.name,
      parts: out.filter((p) => p.depth === depth && f.body.includes(p.cmd.id)),
    });
  }
}

/** Each part followed by the parts of its hooks and its payload, parsed as lines of their own. */
function withPayloadParts(
  out: Part[],
  depth: number,
  options: AnalyseOptions,
  state: AnalyseState,
): Part[] {
  const withPayloads: Part[] = [];
  for (const p of out) {
    withPayloads.push(p);
    if (p.depth === depth && p.hooks.length > 0) {
      withPayloads.push(...hookParts(p, depth, options, state));
    }
    if (p.depth !== depth || p.payload === null) continue;
    if (depth + 1 > MAX_PAYLOAD_DEPTH) {
      state.tooDeep = true;
      p.payloadError = "it nests shell code too deeply to check";
      continue;
    }
    const inner = parseLine(p.payload);
    if (!inner.ok) {
      p.payloadError = inner.error ?? "the shell parser could not read it";
    }
    const innerParts = analyseParsed(
      inner,
      new Map(p.vars),
      [...p.cwds],
      depth + 1,
      p,
      options,
      state,
    );
    withPayloads.push(...innerParts);
  }
  return withPayloads;
}

/**
 * Aliases: a definition is remembered; a later command whose first word is a defined alias
 * carries the alias's text and its own arguments as a payload, parsed and rated like any command
 * line. With `shopt -s expand_aliases` the command is only the alias; without it bash runs the
 * word as a program too (zsh expands aliases anyway), so the part is rated both ways.
 */
function noteAliases(part: Part | undefined, state: AnalyseState): void {
  if (!part || part.words.length === 0) return;
  const first = part.cmd.words[0];
  const name = first && first.segs.length === 1 && first.segs[0].kind === "lit" &&
      !first.segs[0].quoted
    ? first.segs[0].text
    : undefined;
  if (part.program === "alias") {
    for (const w of part.words.slice(1)) {
      const l = literal(w);
      const m = l === undefined ? null : /^([^=\s/$`'"]+)=([\s\S]*)$/.exec(l);
      if (m) state.aliases.set(m[1], m[2]);
    }
    return;
  }
  if (part.program === "hash" && part.argv[1] === "-p" && part.argv.length >= 4) {
    // hash -p PATH NAME: NAME runs PATH from now on, whatever the shell's options.
    state.hashed.set(part.argv[3], part.argv[2]);
    return;
  }
  if (part.program === "unalias") {
    for (const w of part.words.slice(1)) state.aliases.delete(literal(w) ?? "");
    return;
  }
  if (
    part.program === "shopt" && part.argv.includes("-s") && part.argv.includes("expand_aliases")
  ) {
    state.expandAliases = true;
    return;
  }
  if (name === undefined || part.payloadKind) return;
  const hashed = state.hashed.get(name);
  if (!state.aliases.has(name) && hashed === undefined) return;
  const args = part.cmd.words.slice(1).map((w) => w.raw).join(" ");
  part.payloadKind = state.expandAliases || hashed !== undefined
    ? "alias"
    : "alias (when expanded)";
  part.payload = `${state.aliases.get(name) ?? hashed}${args ? " " + args : ""}`;
}

/**
 * The commands a part's hooks run (`GIT_EDITOR='…'`, `git -c core.pager='…'`), parsed and analysed
 * as payloads of the part. A hook whose command does not parse, or nests too deeply, is marked
 * dangerous on the hook itself.
 */
function hookParts(p: Part, depth: number, options: AnalyseOptions, state: AnalyseState): Part[] {
  const out: Part[] = [];
  for (const hook of p.hooks) {
    if (hook.command === undefined) continue;
    if (depth + 1 > MAX_PAYLOAD_DEPTH) {
      state.tooDeep = true;
      hook.level = "dangerous";
      hook.reason = `${hook.source} runs shell code nested too deeply to check`;
      continue;
    }
    const inner = parseLine(hook.command);
    if (!inner.ok) {
      hook.level = "dangerous";
      hook.reason = `${hook.source} runs a command the gate cannot read (${hook.command})`;
      continue;
    }
    const parts = analyseParsed(inner, new Map(p.vars), [...p.cwds], depth + 1, p, options, state);
    for (const q of parts) q.hookSource ??= hook.source;
    out.push(...parts);
  }
  return out;
}

function isInside(parsed: ParsedLine, c: SimpleCommand, owner: number): boolean {
  let cur: SimpleCommand | undefined = c;
  for (let i = 0; cur && i < 64; i++) {
    if (cur.substitutionOf === owner) return true;
    if (cur.substitutionOf === null || cur.substitutionOf < 0) return false;
    cur = parsed.commands[cur.substitutionOf];
  }
  return false;
}

function normalisePath(path: string): string {
  const parts: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") parts.pop();
    else parts.push(seg);
  }
  return "/" + parts.join("/");
}

/** Downloaders and decoders: what feeds code into a shell from elsewhere. */
export function feederKind(words: Word[]): string | undefined {
  const argv = words.map((w) => literal(w) ?? display(w));
  const unwrapped = unwrapWords(words);
  const a = unwrapped.words.map((w) => literal(w) ?? display(w));
  for (const v of [a, argv]) {
    const prog = basename(v[0] ?? "");
    if (DOWNLOADERS.has(prog)) return "downloaded";
    if (prog === "base64" || prog === "base32" || prog === "basenc") {
      if (v.some((x) => /^-[a-zA-Z]*[dD]/.test(x) || x === "--decode")) return "decoded";
    }
    if (prog === "xxd" && v.some((x) => /^-[a-z]*r/.test(x))) return "decoded";
    if (
      prog === "openssl" &&
      v.some((x) => x === "-d" || x === "-base64" || x === "base64" || x === "enc")
    ) return "decoded";
    if (
      prog === "uudecode" || prog === "rev" || prog === "tr" && v.length >= 3 && !v.includes("-d")
    ) return "decoded";
    if (/^(gunzip|zcat|bzcat|xzcat|zstdcat)$/.test(prog) || (prog === "gzip" && v.includes("-d"))) {
      return "decoded";
    }
  }
  return undefined;
}

const DOWNLOADERS = new Set([
  "curl",
  "wget",
  "fetch",
  "aria2c",
  "http",
  "https",
  "xh",
  "lwp-request",
  "GET",
  "lynx",
  "links",
  "nc",
  "ncat",
  "netcat",
  "socat",
  "ftp",
  "tftp",
  "scp",
  "sftp",
  "rsync",
  "ssh",
  "git-remote-http",
]);

// -- unwrapping ---------------------------------------------------------------

interface Unwrapped {
  /** `env NAME=value …`: the variables a wrapper sets for the program. */
  env?: Assignment[];
  words: Word[];
  wrappers: string[];
  argsAtRunTime: boolean;
  payload: { kind: string; words: Word[] } | null;
  readsStdin: boolean;
  /** find -exec and the like: more commands that run. */
  extra: Word[][];
}

const lit = (w: Word | undefined) => (w ? literal(w) : undefined);
/** A program's name for matching wrappers: without case (macOS finds /usr/bin/env for ENV). */
const base = (w: Word | undefined) => {
  const l = lit(w);
  return l === undefined ? "" : basename(l).toLowerCase();
};

/** Skip options: `withValue` options take the next word (or an attached value). */
function skipOptions(
  words: Word[],
  start: number,
  withValue: Set<string>,
): number {
  let i = start;
  while (i < words.length) {
    const l = lit(words[i]);
    if (l === undefined) return i;
    if (l === "--") return i + 1;
    if (!l.startsWith("-") || l === "-") return i;
    if (l.startsWith("--")) {
      const name = l.split("=")[0];
      if (!l.includes("=") && withValue.has(name)) i += 2;
      else i += 1;
      continue;
    }
    // A short option cluster as getopt reads it (-n5, -n 5, -xvf, -dmS name): the first letter
    // that takes a value takes the rest of the word, or the next word when it is the last.
    let takesNext = false;
    for (let k = 1; k < l.length; k++) {
      if (withValue.has(`-${l[k]}`)) {
        takesNext = k === l.length - 1;
        break;
      }
    }
    i += takesNext ? 2 : 1;
  }
  return i;
}

function set(...items: string[]): Set<string> {
  return new Set(items);
}

const SIMPLE_WRAPPERS: Record<string, Set<string>> = {
  nohup: set(),
  time: set("-o", "-f", "--output", "--format"),
  builtin: set(),
  setsid: set(),
  unbuffer: set(),
  caffeinate: set("-t", "-w"),
  nice: set("-n", "--adjustment"),
  ionice: set("-c", "-n", "--class", "--classdata"),
  stdbuf: set("-i", "-o", "-e", "--input", "--output", "--error"),
  exec: set("-a"),
  sudo: set(
    "-u",
    "-g",
    "-C",
    "-D",
    "-h",
    "-p",
    "-r",
    "-t",
    "-T",
    "-U",
    "--user",
    "--group",
    "--chdir",
    "--host",
    "--prompt",
    "--role",
    "--type",
    "--close-from",
    "--other-user",
  ),
  doas: set("-u", "-C"),
  pkexec: set("--user"),
  run0: set("--user", "-u"),
  strace: set("-o", "-p", "-e", "-s", "-E", "-u", "-a", "-b", "-I", "-O", "-P", "-S", "-X"),
  ltrace: set("-o", "-p", "-e", "-s", "-u", "-n", "-a", "-l"),
  chroot: set("--userspec", "--groups"),
  firejail: set(),
  "cross-env": set(),
  uvx: set("--from", "--with", "-p", "--python"),
  // -c/--call take the command line (payload_options.ts rates it), as they do for npx.
  bunx: set("-p", "--package", "-c", "--call"),
  pnpx: set("-c", "--call"),
  npx: set("-p", "--package", "-c", "--call"),
  arch: set(),
  // Programs that set something up and run the rest of their words as a command.
  runuser: set("-u", "--user", "-g", "--group", "-G", "--supp-group", "-s", "--shell", "-w"),
  unshare: set(
    "-S",
    "--setuid",
    "-G",
    "--setgid",
    "-R",
    "--root",
    "-w",
    "--wd",
    "--propagation",
    "--map-user",
    "--map-group",
    "--map-users",
    "--map-groups",
  ),
  nsenter: set("-t", "--target", "-S", "--setuid", "-G", "--setgid"),
  setpriv: set(
    "--reuid",
    "--regid",
    "--ruid",
    "--euid",
    "--rgid",
    "--egid",
    "--groups",
    "--inh-caps",
    "--ambient-caps",
    "--bounding-set",
    "--securebits",
    "--selinux-label",
    "--apparmor-profile",
    "--pdeathsig",
  ),
  fakeroot: set("-l", "--lib", "--faked", "-s", "-i", "-b"),
  "ssh-agent": set("-a", "-E", "-t", "-P", "-O"),
  "xvfb-run": set(
    "-n",
    "--server-num",
    "-s",
    "--server-args",
    "-f",
    "--auth-file",
    "-e",
    "--error-file",
    "-p",
    "--xauth-protocol",
  ),
  torsocks: set("-u", "-p", "-a", "-P", "--user", "--pass", "--address", "--port"),
  proxychains: set("-f"),
  proxychains4: set("-f"),
  numactl: set(
    "-C",
    "-N",
    "-m",
    "-p",
    "-i",
    "--physcpubind",
    "--cpunodebind",
    "--membind",
    "--preferred",
    "--interleave",
  ),
  prlimit: set("-p", "--pid"),
  "systemd-inhibit": set("--what", "--who", "--why", "--mode"),
  "dbus-run-session": set("--config-file", "--dbus-daemon"),
  chpst: set("-u", "-U", "-b", "-e", "-/", "-n", "-l", "-L", "-m", "-d", "-o", "-p", "-f", "-c"),
  catchsegv: set(),
  valgrind: set(),
  entr: set(),
};

/** systemd-run's options that take a value. */
const SYSTEMD_RUN_VALUES = set(
  "-u",
  "--unit",
  "-p",
  "--property",
  "-E",
  "--setenv",
  "--uid",
  "--gid",
  "--working-directory",
  "--slice",
  "--description",
  "-M",
  "--machine",
  "-H",
  "--host",
  "--on-active",
  "--on-boot",
  "--on-startup",
  "--on-unit-active",
  "--on-unit-inactive",
  "--on-calendar",
  "--timer-property",
  "--path-property",
  "--socket-property",
  "--service-type",
  "--nice",
);

/** Unwrap wrappers to the program that really runs, with the variables `env` sets for it. */
function unwrapWords(input: Word[]): Unwrapped {
  const env: Assignment[] = [];
  const out = unwrapInto(input, env);
  return env.length ? { ...out, env } : out;
}

/** `NAME=value` written as an argument of env: the assignment, the value a word of its own. */
function envAssignment(word: Word): Assignment | undefined {
  const first = word.segs[0];
  if (first?.kind !== "lit") return undefined;
  // env takes any name without `=`; bash hands functions down as BASH_FUNC_name%%.
  const m = /^([A-Za-z_][A-Za-z0-9_%]*)=/.exec(first.text);
  if (!m) return undefined;
  const rest = first.text.slice(m[0].length);
  const segs = [...(rest ? [{ ...first, text: rest }] : []), ...word.segs.slice(1)];
  return {
    name: m[1],
    value: { raw: word.raw.slice(word.raw.indexOf("=") + 1), segs },
  };
}

/**
 * What one step of unwrapping found about the program at the front of the
 * words: a wrapper whose command goes on (`next`), or the end of the search
 * (`end`: the words that run, with a payload of shell code or a script read
 * from stdin). Either may come with what the wrapper adds: its name, that
 * more arguments arrive at run time, commands of their own (find -exec), or
 * variables it sets (env NAME=value).
 */
interface UnwrapStep {
  wrapper?: string;
  next?: Word[];
  end?: UnwrapEnd;
  argsAtRunTime?: boolean;
  extra?: Word[][];
  env?: Assignment[];
}

/** Where unwrapping stops: the words that run, and what they run besides. */
interface UnwrapEnd {
  words: Word[];
  payload?: Unwrapped["payload"];
  readsStdin?: boolean;
}

/** One family of wrappers: how it names the command it runs. Pure. */
type UnwrapRule = (words: Word[], prog: string, input: Word[]) => UnwrapStep;

/**
 * Follow wrappers (env, nohup, timeout, xargs, npm exec, tmux, ssh, …) to the
 * program that really runs, one step per wrapper, gathering what each adds.
 * The variables `env` sets are pushed onto `env`.
 */
function unwrapInto(input: Word[], env: Assignment[]): Unwrapped {
  let words = input;
  const wrappers: string[] = [];
  let argsAtRunTime = false;
  const extra: Word[][] = [];
  const finish = (end: UnwrapEnd): Unwrapped => ({
    words: end.words,
    wrappers,
    argsAtRunTime,
    payload: end.payload ?? null,
    readsStdin: end.readsStdin ?? false,
    extra,
  });
  for (let guard = 0; guard < 24 && words.length > 0; guard++) {
    const step = unwrapStep(words, input);
    if (step.wrapper) wrappers.push(step.wrapper);
    if (step.argsAtRunTime) argsAtRunTime = true;
    if (step.extra) extra.push(...step.extra);
    if (step.env) env.push(...step.env);
    if (step.end) return finish(step.end);
    words = step.next ?? [];
  }
  return finish({ words });
}

/** The step for the program at the front of `words`. Pure. */
function unwrapStep(words: Word[], input: Word[]): UnwrapStep {
  const prog = base(words[0]);
  // The plain wrappers come first (npx, pnpx and bunx are among them; their -c is rated as a
  // payload option, payload_options.ts).
  if (Object.hasOwn(SIMPLE_WRAPPERS, prog)) return simpleWrapperStep(words, prog, input);
  const rule = UNWRAP_RULE_OF.get(prog);
  if (rule) return rule(words, prog, input);
  if (SHELLS.has(prog)) return { end: shellInvocation(words) };
  return { end: { words } };
}

/** The wrappers with rules of their own (the programs' names separated by spaces). */
const UNWRAP_RULES: ReadonlyArray<readonly [programs: string, rule: UnwrapRule]> = [
  ["env", envStep],
  ["command", commandStep],
  ["timeout gtimeout", timeoutStep],
  ["chrt taskset", schedulerStep],
  ["flock", flockStep],
  ["xargs", xargsStep],
  ["su", suStep],
  ["watch", watchStep],
  ["parallel", parallelStep],
  ["find", findStep],
  ["systemd-run", systemdRunStep],
  ["fd fdfind", fdStep],
  ["npm pnpm yarn bun", packageManagerStep],
  ["uv poetry pdm hatch rye pipx bundle pyenv rbenv mise asdf devbox direnv", projectRunnerStep],
  ["nix-shell nix", nixStep],
  ["script", scriptStep],
  ["dotenv", dotenvStep],
  ["busybox", busyboxStep],
  ["tmux", tmuxStep],
  ["screen", screenStep],
  ["ssh", sshStep],
  ["osascript", osascriptStep],
  ["trap", trapStep],
  ["coproc", coprocStep],
  ["eval", evalStep],
  ["source .", sourceStep],
];

const UNWRAP_RULE_OF = new Map(
  UNWRAP_RULES.flatMap(([programs, rule]) =>
    programs.split(" ").map((program) => [program, rule] as const)
  ),
);

/** The index of the word after the first `-c`/`--command` (or `--call`) past the program. */
function commandOptionAt(words: Word[], names: string[]): number {
  return words.findIndex((w, k) => k > 0 && names.includes(lit(w) ?? ""));
}

/** env [-i] [-u NAME] [NAME=value…] [-S LINE] COMMAND…: the variables, then the command. */
function envStep(words: Word[]): UnwrapStep {
  const env: Assignment[] = [];
  let i = 1;
  while (i < words.length) {
    const first = words[i].segs[0];
    if (first?.kind === "lit" && /^[A-Za-z_][A-Za-z0-9_%]*=/.test(first.text)) {
      const a = envAssignment(words[i]);
      if (a) env.push(a);
      i += 1; // NAME=value, whatever the value
      continue;
    }
    const l = lit(words[i]);
    if (l === undefined) break;
    if (l === "--") {
      i++;
      break;
    }
    if (
      l === "-S" || l === "--split-string" || l.startsWith("--split-string=") ||
      (l.startsWith("-S") && l.length > 2)
    ) {
      const value = l === "-S" || l === "--split-string"
        ? words[i + 1]
        : litWord(l.replace(/^-S|^--split-string=/, ""));
      const after = words.slice(l === "-S" || l === "--split-string" ? i + 2 : i + 1);
      return {
        wrapper: "env",
        env,
        end: { words, payload: { kind: "env -S", words: [value ?? litWord(""), ...after] } },
      };
    }
    if (["-u", "--unset", "-C", "--chdir", "-P"].includes(l)) i += 2;
    else if (l.startsWith("-")) i += 1;
    else if (/^[A-Za-z_][A-Za-z0-9_%]*=/.test(l)) i += 1;
    else break;
  }
  if (i >= words.length) return { wrapper: "env", env, end: { words: words.slice(0, 1) } };
  return { wrapper: "env", env, next: words.slice(i) };
}

/** command [-p] COMMAND…; `command -v` only looks a name up. */
function commandStep(words: Word[]): UnwrapStep {
  const i = skipOptions(words, 1, set());
  const flags = words.slice(1, i).map((w) => lit(w) ?? "");
  if (flags.some((f) => /^-[a-zA-Z]*[vV]/.test(f))) return { end: { words } };
  if (i >= words.length) return { end: { words } };
  return { wrapper: "command", next: words.slice(i) };
}

/** nohup, nice, sudo, strace, chroot, arch, …: options, then the command. */
function simpleWrapperStep(words: Word[], prog: string, input: Word[]): UnwrapStep {
  const i = skipOptions(words, 1, SIMPLE_WRAPPERS[prog]);
  if (i >= words.length) return { end: { words } };
  if (prog === "chroot") {
    // chroot NEWROOT COMMAND…
    const next = words.slice(i + 1);
    return next.length === 0 ? { wrapper: prog, end: { words: input } } : { wrapper: prog, next };
  }
  if (prog === "arch" && /^-/.test(lit(words[i]) ?? "")) {
    // arch -- -arm64 COMMAND…: the architecture after `--` (or a lone `-`) is not the command.
    return { wrapper: prog, next: words.slice(i + 1) };
  }
  return { wrapper: prog, next: words.slice(i) };
}

/** timeout [options] DURATION COMMAND… */
function timeoutStep(words: Word[], prog: string): UnwrapStep {
  let i = skipOptions(words, 1, set("-s", "-k", "--signal", "--kill-after"));
  i += 1; // the duration
  if (i >= words.length) return { end: { words } };
  return { wrapper: prog, next: words.slice(i) };
}

/** chrt PRIORITY COMMAND…, taskset MASK COMMAND…; with -p they change a running process. */
function schedulerStep(words: Word[], prog: string): UnwrapStep {
  let i = skipOptions(words, 1, set());
  const flags = words.slice(1, i).map((w) => lit(w) ?? "");
  if (flags.some((f) => f === "-p" || f === "--pid")) return { end: { words } };
  i += 1;
  if (i >= words.length) return { end: { words } };
  return { wrapper: prog, next: words.slice(i) };
}

/** flock FILE COMMAND…, or flock FILE -c LINE (shell code). */
function flockStep(words: Word[], prog: string): UnwrapStep {
  const i = skipOptions(words, 1, set("-w", "--timeout", "-E", "--conflict-exit-code"));
  const cIdx = commandOptionAt(words, ["-c", "--command"]);
  if (cIdx > 0 && words[cIdx + 1]) {
    return { end: { words, payload: { kind: "flock -c", words: [words[cIdx + 1]] } } };
  }
  if (i + 1 >= words.length) return { end: { words } };
  return { wrapper: prog, next: words.slice(i + 1) };
}

/** xargs [options] [COMMAND…]: the arguments arrive at run time; no command is echo. */
function xargsStep(words: Word[]): UnwrapStep {
  const i = skipOptions(
    words,
    1,
    set(
      "-I",
      "-n",
      "-P",
      "-L",
      "-d",
      "-a",
      "-E",
      "-s",
      "--arg-file",
      "--delimiter",
      "--max-args",
      "--max-procs",
      "--max-lines",
      "--max-chars",
      "--eof",
      "--replace",
      "--process-slot-var",
    ),
  );
  return {
    wrapper: "xargs",
    argsAtRunTime: true,
    next: i >= words.length ? [litWord("echo")] : words.slice(i),
  };
}

/** su [user] -c LINE: shell code. */
function suStep(words: Word[]): UnwrapStep {
  const cIdx = commandOptionAt(words, ["-c", "--command"]);
  if (cIdx > 0 && words[cIdx + 1]) {
    return { end: { words, payload: { kind: "su -c", words: [words[cIdx + 1]] } } };
  }
  return { end: { words } };
}

/** watch [options] LINE (shell code), or with -x the command itself. */
function watchStep(words: Word[], _prog: string, input: Word[]): UnwrapStep {
  const i = skipOptions(words, 1, set("-n", "--interval", "-q", "--equexit"));
  if (i >= words.length) return { end: { words } };
  const flags = words.slice(1, i).map((w) => lit(w) ?? "");
  if (flags.some((f) => f === "-x" || f === "--exec")) {
    return { wrapper: "watch", next: words.slice(i) };
  }
  return {
    wrapper: "watch",
    end: { words: input, payload: { kind: "watch", words: words.slice(i) } },
  };
}

/** parallel [options] COMMAND… ::: ARGS: the command, or one line per input on stdin. */
function parallelStep(words: Word[], _prog: string, input: Word[]): UnwrapStep {
  const i = skipOptions(
    words,
    1,
    set(
      "-j",
      "--jobs",
      "-S",
      "--sshlogin",
      "--joblog",
      "-a",
      "--arg-file",
      "--delay",
      "--timeout",
      "-n",
      "--max-args",
      "-d",
      "--delimiter",
      "-I",
      "--results",
    ),
  );
  const end = words.findIndex((w, k) => k >= i && /^:::+$/.test(lit(w) ?? ""));
  const cmdWords = words.slice(i, end < 0 ? words.length : end);
  if (cmdWords.length === 0) {
    return { wrapper: "parallel", argsAtRunTime: true, end: { words: input, readsStdin: true } };
  }
  return {
    wrapper: "parallel",
    argsAtRunTime: true,
    end: { words: input, payload: { kind: "parallel", words: cmdWords } },
  };
}

/** find itself runs; each -exec … ; is a command of its own. */
function findStep(words: Word[]): UnwrapStep {
  const extra: Word[][] = [];
  for (let i = 1; i < words.length; i++) {
    const l = lit(words[i]);
    if (l === "-exec" || l === "-execdir" || l === "-ok" || l === "-okdir") {
      let j = i + 1;
      while (j < words.length && !/^(;|\+|\\;)$/.test(lit(words[j]) ?? "")) j++;
      extra.push(words.slice(i + 1, j));
      i = j;
    }
  }
  return { extra, end: { words } };
}

/** Without --user systemd-run runs as root (the policy refuses it); with it, the rest is a command. */
function systemdRunStep(words: Word[]): UnwrapStep {
  if (!words.some((w) => lit(w) === "--user")) return { end: { words } };
  const i = skipOptions(words, 1, SYSTEMD_RUN_VALUES);
  if (i >= words.length) return { end: { words } };
  return { wrapper: "systemd-run --user", next: words.slice(i) };
}

/** fd -x CMD… / -X CMD… runs a command on what it finds, like find -exec. */
function fdStep(words: Word[]): UnwrapStep {
  const at = words.findIndex((w, k) => k > 0 && /^(-x|--exec|-X|--exec-batch)$/.test(lit(w) ?? ""));
  if (at > 0) {
    let j = at + 1;
    while (j < words.length && !/^(;|\\;)$/.test(lit(words[j]) ?? "")) j++;
    return { extra: [words.slice(at + 1, j)], end: { words } };
  }
  return { end: { words } };
}

/** npm/pnpm/yarn/bun exec|dlx|x COMMAND…, or with -c/--call LINE (shell code). */
function packageManagerStep(words: Word[], prog: string): UnwrapStep {
  const verbIdx = skipOptions(
    words,
    1,
    set("--prefix", "-C", "--dir", "--cwd", "--filter", "-w", "--workspace"),
  );
  const verb = lit(words[verbIdx]);
  if (verb !== "exec" && verb !== "dlx" && verb !== "x") return { end: { words } };
  const i = skipOptions(words, verbIdx + 1, set("-p", "--package", "-c", "--call"));
  const cIdx = words.findIndex((w, k) => k > verbIdx && (lit(w) === "-c" || lit(w) === "--call"));
  if (cIdx > 0 && words[cIdx + 1]) {
    return { end: { words, payload: { kind: `${prog} exec -c`, words: [words[cIdx + 1]] } } };
  }
  if (i >= words.length) return { end: { words } };
  return { wrapper: `${prog} ${verb}`, next: words.slice(i) };
}

/** uv run, poetry run, bundle exec, mise x, direnv exec DIR, …: the command after the verb. */
function projectRunnerStep(words: Word[], prog: string): UnwrapStep {
  const verb = lit(words[1]);
  const runVerb = (prog === "bundle" || prog === "pyenv" || prog === "rbenv" || prog === "asdf")
    ? "exec"
    : prog === "mise"
    ? (verb === "x" ? "x" : "exec")
    : "run";
  if (verb !== runVerb && !(prog === "direnv" && verb === "exec")) return { end: { words } };
  let i = skipOptions(
    words,
    2,
    set(
      "--with",
      "--python",
      "-p",
      "--from",
      "--env-file",
      "--group",
      "--extra",
      "--package",
      "--directory",
    ),
  );
  if (prog === "direnv") i += 1;
  if (i >= words.length) return { end: { words } };
  return { wrapper: `${prog} ${verb}`, next: words.slice(i) };
}

/** nix-shell --run LINE, nix … --command LINE: shell code. */
function nixStep(words: Word[], prog: string): UnwrapStep {
  const rIdx = words.findIndex((w) =>
    lit(w) === "--run" || lit(w) === "--command" || lit(w) === "-c"
  );
  if (rIdx > 0 && words[rIdx + 1]) {
    return { end: { words, payload: { kind: `${prog} --run`, words: [words[rIdx + 1]] } } };
  }
  return { end: { words } };
}

/** script -c CMD, --command CMD, and -c inside a cluster of short options (-qec CMD). */
function scriptStep(words: Word[]): UnwrapStep {
  const cIdx = words.findIndex((w, k) =>
    k > 0 && (lit(w) === "--command" || /^-[A-Za-z]*c$/.test(lit(w) ?? ""))
  );
  if (cIdx > 0 && words[cIdx + 1]) {
    return { end: { words, payload: { kind: "script -c", words: [words[cIdx + 1]] } } };
  }
  return { end: { words } };
}

/** dotenv [options] -- COMMAND… */
function dotenvStep(words: Word[]): UnwrapStep {
  const dd = words.findIndex((w) => lit(w) === "--");
  if (dd > 0 && dd + 1 < words.length) return { wrapper: "dotenv", next: words.slice(dd + 1) };
  return { end: { words } };
}

/** busybox APPLET…; busybox alone is a shell. */
function busyboxStep(words: Word[]): UnwrapStep {
  if (words.length > 1) return { wrapper: "busybox", next: words.slice(1) };
  return { end: shellInvocation(words) };
}

/** tmux new-session 'cmd', tmux send-keys 'cmd' Enter: shell code it starts. */
function tmuxStep(words: Word[]): UnwrapStep {
  const lits = words.map((w) => lit(w) ?? "");
  const verbAt = lits.findIndex((l, k) =>
    k > 0 &&
    /^(new|new-session|new-window|neww|split-window|splitw|respawn-pane|respawn-window|run-shell|run|send-keys|send)$/
      .test(l)
  );
  if (verbAt > 0) {
    const rest = words.slice(verbAt + 1).filter((w, k, all) => {
      const l = lit(w) ?? "";
      const prev = lit(all[k - 1]) ?? "";
      return !l.startsWith("-") && !/^-[stncxyeFlcpPT]$/.test(prev) &&
        !/^(Enter|C-m|KPEnter)$/.test(l);
    });
    if (rest.length > 0) {
      return { end: { words, payload: { kind: `tmux ${lits[verbAt]}`, words: rest } } };
    }
  }
  return { end: { words } };
}

/** screen -dm COMMAND…: the command it starts. */
function screenStep(words: Word[]): UnwrapStep {
  const i = skipOptions(
    words,
    1,
    set("-S", "-c", "-e", "-h", "-L", "-Logfile", "-p", "-t", "-T", "-x", "-X", "-r", "-R", "-ls"),
  );
  if (i < words.length) return { wrapper: "screen", next: words.slice(i) };
  return { end: { words } };
}

/** The remote command is shell code too: ssh host 'rm -rf /' runs it there. */
function sshStep(words: Word[]): UnwrapStep {
  const i = skipOptions(
    words,
    1,
    set(
      "-b",
      "-c",
      "-D",
      "-E",
      "-e",
      "-F",
      "-I",
      "-i",
      "-J",
      "-L",
      "-l",
      "-m",
      "-O",
      "-o",
      "-p",
      "-Q",
      "-R",
      "-S",
      "-W",
      "-w",
    ),
  );
  const remote = words.slice(i + 1);
  if (remote.length > 0) {
    return { end: { words, payload: { kind: "ssh remote command", words: remote } } };
  }
  return { end: { words } };
}

/** osascript -e '… do shell script "LINE" …': shell code. */
function osascriptStep(words: Word[]): UnwrapStep {
  const code = words.slice(1).map((w) => lit(w) ?? "").join("\n").slice(0, CODE_SCAN_LIMIT);
  const m = /do shell script\s+"((?:[^"\\]|\\.)*)"/i.exec(code);
  if (m) {
    return {
      end: {
        words,
        payload: { kind: "do shell script", words: [litWord(m[1].replace(/\\(.)/g, "$1"))] },
      },
    };
  }
  return { end: { words } };
}

/** trap [-lp] [[handler] signal…]: the handler is shell code run later, in this shell. */
function trapStep(words: Word[]): UnwrapStep {
  const i = skipOptions(words, 1, set());
  const handler = words[i];
  if (handler && words.length > i + 1 && lit(handler) !== "-") {
    return { end: { words, payload: { kind: "trap", words: [handler] } } };
  }
  return { end: { words } };
}

/** coproc [NAME] { …; }: what follows runs in the background; `{` and `}` are syntax. */
function coprocStep(words: Word[]): UnwrapStep {
  const at = lit(words[1]) === "{" ? 2 : lit(words[2]) === "{" ? 3 : 1;
  if (at >= words.length) return { end: { words } };
  return { wrapper: "coproc", next: words.slice(at) };
}

/** eval WORDS…: shell code. */
function evalStep(words: Word[]): UnwrapStep {
  return { end: { words, payload: { kind: "eval", words: words.slice(1) } } };
}

/** source FILE / . FILE: a script from stdin when the file is stdin. */
function sourceStep(words: Word[]): UnwrapStep {
  const target = lit(words[1]);
  const readsStdin = target === "/dev/stdin" || target === "-" || target === "/proc/self/fd/0";
  return { end: { words, readsStdin } };
}

/** sh/bash/… -c LINE (shell code), or a script read from stdin. */
function shellInvocation(w: Word[]): UnwrapEnd {
  let i = 1;
  let command: Word | null = null;
  let readsStdin = false;
  let sawC = false;
  while (i < w.length) {
    const l = lit(w[i]);
    if (l === undefined) break;
    if (l === "--" || l === "-") {
      i++;
      if (l === "-") readsStdin = true;
      break;
    }
    if (
      /^--(rcfile|init-file)$/.test(l) || l === "-o" || l === "+o" || l === "-O" || l === "+O"
    ) {
      i += 2;
      continue;
    }
    if (l === "-c" || l === "--command" || (/^-[a-zA-Z]+$/.test(l) && l.includes("c"))) {
      sawC = true;
      i++;
      continue;
    }
    if (/^-[a-zA-Z]*s[a-zA-Z]*$/.test(l)) readsStdin = true;
    if (l.startsWith("-") || l.startsWith("+")) {
      i++;
      continue;
    }
    break;
  }
  if (sawC) {
    command = w[i] ?? null;
    return {
      words: w,
      payload: { kind: `${base(w[0])} -c`, words: command ? [command] : [] },
      readsStdin: false,
    };
  }
  if (i >= w.length || /^\/(dev\/stdin|dev\/fd\/0|proc\/self\/fd\/0)$/.test(lit(w[i]) ?? "")) {
    readsStdin = true;
  }
  return { words: w, readsStdin };
}

/**
 * The parts a simple command runs: the program itself after its wrappers,
 * with its hooks and the payload it carries, and one part more for each
 * command it starts of its own (find -exec, fd -x).
 */
function partsOf(
  cmd: SimpleCommand,
  words: Word[],
  vars: Vars,
  cwds: string[],
  depth: number,
  carrier: Part | null,
  parsed: ParsedLine,
  _byCmd: Map<number, Part[]>,
  options: AnalyseOptions,
  _state: AnalyseState,
): Part[] {
  const u = unwrapWords(expandBraces(words));
  const { effective, dynamicProgram } = resolveProgramWord(u, vars, options);
  const make = (given: Word[], extraWrappers: string[] = [], runTime = u.argsAtRunTime): Part => {
    const w = spellOutOptions(given);
    const programPath = w[0] ? (literal(w[0]) ?? display(w[0])) : "";
    return {
      cmd,
      text: cmd.text,
      words: w,
      argv: w.map((x) => literal(x) ?? display(x)),
      program: w[0] && (!isDynamic(w[0]) || literalOf(w[0], vars, options.userHome) !== undefined)
        ? basename(literalOf(w[0], vars, options.userHome) ?? programPath)
        : "",
      programPath,
      wrappers: [...u.wrappers, ...extraWrappers],
      dynamicProgram: dynamicProgram || (w[0] ? isDynamic(w[0]) : false),
      vars,
      cwds,
      depth,
      carrier,
      upstream: [],
      substitutions: [],
      argsAtRunTime: runTime,
      payloadKind: null,
      payload: null,
      payloadDynamic: false,
      payloadError: null,
      readsScriptFromStdin: false,
      assignments: u.env ? [...cmd.assignments, ...u.env] : cmd.assignments,
      hooks: [],
    };
  };
  const main = make(effective);
  attachHooks(main, cmd, words, vars, cwds, options);
  attachPayload(main, u, cmd, parsed, effective, vars, options);
  const parts = [main];
  for (const e of u.extra) {
    if (e.length === 0) continue;
    const inner = unwrapWords(e);
    const p = make(inner.words, ["find -exec", ...inner.wrappers], true);
    if (inner.payload) {
      p.payloadKind = inner.payload.kind;
      const texts = inner.payload.words.map((w) => literal(w));
      if (texts.every((t) => t !== undefined)) p.payload = texts.join(" ");
      else p.payloadDynamic = true;
    }
    parts.push(p);
  }
  return parts;
}

/**
 * A program named by a variable the line set to a literal is that program; a
 * glob is whatever matches it when the line runs, taken to be the worst
 * program it could name (expand.ts). What the named program unwraps to is
 * added to `u`.
 */
function resolveProgramWord(
  u: Unwrapped,
  vars: Vars,
  options: AnalyseOptions,
): { effective: Word[]; dynamicProgram: boolean } {
  let effective = u.words;
  let dynamicProgram = false;
  const globbed = effective.length > 0 && !isDynamic(effective[0]) && hasGlob(effective[0]);
  if (effective.length > 0 && (isDynamic(effective[0]) || globbed)) {
    const list = globbed ? undefined : listExpansion(effective[0], vars);
    const r = globbed
      ? { value: globProgramCandidate(effective[0]) ?? "", unknown: true }
      : list !== undefined
      ? { value: list.join(" "), unknown: false }
      : resolveWord(effective[0], vars, options.userHome);
    const echoed = globbed ? undefined : echoedSubstitution(effective[0]);
    if (r.unknown && echoed !== undefined) {
      r.value = echoed;
      r.unknown = false;
    }
    // `${X:-sudo}`: when X is unknown, the word it falls back to is one possible program.
    const fallback = r.unknown && !globbed ? defaultWord(effective[0]) : undefined;
    if (fallback !== undefined) r.value = fallback;
    // A value the line set is known; one the environment gives is chosen outside the line.
    dynamicProgram = r.unknown || fromEnvironment(effective[0], vars, options);
    if (!r.unknown || ((globbed || fallback !== undefined) && r.value !== "")) {
      // An unquoted expansion is split into fields at IFS's characters: `$cmd` may be many words.
      const fields = globbed ? [r.value] : list ?? splitFields(effective[0], r.value, vars);
      const again = unwrapWords([...fields.map(litWord), ...effective.slice(1)]);
      effective = again.words;
      u.wrappers.push(...again.wrappers);
      if (again.payload && !u.payload) u.payload = again.payload;
      u.readsStdin ||= again.readsStdin;
      if (again.env) u.env = [...(u.env ?? []), ...again.env];
    }
  }
  return { effective, dynamicProgram };
}

/**
 * The hooks of the main part: variables that make it run something, git's
 * settings and -C folders, options that name a command, and the commands
 * inline code runs.
 */
function attachHooks(
  main: Part,
  cmd: SimpleCommand,
  words: Word[],
  vars: Vars,
  cwds: string[],
  options: AnalyseOptions,
): void {
  if (main.assignments.length > 0) {
    main.hooks = envHookUses(main.assignments, vars, options.userHome);
  }
  if (main.program === "git") {
    const git = gitOptionUses(main.words, vars, options.userHome);
    if (git.uses.length > 0) main.hooks = [...main.hooks, ...git.uses];
    main.gitChdirs = git.dynamicChdir ? null : git.chdirs;
  }
  // Options that name a command to run, and the commands inline code runs: payloads too.
  const optionUses = [
    ...payloadOptionUses(main.program, main.words, vars, options.userHome),
    ...remotePackageUses(words, vars, options.userHome),
  ];
  if (optionUses.length > 0) main.hooks = [...main.hooks, ...optionUses];
  if (INTERPRETERS.has(main.program) || /^[gmn]?awk$/.test(main.program)) {
    // Code on the command line, or on stdin from a here-doc or here-string.
    const stdinCode = cmd.heredoc?.body ??
      (cmd.herestring ? literal(cmd.herestring) ?? "" : "");
    const code = [...main.words.slice(1).map((w) => literal(w) ?? ""), stdinCode].join("\n");
    const shellouts = codeShellouts(main.program, code, cwds);
    if (shellouts.length > 0) main.hooks = [...main.hooks, ...shellouts];
  }
  globbedOptions(main);
}

/**
 * The payload the main part carries: shell code given to it (sh -c, eval, …),
 * or read on its stdin from a here-doc, a here-string, an echo piped in, or a
 * process substitution; a script it reads from stdin otherwise.
 */
function attachPayload(
  main: Part,
  u: Unwrapped,
  cmd: SimpleCommand,
  parsed: ParsedLine,
  effective: Word[],
  vars: Vars,
  options: AnalyseOptions,
): void {
  let payloadWords: Word[] | null = u.payload ? u.payload.words : null;
  let payloadKind = u.payload?.kind ?? null;
  const isShellReader = u.readsStdin || main.program === "at" || main.program === "batch" ||
    makefileFromStdin(main) ||
    (main.program !== "" && SHELLS.has(main.program) && effective.length === 1);
  if (isShellReader && !payloadWords) {
    if (cmd.heredoc) {
      payloadKind = "here-doc";
      payloadWords = [litWord(cmd.heredoc.body)];
      if (cmd.heredoc.expands && /[$`]/.test(cmd.heredoc.body)) main.payloadDynamic = true;
    } else if (cmd.herestring) {
      payloadKind = "here-string";
      payloadWords = [cmd.herestring];
    } else if (cmd.pipeIn) {
      const feeders = cmd.upstream.map((id) => parsed.commands[id]);
      const lastFeeder = feeders[feeders.length - 1];
      const echoed = lastFeeder && feeders.length === 1 ? echoedText(lastFeeder.words) : undefined;
      if (echoed !== undefined) {
        payloadKind = "echo |";
        payloadWords = [litWord(echoed)];
      } else main.readsScriptFromStdin = true;
    } else if (cmd.redirects.some((r) => r.op === "<" && r.target)) {
      main.readsScriptFromStdin = true;
    } else if (main.program !== "" && SHELLS.has(main.program)) {
      // A bare shell with stdin closed does nothing; reading from the terminal is not possible here.
    }
  }
  // `bash <(…)`, `source <(…)`: the script is what the substitution prints.
  if (!payloadWords && !main.readsScriptFromStdin && readsSubstitution(main)) {
    const text = processSubstitutionEcho(main);
    if (text !== undefined) {
      payloadKind = "<(echo)";
      payloadWords = [litWord(text)];
    } else main.readsScriptFromStdin = true;
  }
  if (payloadWords) {
    main.payloadKind = payloadKind;
    const texts = payloadWords.map((w) => literalOf(w, vars, options.userHome));
    if (payloadWords.length === 0) main.payload = "";
    else if (texts.every((t) => t !== undefined)) main.payload = texts.join(" ");
    else main.payloadDynamic = true;
  }
}

/**
 * `"$@"`, `"${arr[@]}"`, `${arr[0]}` when the line set them (`set -- a b`, `arr=(a b)`): the
 * words they stand for. Elements are kept apart by spaces (parse.ts), so an element holding a
 * space reads as two words, which only ever names more programs.
 */
function listExpansion(word: Word, vars: Vars): string[] | undefined {
  const raw = word.raw.replace(/^"(.*)"$/s, "$1");
  const m = /^\$(?:([@*])|\{([@*])\}|\{([A-Za-z_]\w*)\[([@*]|\d+)\]\})$/.exec(raw);
  if (!m) return undefined;
  const v = vars.get(m[1] ?? m[2] ?? m[3]);
  if (!v || !("value" in v)) return undefined;
  const items = v.value.split(" ").filter((x) => x !== "");
  if (m[4] === undefined || m[4] === "@" || m[4] === "*") return items.length ? items : undefined;
  const at = items[Number(m[4])];
  return at === undefined ? undefined : [at];
}

/**
 * The fields an expanded word splits into: at IFS's characters (space, tab and newline unless the
 * line set IFS) when part of it came from an unquoted expansion; the whole value otherwise.
 */
function splitFields(word: Word, value: string, vars: Vars): string[] {
  if (!word.segs.some((s) => (s.kind === "var" || s.kind === "sub") && !s.quoted)) return [value];
  const ifs = vars.get("IFS");
  const chars = ifs && "value" in ifs ? ifs.value : " \t\n";
  if (chars === "") return [value];
  const escaped = [...chars].map((c) => c.replace(/[\\\]^-]/g, "\\$&")).join("");
  const fields = value.split(new RegExp(`[${escaped}]+`)).filter((f) => f !== "");
  return fields.length > 0 ? fields : [value];
}

/**
 * `make -f -`, `make --file=/dev/stdin`: the Makefile, and so its recipes, come from stdin. A
 * here-doc or here-string is read as shell (its rules' names are unknown programs, its recipes
 * commands); a pipe is code the gate cannot see.
 */
function makefileFromStdin(part: Part): boolean {
  if (part.program !== "make" && part.program !== "gmake") return false;
  const args = part.argv.slice(1);
  const stdin = /^(-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;
  return args.some((a, i) =>
    ((a === "-f" || a === "--file" || a === "--makefile") && stdin.test(args[i + 1] ?? "")) ||
    /^(-f|--file=|--makefile=)/.test(a) && stdin.test(a.replace(/^(-f|--file=|--makefile=)/, ""))
  );
}

/** The script word of a shell or `source`, when it is a process substitution `<(…)`. */
function scriptSubstitution(part: Part): Word | undefined {
  const isShell = SHELLS.has(part.program);
  if (!isShell && part.program !== "source" && part.program !== ".") return undefined;
  const script = part.words.slice(1).find((w) => !(literal(w) ?? "").startsWith("-"));
  if (!script || script.segs.length !== 1) return undefined;
  const seg = script.segs[0];
  return seg.kind === "sub" && seg.text.startsWith("<(") ? script : undefined;
}

function readsSubstitution(part: Part): boolean {
  return scriptSubstitution(part) !== undefined;
}

/** What `<(echo …)` prints, when it is all literal. */
function processSubstitutionEcho(part: Part): string | undefined {
  const seg = scriptSubstitution(part)!.segs[0] as { text: string };
  return echoedSubstitutionText("$(" + seg.text.slice(2));
}

/** A variable `printf -v NAME FORMAT …` or `read [-r] NAME <<< literal` sets, when it is static. */
function staticAssignment(part: Part): { name: string; value: string } | undefined {
  const a = part.argv;
  if (part.program === "printf" && a[1] === "-v" && a.length >= 4 && /^\w+$/.test(a[2])) {
    const text = echoedText([litWord("printf"), ...part.words.slice(3)]);
    return text === undefined ? undefined : { name: a[2], value: text };
  }
  if (part.program === "read" && part.cmd.herestring) {
    const names = a.slice(1).filter((x) => x !== "-r");
    const value = literal(part.cmd.herestring);
    if (names.length === 1 && /^\w+$/.test(names[0]) && value !== undefined) {
      return { name: names[0], value: value.trim() };
    }
  }
  return undefined;
}

/** The literal fallback of `${X:-word}`, `${X-word}`, `${X:=word}`, `${X:+word}` as a program word. */
function defaultWord(word: Word): string | undefined {
  const raw = word.raw.replace(/^"(.*)"$/s, "$1");
  const m = /^\$\{[A-Za-z_]\w*:?[-=+]([^$`{}"']*)\}$/.exec(raw);
  return m && m[1].trim() !== "" ? m[1].trim() : undefined;
}

/**
 * Options spelled with a glob (`find / -del*`, `rm -[rf][rf] x`): bash makes them whatever file
 * names match, which the line itself may create, so each is dangerous; when the glob matches one
 * of the program's consequential options it is read as that option, so a refusal still applies.
 */
function globbedOptions(part: Part): void {
  for (let i = 1; i < part.words.length; i++) {
    const w = part.words[i];
    if (literal(w) === "--") break;
    if (!isGlobbedOption(w)) continue;
    part.hooks.push({
      source: display(w),
      runs: "an option chosen by the files that match it",
      level: "dangerous",
      reason: `the option ${
        display(w)
      } holds a glob, so it becomes whatever file names match it when the line runs`,
    });
    const option = globOptionCandidate(part.program, w);
    if (option !== undefined) {
      part.words = [...part.words.slice(0, i), litWord(option), ...part.words.slice(i + 1)];
      part.argv = [...part.argv.slice(0, i), option, ...part.argv.slice(i + 1)];
    }
  }
}

/** A command's words with abbreviated long options spelled out (options.ts), up to `--`. */
function spellOutOptions(words: Word[]): Word[] {
  const prog = base(words[0]);
  if (!Object.hasOwn(LONG_OPTIONS, prog)) return words;
  let out: Word[] | undefined;
  for (let i = 1; i < words.length; i++) {
    const l = literal(words[i]);
    if (l === "--") break;
    if (l === undefined || !l.startsWith("--")) continue;
    const full = spellOutLongOption(prog, l);
    if (full === l) continue;
    out ??= [...words];
    out[i] = litWord(full);
  }
  return out ?? words;
}

/** Does the word use a variable whose value is still the one the environment gave? */
function fromEnvironment(word: Word, vars: Vars, options: AnalyseOptions): boolean {
  return word.segs.some((seg) => {
    if (seg.kind !== "var") return false;
    const given = seg.name === "HOME"
      ? options.userHome
      : seg.name === "PWD"
      ? options.cwd
      : options.env?.[seg.name];
    const now = vars.get(seg.name);
    return given !== undefined && now !== undefined && "value" in now && now.value === given;
  });
}

function literalOf(w: Word, vars: Vars, userHome: string): string | undefined {
  const l = literal(w);
  if (l !== undefined) return l;
  const r = resolveWord(w, vars, userHome);
  return r.unknown || r.globRegex ? undefined : r.value;
}

/** The text `echo …` or `printf …` writes, when it is all literal. */
export function echoedText(words: Word[]): string | undefined {
  const prog = base(words[0]);
  if (prog !== "echo" && prog !== "printf") return undefined;
  // Literal text, with a leading ~ kept as ~ (the caller expands it).
  const args = words.slice(1).map((w) =>
    w.segs.every((x, i) => x.kind === "lit" || (i === 0 && x.kind === "tilde" && x.user === ""))
      ? w.segs.map((x) => (x.kind === "lit" ? x.text : "~")).join("")
      : undefined
  );
  if (args.some((a) => a === undefined)) return undefined;
  let list = args as string[];
  if (prog === "echo") {
    let escapes = false;
    while (list.length && /^-[neE]+$/.test(list[0])) {
      if (list[0].includes("e")) escapes = true;
      list = list.slice(1);
    }
    const text = list.join(" ");
    return escapes ? decodeAnsiC(text) : text;
  }
  // printf: the format's escapes, with %s and %b filled from the arguments in turn.
  const [format = "", ...rest] = list;
  let k = 0;
  const filled = format.replace(
    /%[-0-9.]*([sbdc%])/g,
    (_m, c: string) => (c === "%" ? "%" : (rest[k++] ?? "")),
  );
  return decodeAnsiC(filled + (k < rest.length ? rest.slice(k).join("") : ""));
}

/** `$(echo sudo)`, `` `printf '\x73udo'` ``: the text a program word made only of a literal echo gives. */
function echoedSubstitution(word: Word): string | undefined {
  if (word.segs.length !== 1 || word.segs[0].kind !== "sub") return undefined;
  return echoedSubstitutionText(word.segs[0].text);
}

const echoedCache = new Map<string, string | undefined>();

/** What `$(echo …)` or `` `printf …` `` prints, when it is all literal; undefined otherwise. */
function echoedSubstitutionText(raw: string): string | undefined {
  if (echoedCache.has(raw)) return echoedCache.get(raw);
  let value: string | undefined;
  try {
    value = echoedSubstitutionUncached(raw);
  } catch (e) {
    // Not cached: the gate loads the parser and analyses the line again (parse.ts).
    if (e instanceof ShellParserNotReady) throw e;
    value = undefined;
  }
  if (echoedCache.size > 256) echoedCache.clear();
  echoedCache.set(raw, value);
  return value;
}

setSubstitutionResolver(echoedSubstitutionText);

function echoedSubstitutionUncached(raw: string): string | undefined {
  const inner = raw.startsWith("$(")
    ? raw.slice(2, -1)
    : raw.startsWith("`")
    ? raw.slice(1, -1)
    : undefined;
  if (inner === undefined) return undefined;
  if (inner.trim() === "") return ""; // `$()` prints nothing
  const parsed = parseLine(inner);
  if (!parsed.ok || parsed.commands.length !== 1) return undefined;
  const text = echoedText(parsed.commands[0].words);
  return text === undefined ? undefined : text.replace(/\n+$/, "").trim();
}
