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
import { type JudgedTriage, triage } from "./triage.ts";

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
  const { resolveModel } = await import("../models/registry.ts");
  try {
    const backend = resolveModel(name, config);
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
  text: string;
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
    counts: { ...result.counts },
    heldBack: result.heldBack,
    readers: result.readers,
    chunksUnexplained: result.unexplained.length,
    chunksJudged: result.judged.chunks,
    model: result.judged.model ?? null,
  });
  return result;
}

/**
 * The JSON the CLI and the MCP tool return: the headline and the findings'
 * four fields; with `detail`, each finding's detail lines too (the expected
 * and actual values, a code frame), as the text shows them.
 */
export function triageJson(
  result: { headline: string; findings: Finding[] },
  opts: { detail?: boolean } = {},
): { headline: string; findings: Record<string, string | string[]>[] } {
  return {
    headline: result.headline,
    findings: result.findings.map((f) => {
      const o: Record<string, string | string[]> = { kind: f.kind };
      if (f.location) o.location = f.location;
      if (f.test) o.test = f.test;
      o.message = f.message;
      if (opts.detail && f.detail && f.detail.length > 0) o.detail = f.detail.map((d) => d.trim());
      return o;
    }),
  };
}

const LABEL: Record<Finding["kind"], string> = {
  error: "error",
  warning: "warning",
  test_failure: "failed",
};

/** For a person: the headline, then one line per finding and its detail indented. */
export function renderTriage(result: { headline: string; findings: Finding[] }): string {
  const lines = [result.headline];
  for (const f of result.findings) {
    const where = [f.test, f.location].filter(Boolean).join(" at ");
    lines.push(`  ${LABEL[f.kind]}${where ? " " + where : ""}: ${f.message}`);
    for (const d of f.detail ?? []) lines.push(`      ${d.trim()}`);
  }
  return lines.join("\n");
}
