/**
 * Reading config.json: JSONC (comments, trailing commas), validated against
 * the schema. A missing file is the defaults; a malformed one is a ConfigError
 * (exit 64) whose one sentence names the file, the field and the problem.
 */
import { parse, type ParseError, printParseErrorCode } from "jsonc-parser";
import type { z } from "zod";
import { type Config, configSchema } from "./schema.ts";
import { ConfigError, WispError } from "../util/errors.ts";

export interface LoadedConfig {
  config: Config;
  /** Whether config.json exists. */
  exists: boolean;
  /** The file's text, when it exists. */
  text?: string;
  /** The object the file holds (before defaults), when it exists. */
  raw?: Record<string, unknown>;
  path: string;
}

/** Line and column (1-based) of an offset in a text. */
function lineColumn(text: string, offset: number): string {
  let line = 1;
  let column = 1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === "\n") {
      line++;
      column = 1;
    } else column++;
  }
  return `line ${line}, column ${column}`;
}

/** Parse JSONC text into an object, or throw a ConfigError naming where it breaks. */
export function parseConfigText(text: string, path: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0];
    throw new ConfigError(
      `${path} is not valid JSON at ${lineColumn(text, first.offset)} (${
        printParseErrorCode(first.error)
      }); fix it by hand, or move it aside to use the defaults`,
    );
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ConfigError(
      `${path} must hold a JSON object; fix it by hand, or move it aside to use the defaults`,
    );
  }
  return value as Record<string, unknown>;
}

function describeValue(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 60 ? text.slice(0, 57) + "..." : text;
}

function valueAt(raw: unknown, path: PropertyKey[]): unknown {
  let current = raw;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** One sentence for the first problem zod found. */
export function describeIssue(issue: z.core.$ZodIssue, raw: unknown): string {
  const field = issue.path.map(String).join(".") || "(the whole file)";
  const value = valueAt(raw, issue.path);
  let problem = issue.message;
  if (issue.code === "invalid_value" && "values" in issue) {
    problem = `must be one of ${(issue.values as unknown[]).map(String).join(", ")}`;
  } else if (issue.code === "invalid_type") {
    problem = `must be ${issue.expected === "int" ? "a whole number" : `a ${issue.expected}`}`;
  } else if (issue.code === "too_small" || issue.code === "too_big") {
    const bound = Number(
      (issue as { minimum?: unknown; maximum?: unknown }).minimum ??
        (issue as { maximum?: unknown }).maximum,
    );
    const inclusive = (issue as { inclusive?: boolean }).inclusive !== false;
    const unit = issue.origin === "string"
      ? " characters"
      : issue.origin === "array"
      ? " items"
      : "";
    problem = issue.code === "too_small"
      ? (inclusive ? `must be at least ${bound}${unit}` : `must be more than ${bound}${unit}`)
      : (inclusive ? `must be at most ${bound}${unit}` : `must be less than ${bound}${unit}`);
  }
  const got = value === undefined ? "" : ` (it is ${describeValue(value)})`;
  return `${field} ${problem}${got}`;
}

/** Validate an object as a config, or throw a ConfigError naming the field. */
export function validateConfig(raw: Record<string, unknown>, path: string): Config {
  const result = configSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ConfigError(
      `${path}: ${describeIssue(issue, raw)}; fix it with wisp config set or by hand`,
    );
  }
  return result.data;
}

/** Read the file's text; undefined when it does not exist. Unreadable is an error (exit 1). */
export function readConfigText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    if (error instanceof Deno.errors.IsADirectory) {
      throw new WispError(`${path} is a directory, not a file; move it aside`);
    }
    if (error instanceof Deno.errors.PermissionDenied) {
      throw new WispError(`${path} cannot be read (permission denied); check its owner and mode`);
    }
    throw new WispError(`${path} cannot be read (${(error as Error).message})`);
  }
}

export function loadConfig(path: string): LoadedConfig {
  const text = readConfigText(path);
  if (text === undefined) return { config: configSchema.parse({}), exists: false, path };
  const raw = parseConfigText(text, path);
  return { config: validateConfig(raw, path), exists: true, text, raw, path };
}
