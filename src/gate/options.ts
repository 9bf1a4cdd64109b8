/**
 * Long options as GNU getopt reads them: any start of a long option's name that no other option
 * of the program shares stands for it (`rm --recu` is `rm --recursive`, `--fo` is `--force`).
 * The gate does not keep every program's option table, so a start is taken to mean every name
 * it could begin: reading `--re` as `--recursive` may over-rate a line, never under-rate it.
 */

/** Does `arg` (`--recu`, `--recursive=x`) stand for the long option `name` (without dashes)? */
export function isLongOption(arg: string, name: string): boolean {
  if (!arg.startsWith("--") || arg.length < 3) return false;
  const given = arg.slice(2).split("=")[0].toLowerCase();
  return given.length > 0 && name.startsWith(given);
}

/** The names among `names` that `arg` may stand for. */
export function longOptionNames(arg: string, names: readonly string[]): string[] {
  return names.filter((n) => isLongOption(arg, n));
}

/** The arguments getopt reads as options: everything before a `--` (GNU getopt permutes). */
export function optionArgs(args: readonly string[]): readonly string[] {
  const end = args.indexOf("--");
  return end < 0 ? args : args.slice(0, end);
}

/** The operands: arguments that are not options, and everything after `--`. */
export function operandArgs(args: readonly string[]): string[] {
  const end = args.indexOf("--");
  const before = end < 0 ? args : args.slice(0, end);
  const after = end < 0 ? [] : args.slice(end + 1);
  return [...before.filter((a) => !a.startsWith("-") || a === "-"), ...after];
}

/** Is the short option `letter` given, alone (`-f`) or in a cluster (`-rf`, `-vrf`)? */
export function hasShortOption(args: readonly string[], letter: string): boolean {
  return optionArgs(args).some((a) => /^-[A-Za-z0-9]+$/.test(a) && a.slice(1).includes(letter));
}

/** Is the long option `name` (without dashes) given, spelled out, abbreviated or with `=value`? */
export function hasLongOption(args: readonly string[], name: string): boolean {
  return optionArgs(args).some((a) => isLongOption(a, name));
}

/**
 * The long options the gate's rules read, per program, the most consequential first. An
 * abbreviation is rewritten to the first name it can begin (`rsync --del` → `--delete`,
 * `sed --in-pl=.bak` → `--in-place=.bak`), so every rule that reads options reads it spelled
 * out. Where a program would find the abbreviation ambiguous it refuses to run, so taking the
 * most consequential reading never under-rates.
 */
export const LONG_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  rm: ["recursive", "force", "dir"],
  cp: ["recursive", "force", "target-directory", "remove-destination"],
  mv: ["force", "target-directory"],
  ln: ["force", "symbolic", "target-directory"],
  install: ["target-directory"],
  chmod: ["recursive", "reference"],
  chown: ["recursive", "reference"],
  chgrp: ["recursive", "reference"],
  sed: ["in-place", "expression", "file"],
  sort: ["output"],
  tee: ["append"],
  shred: ["remove", "zero"],
  truncate: ["size", "reference"],
  base64: ["decode", "output"],
  curl: ["output", "output-dir", "remote-name", "upload-file", "request", "data", "config"],
  wget: ["output-document", "post-file", "body-file", "directory-prefix"],
  rsync: [
    "delete",
    "delete-before",
    "delete-during",
    "delete-delay",
    "delete-after",
    "delete-excluded",
    "remove-source-files",
    "rsh",
    "rsync-path",
  ],
  tar: [
    "extract",
    "create",
    "directory",
    "to-command",
    "use-compress-program",
    "remove-files",
    "absolute-names",
    "overwrite",
    "checkpoint-action",
    "info-script",
    "new-volume-script",
    "file",
  ],
  git: [
    "force",
    "force-with-lease",
    "force-if-includes",
    "hard",
    "delete",
    "mirror",
    "prune",
    "output",
    "discard-changes",
    "patch",
    "merge",
    "keep",
    "open-files-in-pager",
    "exec",
    "exec-path",
    "git-dir",
    "work-tree",
    "config-env",
    "no-pager",
    "dry-run",
    "staged",
    "worktree",
  ],
};

/** `arg` with an abbreviated long option of `program` spelled out; `arg` itself otherwise. */
export function spellOutLongOption(program: string, arg: string): string {
  const names = LONG_OPTIONS[program];
  if (!names || !arg.startsWith("--") || arg.length < 4) return arg;
  const eq = arg.indexOf("=");
  const given = arg.slice(2, eq < 0 ? undefined : eq);
  if (names.includes(given)) return arg;
  const full = names.find((n) => n.startsWith(given));
  return full === undefined ? arg : `--${full}${eq < 0 ? "" : arg.slice(eq)}`;
}
