/**
 * `wisp approvals` on a real terminal (tmux): aligned columns with gone
 * folders marked, and `clear --gone` asking before it removes anything.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { PROJECT_ROOT, tempDir, wispCommand } from "../support/wisp.ts";
import { ApprovalStore, readApprovals } from "../../src/gate/approvals.ts";
import { removeTmuxSocket } from "../support/tmux.ts";

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** A tmux server of this file's own, so killing it at the end ends no other test's panes. */
const SOCKET = `wisp-test-tty-${crypto.randomUUID().slice(0, 8)}`;

async function tmux(...args: string[]): Promise<string> {
  const out = await new Deno.Command("tmux", {
    args: ["-L", SOCKET, ...args],
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).output();
  return new TextDecoder().decode(out.stdout);
}

async function waitFor(session: string, text: string, ms = 60_000): Promise<string> {
  const until = Date.now() + ms;
  let screen = "";
  while (Date.now() < until) {
    screen = await tmux("capture-pane", "-p", "-t", session);
    if (screen.includes(text)) return screen;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${JSON.stringify(text)}; the screen:\n${screen}`);
}

async function run(session: string, home: string, args: string[]): Promise<void> {
  const cmd = [...wispCommand(), ...args].map(quote).join(" ");
  const env = `env -i PATH=${quote(Deno.env.get("PATH") ?? "/usr/bin:/bin")} HOME=${
    quote(Deno.env.get("HOME") ?? "/root")
  } TERM=xterm-256color NO_COLOR=1 WISP_HOME=${quote(home)}`;
  await tmux(
    "new-session",
    "-d",
    "-s",
    session,
    "-x",
    "140",
    "-y",
    "30",
    "-c",
    PROJECT_ROOT,
    `${env} ${cmd}; echo EXIT=$?; sleep 30`,
  );
}

Deno.test({
  name: "wisp approvals on a terminal: aligned columns, gone marked, clear --gone asks first",
  // tmux is installed on the build machines; without it there is no terminal to test on.
  ignore: !(() => {
    try {
      return new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" }).outputSync()
        .success;
    } catch {
      return false;
    }
  })(),
  fn: async () => {
    const home = await tempDir();
    const session = `wisp-gate-${crypto.randomUUID().slice(0, 8)}`;
    try {
      await Deno.mkdir(`${home}/kept`);
      await Deno.mkdir(`${home}/gone`);
      const store = new ApprovalStore(`${home}/approvals.json`);
      const kept = store.remember({
        scope: "project",
        pattern: "git commit *",
        level: "moderate",
        root: `${home}/kept`,
      });
      const gone = store.remember({
        scope: "project",
        pattern: "make test *",
        level: "moderate",
        root: `${home}/gone`,
      });
      await Deno.remove(`${home}/gone`);

      // Each run gets a session of its own, and the server lives until the end: killing the last
      // session stops the server, and a new session started meanwhile can be lost with it.
      await run(`${session}-list`, home, ["approvals"]);
      const list = await waitFor(`${session}-list`, "EXIT=");
      assert(/ID\s+SCOPE\s+EXPIRES\s+WHERE\s+SOURCE\s+PATTERN/.test(list), list);
      assertStringIncludes(list, `${home}/gone (gone)`);
      assertStringIncludes(
        list,
        "1 approval is for a folder that is gone and can never match again; 'wisp approvals clear --gone' removes it.",
      );
      assertStringIncludes(list, "EXIT=0");

      // Declined: nothing changes.
      await run(`${session}-no`, home, ["approvals", "clear", "--gone"]);
      await waitFor(`${session}-no`, "Remove this approval?");
      await tmux("send-keys", "-t", `${session}-no`, "n");
      await tmux("send-keys", "-t", `${session}-no`, "Enter");
      const declined = await waitFor(`${session}-no`, "EXIT=");
      assertStringIncludes(declined, "nothing removed");
      assertEquals(readApprovals(`${home}/approvals.json`).length, 2);

      // Accepted: only the gone one goes.
      await run(`${session}-yes`, home, ["approvals", "clear", "--gone"]);
      await waitFor(`${session}-yes`, "Remove this approval?");
      await tmux("send-keys", "-t", `${session}-yes`, "y");
      await tmux("send-keys", "-t", `${session}-yes`, "Enter");
      const accepted = await waitFor(`${session}-yes`, "EXIT=");
      assertStringIncludes(accepted, `removed ${gone.id}`);
      assertEquals(readApprovals(`${home}/approvals.json`).map((a) => a.id), [kept.id]);
    } finally {
      await tmux("kill-server");
      await removeTmuxSocket(SOCKET);
      await Deno.remove(home, { recursive: true });
    }
  },
});
