/**
 * triage as an MCP tool: an output file read by the exact readers, and a
 * command run through the gate and the sandbox, with no model configured.
 */
import { fileURLToPath } from "node:url";
import { assertEquals, assertMatch } from "../../support/assert.ts";
import { connect, mcpScratch, structured, textOf } from "./support.ts";

const LOG = fileURLToPath(new URL("../../fixtures/condense/go/test_fail.log", import.meta.url));

Deno.test("triage reads a file or a command's output and returns the headline and findings", async () => {
  const s = await mcpScratch({ notifications: { enabled: false } });
  const c = await connect(s);
  try {
    const fromPath = await c.client.callTool({ name: "triage", arguments: { path: LOG } });
    const found = structured(fromPath);
    assertMatch(String(found.headline), /3 failed tests/);
    const findings = found.findings as Record<string, string>[];
    assertEquals(findings.map((f) => f.test), ["TestAddLarge", "TestTable/two", "TestPanics"]);
    assertMatch(textOf(fromPath), /TestAddLarge/);

    const fromCommand = await c.client.callTool({
      name: "triage",
      arguments: { command: `cat ${LOG}` },
    });
    const ran = structured(fromCommand);
    assertEquals(ran.exitStatus, 0);
    assertEquals((ran.findings as unknown[]).length, 3);
    const policy = s.events().find((e) => e.kind === "policy.decision" && e.origin === "triage");
    assertEquals(policy?.command, `cat ${LOG}`, "the command went through the gate");

    const refused = await c.client.callTool({
      name: "triage",
      arguments: { command: "sudo make test" },
    });
    assertEquals((refused as { isError?: boolean }).isError, true);
    assertMatch(textOf(refused), /denied by policy/);
    await c.client.callTool({ name: "triage", arguments: {} }).then(
      () => {
        throw new Error("neither command nor path must be an error");
      },
      (error) => assertEquals(error.code, -32602),
    );
  } finally {
    await c.close();
    await s.remove();
  }
});
