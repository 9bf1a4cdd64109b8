/**
 * Who may answer a pending request, with real processes: the kernel names
 * the process on the other end of the request's socket, and the server
 * refuses every answerer that is not wisp's own `approvals approve|deny` at
 * a terminal of its own, outside the MCP client's process tree. Each
 * refusal is audited, and the request keeps waiting for the person.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { DENO_CONFIG, PROJECT_ROOT, wispCommand } from "../../support/wisp.ts";
import {
  connect,
  mcpScratch,
  ollamaConfig,
  pendingIds,
  structured,
  waitFor,
  wispAtTerminal as scriptFromTheClient,
} from "./support.ts";
import { inTmux, shellQuote, wispInTmux } from "./tmux.ts";

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

async function setUp() {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await mcpScratch(ollamaConfig(ollama.url, { approval: { timeoutSeconds: 120 } }));
  const c = await connect(s, { env: { WISP_MCP_CLIENT: "claude-code" } });
  ollama.reply({ toolCalls: [{ name: "run_command", arguments: { command: "touch made.txt" } }] });
  ollama.reply({ text: "Done." });
  const call = c.client.callTool({
    name: "respond",
    arguments: {
      prompt: "Use run_command to run exactly: touch made.txt",
      thread_id: "work",
      tools: ["run_command"],
    },
  });
  const id = await waitFor(() => pendingIds(s.pending)[0], "the request file");
  return {
    s,
    id,
    /** The refusals audited so far. */
    refusals: () =>
      s.events().filter((e) => e.kind === "approval.answered" && e.decision === "refused-answer"),
    /** The person denies at a real terminal; the command never ran. */
    async end() {
      assertEquals(pendingIds(s.pending), [id], "the request still waits for the person");
      const denied = await wispInTmux(s.home, ["approvals", "deny", id]);
      assertEquals(denied.code, 0, denied.output);
      const receipt = structured(await call);
      assertEquals((receipt.calls as Record<string, unknown>[])[0].outcome, "declined");
      assert(!exists(join(s.project, "made.txt")), "nothing ran");
      await c.close();
      await ollama.close();
      await s.remove();
    },
  };
}

/** A client of the socket in Python, sending exactly the line wisp approvals sends. */
const FAKE_ANSWERER = `
import hashlib, json, os, socket, sys
home, verb, ident = os.environ["WISP_HOME"], sys.argv[2], sys.argv[3]
pending = os.path.join(home, "pending")
digest = hashlib.sha256(open(os.path.join(pending, ident + ".json"), "rb").read()).hexdigest()
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(os.path.join(pending, ident + ".sock"))
s.sendall((json.dumps({"version": 1, "id": ident, "decision": "approve", "scope": "always",
                       "digest": digest}) + "\\n").encode())
reply = s.makefile().readline()
print("reply:", reply.strip())
sys.exit(0 if json.loads(reply).get("status") == "approved" else 1)
`;

Deno.test("a python3 process with argv 'approvals approve ID' in a pty of its own is refused", async () => {
  const t = await setUp();
  const dir = await Deno.makeTempDir({ prefix: "wisp-fake-" });
  try {
    const fake = join(dir, "approvals.py");
    Deno.writeTextFileSync(fake, FAKE_ANSWERER);
    const line = `script -qec ${shellQuote(`python3 ${fake} approvals approve ${t.id}`)} /dev/null`;
    const out = await inTmux(line, { WISP_HOME: t.s.home });
    assertEquals(out.code, 1, out.output);
    assertMatch(out.output, /"status": ?"refused"/);
    assertMatch(out.output, /not from wisp/);
    const refusal = await waitFor(() => t.refusals()[0], "the audited refusal");
    assertMatch(String(refusal.reason), /python.*not from wisp/);
    assert(typeof refusal.answererPid === "number" && refusal.answererPid > 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await t.end();
  }
});

Deno.test("a copy of wisp's source run by the same deno is refused", async () => {
  const t = await setUp();
  const copy = await Deno.makeTempDir({ prefix: "wisp-copy-" });
  try {
    await new Deno.Command("cp", {
      args: ["-r", ...["main.ts", "deno.json", "src"].map((f) => join(PROJECT_ROOT, f)), copy],
    }).output();
    // The real configuration, so the copy runs: only its main.ts is elsewhere.
    const argv = [
      Deno.execPath(),
      "run",
      "-q",
      "-P=wisp",
      "--config",
      DENO_CONFIG,
      join(copy, "main.ts"),
      "approvals",
      "approve",
      t.id,
      "--scope",
      "always",
    ];
    const out = await inTmux(argv.map(shellQuote).join(" "), { WISP_HOME: t.s.home });
    assertEquals(out.code, 1, out.output);
    assertMatch(out.output, /the answer was refused: the answer did not come from wisp: deno runs/);
    assertStringIncludes(out.output, "not this wisp's main.ts");
    const refusal = await waitFor(() => t.refusals()[0], "the audited refusal");
    assertMatch(String(refusal.reason), /not this wisp's main\.ts/);
  } finally {
    await Deno.remove(copy, { recursive: true });
    await t.end();
  }
});

Deno.test("the real wisp in a pty made by a child of the MCP client is refused", async () => {
  const t = await setUp();
  try {
    // `script` started by this test, which is the MCP client: as an agent's shell would.
    const out = await scriptFromTheClient(t.s.home, [
      "approvals",
      "approve",
      t.id,
      "--scope",
      "always",
    ]);
    assertEquals(out.code, 1, out.output);
    assertMatch(out.output, /started by the MCP client or by this wisp server/);
    const refusal = await waitFor(() => t.refusals()[0], "the audited refusal");
    assertMatch(String(refusal.reason), /started by the MCP client/);
  } finally {
    await t.end();
  }
});

Deno.test("the real wisp without a controlling terminal is refused, though its stdin is a terminal", async () => {
  const t = await setUp();
  try {
    // setsid leaves the pane's terminal on stdin but gives the process no controlling terminal.
    const line = `setsid -w ${
      [...wispCommand(), "approvals", "approve", t.id].map(shellQuote).join(" ")
    }`;
    const out = await inTmux(line, { WISP_HOME: t.s.home });
    assertEquals(out.code, 1, out.output);
    assertMatch(out.output, /has no terminal of its own/);
    const refusal = await waitFor(() => t.refusals()[0], "the audited refusal");
    assertMatch(String(refusal.reason), /no terminal of its own/);
  } finally {
    await t.end();
  }
});
