/**
 * Changing config.json in place. A change is validated against the whole
 * schema before anything is written; the rest of the file — comments,
 * layout, settings this version does not know — is kept (jsonc-parser edits
 * the text rather than re-serialising it); the file is replaced atomically,
 * mode 0600.
 */
import { applyEdits, modify, parse, type ParseError } from "jsonc-parser";
import { findSetting, keyPath, SETTINGS } from "./schema.ts";
import { parseConfigText, readConfigText, validateConfig } from "./load.ts";
import { type Config, defaultConfig } from "./schema.ts";
import { writeFileAtomicSync } from "../util/atomic.ts";
import { ConfigError, UsageError } from "../util/errors.ts";

export interface ConfigChange {
  key: string;
  path: string[];
  from: unknown;
  to: unknown;
  /** A sentence when the change weakens the gate or the audit. */
  weakens?: string;
  /** The new file text. */
  text: string;
  config: Config;
}

export function valueAtPath(object: unknown, path: string[]): unknown {
  let current = object;
  for (const key of path) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, key)) {
      return undefined;
    }
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** A key `config set|unset` accepts, or a UsageError that says where the list is. */
export function requireSettableKey(key: string): string[] {
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
export function isListSetting(path: string[]): boolean {
  return Array.isArray(valueAtPath(defaultConfig(), path));
}

/**
 * The candidate values for what was typed, in the order they are tried: a
 * list setting takes words or one JSON array; a scalar tries JSON (numbers,
 * true/false, null, quoted strings) and then the words as one string.
 */
export function candidateValues(path: string[], words: string[]): unknown[] {
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

function parses(text: string): boolean {
  const errors: ParseError[] = [];
  parse(text, errors, { allowTrailingComma: true });
  return errors.length === 0;
}

function editText(text: string, path: string[], value: unknown): string {
  const edits = modify(text, path, value, {
    formattingOptions: { insertSpaces: true, tabSize: 4, eol: "\n" },
  });
  const edited = applyEdits(text, edits);
  if (parses(edited) || !parses(text)) return edited;
  // jsonc-parser leaves a dangling comma when it removes the only member of
  // an object that had a trailing comma ({ "a": 1, } → { , }); drop it.
  const repaired = edited.replace(/([{[])(\s*),/g, "$1$2");
  return parses(repaired) ? repaired : edited;
}

/** The change a new text makes, validated as a whole; throws ConfigError when it would not load. */
function changeTo(
  configPath: string,
  key: string,
  path: string[],
  before: Config,
  text: string,
): ConfigChange {
  const config = validateConfig(parseConfigText(text, configPath), configPath);
  const to = valueAtPath(config, path);
  return {
    key,
    path,
    from: valueAtPath(before, path),
    to,
    weakens: findSetting(key)?.weakens?.(to),
    text,
    config,
  };
}

/** Plan a change without writing: returns the new text and config, or throws. */
export function planSet(configPath: string, key: string, words: string[]): ConfigChange {
  const path = requireSettableKey(key);
  const existing = readConfigText(configPath);
  const base = existing ?? "{}\n";
  const raw = parseConfigText(base, configPath);
  const before = validateConfig(raw, configPath);
  let lastProblem = "";
  // Tried in order; the first problem found is reported.
  for (const value of candidateValues(path, words)) {
    const text = editText(base.trim() === "" ? "{}\n" : base, path, value);
    try {
      return changeTo(configPath, key, path, before, text);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      // Keep only "must be …": the key and the value are already in the sentence.
      if (lastProblem) continue; // the first candidate's problem is the one to name
      lastProblem = error.message
        .replace(/^[^:]+: /, "")
        .replace(/; fix it with wisp config set or by hand$/, "")
        .replace(/ \(it is .*\)$/, "")
        .replace(new RegExp(`^${path.join(".").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} `), "");
    }
  }
  throw new UsageError(`${key} cannot be ${JSON.stringify(words.join(" "))}: it ${lastProblem}`);
}

export function planUnset(configPath: string, key: string): ConfigChange | undefined {
  const path = requireSettableKey(key);
  const existing = readConfigText(configPath);
  if (existing === undefined) return undefined;
  const raw = parseConfigText(existing, configPath);
  const before = validateConfig(raw, configPath);
  if (valueAtPath(raw, path) === undefined) return undefined;
  return changeTo(configPath, key, path, before, editText(existing, path, undefined));
}

export function writeConfig(configPath: string, text: string): void {
  writeFileAtomicSync(configPath, text.endsWith("\n") ? text : text + "\n", 0o600);
}

export { SETTINGS };
