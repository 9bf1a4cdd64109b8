/**
 * The case sets as data: what one case is (a setup, the prompts, the scripted
 * person's answer, the exact check, and a reference answer), and the loader
 * that reads `eval/sets/<set>.json` and refuses a malformed case by its id.
 *
 * Prompts and check strings may name `{{project}}` (the scratch project's
 * path), `{{port}}` (a port the harness listens on) and `{{process}}` (the
 * name of a process the harness started); the runner fills them in.
 */
import { z } from "zod";
import { fileURLToPath } from "node:url";
import { join } from "node:path";

/** The sets, in the order the table lists them. */
export const SET_NAMES = [
  "edit_file",
  "system_info",
  "triage",
  "context",
  "tools",
  "draft",
] as const;
export type SetName = typeof SET_NAMES[number];

/** A tool call a scripted answer makes. */
const scriptedCall = z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()) });

/**
 * One turn of a scripted answer: rounds of tool calls, then the reply. The
 * reply may hold `{{result}}`, replaced by the last tool result the model
 * was sent (so a reply can quote what a tool said on this machine).
 */
const scriptedTurn = z.object({
  rounds: z.array(z.array(scriptedCall)).default([]),
  reply: z.string(),
});
export type ScriptedTurn = z.infer<typeof scriptedTurn>;

/** A fact read from this machine, independently of wisp's tools, that a reply must state. */
export const MACHINE_FACTS = [
  "cpu_count",
  "memory_total",
  "kernel_release",
  "hostname",
  "os_name",
  "ipv4_address",
  "disk_total",
  "listening_process",
  "process_pid",
  "battery",
  "today",
] as const;
export type MachineFact = typeof MACHINE_FACTS[number];

const replyCheck = z.object({
  /** Each must occur in the reply (case-insensitive). */
  contains: z.array(z.string()).default([]),
  /** Each must occur as a word of its own, not inside a longer word or number (12 is not in 512). */
  words: z.array(z.string()).default([]),
  /** Each group: at least one of its strings must occur (case-insensitive). */
  anyOf: z.array(z.array(z.string())).default([]),
  /** None may occur (case-insensitive). */
  lacks: z.array(z.string()).default([]),
  /** Facts of this machine the reply must state. */
  facts: z.array(z.enum(MACHINE_FACTS)).default([]),
}).strict();

const eventCheck = z.object({
  kind: z.string(),
  /** Fields the event must carry with exactly these values. */
  fields: z.record(z.string(), z.unknown()).default({}),
  /** How many such events (default: at least one). */
  count: z.number().int().min(0).optional(),
}).strict();

const findingCheck = z.object({
  kind: z.enum(["error", "warning", "test_failure"]),
  location: z.string().optional(),
  test: z.string().optional(),
}).strict();

/** The exact check of a case's outcome; every part given must hold. */
const check = z.object({
  /** Files (relative to the project) and their exact content afterwards. */
  files: z.record(z.string(), z.string()).default({}),
  /** Paths (absolute after filling in, or relative to the project) that must not exist. */
  absent: z.array(z.string()).default([]),
  /** Audit events of the turns. */
  events: z.array(eventCheck).default([]),
  /** Tool calls: each group names tools of which at least one must be called; `notCalled` none. */
  called: z.array(z.array(z.string())).default([]),
  notCalled: z.array(z.string()).default([]),
  /** system_info must be asked one of these topics. */
  topics: z.array(z.string()).default([]),
  /** The last turn's reply. */
  reply: replyCheck.optional(),
  /** triage: exactly these errors and test failures (warnings only when listed). */
  findings: z.array(findingCheck).optional(),
  /** draft: the rules the model's own text must keep. */
  draft: z.object({
    kind: z.enum(["commit", "pr", "changelog"]),
    /** Each must occur in the draft (case-insensitive): the change's own names. */
    mentions: z.array(z.string()).default([]),
  }).strict().optional(),
}).strict();
export type Check = z.infer<typeof check>;

const setup = z.object({
  /** Files of the scratch project, relative path → content. */
  files: z.record(z.string(), z.string()).default({}),
  /** Files of the scratch project made of this many bytes (for questions about sizes). */
  sized: z.record(z.string(), z.number().int().min(0).max(64 * 1024 * 1024)).default({}),
  /** Files of the scratch project copied from eval/fixtures/ (project path → fixture name). */
  copy: z.record(z.string(), z.string()).default({}),
  /** Make the project a git repository with these files committed. */
  git: z.boolean().default(false),
  /** After that commit, write these and stage them (git add). */
  staged: z.record(z.string(), z.string()).default({}),
  /** Listen on a loopback port ({{port}}) for the case. */
  listen: z.boolean().default(false),
  /** Start a long-running process with a name of its own ({{process}}). */
  process: z.boolean().default(false),
}).strict();

/** One case as a set file holds it (defaults filled in when parsed). */
export const caseSchema = z.object({
  id: z.string().regex(/^[a-z0-9_.-]+$/),
  /** The shape of behaviour the case measures, for the table and the docs. */
  about: z.string(),
  setup: setup.default({
    files: {},
    sized: {},
    copy: {},
    git: false,
    staged: {},
    listen: false,
    process: false,
  }),
  /** config.json for the case's scratch home. */
  config: z.record(z.string(), z.unknown()).default({}),
  /** The tools offered (default: every tool a session offers). */
  tools: z.array(z.string()).optional(),
  /** What the scripted person answers when the gate asks. */
  approvals: z.enum(["approve", "deny"]).default("approve"),
  /** Tools the case cannot run without (skipped with the reason when a build lacks one). */
  needs: z.array(z.string()).default([]),
  /** The person's messages, one turn each. Ignored by triage and draft. */
  prompts: z.array(z.string()).default([]),
  /** triage: the command's output, its command line and exit status. */
  output: z.object({ command: z.string(), exitStatus: z.number().int(), text: z.string() })
    .optional(),
  /** draft: the diff (absent: the staged change of setup.staged, read through the gate). */
  diff: z.string().optional(),
  check,
  /** An answer that passes (one per turn), for the harness's own test. */
  reference: z.array(scriptedTurn),
  /** An answer that fails; absent: a reply of "Done." with no tool call. */
  wrong: z.array(scriptedTurn).optional(),
}).strict();
export type EvalCase = z.infer<typeof caseSchema>;

/** A set read from its file. */
export interface CaseSet {
  name: SetName;
  cases: EvalCase[];
}

/** The folder of the larger files cases copy into their project. */
export const FIXTURES_DIR = fileURLToPath(new URL("./fixtures/", import.meta.url));

/** The folder the set files live in. */
export const SETS_DIR = fileURLToPath(new URL("./sets/", import.meta.url));

/** Read one set; a malformed case is an error naming the set and the case. */
export function loadSet(name: SetName, dir = SETS_DIR): CaseSet {
  const path = join(dir, `${name}.json`);
  const raw = JSON.parse(Deno.readTextFileSync(path)) as { cases?: unknown[] };
  if (!Array.isArray(raw.cases)) throw new Error(`${path} has no "cases" list`);
  const seen = new Set<string>();
  const cases = raw.cases.map((value, index) => {
    const parsed = caseSchema.safeParse(value);
    const id = (value as { id?: string })?.id ?? `#${index + 1}`;
    if (!parsed.success) {
      throw new Error(`set ${name}, case ${id}: ${z.prettifyError(parsed.error)}`);
    }
    if (seen.has(parsed.data.id)) throw new Error(`set ${name}: case id ${id} appears twice`);
    seen.add(parsed.data.id);
    return parsed.data;
  });
  return { name, cases };
}

/** Whether a word names a set. */
export function isSetName(word: string): word is SetName {
  return (SET_NAMES as readonly string[]).includes(word);
}
