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
