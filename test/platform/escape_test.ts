/**
 * The sandbox's one invariant, tried with real commands under the real
 * launcher: a write succeeds if and only if the real file lands inside the
 * writable set (the launch directory, the temporary directories, the cache
 * directory, configured paths), and never in wisp's home. Each test checks the
 * host's file system afterwards, not only the command's exit status.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";

const assertFalse = (value: unknown, message?: string) => assert(!value, message);
import { basename, join } from "node:path";
import { runCommand } from "../../src/exec/runner.ts";
import { config, exists, request, scratch } from "../exec/support.ts";

Deno.test("a write inside the launch directory lands; one outside is refused and named", async () => {
  const s = await scratch();
  try {
    const inside = await runCommand(
      request(s, "echo hi > inside.txt && mkdir -p a/b && touch a/b/c"),
    );
    assertEquals(inside.exitStatus, 0, inside.rendered);
    assertEquals(Deno.readTextFileSync(join(s.project, "inside.txt")), "hi\n");
    assert(exists(join(s.project, "a/b/c")));

    const outside = await runCommand(request(s, `touch ${s.outside}/escaped`));
    assert(outside.exitStatus !== 0);
    assertFalse(exists(join(s.outside, "escaped")));
    assertEquals(outside.sandbox.verdict, "refused");
    assertStringIncludes(
      outside.rendered,
      `sandbox: the sandbox refused writing ${s.outside}/escaped`,
    );
    const event = s.events.findLast((e) => e.kind === "command.outcome")!;
    assertEquals(event.sandboxRefusal, "refused");
    assertEquals(event.sandbox, "confined");
  } finally {
    await s.cleanup();
  }
});

Deno.test("planted symlinks: a file link or a folder link pointing outside is refused, one pointing inside works", async () => {
  const s = await scratch();
  try {
    Deno.writeTextFileSync(join(s.outside, "target.txt"), "original\n");
    Deno.symlinkSync(join(s.outside, "target.txt"), join(s.project, "file-link"));
    Deno.symlinkSync(s.outside, join(s.project, "dir-link"));
    Deno.writeTextFileSync(join(s.project, "real.txt"), "");
    Deno.symlinkSync(join(s.project, "real.txt"), join(s.project, "inner-link"));
    const r = await runCommand(request(
      s,
      [
        "echo changed > file-link",
        "echo new > dir-link/planted",
        "mkdir dir-link/folder",
        "cp /etc/hostname dir-link/copied",
        "echo ok > inner-link",
      ].join("; "),
    ));
    assertEquals(Deno.readTextFileSync(join(s.outside, "target.txt")), "original\n");
    assertFalse(exists(join(s.outside, "planted")));
    assertFalse(exists(join(s.outside, "folder")));
    assertFalse(exists(join(s.outside, "copied")));
    assertEquals(Deno.readTextFileSync(join(s.project, "real.txt")), "ok\n");
    assertEquals(r.exitStatus, 0, r.rendered); // the last command (inside) succeeded
  } finally {
    await s.cleanup();
  }
});

Deno.test("hard links to files outside the set, or in wisp's home, cannot be made", async () => {
  const s = await scratch({ homeInside: ".wisp" });
  try {
    Deno.writeTextFileSync(join(s.outside, "secret"), "keep\n");
    Deno.writeTextFileSync(join(s.home.root, "config.json"), "{}\n");
    const r = await runCommand(request(
      s,
      [
        `ln ${s.outside}/secret hl-outside`,
        "ln .wisp/config.json hl-home",
        "echo x >> hl-outside; echo x >> hl-home; true",
      ].join("; "),
    ));
    assertEquals(r.exitStatus, 0);
    assertEquals(Deno.readTextFileSync(join(s.outside, "secret")), "keep\n");
    assertEquals(Deno.readTextFileSync(join(s.home.root, "config.json")), "{}\n");
    assertEquals(Deno.statSync(join(s.outside, "secret")).nlink, 1);
    assertStringIncludes(new TextDecoder().decode(r.stderr.head), "Invalid cross-device link");
  } finally {
    await s.cleanup();
  }
});

Deno.test("renames out of the set are refused; a rename in from outside only copies (the source stays)", async () => {
  const s = await scratch();
  try {
    Deno.writeTextFileSync(join(s.project, "mine"), "m\n");
    Deno.writeTextFileSync(join(s.outside, "theirs"), "t\n");
    await runCommand(
      request(s, `mv mine ${s.outside}/mine; mv ${s.outside}/theirs ./theirs; true`),
    );
    assert(exists(join(s.project, "mine")));
    assertFalse(exists(join(s.outside, "mine")));
    // mv falls back to copy-then-unlink across mounts: the copy lands inside
    // the set (allowed), the unlink of the source outside it is refused.
    assertEquals(Deno.readTextFileSync(join(s.outside, "theirs")), "t\n");
  } finally {
    await s.cleanup();
  }
});

Deno.test("'..' and /proc/self/root resolve to the real file: outside refused, inside allowed", async () => {
  const s = await scratch();
  try {
    const up = "../".repeat(s.project.split("/").length) + s.outside.slice(1);
    const r = await runCommand(request(
      s,
      [
        `echo a > ${up}/dotdot`,
        `echo b > /proc/self/root${s.outside}/procroot`,
        `echo c > /proc/1/root${s.outside}/procone`,
        `echo d > /proc/self/root${s.project}/inside-procroot`,
      ].join("; "),
    ));
    assertEquals(r.exitStatus, 0, r.rendered);
    assertFalse(exists(join(s.outside, "dotdot")));
    assertFalse(exists(join(s.outside, "procroot")));
    assertFalse(exists(join(s.outside, "procone")));
    assertEquals(Deno.readTextFileSync(join(s.project, "inside-procroot")), "d\n");
  } finally {
    await s.cleanup();
  }
});

Deno.test("a per-command working directory never widens the writable set", async () => {
  const s = await scratch();
  try {
    const r = await runCommand(request(s, "touch here", { cwd: s.outside }));
    assert(r.exitStatus !== 0);
    assertFalse(exists(join(s.outside, "here")));
    assertEquals(r.sandbox.verdict, "refused");
  } finally {
    await s.cleanup();
  }
});

Deno.test("wisp's home inside the project stays read-only: no write, remove, rename, or link route in", async () => {
  const s = await scratch({ homeInside: "sub/.wisp" });
  try {
    Deno.writeTextFileSync(join(s.home.root, "approvals.json"), "[]\n");
    Deno.symlinkSync(s.home.root, join(s.project, "home-link"));
    const r = await runCommand(request(
      s,
      [
        "echo '[\"*\"]' > sub/.wisp/approvals.json",
        "echo x > home-link/planted",
        "rm -rf sub/.wisp",
        "mv sub/.wisp sub/moved",
        // moving a folder above the home would let another home be planted in its place
        "mv sub sub-moved && mkdir -p sub/.wisp && echo evil > sub/.wisp/approvals.json",
        "touch sibling-of-home",
      ].join("; "),
    ));
    assertEquals(r.exitStatus, 0, r.rendered);
    assertEquals(Deno.readTextFileSync(join(s.home.root, "approvals.json")), "[]\n");
    assertFalse(exists(join(s.home.root, "planted")));
    assertFalse(exists(join(s.project, "sub/moved")));
    assertFalse(exists(join(s.project, "sub-moved")));
    assert(exists(join(s.project, "sibling-of-home")));
    const stderr = new TextDecoder().decode(r.stderr.head);
    assertStringIncludes(stderr, "Read-only file system");
  } finally {
    await s.cleanup();
  }
});

Deno.test("the home directly in the launch directory cannot be renamed, removed or replaced", async () => {
  const s = await scratch({ homeInside: ".wisp" });
  try {
    Deno.writeTextFileSync(join(s.home.root, "config.json"), "{}\n");
    const r = await runCommand(
      request(s, "mv .wisp old; rm -rf .wisp; rmdir .wisp; echo '{}' > .wisp/x; ls -a"),
    );
    assertEquals(Deno.readTextFileSync(join(s.home.root, "config.json")), "{}\n");
    assertFalse(exists(join(s.project, "old")));
    assertFalse(exists(join(s.home.root, "x")));
    assertEquals(r.sandbox.verdict, undefined); // the last command (ls) succeeded
  } finally {
    await s.cleanup();
  }
});

Deno.test("a home that does not exist yet is created before the command, so it cannot be planted", async () => {
  const s = await scratch();
  try {
    const home = { ...s.home };
    const planned = join(s.project, ".wisp-new");
    const paths = (await import("../../src/config/home.ts")).homePaths(planned);
    const r = await runCommand(
      request(s, "mkdir -p .wisp-new && echo evil > .wisp-new/config.json", { home: paths }),
    );
    assert(r.exitStatus !== 0);
    assertFalse(exists(join(planned, "config.json")));
    assert(exists(planned));
    void home;
  } finally {
    await s.cleanup();
  }
});

Deno.test("temporary and configured writable paths are writable; everything else is read-only", async () => {
  const s = await scratch();
  const tmpName = `wisp-exec-tmp-${crypto.randomUUID()}`;
  try {
    const cfg = config({ commandPolicy: { sandbox: { writablePaths: [s.outside] } } });
    const r = await runCommand(
      request(
        s,
        `echo t > /tmp/${tmpName} && echo o > ${s.outside}/allowed && echo p > /usr/wisp-nope`,
        { config: cfg },
      ),
    );
    assert(exists(`/tmp/${tmpName}`));
    assertEquals(Deno.readTextFileSync(join(s.outside, "allowed")), "o\n");
    assertFalse(exists("/usr/wisp-nope"));
    assertEquals(r.sandbox.verdict, "refused");
    assertStringIncludes(r.rendered, "/usr/wisp-nope");
  } finally {
    await Deno.remove(`/tmp/${tmpName}`).catch(() => {});
    await s.cleanup();
  }
});

Deno.test("no capability, mount or namespace trick gets write access back", async () => {
  const s = await scratch();
  try {
    const marker = `${s.outside}/mounted`;
    const r = await runCommand(request(
      s,
      [
        "mount -o remount,rw / 2>&1",
        `unshare -Urm sh -c 'mount -o remount,rw,bind / && touch ${marker}' 2>&1`,
        `unshare -m sh -c 'mount -o remount,rw / && touch ${marker}' 2>&1`,
        "grep CapEff /proc/self/status",
      ].join("; "),
    ));
    assertFalse(exists(marker));
    assertStringIncludes(new TextDecoder().decode(r.stdout.head), "CapEff:\t0000000000000000");
  } finally {
    await s.cleanup();
  }
});

Deno.test("/dev is the sandbox's own: a file in /dev/shm does not reach the host", async () => {
  const s = await scratch();
  const name = `wisp-exec-${crypto.randomUUID()}`;
  try {
    const r = await runCommand(
      request(s, `echo x > /dev/shm/${name} 2>/dev/null; echo y > /dev/null && echo ok`),
    );
    assertEquals(new TextDecoder().decode(r.stdout.head), "ok\n");
    assertFalse(exists(`/dev/shm/${name}`));
  } finally {
    await s.cleanup();
  }
});

Deno.test("outside the sandbox (approved) and with the sandbox off, writes land anywhere, still through the launcher", async () => {
  const s = await scratch();
  try {
    const outside = await runCommand(
      request(s, `touch ${s.outside}/approved`, { outsideSandbox: true, origin: "person" }),
    );
    assertEquals(outside.exitStatus, 0, outside.rendered);
    assert(exists(join(s.outside, "approved")));
    assertEquals(outside.sandbox.mode, "outside");
    assert(
      outside.rendered.endsWith(
        "sandbox: ran outside the sandbox, as the person approved, this once",
      ),
      outside.rendered,
    );

    const off = await runCommand(
      request(s, `touch ${s.outside}/off`, {
        config: config({ commandPolicy: { sandbox: { enabled: false } } }),
      }),
    );
    assertEquals(off.exitStatus, 0);
    assert(exists(join(s.outside, "off")));
    assertEquals(off.sandbox.mode, "off");

    const unsafeOutside = await runCommand(
      request(s, "true", { unsafe: true, outsideSandbox: true }),
    );
    assertStringIncludes(
      unsafeOutside.rendered,
      "sandbox: outsideSandbox changed nothing: the sandbox is off here",
    );

    const refused = await runCommand(request(s, `touch ${s.outside}/never`, {
      outsideSandbox: true,
      config: config({ commandPolicy: { sandbox: { allowOutsideSandbox: false } } }),
    }));
    assertEquals(refused.exitStatus, null);
    assertFalse(exists(join(s.outside, "never")));
    assertStringIncludes(refused.rendered, "allowOutsideSandbox is false");
    const events = s.events.filter((e) => e.kind === "command.outcome");
    assertEquals(events[0].outsideSandbox, true);
    assertEquals(events[0].sandbox, "outside");
  } finally {
    await s.cleanup();
  }
});

Deno.test("wisp sandbox's origin keeps the sandbox on even when the config turns it off", async () => {
  const s = await scratch();
  try {
    const r = await runCommand(request(s, `touch ${s.outside}/nope`, {
      origin: "sandbox",
      config: config({ commandPolicy: { sandbox: { enabled: false } } }),
    }));
    assertFalse(exists(join(s.outside, "nope")));
    assertEquals(r.sandbox.mode, "confined");
    void basename;
  } finally {
    await s.cleanup();
  }
});

Deno.test("a daemon's socket (here a container engine's, named by DOCKER_HOST) is hidden from confined commands", async () => {
  const s = await scratch();
  const socketPath = join(s.outside, "docker.sock");
  const listener = Deno.listen({ transport: "unix", path: socketPath });
  const accepting = (async () => {
    for await (const conn of listener) conn.close();
  })();
  const before = Deno.env.get("DOCKER_HOST");
  Deno.env.set("DOCKER_HOST", `unix://${socketPath}`);
  try {
    const line =
      `python3 -c "import socket; s = socket.socket(socket.AF_UNIX); s.connect('${socketPath}'); print('connected')"`;
    const confined = await runCommand(request(s, line));
    assert(confined.exitStatus !== 0);
    assert(!stdoutOf(confined).includes("connected"));
    const outside = await runCommand(request(s, line, { outsideSandbox: true }));
    assertEquals(stdoutOf(outside), "connected\n", outside.rendered);
  } finally {
    if (before === undefined) Deno.env.delete("DOCKER_HOST");
    else Deno.env.set("DOCKER_HOST", before);
    listener.close();
    await accepting.catch(() => {});
    await s.cleanup();
  }
});

function stdoutOf(r: { stdout: { head: Uint8Array } }): string {
  return new TextDecoder().decode(r.stdout.head);
}

Deno.test("a home reached through a symlink inside the writable set is refused: a command could swap the link", async () => {
  const s = await scratch();
  try {
    const { homePaths } = await import("../../src/config/home.ts");
    Deno.symlinkSync(s.home.root, join(s.project, "home-link"));
    const r = await runCommand(
      request(s, "touch ran", { home: homePaths(join(s.project, "home-link")) }),
    );
    assertEquals(r.exitStatus, null);
    assertStringIncludes(
      r.rendered,
      "is reached through a symbolic link inside the sandbox's writable set",
    );
    assert(!exists(join(s.project, "ran")));
  } finally {
    await s.cleanup();
  }
});

Deno.test("the kernel's settings in /proc/sys cannot be written, even by uid 0 inside", async () => {
  const s = await scratch();
  try {
    // Writing a setting's own value back: harmless if this test ever fails.
    const r = await runCommand(request(
      s,
      [
        "v=$(cat /proc/sys/kernel/randomize_va_space)",
        "echo $v > /proc/sys/kernel/randomize_va_space && echo wrote-sysctl",
        "cat /proc/sys/kernel/core_pattern > /proc/sys/kernel/core_pattern && echo wrote-core-pattern",
        "echo 0 > /proc/sys/vm/drop_caches && echo wrote-drop-caches",
        "true",
      ].join("; "),
    ));
    const out = new TextDecoder().decode(r.stdout.head);
    assert(!out.includes("wrote"), out);
    assertStringIncludes(new TextDecoder().decode(r.stderr.head), "Read-only file system");
  } finally {
    await s.cleanup();
  }
});
