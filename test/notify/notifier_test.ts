import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import {
  bound,
  Notifier,
  type NotifierWorld,
  osascriptArgv,
  osc9,
  routeOrder,
} from "../../src/notify/notifier.ts";
import { notifyTool } from "../../src/tools/notify.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { homePaths } from "../../src/config/home.ts";
import { AuditLog } from "../../src/audit/writer.ts";
import { runWisp, tempDir, wispCommand } from "../support/wisp.ts";

const ON = { enabled: true, perMinute: 3, viaTerminalApp: true };

function world(
  env: Record<string, string>,
  extra: Partial<NotifierWorld> = {},
): NotifierWorld & { ran: string[][]; wrote: string[] } {
  const ran: string[][] = [];
  const wrote: string[] = [];
  let clock = 1_000_000;
  return {
    os: "linux",
    env: (n) => env[n],
    now: () => clock += 1000,
    terminal: (s) => {
      wrote.push(s);
      return true;
    },
    runFixed: (argv) => {
      ran.push(argv);
      return Promise.resolve(0);
    },
    hasProgram: () => true,
    ran,
    wrote,
    ...extra,
  };
}

Deno.test("route order: host, then the terminal's OSC 9, then the platform's program", () => {
  assertEquals(
    routeOrder(world({ TERM_PROGRAM: "ghostty" }, { host: () => Promise.resolve(true) }), ON),
    ["host", "terminal", "notify-send"],
  );
  assertEquals(routeOrder(world({ TERM_PROGRAM: "ghostty", TMUX: "/tmp/t,1,0" }), ON), [
    "notify-send",
  ]);
  assertEquals(routeOrder(world({ TERM: "xterm-kitty" }), ON), ["terminal", "notify-send"]);
  const mac = (env: Record<string, string>) => ({ ...world(env), os: "darwin" });
  assertEquals(
    routeOrder(
      mac({ TERM_PROGRAM: "iTerm.app", __CFBundleIdentifier: "com.googlecode.iterm2" }),
      ON,
    ),
    ["app", "terminal", "osascript"],
  );
  assertEquals(
    routeOrder(mac({ TERM_PROGRAM: "ghostty", __CFBundleIdentifier: "com.mitchellh.ghostty" }), ON),
    ["terminal", "app", "osascript"],
  );
  assertEquals(
    routeOrder(mac({ __CFBundleIdentifier: "com.apple.Terminal" }), {
      ...ON,
      viaTerminalApp: false,
    }),
    ["osascript"],
  );
  // Under wisp mcp there is no terminal route.
  assertEquals(routeOrder(world({ TERM_PROGRAM: "ghostty" }, { terminal: undefined }), ON), [
    "notify-send",
  ]);
});

Deno.test("bounds: control characters cannot end or forge a terminal sequence; lengths are capped", () => {
  const n = bound({
    title: "t\x1b]9;evil\x07",
    message: "line\nwith \x1b[31m escapes\x9b and " + "x".repeat(1000),
  });
  assertEquals(n.title.includes("\x1b"), false);
  assertEquals(
    n.message.includes("\x1b") || n.message.includes("\x07") || n.message.includes("\x9b"),
    false,
  );
  assertEquals(Array.from(n.message).length, 400);
  const seq = osc9(n);
  assertEquals(seq.startsWith("\x1b]9;") && seq.endsWith("\x07"), true);
  assertEquals(seq.split("\x07").length - 1, 1);
});

Deno.test("osascript gets the text as argv, never inside the script", () => {
  const argv = osascriptArgv({ title: 'x" & (do shell script "rm -rf ~") & "', message: "hello" });
  const scriptLines = argv.filter((_, i) => argv[i - 1] === "-e");
  for (const line of scriptLines) assertEquals(line.includes("rm -rf"), false);
  assertEquals(argv.at(-3), 'x" & (do shell script "rm -rf ~") & "');
});

Deno.test("the off switch, an empty message and the per-minute limit refuse with the reason", async () => {
  const w = world({ DISPLAY: ":0" });
  assertStringIncludes(
    (await new Notifier({ ...ON, enabled: false }, w).notify({ title: "a", message: "b" })).reason!,
    "notifications are off",
  );
  const notifier = new Notifier(ON, w);
  assertEquals(
    (await notifier.notify({ title: "a", message: "  \n " })).reason,
    "the message is empty",
  );
  for (let i = 0; i < 3; i++) {
    assertEquals((await notifier.notify({ title: "a", message: `m${i}` })).route, "notify-send");
  }
  const limited = await notifier.notify({ title: "a", message: "one too many" });
  assertEquals(limited.posted, false);
  assertStringIncludes(limited.reason!, "limit of 3 notifications a minute");
  assertEquals(w.ran.length, 3);
  assertEquals(w.ran[0], ["notify-send", "--app-name=wisp", "--", "a", "m0"]);
});

Deno.test("a failing route falls through to the next; every failure is named", async () => {
  const w = world({ TERM_PROGRAM: "WezTerm" }, { terminal: () => false, hasProgram: () => false });
  const outcome = await new Notifier(ON, w).notify({ title: "t", message: "m" });
  assertEquals(outcome.posted, false);
  assertStringIncludes(outcome.reason!, "terminal: the terminal write failed");
  assertStringIncludes(outcome.reason!, "notify-send: notify-send is not installed");
});

Deno.test("the notify tool posts through the session's notifier and audits the route", async () => {
  const dir = await Deno.makeTempDir();
  const audit = new AuditLog({
    path: `${dir}/audit.jsonl`,
    enabled: true,
    maxBytes: 1 << 20,
    keep: 1,
  });
  const w = world({ TERM_PROGRAM: "ghostty" });
  const ctx = {
    cwd: dir,
    root: dir,
    config: defaultConfig(),
    home: homePaths(dir),
    audit,
    budgetBytes: 4096,
    session: audit.session,
    notifier: new Notifier(ON, w),
  };
  const result = await notifyTool.run({ title: "Build", message: "The tests pass" }, ctx);
  assertEquals(result.text, "notification posted via terminal");
  assertEquals(w.wrote, ["\x1b]9;Build: The tests pass\x07"]);
  const refused = await notifyTool.run({ message: "no notifier" }, { ...ctx, notifier: undefined });
  assertEquals(refused.ok, false);
  const events = Deno.readTextFileSync(`${dir}/audit.jsonl`).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  assertEquals(events.map((e) => [e.kind, e.route, e.posted]), [
    ["notification", "terminal", true],
    ["notification", null, false],
  ]);
});

Deno.test("wisp notify: refused with the reason where no route works, audited with source user", async () => {
  const home = await tempDir();
  const run = await runWisp(["notify", "Tests pass", "--title", "Build"], { home });
  assertEquals(run.code, 1);
  assertStringIncludes(run.stderr, "error: notification not shown: every route failed");
  const event = JSON.parse(Deno.readTextFileSync(`${home}/logs/audit.jsonl`).trim());
  assertEquals([event.kind, event.source, event.title, event.message, event.posted], [
    "notification",
    "user",
    "Build",
    "Tests pass",
    false,
  ]);
  const bad = await runWisp(["notify", "x", "--route", "pigeon"], { home });
  assertEquals(bad.code, 64);
  Deno.writeTextFileSync(`${home}/config.json`, '{ "notifications": { "enabled": false } }');
  const off = await runWisp(["notify", "x"], { home });
  assertEquals(off.code, 1);
  assertStringIncludes(off.stderr, "notifications are off");
});

Deno.test("wisp notify in a real terminal that takes OSC 9 writes the sequence, and the limit spans processes", async () => {
  const home = await tempDir();
  Deno.writeTextFileSync(`${home}/config.json`, '{ "notifications": { "perMinute": 2 } }');
  const [cmd, ...args] = wispCommand();
  const line = [cmd, ...args, "notify", "--title", "Build", "done"].map((a) => `'${a}'`).join(" ");
  const runInPty = async () => {
    const out = await new Deno.Command("script", {
      args: ["-q", "-e", "-c", line, "/dev/null"],
      env: {
        WISP_HOME: home,
        TERM_PROGRAM: "ghostty",
        TERM: "xterm-256color",
        PATH: Deno.env.get("PATH") ?? "",
        HOME: home,
      },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    return { code: out.code, text: new TextDecoder().decode(out.stdout) };
  };
  const first = await runInPty();
  assertEquals(first.code, 0, first.text);
  assertStringIncludes(first.text, "\x1b]9;Build: done\x07");
  assertStringIncludes(first.text, "notification posted via terminal");
  assertEquals((await runInPty()).code, 0);
  const third = await runInPty();
  assertEquals(third.code, 1);
  assertStringIncludes(third.text, "limit of 2 notifications a minute");
  assert(!third.text.includes("\x1b]9;"));
});
