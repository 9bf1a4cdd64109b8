/**
 * Reading config.json: JSONC (comments, trailing commas), validated against
 * the schema. A missing file is the defaults; a malformed one is a ConfigError
 * (exit 64) whose one sentence names the file, the field and the problem.
 */
import {
  createScanner,
  type Node,
  parse,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from "jsonc-parser";
import type { z } from "zod";
import { type Config, configSchema, findSetting } from "./schema.ts";
import { unbuiltEntry } from "./unbuilt.ts";
import { ConfigError } from "../util/errors.ts";
import { type LoadedConfig, readConfigText } from "./read.ts";

export { type LoadedConfig, readConfigText };

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

/** jsonc-parser's SyntaxKind values (a const enum, which isolated modules cannot read). */
export const TOKEN = {
  openBrace: 1,
  closeBrace: 2,
  openBracket: 3,
  closeBracket: 4,
  comma: 5,
  lineComment: 12,
  blockComment: 13,
  lineBreak: 14,
  trivia: 15,
  eof: 17,
} as const;

/**
 * How deep objects and lists may nest. wisp's own settings nest at most seven
 * levels (a custom tool's argument's enum); the parser and the schema recurse
 * per level, so a file nested 10^5 deep would overflow the stack.
 */
const MAX_NESTING = 64;

/** The offset where nesting first passes MAX_NESTING, counted without recursion. */
function tooDeepAt(text: string): number | undefined {
  const scanner = createScanner(text, true);
  let depth = 0;
  for (let token: number = scanner.scan(); token !== TOKEN.eof; token = scanner.scan()) {
    if (token === TOKEN.openBrace || token === TOKEN.openBracket) {
      if (++depth > MAX_NESTING) return scanner.getTokenOffset();
    } else if (token === TOKEN.closeBrace || token === TOKEN.closeBracket) {
      depth--;
    }
  }
  return undefined;
}

/** Parse JSONC text into an object, or throw a ConfigError naming where it breaks. */
export function parseConfigText(text: string, path: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  const deep = tooDeepAt(text);
  if (deep !== undefined) {
    throw new ConfigError(
      `${path} nests objects and lists more than ${MAX_NESTING} levels deep at ${
        lineColumn(text, deep)
      }, which no setting does; fix it by hand, or move it aside to use the defaults`,
    );
  }
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

/** The syntax tree of a config text that parses (parseConfigText checked it). */
export function configTree(text: string): Node | undefined {
  return parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
}

/**
 * The property node for `key` in an object node: the last one, since a key
 * written twice takes its last value, as the parser reads it.
 */
export function propertyNode(object: Node, key: string): Node | undefined {
  if (object.type !== "object") return undefined;
  let found: Node | undefined;
  for (const property of object.children ?? []) {
    if (property.children?.[0]?.value === key) found = property;
  }
  return found;
}

/** The node at a path, or the deepest one that exists on the way (undefined: none past the root). */
function nearestNode(tree: Node, path: PropertyKey[]): Node | undefined {
  let node: Node | undefined = tree;
  let found: Node | undefined;
  for (const key of path) {
    if (!node) break;
    if (node.type === "object" && typeof key === "string") {
      const property = propertyNode(node, key);
      if (!property) break;
      found = property;
      node = property.children?.[1];
    } else if (node.type === "array" && typeof key === "number") {
      node = node.children?.[key];
      if (node) found = node;
    } else break;
  }
  return found;
}

/** The 1-based line a path of the file is written on, when it is in the file. */
function lineOfPath(text: string, path: PropertyKey[]): number | undefined {
  const tree = configTree(text);
  const node = tree ? nearestNode(tree, path) : undefined;
  if (!node) return undefined;
  return text.slice(0, node.offset).split("\n").length;
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

/**
 * What to do about a problem at `issuePath`: the commands that fix it when
 * it is a setting `wisp config set|unset` changes (they work on a file whose
 * only fault is that setting), else the line to edit.
 */
function advice(issuePath: PropertyKey[], line: number | undefined): string {
  const key = issuePath.map(String).join(".");
  const edit = line === undefined ? "edit it by hand" : `edit line ${line}`;
  if (!findSetting(key)) return edit;
  const unset = `remove it with wisp config unset ${key}`;
  // A setting whose feature is not built takes no value yet (whatever the value): removing it is the fix.
  if (unbuiltEntry(issuePath.map(String), undefined)) return `${unset}, or ${edit}`;
  return `change it with wisp config set ${key} <value>, ${unset}, or ${edit}`;
}

/** The ConfigError for a problem zod found in a file. */
export function issueError(
  issue: z.core.$ZodIssue,
  raw: Record<string, unknown>,
  path: string,
  text?: string,
): ConfigError {
  // A sentence-shaped path (custom tool 'x':) says where it is written in params.at.
  const at = (issue as { params?: { at?: PropertyKey[] } }).params?.at ?? issue.path;
  const line = text === undefined ? undefined : lineOfPath(text, at);
  return new ConfigError(`${path}: ${describeIssue(issue, raw)}; ${advice(issue.path, line)}`);
}

/** Validate an object as a config, or throw a ConfigError naming the field (and its line, given the text). */
export function validateConfig(raw: Record<string, unknown>, path: string, text?: string): Config {
  const result = configSchema.safeParse(raw);
  if (!result.success) throw issueError(result.error.issues[0], raw, path, text);
  return result.data;
}

/** Read and check config.json with jsonc-parser and the zod schema: the authority on every file. */
export function loadConfig(path: string): LoadedConfig {
  return loadConfigText(readConfigText(path), path);
}

/** The config a file's text (undefined: no file) makes, or the ConfigError naming its first problem. */
export function loadConfigText(text: string | undefined, path: string): LoadedConfig {
  if (text === undefined) return { config: configSchema.parse({}), exists: false, path };
  const raw = parseConfigText(text, path);
  return { config: validateConfig(raw, path, text), exists: true, text, raw, path };
}
