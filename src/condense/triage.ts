/**
 * triage: an output in, a headline and a capped list of findings out.
 * The exact readers go first; what no reader accounted for is cut into 4 KiB
 * chunks at line ends, and, when a model is configured, each chunk is judged
 * in a fresh tool-less turn (judge.ts). Findings are merged, duplicates
 * dropped, the list ranked (errors and failed tests before warnings) and
 * capped, with the number held back named.
 */
import { dedupe, type Finding } from "./findings.ts";
import { type Scanned, scanText } from "./scan.ts";
import { FAILED_RUN_READERS } from "./readers/index.ts";
import type { ChunkJudge } from "./judge.ts";
import { plural } from "../util/plural.ts";

/**
 * What a condensing tool other than triage reads of an input at most (head and tail halves);
 * triage itself reads every byte (scan.ts), and the runner keeps this much of a command's output.
 */
export const CAPTURE_LIMIT = 1024 * 1024;
/** Chunks handed to the model are at most this long, cut at line ends. */
export const CHUNK_CHARS = 4096;
/** Findings listed unless the caller asks for another cap. */
const DEFAULT_CAP = 25;
/** Chunks judged at most in one triage; the rest are counted as not judged. */
export const MAX_JUDGED_CHUNKS = 64;

export interface TriageOptions {
  /** The command that produced the output, for the headline. */
  command?: string;
  /** Its exit status (null: ended by a signal; undefined: not known, as for a file). */
  exitStatus?: number | null;
  /** At most this many findings are listed. */
  cap?: number;
  /** What was read when there was no command: a path, or "stdin". */
  source?: string;
  /** Bytes of the output dropped before triage saw it (the middle of an over-long output). */
  droppedBytes?: number;
}

/**
 * What the triage concluded, and the exit code `wisp triage` gives it (the MCP
 * tool returns the same code): `clean` 0 — nothing failed that triage can see;
 * `failures` 1 — errors or failed tests found; `unexplained` 2 — the command
 * failed (a non-zero or missing exit status) and no reader found why.
 */
export type Outcome = "clean" | "failures" | "unexplained";

/** The exit code of each outcome (docs/exit-codes.md). */
export const OUTCOME_EXIT: Record<Outcome, number> = { clean: 0, failures: 1, unexplained: 2 };

/** Lines of the output's end kept as the evidence of a failure no reader explained. */
export const EVIDENCE_LINES = 20;
/** Characters of each evidence line kept. */
const EVIDENCE_CHARS = 300;

/** One line of the output, numbered from 1 in the whole output. */
export interface NumberedLine {
  line: number;
  text: string;
}

export interface TriageResult {
  headline: string;
  outcome: Outcome;
  /** For `unexplained`: the output's last non-blank lines, numbered, each clipped (EVIDENCE_LINES, EVIDENCE_CHARS). */
  evidence: NumberedLine[];
  findings: Finding[];
  /** The text no reader accounted for, in chunks of at most CHUNK_CHARS cut at line ends. */
  unexplained: string[];
  /** Findings beyond the cap. */
  heldBack: number;
  counts: Counts;
  /** The readers whose format appeared. */
  readers: string[];
  /** Sentences the headline carries after the counts. */
  notes: string[];
}

export interface Counts {
  errors: number;
  test_failures: number;
  warnings: number;
}

/** Keeps an over-long output's first and last halves of `limit` (build errors come early, test summaries late). */
export function boundBytes(
  bytes: Uint8Array,
  limit = CAPTURE_LIMIT,
): { text: string; droppedBytes: number } {
  const decoder = new TextDecoder();
  if (bytes.length <= limit) return { text: decoder.decode(bytes), droppedBytes: 0 };
  const half = Math.floor(limit / 2);
  const head = decoder.decode(bytes.subarray(0, half));
  const tail = decoder.decode(bytes.subarray(bytes.length - half));
  return { text: `${head}\n${tail}`, droppedBytes: bytes.length - 2 * half };
}

/**
 * The lines no reader explained, as chunks of at most `size` characters cut at
 * line ends (a single longer line is cut where it must be). Runs of explained
 * lines between them are left out; a chunk never spans such a gap silently —
 * a line `…` marks where explained lines were skipped.
 */
export function unexplainedChunks(
  lines: string[],
  explained: Set<number> | Uint8Array,
  size = CHUNK_CHARS,
): string[] {
  const isExplained = explained instanceof Uint8Array
    ? (i: number) => explained[i] === 1
    : (i: number) => explained.has(i);
  const chunks: string[] = [];
  let current = "";
  let gap = false;
  const flush = () => {
    if (current.trim() !== "") chunks.push(current.replace(/\n$/, ""));
    current = "";
  };
  for (let i = 0; i < lines.length; i++) {
    if (isExplained(i)) {
      gap = current !== "";
      continue;
    }
    let line = lines[i] + "\n";
    if (gap) {
      line = "…\n" + line;
      gap = false;
    }
    while (line.length > size) {
      flush();
      chunks.push(line.slice(0, size));
      line = line.slice(size);
    }
    if (current.length + line.length > size) flush();
    current += line;
  }
  flush();
  return chunks;
}

const RANK: Record<Finding["kind"], number> = { error: 0, test_failure: 0, warning: 1 };

/** Errors and failed tests first, warnings after, each in the order the output gave them. */
function rankFindings(findings: Finding[]): Finding[] {
  return findings.map((f, i) => ({ f, i })).sort((a, b) =>
    RANK[a.f.kind] - RANK[b.f.kind] || a.i - b.i
  ).map((x) => x.f);
}

export function countFindings(findings: Finding[]): Counts {
  const counts: Counts = { errors: 0, test_failures: 0, warnings: 0 };
  for (const f of findings) {
    if (f.kind === "error") counts.errors++;
    else if (f.kind === "test_failure") counts.test_failures++;
    else counts.warnings++;
  }
  return counts;
}

export interface HeadlineInput {
  command?: string;
  source?: string;
  exitStatus?: number | null;
  counts: Counts;
  heldBack: number;
  shown: number;
  notes?: string[];
  /** The command failed and no reader explained it; `evidence` lines follow the headline. */
  unexplained?: { evidenceLines: number };
}

/** `cargo test: exit 101; 3 failed tests, 1 error (showing 25 of 40); <notes>` */
export function headline(input: HeadlineInput): string {
  const subject = input.command ?? input.source ?? "output";
  const status = input.exitStatus === undefined
    ? ""
    : input.exitStatus === null
    ? "ended without an exit status"
    : `exit ${input.exitStatus}`;
  const { errors, test_failures, warnings } = input.counts;
  const parts: string[] = [];
  if (test_failures) parts.push(plural(test_failures, "failed test", "failed tests"));
  if (errors) parts.push(plural(errors, "error", "errors"));
  if (warnings) parts.push(plural(warnings, "warning", "warnings"));
  let counts = parts.length > 0 ? parts.join(", ") : "no failures found";
  if (input.unexplained) {
    // Never "no failures" for a command that failed: say what is known and what is not.
    const found = parts.length > 0 ? `${parts.join(", ")} but no error or failed test` : "";
    const n = input.unexplained.evidenceLines;
    const evidence = n === 0
      ? "it printed nothing"
      : n === 1
      ? "the output's last line follows"
      : `the output's last ${n} lines follow`;
    counts = `failed, and no reader found why${found ? ` (${found})` : ""}; ${evidence}`;
  }
  if (input.heldBack > 0) counts += ` (showing ${input.shown} of ${input.shown + input.heldBack})`;
  const head = [subject + ":", status && status + ";", counts].filter(Boolean).join(" ");
  const notes = (input.notes ?? []).filter(Boolean);
  return notes.length > 0 ? `${head}; ${notes.join("; ")}` : head;
}

/**
 * The outcome: failures found, else a failed exit status unexplained, else clean. Warnings explain a
 * failed run only when the readers accounted for every line of it (a linter that fails on warnings,
 * pylint's or flake8's way): with anything left unread, the failure may be in what was not read.
 */
export function outcomeOf(
  counts: Counts,
  exitStatus: number | null | undefined,
  allRead = false,
): Outcome {
  if (counts.errors + counts.test_failures > 0) return "failures";
  if (exitStatus === undefined || exitStatus === 0) return "clean";
  return counts.warnings > 0 && allRead ? "failures" : "unexplained";
}

/** One line clipped to EVIDENCE_CHARS, the cut marked. */
export function clipLine(text: string): string {
  return text.length <= EVIDENCE_CHARS ? text : text.slice(0, EVIDENCE_CHARS - 1) + "…";
}

function kib(chars: number): string {
  return chars < 1024 ? `${chars} B` : `${Math.round(chars / 1024)} KiB`;
}

interface ExactPart {
  all: Finding[];
  /** Findings found beyond those kept (a huge output), by kind: counted, not listed. */
  overflow: Counts;
  /** The output's last lines, the evidence should the command have failed unexplained. */
  tail: NumberedLine[];
  unexplained: string[];
  /** Unexplained chunks in all, and their characters (more than `unexplained` holds when it was bounded). */
  chunkCount: number;
  unexplainedChars: number;
  readers: string[];
  notes: string[];
}

/** The scan's findings as triage takes them: a command that exited 0 did not die. */
function exactPart(input: string | Scanned, opts: TriageOptions): ExactPart {
  const scanned = typeof input === "string" ? scanText(input) : input;
  // A command that exited 0 did not die: a traceback it printed (a logged exception) is not a crash.
  const passed = opts.exitStatus === 0;
  const all = passed
    ? scanned.findings.filter((_, k) => !FAILED_RUN_READERS.has(scanned.foundBy[k]))
    : scanned.findings;
  const readers = passed
    ? scanned.readers.filter((r) => !FAILED_RUN_READERS.has(r))
    : scanned.readers;
  const notes: string[] = [];
  const dropped = opts.droppedBytes ?? 0;
  if (dropped > 0) notes.push(`${kib(dropped)} in the middle of the output not read`);
  const overflow = scanned.overflow.errors + scanned.overflow.test_failures +
    scanned.overflow.warnings;
  if (overflow > 0) notes.push(`${overflow} more findings counted but not kept`);
  return {
    all,
    overflow: scanned.overflow,
    tail: scanned.tail,
    unexplained: scanned.chunks,
    chunkCount: scanned.chunkCount,
    unexplainedChars: scanned.unexplainedChars,
    readers,
    notes,
  };
}

/** Readers only: the exact part of triage, pure and synchronous. */
export function triageText(text: string, opts: TriageOptions = {}): TriageResult {
  const exact = exactPart(text, opts);
  return finish(exact.all, exact, opts, exact.notes);
}

function finish(
  all: Finding[],
  exact: ExactPart,
  opts: TriageOptions,
  notes: string[],
): TriageResult {
  const { tail, unexplained, readers } = exact;
  const merged = rankFindings(dedupe(all));
  const cap = Math.max(1, opts.cap ?? DEFAULT_CAP);
  const findings = merged.slice(0, cap);
  const over = exact.overflow;
  const heldBack = merged.length - findings.length + over.errors + over.test_failures +
    over.warnings;
  const listed = countFindings(merged);
  const counts = {
    errors: listed.errors + over.errors,
    test_failures: listed.test_failures + over.test_failures,
    warnings: listed.warnings + over.warnings,
  };
  const outcome = outcomeOf(counts, opts.exitStatus, exact.chunkCount === 0);
  const evidence = outcome === "unexplained" ? tail : [];
  return {
    outcome,
    evidence,
    headline: headline({
      command: opts.command,
      source: opts.source,
      exitStatus: opts.exitStatus,
      counts,
      heldBack,
      shown: findings.length,
      notes,
      ...(outcome === "unexplained" ? { unexplained: { evidenceLines: evidence.length } } : {}),
    }),
    findings,
    unexplained,
    heldBack,
    counts,
    readers,
    notes,
  };
}

export interface JudgedTriage extends TriageResult {
  /** Chunks the model judged, failed on, and did not reach (over MAX_JUDGED_CHUNKS). */
  judged: { chunks: number; failed: number; skipped: number; model?: string };
}

export interface TriageRun extends TriageOptions {
  /** The model step; absent when no model is configured. */
  judge?: ChunkJudge;
  /** Why there is no judge, for the headline ("no model configured"). */
  noJudgeReason?: string;
  signal?: AbortSignal;
  maxChunks?: number;
}

/**
 * The whole triage: readers, then the model on the chunks they left (when a
 * judge is given), merged. Without a judge it reports from the readers and
 * says so when something was left unexplained.
 */
export async function triage(
  input: string | Scanned,
  run: TriageRun = {},
): Promise<JudgedTriage> {
  const exact = exactPart(input, run);
  const notes = [...exact.notes];
  const judged = { chunks: 0, failed: 0, skipped: 0, model: run.judge?.model };
  const extra: Finding[] = [];
  const unexplainedChars = exact.unexplainedChars;
  // A command that exited 0 passed: what the readers left is its ordinary output, and a model shown it could
  // only invent failures. Nothing is sent; the headline says so.
  const passed = run.exitStatus === 0;
  if (passed && exact.unexplained.length > 0 && run.judge) {
    notes.push("exit 0: nothing sent to the model");
  } else if (exact.unexplained.length > 0 && run.judge) {
    const max = run.maxChunks ?? MAX_JUDGED_CHUNKS;
    const todo = exact.unexplained.slice(0, max);
    // The scan keeps the first and last chunks of a long output; those between were counted, not kept.
    judged.skipped = exact.chunkCount - todo.length;
    for (const [index, chunk] of todo.entries()) {
      if (run.signal?.aborted) {
        judged.skipped += todo.length - index;
        break;
      }
      try {
        const found = await run.judge.judge(chunk, {
          command: run.command,
          exitStatus: run.exitStatus,
          index,
          total: exact.chunkCount,
          signal: run.signal,
        });
        extra.push(...found);
        judged.chunks++;
      } catch {
        judged.failed++;
      }
    }
    notes.push(
      `the model (${run.judge.model}) judged ${judged.chunks} of ${exact.chunkCount} unexplained chunks`,
    );
    if (judged.failed > 0) notes.push(`${judged.failed} chunks failed`);
    if (judged.skipped > 0) notes.push(`${judged.skipped} chunks not judged`);
  } else if (exact.unexplained.length > 0) {
    notes.push(
      `exact readers only (${run.noJudgeReason ?? "no model configured"}); ${
        kib(unexplainedChars)
      } no reader explained`,
    );
  }
  const result = finish([...exact.all, ...extra], exact, run, notes);
  return { ...result, judged };
}
