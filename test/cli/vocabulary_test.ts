/**
 * One vocabulary of flags and ids across commands (issue 12 item 7): the
 * same short flag for the same long one everywhere, --json on the listings,
 * and the id `wisp approvals pending` shows is the one `wisp logs` shows.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { runWisp, tempDir } from "../support/wisp.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { buildProgram } from "../../src/cli/program.ts";
import { connect, mcpScratch, ollamaConfig, pendingIds, waitFor } from "../faces/mcp/support.ts";
import type { Command } from "commander";

/** Every command of the tree with its path. */
function walk(command: Command, path: string[] = []): [string[], Command][] {
  return command.commands.flatMap((c) => [
    [[...path, c.name()], c] as [string[], Command],
    ...walk(c, [...path, c.name()]),
  ]);
}

/** The short flag each long flag has wherever it appears. */
const SHORT: Record<string, string> = {
  "--model": "-m",
  "--yes": "-y",
  "--follow": "-f",
  "--help": "-h",
};

Deno.test("a long flag has the same short flag on every command that takes it", async () => {
  const seen = new Set<string>();
  for (const [path, command] of walk(buildProgram())) {
    for (const option of command.options) {
      const short = option.long ? SHORT[option.long] : undefined;
      if (short === undefined) continue;
      seen.add(`${path.join(" ")} ${option.long}`);
      assertEquals(option.short, short, `wisp ${path.join(" ")} ${option.long}`);
    }
  }
  for (const wanted of ["respond --model", "respond --yes", "mcp --model", "mcp --yes"]) {
    assert(seen.has(wanted), wanted);
  }
  // And through the CLI: -m and -y reach respond.
  const home = await tempDir();
  try {
    const run = await runWisp(["-m", "ollama:nowhere", "-y", "hello"], {
      home,
      env: { OLLAMA_HOST: "http://127.0.0.1:9" },
    });
    assertEquals(run.code, 1, run.stderr);
    assertStringIncludes(run.stderr, "ollama:nowhere");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("doctor, approvals and approvals pending print JSON with --json", async () => {
  const home = await tempDir();
  try {
    const doctor = await runWisp(["doctor", "--json"], { home });
    const report = JSON.parse(doctor.stdout) as { ok: boolean; findings: { ok: boolean }[] };
    assertEquals(doctor.code, report.ok ? 0 : 1);
    assert(report.findings.length >= 3);
    assertEquals(report.ok, report.findings.every((f) => f.ok));

    for (const args of [["approvals", "--json"], ["approvals", "list", "--json"]]) {
      const run = await runWisp(args, { home });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(JSON.parse(run.stdout), { approvals: [] });
    }
    const pending = await runWisp(["approvals", "pending", "--json"], { home });
    assertEquals(pending.code, 0, pending.stderr);
    assertEquals(JSON.parse(pending.stdout), { pending: [], unreadable: [] });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("the id approvals pending shows is the requestId wisp logs shows", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url));
  const c = await connect(s, { env: { WISP_MCP_CLIENT: "claude-code" } });
  try {
    ollama.reply({
      toolCalls: [{ name: "run_command", arguments: { command: "touch made.txt" } }],
    });
    ollama.reply({ text: "Done." });
    const call = c.client.callTool({
      name: "respond",
      arguments: { prompt: "touch made.txt", thread_id: "work", tools: ["run_command"] },
    });
    call.catch(() => {}); // it ends when the server is closed below
    const id = await waitFor(() => pendingIds(s.pending)[0], "the request file");
    const listed = await runWisp(["approvals", "pending", "--json"], { home: s.home });
    const pending = JSON.parse(listed.stdout).pending as { id: string; command: string }[];
    assertEquals(pending.map((p) => [p.id, p.command]), [[id, "touch made.txt"]]);

    const logs = await runWisp(
      ["logs", "--kind", "approval.requested", "--kind", "approval.pending"],
      { home: s.home },
    );
    assertEquals(logs.code, 0, logs.stderr);
    const lines = logs.stdout.trim().split("\n");
    assertEquals(lines.length, 2, logs.stdout);
    for (const line of lines) assertStringIncludes(line, `requestId=${id}`);

    // Every event keeps its own id: none is overwritten by the request's.
    const ids = s.events().map((e) => e.id);
    assertEquals(new Set(ids).size, ids.length);
  } finally {
    await c.close();
    await ollama.close();
    await s.remove();
  }
});
