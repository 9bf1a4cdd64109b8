/**
 * Triage as a service for the faces (CLI, MCP): choose the model step from
 * the config, run triage over text already read, audit it as a session of
 * its own (`triage-<id>`: session.start, each model turn as prompt and
 * response, one triage event at the end), and render the result.
 */
import type { AuditSink } from "../audit/writer.ts";
import type { Config } from "../config/schema.ts";
import type { Finding } from "./findings.ts";
import { type ChunkJudge, modelJudge } from "./judge.ts";
import {
  type JudgedTriage,
  type NumberedLine,
  type Outcome,
  OUTCOME_EXIT,
  triage,
  type TriageResult,
} from "./triage.ts";
import type { Scanned } from "./scan.ts";

export interface JudgeChoice {
  judge?: ChunkJudge;
  /** Why there is none: said in the headline. */
  reason?: string;
}

/**
 * The model for triage's model step: `--model`, else routing.tasks.triage,
 * else the configured model. A model named on the command line that cannot be
 * used is an error; the configured one falling through means readers only.
 */
export async function chooseJudge(
  config: Config,
  opts: { model?: string | false; audit?: AuditSink },
): Promise<JudgeChoice> {
  if (opts.model === false) return { reason: "model step off" };
  const explicit = typeof opts.model === "string";
  const name = explicit ? opts.model as string : config.routing.tasks.triage ?? config.model;
  const { chooseForTask } = await import("../models/choose.ts");
  try {
    // routing.tasks.triage, else the model; routing.ladder when that is unavailable (--model never falls back).
    const backend =
      (await chooseForTask("triage", config, explicit ? { model: name } : {})).backend;
    const audit = opts.audit;
    return {
      judge: modelJudge(
        backend,
        audit
          ? (prompt, reply) => {
            audit.record("prompt", { text: prompt, model: backend.name });
            audit.record("response", { text: reply, model: backend.name });
          }
          : undefined,
      ),
    };
  } catch (error) {
    if (explicit) throw error;
    return { reason: `no model configured: ${name} is not available here` };
  }
}

export interface TriageRequest {
  /** The output: already scanned (every byte through the readers), or a text to scan. */
  text: string | Scanned;
  source: "command" | "path" | "stdin" | "text";
  command?: string;
  path?: string;
  exitStatus?: number | null;
  bytes: number;
  droppedBytes?: number;
  cap?: number;
  choice: JudgeChoice;
  audit?: AuditSink;
  signal?: AbortSignal;
}

export async function runTriage(req: TriageRequest): Promise<JudgedTriage> {
  const result = await triage(req.text, {
    command: req.command,
    source: req.source === "path" ? req.path : req.source === "stdin" ? "stdin" : undefined,
    exitStatus: req.exitStatus,
    cap: req.cap,
    droppedBytes: req.droppedBytes,
    judge: req.choice.judge,
    noJudgeReason: req.choice.reason,
    signal: req.signal,
  });
  req.audit?.record("triage", {
    source: req.source,
    ...(req.command !== undefined ? { command: req.command } : {}),
    ...(req.path !== undefined ? { path: req.path } : {}),
    ...(req.exitStatus !== undefined ? { exitStatus: req.exitStatus } : {}),
    bytes: req.bytes,
    headline: result.headline,
    outcome: result.outcome,
    counts: { ...result.counts },
    heldBack: result.heldBack,
    readers: result.readers,
    chunksUnexplained: result.unexplained.length,
    chunksJudged: result.judged.chunks,
    model: result.judged.model ?? null,
  });
  return result;
}

/** A finding as the JSON carries it: its kind, place, test, message and detail lines (expected/received values). */
export interface FindingJson {
  kind: Finding["kind"];
  location?: string;
  test?: string;
  message: string;
  detail?: string[];
}

/** The JSON the CLI and the MCP tool return (one shape for both; ADR 0175). */
export interface TriageJson {
  headline: string;
  /** clean, failures or unexplained (the command failed and no reader found why). */
  outcome: Outcome;
  /** The exit code `wisp triage` gives this outcome: 0, 1 or 2. */
  exitCode: number;
  findings: FindingJson[];
  /** For `unexplained`: the output's last lines, numbered in the whole output. */
  evidence?: NumberedLine[];
}

/** The JSON the CLI and the MCP tool return: the headline, the outcome and its code, the findings, the evidence. */
export function triageJson(
  result: Pick<TriageResult, "headline" | "findings" | "outcome" | "evidence">,
): TriageJson {
  return {
    headline: result.headline,
    outcome: result.outcome,
    exitCode: OUTCOME_EXIT[result.outcome],
    findings: result.findings.map((f): FindingJson => ({
      kind: f.kind,
      ...(f.location ? { location: f.location } : {}),
      ...(f.test ? { test: f.test } : {}),
      message: f.message,
      ...(f.detail && f.detail.length > 0 ? { detail: [...f.detail] } : {}),
    })),
    ...(result.evidence.length > 0 ? { evidence: result.evidence.map((e) => ({ ...e })) } : {}),
  };
}

const LABEL: Record<Finding["kind"], string> = {
  error: "error",
  warning: "warning",
  test_failure: "failed",
};

/** For a person: the headline, one line per finding and its detail indented, then any evidence lines. */
export function renderTriage(
  result: Pick<TriageResult, "headline" | "findings"> & { evidence?: NumberedLine[] },
): string {
  const lines = [result.headline];
  for (const f of result.findings) {
    const where = [f.test, f.location].filter(Boolean).join(" at ");
    lines.push(`  ${LABEL[f.kind]}${where ? " " + where : ""}: ${f.message}`);
    for (const d of f.detail ?? []) lines.push(`      ${d.trim()}`);
  }
  const evidence = result.evidence ?? [];
  const width = String(evidence[evidence.length - 1]?.line ?? "").length;
  for (const e of evidence) lines.push(`  ${String(e.line).padStart(width)} | ${e.text}`);
  return lines.join("\n");
}
