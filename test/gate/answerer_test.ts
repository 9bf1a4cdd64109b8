/**
 * The answerer rules as pure functions: which argv is wisp's own from source
 * or compiled, and the walk up the parents against the server's lineage.
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import {
  answeringFace,
  checkAnswerer,
  processKey,
  serverLineage,
  wispArguments,
  type WispIdentity,
} from "../../src/gate/answerer.ts";
import type { Prober, ProcessFacts } from "../../src/platform/process_probe.ts";

const SOURCE: WispIdentity = {
  kind: "source",
  exe: "/opt/deno",
  main: "/src/wisp/main.ts",
  config: "/src/wisp/deno.json",
};
const real = (p: string) => p.replace("/link/", "/src/");

Deno.test("from source: only this folder's main.ts, with deno task wisp's flags and its deno.json", () => {
  const args = (argv: string[], cwd?: string) => wispArguments(argv, SOURCE, cwd, real);
  const ok = args([
    "deno",
    "run",
    "-q",
    "-P=wisp",
    "--config",
    "/src/wisp/deno.json",
    "/src/wisp/main.ts",
    "approvals",
    "approve",
    "a1b2c3d4",
  ]);
  assert(ok.ok);
  assertEquals(ok.args, ["approvals", "approve", "a1b2c3d4"]);
  assert(args(["deno", "run", "-A", "/link/wisp/main.ts", "approvals"]).ok, "by real path");
  assert(args(["deno", "run", "main.ts", "approvals"], "/src/wisp").ok, "relative to its cwd");
  const refused: Array<[string[], RegExp]> = [
    [["deno", "run", "/tmp/copy/main.ts", "approvals"], /not this wisp's main.ts/],
    [["deno", "run", "evil.ts", "/src/wisp/main.ts", "approvals"], /not this wisp's main.ts/],
    [["deno", "run", "--import-map", "m.json", "/src/wisp/main.ts"], /with --import-map/],
    [["deno", "run", "--preload=/tmp/x.ts", "/src/wisp/main.ts"], /with --preload/],
    [["deno", "run", "--config", "/tmp/evil.json", "/src/wisp/main.ts"], /another configuration/],
    [["deno", "eval", "x"], /not deno run/],
    [["deno", "run", "-q"], /no script/],
    [["deno", "run", "main.ts", "approvals"], /not this wisp's main.ts/], // cwd unknown
  ];
  for (const [argv, reason] of refused) {
    const r = args(argv);
    assert(!r.ok, argv.join(" "));
    assertMatch(r.reason, reason, argv.join(" "));
  }
});

/** A process table: pid → facts. */
function table(rows: Record<number, ProcessFacts>): Prober {
  return (pid) => Promise.resolve(rows[pid] ?? { alive: false });
}

const COMPILED: WispIdentity = { kind: "compiled", exe: "/usr/bin/true" };
const wisp = (ppid: number, extra: Partial<ProcessFacts> = {}): ProcessFacts => ({
  alive: true,
  start: "9",
  ppid,
  controllingTerminal: true,
  exe: "/usr/bin/true",
  argv: ["wisp", "approvals", "approve", "a1b2c3d4"],
  ...extra,
});

Deno.test("the server's lineage runs up through launchers sharing its stdin pipe to the client", async () => {
  const prober = table({
    500: { alive: true, start: "5", ppid: 400, stdin: "pipe:[77]" }, // wisp mcp
    400: { alive: true, start: "4", ppid: 300, stdin: "pipe:[77]" }, // deno task
    300: { alive: true, start: "3", ppid: 200, stdin: "/dev/pts/1" }, // the client
    200: { alive: true, start: "2", ppid: 1, stdin: "/dev/pts/1" }, // the person's shell
  });
  const lineage = await serverLineage(prober, 500);
  assertEquals([...lineage], [processKey(500, "5"), processKey(400, "4"), processKey(300, "3")]);
});

Deno.test("an answerer is refused when it descends from the lineage, lacks a terminal, or is not wisp", async () => {
  const lineage = new Set([processKey(500, "5"), processKey(300, "3")]);
  const rows: Record<number, ProcessFacts> = {
    10: wisp(20), // the person's terminal: shell 20 under tmux 30 under init
    20: { alive: true, start: "1", ppid: 30 },
    30: { alive: true, start: "1", ppid: 1 },
    11: wisp(300), // a child of the client
    12: wisp(13), // a grandchild of the server, through a sandbox
    13: { alive: true, start: "1", ppid: 500 },
    14: wisp(20, { controllingTerminal: false }),
    15: wisp(20, { exe: "/usr/bin/python3" }),
    16: wisp(20, { argv: ["wisp", "approvals", "approve", "ffffffff"] }),
    18: wisp(19), // its parent vanished mid-walk
    300: { alive: true, start: "3", ppid: 200 },
    500: { alive: true, start: "5", ppid: 300 },
  };
  const check = (pid: number) => checkAnswerer(pid, "a1b2c3d4", COMPILED, lineage, table(rows));
  assert((await check(10)).ok);
  const refused: Array<[number, RegExp]> = [
    [11, /started by the MCP client/],
    [12, /started by the MCP client or by this wisp server/],
    [14, /no terminal of its own/],
    [15, /came from \/usr\/bin\/python3, not from wisp/],
    [16, /approve\|deny a1b2c3d4/],
    [18, /could not follow/],
    [99, /could not check/],
  ];
  for (const [pid, reason] of refused) {
    const r = await check(pid);
    assert(!r.ok, String(pid));
    assertMatch(r.reason, reason, String(pid));
  }
  // A pid reused since the lineage was read (another start time) is not the client.
  rows[300] = { alive: true, start: "33", ppid: 1 };
  assert((await check(11)).ok);
});

Deno.test("a plain chat reading a terminal may answer; chat --json or a piped chat may not", () => {
  const ok = answeringFace(["chat", "--plain"], "a1b2c3d4", "/dev/pts/3");
  assert(ok.ok && ok.via === "chat");
  const bare = answeringFace(["chat"], "a1b2c3d4", "/dev/tty1");
  assert(bare.ok && bare.via === "chat");
  const json = answeringFace(["chat", "--json"], "a1b2c3d4", "/dev/pts/3");
  assert(!json.ok);
  assertMatch(json.reason, /--json/);
  const piped = answeringFace(["chat", "--plain"], "a1b2c3d4", "pipe:[1234]");
  assert(!piped.ok);
  assertMatch(piped.reason, /does not read a terminal/);
  assert(!answeringFace(["chat"], "a1b2c3d4", undefined).ok);
  const cli = answeringFace(["approvals", "deny", "a1b2c3d4"], "a1b2c3d4", "pipe:[1]");
  assert(cli.ok && cli.via === "terminal");
  assert(!answeringFace(["respond", "approvals"], "a1b2c3d4", "/dev/pts/1").ok);
});

Deno.test("a plain wisp chat reading a terminal may answer; --json, a piped stdin, a chat under the client may not", async () => {
  const lineage = new Set([processKey(500, "5"), processKey(300, "3")]);
  const chat = (ppid: number, stdin: string | undefined, argv = ["wisp", "chat"]) =>
    wisp(ppid, { argv, ...(stdin !== undefined ? { stdin } : {}) });
  const rows: Record<number, ProcessFacts> = {
    10: chat(20, "/dev/pts/3"),
    11: chat(20, "/dev/pts/3", ["wisp", "chat", "--plain", "--model", "ollama:x"]),
    12: chat(20, "/dev/pts/3", ["wisp", "chat", "--json"]),
    13: chat(20, "pipe:[4242]"),
    14: chat(20, undefined),
    15: chat(300, "/dev/pts/3"), // started by the client
    16: wisp(20, { argv: ["wisp", "chat"], stdin: "/dev/pts/3", controllingTerminal: false }),
    20: { alive: true, start: "1", ppid: 1 },
    300: { alive: true, start: "3", ppid: 200 },
    500: { alive: true, start: "5", ppid: 300 },
  };
  const check = (pid: number) => checkAnswerer(pid, "a1b2c3d4", COMPILED, lineage, table(rows));
  assert((await check(10)).ok);
  assert((await check(11)).ok);
  const refused: Array<[number, RegExp]> = [
    [12, /plain wisp chat reading a terminal/],
    [13, /plain wisp chat reading a terminal/],
    [14, /plain wisp chat reading a terminal/],
    [15, /started by the MCP client/],
    [16, /no terminal of its own/],
  ];
  for (const [pid, reason] of refused) {
    const r = await check(pid);
    assert(!r.ok, String(pid));
    assertMatch(r.reason, reason, String(pid));
  }
});
