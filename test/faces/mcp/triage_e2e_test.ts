/**
 * triage as an MCP tool: an output file read by the exact readers, and a
 * command run through the gate and the sandbox, with no model configured;
 * each call audited as a session of its own (triage-<id>), readable as the
 * wisp://audit/{session} resource the result names.
 */
import { fileURLToPath } from "node:url";
import { assert, assertEquals, assertMatch } from "../../support/assert.ts";
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
    const judged = s.events().filter((e) => e.kind === "policy.decision" && e.origin === "triage")
      .map((e) => e.command);
    assertEquals(
      judged,
      [`cat '${LOG}'`, `cat ${LOG}`],
      "the file read cleared the gate as read_file's would, and the command went through it",
    );

    // Each call is an audit session of its own, from its start to its triage event.
    const session = String(ran.session);
    assertMatch(session, /^triage-[0-9a-f]{8}$/);
    assertEquals(ran.audit, `wisp://audit/${session}`);
    assert(session !== String(found.session), "one session per call");
    const own = s.events().filter((e) => e.session === session).map((e) => e.kind);
    assertEquals(own[0], "session.start");
    assertEquals(own[own.length - 1], "triage");
    for (const kind of ["policy.decision", "classifier.verdict", "command.outcome"]) {
      assert(own.includes(kind), `${kind} is in the triage session: ${own.join(", ")}`);
    }
    const start = s.events().find((e) => e.session === session && e.kind === "session.start")!;
    assertEquals(start.face, "triage");
    assertEquals(start.via, "mcp");
    const server = s.events().find((e) => e.kind === "session.start" && e.face === "mcp")!;
    assertEquals(start.server, server.session, "it names the server's session");
    assert(
      !s.events().some((e) => e.session === server.session && e.kind === "triage"),
      "the server's own session holds no triage event",
    );
    const read = await c.client.readResource({ uri: String(ran.audit) });
    const page = JSON.parse((read.contents[0] as { text: string }).text);
    assertEquals(
      (page.events as { kind: string }[]).map((e) => e.kind),
      own,
      "the receipt resource shows the session",
    );

    // A failed command no reader explains: not an error of wisp's, but never clean; the same code as the CLI's.
    const failed = await c.client.callTool({
      name: "triage",
      arguments: { command: "ls /nonexistent" },
    });
    assertEquals((failed as { isError?: boolean }).isError, undefined);
    const unexplained = structured(failed);
    assertEquals(unexplained.outcome, "unexplained");
    assertEquals(unexplained.exitCode, 2);
    assertEquals(unexplained.exitStatus, 2);
    const evidence = unexplained.evidence as { line: number; text: string }[];
    assertEquals(evidence.length, 1);
    assertEquals(evidence[0].line, 1);
    assertMatch(evidence[0].text, /nonexistent/);
    const fromFile = structured(
      await c.client.callTool({ name: "triage", arguments: { path: LOG, exit_status: 1 } }),
    );
    assertEquals([fromFile.outcome, fromFile.exitCode], ["failures", 1]);

    const refused = await c.client.callTool({
      name: "triage",
      arguments: { command: "sudo make test" },
    });
    assertEquals((refused as { isError?: boolean }).isError, true);
    assertMatch(textOf(refused), /denied by policy/);
    const neither = await c.client.callTool({ name: "triage", arguments: {} });
    assertEquals((neither as { isError?: boolean }).isError, true);
    assertEquals(textOf(neither), "error: give either command or path, not both and not neither");
  } finally {
    await c.close();
    await s.remove();
  }
});
