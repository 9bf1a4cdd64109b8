/**
 * The sandbox's other doors, tried with real servers outside it: a tmux
 * server in the shared /tmp (a window it opens runs unsandboxed), an
 * ssh-agent, a System V shared memory segment and a POSIX message queue. A
 * confined command reaches none of them; a command run outside the sandbox
 * (approved) reaches each, which shows every check can fail. Where user
 * namespaces matter the same profile is also started by an ordinary user
 * (nobody, through setpriv), as an unprivileged bubblewrap does.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { join } from "node:path";
import { runCommand } from "../../src/exec/runner.ts";
import { bwrapArgs } from "../../src/platform/linux/bwrap.ts";
import { daemonSockets, existingSockets } from "../../src/platform/paths.ts";
import { exists, request, scratch, stdoutText } from "../exec/support.ts";

const isRoot = Deno.uid() === 0;
const NOBODY = 65534;

function run(cmd: string, args: string[], env?: Record<string, string>) {
  return new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped", ...(env ? { env } : {}) })
    .output().then((o) => ({
      code: o.code,
      stdout: new TextDecoder().decode(o.stdout),
      stderr: new TextDecoder().decode(o.stderr),
    }));
}

/** `argv` as the user nobody (root only). */
function asNobody(argv: string[]): string[] {
  return ["--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups", ...argv];
}

/** The confined profile, started by nobody's own unprivileged bubblewrap. */
async function confinedAsNobody(root: string, line: string, masked: string[] = []) {
  const args = bwrapArgs({
    mode: "confined",
    writable: {
      roots: [root, "/tmp"],
      home: "/nonexistent",
      homeInsideRoot: false,
      missing: [],
      masked,
    },
    allowNetwork: true,
    cwd: root,
    inner: ["/bin/sh", "-c", line],
  }).filter((_, i, all) =>
    !(all[i] === "--ro-bind" && all[i + 1] === "/nonexistent") &&
    !(all[i - 1] === "--ro-bind" && all[i] === "/nonexistent") &&
    !(all[i - 2] === "--ro-bind" && all[i - 1] === "/nonexistent")
  );
  return await run("setpriv", asNobody(["bwrap", ...args]));
}

async function tmuxWindows(args: string[], asUser = false): Promise<number> {
  const argv = ["tmux", ...args, "list-windows"];
  const r = asUser ? await run("setpriv", asNobody(argv)) : await run(argv[0], argv.slice(1));
  return r.stdout.trim().split("\n").filter(Boolean).length;
}

Deno.test("a host tmux server in the shared /tmp: a confined command opens no window there", async () => {
  const s = await scratch();
  const name = "wisp-doors-" + crypto.randomUUID().slice(0, 8);
  const marker = join(s.outside, "ran-outside");
  try {
    const started = await run("tmux", [
      "-L",
      name,
      "-f",
      "/dev/null",
      "new-session",
      "-d",
      "sleep 600",
    ]);
    assertEquals(started.code, 0, started.stderr);
    const socket = `/tmp/tmux-${Deno.uid()}/${name}`;
    assert(exists(socket), socket);
    const line = `tmux -L ${name} new-window -d 'touch ${marker}'; ` +
      `tmux -S ${socket} new-window -d 'touch ${marker}'; echo tried`;
    const confined = await runCommand(request(s, line));
    assertStringIncludes(stdoutText(confined), "tried");
    assertEquals(await tmuxWindows(["-L", name]), 1, confined.rendered);
    await new Promise((r) => setTimeout(r, 300));
    assert(!exists(marker), "the host tmux server ran the command's window");
    const outside = await runCommand(request(s, `tmux -L ${name} new-window -d 'sleep 600'`, {
      outsideSandbox: true,
    }));
    assertEquals(outside.exitStatus, 0, outside.rendered);
    assertEquals(await tmuxWindows(["-L", name]), 2, "outside the sandbox the server is reachable");
  } finally {
    await run("tmux", ["-L", name, "kill-server"]);
    await Deno.remove(`/tmp/tmux-${Deno.uid()}/${name}`).catch(() => {});
    await s.cleanup();
  }
});

Deno.test({
  name: "as an ordinary user: nobody's own tmux server is hidden from nobody's confined command",
  ignore: !isRoot,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "wisp-doors-nobody-" });
    Deno.chmodSync(root, 0o777);
    const name = "wisp-doors-" + crypto.randomUUID().slice(0, 8);
    const tmux = ["tmux", "-L", name];
    try {
      // nobody's login shell is nologin: without SHELL (as under CI) tmux would run the
      // window through it, the window would close at once and the server would exit.
      const started = await run(
        "setpriv",
        asNobody([...tmux, "-f", "/dev/null", "new-session", "-d", "sleep 600"]),
        { SHELL: "/bin/sh" },
      );
      assertEquals(started.code, 0, started.stderr);
      const env = (n: string) => (({ HOME: "/nonexistent" }) as Record<string, string>)[n];
      const masked = existingSockets(daemonSockets(env, NOBODY));
      assert(masked.includes(`/tmp/tmux-${NOBODY}/${name}`), masked.join(" "));
      const line = `tmux -L ${name} new-window -d 'sleep 600'; echo tried`;
      const confined = await confinedAsNobody(root, line, masked);
      assertStringIncludes(confined.stdout, "tried", confined.stderr);
      assertEquals(await tmuxWindows(["-L", name], true), 1);
      // The same profile without the mask reaches it: the check can fail.
      await confinedAsNobody(root, line, []);
      assertEquals(await tmuxWindows(["-L", name], true), 2);
    } finally {
      await run("setpriv", asNobody([...tmux, "kill-server"]));
      await Deno.remove(`/tmp/tmux-${NOBODY}/${name}`).catch(() => {});
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test("a host ssh-agent is hidden: ssh-add cannot reach it inside, reaches it outside", async () => {
  const s = await scratch();
  const dir = await Deno.makeTempDir({ prefix: "ssh-wisp-" });
  const socket = join(dir, "agent.sock");
  const agent = new Deno.Command("ssh-agent", {
    args: ["-D", "-a", socket],
    stdout: "null",
    stderr: "null",
  })
    .spawn();
  const before = Deno.env.get("SSH_AUTH_SOCK");
  try {
    for (let i = 0; i < 200 && !exists(socket); i++) await new Promise((r) => setTimeout(r, 50));
    Deno.env.set("SSH_AUTH_SOCK", socket);
    // ssh-add -l: 1 when the agent holds no identity, 2 when it cannot be reached.
    const line = `SSH_AUTH_SOCK=${socket} ssh-add -l; echo status:$?`;
    const confined = await runCommand(request(s, line));
    assertStringIncludes(stdoutText(confined), "status:2", confined.rendered);
    const outside = await runCommand(request(s, line, { outsideSandbox: true }));
    assertStringIncludes(stdoutText(outside), "status:1", outside.rendered);
  } finally {
    if (before === undefined) Deno.env.delete("SSH_AUTH_SOCK");
    else Deno.env.set("SSH_AUTH_SOCK", before);
    agent.kill();
    await agent.status;
    await Deno.remove(dir, { recursive: true });
    await s.cleanup();
  }
});

const MQ = `
import ctypes, os, sys
rt = ctypes.CDLL("librt.so.1", use_errno=True)
rt.mq_open.restype = ctypes.c_int
fd = rt.mq_open(sys.argv[2].encode(), os.O_RDONLY | (os.O_CREAT if sys.argv[1] == "create" else 0), 0o666, None)
print("queue-open" if fd >= 0 else "queue-missing:" + os.strerror(ctypes.get_errno()))
if sys.argv[1] == "unlink": rt.mq_unlink(sys.argv[2].encode())
`;

Deno.test("System V shared memory and a POSIX queue made outside are invisible inside, as root and as an ordinary user", async () => {
  const s = await scratch();
  const script = join(await Deno.makeTempDir({ prefix: "wisp-doors-mq-" }), "mq.py");
  Deno.writeTextFileSync(script, MQ);
  Deno.chmodSync(join(script, ".."), 0o755);
  Deno.chmodSync(script, 0o644);
  const queue = "/wisp-doors-" + crypto.randomUUID().slice(0, 8);
  const made = await run("ipcmk", ["-M", "4096", "-p", "0644"]);
  const id = /(\d+)/.exec(made.stdout)?.[1];
  try {
    assert(id !== undefined, made.stdout + made.stderr);
    const created = await run("/usr/bin/python3", [script, "create", queue]);
    assertEquals(created.stdout.trim(), "queue-open", created.stderr);
    const line = `ipcs -m; /usr/bin/python3 ${script} open ${queue}`;
    const segment = new RegExp(`^\\S+\\s+${id}\\s`, "m");

    const confined = stdoutText(await runCommand(request(s, line)));
    assert(!segment.test(confined), confined);
    assertStringIncludes(confined, "queue-missing");
    const outside = stdoutText(await runCommand(request(s, line, { outsideSandbox: true })));
    assert(segment.test(outside), outside);
    assertStringIncludes(outside, "queue-open");

    if (isRoot) {
      const root = await Deno.makeTempDir({ prefix: "wisp-doors-nobody-" });
      Deno.chmodSync(root, 0o777);
      try {
        const host = await run("setpriv", asNobody(["/bin/sh", "-c", line]));
        assert(segment.test(host.stdout), "nobody sees the segment on the host: " + host.stdout);
        assertStringIncludes(host.stdout, "queue-open");
        const inside = await confinedAsNobody(root, line);
        assert(!segment.test(inside.stdout), inside.stdout + inside.stderr);
        assertStringIncludes(inside.stdout, "queue-missing", inside.stderr);
      } finally {
        await Deno.remove(root, { recursive: true });
      }
    }
  } finally {
    if (id) await run("ipcrm", ["-m", id]);
    await run("/usr/bin/python3", [script, "unlink", queue]);
    await Deno.remove(join(script, ".."), { recursive: true });
    await s.cleanup();
  }
});

Deno.test("the addresses the environment names are hidden too; --unshare-ipc only in the confined profile", () => {
  const env: Record<string, string> = {
    HOME: "/home/me",
    SSH_AUTH_SOCK: "/tmp/ssh-abc/agent.1",
    TMUX: "/srv/tmux/sock,123,0",
    KITTY_LISTEN_ON: "unix:/tmp/mykitty",
    VSCODE_IPC_HOOK_CLI: "/run/user/1000/vscode-ipc-x.sock",
    CONTAINER_HOST: "unix:///run/user/1000/podman/podman.sock",
    WEZTERM_UNIX_SOCKET: "/run/user/1000/wezterm/gui-sock-1",
    NVIM: "/run/user/1000/nvim.1.0",
  };
  const list = daemonSockets((n) => env[n], 1000);
  for (
    const p of [
      "/tmp/ssh-abc/agent.1",
      "/srv/tmux/sock",
      "/tmp/mykitty",
      "/run/user/1000/vscode-ipc-x.sock",
      "/run/user/1000/podman/podman.sock",
      "/run/user/1000/wezterm/gui-sock-1",
      "/run/user/1000/nvim.1.0",
      "/home/me/.1password/agent.sock",
    ]
  ) {
    assert(list.includes(p), p);
  }
  const spec = {
    mode: "confined" as const,
    writable: { roots: ["/p"], home: "/h", homeInsideRoot: false, missing: [] },
    allowNetwork: true,
    cwd: "/p",
    inner: ["true"],
  };
  assert(bwrapArgs(spec).includes("--unshare-ipc"));
  assert(!bwrapArgs({ ...spec, mode: "open" }).includes("--unshare-ipc"));
});
