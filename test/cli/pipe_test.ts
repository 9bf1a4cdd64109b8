/**
 * A reader that leaves ends wisp quietly with exit 0 (issue 12 item 18):
 * real pipes into `head -1`, through bash, for commands that print more than
 * a pipe holds and for `logs -f`, which has nothing more to print until the
 * next event; and a pipe closed before wisp writes at all.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { PROJECT_ROOT, tempDir, wispCommand } from "../support/wisp.ts";
import { AuditLog } from "../../src/audit/writer.ts";
import { makeApproval, writeApprovals } from "../../src/gate/approvals.ts";

interface PipeRun {
  /** wisp's own exit status (PIPESTATUS[0]). */
  status: number;
  /** What head printed. */
  first: string;
  /** wisp's stderr. */
  stderr: string;
}

/** `wisp ARGS | head -1` in bash; `whileRunning` is called every 200 ms until it ends. */
async function intoHead(
  home: string,
  args: string[],
  whileRunning?: () => void,
): Promise<PipeRun> {
  const scratch = await tempDir("wisp-pipe-");
  try {
    const child = new Deno.Command("bash", {
      args: [
        "-c",
        '"$@" 2>"$SCRATCH/stderr" | head -1; echo "${PIPESTATUS[0]}" >"$SCRATCH/status"',
        "bash",
        ...wispCommand(),
        ...args,
      ],
      cwd: PROJECT_ROOT,
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: Deno.env.get("HOME") ?? "/root",
        WISP_HOME: home,
        NO_COLOR: "1",
        SCRATCH: scratch,
      },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    let ended = false;
    const timer = whileRunning ? setInterval(() => !ended && whileRunning(), 200) : undefined;
    // A generous deadline so a wisp that never notices fails the test instead of hanging it.
    const deadline = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* ended */ }
    }, 120_000);
    const output = await child.output();
    ended = true;
    clearInterval(timer);
    clearTimeout(deadline);
    let status = -1; // no status: the pipeline was killed at the deadline, wisp never ended
    try {
      status = Number(Deno.readTextFileSync(join(scratch, "status")).trim());
    } catch { /* killed */ }
    return {
      status,
      first: new TextDecoder().decode(output.stdout),
      stderr: Deno.readTextFileSync(join(scratch, "stderr")),
    };
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
}

/** A home whose audit log has `count` events. */
function auditEvents(home: string, count: number): AuditLog {
  const log = new AuditLog({
    path: join(home, "logs", "audit.jsonl"),
    enabled: true,
    maxBytes: 1 << 30,
    keep: 2,
  });
  for (let i = 0; i < count; i++) {
    log.record("command.outcome", { command: `echo event ${i}`, exitStatus: 0, origin: "model" });
  }
  return log;
}

Deno.test("wisp … | head -1 ends wisp with exit 0 and nothing on stderr", async () => {
  const home = await tempDir();
  try {
    auditEvents(home, 4000).close();
    writeApprovals(
      join(home, "approvals.json"),
      Array.from({ length: 3000 }, (_, i) =>
        makeApproval({
          scope: "always",
          pattern: `make target-${i} *`,
          level: "moderate",
          root: home,
        })),
    );
    for (
      const args of [["logs"], ["logs", "--json"], ["approvals"], ["approvals", "--json"]]
    ) {
      const run = await intoHead(home, args);
      assertEquals(run.status, 0, `wisp ${args.join(" ")}: ${run.stderr}`);
      assertEquals(run.stderr, "", `wisp ${args.join(" ")}`);
      assertEquals(run.first.split("\n").length, 2, run.first);
    }
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("wisp logs -f | head -1 ends at the next event after head left", async () => {
  const home = await tempDir();
  try {
    const log = auditEvents(home, 2);
    let appended = 0;
    const run = await intoHead(home, ["logs", "-f"], () => {
      log.record("command.outcome", { command: `later ${appended++}`, exitStatus: 0 });
    });
    log.close();
    assertEquals(run.status, 0, run.stderr);
    assertEquals(run.stderr, "");
    assert(run.first.includes("echo event 0"), run.first);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a pipe closed before wisp writes ends it quietly too", async () => {
  const home = await tempDir();
  try {
    auditEvents(home, 3).close();
    for (const args of [["--help"], ["doctor"], ["tools"], ["logs"], ["approvals", "--help"]]) {
      const [cmd, ...rest] = wispCommand();
      const child = new Deno.Command(cmd, {
        args: [...rest, ...args],
        cwd: PROJECT_ROOT,
        env: {
          PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
          HOME: Deno.env.get("HOME") ?? "/root",
          WISP_HOME: home,
          NO_COLOR: "1",
        },
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      await child.stdout.cancel(); // the reader leaves before the first byte
      const [status, stderr] = await Promise.all([child.status, new Response(child.stderr).text()]);
      assertEquals(status.code, 0, `wisp ${args.join(" ")}: ${stderr}`);
      assertEquals(stderr, "", `wisp ${args.join(" ")}`);
    }
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
