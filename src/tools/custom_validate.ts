/**
 * The rules a custom tool's definition (tools.custom in config.json) must
 * follow, checked when the config loads so that a bad definition is a
 * malformed config with one sentence naming the tool and the problem.
 *
 * Pure and dependency-free: the config schema calls it, so it must not pull
 * the runner or the gate into every command's start-up.
 */

/**
 * Every built-in tool's name, including the opt-in ones and names reserved
 * for tools not built yet, so a custom tool never shadows one. A test checks
 * this list covers the registry.
 */
export const BUILTIN_TOOL_NAMES: readonly string[] = [
  "current_date",
  "run_command",
  "read_file",
  "edit_file",
  "inspect",
  "notify",
  "system_info",
  "grep",
  "find",
  "ls",
  "process",
  "memory",
  "models",
  "ask",
  "triage",
];

const ARGUMENT_TYPES = ["string", "integer", "number", "boolean"] as const;
export type ArgumentType = (typeof ARGUMENT_TYPES)[number];

export interface CustomArgumentDef {
  type: ArgumentType;
  description?: string;
  enum?: string[];
  default?: string | number | boolean;
  required?: boolean;
}

export interface CustomToolDef {
  name: string;
  description: string;
  command: string;
  arguments?: Record<string, CustomArgumentDef>;
  workingDirectory?: string;
  timeoutSeconds?: number;
}

const DESCRIPTION_MAX = 300;
const NAME_MAX = 64;
const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/**
 * `{name}` placeholders, one pass. `${NAME}` is the shell's own expansion and
 * is left alone; anything inside braces that is not an identifier (`{print $1}`,
 * `{a,b}`) is not a placeholder either.
 */
const PLACEHOLDER = /(\$?)\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The placeholders a template uses, in order of first use. */
export function placeholdersOf(template: string): string[] {
  const seen: string[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) {
    if (match[1] === "$") continue;
    if (!seen.includes(match[2])) seen.push(match[2]);
  }
  return seen;
}

/**
 * Replace each placeholder with `render(name)` in one pass over the template:
 * a value that itself holds `{other}` is inserted as text and never filled in.
 */
export function substitute(template: string, render: (name: string) => string): string {
  return template.replace(
    PLACEHOLDER,
    (whole, dollar: string, name: string) => dollar === "$" ? whole : render(name),
  );
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a number";
  return `a ${typeof value}`;
}

/** Whether a value fits an argument's type (and its enum). */
export function valueFits(def: { type: string; enum?: unknown[] }, value: unknown): boolean {
  switch (def.type) {
    case "string":
      return typeof value === "string" && (!def.enum || def.enum.includes(value));
    case "integer":
      return typeof value === "number" && Number.isSafeInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
  }
  return false;
}

function argumentProblem(name: string, def: unknown): string | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    return `argument '${name}' must be a name of letters, digits and underscores`;
  }
  if (def === null || typeof def !== "object" || Array.isArray(def)) {
    return `argument '${name}' must be an object with a type`;
  }
  const arg = def as Record<string, unknown>;
  if (!(ARGUMENT_TYPES as readonly unknown[]).includes(arg.type)) {
    return `argument '${name}' has type ${JSON.stringify(arg.type)}, which is not one of ${
      ARGUMENT_TYPES.join(", ")
    }`;
  }
  if (arg.description !== undefined && typeof arg.description !== "string") {
    return `argument '${name}' needs its description as a string`;
  }
  if (arg.enum !== undefined) {
    if (arg.type !== "string") {
      return `argument '${name}' has an enum, but enums are only for strings (it is ${arg.type})`;
    }
    if (!Array.isArray(arg.enum) || arg.enum.length === 0) {
      return `argument '${name}' needs its enum as a non-empty list of strings`;
    }
    const bad = arg.enum.find((v) => typeof v !== "string");
    if (bad !== undefined) {
      return `argument '${name}' has enum value ${JSON.stringify(bad)}, which is not a string`;
    }
  }
  if (
    arg.default !== undefined && !valueFits(arg as { type: string; enum?: unknown[] }, arg.default)
  ) {
    const why = arg.type === "string" && arg.enum && typeof arg.default === "string"
      ? `which is not one of its enum (${(arg.enum as string[]).join(", ")})`
      : `which is ${typeName(arg.default)}, not ${arg.type === "integer" ? "an" : "a"} ${arg.type}`;
    return `argument '${name}' has default ${JSON.stringify(arg.default)}, ${why}`;
  }
  if (arg.required === false && arg.default === undefined) {
    return `argument '${name}' is marked not required but has no default; give it a default`;
  }
  if (arg.required === true && arg.default !== undefined) {
    return `argument '${name}' is marked required but has a default; drop one of them`;
  }
  return undefined;
}

/** What is wrong with one definition (without the tool's name), or undefined. */
function definitionProblem(def: Record<string, unknown>): string | undefined {
  const name = def.name as string;
  if (!SNAKE_CASE.test(name) || name.length > NAME_MAX) {
    return `the name must be snake_case (lower-case letters and digits joined by single underscores, starting with a letter, at most ${NAME_MAX} characters)`;
  }
  if (BUILTIN_TOOL_NAMES.includes(name)) {
    return `the name is a built-in tool's; choose another name`;
  }
  const description = typeof def.description === "string" ? def.description.trim() : "";
  if (description.length === 0) {
    return "the description is empty; say in a sentence what the tool does";
  }
  if (description.length > DESCRIPTION_MAX) {
    return `the description is ${description.length} characters, more than ${DESCRIPTION_MAX}; shorten it (the model's window is small)`;
  }
  if (typeof def.command !== "string" || def.command.trim() === "") {
    return "the command is empty; give the command line to run";
  }
  if (def.command.includes("\0")) return "the command holds a NUL character";
  if (
    def.workingDirectory !== undefined &&
    (typeof def.workingDirectory !== "string" || def.workingDirectory === "")
  ) {
    return "workingDirectory must be a non-empty string";
  }
  const args = (def.arguments ?? {}) as Record<string, unknown>;
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    return "arguments must be an object of argument definitions";
  }
  for (const [argName, argDef] of Object.entries(args)) {
    const problem = argumentProblem(argName, argDef);
    if (problem) return problem;
  }
  const used = placeholdersOf(def.command);
  for (const placeholder of used) {
    if (!Object.hasOwn(args, placeholder)) {
      return `the command uses {${placeholder}}, which is not a declared argument`;
    }
  }
  for (const argName of Object.keys(args)) {
    if (!used.includes(argName)) {
      return `argument '${argName}' is declared but the command never uses {${argName}}`;
    }
  }
  return undefined;
}

export interface CustomToolProblem {
  /** `custom tool 'NAME'` (or its position when it has no usable name). */
  label: string;
  problem: string;
}

/**
 * The first problem among the definitions, or undefined when all of them are
 * good; read as `${label}: ${problem}`. `defs` is what the schema parsed
 * (name, description and command are strings by then).
 */
export function customToolsProblem(
  defs: readonly Record<string, unknown>[],
): CustomToolProblem | undefined {
  const seen = new Set<string>();
  for (const [index, def] of defs.entries()) {
    const label = typeof def.name === "string" && def.name !== ""
      ? `custom tool '${def.name}'`
      : `custom tool ${index + 1}`;
    const problem = definitionProblem(def);
    if (problem) return { label, problem };
    if (seen.has(def.name as string)) {
      return { label, problem: "the name is used by an earlier custom tool too" };
    }
    seen.add(def.name as string);
  }
  return undefined;
}
