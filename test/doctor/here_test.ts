/**
 * Doctor's findings about where it runs: the front end wisp chat would use,
 * the notification route, and the native library. Each is decided over an
 * injected world (so every case is reachable on any machine) and, where the
 * real world can be made to show a case, against it: a real shared library
 * built with the system C compiler and loaded through Deno FFI. The front end
 * line at a real terminal is front_end_terminal_test.ts.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { frontEndFinding, type FrontEndWorld } from "../../src/doctor/front_end.ts";
import { notificationFinding } from "../../src/doctor/notify_route.ts";
import type { NotifierWorld } from "../../src/notify/notifier.ts";
import {
  fileExists,
  libwispCandidates,
  nativeFinding,
  type NativeWorld,
} from "../../src/doctor/native.ts";
import { loadAbiVersion } from "../../src/platform/libc.ts";

Deno.test("front end: the finding is chat's own choice over doctor's streams and TERM", () => {
  const world = (over: Partial<FrontEndWorld> = {}): FrontEndWorld => ({
    chatBuilt: true,
    stdinTerminal: true,
    stdoutTerminal: true,
    term: "xterm-256color",
    ...over,
  });
  assertEquals(frontEndFinding(world()), {
    ok: true,
    name: "front end",
    detail: "wisp-tui (stdin and stdout are terminals)",
  });
  assertEquals(
    frontEndFinding(world({ stdoutTerminal: false })).detail,
    "plain chat (stdout is not a terminal; wisp chat --plain is the same)",
  );
  assertEquals(
    frontEndFinding(world({ stdinTerminal: false })).detail,
    "plain chat (stdin is not a terminal)",
  );
  assertEquals(frontEndFinding(world({ term: "dumb" })).detail, "plain chat (TERM is dumb)");
  assertEquals(
    frontEndFinding(world({ term: undefined })).detail,
    "wisp-tui (stdin and stdout are terminals)",
  );
  // Every front end is a working one: the finding is ok whatever it says.
  for (const over of [{ stdinTerminal: false }, { stdoutTerminal: false }, { term: "dumb" }]) {
    assertEquals(frontEndFinding(world(over)).ok, true);
  }
  // This build has no chat yet: said so.
  assertEquals(frontEndFinding(world({ chatBuilt: false })), {
    ok: true,
    name: "front end",
    detail: "wisp chat is not in this build yet",
  });
});

function notifierWorld(over: Partial<NotifierWorld> & { vars?: Record<string, string> }): {
  world: NotifierWorld;
  ran: string[][];
  wrote: string[];
} {
  const ran: string[][] = [];
  const wrote: string[] = [];
  const vars = over.vars ?? {};
  const world: NotifierWorld = {
    os: "linux",
    env: (name) => vars[name],
    now: () => Date.now(),
    terminal: (s) => {
      wrote.push(s);
      return true;
    },
    runFixed: (argv) => {
      ran.push(argv);
      return Promise.resolve(0);
    },
    hasProgram: () => true,
    ...over,
  };
  return { world, ran, wrote };
}

const SETTINGS = { enabled: true, perMinute: 6, viaTerminalApp: true };

Deno.test("notifications: the route the notifier would take here, found in a dry run that posts nothing", async () => {
  // A Linux desktop with notify-send.
  let w = notifierWorld({ vars: { DISPLAY: ":0" } });
  let finding = await notificationFinding(w.world, SETTINGS);
  assertEquals(finding, {
    ok: true,
    name: "notifications",
    detail: "via notify-send, notify-send to the desktop session",
  });
  assertEquals([w.ran, w.wrote], [[], []]);
  // Ghostty takes OSC 9 first; under tmux it cannot, and notify-send is next.
  w = notifierWorld({ vars: { DISPLAY: ":0", TERM_PROGRAM: "ghostty" } });
  finding = await notificationFinding(w.world, SETTINGS);
  assertEquals(finding.detail, "via terminal, an OSC 9 sequence ghostty shows");
  assertEquals([w.ran, w.wrote], [[], []]);
  w = notifierWorld({ vars: { DISPLAY: ":0", TERM_PROGRAM: "ghostty", TMUX: "/tmp/tmux" } });
  assertEquals(
    (await notificationFinding(w.world, SETTINGS)).detail,
    "via notify-send, notify-send to the desktop session",
  );
  // A desktop without notify-send: the install's fault, with the package to install.
  w = notifierWorld({ vars: { DISPLAY: ":0" }, hasProgram: () => false });
  finding = await notificationFinding(w.world, SETTINGS);
  assertEquals(finding.ok, false);
  assertMatch(
    finding.detail,
    /^no route can show one here: notify-send: notify-send is not installed/,
  );
  assertEquals(finding.fix, "install it (apt install libnotify-bin)");
  // No desktop session at all (a server, CI): nothing to install would change it, so ok, with why.
  w = notifierWorld({ hasProgram: () => false });
  finding = await notificationFinding(w.world, SETTINGS);
  assertEquals(finding.ok, true);
  assertMatch(finding.detail, /^none here \(notify-send: no desktop session /);
  w = notifierWorld({});
  finding = await notificationFinding(w.world, SETTINGS);
  assertEquals(finding.ok, true);
  assertMatch(finding.detail, /no desktop session/);
  // macOS: the app route under the terminal's bundle, osascript without one.
  w = notifierWorld({ os: "darwin", vars: { __CFBundleIdentifier: "com.apple.Terminal" } });
  assertEquals(
    (await notificationFinding(w.world, SETTINGS)).detail,
    "via app, osascript posting as com.apple.Terminal",
  );
  w = notifierWorld({ os: "darwin" });
  assertEquals(
    (await notificationFinding(w.world, SETTINGS)).detail,
    "via osascript, osascript (shown as Script Editor)",
  );
  assertEquals(w.ran, []);
  // Switched off.
  assertEquals(
    (await notificationFinding(notifierWorld({}).world, { ...SETTINGS, enabled: false })).detail,
    "off (notifications.enabled is false)",
  );
});

function nativeWorld(over: Partial<NativeWorld> = {}): NativeWorld {
  return {
    os: "linux",
    env: () => undefined,
    sourceRoot: "/src/wisp",
    exists: () => false,
    abiVersion: () => {
      throw new Error("not asked");
    },
    ...over,
  };
}

Deno.test("native library: not built on Linux is ok and says where it looked; on a Mac it is not", () => {
  assertEquals(nativeFinding(nativeWorld()), {
    ok: true,
    name: "native library",
    detail:
      "not built (looked at /src/wisp/ffi/build/libwisp.so); wisp reads processes and ports from /proc itself",
  });
  const mac = nativeFinding(
    nativeWorld({
      os: "darwin",
      sourceRoot: undefined,
      binaryDir: "/opt/homebrew/Cellar/wisp/1/libexec",
    }),
  );
  assertEquals(mac.ok, false);
  assertEquals(
    mac.detail,
    // Homebrew's version-free opt link first: the permission set names the library by it.
    "not built: no libwisp.dylib at /opt/homebrew/opt/wisp/libexec/libwisp.dylib, /opt/homebrew/Cellar/wisp/1/libexec/libwisp.dylib",
  );
  assertMatch(mac.fix ?? "", /on-device model needs it/);
  // WISP_LIBWISP first, and a name that is not there is its own fault.
  const named = nativeWorld({
    env: (n) => (n === "WISP_LIBWISP" ? "/nowhere/libwisp.so" : undefined),
  });
  assertEquals(libwispCandidates(named).map((c) => c.from), ["WISP_LIBWISP", "the source build"]);
  const missing = nativeFinding(named);
  assertEquals(missing.ok, false);
  assertEquals(missing.detail, "WISP_LIBWISP names /nowhere/libwisp.so, which does not exist");
  // Found, and the fence refuses it: not ok, and says why.
  const fenced = nativeFinding(nativeWorld({
    exists: () => true,
    abiVersion: () => {
      throw new Deno.errors.NotCapable("Requires ffi access");
    },
  }));
  assertEquals(fenced.ok, false);
  assertEquals(
    fenced.detail,
    "/src/wisp/ffi/build/libwisp.so (the source build) is there, but wisp may not load it",
  );
  assertMatch(fenced.fix ?? "", /permission set does not allow it/);
});

Deno.test(
  "native library: a real library built here is found by WISP_LIBWISP, loaded, and its ABI version read",
  {
    ignore: Deno.build.os !== "linux" || !fileExists("/usr/bin/cc"),
  },
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "wisp-doctor-ffi-" });
    try {
      const source = join(dir, "abi.c");
      const library = join(dir, "libwisp.so");
      Deno.writeTextFileSync(source, "unsigned int wisp_abi_version(void) { return 7; }\n");
      const built = await new Deno.Command("cc", {
        args: ["-shared", "-fPIC", "-o", library, source],
        stdout: "null",
        stderr: "piped",
      }).output();
      assert(built.success, new TextDecoder().decode(built.stderr));
      const finding = nativeFinding(nativeWorld({
        env: (n) => (n === "WISP_LIBWISP" ? library : undefined),
        exists: fileExists,
        abiVersion: loadAbiVersion,
      }));
      assertEquals(finding, {
        ok: true,
        name: "native library",
        detail: `${library} (WISP_LIBWISP) loads; ABI version 7`,
      });
      // A file that is not a library: found, does not load, and says so.
      const junk = join(dir, "junk.so");
      Deno.writeTextFileSync(junk, "not a library");
      const bad = nativeFinding(nativeWorld({
        env: (n) => (n === "WISP_LIBWISP" ? junk : undefined),
        exists: fileExists,
        abiVersion: loadAbiVersion,
      }));
      assertEquals(bad.ok, false);
      assertEquals(bad.detail, `${junk} (WISP_LIBWISP) does not load as a library`);
      // A library, but not libwisp.
      const other = join(dir, "libother.so");
      Deno.writeTextFileSync(source, "int something_else(void) { return 1; }\n");
      const builtOther = await new Deno.Command("cc", {
        args: ["-shared", "-fPIC", "-o", other, source],
        stdout: "null",
        stderr: "piped",
      }).output();
      assert(builtOther.success, new TextDecoder().decode(builtOther.stderr));
      const notOurs = nativeFinding(nativeWorld({
        env: (n) => (n === "WISP_LIBWISP" ? other : undefined),
        exists: fileExists,
        abiVersion: loadAbiVersion,
      }));
      assertEquals(
        [notOurs.ok, notOurs.detail],
        [false, `${other} (WISP_LIBWISP) is a library without wisp_abi_version, so not libwisp`],
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
