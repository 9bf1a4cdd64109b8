import { assert, assertEquals } from "../support/assert.ts";
import { join } from "node:path";
import {
  daemonSockets,
  homeAncestorsInside,
  normaliseRoots,
  realpathLongest,
  tempDirs,
  userCacheDir,
  writableSet,
  writeAllowed,
} from "../../src/platform/paths.ts";
import { configSchema } from "../../src/config/schema.ts";
import { bwrapArgs } from "../../src/platform/linux/bwrap.ts";
import type { LaunchSpec } from "../../src/platform/types.ts";

Deno.test("realpath of a path that does not exist yet goes through its longest existing prefix", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  try {
    Deno.mkdirSync(join(dir, "real"));
    Deno.symlinkSync(join(dir, "real"), join(dir, "link"));
    assertEquals(realpathLongest(join(dir, "link/not/yet")), join(dir, "real/not/yet"));
    assertEquals(realpathLongest(join(dir, "link")), join(dir, "real"));
    assertEquals(realpathLongest("sub/x", join(dir, "link")), join(dir, "real/sub/x"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("roots are deduplicated, nested ones dropped, parents first", () => {
  assertEquals(normaliseRoots(["/tmp/a", "/tmp", "/var/tmp", "/tmp", "/tmpx"]), [
    "/tmp",
    "/tmpx",
    "/var/tmp",
  ]);
});

Deno.test("the writable set: launch dir, temp dirs, cache, configured paths, all realpath'd; the home apart", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ dir: Deno.env.get("HOME") }));
  try {
    const project = join(dir, "project");
    Deno.mkdirSync(join(project, ".wisp"), { recursive: true });
    Deno.mkdirSync(join(dir, "extra"));
    Deno.symlinkSync(join(dir, "extra"), join(dir, "extra-link"));
    const env = (n: string) =>
      ({ HOME: dir, TMPDIR: "/tmp/", XDG_CACHE_HOME: undefined } as Record<
        string,
        string | undefined
      >)[n];
    const config = configSchema.parse({
      commandPolicy: {
        sandbox: { writablePaths: ["~/extra-link", "relative/ignored", join(dir, "missing")] },
      },
    });
    const set = writableSet({
      config,
      root: project,
      home: join(project, ".wisp"),
      os: "linux",
      env,
    });
    assertEquals(set.roots.includes(project), true);
    assertEquals(set.roots.includes(join(dir, "extra")), true);
    assertEquals(set.roots.includes("/tmp"), true);
    assertEquals(set.roots.includes("/var/tmp"), true);
    // ~/.cache does not exist in this scratch home: bubblewrap can only bind what exists
    assert(!set.roots.includes(join(dir, ".cache")));
    assertEquals(set.missing.includes(join(dir, "missing")), true);
    assertEquals(set.home, join(project, ".wisp"));
    assert(set.homeInsideRoot);
    assert(writeAllowed(join(project, "x"), set));
    assert(!writeAllowed(join(project, ".wisp/config.json"), set));
    assert(!writeAllowed("/etc/passwd", set));
    assert(
      !writeAllowed(project + "-sibling/x", set),
      "a sibling sharing the prefix is not inside",
    );
    const darwin = writableSet({
      config,
      root: project,
      home: join(project, ".wisp"),
      os: "darwin",
      env,
    });
    assert(
      darwin.roots.includes(join(dir, "missing")),
      "Seatbelt can allow a path before it exists",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the per-user cache directory: XDG on Linux, the Darwin user cache dir beside TMPDIR on a Mac", () => {
  assertEquals(
    userCacheDir("linux", (n) => ({ HOME: "/home/me" } as Record<string, string>)[n]),
    "/home/me/.cache",
  );
  assertEquals(
    userCacheDir(
      "linux",
      (n) => ({ HOME: "/home/me", XDG_CACHE_HOME: "/c" } as Record<string, string>)[n],
    ),
    "/c",
  );
  assertEquals(
    userCacheDir(
      "darwin",
      (n) => ({ HOME: "/Users/me", TMPDIR: "/var/folders/ab/xyz/T/" } as Record<string, string>)[n],
    ),
    "/var/folders/ab/xyz/C",
  );
  assertEquals(
    userCacheDir("darwin", (n) => ({ HOME: "/Users/me" } as Record<string, string>)[n]),
    "/Users/me/Library/Caches",
  );
});

const spec = (over: Partial<LaunchSpec> = {}): LaunchSpec => ({
  mode: "confined",
  writable: { roots: ["/p", "/tmp"], home: "/p/a/b/.wisp", homeInsideRoot: true, missing: [] },
  allowNetwork: true,
  cwd: "/p/a",
  inner: ["/bin/sh", "-c", "true"],
  ...over,
});

Deno.test("the folders between a root and the home are pinned (bound onto themselves) so they cannot be renamed", () => {
  assertEquals(homeAncestorsInside(spec().writable), ["/p/a", "/p/a/b"]);
  assertEquals(
    homeAncestorsInside({
      roots: ["/tmp"],
      home: "/home/me/.wisp",
      homeInsideRoot: false,
      missing: [],
    }),
    [],
  );
});

Deno.test("bwrap: read-only root, roots bound, ancestors pinned, home read-only last, network only when allowed", () => {
  const args = bwrapArgs(spec({ allowNetwork: false }));
  assertEquals(args.slice(0, 6), ["--ro-bind", "/", "/", "--dev", "/dev", "--proc"]);
  const text = args.join(" ");
  const at = (s: string) => text.indexOf(s);
  assert(at("--bind /p /p") < at("--bind /p/a /p/a"));
  assert(at("--bind /p/a/b /p/a/b") < at("--ro-bind /p/a/b/.wisp /p/a/b/.wisp"));
  assert(text.includes("--unshare-net"));
  assert(
    at("--proc /proc") < at("--ro-bind-try /proc/sys /proc/sys"),
    "the kernel's settings are covered after /proc is mounted",
  );
  assert(text.includes("--cap-drop ALL"));
  assert(
    text.includes(
      "--unshare-pid --as-pid-1 --die-with-parent --new-session --chdir /p/a -- /bin/sh -c true",
    ),
  );
  assert(!bwrapArgs(spec()).includes("--unshare-net"));
  const open = bwrapArgs(spec({ mode: "open" })).join(" ");
  assert(open.startsWith("--bind / / --dev-bind /dev /dev --proc /proc"));
  assert(!open.includes("--ro-bind"), "the allow-all profile binds nothing read-only");
});

Deno.test("a configured root reached through a symlink a command could have planted is refused", async () => {
  const home = await Deno.realPath(await Deno.makeTempDir({ dir: Deno.env.get("HOME") }));
  const project = await Deno.realPath(await Deno.makeTempDir());
  try {
    Deno.mkdirSync(join(home, "secret"));
    Deno.symlinkSync(join(home, "secret"), join(project, "out")); // planted by an earlier command
    Deno.mkdirSync(join(home, "tools"));
    Deno.symlinkSync(join(home, "tools"), join(home, "tools-link")); // the person's own link, outside the set
    const config = configSchema.parse({
      commandPolicy: {
        sandbox: { writablePaths: [join(project, "out"), join(home, "tools-link")] },
      },
    });
    const env = (n: string) =>
      ({ HOME: home, TMPDIR: join(project, "out") } as Record<string, string>)[n];
    const set = writableSet({ config, root: project, home: join(home, ".wisp"), os: "linux", env });
    assert(!set.roots.includes(join(home, "secret")), "the planted link was followed");
    assertEquals(set.refused, [join(project, "out"), join(project, "out")]);
    assert(set.roots.includes(join(home, "tools")));
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(project, { recursive: true });
  }
});

Deno.test("a TMPDIR or cache directory of / or above the user's home is not taken as a root", () => {
  const env = (values: Record<string, string>) => (n: string) => values[n];
  assertEquals(tempDirs("linux", env({ HOME: "/home/me", TMPDIR: "/" })), ["/tmp", "/var/tmp"]);
  assertEquals(tempDirs("linux", env({ HOME: "/home/me", TMPDIR: "/home" })), ["/tmp", "/var/tmp"]);
  assertEquals(tempDirs("linux", env({ HOME: "/home/me", TMPDIR: "/home/me/tmp" })), [
    "/home/me/tmp",
    "/tmp",
    "/var/tmp",
  ]);
  assertEquals(
    userCacheDir("linux", env({ HOME: "/home/me", XDG_CACHE_HOME: "/home/me" })),
    "/home/me/.cache",
  );
});

Deno.test("daemon sockets that would write for a command are listed, from fixed paths and the environment", () => {
  const list = daemonSockets(
    (n) =>
      ({
        DOCKER_HOST: "unix:///x/docker.sock",
        DBUS_SESSION_BUS_ADDRESS: "unix:path=/x/bus,guid=1",
        XDG_RUNTIME_DIR: "/run/user/501",
      } as Record<string, string>)[n],
    501,
  );
  for (
    const p of [
      "/run/docker.sock",
      "/run/systemd/private",
      "/run/user/501/bus",
      "/run/user/501/systemd/private",
      "/x/docker.sock",
      "/x/bus",
    ]
  ) {
    assert(list.includes(p), p);
  }
  assertEquals(
    bwrapArgs(spec({ writable: { ...spec().writable, masked: ["/run/docker.sock"] } })).join(" ")
      .includes("--ro-bind /dev/null /run/docker.sock"),
    true,
  );
});
