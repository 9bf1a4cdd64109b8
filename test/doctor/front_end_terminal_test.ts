/**
 * Doctor's front end line at a real terminal (tmux): on a terminal it names
 * wisp-tui; with TERM=dumb, or with its input piped, the plain chat and why.
 * (Piped stdout is the suite's ordinary case, in cli_test.ts.)
 */
import { join } from "node:path";
import { assertMatch } from "../support/assert.ts";
import { Terminal, tmuxAvailable } from "../support/tmux.ts";
import { PROJECT_ROOT, tempDir, wispCommand } from "../support/wisp.ts";

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** Start `wisp doctor` in a tmux session with TERM `term`, its stdin from `stdinFrom` when given. */
async function doctorAt(
  terminal: Terminal,
  session: string,
  scratch: string,
  term: string,
  stdinFrom?: string,
): Promise<void> {
  const env = [
    "env -i",
    `PATH=${quote(Deno.env.get("PATH") ?? "/usr/bin:/bin")}`,
    `HOME=${quote(join(scratch, "home"))}`,
    `WISP_HOME=${quote(join(scratch, "wisp"))}`,
    `TERM=${term}`,
    "NO_COLOR=1",
  ].join(" ");
  const wisp = [...wispCommand(), "doctor"].map(quote).join(" ");
  const command = `${stdinFrom ? `${stdinFrom} | ` : ""}${env} ${wisp}`;
  await terminal.tmux(
    "new-session",
    "-d",
    "-s",
    session,
    "-x",
    "160",
    "-y",
    "50",
    "-c",
    PROJECT_ROOT,
    `${command}; echo EXIT=$?; sleep 60`,
  );
}

Deno.test({
  name: "doctor at a real terminal: wisp-tui; TERM=dumb or a piped stdin: the plain chat, and why",
  ignore: !tmuxAvailable(),
  fn: async () => {
    const scratch = await tempDir("wisp-doctor-front-end-");
    const terminal = new Terminal();
    try {
      Deno.mkdirSync(join(scratch, "home"));
      await doctorAt(terminal, "tui", scratch, "xterm-256color");
      await doctorAt(terminal, "dumb", scratch, "dumb");
      await doctorAt(terminal, "piped", scratch, "xterm-256color", "echo");
      const deadline = 180_000;
      assertMatch(
        await terminal.waitFor("tui", "EXIT=", deadline),
        /^ok {3}front end: wisp-tui \(stdin and stdout are terminals\)$/m,
      );
      assertMatch(
        await terminal.waitFor("dumb", "EXIT=", deadline),
        /^ok {3}front end: plain chat \(TERM is dumb\)$/m,
      );
      assertMatch(
        await terminal.waitFor("piped", "EXIT=", deadline),
        /^ok {3}front end: plain chat \(stdin is not a terminal\)$/m,
      );
    } finally {
      await terminal.close();
      await Deno.remove(scratch, { recursive: true });
    }
  },
});
