/**
 * The rows and JSON items of `wisp approvals`: stored approvals and those a
 * running server holds side by side, each saying where it came from.
 */
import { assertEquals } from "../support/assert.ts";
import { approvalJson, approvalRows } from "../../src/cli/approvals.ts";
import { makeApproval } from "../../src/gate/approvals.ts";

const stored = makeApproval({ scope: "always", pattern: "head *", level: "safe", root: "/p" });
const held = makeApproval({
  scope: "session",
  pattern: "npm test *",
  level: "moderate",
  root: "/p",
  source: "elicitation",
});
const server = { pid: 4242, start: "77", session: "c0ffee00", client: "an-agent" };

Deno.test("approval rows: a running server's approval shows its source and server", () => {
  const never = () => false;
  assertEquals(approvalRows([stored], never, true, [{ approval: held, server }]), [
    [
      stored.id,
      "always",
      approvalRows([stored], never, true)[0][2],
      "any directory",
      "stored",
      "head *",
    ],
    [
      held.id,
      "session",
      "with the server",
      "wisp mcp 4242 (an-agent)",
      "elicitation",
      "npm test *",
    ],
  ]);
  // Piped: the stored layout stays as it was; a server's line adds its fields after a sixth.
  assertEquals(approvalRows([stored], never, false, [{ approval: held, server }]), [
    [stored.id, "always", stored.expires!, "", "head *"],
    [held.id, "session", "", "", "npm test *", "", "elicitation", "4242", "an-agent"],
  ]);
});

Deno.test("approval JSON: source and server for each item", () => {
  assertEquals(approvalJson(stored, false).source, "stored");
  assertEquals(approvalJson(stored, false).server, null);
  const item = approvalJson(held, false, server);
  assertEquals(item.source, "elicitation");
  assertEquals(item.server, { pid: 4242, session: "c0ffee00", client: "an-agent" });
});
