/**
 * The definition rules, checked when the config loads: each bad definition
 * is a malformed config whose one sentence names the tool and the problem.
 */
import { assert, assertEquals, assertMatch, assertThrows } from "../support/assert.ts";
import { configSchema } from "../../src/config/schema.ts";
import { validateConfig } from "../../src/config/load.ts";
import { ConfigError, EXIT } from "../../src/util/errors.ts";
import {
  BUILTIN_TOOL_NAMES,
  customToolsProblem,
  placeholdersOf,
  substitute,
} from "../../src/tools/custom_validate.ts";
import { sessionRegistry } from "../../src/session/session.ts";

const good = {
  name: "line_head",
  description: "Shows the first lines of a file.",
  arguments: {
    path: { type: "string", description: "The file" },
    lines: { type: "integer", description: "How many lines", default: 5 },
  },
  command: "head -n {lines} {path}",
  timeoutSeconds: 10,
};

function loadError(tools: unknown[]): string {
  try {
    validateConfig({ tools: { custom: tools } }, "/home/x/.wisp/config.json");
  } catch (error) {
    assert(error instanceof ConfigError, `not a ConfigError: ${error}`);
    assertEquals((error as ConfigError).exitCode, EXIT.usage);
    return (error as Error).message;
  }
  throw new Error("the config loaded");
}

Deno.test("a good definition loads", () => {
  const config = validateConfig({ tools: { custom: [good] } }, "config.json");
  assertEquals(config.tools.custom.length, 1);
});

Deno.test("the spec's example: an undeclared placeholder names the tool and the placeholder", () => {
  const message = loadError([{
    name: "issue",
    description: "Shows a GitHub issue of the current repository.",
    arguments: { number: { type: "integer", description: "The issue number" } },
    command: "gh issue view {num} {number}",
  }]);
  assertEquals(
    message,
    "/home/x/.wisp/config.json: custom tool 'issue': the command uses {num}, which is not a declared argument; edit it by hand",
  );
});

const cases: Array<[string, Record<string, unknown>, RegExp]> = [
  [
    "a built-in's name",
    { ...good, name: "read_file" },
    /custom tool 'read_file': the name is a built-in tool's/,
  ],
  [
    "not snake_case",
    { ...good, name: "LineHead" },
    /custom tool 'LineHead': the name must be snake_case/,
  ],
  ["a double underscore", { ...good, name: "line__head" }, /the name must be snake_case/],
  [
    "an empty description",
    { ...good, description: "  " },
    /custom tool 'line_head': the description is empty/,
  ],
  [
    "a description past 300",
    { ...good, description: "x".repeat(301) },
    /the description is 301 characters, more than 300/,
  ],
  [
    "an argument never used",
    { ...good, command: "head -n 5 {path}" },
    /argument 'lines' is declared but the command never uses \{lines\}/,
  ],
  [
    "an unknown type",
    { ...good, arguments: { ...good.arguments, path: { type: "path" } } },
    /argument 'path' has type "path", which is not one of string, integer, number, boolean/,
  ],
  ["an enum on an integer", {
    ...good,
    arguments: { ...good.arguments, lines: { type: "integer", enum: ["1"] } },
  }, /argument 'lines' has an enum, but enums are only for strings/],
  ["a default of the wrong type", {
    ...good,
    arguments: { ...good.arguments, lines: { type: "integer", default: "5" } },
  }, /argument 'lines' has default "5", which is a string, not an integer/],
  ["a fractional default for an integer", {
    ...good,
    arguments: { ...good.arguments, lines: { type: "integer", default: 2.5 } },
  }, /has default 2.5, which is a number, not an integer/],
  ["a default outside the enum", {
    ...good,
    arguments: { ...good.arguments, path: { type: "string", enum: ["a", "b"], default: "c" } },
  }, /argument 'path' has default "c", which is not one of its enum \(a, b\)/],
  ["an empty enum", {
    ...good,
    arguments: { ...good.arguments, path: { type: "string", enum: [] } },
  }, /needs its enum as a non-empty list of strings/],
  ["an empty command", { ...good, command: " ", arguments: {} }, /the command is empty/],
];

for (const [what, def, expected] of cases) {
  Deno.test(`refused at load: ${what}`, () => {
    const message = loadError([def]);
    assertMatch(message, expected);
    assertMatch(message, /^\/home\/x\/\.wisp\/config\.json: custom tool /);
  });
}

Deno.test("a name used twice is refused, naming the second", () => {
  const message = loadError([good, { ...good }]);
  assertMatch(message, /custom tool 'line_head': the name is used by an earlier custom tool too/);
});

Deno.test("the schema refuses a definition that is not an object of the right shape", () => {
  const result = configSchema.safeParse({ tools: { custom: [{ name: "x" }] } });
  assertEquals(result.success, false);
});

Deno.test("the reserved names cover every tool the registry has", () => {
  for (const tool of sessionRegistry().all()) {
    assert(BUILTIN_TOOL_NAMES.includes(tool.name), `${tool.name} is not reserved`);
  }
  assertEquals(customToolsProblem([good]), undefined);
});

Deno.test("placeholders: identifiers in braces; ${VAR} and other braces are the shell's", () => {
  assertEquals(placeholdersOf("awk '{print $1}' {path} ${HOME} {a,b} {path} {n}"), ["path", "n"]);
  assertEquals(
    substitute("echo {a} ${a} {b}", (name) => `<${name}>`),
    "echo <a> ${a} <b>",
  );
  assertThrows(() =>
    validateConfig({ tools: { custom: [{ ...good, command: "echo ${lines} {path}" }] } }, "c")
  );
});
