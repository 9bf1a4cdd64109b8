/**
 * git's subcommands that only read the repository: they show, list, compare
 * or check, and change neither the work tree, the index, the refs nor the
 * configuration. The gate rates them safe (programs.ts) and does not count
 * the repository they are pointed at as written (targets.ts); both read this
 * one list.
 */
export const GIT_READ_ONLY_VERBS: readonly string[] = [
  "status",
  "log",
  "diff",
  "show",
  "blame",
  "grep",
  "ls-files",
  "ls-tree",
  "ls-remote",
  "rev-parse",
  "describe",
  "shortlog",
  "help",
  "version",
  "cat-file",
  "count-objects",
  "check-ignore",
  "name-rev",
  "merge-base",
  "for-each-ref",
  "var",
  "whatchanged",
  "cherry",
  "range-diff",
  "show-ref",
  "show-branch",
  "rev-list",
  "annotate",
  "diff-tree",
  "diff-files",
  "diff-index",
  "verify-commit",
  "verify-tag",
  "fsck",
  "check-attr",
  "--version",
  "--help",
];
