/**
 * The model step of triage: one chunk of output that no exact reader
 * explained, judged in a fresh, tool-less turn held to a fixed schema. The
 * prompt and the schema are fixed here, never supplied by a caller. What the
 * model returns is checked against the chunk: a location or test name that
 * does not occur in it is dropped, so a finding cannot point at a place the
 * output never named.
 */
import { z } from "zod";
import type { Backend, ChatRequest } from "../models/backend.ts";
import { type Finding, finding } from "./findings.ts";

export interface JudgeContext {
  command?: string;
  exitStatus?: number | null;
  /** Which chunk this is (from 0) and of how many. */
  index: number;
  total: number;
  signal?: AbortSignal;
}

export interface ChunkJudge {
  /** The model's name, for the headline and the audit. */
  readonly model: string;
  judge(chunk: string, context: JudgeContext): Promise<Finding[]>;
}

export const JUDGE_INSTRUCTIONS = [
  "You read one chunk of the output of a build, a test run, a linter or another command.",
  "List the problems the chunk itself reports: compiler or tool errors, warnings, and failed tests.",
  "Copy each file:line location and each test name exactly as it appears in the chunk; leave them out when the chunk has none.",
  "Give each problem a one-line message in the output's own words.",
  "Do not report passing tests, progress, or text that merely contains a word like error.",
  "If the chunk reports no problem, return an empty list.",
].join(" ");

const judgedFinding = z.object({
  kind: z.enum(["error", "warning", "test_failure"]),
  location: z.string().optional(),
  test: z.string().optional(),
  message: z.string().min(1),
});
const JUDGE_SCHEMA = z.object({ findings: z.array(judgedFinding).max(50) });
const JUDGE_JSON_SCHEMA = z.toJSONSchema(JUDGE_SCHEMA, { io: "input" }) as Record<
  string,
  unknown
>;

function judgePrompt(chunk: string, context: JudgeContext): string {
  const about = context.command
    ? `Command: ${context.command}${
      context.exitStatus === undefined ? "" : ` (exit ${context.exitStatus ?? "none"})`
    }\n`
    : "";
  return `${about}Chunk ${context.index + 1} of ${context.total}:\n<<<\n${chunk}\n>>>`;
}

/** The reply's findings, with what the chunk does not support dropped. */
export function parseJudgement(reply: string, chunk: string): Finding[] {
  const start = reply.indexOf("{");
  const end = reply.lastIndexOf("}");
  if (start < 0 || end < start) throw new Error("the model's reply held no JSON object");
  const parsed = JUDGE_SCHEMA.parse(JSON.parse(reply.slice(start, end + 1)));
  return parsed.findings.map((f) =>
    finding(f.kind, f.message, {
      location: f.location && chunk.includes(f.location) ? f.location : undefined,
      test: f.test && chunk.includes(f.test) ? f.test : undefined,
    })
  );
}

/** A judge backed by a model: each chunk its own request, no tools, no thinking, the schema enforced. */
export function modelJudge(
  backend: Backend,
  onTurn?: (prompt: string, reply: string) => void,
): ChunkJudge {
  return {
    model: backend.name,
    async judge(chunk, context) {
      const prompt = judgePrompt(chunk, context);
      const request: ChatRequest = {
        messages: [{ role: "system", content: JUDGE_INSTRUCTIONS }, {
          role: "user",
          content: prompt,
        }],
        schema: JUDGE_JSON_SCHEMA,
        think: false,
        signal: context.signal,
      };
      let reply = "";
      for await (const event of backend.chat(request)) {
        if (event.type === "text") reply += event.text;
      }
      onTurn?.(prompt, reply);
      return parseJudgement(reply, chunk);
    },
  };
}
