/**
 * Custom tools through the real CLI under the binary's permission set: only
 * the config in wisp's home defines them — a project folder holding the same
 * definition adds nothing — they are listed last by `wisp tools` and
 * documented by `--markdown`, and a bad definition is a malformed config
 * (exit 64) whose sentence names the tool.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { runWisp } from "../support/wisp.ts";

const wordCount = {
  name: "word_count",
  description: "Counts the words in a file.",
  arguments: { path: { type: "string", description: "The file" } },
  command: "wc -w {path}",
};

async function scratch(): Promise<{ home: string; project: string; base: string }> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "wisp-custom-cli-" }));
  const home = join(base, "home");
  const project = join(base, "project");
  await Deno.mkdir(home, { recursive: true });
  await Deno.mkdir(project, { recursive: true });
  return { home, project, base };
}

function writeConfig(dir: string, config: unknown): void {
  Deno.mkdirSync(dir, { recursive: true });
  Deno.writeTextFileSync(join(dir, "config.json"), JSON.stringify(config));
}

Deno.test("a project folder cannot add a tool; the home's config can", async () => {
  const s = await scratch();
  try {
    const config = { tools: { custom: [wordCount] } };
    // Every place a project might try: its root, a .wisp folder, a wisp.json.
    writeConfig(s.project, config);
    writeConfig(join(s.project, ".wisp"), config);
    Deno.writeTextFileSync(join(s.project, "wisp.json"), JSON.stringify(config));
    const fromProject = await runWisp(["tools"], { home: s.home, cwd: s.project });
    assertEquals(fromProject.code, 0, fromProject.stderr);
    assert(fromProject.stdout.includes("run_command\t"), fromProject.stdout);
    assert(!fromProject.stdout.includes("word_count"), "a project folder added a tool");

    writeConfig(s.home, config);
    const fromHome = await runWisp(["tools"], { home: s.home, cwd: s.project });
    assertEquals(fromHome.code, 0, fromHome.stderr);
    const lines = fromHome.stdout.trim().split("\n");
    assertEquals(lines[lines.length - 1], "word_count\tCounts the words in a file.");
  } finally {
    await Deno.remove(s.base, { recursive: true });
  }
});

Deno.test("wisp tools --markdown documents a custom tool: arguments, limits, an example prompt", async () => {
  const s = await scratch();
  try {
    writeConfig(s.home, { tools: { custom: [{ ...wordCount, timeoutSeconds: 15 }] } });
    const run = await runWisp(["tools", "--markdown"], { home: s.home, cwd: s.project });
    assertEquals(run.code, 0, run.stderr);
    const section = run.stdout.slice(run.stdout.indexOf("## word_count"));
    assertMatch(section, /Counts the words in a file\./);
    assertMatch(section, /\| path \| string \| yes \| The file \|/);
    assertMatch(section, /runs `wc -w \{path\}`/);
    assertMatch(section, /at most 15 s \(its own timeoutSeconds\)/);
    assertMatch(section, /Use word_count with path: "README.md"/);
    const json = await runWisp(["tools", "--json"], { home: s.home, cwd: s.project });
    const entry = JSON.parse(json.stdout).tools.find((t: { name: string }) =>
      t.name === "word_count"
    );
    assertEquals(entry.custom, true);
  } finally {
    await Deno.remove(s.base, { recursive: true });
  }
});

Deno.test("a bad definition makes every command refuse the config with exit 64", async () => {
  const s = await scratch();
  try {
    writeConfig(s.home, {
      tools: { custom: [{ ...wordCount, name: "issue", command: "gh issue view {num} {path}" }] },
    });
    for (const args of [["tools"], ["config"]]) {
      const run = await runWisp(args, { home: s.home, cwd: s.project });
      assertEquals(run.code, 64, run.stderr);
      assertMatch(
        run.stderr,
        /config\.json: custom tool 'issue': the command uses \{num\}, which is not a declared argument/,
      );
      assertEquals(run.stdout, "");
    }
  } finally {
    await Deno.remove(s.base, { recursive: true });
  }
});
