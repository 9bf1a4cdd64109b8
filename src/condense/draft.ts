/**
 * draft_change and `wisp draft`, the parts that need no model: the prompt
 * (the exact diff summary plus the diff cut to a budget, file by file), the
 * finishing of what the model wrote (the subject kept to 72 characters, a
 * commit body ending in `Why: <…>` for the person to fill in), and a draft
 * made from the summary alone when no model is configured.
 */
import type { ChatMessage } from "../models/backend.ts";
import { type DiffSummary, type FileChange, summariseDiff } from "./diff.ts";
import { findGitDir } from "../util/gitstate.ts";

export type DraftKind = "commit" | "pr" | "changelog";
export const SUBJECT_MAX = 72;
export const WHY_PLACEHOLDER = "Why: <…>";
/** Characters of the diff itself sent with the summary. */
const DIFF_BUDGET = 16_000;

/** A subject of at most 72 characters, cut at a word, without a trailing period. */
export function capSubject(subject: string, max = SUBJECT_MAX): string {
  let s = subject.replace(/\s+/g, " ").trim().replace(/\.$/, "");
  if (s.length <= max) return s;
  s = s.slice(0, max);
  const space = s.lastIndexOf(" ");
  if (space > max / 2) s = s.slice(0, space);
  return s.replace(/[\s,;:–-]+$/, "");
}

const INSTRUCTIONS: Record<DraftKind, string> = {
  commit:
    "Write a git commit message for the change below. First line: a subject in the imperative mood, at most " +
    `${SUBJECT_MAX} characters, no trailing period. Then a blank line and a short body saying what changed and where, ` +
    "in plain sentences or '-' bullets. Do not invent reasons: the person adds the why. Reply with the message only.",
  pr: "Write a pull request description for the change below. First line: a title of at most " +
    `${SUBJECT_MAX} characters. Then a blank line, a short summary paragraph, and a '-' list of the notable changes ` +
    "by file or area. Do not invent reasons or test results. Reply with the description only.",
  changelog:
    "Write one changelog entry for the change below: a single line starting with '- ', saying what changed for " +
    "a user of the software, at most 100 characters. Reply with the line only.",
};

/** The diff cut to the budget, each file getting a fair share of lines (the summary names everything). */
function boundedDiff(diff: string, budget = DIFF_BUDGET): { text: string; cut: boolean } {
  if (diff.length <= budget) return { text: diff, cut: false };
  const parts = diff.split(/(?=^diff --git )/m);
  const share = Math.floor(budget / Math.max(1, parts.length));
  const out = parts.map((p) =>
    p.length <= share
      ? p
      : `${p.slice(0, share).replace(/\n[^\n]*$/, "")}\n[… ${
        p.length - share
      } more characters of this file held back]\n`
  );
  return { text: out.join("").slice(0, budget + parts.length * 80), cut: true };
}

export function draftMessages(
  kind: DraftKind,
  diff: string,
  summary: DiffSummary = summariseDiff(diff),
): ChatMessage[] {
  const bounded = boundedDiff(diff);
  return [
    { role: "system", content: INSTRUCTIONS[kind] },
    {
      role: "user",
      content: `Summary of the change (exact):\n${summary.text}\n\nThe diff${
        bounded.cut ? " (cut to fit; the summary lists every file)" : ""
      }:\n${bounded.text}`,
    },
  ];
}

/** What the model wrote, made to fit the contract. */
export function finishDraft(kind: DraftKind, written: string): string {
  let text = written.trim().replace(/^```[\w-]*\n([\s\S]*?)\n```$/, "$1").trim();
  // Some models label their output.
  text = text.replace(
    /^(?:commit message|subject|title|pull request|changelog( entry)?)\s*:\s*/i,
    "",
  );
  if (kind === "changelog") {
    const line = text.split("\n").find((l) => l.trim() !== "") ?? "";
    const body = line.replace(/^[-*]\s*/, "").trim();
    return `- ${capSubject(body, 100)}`;
  }
  const lines = text.split("\n");
  const subject = capSubject(lines[0].replace(/^#+\s*/, ""));
  const body = lines.slice(1).join("\n").trim().split("\n").filter((l) => !/^why:/i.test(l.trim()))
    .join("\n").trim();
  if (kind === "pr") return body ? `${subject}\n\n${body}` : subject;
  return body ? `${subject}\n\n${body}\n\n${WHY_PLACEHOLDER}` : `${subject}\n\n${WHY_PLACEHOLDER}`;
}

function fileLine(f: FileChange): string {
  const verb = {
    added: "Add",
    deleted: "Remove",
    renamed: "Rename",
    copied: "Copy",
    modified: "Update",
  }[f.status];
  const what = f.oldPath ? `${f.oldPath} to ${f.path}` : f.path;
  const counts = f.binary
    ? " (binary)"
    : f.added || f.removed
    ? ` (+${f.added} −${f.removed})`
    : "";
  return `- ${verb} ${what}${counts}`;
}

/** A draft from the summary alone, for when no model is configured: honest, plain, for the person to rewrite. */
export function exactDraft(kind: DraftKind, summary: DiffSummary): string {
  const files = summary.files;
  const one = files.length === 1 ? files[0] : undefined;
  const subject = capSubject(
    one
      ? fileLine(one).slice(2).replace(/ \(.*\)$/, "")
      : `Update ${files.length} files (${
        [...new Set(files.map((f) => f.path.split("/")[0]))].slice(0, 3).join(", ")
      })`,
  );
  if (kind === "changelog") return `- ${subject}`;
  const body = files.slice(0, 30).map(fileLine);
  if (files.length > 30) body.push(`- … and ${files.length - 30} more files`);
  return kind === "pr"
    ? `${subject}\n\n${body.join("\n")}`
    : `${subject}\n\n${body.join("\n")}\n\n${WHY_PLACEHOLDER}`;
}

/**
 * Whether git could find a repository from `cwd`: a .git folder or file here
 * or above, or GIT_DIR set. Used only to explain a `git diff --cached` that
 * failed (outside a repository git reads `--cached` as an unknown option of
 * `diff --no-index`), never to refuse one before it runs.
 */
export function inGitRepository(cwd: string): boolean {
  try {
    if (Deno.env.get("GIT_DIR")) return true;
  } catch { /* no env access: judge by the folders */ }
  return findGitDir(cwd) !== undefined;
}
