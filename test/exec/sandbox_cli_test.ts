/**
 * `wisp sandbox` as a person or script runs it: the real CLI, under the
 * binary's permission fence (only the launchers may be started), in a
 * scratch project with a scratch home.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { join } from "node:path";
import { DENO_CONFIG, MAIN, runWisp } from "../support/wisp.ts";
import { exists, processesRunning, scratch } from "./support.ts";
import { waitUntil } from "../support/wait.ts";

function auditEvents(home: string): Array<Record<string, unknown>> {
  const text = Deno.readTextFileSync(join(home, "logs", "audit.jsonl"));
  return text.trim().split("\n").map((l) => JSON.parse(l));
}

Deno.test("wisp sandbox passes stdio through and exits with the program's status", async () => {
  const s = await scratch();
  try {
    const r = await runWisp([
      "sandbox",
      "--",
      "sh",
      "-c",
      "echo out; echo err >&2; touch made; exit 7",
    ], { home: s.home.root, cwd: s.project });
    assertEquals(r.code, 7);
    assertEquals(r.stdout, "out\n");
    assertEquals(r.stderr, "err\n");
    assert(exists(join(s.project, "made")));
    const stdin = await runWisp(["sandbox", "--", "cat"], {
      home: s.home.root,
      cwd: s.project,
      stdin: "piped in\n",
    });
    assertEquals(stdin.stdout, "piped in\n");
    const killed = await runWisp(["sandbox", "--", "sh", "-c", "kill -TERM $$"], {
      home: s.home.root,
      cwd: s.project,
    });
    assertEquals(killed.code, 128 + 15);
  } finally {
    await s.cleanup();
  }
});

Deno.test("wisp sandbox confines writes: outside the project refused, --writable widens, the home never", async () => {
  const s = await scratch();
  try {
    const refused = await runWisp(["sandbox", "--", "touch", join(s.outside, "x")], {
      home: s.home.root,
      cwd: s.project,
    });
    assertEquals(refused.code, 1);
    assertStringIncludes(refused.stderr, "Read-only file system");
    assert(!exists(join(s.outside, "x")));
    const widened = await runWisp([
      "sandbox",
      "--writable",
      s.outside,
      "--",
      "touch",
      join(s.outside, "y"),
    ], { home: s.home.root, cwd: s.project });
    assertEquals(widened.code, 0, widened.stderr);
    assert(exists(join(s.outside, "y")));
    const home = await runWisp([
      "sandbox",
      "--writable",
      s.home.root,
      "--",
      "touch",
      join(s.home.root, "z"),
    ], { home: s.home.root, cwd: s.project });
    assertEquals(home.code, 1);
    assert(!exists(join(s.home.root, "z")));
  } finally {
    await s.cleanup();
  }
});

Deno.test("wisp sandbox applies the deny list and audits the run as the person's, origin sandbox", async () => {
  const s = await scratch();
  try {
    const denied = await runWisp(["sandbox", "--", "sudo", "true"], {
      home: s.home.root,
      cwd: s.project,
    });
    assertEquals(denied.code, 1);
    assertStringIncludes(denied.stderr, "error: command denied by policy:");
    Deno.writeTextFileSync(
      s.home.config,
      JSON.stringify({ commandPolicy: { deny: ["^echo secret"] } }),
    );
    const pattern = await runWisp(["sandbox", "--", "echo", "secret"], {
      home: s.home.root,
      cwd: s.project,
    });
    assertEquals(pattern.code, 1);
    assertEquals(pattern.stdout, "");
    const ok = await runWisp(["sandbox", "--", "echo", "fine"], {
      home: s.home.root,
      cwd: s.project,
    });
    assertEquals(ok.stdout, "fine\n");
    const events = auditEvents(s.home.root);
    const decisions = events.filter((e) => e.kind === "policy.decision");
    assertEquals(decisions.map((e) => e.decision), ["deny", "deny", "allow"]);
    assert(decisions.every((e) => e.origin === "sandbox"));
    const outcomes = events.filter((e) => e.kind === "command.outcome");
    assertEquals(outcomes.length, 1);
    assertEquals(outcomes[0].command, "echo fine");
    assertEquals(outcomes[0].origin, "sandbox");
    assertEquals(outcomes[0].exitStatus, 0);
    assertEquals(outcomes[0].sandbox, "confined");
  } finally {
    await s.cleanup();
  }
});

Deno.test("wisp sandbox --no-network cuts the program off the network", async () => {
  const s = await scratch();
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const accepting = (async () => {
    for await (const conn of listener) conn.close();
  })();
  try {
    const probe = ["bash", "-c", `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`];
    const on = await runWisp(["sandbox", "--", ...probe], { home: s.home.root, cwd: s.project });
    assertEquals(on.stdout, "connected\n");
    const off = await runWisp(["sandbox", "--no-network", "--", ...probe], {
      home: s.home.root,
      cwd: s.project,
    });
    assert(off.code !== 0);
    assertEquals(off.stdout, "");
  } finally {
    listener.close();
    await accepting.catch(() => {});
    await s.cleanup();
  }
});

Deno.test("nested: wisp inside wisp's sandbox finds its launcher refused, decided by its own probe, and fails closed", async () => {
  const s = await scratch();
  try {
    const inner = [
      "env",
      `WISP_HOME=${join(s.project, "inner-home")}`,
      Deno.execPath(),
      "run",
      "-q",
      "-P=wisp",
      "--config",
      DENO_CONFIG,
      MAIN,
    ];
    // The command prints what an unsandboxed rerun would be asked for; it changes nothing.
    const r = await runWisp([
      "sandbox",
      "--",
      ...inner,
      "sandbox",
      "--",
      "sh",
      "-c",
      "echo 'bwrap: Creating new namespace failed'; echo ran",
    ], {
      home: s.home.root,
      cwd: s.project,
    });
    assertEquals(r.code, 1);
    assertStringIncludes(r.stderr, "wisp runs inside another sandbox");
    assert(!r.stdout.includes("ran"));
    const innerEvents = auditEvents(join(s.project, "inner-home"));
    const outcome = innerEvents.find((e) => e.kind === "command.outcome")!;
    assertEquals(outcome.nested, true);
    assertEquals(outcome.sandbox, "nested");
  } finally {
    await s.cleanup();
  }
});

Deno.test("nested, with a fence that lets wisp start a shell: the command runs plainly, confined by the outer sandbox", async () => {
  const s = await scratch();
  try {
    const root = new URL("../..", import.meta.url).pathname;
    const script = join(s.project, "nested.ts");
    Deno.writeTextFileSync(
      script,
      `import { runCommand } from "${root}src/exec/runner.ts";
import { defaultConfig } from "${root}src/config/schema.ts";
import { homePaths } from "${root}src/config/home.ts";
import { commandResultRenderer } from "${root}src/tools/command_result.ts";
const r = await runCommand({ render: commandResultRenderer, command: "echo plain; touch ${s.outside}/nested-escape", cwd: "${s.project}", root: "${s.project}", origin: "model", outsideSandbox: true,
  budgetBytes: 4096, config: defaultConfig(), home: homePaths("${s.project}/nested-home"), audit: { session: "nest0001", record: () => ({}) } as never });
console.log(JSON.stringify({ mode: r.sandbox.mode, nested: r.sandbox.nested, rendered: r.rendered }));
`,
    );
    const r = await runWisp([
      "sandbox",
      "--",
      Deno.execPath(),
      "run",
      "-A",
      "--config",
      DENO_CONFIG,
      script,
    ], { home: s.home.root, cwd: s.project });
    assertEquals(r.code, 0, r.stderr);
    const result = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    assertEquals(result.mode, "nested");
    assertEquals(result.nested, true);
    assertStringIncludes(result.rendered, "stdout:\nplain");
    assertStringIncludes(
      result.rendered,
      "sandbox: outsideSandbox changed nothing: wisp runs inside another sandbox, which confined this command",
    );
    assert(
      !exists(join(s.outside, "nested-escape")),
      "the outer sandbox still confined the command",
    );
  } finally {
    await s.cleanup();
  }
});

Deno.test("an interrupt to wisp sandbox ends the program and everything it started", async () => {
  const s = await scratch();
  const tag = `sleep 33.${Math.floor(Math.random() * 1000)}`;
  try {
    const { wispCommand } = await import("../support/wisp.ts");
    const [cmd, ...rest] = wispCommand();
    const child = new Deno.Command(cmd, {
      args: [...rest, "sandbox", "--", "sh", "-c", `trap '' TERM INT; ${tag} & ${tag}`],
      cwd: s.project,
      env: {
        WISP_HOME: s.home.root,
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: Deno.env.get("HOME") ?? "/",
      },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    await waitUntil(() => processesRunning(tag).length >= 2, "both programs' start");
    assertEquals(processesRunning(tag).length, 2);
    Deno.kill(child.pid, "SIGINT");
    const out = await child.output();
    assertEquals(out.code, 128 + 15);
    assertStringIncludes(new TextDecoder().decode(out.stderr), "wisp: stopped");
    // The kernel may take a moment to reap what was killed.
    await waitUntil(() => processesRunning(tag).length === 0, "every program's end");
  } finally {
    await s.cleanup();
  }
});

Deno.test("wisp sandbox says when a --writable path cannot be made writable, and why", async () => {
  const s = await scratch();
  try {
    const missing = await runWisp([
      "sandbox",
      "--writable",
      join(s.outside, "missing"),
      "--",
      "true",
    ], {
      home: s.home.root,
      cwd: s.project,
    });
    assertEquals(missing.code, 0);
    assertStringIncludes(missing.stderr, `warning: ${join(s.outside, "missing")} does not exist`);
    Deno.symlinkSync(s.outside, join(s.project, "out"));
    const planted = await runWisp(["sandbox", "--writable", "out", "--", "touch", "out/x"], {
      home: s.home.root,
      cwd: s.project,
    });
    assertStringIncludes(
      planted.stderr,
      `warning: ${join(s.project, "out")} is not writable in the sandbox`,
    );
    assertEquals(planted.code, 1);
    assert(!exists(join(s.outside, "x")));
  } finally {
    await s.cleanup();
  }
});
