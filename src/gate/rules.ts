/**
 * The rules classifier: safe, moderate or dangerous for each part of a line,
 * with the reasons a person reads in the dialog, and the pattern an answer is
 * remembered under. The rules set the floor; a model classifier may only
 * raise it (src/gate/classifier.ts).
 */
import type { Level } from "../config/schema.ts";
import { type Analysis, type Part, SHELLS } from "./analyse.ts";
import {
  CODE_SCAN_LIMIT,
  dangerous,
  INLINE_CODE_OPTIONS,
  INTERPRETERS,
  moderate,
  type Rating,
  READ_ONLY,
  RISKY_CODE,
  safe,
  VERB_PROGRAMS,
  WRITING_CODE,
} from "./programs.ts";
import { absolutePath, display, isDynamic, literal, resolveWord, type Word } from "./words.ts";
import { awkProgramEffects, sedScriptEffects, writeTargets } from "./targets.ts";
import { backgroundRating, ranFileRating } from "./line_effects.ts";
import { consequenceOf, killArgs } from "./consequences.ts";
import { linksBefore, riskyDestination, riskyDestinationGlob, throughLinks } from "./writes.ts";
import { parseLine } from "./parse.ts";
import { analyse } from "./analyse.ts";
import { gitSettingUses, type HookUse } from "./hooks.ts";
import type { GitConfigRead } from "./git_config.ts";
import { cachedRegExp } from "./regexes.ts";
import { hasLongOption, hasShortOption, operandArgs } from "./options.ts";
import { isSystemProgram } from "./expand.ts";
import {
  credentialExamples,
  isCredentialPath,
  mentionsCredentialPath,
  RELATIVE_CREDENTIALS,
} from "../util/credential_paths.ts";

export const LEVEL_RANK: Record<Level, number> = { safe: 0, moderate: 1, dangerous: 2 };

export function maxLevel(a: Level, b: Level): Level {
  return LEVEL_RANK[a] >= LEVEL_RANK[b] ? a : b;
}

export interface PartVerdict {
  /** The command a person is asked about. */
  command: string;
  argv: string[];
  level: Level;
  reasons: string[];
  /** On the rules' read-only list: no model classifier is asked. */
  readOnly: boolean;
  /** What an answer is remembered as: `head *`, `git commit *`, or the exact text. */
  pattern: string;
  /** Remembered only by exact text (interpreters, programs named by a variable, dangerous parts). */
  exact: boolean;
  part: Part | null;
  /** Features the rules found beyond the part's words (a program named in git's config). */
  ruleFeatures?: string[];
}

export interface Classification {
  level: Level;
  parts: PartVerdict[];
}

export interface RulesOptions {
  /** Resolve a path through links; undefined when it does not exist. Optional I/O. */
  realPath?: (path: string) => string | undefined;
  /** Read git's config files (git_config.ts). Absent: a config a hook names counts as unread. */
  gitConfig?: GitConfigReader;
}

/** The I/O the rules need to rate git's config: the gate gives one reading the real files. */
export interface GitConfigReader {
  /** The config of the repository git finds from a folder; undefined when there is none. */
  repositoryFrom(dir: string): GitConfigRead | undefined;
  /** The config of a repository folder named by --git-dir or GIT_DIR. */
  gitDir(dir: string): GitConfigRead;
  /** A config file with its includes. */
  file(path: string): GitConfigRead;
}

/**
 * Payload carriers that add nothing of their own: the shell of `sh -c '…'` and what a trap,
 * `watch` or an alias runs. Their command lines are rated part by part; a dynamic or unreadable
 * payload is still dangerous below.
 */
function isTransparentCarrier(kind: string): boolean {
  if (kind === "trap" || kind === "watch" || kind === "alias") return true;
  const m = /^(\S+) -c$/.exec(kind);
  return m !== null && SHELLS.has(m[1]);
}

/** Classify every part of an analysed line. */
export function classify(analysis: Analysis, options: RulesOptions = {}): Classification {
  if (!analysis.ok) {
    const v: PartVerdict = {
      command: analysis.line,
      argv: [],
      level: "dangerous",
      reasons: [
        `the line does not parse cleanly as shell (${
          analysis.error ?? "unknown error"
        }), so it cannot be checked`,
      ],
      readOnly: false,
      pattern: analysis.line,
      exact: true,
      part: null,
    };
    return { level: "dangerous", parts: [v] };
  }
  const parts: PartVerdict[] = [];
  for (const part of analysis.parts) {
    if (
      part.words.length === 0 && part.cmd.redirects.length === 0 && part.cmd.assignments.length > 0
    ) {
      const v = classifyAssignment(part, analysis, options);
      if (v) parts.push(v);
      continue;
    }
    parts.push(classifyPart(part, analysis, options));
  }
  if (parts.length === 0) {
    return { level: "safe", parts: [] };
  }
  let level: Level = "safe";
  for (const p of parts) level = maxLevel(level, p.level);
  return { level, parts };
}

function classifyAssignment(
  part: Part,
  analysis: Analysis,
  options: RulesOptions,
): PartVerdict | undefined {
  const reasons: string[] = [];
  let level: Level = "safe";
  for (const a of part.cmd.assignments) {
    if (
      /^(PATH|LD_PRELOAD|LD_LIBRARY_PATH|DYLD_\w+|PROMPT_COMMAND|BASH_ENV|ENV|IFS|PS4|SHELLOPTS|BASHOPTS|GIT_\w+|HOME)$/
        .test(a.name)
    ) {
      level = "moderate";
      reasons.push(`sets ${a.name}, which changes what later commands run`);
    }
    if (a.value) {
      const r = resolveWord(a.value, part.vars, analysis.userHome);
      if (isCredentialPath(r.value)) {
        level = "dangerous";
        reasons.push(`names a credential file (${display(a.value)})`);
      }
    }
  }
  if (part.hooks.length > 0) {
    const acc: Acc = { level, reasons: [...reasons], readOnly: false, exact: true };
    const features: string[] = [];
    rateHooks(acc, part, analysis, options, features);
    level = acc.level;
    reasons.splice(0, reasons.length, ...acc.reasons);
  }
  if (level === "safe" && part.substitutions.length > 0) return undefined;
  return {
    command: part.text,
    argv: [],
    level,
    reasons: reasons.length ? reasons : ["sets a shell variable"],
    readOnly: level === "safe",
    pattern: level === "safe" ? "(assignment)" : part.text,
    exact: level !== "safe",
    part,
  };
}

interface Acc {
  level: Level;
  reasons: string[];
  readOnly: boolean;
  exact: boolean;
}

function raise(acc: Acc, r: Rating | undefined): void {
  if (!r) return;
  if (LEVEL_RANK[r.level] > LEVEL_RANK[acc.level]) {
    // A rise replaces the reasons that only explained the lower level.
    if (acc.level === "safe") acc.reasons = [];
    acc.level = r.level;
  }
  if (!acc.reasons.includes(r.reason)) acc.reasons.push(r.reason);
  if (r.level !== "safe") acc.readOnly = false;
}

/**
 * One part's verdict: each rule below raises the level (and adds its reason)
 * in this order, which is the order the reasons are shown in.
 */
function classifyPart(
  part: Part,
  analysis: Analysis,
  options: RulesOptions = {},
): PartVerdict {
  const acc: Acc = { level: "safe", reasons: [], readOnly: false, exact: false };
  const args = part.argv.slice(1);
  const prog = part.program;
  const verb = rateWhatRuns(acc, part, analysis, args);
  rateShellCode(acc, part);
  rateWrappers(acc, part, prog);
  rateRedirects(acc, part, analysis, options);
  rateCredentialsAndSecrets(acc, part, analysis, options, args, prog);
  rateCommandOptions(acc, prog, args);
  rateWriteTargets(acc, part, analysis, prog);
  // Consequences the program's name does not show (consequences.ts).
  raise(acc, consequenceOf(part, analysis));
  // Environment hooks and git's settings: rated by what they run (hooks.ts).
  const ruleFeatures: string[] = [];
  rateHooks(acc, part, analysis, options, ruleFeatures);
  if (prog === "git") rateRepositoryConfig(acc, part, analysis, options, ruleFeatures);

  const exact = acc.exact || acc.level === "dangerous" || part.dynamicProgram;
  const pattern = exact ? part.text : patternFor(part, verb);
  if (acc.reasons.length === 0) acc.reasons.push(acc.readOnly ? "only reads" : "runs a program");
  return {
    command: part.text,
    argv: part.argv,
    level: acc.level,
    reasons: acc.reasons,
    readOnly: acc.readOnly && acc.level === "safe",
    pattern,
    exact,
    part,
    ...(ruleFeatures.length ? { ruleFeatures } : {}),
  };
}

/** What the program is: dynamic, defined by the line, or rated by its name and options (its verb). */
function rateWhatRuns(
  acc: Acc,
  part: Part,
  analysis: Analysis,
  args: string[],
): string | undefined {
  if (part.words.length === 0) {
    // Only redirections (`> file`): judged by them below.
    acc.readOnly = true;
  } else if (part.dynamicProgram) {
    raise(
      acc,
      dangerous(
        `the program is chosen when the line runs (${
          part.argv[0]
        }), so the rules cannot know what it does`,
      ),
    );
    acc.exact = true;
  } else if (
    part.payloadKind === "alias" || analysis.functions.some((f) => f.name === part.argv[0])
  ) {
    // An alias or a function the line defines: its body is rated part by part.
    raise(
      acc,
      safe(`runs ${part.argv[0]}, which this line defines; its commands are rated on their own`),
    );
  } else {
    const r = rateProgram(part, args);
    raise(acc, r.rating);
    acc.readOnly = r.readOnly && acc.level === "safe";
    acc.exact = r.exact;
    return r.verb;
  }
  return undefined;
}

/** Shell code the part runs (sh -c, eval, here-docs, echo | sh), and what the whole line adds. */
function rateShellCode(acc: Acc, part: Part): void {
  // Payloads: sh -c, eval, here-docs, echo | sh.
  if (part.payloadKind) {
    acc.exact = true;
    acc.readOnly = false;
    if (part.payloadDynamic) {
      raise(
        acc,
        dangerous(`runs shell code that is only known when the line runs (${part.payloadKind})`),
      );
    } else if (part.payloadError) {
      raise(acc, dangerous(`runs shell code that cannot be checked (${part.payloadError})`));
    } else if (!isTransparentCarrier(part.payloadKind)) {
      raise(
        acc,
        moderate(
          `runs a shell command line (${part.payloadKind}); its commands are rated on their own`,
        ),
      );
    }
  }
  if (part.readsScriptFromStdin) {
    acc.exact = true;
    raise(acc, dangerous("runs whatever comes down the pipe as a script"));
  }
  // Whole-line effects (line_effects.ts): running a file the line wrote, background spawning.
  raise(acc, ranFileRating(part));
  raise(acc, backgroundRating(part));
  // A pager, an editor or a helper is a program; shell code hidden in one is an evasion.
  if (part.hookSource && (part.payloadKind || part.readsScriptFromStdin)) {
    raise(acc, dangerous(`${part.hookSource} hides shell code (${part.payloadKind ?? "stdin"})`));
  }
  if (part.depth > 0 && part.carrier) {
    // A part of a payload is judged like any other; its pattern is still exact.
    acc.exact = true;
  }
}

/** What the wrappers add: arguments at run time, another root, a command that outlives the line. */
function rateWrappers(acc: Acc, part: Part, prog: string): void {
  if (
    part.argsAtRunTime &&
    part.wrappers.some((w) => w === "xargs" || w === "parallel" || w === "find -exec")
  ) {
    acc.readOnly = acc.readOnly && prog !== "";
    if (acc.level === "safe" && !READ_ONLY.has(prog)) {
      raise(acc, moderate("takes its arguments from input at run time"));
    }
  }
  if (part.wrappers.includes("chroot")) {
    raise(acc, dangerous("runs a program in another root file system"));
  }
  if (part.wrappers.some((w) => w === "nohup" || w === "setsid")) {
    raise(acc, moderate("keeps running after the line ends"));
  }
}

/** Writes by redirection, and a credential path on the part's input. */
function rateRedirects(acc: Acc, part: Part, analysis: Analysis, options: RulesOptions): void {
  for (const redirect of part.cmd.redirects) {
    if (!redirect.target) continue;
    const op = redirect.op;
    const isWrite = op.includes(">") && op !== "<";
    const r = resolveWord(redirect.target, part.vars, analysis.userHome);
    const shown = display(redirect.target);
    if (credentialName(r, part, analysis, options)) {
      raise(acc, dangerous(`${isWrite ? "writes" : "reads"} a credential file (${shown})`));
      continue;
    }
    if (!isWrite) continue;
    if (!r.unknown && /^\/dev\/(null|stdout|stderr|tty|fd\/[12])$/.test(r.value)) continue;
    if (r.unknown) {
      raise(acc, moderate(`writes to a file named only when the line runs (${shown})`));
    } else if (/^\/dev\//.test(r.value)) raise(acc, dangerous(`writes to a device (${shown})`));
    else raise(acc, moderate(`${op.includes(">>") ? "appends to" : "writes"} ${shown}`));
    acc.readOnly = false;
  }
  if (part.cmd.herestring && part.words.length > 0) {
    const r = resolveWord(part.cmd.herestring, part.vars, analysis.userHome);
    if (isCredentialPath(r.value) && /[/~]/.test(r.value)) {
      raise(acc, dangerous("passes a credential path on its input"));
    }
  }
}

/** Credential paths among the arguments, and secrets read from the environment. */
function rateCredentialsAndSecrets(
  acc: Acc,
  part: Part,
  analysis: Analysis,
  options: RulesOptions,
  args: string[],
  prog: string,
): void {
  // Credential paths among the arguments, by name or by where a link leads.
  for (const w of part.words.slice(1)) {
    const r = resolveWord(w, part.vars, analysis.userHome);
    if (credentialName(r, part, analysis, options)) {
      raise(acc, dangerous(`touches a credential file or folder (${display(w)})`));
      break;
    }
  }
  // Secrets held in the environment.
  const secretVar = [
    ...part.words.slice(1),
    ...part.cmd.redirects.flatMap((r) => (r.target ? [r.target] : [])),
  ]
    .flatMap((w) => w.segs)
    .find((seg) => seg.kind === "var" && SECRET_NAME.test(seg.name));
  if (secretVar && secretVar.kind === "var") {
    raise(acc, dangerous(`reads a secret from the environment ($${secretVar.name})`));
  }
  if ((prog === "printenv" || prog === "env") && args.some((a) => SECRET_NAME.test(a))) {
    raise(acc, dangerous("prints a secret from the environment"));
  }
}

/** Options that make a program run a command of its choosing, or edit in place. */
function rateCommandOptions(acc: Acc, prog: string, args: string[]): void {
  // Options that make a program run a command of their choosing (tar --to-command, ssh -o ProxyCommand, …).
  const commandOption = args.find((a, i) =>
    COMMAND_OPTION.test(a) || (prog === "tar" && (a === "-I" || a === "-F")) ||
    (prog === "rsync" && (a === "-e" || a === "--rsh") && !/^ssh( |$)/.test(args[i + 1] ?? "")) ||
    (prog === "zip" && a === "-TT") || (/^(rg|ripgrep)$/.test(prog) && /^--pre(=|$)/.test(a)) ||
    (prog === "man" && a === "-P")
  );
  if (commandOption) {
    raise(
      acc,
      dangerous(`an option makes ${prog} run a command of its choosing (${commandOption})`),
    );
  }
  if (prog === "yq" && args.some((a) => a === "-i" || a === "--inplace")) {
    raise(acc, moderate("edits files in place (yq -i)"));
  }
}

/** What the part writes: any write leaves the read-only list; where it lands may be dangerous. */
function rateWriteTargets(acc: Acc, part: Part, analysis: Analysis, prog: string): void {
  // Files that run at login or in every shell, system files, and throwing files away.
  for (const t of writeTargets(part)) {
    const r = resolveWord(t.word, part.vars, analysis.userHome);
    if (
      acc.level === "safe" &&
      !(!r.unknown && /^\/dev\/(null|stdout|stderr|tty|fd\/[12])$/.test(r.value)) &&
      !t.how.startsWith("redirects")
    ) {
      // Any option that writes takes a part off the read-only list.
      raise(acc, moderate(`writes ${display(t.word)}`));
      acc.readOnly = false;
    }
    if (
      !r.unknown && (prog === "mv" || prog === "cp") && r.value === "/dev/null" &&
      t.how.startsWith("mov")
    ) {
      raise(acc, dangerous("moves files to /dev/null, which throws them away"));
    }
    // Where it lands decides (writes.ts), through any link the line made before it.
    const why = destinationRisk(t.word, r, part, analysis);
    if (why) raise(acc, dangerous(`writes ${display(t.word)}: ${why}`));
  }
}

/**
 * The levels a part's hooks set by themselves (a library loaded, a file of code, a value known
 * only at run time), and the git config files they name, read and rated. A hook whose value is a
 * command line needs nothing here: its commands are parts of their own (analyse.ts).
 */
function rateHooks(
  acc: Acc,
  part: Part,
  analysis: Analysis,
  options: RulesOptions,
  features: string[],
): void {
  for (const hook of part.hooks) {
    if (hook.level) {
      raise(acc, { level: hook.level, reason: hook.reason ?? `${hook.source} sets ${hook.runs}` });
      acc.readOnly = false;
    }
    const file = hook.gitConfigFile ?? hook.gitDir;
    if (file === undefined) continue;
    acc.readOnly = false;
    const abs = absolutePath(file.replace(/^~(?=\/|$)/, analysis.userHome), part.cwds[0]);
    if (!options.gitConfig) {
      raise(
        acc,
        dangerous(`${hook.source} makes git read ${file}, whose settings were not read here`),
      );
      continue;
    }
    const read = hook.gitDir !== undefined
      ? options.gitConfig.gitDir(abs)
      : options.gitConfig.file(abs);
    rateSettings(acc, read, hook.source, "dangerous", part, analysis, options, features);
  }
}

/**
 * A git command in a repository whose own config (and what it includes) names a program to run
 * is at least moderate, and as dangerous as that program; the folder is where git would find it
 * (`-C` applied), unless --git-dir or GIT_DIR named another.
 */
function rateRepositoryConfig(
  acc: Acc,
  part: Part,
  analysis: Analysis,
  options: RulesOptions,
  features: string[],
): void {
  if (!options.gitConfig || part.hooks.some((h) => h.gitDir !== undefined)) return;
  if (part.gitChdirs === null) {
    raise(acc, moderate("git runs in a folder named only when the line runs, with its config"));
    return;
  }
  let dir = part.cwds[0];
  for (const c of part.gitChdirs ?? []) {
    dir = absolutePath(c.replace(/^~(?=\/|$)/, analysis.userHome), dir);
  }
  const read = options.gitConfig.repositoryFrom(dir);
  if (!read) return;
  rateSettings(acc, read, "the repository's config", "moderate", part, analysis, options, features);
}

/** Rate the settings of a config that name a program; what cannot be read rates `unreadable`. */
function rateSettings(
  acc: Acc,
  read: GitConfigRead,
  source: string,
  unreadable: Level,
  part: Part,
  analysis: Analysis,
  options: RulesOptions,
  features: string[],
): void {
  for (const problem of read.problems.slice(0, 1)) {
    raise(acc, { level: unreadable, reason: `${source}: ${problem}, so what git runs is unknown` });
    features.push("git-config:unreadable");
  }
  for (const s of read.settings) {
    const uses = gitSettingUses(s.key, s.value, `${s.file}: ${s.key}`);
    for (const use of uses) {
      features.push(`git-config:${s.key}`);
      acc.readOnly = false;
      raise(acc, moderate(`${source} (${s.file}) names a program git runs (${s.key})`));
      const rated = rateUse(use, part, analysis, options);
      if (rated) raise(acc, rated);
    }
  }
}

/** A hook use from a config file, rated by the command it runs. */
function rateUse(
  use: HookUse,
  part: Part,
  analysis: Analysis,
  options: RulesOptions,
): Rating | undefined {
  if (use.level) return { level: use.level, reason: use.reason ?? use.source };
  if (use.gitConfigFile !== undefined) return undefined; // includes were followed by the reader
  if (use.command === undefined) return undefined;
  const rated = rateCommandText(use.command, part.cwds[0], analysis.userHome, options);
  if (rated.level === "safe") return undefined;
  return {
    level: rated.level,
    reason: `${use.source} runs ${use.command}: ${rated.reason}`,
  };
}

const commandTextCache = new Map<string, { level: Level; reason: string }>();

/** A command line named in a config file, rated as the rules rate a line (no config read again). */
function rateCommandText(
  text: string,
  cwd: string,
  userHome: string,
  options: RulesOptions,
): { level: Level; reason: string } {
  const key = `${cwd}\u0000${text}`;
  const hit = commandTextCache.get(key);
  if (hit) return hit;
  const c = classify(analyse(parseLine(text), { cwd, userHome, env: {} }), {
    realPath: options.realPath,
  });
  const worst = c.parts.find((p) => p.level === c.level);
  const result = { level: c.level, reason: worst?.reasons[0] ?? "runs a program" };
  if (commandTextCache.size > 256) commandTextCache.clear();
  commandTextCache.set(key, result);
  return result;
}

/** Options of any program that run a command named in them. */
const COMMAND_OPTION =
  /^(--to-command|--use-compress-program|--checkpoint-action=exec|--info-script|--new-volume-script|--unzip-command|--upload-pack|--receive-pack|--exec(=|$)|-oProxyCommand|-oLocalCommand|-oPermitLocalCommand)|^(ProxyCommand|LocalCommand|PermitLocalCommand)=|--(pager|editor)=/i;

/** What a search for secrets looks for. */
const SECRET_MARKER =
  /PRIVATE KEY|BEGIN [A-Z ]*KEY|passw(or)?d|secret|api[_-]?key|aws_secret|access[_-]?key|auth[_-]?token|bearer/i;

/** Environment variables whose names say they hold a secret. */
const SECRET_NAME = /(TOKEN|SECRET|PASSW(OR)?D|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY|CREDENTIAL|AUTH)/i;

/** Why the place a resolved write target names is dangerous (writes.ts), for any folder the part may run in. */
function destinationRisk(
  word: Word,
  r: { value: string; unknown: boolean; globRegex?: string },
  part: Part,
  analysis: Analysis,
): string | undefined {
  if (r.value === "" || /^\/dev\//.test(r.value)) return undefined;
  const links = linksBefore(analysis, part);
  for (const cwd of part.cwds.slice(0, 4)) {
    if (r.globRegex) {
      const base = cwd === "/" ? "" : cwd.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
      const src = r.value.startsWith("/") ? r.globRegex : `${base}\\/${r.globRegex}`;
      const why = riskyDestinationGlob(src, analysis.userHome);
      if (why) return why;
      continue;
    }
    // A name partly unknown: the folder its known start names decides (`/etc/$X`, not `$X/etc`).
    const start = r.unknown ? knownStart(word, part, analysis.userHome) : r.value;
    const known = r.unknown ? start.slice(0, start.lastIndexOf("/") + 1) : start;
    if (known === "") continue;
    const abs = throughLinks(absolutePath(known, cwd), links);
    const why = riskyDestination(abs, analysis.userHome);
    if (why) return why;
  }
  return undefined;
}

/** The value of a word up to its first piece known only at run time. */
function knownStart(word: Word, part: Part, userHome: string): string {
  const segs = [];
  for (const seg of word.segs) {
    if (seg.kind === "sub" || seg.kind === "arith" || seg.kind === "glob") break;
    if (seg.kind === "var") {
      const v = seg.plain ? part.vars.get(seg.name) : undefined;
      if (!v || !("value" in v)) break;
    }
    segs.push(seg);
  }
  return resolveWord({ raw: word.raw, segs }, part.vars, userHome).value;
}

function patternFor(part: Part, verb: string | undefined): string {
  const prog =
    part.programPath.includes("/") && !/^\/(usr\/)?(local\/)?s?bin\//.test(part.programPath) &&
      !part.programPath.startsWith("/opt/homebrew/bin/")
      ? part.programPath
      : part.program;
  return verb ? `${prog} ${verb} *` : `${prog} *`;
}

function credentialName(
  r: { value: string; unknown: boolean; globRegex?: string },
  part: Part,
  analysis: Analysis,
  options: RulesOptions,
): boolean {
  if (r.value === "") return false;
  if (r.globRegex) {
    const re = cachedRegExp(`^${r.globRegex}$`, "i");
    if (!re) return false;
    const isAbs = r.value.startsWith("/");
    // A glob that matches anything at all (`du -sh *`) is not aimed at credentials; one that
    // matches credential names but not ordinary ones (`~/.ss?/id*`) is.
    const ordinary = isAbs
      ? [
        `${part.cwds[0]}/notes.txt`,
        `${analysis.userHome}/notes.txt`,
        `${analysis.userHome}/src/main.ts`,
      ]
      : ["notes.txt", "main.ts", "src", "README.md"];
    if (ordinary.some((o) => re.test(o))) return false;
    const candidates = isAbs ? credentialExamples(analysis.userHome) : RELATIVE_CREDENTIALS;
    if (candidates.some((c) => re.test(c))) return true;
    if (!isAbs) {
      // A relative glob in the working directory: try the examples relative to cwd.
      const cwd = part.cwds[0];
      for (const c of credentialExamples(analysis.userHome)) {
        if (c.startsWith(cwd + "/") && re.test(c.slice(cwd.length + 1))) return true;
      }
    }
    return isCredentialPath(r.value.replace(/\*/g, "x"));
  }
  if (isCredentialPath(r.value)) return true;
  // Options like --identity=~/.ssh/id_rsa or -i~/.ssh/x
  const eq = r.value.indexOf("=");
  if (eq > 0 && isCredentialPath(r.value.slice(eq + 1))) return true;
  // Code or a list inside one word (`open("/home/u/.netrc")`, `a.txt,~/.npmrc`).
  if (/["'`\s(),;:<>]/.test(r.value) && mentionsCredentialPath(r.value)) return true;
  // A relative name read where it lands: `cat credentials` in ~/.aws.
  if (!r.unknown && !r.value.startsWith("/") && !r.value.startsWith("-") && r.value.length < 4096) {
    for (const cwd of part.cwds.slice(0, 4)) {
      if (isCredentialPath(absolutePath(r.value, cwd))) return true;
    }
  }
  if (
    options.realPath && !r.unknown && !r.value.startsWith("-") && r.value.length < 4096 &&
    !/[\n\s]|:\/\//.test(r.value)
  ) {
    for (const cwd of part.cwds.slice(0, 4)) {
      const real = options.realPath(absolutePath(r.value, cwd));
      if (real && isCredentialPath(real)) return true;
    }
  }
  return false;
}

interface ProgramRating {
  rating: Rating;
  readOnly: boolean;
  exact: boolean;
  verb?: string;
}

const INTERPRETER_RE =
  /^(python(\d(\.\d+)?)?|pypy3?|node(js)?|perl\d*(\.\d+)*|ruby\d*(\.\d+)?|php\d*(\.\d+)?|lua(jit|\d(\.\d)?)?|osascript|Rscript|tclsh\d*(\.\d)?|julia|groovy|jshell|irb|pwsh|powershell|expect|ts-node|tsx|wish)$/;

export function isInterpreter(prog: string): boolean {
  return INTERPRETERS.has(prog) || INTERPRETER_RE.test(prog);
}

/** Rate the program itself with its arguments. */
/** A program's rating by its name first, then by its options, then as one the rules do not know. */
function rateProgram(part: Part, args: string[]): ProgramRating {
  const prog = part.program;
  const words = part.words.slice(1);
  if (!isSystemProgram(part.programPath)) {
    // ./cat, ../ls, /tmp/x/grep: whatever was put there, not the system's program of that name.
    return rated(
      moderate(`runs ${part.programPath}, a program from a folder of programs not the system's`),
    );
  }
  const shellLike = rateShellLike(part, prog, args, words);
  if (shellLike) return shellLike;
  // swift build, deno fmt: interpreters that are verb programs too.
  const verbFirst = Object.hasOwn(VERB_PROGRAMS, prog) && args.length > 0 &&
    /^[a-z][a-z-]*$/.test(args[0]) &&
    !(INLINE_CODE_OPTIONS[prog] ?? []).includes(args[0]);
  if (isInterpreter(prog) && !verbFirst) return rateInterpreter(part, prog, args, words);
  const byName = TOOL_RULE_OF.get(prog)?.({ part, prog, args });
  if (byName) return byName;
  if (
    /^(grep|egrep|fgrep|rg|ag|ack|git)$/.test(prog) && (prog !== "git" || args[0] === "grep") &&
    args.some((a) => SECRET_MARKER.test(a))
  ) {
    return rated(dangerous("searches files for secrets (keys, passwords, tokens)"));
  }
  const verbProgram = Object.hasOwn(VERB_PROGRAMS, prog) ? VERB_PROGRAMS[prog] : undefined;
  if (verbProgram) return rateVerbProgram(prog, args, verbProgram);

  const special = rateSingle(part, prog, args);
  if (special) return special;

  return rateUnknown(part, prog, args);
}

/** Shells, eval and source: what they run is shell code. */
function rateShellLike(
  part: Part,
  prog: string,
  args: string[],
  words: Word[],
): ProgramRating | undefined {
  if (SHELLS.has(prog)) {
    if (part.payloadKind && part.payload !== null && !part.payloadError) {
      // sh -c '…': the shell adds nothing; the command line it runs is rated part by part.
      return rated(safe(`runs a shell command line (${prog}), rated part by part`), false, true);
    }
    if (part.payloadKind) return rated(moderate(`runs a shell (${prog})`), false, true);
    const script = args.find((a) => !a.startsWith("-"));
    if (script) {
      return rated(
        moderate(`runs the script ${script}, whose commands are not checked`),
        false,
        true,
      );
    }
    if (args.some((a) => /^--?(version|help)$/.test(a))) {
      return rated(safe("prints the shell's version"), true);
    }
    return rated(dangerous(`starts a shell (${prog}) that runs whatever it is given`), false, true);
  }
  if (prog === "eval") {
    return rated(moderate("evaluates its arguments as a shell command line"), false, true);
  }
  if (prog === "source" || prog === ".") {
    if (part.readsScriptFromStdin || words.some((w) => w.segs.some((s) => s.kind === "sub"))) {
      return rated(dangerous("runs shell code produced at run time"), false, true);
    }
    return rated(
      moderate(`runs the commands in ${args[0] ?? "a file"} in this shell`),
      false,
      true,
    );
  }
  return undefined;
}

/** What a tool rule reads: the part, its program, and its arguments. */
interface ProgramInput {
  part: Part;
  prog: string;
  args: string[];
}

/**
 * Text tools and system programs rated by their name and a few options (the
 * programs' names separated by spaces); a rule that does not apply gives
 * undefined, and the program is rated on.
 */
const TOOL_RULES: ReadonlyArray<
  readonly [programs: string, rule: (input: ProgramInput) => ProgramRating | undefined]
> = [
  ["awk gawk mawk nawk", rateAwk],
  ["sed gsed", rateSed],
  ["find gfind fd fdfind", rateFind],
  ["sort", rateSort],
  ["uniq", rateUniq],
  ["xxd", rateXxd],
  ["tee", rateTee],
  ["env printenv", ratePrintEnv],
  ["command type which hash", rateLookup],
  ["date", rateDate],
  ["hostname", rateHostname],
  ["history", rateHistory],
  ["base64 base32", rateBase64],
  ["ip ifconfig route arp", rateNetworkConfig],
  ["sysctl", rateSysctl],
  ["less more man", ratePager],
];

const TOOL_RULE_OF = new Map(
  TOOL_RULES.flatMap(([programs, rule]) =>
    programs.split(" ").map((program) => [program, rule] as const)
  ),
);

function rateAwk({ part, prog, args }: ProgramInput): ProgramRating | undefined {
  if (prog === "awk" || prog === "gawk" || prog === "mawk" || prog === "nawk") {
    // The program is read by awk's own grammar (script_writes.ts).
    const effects = awkProgramEffects(part);
    if (effects.runs) {
      return rated(dangerous("its program runs shell commands (system or a pipe)"), false, true);
    }
    if (effects.fromFile) return rated(moderate("runs an awk program from a file"), false, true);
    if (
      effects.writes.length > 0 ||
      args.some((a) => a === "-i" || a.startsWith("-i") && a.includes("inplace"))
    ) return rated(moderate("its program writes files"), false, true);
    return rated(safe("reads and prints text"), true);
  }
  return undefined;
}

function rateSed({ part, prog, args }: ProgramInput): ProgramRating | undefined {
  if (prog === "sed" || prog === "gsed") {
    // The script is read by sed's own grammar (script_writes.ts).
    const effects = sedScriptEffects(part);
    if (effects.runs) {
      return rated(dangerous("its script runs shell commands (the e command)"), false, true);
    }
    if (args.some((a) => a === "-i" || /^-[a-zA-Z]*i/.test(a) || a.startsWith("--in-place"))) {
      return rated(moderate("edits files in place (sed -i)"));
    }
    // The e command is also handed over as a payload (payload_options.ts), so the policy
    // judges what it runs.
    if (part.hooks.some((h) => h.source.startsWith("sed "))) {
      return rated(dangerous("its script runs shell commands (the e command)"), false, true);
    }
    if (effects.writes.length > 0) {
      return rated(moderate("its script writes a file (the w command)"));
    }
    if (effects.fromFile) return rated(moderate("runs a sed script from a file"));
    return rated(safe("reads and prints text"), true);
  }
  return undefined;
}

function rateFind({ prog, args }: ProgramInput): ProgramRating | undefined {
  if (prog === "find" || prog === "gfind" || prog === "fd" || prog === "fdfind") {
    if (args.includes("-delete")) return rated(dangerous("deletes every file it finds"));
    if (
      prog.startsWith("fd") &&
      args.some((a) => a === "-x" || a === "-X" || a === "--exec" || a === "--exec-batch")
    ) return rated(moderate("runs a command on what it finds"));
    if (args.some((a) => /^-(exec|execdir|ok|okdir)$/.test(a))) {
      return rated(moderate("runs a command on every file it finds"));
    }
    if (args.some((a) => /^-f(print|print0|printf|ls)$/.test(a))) {
      return rated(moderate("writes its list to a file"));
    }
    return rated(safe("lists files"), true);
  }
  return undefined;
}

function rateSort({ prog, args }: ProgramInput): ProgramRating | undefined {
  if (prog === "sort") {
    if (args.some((a) => a === "-o" || /^-[a-zA-Z]*o/.test(a) || a.startsWith("--output"))) {
      return rated(moderate("writes its output to a file (sort -o)"));
    }
    return rated(safe("sorts text"), true);
  }
  return undefined;
}

function rateUniq({ prog, args }: ProgramInput): ProgramRating | undefined {
  if (prog === "uniq") {
    const pos = args.filter((a) => !a.startsWith("-") || a === "-");
    if (pos.length >= 2) return rated(moderate(`writes ${pos[1]}`));
    return rated(safe("filters text"), true);
  }
  return undefined;
}

function rateXxd({ prog, args }: ProgramInput): ProgramRating | undefined {
  if (prog === "xxd") {
    const pos = args.filter((a) => !a.startsWith("-"));
    if (pos.length >= 2) return rated(moderate(`writes ${pos[1]}`));
    return rated(safe("prints a hex dump"), true);
  }
  return undefined;
}

function rateTee({ prog, args }: ProgramInput): ProgramRating | undefined {
  if (prog === "tee") {
    const files = args.filter((a) => !a.startsWith("-"));
    if (files.length === 0 || files.every((f) => /^\/dev\/(null|stdout|stderr|tty)$/.test(f))) {
      return rated(safe("copies its input to its output"), true);
    }
    return rated(moderate(`writes ${files.join(", ")}`));
  }
  return undefined;
}

function ratePrintEnv({ prog }: ProgramInput): ProgramRating | undefined {
  if (prog === "env" || prog === "printenv") return rated(safe("prints the environment"), true);
  return undefined;
}

function rateLookup({ prog }: ProgramInput): ProgramRating | undefined {
  if (prog === "command" || prog === "type" || prog === "which" || prog === "hash") {
    return rated(safe("looks up a program"), true);
  }
  return undefined;
}

function rateDate({ prog, args }: ProgramInput): ProgramRating | undefined {
  if (prog === "date" && args.some((a) => a === "-s" || a.startsWith("--set"))) {
    return rated(dangerous("sets the system clock"));
  }
  return undefined;
}

function rateHostname({ prog, args }: ProgramInput): ProgramRating | undefined {
  if (prog === "hostname" && args.some((a) => !a.startsWith("-"))) {
    return rated(dangerous("changes the machine's name"));
  }
  return undefined;
}

function rateHistory({ prog, args }: ProgramInput): ProgramRating | undefined {
  if (prog === "history" && args.some((a) => /^-[a-zA-Z]*[cdw]/.test(a))) {
    return rated(moderate("changes the shell history"));
  }
  return undefined;
}

function rateBase64({ prog, args }: ProgramInput): ProgramRating | undefined {
  if (prog === "base64" || prog === "base32") {
    if (args.some((a) => a === "-o" || a.startsWith("--output"))) {
      return rated(moderate("writes its output to a file"));
    }
    return rated(safe("encodes or decodes text"), true);
  }
  return undefined;
}

function rateNetworkConfig({ prog, args }: ProgramInput): ProgramRating | undefined {
  if (
    (prog === "ip" || prog === "ifconfig" || prog === "route" || prog === "arp") &&
    args.some((a) => /^(add|del|delete|set|flush|change|replace|up|down|link|-d|-s)$/.test(a))
  ) {
    return rated(dangerous("changes the network configuration"));
  }
  return undefined;
}

function rateSysctl({ prog, args }: ProgramInput): ProgramRating | undefined {
  if (prog === "sysctl" && args.some((a) => a === "-w" || a.includes("="))) {
    return rated(dangerous("changes kernel settings"));
  }
  return undefined;
}

function ratePager({ prog }: ProgramInput): ProgramRating | undefined {
  if (prog === "less" || prog === "more" || prog === "man") return rated(safe("shows text"), true);
  return undefined;
}

/** A program on the read-only list, told to destroy something, or one the rules do not know. */
function rateUnknown(part: Part, prog: string, args: string[]): ProgramRating {
  if (READ_ONLY.has(prog)) return rated(safe("only reads"), true);
  // A program the rules do not know, told to destroy something.
  const firstPositional = args.find((a) => !a.startsWith("-")) ?? "";
  if (
    /^(destroy|delete|purge|drop|dropdb|terminate|wipe|nuke|rm|rb|flush|flushall|reset)$/i.test(
      firstPositional,
    ) ||
    args.some((a) =>
      /^[\w-]+:(destroy|delete|drop|purge|reset|wipe|fresh)\b/i.test(a) ||
      /^db:(drop|reset|purge|wipe)$/.test(a)
    )
  ) {
    return rated(
      dangerous(
        `${prog} ${firstPositional || "…"}: deletes or resets something that may not come back`,
      ),
    );
  }
  if (/^(dropdb|dropuser|mongo-drop)$/.test(prog)) return rated(dangerous("deletes a database"));
  if (part.programPath.includes("/") && !part.programPath.startsWith("/")) {
    return rated(moderate(`runs a program from this folder (${part.programPath})`));
  }
  return rated(moderate(`runs ${prog}, a program the rules do not know`));
}

function rateInterpreter(part: Part, prog: string, args: string[], words: Word[]): ProgramRating {
  const family = prog.replace(/\d+(\.\d+)*$/, "") || prog;
  const options = INLINE_CODE_OPTIONS[prog] ?? INLINE_CODE_OPTIONS[family] ?? ["-c", "-e"];
  const codeIndex = args.findIndex((a) =>
    options.includes(a) ||
    options.some((o) =>
      o.length === 2 && a.startsWith(o) && a.length > 2 && /^-[a-zA-Z]+$/.test(a) &&
      a.endsWith(o[1])
    )
  );
  if (args.length > 0 && args.every((a) => /^(-V|--version|-v|--help|-h|-version)$/.test(a))) {
    return { rating: safe("prints its version"), readOnly: true, exact: false };
  }
  if (codeIndex >= 0 || (prog === "deno" && args[0] === "eval")) {
    const codeWords = words.slice(codeIndex + 1);
    const code = codeWords.map((w) => literal(w) ?? display(w)).join(" ").slice(0, CODE_SCAN_LIMIT);
    if (codeWords.some((w) => isDynamic(w))) {
      return {
        rating: dangerous(`runs ${prog} code that is only known when the line runs`),
        readOnly: false,
        exact: true,
      };
    }
    if (
      prog === "osascript" &&
      /do shell script|administrator privileges|keystroke|System Events/i.test(code)
    ) {
      return {
        rating: dangerous("its AppleScript runs shell commands or drives other apps"),
        readOnly: false,
        exact: true,
      };
    }
    if (RISKY_CODE.test(code)) {
      return {
        rating: dangerous(
          `runs inline ${prog} code that runs commands, deletes files or reaches the network`,
        ),
        readOnly: false,
        exact: true,
      };
    }
    if (
      mentionsCredentialPath(code) || /\.(ssh|aws|gnupg)\b|id_rsa|\.netrc|keychain/i.test(code)
    ) {
      return {
        rating: dangerous(`runs inline ${prog} code that names credential files`),
        readOnly: false,
        exact: true,
      };
    }
    if (/\.wisp\b|WISP_HOME/.test(code)) {
      return {
        rating: dangerous(`runs inline ${prog} code that names wisp's own home`),
        readOnly: false,
        exact: true,
      };
    }
    if (WRITING_CODE.test(code)) {
      return {
        rating: moderate(`runs inline ${prog} code that writes files`),
        readOnly: false,
        exact: true,
      };
    }
    return { rating: moderate(`runs inline ${prog} code`), readOnly: false, exact: true };
  }
  if (args.some((a) => a === "-m")) {
    const mod = args[args.indexOf("-m") + 1] ?? "";
    if (/^(pip|ensurepip)$/.test(mod)) {
      const sub = args[args.indexOf("-m") + 2] ?? "";
      if (/^(list|show|freeze|check|--version)$/.test(sub)) {
        return { rating: safe("lists Python packages"), readOnly: true, exact: false };
      }
      return {
        rating: moderate("installs or removes Python packages"),
        readOnly: false,
        exact: true,
      };
    }
    if (mod === "http.server" || mod === "SimpleHTTPServer") {
      return { rating: moderate("serves files over HTTP"), readOnly: false, exact: true };
    }
    if (mod === "json.tool" || mod === "tabnanny") {
      return { rating: safe("reads and prints"), readOnly: false, exact: true };
    }
    return { rating: moderate(`runs the ${prog} module ${mod}`), readOnly: false, exact: true };
  }
  const script = args.find((a) => !a.startsWith("-"));
  if (part.readsScriptFromStdin || (!script && part.cmd.pipeIn)) {
    return {
      rating: dangerous(`runs ${prog} code that comes down the pipe`),
      readOnly: false,
      exact: true,
    };
  }
  if (script) {
    const after = args.slice(args.indexOf(script) + 1);
    if (
      after.some((a) =>
        /^(flush|reset_db|dropdb|drop|destroy|delete|purge|wipe|db:(drop|reset|purge))$/i.test(a)
      )
    ) {
      return {
        rating: dangerous(
          `runs ${script} ${after.find((a) => !a.startsWith("-"))}, which deletes or resets data`,
        ),
        readOnly: false,
        exact: true,
      };
    }
    return {
      rating: moderate(`runs the ${prog} script ${script}, whose code is not checked`),
      readOnly: false,
      exact: true,
    };
  }
  return { rating: moderate(`starts ${prog}`), readOnly: false, exact: true };
}

function rateVerbProgram(
  prog: string,
  args: string[],
  spec: (typeof VERB_PROGRAMS)[string],
): ProgramRating {
  const rated = rateVerb(prog, args, spec);
  // `npm publish --dry-run`, `git push -n --force`: a dry run only shows what would happen.
  const options = args.includes("--") ? args.slice(0, args.indexOf("--")) : args;
  if (
    rated.rating.level === "dangerous" &&
    options.some((a) =>
      a === "--dry-run" || /^--dry-run=(client|server|true)$/.test(a) ||
      (prog === "git" && rated.verb === "push" && a === "-n")
    )
  ) {
    return {
      ...rated,
      rating: moderate(`${prog} ${rated.verb ?? ""} --dry-run only shows what it would do`),
      exact: false,
    };
  }
  return rated;
}

function rateVerb(
  prog: string,
  args: string[],
  spec: (typeof VERB_PROGRAMS)[string],
): ProgramRating {
  const withValue = new Set(spec.globalsWithValue ?? []);
  let i = 0;
  const globals: string[] = [];
  while (i < args.length && args[i].startsWith("-") && args[i] !== "-" && args[i] !== "--") {
    const a = args[i];
    const name = a.split("=")[0];
    globals.push(a);
    if (withValue.has(name) && !a.includes("=") && !(name.length === 2 && a.length > 2)) {
      globals.push(args[i + 1] ?? "");
      i += 2;
    } else i += 1;
    if (spec.safe?.includes(a)) break;
  }
  if (args[i] === "--") i++;
  // git -c, --config-env and the environment's git settings are hooks (hooks.ts), rated by
  // the commands they run.
  let verb = args[i];
  const rest = args.slice(i + 1);
  if (verb === undefined) {
    const special = spec.special?.("", globals);
    if (special) return { rating: special, readOnly: special.level === "safe", exact: false };
    const flagVerb = globals.find((g) => spec.safe?.includes(g));
    if (flagVerb) {
      return { rating: safe(`prints ${prog}'s information`), readOnly: true, exact: false };
    }
    if (prog === "make") {
      return {
        rating: moderate("runs the Makefile's default recipe"),
        readOnly: false,
        exact: false,
        verb: undefined,
      };
    }
    return { rating: moderate(`runs ${prog}`), readOnly: false, exact: false };
  }
  if (spec.groups?.includes(verb) && rest.length > 0 && !rest[0].startsWith("-")) {
    verb = `${verb} ${rest[0]}`;
  }
  const restArgs = spec.groups?.includes(verb.split(" ")[0]) && verb.includes(" ")
    ? rest.slice(1)
    : rest;
  const first = verb.split(" ")[0];
  // Global options that take a value (git -C DIR, -c k=v) are not the verb's own options.
  const globalFlags = globals.filter((g, k) =>
    !withValue.has(g.split("=")[0]) && !withValue.has(globals[k - 1] ?? "") &&
    ![...withValue].some((w) => w.length === 2 && g.startsWith(w) && g.length > 2)
  );
  const special = spec.special?.(verb, [...globalFlags, ...restArgs]);
  if (special) return { rating: special, readOnly: special.level === "safe", exact: false, verb };
  if (spec.dangerous?.includes(verb) || spec.dangerous?.includes(first)) {
    return {
      rating: dangerous(`${prog} ${verb}: ${dangerVerbReason(prog, verb)}`),
      readOnly: false,
      exact: true,
      verb,
    };
  }
  if (spec.safe?.includes(verb) || spec.safe?.includes(first)) {
    return { rating: safe(`${prog} ${verb} only reads`), readOnly: true, exact: false, verb };
  }
  return {
    rating: moderate(`${prog} ${verb} ${spec.moderateReason ?? "changes things"}`),
    readOnly: false,
    exact: false,
    verb,
  };
}

function dangerVerbReason(prog: string, verb: string): string {
  if (/publish|push|deploy|release/.test(verb)) {
    return "publishes beyond this machine, which cannot be taken back";
  }
  if (/login|token|owner|access|adduser|logout|signin/.test(verb)) {
    return "handles your credentials or account";
  }
  if (
    /delete|destroy|purge|prune|drain|uninstall|yank|unpublish|mask|kill|taint|replace/.test(verb)
  ) return "deletes or replaces something that cannot be restored";
  return `is a risky ${prog} operation`;
}

const RM_RECURSIVE = (args: string[]) =>
  hasLongOption(args, "recursive") || hasShortOption(args, "r") || hasShortOption(args, "R");
const RM_FORCE = (args: string[]) => hasLongOption(args, "force") || hasShortOption(args, "f");

/** A path (as written, `~` expanded) that lies outside every folder the part may run in. */
function isOutside(path: string, part: Part): boolean {
  const home = part.vars.get("HOME");
  const expanded = path.replace(/^~(?=\/|$)/, home && "value" in home ? home.value : "~");
  if (!expanded.startsWith("/") && !expanded.startsWith("..")) return false;
  return part.cwds.every((cwd) => {
    const abs = absolutePath(expanded, cwd);
    return abs !== cwd && !abs.startsWith(cwd.endsWith("/") ? cwd : cwd + "/");
  });
}

/** What an option rule reads: the part, its program, its arguments and those not options. */
interface OptionInput {
  part: Part;
  prog: string;
  args: string[];
  positional: string[];
}

/** A rating by a program's options and operands. */
type OptionRule = (input: OptionInput) => ProgramRating;

function rated(rating: Rating, readOnly = false, exact = false): ProgramRating {
  return { rating, readOnly, exact };
}

/**
 * The programs rated by their options, not on the verb tables: one rule per
 * family of programs that take their options alike (the programs' names
 * separated by spaces).
 */
const OPTION_RULES: ReadonlyArray<readonly [programs: string, rule: OptionRule]> = [
  ["rm grm", rateRemove],
  ["rmdir unlink", rateUnlink],
  ["shred srm wipe", rateShred],
  ["cp mv install ln rsync ditto scp", rateCopy],
  ["touch mkdir mktemp mkfifo truncate patch split csplit", rateFileMaker],
  ["chmod chown chgrp chflags setfacl xattr", ratePermissions],
  ["dd", rateDd],
  ["tar gtar bsdtar", rateTar],
  ["unzip", rateUnzip],
  ["zip gzip gunzip bzip2 bunzip2 xz unxz zstd 7z", rateCompressor],
  ["curl wget http https xh aria2c fetch", rateDownload],
  ["ssh sftp telnet mosh", rateRemoteShell],
  ["nc ncat netcat socat", rateRawNetwork],
  ["ssh-keygen ssh-add ssh-copy-id gpg gpg2", rateKeys],
  ["kill killall pkill skill", rateKill],
  ["open xdg-open", rateOpen],
  ["code vim vi nvim nano emacs subl", rateEditor],
  ["at batch", rateScheduler],
  ["mount umount losetup swapon swapoff", rateMount],
  ["iptables ip6tables nft ufw pfctl firewall-cmd", rateFirewall],
  ["chattr", rateChattr],
  ["useradd userdel usermod passwd chpasswd groupadd dscl sysadminctl visudo", rateAccounts],
  [
    "spctl csrutil nvram tccutil bless kextload kextunload insmod rmmod modprobe",
    rateSystemSecurity,
  ],
  ["networksetup scutil pmset systemsetup softwareupdate", rateSystemSettings],
  ["sqlite3 psql mysql redis-cli mongo mongosh", rateDatabase],
  ["yes", rateYes],
  ["op pass gopass bw lpass vault keeper doppler infisical sops", rateSecretsManager],
  [
    "pip-audit shellcheck eslint tsc mypy ruff black prettier rustfmt gofmt clang-format swiftformat swiftlint",
    rateCodeChecker,
  ],
  ["pytest jest vitest mocha rspec ctest tox nox", rateTestRunner],
  [
    "cmake ninja meson bazel buck gcc g++ clang clang++ cc c++ rustc javac swiftc ld ar",
    rateBuildTool,
  ],
  ["docker-compose", rateCompose],
  ["shutdown reboot halt poweroff", rateShutdown],
  ["mkfs fdisk sfdisk gdisk cfdisk parted wipefs blkdiscard", rateDisks],
  ["sudo doas su pkexec", rateElevated],
  ["wisp wisp-tui", rateWisp],
  ["cd pushd popd", rateDirectoryChange],
  ["trap", rateTrap],
  ["watch", rateWatch],
  ["{ }", rateGroup],
];

const OPTION_RULE_OF = new Map<string, OptionRule>(
  OPTION_RULES.flatMap(([programs, rule]) =>
    programs.split(" ").map((program) => [program, rule] as const)
  ),
);

/** Programs rated by their options, not on the verb tables (OPTION_RULES). */
function rateSingle(
  part: Part,
  prog: string,
  args: string[],
): ProgramRating | undefined {
  const rule = OPTION_RULE_OF.get(prog);
  if (rule) return rule({ part, prog, args, positional: args.filter((a) => !a.startsWith("-")) });
  if (/^mkfs(\.\w+)?$|^newfs(_\w+)?$|^mke2fs$|^mkswap$/.test(prog)) {
    return rated(dangerous("formats a disk"));
  }
  return undefined;
}

function rateRemove({ part, args, positional }: OptionInput): ProgramRating {
  const targets = operandArgs(args);
  if (RM_RECURSIVE(args)) {
    return rated(
      dangerous(`deletes ${targets.length ? targets.join(" ") : "files"} recursively`),
    );
  }
  // Forced removal of what lies outside the folder the command runs in.
  const outside = RM_FORCE(args) && targets.find((t) => isOutside(t, part));
  if (outside) {
    return rated(dangerous(`force-deletes ${outside}, outside the folder it runs in`));
  }
  if (part.words.slice(1).some((w) => w.segs.some((s) => s.kind === "glob"))) {
    return rated(moderate(`deletes files matching ${positional.join(" ")}`));
  }
  if (part.argsAtRunTime) return rated(moderate("deletes files named at run time"));
  return rated(moderate(`deletes ${positional.join(" ") || "files"}`));
}

function rateUnlink({ positional }: OptionInput): ProgramRating {
  return rated(moderate(`deletes ${positional.join(" ")}`));
}

function rateShred(): ProgramRating {
  return rated(dangerous("destroys file contents beyond recovery"));
}

function rateCopy({ prog, args, positional }: OptionInput): ProgramRating {
  if (args.length > 0 && args.every((a) => /^--(help|version)$/.test(a))) {
    return rated(safe(`prints ${prog}'s help or version`), true);
  }
  if (prog === "scp" || (prog === "rsync" && positional.some((p) => /^[^/]*:/.test(p)))) {
    return rated(dangerous("copies files to or from another machine"));
  }
  if (prog === "rsync" && args.some((a) => a.startsWith("--delete"))) {
    return rated(dangerous("deletes files at the destination that are not in the source"));
  }
  if (
    (prog === "cp" || prog === "mv") &&
    (args.some((a) => /^-[a-zA-Z]*f/.test(a) || a === "--force") && RM_RECURSIVE(args))
  ) return rated(moderate(`${prog === "cp" ? "copies" : "moves"} folders over existing files`));
  return rated(
    moderate(
      `${
        prog === "cp" ? "copies" : prog === "mv" ? "moves" : prog === "ln" ? "links" : "copies"
      } files (${positional.slice(-1)[0] ?? ""})`,
    ),
  );
}

function rateFileMaker({ prog }: OptionInput): ProgramRating {
  return rated(
    moderate(prog === "mktemp" ? "creates a temporary file" : `changes files (${prog})`),
  );
}

function ratePermissions({ prog, args }: OptionInput): ProgramRating {
  if (
    prog === "xattr" && args.every((a) => a === "-l" || !a.startsWith("-")) &&
    !args.includes("-d") && !args.includes("-c") && !args.includes("-w")
  ) return rated(safe("reads extended attributes"), true);
  if (prog === "xattr" && args.join(" ").includes("quarantine")) {
    return rated(
      dangerous("removes the quarantine mark that makes macOS check downloaded programs"),
    );
  }
  if (RM_RECURSIVE(args)) {
    return rated(dangerous(`changes permissions or owners recursively (${prog} -R)`));
  }
  if (args.some((a) => /^([ugoa]*\+[rwxXst]*s|[0-7]?[4-7][0-7]{3})$/.test(a))) {
    return rated(dangerous("sets the setuid or setgid bit"));
  }
  if (prog === "chmod" && args.some((a) => /^0?777$|^a\+rwx$|^o\+w/.test(a))) {
    return rated(moderate("makes files writable by everyone"));
  }
  return rated(moderate(`changes permissions or owners (${prog})`));
}

function rateDd({ args }: OptionInput): ProgramRating {
  if (args.some((a) => /^of=\/dev\//.test(a))) {
    return rated(dangerous("writes raw data to a device"));
  }
  if (args.some((a) => a.startsWith("of="))) {
    return rated(moderate(`writes ${args.find((a) => a.startsWith("of="))!.slice(3)}`));
  }
  return rated(moderate("copies raw data"));
}

function rateTar({ args }: OptionInput): ProgramRating {
  const mode = (args[0] ?? "").replace(/^-/, "");
  if (
    /^[a-zA-Z]*t/.test(mode) && !/[cxru]/.test(mode) || args.includes("--list") ||
    args.includes("-t")
  ) return rated(safe("lists an archive"), true);
  if (/[x]/.test(mode) || args.includes("--extract") || args.includes("-x")) {
    return rated(moderate("unpacks an archive here"));
  }
  return rated(moderate("writes an archive"));
}

function rateUnzip({ args }: OptionInput): ProgramRating {
  if (args.some((a) => a === "-l" || a === "-v" || a === "-t" || a === "-Z")) {
    return rated(safe("lists an archive"), true);
  }
  return rated(moderate("unpacks an archive"));
}

function rateCompressor({ prog, args }: OptionInput): ProgramRating {
  if (
    args.some((a) =>
      a === "-l" || a === "-t" || a === "--list" || a === "-c" || a === "--stdout"
    ) && prog !== "zip"
  ) return rated(safe("reads a compressed file"), true);
  return rated(moderate(`compresses or unpacks files (${prog})`));
}

function rateDownload({ prog, args }: OptionInput): ProgramRating {
  return rateDownloader(prog, args);
}

function rateRemoteShell({ prog, args }: OptionInput): ProgramRating {
  if (args.some((a) => /^-[a-zA-Z]*[VGQ]$/.test(a))) {
    return rated(safe("prints ssh's settings"), true);
  }
  return rated(dangerous(`connects to another machine (${prog})`));
}

function rateRawNetwork(): ProgramRating {
  return rated(dangerous("opens raw network connections"));
}

function rateKeys({ prog, args }: OptionInput): ProgramRating {
  if (
    prog === "gpg" &&
    args.some((a) => /--(list-keys|list-public-keys|verify|fingerprint)$/.test(a)) &&
    !args.some((a) => /secret/.test(a))
  ) return rated(safe("lists or verifies keys"), true);
  return rated(dangerous(`handles keys (${prog})`));
}

function rateKill({ part, prog, args, positional }: OptionInput): ProgramRating {
  if (args.some((a) => a === "-l" || a === "-L")) return rated(safe("lists signals"), true);
  if (prog === "kill" && killArgs(part.words.slice(1)).signal === "0") {
    return rated(safe("checks that a process exists (signal 0 sends nothing)"), true);
  }
  if (positional.some((p) => p === "-1" || p === "1") || args.includes("-1")) {
    return rated(dangerous("signals every process you own, or init"));
  }
  if (prog !== "kill") return rated(dangerous(`stops every process matching a name (${prog})`));
  return rated(moderate("stops a process"));
}

function rateOpen({ args, positional }: OptionInput): ProgramRating {
  if (args.some((a) => a === "-a" || a.startsWith("-b"))) {
    return rated(moderate("opens an application"));
  }
  return rated(moderate(`opens ${positional[0] ?? "something"} in another application`));
}

function rateEditor({ prog }: OptionInput): ProgramRating {
  return rated(moderate(`opens an editor (${prog})`));
}

function rateScheduler({ args }: OptionInput): ProgramRating {
  if (args.some((a) => a === "-l" || a === "-c")) {
    return rated(safe("lists scheduled jobs"), true);
  }
  return rated(dangerous("schedules commands that run later, unwatched"));
}

function rateMount({ prog, args }: OptionInput): ProgramRating {
  if (prog === "mount" && args.length === 0) return rated(safe("lists mounts"), true);
  return rated(dangerous(`changes mounted file systems (${prog})`));
}

function rateFirewall(): ProgramRating {
  return rated(dangerous("changes the firewall"));
}

function rateChattr(): ProgramRating {
  return rated(dangerous("changes file attributes that protect files"));
}

function rateAccounts({ prog, args }: OptionInput): ProgramRating {
  if (prog === "dscl" && args.some((a) => /^-(read|list|search)$/.test(a))) {
    return rated(safe("reads the directory service"), true);
  }
  return rated(dangerous("changes user accounts or passwords"));
}

function rateSystemSecurity({ prog, args }: OptionInput): ProgramRating {
  if (
    args.some((a) => /^--?(status|assess|list|print|p)$/.test(a)) ||
    (prog === "nvram" && args.includes("-p"))
  ) return rated(safe("reads system security state"), true);
  return rated(dangerous("changes system security or boot settings"));
}

function rateSystemSettings({ prog, args }: OptionInput): ProgramRating {
  if (
    args.some((a) =>
      /^-?(get|list|show|-get|-list|-g|--get|-l)/.test(a) || /^--(dns|proxy|nwi)$/.test(a)
    )
  ) return rated(safe("reads system settings"), true);
  return rated(moderate(`changes system settings (${prog})`));
}

function rateDatabase({ prog, args }: OptionInput): ProgramRating {
  const sql = args.join(" ");
  if (/\b(drop|delete|truncate|flushall|flushdb|dropDatabase)\b/i.test(sql)) {
    return rated(dangerous("deletes data from a database"), false, true);
  }
  if (/\b(insert|update|create|alter|replace|set|del)\b/i.test(sql)) {
    return rated(moderate("changes a database"), false, true);
  }
  return rated(moderate(`queries a database (${prog})`), false, true);
}

function rateYes(): ProgramRating {
  return rated(safe("prints a line over and over"), true);
}

function rateSecretsManager({ prog, args }: OptionInput): ProgramRating {
  if (args.length > 0 && args.every((a) => /^(--version|-v|--help|-h|version|help)$/.test(a))) {
    return rated(safe("prints its version"), true);
  }
  return rated(dangerous(`reads or changes secrets in a secrets manager (${prog})`));
}

function rateCodeChecker({ prog, args }: OptionInput): ProgramRating {
  const writes = args.some((a) => /^(--write|-w|--fix|--in-place|-i|format|--inplace)$/.test(a)) ||
    (prog === "black" && !args.includes("--check") && !args.includes("--diff")) ||
    (prog === "ruff" && args[0] === "format");
  if (writes) return rated(moderate(`rewrites files (${prog})`));
  if (prog === "tsc" && !args.includes("--noEmit")) {
    return rated(moderate("compiles and writes output files"));
  }
  return rated(safe(`checks code (${prog})`), true);
}

function rateTestRunner({ prog }: OptionInput): ProgramRating {
  return rated(moderate(`runs the project's tests (${prog})`));
}

function rateBuildTool({ prog, args }: OptionInput): ProgramRating {
  if (args.length > 0 && args.every((a) => /^--?(version|help|v)$/.test(a))) {
    return rated(safe("prints its version"), true);
  }
  return rated(moderate(`builds code (${prog})`));
}

function rateCompose(): ProgramRating {
  return rated(moderate("changes containers"));
}

function rateShutdown(): ProgramRating {
  return rated(dangerous("shuts down or restarts the machine"));
}

function rateDisks(): ProgramRating {
  return rated(dangerous("changes disks or partitions"));
}

function rateElevated(): ProgramRating {
  return rated(dangerous("runs with elevated privileges"));
}

function rateWisp({ args, positional }: OptionInput): ProgramRating {
  const sub = positional.join(" ");
  if (
    args.length === 0 ||
    /^(doctor|logs|tools|models|completions|approvals( list| pending)?|classifier (list|measure)|config (get|list|path)|facts( list)?|questions( list)?)\b/
      .test(sub) ||
    args.every((a) => /^(-V|--version|-h|--help)$/.test(a))
  ) {
    return rated(safe("shows wisp's own information"), true);
  }
  return rated(moderate("runs wisp"));
}

function rateDirectoryChange(): ProgramRating {
  return rated(safe("changes the working directory"), true);
}

function rateTrap(): ProgramRating {
  // The handler is a payload of its own (analyse.ts), rated like any command line.
  return rated(safe("sets a command the shell runs on a signal, rated on its own"));
}

function rateWatch(): ProgramRating {
  return rated(safe("runs a command again and again, rated on its own"));
}

function rateGroup(): ProgramRating {
  return rated(safe("groups commands"), true);
}

function rateDownloader(prog: string, args: string[]): ProgramRating {
  const out = (rating: Rating): ProgramRating => ({ rating, readOnly: false, exact: false });
  const joined = args.join(" ");
  if (
    prog === "curl" &&
    (/(^|\s)(-X|--request)\s*=?\s*DELETE\b/i.test(joined) || /(^|\s)-XDELETE\b/i.test(joined))
  ) {
    return out(dangerous("deletes something on a server"));
  }
  if (
    prog === "curl" && args.some((a) => /^-X$|^--request$/.test(a)) &&
    /\b(PUT|PATCH|POST)\b/i.test(joined)
  ) return out(moderate("changes something on a server"));
  if (prog === "curl") {
    const dataOption = /^(-d|--data(-\w+)?|-F|--form(-string)?|--json)$/;
    const sendsFile = args.some((a, i) =>
      a === "-T" || a === "--upload-file" || /^-T./.test(a) ||
      (dataOption.test(args[i - 1] ?? "") && /(^@|=@|=<)/.test(a)) ||
      /^(--data(-\w+)?|--form|--json)=.*@/.test(a) || /^-[dF]@/.test(a)
    );
    if (sendsFile) return out(dangerous("sends a file's contents over the network"));
    if (
      args.some((a) => dataOption.test(a) || /^--(data|form|json)/.test(a) || /^-[dF]./.test(a))
    ) return out(moderate("sends data over the network"));
  }

  if (prog === "wget" && args.some((a) => /^--(post-file|body-file)/.test(a))) {
    return out(dangerous("sends a file's contents over the network"));
  }
  if (
    prog === "wget" &&
    !args.some((a) =>
      a === "-O-" || a === "-O" && args[args.indexOf(a) + 1] === "-" || a === "-qO-" ||
      a === "--output-document=-" || /^-\w*O-$/.test(a) || a === "--spider"
    )
  ) {
    return out(moderate("downloads files here"));
  }
  if (
    prog === "curl" &&
    args.some((a) =>
      /^(-o|--output|-O|--remote-name|--remote-name-all|-J|--output-dir)$/.test(a) ||
      /^-[a-zA-Z]*[oO]$/.test(a)
    )
  ) {
    return out(moderate("downloads a file here"));
  }
  if (args.some((a) => /^(-h|--help|-V|--version)$/.test(a))) {
    return { rating: safe("prints its version"), readOnly: true, exact: false };
  }
  return out(moderate(`fetches from the network (${prog})`));
}
