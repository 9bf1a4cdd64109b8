/**
 * A case's scripted answers as a model: its reference answer (which must
 * pass) or its wrong answer (which must fail), replayed by wisp's scripted
 * backend. This is how the harness checks its own checks — `--self-check`
 * and the test in test/eval — without any real model.
 */
import { ScriptedBackend, type ScriptStep, toolCallEvent } from "../src/models/scripted.ts";
import type { ChatRequest, StreamEvent } from "../src/models/backend.ts";
import type { EvalCase, ScriptedTurn, SetName } from "./cases.ts";
import { type BackendFor, fillIn } from "./run.ts";

/** Which of a case's scripted answers to replay. */
export type AnswerKind = "reference" | "wrong";

/** The text of the last tool result the request carries, for `{{result}}`. */
function lastToolResult(request: ChatRequest): string {
  const tool = request.messages.filter((m) => m.role === "tool").pop();
  return tool?.content ?? "";
}

const usage = { inputTokens: 100, outputTokens: 20 };

/** A turn's steps: one per round of tool calls, then the reply. */
function turnSteps(turn: ScriptedTurn): ScriptStep[] {
  const steps: ScriptStep[] = turn.rounds.map((round): StreamEvent[] => [
    ...round.map((call) => toolCallEvent(call.tool, call.args)),
    { type: "done", finishReason: "tool_calls", usage },
  ]);
  steps.push((request) => [
    { type: "text", text: turn.reply.replaceAll("{{result}}", lastToolResult(request)) },
    { type: "done", finishReason: "stop", usage },
  ]);
  return steps;
}

/** The wrong answer a case gets when it names none. */
function defaultWrong(c: EvalCase, set: SetName): ScriptedTurn[] {
  if (set === "triage") return [{ rounds: [], reply: '{"findings": []}' }];
  return (c.prompts.length > 0 ? c.prompts : [""]).map(() => ({ rounds: [], reply: "Done." }));
}

/** The answers of one kind, per turn. */
export function answersOf(c: EvalCase, set: SetName, kind: AnswerKind): ScriptedTurn[] {
  return kind === "reference" ? c.reference : c.wrong ?? defaultWrong(c, set);
}

/** A backend per case that replays its answers of this kind. */
export function scriptedAnswers(kind: AnswerKind): BackendFor {
  return (c, set, names) =>
    new ScriptedBackend(fillIn(answersOf(c, set, kind), names).flatMap(turnSteps), {
      name: kind,
      // Triage's judge asks for a schema; the scripted model honours one.
      capabilities: { tools: true, structured: true },
    });
}
