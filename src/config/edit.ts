/**
 * Changing config.json in place. A change is validated against the whole
 * schema before anything is written; the rest of the file — comments where
 * they were, its indentation, settings this version does not know — is kept
 * (text_edit.ts changes only the member concerned). A file whose only fault
 * is the setting being changed can be mended this way; any other fault is
 * named with its line. The new text is written beside the file and renamed
 * into place once the change is audited (cli/context.ts).
 */
import type { z } from "zod";
import { findSetting, keyPath, SETTINGS } from "./schema.ts";
import { describeIssue, issueError, parseConfigText, readConfigText } from "./load.ts";
import { type Config, configSchema, defaultConfig } from "./schema.ts";
import { removeFromText, setInText } from "./text_edit.ts";
import { valueAtPath } from "./value_path.ts";
import { unbuiltProblem } from "./unbuilt.ts";
import { type PreparedFile, prepareFileAtomicSync } from "../util/atomic.ts";
import { UsageError, WispError } from "../util/errors.ts";

export interface ConfigChange {
  key: string;
  path: string[];
  from: unknown;
  to: unknown;
  /** A sentence when the change weakens the gate or the audit. */
  weakens?: string;
  /** A note about the new value that is not a weakening. */
  note?: string;
  /** The new file text. */
  text: string;
  config: Config;
  /** The audit settings in force before the change: its event is written under them. */
  auditBefore: Config["audit"];
}

export { valueAtPath };

/** A key `config set|unset` accepts, or a UsageError that says where the list is. */
function requireSettableKey(key: string): string[] {
  if (!findSetting(key)) {
    const byHand =
      /^(commandPolicy\.(deny|allow|sandbox\.writablePaths)|tools\.custom|facts\.kinds)/.test(key);
    throw new UsageError(
      byHand
        ? `${key} is edited by hand in config.json, not with wisp config set`
        : `unknown setting '${key}'; wisp config list shows the settings you can change`,
    );
  }
  return keyPath(key);
}

/** Whether a setting holds a list (its default is an array). */
function isListSetting(path: string[]): boolean {
  return Array.isArray(valueAtPath(defaultConfig(), path));
}

/**
 * The candidate values for what was typed, in the order they are tried: a
 * list setting takes words or one JSON array; a scalar tries JSON (numbers,
 * true/false, null, quoted strings) and then the words as one string.
 */
function candidateValues(path: string[], words: string[]): unknown[] {
  if (words.length === 0) {
    throw new UsageError("config set needs a value: wisp config set KEY VALUE");
  }
  if (isListSetting(path)) {
    if (words.length === 1 && words[0].trim().startsWith("[")) {
      try {
        const parsed = JSON.parse(words[0]);
        if (Array.isArray(parsed)) return [parsed];
      } catch { /* not JSON: fall through to words */ }
      throw new UsageError(`${path.join(".")} takes a list: words, or a JSON array like ["a","b"]`);
    }
    return [words];
  }
  const text = words.join(" ");
  const candidates: unknown[] = [];
  try {
    candidates.push(JSON.parse(text));
  } catch { /* not JSON */ }
  candidates.push(text);
  return candidates;
}

type Issue = z.core.$ZodIssue;

function samePrefix(a: PropertyKey[], b: PropertyKey[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (String(a[i]) !== String(b[i])) return false;
  return true;
}

function issueId(issue: Issue): string {
  return JSON.stringify([issue.path.map(String), issue.code, issue.message]);
}

/** The file before the change: its object, and what the schema makes of it (it may be malformed). */
interface Before {
  text: string;
  raw: Record<string, unknown>;
  config?: Config;
  issues: Issue[];
  audit: Config["audit"];
}

function readBefore(configPath: string, existing: string): Before {
  // Broken JSON cannot be edited safely: parseConfigText names the line to fix by hand.
  const raw = parseConfigText(existing, configPath);
  const parsed = configSchema.safeParse(raw);
  // With the file malformed, the audit section alone decides; when even it is broken the audit
  // stays on (its default), so the change is recorded rather than not.
  const audit = parsed.success
    ? parsed.data.audit
    : configSchema.shape.audit.safeParse(raw.audit).data ?? defaultConfig().audit;
  return {
    text: existing,
    raw,
    config: parsed.success ? parsed.data : undefined,
    issues: parsed.success ? [] : parsed.error.issues,
    audit,
  };
}

/**
 * Judge a new text. Problems at the changed setting, or that the change
 * caused, are returned for `cannot be …`; a problem the file already had
 * elsewhere is thrown as the file's, with its line.
 */
function judge(
  configPath: string,
  key: string,
  path: string[],
  before: Before,
  text: string,
): { change: ConfigChange } | { problem: string } {
  let raw: Record<string, unknown>;
  try {
    raw = parseConfigText(text, configPath);
  } catch {
    throw new WispError(
      `wisp could not change ${key} in ${configPath} without breaking the file's layout; edit it by hand`,
    );
  }
  const result = configSchema.safeParse(raw);
  if (!result.success) {
    const existing = new Set(before.issues.map(issueId));
    const ours = result.error.issues.find((issue) =>
      samePrefix(issue.path, path) || !existing.has(issueId(issue))
    );
    if (ours) {
      const sentence = describeIssue(ours, raw);
      const field = ours.path.map(String).join(".");
      const atKey = field === path.join(".");
      return {
        problem: atKey
          ? "it " + sentence.slice(field.length + 1).replace(/ \(it is .*\)$/, "")
          : sentence,
      };
    }
    throw issueError(result.error.issues[0], before.raw, configPath, before.text);
  }
  const to = valueAtPath(result.data, path);
  const from = before.config
    ? valueAtPath(before.config, path)
    : valueAtPath(before.raw, path) ?? valueAtPath(defaultConfig(), path);
  return {
    change: {
      key,
      path,
      from,
      to,
      weakens: findSetting(key)?.weakens?.(to),
      note: findSetting(key)?.note?.(to, result.data),
      text,
      config: result.data,
      auditBefore: before.audit,
    },
  };
}

/** Plan a change without writing: returns the new text and config, or throws. */
export function planSet(configPath: string, key: string, words: string[]): ConfigChange {
  const path = requireSettableKey(key);
  const existing = readConfigText(configPath);
  const before = readBefore(
    configPath,
    existing === undefined || existing.trim() === "" ? "{}\n" : existing,
  );
  let firstProblem: string | undefined;
  // Tried in order; the first candidate's problem is the one to name.
  for (const value of candidateValues(path, words)) {
    const outcome = judge(configPath, key, path, before, setInText(before.text, path, value));
    if ("problem" in outcome) {
      firstProblem ??= outcome.problem;
      continue;
    }
    // Accepted and silently ignored would be worse than refused (unbuilt.ts).
    const unbuilt = unbuiltProblem(key, path, outcome.change.to);
    if (unbuilt) throw new WispError(unbuilt);
    return outcome.change;
  }
  throw new UsageError(`${key} cannot be ${JSON.stringify(words.join(" "))}: ${firstProblem}`);
}

/** Plan removing a setting; undefined when config.json does not set it. */
export function planUnset(configPath: string, key: string): ConfigChange | undefined {
  const path = requireSettableKey(key);
  const existing = readConfigText(configPath);
  if (existing === undefined || existing.trim() === "") return undefined;
  const before = readBefore(configPath, existing);
  if (valueAtPath(before.raw, path) === undefined) return undefined;
  const outcome = judge(configPath, key, path, before, removeFromText(existing, path));
  if ("problem" in outcome) throw new UsageError(`${key} cannot be unset: ${outcome.problem}`);
  return outcome.change;
}

/** The new config.json written beside the old one, to be committed once the change is audited. */
export function prepareConfig(configPath: string, text: string): PreparedFile {
  return prepareFileAtomicSync(configPath, text.endsWith("\n") ? text : text + "\n", 0o600);
}

export { SETTINGS };
