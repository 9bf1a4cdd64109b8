/**
 * The exact check of a case's outcome: files byte for byte, paths that must
 * not exist, audit events, the tools called (and the system_info topic
 * asked), reply facts, triage's findings and a draft's rules. No model
 * judges another: every test here is a comparison a person could redo by
 * hand. The result is the list of reasons the case failed; empty is a pass.
 */
import { isAbsolute, join } from "node:path";
import type { AuditEvent } from "../src/audit/catalogue.ts";
import type { Finding } from "../src/condense/findings.ts";
import { SUBJECT_MAX, WHY_PLACEHOLDER } from "../src/condense/draft.ts";
import type { Check } from "./cases.ts";
import { type CaseWorld, factMatcher, statesWord } from "./facts.ts";

/** What a case did, as the check reads it. */
export interface CaseOutcome {
  /** The last turn's reply; for draft, the finished draft. */
  reply: string;
  /** Every audit event of the case's turns, in order. */
  events: readonly AuditEvent[];
  project: string;
  world: CaseWorld;
  /** triage: what it found, readers and model together. */
  findings?: Finding[];
  /** draft: what the model wrote, before wisp finished it. */
  draftWritten?: string;
}

function show(text: string, max = 80): string {
  const one = JSON.stringify(text);
  return one.length > max ? `${one.slice(0, max - 1)}…"` : one;
}

function readOrNull(path: string): string | null {
  try {
    return new TextDecoder().decode(Deno.readFileSync(path));
  } catch {
    return null;
  }
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The tool calls among the events: each call's tool and arguments. */
export function toolCalls(events: readonly AuditEvent[]): { tool: string; arguments: unknown }[] {
  return events.filter((e) => e.kind === "tool.call").map((e) => ({
    tool: String(e.tool),
    arguments: e.arguments,
  }));
}

function checkFiles(check: Check, outcome: CaseOutcome, reasons: string[]): void {
  for (const [path, want] of Object.entries(check.files)) {
    const got = readOrNull(join(outcome.project, path));
    if (got === null) reasons.push(`${path} does not exist`);
    else if (got !== want) {
      reasons.push(`${path} is not as intended: ${firstDifference(got, want)}`);
    }
  }
  for (const path of check.absent) {
    const full = isAbsolute(path) ? path : join(outcome.project, path);
    if (exists(full)) reasons.push(`${path} exists, and must not`);
  }
}

/** Where two texts first differ, as a line number and the two lines. */
export function firstDifference(got: string, want: string): string {
  const a = got.split("\n");
  const b = want.split("\n");
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) {
      return `line ${i + 1} is ${a[i] === undefined ? "missing" : show(a[i])}, intended ${
        b[i] === undefined ? "no line" : show(b[i])
      }`;
    }
  }
  return "the same lines, other bytes";
}

function matches(event: AuditEvent, fields: Record<string, unknown>): boolean {
  return Object.entries(fields).every(([key, value]) =>
    JSON.stringify(event[key]) === JSON.stringify(value)
  );
}

function checkEvents(check: Check, outcome: CaseOutcome, reasons: string[]): void {
  for (const want of check.events) {
    const n = outcome.events.filter((e) => e.kind === want.kind && matches(e, want.fields)).length;
    const what = `${want.kind}${
      Object.keys(want.fields).length ? ` ${JSON.stringify(want.fields)}` : ""
    }`;
    if (want.count === undefined && n === 0) reasons.push(`no ${what} event`);
    if (want.count !== undefined && n !== want.count) {
      reasons.push(`${n} ${what} events, intended ${want.count}`);
    }
  }
}

function checkTools(check: Check, outcome: CaseOutcome, reasons: string[]): void {
  const calls = toolCalls(outcome.events);
  const names = new Set(calls.map((c) => c.tool));
  for (const group of check.called) {
    if (!group.some((t) => names.has(t))) {
      reasons.push(
        `${group.join(" or ")} was not called (called: ${[...names].join(", ") || "nothing"})`,
      );
    }
  }
  for (const tool of check.notCalled) {
    if (names.has(tool)) reasons.push(`${tool} was called, and should not have been`);
  }
  if (check.topics.length > 0) {
    const asked = calls.filter((c) => c.tool === "system_info")
      .map((c) => String((c.arguments as { topic?: unknown })?.topic));
    if (!asked.some((t) => check.topics.includes(t))) {
      reasons.push(
        `system_info was not asked ${check.topics.join(" or ")} (asked: ${
          asked.join(", ") || "nothing"
        })`,
      );
    }
  }
}

async function checkReply(check: Check, outcome: CaseOutcome, reasons: string[]): Promise<void> {
  if (!check.reply) return;
  const reply = outcome.reply;
  const lower = reply.toLowerCase();
  for (const s of check.reply.contains) {
    if (!lower.includes(s.toLowerCase())) reasons.push(`the reply does not say ${show(s)}`);
  }
  for (const word of check.reply.words) {
    if (!statesWord(reply, word)) reasons.push(`the reply does not state ${show(word)}`);
  }
  for (const group of check.reply.anyOf) {
    if (!group.some((s) => lower.includes(s.toLowerCase()))) {
      reasons.push(`the reply says none of ${group.map((s) => show(s)).join(", ")}`);
    }
  }
  for (const s of check.reply.lacks) {
    if (lower.includes(s.toLowerCase())) reasons.push(`the reply says ${show(s)}, and must not`);
  }
  for (const fact of check.reply.facts) {
    const failed = (await factMatcher(fact, outcome.world))(reply);
    if (failed) reasons.push(failed);
  }
}

function findingName(f: { kind: string; location?: string; test?: string }): string {
  return `${f.kind}${f.location ? ` at ${f.location}` : ""}${f.test ? ` in ${f.test}` : ""}`;
}

/**
 * Whether a found location names the intended place: the same text, or the
 * same file and line with or without the column (`a.R:8` for `a.R:8:3`).
 * (A test name counts when the found one holds the intended one: a runner's
 * prefix such as `FAILED ` copied with it is still the same test.)
 */
function samePlace(found: string | undefined, want: string): boolean {
  if (found === undefined) return false;
  return found === want || want.startsWith(`${found}:`) || found.startsWith(`${want}:`);
}

function checkFindings(check: Check, outcome: CaseOutcome, reasons: string[]): void {
  if (!check.findings) return;
  const wantWarnings = check.findings.some((f) => f.kind === "warning");
  const found = (outcome.findings ?? []).filter((f) => wantWarnings || f.kind !== "warning");
  const unmatched = [...found];
  for (const want of check.findings) {
    const i = unmatched.findIndex((f) =>
      f.kind === want.kind &&
      (want.location === undefined || samePlace(f.location, want.location)) &&
      (want.test === undefined || (f.test ?? "").includes(want.test))
    );
    if (i < 0) reasons.push(`triage did not find the ${findingName(want)}`);
    else unmatched.splice(i, 1);
  }
  for (const extra of unmatched) {
    reasons.push(`triage reported a ${findingName(extra)} the output does not have`);
  }
}

function checkDraft(check: Check, outcome: CaseOutcome, reasons: string[]): void {
  if (!check.draft) return;
  const written = (outcome.draftWritten ?? "").trim();
  const draft = outcome.reply;
  if (written === "") {
    reasons.push("the model wrote no draft");
    return;
  }
  // The model's own first line is judged: wisp's finishing would hide an overlong subject.
  const first = written.replace(/^```[\w-]*\n/, "").split("\n")[0].replace(/^#+\s*/, "").trim();
  const { kind } = check.draft;
  const max = kind === "changelog" ? 100 : SUBJECT_MAX;
  const subject = kind === "changelog" ? first.replace(/^[-*]\s*/, "") : first;
  if (subject.length > max) {
    reasons.push(`the model's first line is ${subject.length} characters, more than ${max}`);
  }
  if (subject === "") reasons.push("the model's first line is empty");
  if (kind !== "changelog" && /\.$/.test(subject)) reasons.push("the subject ends with a period");
  if (kind === "changelog" && written.split("\n").filter((l) => l.trim() !== "").length > 1) {
    reasons.push("a changelog entry must be one line");
  }
  if (kind !== "changelog" && !/\n\s*\n\s*\S/.test(written)) {
    reasons.push("the model wrote no body after a blank line");
  }
  if (/^\s*why:/im.test(written)) {
    reasons.push("the model wrote a Why: line, inventing the reason the person adds");
  }
  if (kind === "commit" && !draft.trimEnd().endsWith(WHY_PLACEHOLDER)) {
    reasons.push(`the draft does not end with ${WHY_PLACEHOLDER}`);
  }
  const lower = draft.toLowerCase();
  for (const name of check.draft.mentions) {
    if (!lower.includes(name.toLowerCase())) {
      reasons.push(`the draft does not mention ${show(name)}`);
    }
  }
}

/** Every reason the outcome falls short of the check; empty when the case passed. */
export async function checkOutcome(check: Check, outcome: CaseOutcome): Promise<string[]> {
  const reasons: string[] = [];
  checkFiles(check, outcome, reasons);
  checkEvents(check, outcome, reasons);
  checkTools(check, outcome, reasons);
  await checkReply(check, outcome, reasons);
  checkFindings(check, outcome, reasons);
  checkDraft(check, outcome, reasons);
  return reasons;
}
