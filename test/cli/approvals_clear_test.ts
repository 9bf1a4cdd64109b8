/**
 * `wisp approvals clear` asks before it removes every approval (issue 12
 * item 19): on a real terminal (tmux) it asks, and a no keeps them; without
 * a terminal it refuses unless --yes, and says so.
 */
import { join } from "node:path";
import { assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { runWisp, tempDir } from "../support/wisp.ts";
import { Terminal, tmuxAvailable } from "../support/tmux.ts";
import { ApprovalStore, readApprovals } from "../../src/gate/approvals.ts";

async function homeWithApprovals(): Promise<string> {
  const home = await tempDir();
  const store = new ApprovalStore(join(home, "approvals.json"));
  store.remember({ scope: "always", pattern: "head *", level: "safe", root: home });
  store.remember({ scope: "project", pattern: "git commit *", level: "moderate", root: home });
  return home;
}

Deno.test("approvals clear without a terminal removes nothing unless --yes", async () => {
  const home = await homeWithApprovals();
  try {
    const refused = await runWisp(["approvals", "clear"], { home, stdin: "" });
    assertEquals(refused.code, 1);
    assertMatch(
      refused.stderr,
      /^error: wisp approvals clear asks before it removes all 2 remembered approvals, and there is no terminal to ask on; nothing was removed \(add --yes/,
    );
    assertEquals(refused.stderr.trim().split("\n").length, 1);
    assertEquals(readApprovals(join(home, "approvals.json")).length, 2);

    const yes = await runWisp(["approvals", "clear", "-y"], { home });
    assertEquals(yes.code, 0, yes.stderr);
    assertEquals(yes.stdout, "removed 2 approvals\n");
    assertEquals(readApprovals(join(home, "approvals.json")), []);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test({
  name: "approvals clear on a terminal asks, and only a yes removes them",
  ignore: !tmuxAvailable(),
  fn: async () => {
    const home = await homeWithApprovals();
    const terminal = new Terminal();
    try {
      await terminal.wisp("no", home, ["approvals", "clear"]);
      await terminal.waitFor("no", "Remove all 2 remembered approvals?");
      await terminal.keys("no", "Enter"); // the default is no
      const declined = await terminal.waitFor("no", "EXIT=");
      assertStringIncludes(declined, "nothing removed");
      assertStringIncludes(declined, "EXIT=0");
      assertEquals(readApprovals(join(home, "approvals.json")).length, 2);

      await terminal.wisp("yes", home, ["approvals", "clear"]);
      await terminal.waitFor("yes", "Remove all 2 remembered approvals?");
      await terminal.keys("yes", "y", "Enter");
      const accepted = await terminal.waitFor("yes", "EXIT=");
      assertStringIncludes(accepted, "removed 2 approvals");
      assertStringIncludes(accepted, "EXIT=0");
      assertEquals(readApprovals(join(home, "approvals.json")), []);
    } finally {
      await terminal.close();
      await Deno.remove(home, { recursive: true });
    }
  },
});
