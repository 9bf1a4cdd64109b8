/**
 * The protected list under the real bubblewrap: what wisp, your shell, git or
 * your editor run later stays read-only inside the sandbox even when it lies
 * inside a writable root, through hard links too. Each case runs as the
 * current user and, when that is root, again as nobody (an ordinary user's
 * user namespace differs: it may create nested ones with `unshare -rm`).
 * Files are world-writable here, so only the sandbox stands in the way, and
 * each test checks the host's files afterwards, not only what the command said.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { join } from "node:path";
import { writableSet } from "../../src/platform/paths.ts";
import { bwrapArgs } from "../../src/platform/linux/bwrap.ts";
import { setAsidePlanted } from "../../src/platform/planted.ts";
import type { RuntimePaths } from "../../src/platform/protected.ts";
import type { WritableSet } from "../../src/platform/types.ts";
import { configSchema } from "../../src/config/schema.ts";

const NOBODY = 65534;
const isRoot = Deno.uid() === 0;
/** The users each case runs as: this one, and nobody when this one is root. */
const USERS: Array<"self" | "nobody"> = isRoot ? ["self", "nobody"] : ["self"];

interface Scene {
  base: string;
  cleanup(): void;
}

/**
 * A scratch folder; `outside` puts it outside every writable root (not under
 * /tmp): under the home for an ordinary user, a system folder nobody can
 * reach into for root.
 */
function scene(outside = false): Scene {
  let dir: string | undefined;
  if (outside) {
    dir = isRoot ? ["/var/lib", "/opt", "/srv"].find((d) => exists(d)) : Deno.env.get("HOME");
  }
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "wisp-protected-", dir }));
  Deno.chmodSync(base, 0o777);
  Deno.mkdirSync(join(base, "wisp-home")); // the runner makes it before a launch
  return { base, cleanup: () => Deno.removeSync(base, { recursive: true }) };
}

/** Make everything under `dir` writable by anyone (and owned by `who`), so only the sandbox refuses. */
function openUp(dir: string, who: "self" | "nobody"): void {
  const walk = (path: string) => {
    const info = Deno.lstatSync(path);
    if (info.isSymlink) return;
    Deno.chmodSync(path, info.isDirectory ? 0o777 : 0o666);
    if (who === "nobody") Deno.chownSync(path, NOBODY, NOBODY);
    if (info.isDirectory) { for (const e of Deno.readDirSync(path)) walk(join(path, e.name)); }
  };
  walk(dir);
}

function write(path: string, text: string): void {
  Deno.mkdirSync(join(path, ".."), { recursive: true });
  Deno.writeTextFileSync(path, text);
}

function read(path: string): string {
  return Deno.readTextFileSync(path);
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

const config = (sandbox: Record<string, unknown> = {}) =>
  configSchema.parse({ commandPolicy: { sandbox } });

/** Run `script` under the confined bubblewrap profile for `set`, as `who`. */
async function confined(
  set: WritableSet,
  cwd: string,
  script: string,
  who: "self" | "nobody",
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const args = bwrapArgs({
    mode: "confined",
    // The set is worked out by this (root) process, whose host sockets (a tmux server's in
    // /tmp/tmux-0) nobody cannot reach, so cannot be made to hide either; wisp run as nobody
    // works out its own.
    writable: who === "nobody" ? { ...set, masked: [] } : set,
    allowNetwork: false,
    cwd,
    inner: ["/bin/sh", "-c", script],
  });
  const argv = who === "nobody"
    ? ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "bwrap", ...args]
    : ["bwrap", ...args];
  const out = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    stdin: "null",
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", ...env },
    clearEnv: true,
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

for (const who of USERS) {
  const as = who === "nobody" ? " (as nobody)" : "";

  Deno.test(`the chain: a write through the cache's hard link into wisp's node_modules is refused, and wisp's next process runs unchanged${as}`, async () => {
    const s = scene();
    try {
      const home = join(s.base, "home");
      const denoDir = join(home, ".cache", "deno");
      const cached = join(denoDir, "npm/registry.npmjs.org/pkg/1.0.0/index.js");
      write(cached, 'export const v = "original";\n');
      // wisp's own source tree, laid out by Deno: its module is a hard link into the cache.
      const wisp = join(s.base, "wisp");
      write(
        join(wisp, "main.ts"),
        'import { v } from "./node_modules/pkg/index.js";\nconsole.log(v);\n',
      );
      write(join(wisp, "node_modules/.deno/.setup-cache.bin"), "layout\n");
      Deno.mkdirSync(join(wisp, "node_modules/pkg"), { recursive: true });
      const own = join(wisp, "node_modules/pkg/index.js");
      Deno.linkSync(cached, own);
      // Another project laid out from the same cache: the launch folder.
      const project = join(s.base, "project");
      const theirs = join(project, "node_modules/.deno/pkg@1.0.0/node_modules/pkg/index.js");
      Deno.mkdirSync(join(theirs, ".."), { recursive: true });
      Deno.linkSync(cached, theirs);
      openUp(s.base, who);
      assertEquals(Deno.statSync(own).nlink, 3);

      const runtime: RuntimePaths = { source: wisp, execPath: "/usr/bin/true" };
      const env = { HOME: home, PATH: "/usr/bin:/bin" };
      const set = writableSet({
        config: config({ writablePaths: [join(home, ".cache")] }),
        root: project,
        home: join(s.base, "wisp-home"),
        os: "linux",
        env: (n) => (env as Record<string, string>)[n],
        runtime,
      });
      // wisp's own files were given private copies: no other name reaches them.
      assertEquals(Deno.statSync(own).nlink, 1);
      assert(set.protected!.some((p) => p.path === denoDir), JSON.stringify(set.protected));
      const evil = 'export const v = "planted";';
      const r = await confined(
        set,
        project,
        [
          `echo '${evil}' > ${cached} && echo wrote-cache`,
          `echo '${evil}' > ${own} && echo wrote-own`,
          `echo '${evil}' > ${theirs} && echo wrote-theirs`,
          `ln ${cached} planted-link && echo linked`,
          `echo '${evil}' > planted-link && echo wrote-link`,
          "echo ok > fine.txt && echo wrote-project",
        ].join("; "),
        who,
      );
      assertEquals(r.stdout, "wrote-link\nwrote-project\n", r.stderr);
      assertStringIncludes(r.stderr, "Read-only file system");
      assertStringIncludes(r.stderr, "Invalid cross-device link");
      assertEquals(read(cached), 'export const v = "original";\n');
      assertEquals(read(own), 'export const v = "original";\n');
      assertEquals(read(theirs), 'export const v = "original";\n');
      // The next wisp process, outside the sandbox, runs what was there before.
      const next = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--no-lock", "--no-config", "--allow-read", join(wisp, "main.ts")],
        stdin: "null",
      }).output();
      assertEquals(new TextDecoder().decode(next.stdout), "original\n");
    } finally {
      s.cleanup();
    }
  });

  Deno.test(`git: config, hooks, info and a worktree's .git file are read-only; git commit still works${as}`, async () => {
    const s = scene();
    try {
      const project = join(s.base, "project");
      Deno.mkdirSync(project);
      const git = (cwd: string, ...args: string[]) =>
        new Deno.Command("git", {
          args: ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args],
          cwd,
          stdin: "null",
          stdout: "null",
          stderr: "null",
        }).outputSync();
      git(project, "init", "-q", "-b", "main");
      write(join(project, "file.txt"), "one\n");
      git(project, "add", "file.txt");
      git(project, "commit", "-qm", "one");
      git(project, "worktree", "add", "-q", join(s.base, "wt"), "-b", "side");
      Deno.mkdirSync(join(project, ".git/hooks"), { recursive: true });
      Deno.mkdirSync(join(project, ".git/info"), { recursive: true });
      openUp(s.base, who);
      const configBefore = read(join(project, ".git/config"));
      const dotGitFile = read(join(s.base, "wt/.git"));
      const env = { HOME: join(s.base, "nohome"), PATH: "/usr/bin:/bin" };
      const opts = (root: string) => ({
        config: config(),
        root,
        home: join(s.base, "wisp-home"),
        os: "linux",
        env: (n: string) => (env as Record<string, string>)[n],
        runtime: {},
      });
      const attempts = [
        "echo '[core] fsmonitor = evil' >> .git/config && echo wrote-config",
        "git config core.hooksPath /tmp && echo set-hookspath",
        "echo evil > .git/hooks/pre-commit && echo wrote-hook",
        "echo evil > .git/info/attributes && echo wrote-info",
        "mv .git .git-moved && echo moved-git",
        "echo two > file.txt && git add file.txt && " +
        "git -c user.name=t -c user.email=t@example.com commit -qm two && echo committed",
      ].join("; ");
      const r = await confined(writableSet(opts(project)), project, attempts, who, {
        HOME: env.HOME,
      });
      assertEquals(r.stdout, "committed\n", r.stderr);
      assertEquals(read(join(project, ".git/config")), configBefore);
      assert(!exists(join(project, ".git/hooks/pre-commit")));
      assert(!exists(join(project, ".git/info/attributes")));
      const log = new Deno.Command("git", {
        args: ["-c", `safe.directory=*`, "log", "--format=%s"],
        cwd: project,
      }).outputSync();
      assertEquals(new TextDecoder().decode(log.stdout), "two\none\n");

      // A linked worktree: its .git file and the main repository's hooks stay put.
      const wt = join(s.base, "wt");
      const w = await confined(
        writableSet(opts(wt)),
        wt,
        [
          `echo 'gitdir: ${s.base}/evil' > .git && echo wrote-dotgit`,
          `echo evil > ${project}/.git/hooks/post-checkout && echo wrote-main-hook`,
          "echo side > side.txt && git add side.txt && " +
          "git -c user.name=t -c user.email=t@example.com commit -qm side && echo committed",
        ].join("; "),
        who,
        { HOME: env.HOME },
      );
      assertEquals(w.stdout, "committed\n", w.stderr);
      assertEquals(read(join(wt, ".git")), dotGitFile);
      assert(!exists(join(project, ".git/hooks/post-checkout")));
    } finally {
      s.cleanup();
    }
  });

  Deno.test(`start-up files, git's and ssh's config and PATH folders in a home that is a root stay read-only; the folders to them cannot be moved${as}`, async () => {
    const s = scene();
    try {
      const home = join(s.base, "home");
      write(join(home, ".bashrc"), "# rc\n");
      write(join(home, ".config/git/config"), "[user]\n");
      write(join(home, ".config/fish/config.fish"), "# fish\n");
      write(join(home, ".ssh/config"), "Host x\n");
      write(join(home, "tools/bin/git"), "#!/bin/sh\n");
      write(join(home, ".envrc"), "# envrc\n");
      openUp(s.base, who);
      const env = { HOME: home, PATH: `${home}/tools/bin:/usr/bin:/bin` };
      const set = writableSet({
        config: config(),
        root: home,
        home: join(s.base, "wisp-home"),
        os: "linux",
        env: (n) => (env as Record<string, string>)[n],
        runtime: {},
      });
      const r = await confined(
        set,
        home,
        [
          "echo evil >> .bashrc && echo wrote-bashrc",
          "echo evil >> .config/git/config && echo wrote-gitconfig",
          "echo evil >> .config/fish/config.fish && echo wrote-fish",
          "echo 'ProxyCommand evil' >> .ssh/config && echo wrote-ssh",
          "echo evil > tools/bin/ls && echo wrote-path",
          "echo evil >> .envrc && echo wrote-envrc",
          "mv .config .config-moved && echo moved-config",
          "mv tools tools-moved && echo moved-tools",
          "echo evil > .zshrc && echo created-zshrc",
          "echo fine > notes.txt && echo wrote-notes",
        ].join("; "),
        who,
      );
      assertEquals(r.stdout, "created-zshrc\nwrote-notes\n", r.stderr);
      assertEquals(read(join(home, ".bashrc")), "# rc\n");
      assertEquals(read(join(home, ".config/git/config")), "[user]\n");
      assertEquals(read(join(home, ".ssh/config")), "Host x\n");
      assertEquals(read(join(home, ".envrc")), "# envrc\n");
      assert(!exists(join(home, "tools/bin/ls")));
      assert(exists(join(home, ".config/fish/config.fish")));
      // A start-up file that did not exist could not be bound: it is moved aside afterwards.
      const lines = setAsidePlanted(set);
      assert(!exists(join(home, ".zshrc")));
      assertEquals(read(join(home, ".zshrc.wisp-refused")), "evil\n");
      assertEquals(lines.length, 1, lines.join("\n"));
      assertStringIncludes(lines[0], `the sandbox refused creating ${home}/.zshrc (protected: zsh`);
    } finally {
      s.cleanup();
    }
  });

  Deno.test(`~/.cache: the known build caches are writable, the rest (Deno's, virtualenvs, pre-commit's) is not${as}`, async () => {
    const s = scene(true);
    try {
      const home = join(s.base, "home");
      for (const dir of ["pip", "go-build", "deno", "pre-commit", "ms-playwright", "virtualenv"]) {
        Deno.mkdirSync(join(home, ".cache", dir), { recursive: true });
      }
      Deno.mkdirSync(join(home, ".cargo/registry"), { recursive: true });
      const project = join(s.base, "project");
      Deno.mkdirSync(project);
      openUp(s.base, who);
      const env = { HOME: home, PATH: "/usr/bin:/bin" };
      const set = writableSet({
        config: config(),
        root: project,
        home: join(s.base, "wisp-home"),
        os: "linux",
        env: (n) => (env as Record<string, string>)[n],
        runtime: {},
      });
      const c = join(home, ".cache");
      const r = await confined(
        set,
        project,
        [
          `touch ${c}/pip/a && echo pip`,
          `touch ${c}/go-build/a && echo go-build`,
          `touch ${home}/.cargo/registry/a && echo cargo`,
          `touch ${c}/deno/a && echo deno`,
          `touch ${c}/pre-commit/a && echo pre-commit`,
          `touch ${c}/ms-playwright/a && echo playwright`,
          `touch ${c}/virtualenv/a && echo virtualenv`,
          `touch ${c}/new && echo cache-root`,
          "true",
        ].join("; "),
        who,
      );
      assertEquals(r.stdout, "pip\ngo-build\ncargo\n", r.stderr);
      assert(!exists(join(c, "pre-commit/a")));
      assert(!exists(join(c, "new")));
    } finally {
      s.cleanup();
    }
  });

  Deno.test(`unshare -rm inside: a nested user and mount namespace, and the locked mounts still hold${as}`, async () => {
    const s = scene();
    try {
      const project = join(s.base, "project");
      write(join(project, ".envrc"), "# envrc\n");
      openUp(s.base, who);
      const env = { HOME: join(s.base, "nohome"), PATH: "/usr/bin:/bin" };
      const set = writableSet({
        config: config(),
        root: project,
        home: join(s.base, "wisp-home"),
        os: "linux",
        env: (n) => (env as Record<string, string>)[n],
        runtime: {},
      });
      const envrc = join(project, ".envrc");
      const r = await confined(
        set,
        project,
        [
          `unshare -rm sh -c 'echo in-namespace; umount ${envrc} 2>&1; umount -l ${envrc} 2>&1; ` +
          `mount -o remount,rw,bind ${envrc} 2>&1; mount -o remount,rw / 2>&1; ` +
          `echo evil > ${envrc} && echo wrote-envrc; true'`,
          "true",
        ].join("; "),
        who,
      );
      assert(!r.stdout.includes("wrote-envrc"), r.stdout);
      assertEquals(read(envrc), "# envrc\n");
      if (!isRoot || who === "nobody") {
        // An ordinary user can make the nested namespaces (docs/sandbox.md says so); root
        // without capabilities cannot, which the escape corpus tries.
        assertStringIncludes(r.stdout, "in-namespace", r.stderr);
      }
    } finally {
      s.cleanup();
    }
  });
}

Deno.test("commandPolicy.sandbox.unprotectedPaths lifts a protection, and the set says which", () => {
  const s = scene();
  try {
    const home = join(s.base, "home");
    write(join(home, ".bashrc"), "# rc\n");
    write(join(home, ".zshrc"), "# rc\n");
    const env = { HOME: home, PATH: "/usr/bin:/bin" };
    const set = writableSet({
      config: config({ unprotectedPaths: ["~/.bashrc"] }),
      root: home,
      home: join(s.base, "wisp-home"),
      os: "linux",
      env: (n) => (env as Record<string, string>)[n],
      runtime: {},
    });
    assertEquals(set.unprotected, [join(home, ".bashrc")]);
    assert(!set.protected!.some((p) => p.path === join(home, ".bashrc")));
    assert(set.protected!.some((p) => p.path === join(home, ".zshrc")));
    // writablePaths alone never reopens one.
    const wide = writableSet({
      config: config({ writablePaths: [join(home, ".zshrc")] }),
      root: join(s.base),
      home: join(s.base, "wisp-home"),
      os: "linux",
      env: (n) => (env as Record<string, string>)[n],
      runtime: {},
    });
    assert(wide.protected!.some((p) => p.path === join(home, ".zshrc")));
  } finally {
    s.cleanup();
  }
});
