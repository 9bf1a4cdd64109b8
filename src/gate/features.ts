/**
 * What a remembered approval covered. Beside its pattern (`rm *`, `git commit *`) and its level,
 * an approval keeps the features of the line the person saw: code carried in an option or a
 * variable, environment variables set for the program, wrappers, targets outside the project,
 * recursive or forcing options, writes by redirection, arguments known only when the line runs.
 * A later line is covered only when it shows no feature the approved line lacked, so an answer
 * given for `rm notes.txt` never covers `rm --recu --fo ~`, and one for
 * `git commit --amend --no-edit` never covers `GIT_EDITOR='rm -rf ~;:' git commit --amend`.
 *
 * Features are short strings, compared as sets. Pure: the caller gives the project folder.
 */
import type { Part } from "./analyse.ts";
import { absolutePath, literal, resolveWord, type Word } from "./words.ts";
import { longOptionNames } from "./options.ts";
import { isWithin } from "../util/fs_safe.ts";

export interface FeatureContext {
  /** The project folder (the launch directory). */
  root: string;
  userHome: string;
}

/**
 * Long options that recurse, force, or throw things away, as GNU getopt matches them: any
 * unambiguous start of the name counts (`--recu`, `--fo`), so they are matched by prefix.
 */
const FORCING_OPTIONS = [
  "recursive",
  "force",
  "force-with-lease",
  "force-if-includes",
  "hard",
  "delete",
  "prune",
  "mirror",
  "purge",
  "no-preserve-root",
  "no-verify",
  "interactive",
];

/** Paths that name no file a command changes. */
const HARMLESS_DEVICES = /^\/dev\/(null|stdout|stderr|tty|fd\/[0-2])$/;

/** Where a path outside the project lies: temp, the home, or the rest of the machine. */
function outsideKind(abs: string, ctx: FeatureContext): string | undefined {
  if (HARMLESS_DEVICES.test(abs)) return undefined;
  if (isWithin(abs, ctx.root)) return undefined;
  if (/^\/(tmp|private\/tmp|var\/tmp|var\/folders|private\/var\/folders)(\/|$)/.test(abs)) {
    return "outside:tmp";
  }
  if (isWithin(abs, ctx.userHome)) return "outside:home";
  return "outside:system";
}

/** A word as a path target: the value after `--opt=`, or the word itself when it is no option. */
function pathValue(word: Word, part: Part, ctx: FeatureContext): string | null | undefined {
  const r = resolveWord(word, part.vars, ctx.userHome);
  if (r.unknown) return null;
  let value = r.value;
  if (value.startsWith("-")) {
    const eq = value.indexOf("=");
    if (eq < 0) return undefined;
    value = value.slice(eq + 1);
  }
  if (value === "") return undefined;
  return value;
}

/** The features of one part of a line; `null` (no part: an unreadable line) has one of its own. */
export function partFeatures(part: Part | null, ctx: FeatureContext): string[] {
  if (!part) return ["unreadable"];
  const out = new Set<string>();
  if (part.depth > 0) out.add("nested");
  if (part.payloadKind || part.payload !== null || part.payloadDynamic) out.add("payload");
  if (part.readsScriptFromStdin) out.add("payload");
  if (part.argsAtRunTime) out.add("runtime-args");
  if (part.dynamicProgram) out.add("dynamic-program");
  for (const w of part.wrappers) out.add(`wrapper:${w}`);
  for (const a of part.assignments) out.add(`env:${a.name}`);
  for (const h of part.hooks) out.add(`hook:${h.source}`);
  if (part.substitutions.length > 0) out.add("substitution");
  // Every folder the part may run in (a `cd` earlier in the line adds one).
  const cwds = part.cwds.slice(0, 4);
  const placeAll = (value: string) => {
    const v = value.replace(/^~(?=\/|$)/, ctx.userHome);
    for (const cwd of cwds) {
      const kind = outsideKind(absolutePath(v, cwd), ctx);
      if (kind) out.add(kind);
    }
  };

  let options = true;
  for (const word of part.words.slice(1)) {
    const l = literal(word);
    if (l === "--") {
      options = false;
      continue;
    }
    if (options && l !== undefined && l.startsWith("--")) {
      for (const name of longOptionNames(l, FORCING_OPTIONS)) out.add(`opt:${name}`);
    } else if (options && l !== undefined && /^-[A-Za-z0-9]+$/.test(l)) {
      if (/[rR]/.test(l)) out.add("opt:recursive");
      if (l.includes("f")) out.add("opt:force");
    }
    if (word.segs.some((s) => s.kind === "sub")) out.add("substitution");
    if (word.segs.some((s) => s.kind === "glob")) out.add("glob");
    const value = pathValue(word, part, ctx);
    if (value === null) {
      out.add("unknown-argument");
      continue;
    }
    if (value !== undefined) placeAll(value);
  }
  for (const redirect of part.cmd.redirects) {
    if (!redirect.target) continue;
    const r = resolveWord(redirect.target, part.vars, ctx.userHome);
    const writes = redirect.op.includes(">");
    if (r.unknown) {
      out.add(writes ? "writes-unknown" : "unknown-argument");
      continue;
    }
    if (HARMLESS_DEVICES.test(r.value)) continue;
    if (writes) out.add("writes");
    placeAll(r.value);
  }
  return [...out].sort();
}

/** Does an approval that covered `approved` cover a line with `asked`? Nothing new may appear. */
export function featuresCovered(approved: readonly string[], asked: readonly string[]): boolean {
  if (asked.length === 0) return true;
  const have = new Set(approved);
  return asked.every((f) => have.has(f));
}
