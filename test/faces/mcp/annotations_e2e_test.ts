/**
 * Tool annotations tell the truth (Codex runs a read-only tool without
 * asking): every tool gives all five hints; the tools that only read are
 * read-only, and the commands those run through the gate (git log, git diff
 * --cached) are ones the gate itself rates read-only; the tools that run a
 * command the caller names, and respond, are not.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../../support/assert.ts";
import { connect, mcpScratch } from "./support.ts";

const RUN_COMMANDS = ["flaky_tests", "respond", "triage"];

Deno.test("every tool has a title and all four hints; only the tools that run no caller's command are read-only", async () => {
  const s = await mcpScratch({ notifications: { enabled: false } });
  const c = await connect(s);
  try {
    const { tools } = await c.client.listTools();
    for (const tool of tools) {
      const a = tool.annotations ?? {};
      assert(typeof a.title === "string" && a.title !== "", `${tool.name} has a title`);
      for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]) {
        assertEquals(
          typeof (a as Record<string, unknown>)[hint],
          "boolean",
          `${tool.name} ${hint}`,
        );
      }
      // A read-only tool is never destructive (the spec's reading of destructiveHint).
      if (a.readOnlyHint) assertEquals(a.destructiveHint, false, tool.name);
    }
    const notReadOnly = tools.filter((t) => !t.annotations?.readOnlyHint).map((t) => t.name);
    assertEquals(notReadOnly.sort(), [...RUN_COMMANDS, "close_thread", "set_fact_scope"].sort());
    const mayWrite = tools.filter((t) => t.annotations?.destructiveHint).map((t) => t.name);
    assertEquals(mayWrite.sort(), RUN_COMMANDS);
  } finally {
    await c.close();
    await s.remove();
  }
});

Deno.test("the commands the read-only tools run are rated read-only by the gate itself", async () => {
  const s = await mcpScratch({ notifications: { enabled: false } });
  const c = await connect(s);
  const git = (...args: string[]) => {
    const out = new Deno.Command("git", {
      args: ["-c", "user.email=ann@example.org", "-c", "user.name=ann", ...args],
      cwd: s.project,
      stdout: "null",
      stderr: "null",
    }).outputSync();
    assert(out.success, `git ${args.join(" ")}`);
  };
  try {
    git("init", "-q");
    Deno.writeTextFileSync(join(s.project, "a.txt"), "one\n");
    git("add", "a.txt");
    git("commit", "-q", "-m", "one");
    Deno.writeTextFileSync(join(s.project, "a.txt"), "one\ntwo\n");
    git("add", "a.txt");
    const { tools } = await c.client.listTools();
    const readOnly = new Set(tools.filter((t) => t.annotations?.readOnlyHint).map((t) => t.name));
    for (const name of ["hot_paths", "draft_change"]) {
      assert(readOnly.has(name), name);
      const result = await c.client.callTool({ name, arguments: {} });
      assert((result as { isError?: boolean }).isError !== true, name);
    }
    const verdicts = s.events().filter((e) => e.kind === "classifier.verdict");
    assertEquals(
      verdicts.map((e) => String(e.command).split(" ").slice(0, 2).join(" ")).sort(),
      ["git diff", "git log"],
    );
    for (const v of verdicts) {
      assertEquals(v.level, "safe", `${v.command} is rated safe`);
    }
  } finally {
    await c.close();
    await s.remove();
  }
});
