/**
 * `wisp tools` as a person and a script run it: the real CLI in a subprocess
 * under the binary's permission set, and the terminal layout rendered directly.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { PROJECT_ROOT, runWisp, tempDir, wispCommand } from "../support/wisp.ts";
import { listingWidth, renderToolList, wrapText } from "../../src/cli/tools.ts";
import { catalogueJson, catalogueMarkdown } from "../../src/tools/catalogue.ts";
import { builtinRegistry } from "../../src/tools/builtins.ts";
import { configSchema } from "../../src/config/schema.ts";

Deno.test("wisp tools piped: one name<TAB>description line per tool", async () => {
  const home = await tempDir();
  try {
    const run = await runWisp(["tools"], { home });
    assertEquals(run.code, 0, run.stderr);
    const lines = run.stdout.trimEnd().split("\n");
    const expected = builtinRegistry().list({ config: configSchema.parse({}) }).map((t) => t.name);
    assertEquals(lines.map((l) => l.split("\t")[0]), expected);
    const order = ["current_date", "read_file", "edit_file"].map((name) => expected.indexOf(name));
    assert(
      order[0] === 0 && order[0] < order[1] && order[1] < order[2],
      `order: ${expected.join(", ")}`,
    );
    assertEquals(lines[0], "current_date\tReturns the current local date and time.");
    assert(lines.every((l) => l.split("\t").length === 2));
    assertEquals(run.stderr, "");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("wisp tools honours tools.disabled from config.json", async () => {
  const home = await tempDir();
  try {
    Deno.writeTextFileSync(
      join(home, "config.json"),
      `{ // mine\n "tools": { "disabled": ["edit_file"] } }`,
    );
    const run = await runWisp(["tools"], { home });
    const expected = builtinRegistry().list({ config: configSchema.parse({}) }).map((t) => t.name)
      .filter((name) => name !== "edit_file");
    assert(expected.includes("read_file"));
    assertEquals(run.stdout.trimEnd().split("\n").map((l) => l.split("\t")[0]), expected);
    const json = JSON.parse((await runWisp(["tools", "--json"], { home })).stdout);
    assertEquals(json.tools.map((t: { name: string }) => t.name), expected);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("wisp tools --json and --markdown print the catalogue the MCP resources serve", async () => {
  const home = await tempDir();
  try {
    const json = await runWisp(["tools", "--json"], { home });
    assertEquals(json.code, 0, json.stderr);
    const config = configSchema.parse({});
    const tools = builtinRegistry().list({ config });
    assertEquals(json.stdout, catalogueJson(tools, config));
    const parsed = JSON.parse(json.stdout);
    const edit = parsed.tools.find((t: { name: string }) => t.name === "edit_file");
    assertEquals(edit.parameters.required, ["path", "mode", "content"]);
    assert(edit.limits.length > 0);
    assertMatch(edit.examplePrompt, /edit_file/);
    assertEquals(edit.parallelSafe, false);

    const md = await runWisp(["tools", "--markdown"], { home });
    assertEquals(md.code, 0, md.stderr);
    assertEquals(md.stdout, catalogueMarkdown(tools, config));
    assertStringIncludes(md.stdout, "## read_file");
    assertStringIncludes(md.stdout, "| offset | integer ≥ 1 | no |");
    assertStringIncludes(md.stdout, "| mode | write \\| append \\| replace | yes |");
    assertStringIncludes(md.stdout, "### Example prompt");

    const both = await runWisp(["tools", "--json", "--markdown"], { home });
    assertEquals(both.code, 64);
    assertEquals(both.stderr, "error: choose one of --json and --markdown\n");
    assertEquals(both.stdout, "");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("limits are rendered from the live config", () => {
  const tools = builtinRegistry().list({ config: configSchema.parse({}) });
  const withPaths = configSchema.parse({
    commandPolicy: { sandbox: { writablePaths: ["~/scratch"] } },
  });
  const off = configSchema.parse({ commandPolicy: { sandbox: { enabled: false } } });
  const edit = tools.find((t) => t.name === "edit_file")!;
  assertStringIncludes(edit.limits(withPaths).join("\n"), "~/scratch");
  assertStringIncludes(edit.limits(off)[0], "The sandbox is off here");
});

Deno.test("the terminal listing: TOOLS:, a name column, descriptions wrapped to the width", () => {
  const text = renderToolList([
    { name: "current_date", description: "Returns the current local date and time." },
    {
      name: "run_command",
      description:
        "Runs a shell command on this Mac and returns its exit status and output. Use it to build " +
        "or test software, list or read files, and inspect the system.",
    },
  ], 80);
  assertEquals(
    text,
    [
      "TOOLS:",
      "  current_date  Returns the current local date and time.",
      "  run_command   Runs a shell command on this Mac and returns its exit status and",
      "                output. Use it to build or test software, list or read files,",
      "                and inspect the system.",
      "",
      "  See 'wisp tools --markdown' (or --json) for parameters and example prompts.",
      "",
    ].join("\n"),
  );
  for (const line of text.split("\n")) assert(line.length <= 80, line);
  assertEquals(wrapText("a bb ccc", 4), ["a bb", "ccc"]);
  assertEquals(listingWidth(undefined, (n) => (n === "COLUMNS" ? "100" : undefined)), 100);
  assertEquals(listingWidth(undefined, () => undefined), 80);
  assertEquals(listingWidth(132, () => "100"), 132);
});

/** Whether a program is on PATH. */
function onPath(program: string): boolean {
  return (Deno.env.get("PATH") ?? "").split(":").some((dir) => {
    try {
      return Deno.statSync(`${dir}/${program}`).isFile;
    } catch {
      return false;
    }
  });
}

Deno.test({
  name:
    "wisp tools on a terminal: the TOOLS: listing, wrapped to COLUMNS when the terminal gives no size",
  // `script` (util-linux/bsdutils) gives the CLI a real pseudo-terminal; `deno task test` installs it.
  ignore: !onPath("script"),
  fn: async () => {
    const home = await tempDir();
    try {
      const line = [...wispCommand(), "tools"].map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(
        " ",
      );
      const out = await new Deno.Command("script", {
        args: ["-qec", line, "/dev/null"],
        env: { WISP_HOME: home, COLUMNS: "60", NO_COLOR: "1", TERM: "dumb" },
        cwd: PROJECT_ROOT,
        stdin: "null",
      }).output();
      const text = new TextDecoder().decode(out.stdout).replaceAll("\r\n", "\n");
      assertEquals(out.code, 0, text);
      const lines = text.trimEnd().split("\n");
      assertEquals(lines[0], "TOOLS:");
      assertEquals(lines[1], "  current_date  Returns the current local date and time.");
      assert(lines.some((l) => /^ {2}read_file {2,}Reads a page of numbered lines/.test(l)), text);
      assert(lines.every((l) => l.length <= 60), lines.find((l) => l.length > 60));
      assertEquals(
        lines.slice(-2).join(" ").replace(/\s+/g, " "),
        " See 'wisp tools --markdown' (or --json) for parameters and example prompts.",
      );
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
});
