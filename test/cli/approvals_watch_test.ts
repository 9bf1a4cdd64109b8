/**
 * The lines `wisp approvals pending --watch` prints when the pending folder
 * changes: on a terminal a line per new request and per request gone (with
 * how it ended when its outcome is known); piped, the new request's row only.
 */
import { assertEquals } from "../support/assert.ts";
import { type WatchedRequest, watchLines } from "../../src/cli/approvals_pending.ts";
import { outcomeWords } from "../../src/gate/pending.ts";

const request = (id: string, command: string): WatchedRequest => ({
  id,
  level: "moderate",
  waited: 3,
  client: "claude-code",
  thread: "git",
  cwd: "/home/ann/src/app",
  command,
  outsideSandbox: false,
  asks: "command",
  words: command,
});

Deno.test("watch lines: new and gone on a terminal, rows when piped", () => {
  const a = request("a1b2c3d4", "git push origin main");
  const b = request("0f9e8d7c", "npm publish");
  const before = new Map([[a.id, a]]);
  assertEquals(
    watchLines(
      before,
      [b],
      true,
      "/home/ann",
      (id) => id === a.id ? "approved (once) from a terminal" : undefined,
    ),
    [
      "· 0f9e8d7c waiting (moderate, claude-code/git, in ~/src/app): npm publish — wisp approvals approve 0f9e8d7c",
      "· a1b2c3d4 no longer waiting: approved (once) from a terminal",
    ],
  );
  assertEquals(watchLines(new Map([[b.id, b]]), [], true), [
    "· 0f9e8d7c no longer waiting: answered elsewhere or withdrawn",
  ]);
  assertEquals(watchLines(before, [a, b], false), [
    "0f9e8d7c\tmoderate\t3\tclaude-code/git\t/home/ann/src/app\tnpm publish",
  ]);
  assertEquals(watchLines(before, [a], true), [], "nothing changed, nothing printed");
});

Deno.test("outcome words", () => {
  assertEquals(
    outcomeWords({ status: "denied", by: "elicitation" }),
    "denied in the client's dialog",
  );
  assertEquals(outcomeWords({ status: "refused", by: "timeout" }), "refused: its wait ran out");
});
