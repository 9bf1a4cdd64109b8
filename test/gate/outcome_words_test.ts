/**
 * How a request that stopped waiting ended, in the one set of words that
 * `wisp approvals pending --watch` and the chat's notes both use.
 */
import { outcomeWords } from "../../src/gate/pending.ts";
import { assertEquals } from "../support/assert.ts";

const outcome = { command: "git push origin main", thread: "git", id: "a1b2c3d4", at: "" };

Deno.test("outcome words: decided, by whom, with the command when the outcome names it", () => {
  assertEquals(
    outcomeWords({ ...outcome, status: "approved", by: "terminal", scope: "once" }),
    "approved (once) from a terminal (git push origin main)",
  );
  assertEquals(
    outcomeWords({ status: "denied", by: "elicitation" }),
    "denied in the client's dialog",
  );
  assertEquals(outcomeWords({ status: "answered", by: "terminal" }), "answered from a terminal");
  assertEquals(outcomeWords({ status: "kept", by: "claude-code" }), "kept by claude-code");
  assertEquals(
    outcomeWords({ status: "refused", by: "server", reason: "the answering process went away" }),
    "refused: the answering process went away",
  );
  assertEquals(outcomeWords({ status: "refused", by: "timeout" }), "refused: its wait ran out");
});

Deno.test("outcome words: closed without a decision says why; no outcome at all says so", () => {
  assertEquals(
    outcomeWords({ ...outcome, status: "closed", by: "timeout" }),
    "its wait ran out unanswered (git push origin main)",
  );
  assertEquals(
    outcomeWords({ status: "closed", by: "server", reason: "the wisp mcp server stopped" }),
    "withdrawn: its server stopped",
  );
  assertEquals(
    outcomeWords({ status: "closed", by: "caller", reason: "the caller withdrew it" }),
    "withdrawn: the caller withdrew it",
  );
  assertEquals(outcomeWords({ status: "closed", by: "server" }), "withdrawn");
  assertEquals(outcomeWords(undefined), "answered elsewhere or withdrawn");
});
