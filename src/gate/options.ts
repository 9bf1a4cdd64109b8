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
