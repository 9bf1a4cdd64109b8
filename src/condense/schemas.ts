/**
 * The condensing tools' contracts, apart from their work: each tool's
 * arguments and its structured result as zod schemas. The MCP server lists
 * them (tools/list's inputSchema and outputSchema) without loading the code
 * that does the work, which it loads on a tool's first call; the tools
 * (tools.ts) parse their arguments and type their results with the same
 * schemas.
 */
import { z } from "zod";

const textOrPath = {
  text: z.string().optional().describe("the input itself (give this or path)"),
  path: z.string().optional().describe(
    "a file on this machine, absolute or relative to the working directory",
  ),
};

export const summariseDiffInput = z.object({
  ...textOrPath,
  max_files: z.number().int().min(1).max(200).optional().describe(
    "list at most this many files (default 40)",
  ),
}).strict();

const fileChangeOutput = z.object({
  path: z.string(),
  oldPath: z.string().optional(),
  status: z.enum(["added", "deleted", "modified", "renamed", "copied"]),
  binary: z.boolean(),
  added: z.number().int(),
  removed: z.number().int(),
  hunks: z.number().int(),
  symbols: z.array(z.string()).describe("functions or sections the hunk headers name"),
  modeChange: z.string().optional(),
});

/** summarise_diff's structured result: the files shown, the totals, how many files were held back. */
export const summariseDiffOutput = z.object({
  files: z.array(fileChangeOutput),
  totals: z.object({ files: z.number().int(), added: z.number().int(), removed: z.number().int() }),
  heldBack: z.number().int().describe("files not listed (over max_files)"),
});

export const jsonShapeInput = z.object({
  ...textOrPath,
  max_depth: z.number().int().min(1).max(32).optional().describe("nesting shown (default 8)"),
  max_keys: z.number().int().min(1).max(500).optional().describe(
    "keys shown per object (default 40)",
  ),
}).strict();

/** json_shape's structured result: the outline itself, and what kind of document it was. */
export const jsonShapeOutput = z.object({
  kind: z.enum(["json", "jsonl"]),
  records: z.number().int().optional().describe("JSON Lines: how many records were read"),
  outline: z.string().describe("the structure as an indented outline: keys, types, lengths"),
});

export const dependencyAuditInput = z.object({
  paths: z.array(z.string()).max(20).optional().describe(
    "lockfiles; default: the known lockfiles in the working directory",
  ),
  max_items: z.number().int().min(1).max(200).optional().describe(
    "list at most this many per section (default 20)",
  ),
}).strict();

/** dependency_audit's structured result: per lockfile, its counts, duplicates and marked packages. */
export const dependencyAuditOutput = z.object({
  lockfiles: z.array(z.object({
    path: z.string(),
    format: z.string(),
    ecosystem: z.enum(["npm", "deno", "cargo", "go", "python", "swift"]),
    packages: z.number().int().describe("packages pinned"),
    duplicates: z.array(z.object({ name: z.string(), versions: z.array(z.string()) })),
    marked: z.array(z.object({
      name: z.string(),
      version: z.string(),
      source: z.string().optional(),
      marks: z.array(z.string()),
    })).describe("packages with a mark, at most 200"),
  })),
});

export const condenseLogInput = z.object({
  ...textOrPath,
  last: z.string().optional().describe(
    "the system log's last stretch instead of text or path: 30s, 5m, 2h, 1d",
  ),
  top: z.number().int().min(1).max(100).optional().describe(
    "list at most this many message groups per section (default 10)",
  ),
}).strict();

const severityOutput = z.enum(["fatal", "error", "warning", "notice", "info", "debug"]);

/** One group of messages of one template, as condense_log's text lists it. */
export const logGroupOutput = z.object({
  line: z.number().int().describe("the first line it appeared on (1-based)"),
  severity: severityOutput.optional(),
  count: z.number().int().describe("how often it repeats"),
  template: z.string().describe("the message with its variable parts (numbers, ids) masked"),
  example: z.string().describe("its first line, as written"),
});

/** condense_log's structured result: the counts, the span, the severe and rare groups, the ends. */
export const condenseLogOutput = z.object({
  lines: z.number().int().describe("lines read"),
  severities: z.partialRecord(severityOutput, z.number().int()),
  distinct: z.number().int().describe("distinct messages (templates)"),
  span: z.object({ first: z.string(), last: z.string() }).optional().describe(
    "the first and last timestamps",
  ),
  severe: z.array(logGroupOutput).describe("warning and worse, worst and most frequent first"),
  rare: z.array(logGroupOutput).describe("messages seen at most twice"),
  first: z.string().optional().describe("the log's first line"),
  last: z.string().optional().describe("the log's last line"),
  heldBack: z.object({
    bytes: z.number().int(),
    lines: z.number().int(),
    exact: z.boolean(),
    afterLine: z.number().int().optional(),
  }).optional().describe("a stretch in the middle that was not read"),
  note: z.string().optional().describe("what was held back, as a sentence"),
});

export const hotPathsInput = z.object({
  path: z.string().optional().describe(
    "a profile to read instead of git churn: a V8 .cpuprofile (node or deno --cpu-prof) or the text " +
      "python3 -m cProfile prints; absolute or relative to the working directory",
  ),
  since: z.string().regex(/^[\w .:-]+$/, "a date or a duration such as 3.months or 2026-01-01")
    .optional().describe(
      "git churn only: commits after this, a git date such as 3.months or 2026-01-01",
    ),
  top: z.number().int().min(1).max(100).optional().describe(
    "list at most this many paths or functions (default 15)",
  ),
}).strict();

const profiledOutput = z.object({
  name: z.string(),
  location: z.string().describe("file:line, or empty for native code"),
  selfMs: z.number(),
  totalMs: z.number(),
  calls: z.number().int().optional(),
});

/** hot_paths' structured result: git churn by path, or a profile's hottest functions. */
export const hotPathsOutput = z.union([
  z.object({
    source: z.literal("git"),
    commits: z.number().int().describe("commits read"),
    paths: z.array(z.object({
      path: z.string(),
      commits: z.number().int(),
      added: z.number().int(),
      removed: z.number().int(),
      authors: z.number().int(),
    })),
    droppedBytes: z.number().int().optional().describe("git log bytes in the middle not read"),
    note: z.string().optional().describe("what was not read, as a sentence"),
  }),
  z.object({
    source: z.literal("profile"),
    format: z.enum(["cpuprofile", "cprofile"]),
    totalMs: z.number(),
    samples: z.number().int().optional(),
    functions: z.number().int().describe("functions in the profile"),
    bySelf: z.array(profiledOutput),
    byTotal: z.array(profiledOutput),
  }),
]);

export const flakyTestsInput = z.object({
  command: z.string().min(1).describe("the test command, as typed"),
  times: z.number().int().min(2).max(20).optional().describe("how many runs (default 5)"),
}).strict();

const verdictOutput = z.object({
  test: z.string(),
  failedRuns: z.array(z.number().int()).describe("the runs it failed in (1-based)"),
  location: z.string().optional(),
  message: z.string().describe("the first failure's message"),
});

/** flaky_tests' structured result: the runs' statuses, the flaky and failing tests, unexplained runs. */
export const flakyTestsOutput = z.object({
  runs: z.number().int(),
  exitStatuses: z.array(z.number().int().nullable()),
  flaky: z.array(verdictOutput).describe("failed in some runs and not others"),
  failing: z.array(verdictOutput).describe("failed in every run"),
  unexplainedRuns: z.array(z.number().int()).describe("failed runs no reader could explain"),
});

export const draftChangeInput = z.object({
  text: z.string().optional().describe(
    "the diff itself; with neither text nor path, the staged change (git diff --cached)",
  ),
  path: textOrPath.path,
  kind: z.enum(["commit", "pr", "changelog"]).optional().describe(
    "commit (default), pr or changelog",
  ),
}).strict();

/** draft_change's structured result: the draft itself, its kind, the model that wrote it. */
export const draftChangeOutput = z.object({
  draft: z.string().describe("the commit message, pull request description or changelog line"),
  kind: z.enum(["commit", "pr", "changelog"]),
  model: z.string().nullable().describe("the model that wrote it; null: a plain draft"),
  note: z.string().optional(),
});
