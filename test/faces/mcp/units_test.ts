/**
 * The MCP face's pure parts: URIs, paging, the thread table, the line
 * splitter and classifier, the answer lines, and the elicitation form.
 */
import { assert, assertEquals, assertMatch, assertThrows } from "../../support/assert.ts";
import { parseWispUri } from "../../../src/faces/mcp/uri.ts";
import { auditPageOf, pageOf, textPageOf } from "../../../src/faces/mcp/paging.ts";
import { shapeConflicts, ThreadError, ThreadTable } from "../../../src/faces/mcp/threads.ts";
import { classifyLine, LineSplitter } from "../../../src/faces/mcp/transport.ts";
import { answeredElsewhere, takenLine } from "../../../src/faces/mcp/answer.ts";
import {
  answerFromElicitation,
  answerFromTerminal,
  elicitationFor,
} from "../../../src/faces/mcp/approval_host.ts";
import { parseLinuxStat } from "../../../src/platform/process_table.ts";
import { pendingRows } from "../../../src/cli/approvals_pending.ts";
import type { ApprovalRequest } from "../../../src/gate/gate.ts";

Deno.test("wisp:// URIs parse into targets with their page and limit", () => {
  const ok = (uri: string) => {
    const r = parseWispUri(uri);
    assert(r.ok, uri);
    return r.value;
  };
  assertEquals(ok("wisp://tools").target, { kind: "tools" });
  assertEquals(ok("wisp://audit?page=3&limit=20"), {
    target: { kind: "audit" },
    page: 3,
    limit: 20,
    base: "wisp://audit",
  });
  assertEquals(ok("wisp://threads/git/output/ab12").target, {
    kind: "thread.output",
    thread: "git",
    output: "ab12",
  });
  assertEquals(ok("wisp://threads/git/audit?limit=500").limit, 500);
  for (
    const bad of [
      "wisp://",
      "wisp://tools/",
      "wisp://threads//audit",
      "wisp://threads/git/nothing",
      "wisp://audit?page=1&page=2",
      "wisp://audit?limit=2&x",
      "wisp://threads/git/summary?limit=5",
      "wisp://config?page=1",
      "wisp://audit#top",
      "file:///etc/passwd",
      "wisp://audit/" + "a".repeat(65),
    ]
  ) assertEquals(parseWispUri(bad).ok, false, bad);
});

Deno.test("pages of rows: page, pages, total, next; past the last is an error", () => {
  const rows = Array.from({ length: 120 }, (_, i) => i);
  const p1 = pageOf(rows, 1, 50, "wisp://threads");
  assert(p1.ok);
  assertEquals(p1.info, { page: 1, pages: 3, total: 120, next: "wisp://threads?page=2" });
  const p3 = pageOf(rows, 3, 50, "wisp://threads");
  assert(p3.ok);
  assertEquals(p3.rows.length, 20);
  assertEquals(p3.info.next, null);
  assertEquals(pageOf(rows, 4, 50, "wisp://threads").ok, false);
  const empty = pageOf([], 1, 50, "x");
  assert(empty.ok);
  assertEquals(empty.info, { page: 1, pages: 1, total: 0, next: null });
  const audit = auditPageOf(rows, 2, "wisp://audit", 7);
  assert(audit.ok);
  assertEquals(audit.value.events, [7, 8, 9, 10, 11, 12, 13]);
  assertEquals(audit.value.last, "wisp://audit?page=18&limit=7");
  assertEquals(audit.value.next, "wisp://audit?page=3&limit=7");
  const defaults = auditPageOf(rows, 1, "wisp://audit");
  assert(defaults.ok);
  assertEquals(defaults.value.limit, 100);
  assertEquals(defaults.value.last, "wisp://audit?page=2");
});

Deno.test("text pages cut at 16 KiB on character boundaries and name themselves after the first", () => {
  const text = "é".repeat(20000); // 40000 bytes, two bytes a character
  const bytes = new TextEncoder().encode(text);
  let joined = "";
  for (let page = 1; page <= 3; page++) {
    const r = textPageOf(bytes, page, "wisp://threads/t/output/x", "output x");
    assert(r.ok);
    assertEquals(r.value.pages, 3);
    if (page > 1) assertMatch(r.value.text, /^\[page \d of 3 of output x\]\n/);
    joined += page === 1 ? r.value.text : r.value.text.slice(r.value.text.indexOf("\n") + 1);
  }
  assertEquals(joined, text);
  assertEquals(textPageOf(bytes, 4, "u", "o").ok, false);
});

Deno.test("the thread table: least recently used dropped, never a busy one; shape fixed", async () => {
  let clock = 0;
  const disposed: string[] = [];
  const table = new ThreadTable<string>(
    2,
    (id) => `conv-${id}`,
    (t, why) => disposed.push(`${t.id}:${why}`),
    () => ++clock,
  );
  table.open("a", {}, { model: "m" });
  table.open("b", {}, { model: "m" });
  table.open("a", {}, { model: "m" }); // touch a: b is now the least recently used
  const c = table.open("c", { tools: [] }, { model: "m" });
  assertEquals(c.evicted, "b");
  assertEquals(c.thread.shape, { model: "m", tools: [] });
  assertEquals(disposed, ["b:evicted"]);
  assertEquals(table.closed("b")?.why, "evicted");
  // A busy thread is never dropped.
  let release = () => {};
  const busy = table.runTurn(table.get("a")!, () => new Promise<void>((r) => release = r));
  table.open("c", {}, { model: "m" });
  const d = table.open("d", {}, { model: "m" });
  assertEquals(d.evicted, "c");
  let releaseD = () => {};
  const busyD = table.runTurn(d.thread, () => new Promise<void>((r) => releaseD = r));
  assertThrows(() => table.open("e", {}, {}), ThreadError); // both running a turn: no room
  await new Promise((r) => setTimeout(r, 0)); // the turns have started
  release();
  releaseD();
  await Promise.all([busy, busyD]);
  assertEquals(table.open("e", {}, {}).evicted, "a");
  assertThrows(() => table.open("d", { model: "other" }, {}), ThreadError);
  assertThrows(() => table.open("bad id", {}, {}), ThreadError);
  assertEquals(shapeConflicts({ model: "m", tools: ["x"] }, { model: "m", tools: ["x"] }), []);
  assertEquals(shapeConflicts({ model: "m" }, { model: "n", instructions: "i" }), [
    "model",
    "instructions",
  ]);
  assert(table.close("d"));
  assertEquals(table.close("d"), false);
});

Deno.test("turns on one thread run one at a time, in order", async () => {
  const table = new ThreadTable<null>(4, () => null);
  const { thread } = table.open("x", {}, {});
  const order: string[] = [];
  const slow = table.runTurn(thread, async () => {
    await new Promise((r) => setTimeout(r, 30));
    order.push("first");
  });
  const fast = table.runTurn(thread, () => {
    order.push("second");
    return Promise.resolve();
  });
  await Promise.all([slow, fast]);
  assertEquals(order, ["first", "second"]);
  assertEquals(thread.turns, 2);
});

Deno.test("the line splitter: lines across chunks, CRLF, an over-long line reported and skipped", () => {
  const lines: string[] = [];
  const long: number[] = [];
  const splitter = new LineSplitter(10);
  const enc = new TextEncoder();
  splitter.push(enc.encode('{"a":'), (l) => lines.push(l), (n) => long.push(n));
  splitter.push(enc.encode("1}\r\n0123456789ABC\nok\n"), (l) => lines.push(l), (n) => long.push(n));
  splitter.push(enc.encode("tail"), (l) => lines.push(l), (n) => long.push(n));
  splitter.flush((l) => lines.push(l), (n) => long.push(n));
  assertEquals(lines, ['{"a":1}\r', "ok", "tail"]);
  assertEquals(long, [13]);
});

Deno.test("classifying lines: messages pass, malformed requests get replies, malformed responses do not", () => {
  assertEquals(classifyLine('{"jsonrpc":"2.0","id":1,"method":"ping"}').kind, "message");
  assertEquals(classifyLine("  ").kind, "ignore");
  const parse = classifyLine("{nope");
  assert(parse.kind === "reply");
  assertEquals((parse.reply as { error: { code: number } }).error.code, -32700);
  const wrong = classifyLine('{"jsonrpc":"1.0","id":"a","method":"ping"}');
  assert(wrong.kind === "reply");
  assertEquals((wrong.reply as { id: unknown }).id, "a");
  assertEquals(classifyLine('{"jsonrpc":"2.0","id":1,"result":5}').kind, "ignore");
  assertEquals(classifyLine('{"jsonrpc":"2.0","method":"x","params":3}').kind, "ignore");
});

const REQUEST: ApprovalRequest = {
  id: "r1",
  line: "git push origin main && echo ok",
  command: "git push origin main",
  level: "moderate",
  reasons: ["publishes commits"],
  cwd: "/src/x",
  pattern: "git push *",
  outsideSandbox: false,
  rememberable: ["once", "session", "project", "always", "no"],
};

Deno.test("the elicitation form offers the scopes the gate allows; answers map back", () => {
  const form = elicitationFor(REQUEST, "git", "claude-code", "a1b2c3d4");
  assertMatch(form.message, /git push origin main/);
  assertMatch(form.message, /in the line: git push origin main && echo ok/);
  assertMatch(form.message, /wisp approvals approve a1b2c3d4/);
  const scope = (form.requestedSchema.properties as Record<string, { enum: string[] }>).scope;
  assertEquals(scope.enum, ["once", "session", "project", "always"]);
  assertEquals(form._meta, { "wisp/approval": "a1b2c3d4" });
  const outside = elicitationFor(
    { ...REQUEST, outsideSandbox: true, rememberable: ["once", "no"] },
    "git",
    "c",
  );
  assertEquals(
    (outside.requestedSchema.properties as Record<string, { enum: string[] }>).scope.enum,
    ["once"],
  );
  assertMatch(outside.message, /OUTSIDE THE SANDBOX/);
  assertEquals(
    answerFromElicitation({ action: "accept", content: { scope: "project" } }, REQUEST).answer,
    "session",
    "the client's dialog never stores an approval beyond the server's life",
  );
  assertEquals(
    answerFromElicitation({ action: "accept", content: { scope: "always" } }, REQUEST).answer,
    "session",
  );
  assertEquals(answerFromElicitation({ action: "decline" }, REQUEST).answer, "no");
  assertEquals(answerFromElicitation({ action: "cancel" }, REQUEST).answer, "no");
  const dangerous = {
    ...REQUEST,
    rememberable: ["once", "session", "no"] as ApprovalRequest["rememberable"],
  };
  assertEquals(
    answerFromElicitation({ action: "accept", content: { scope: "always" } }, dangerous).answer,
    "session",
  );
  const base = {
    version: 1 as const,
    id: "a1b2c3d4",
    digest: "",
  };
  assertEquals(
    answerFromTerminal({ ...base, decision: "approve", scope: "always" }, {
      ...REQUEST,
      outsideSandbox: true,
    }),
    "once",
  );
  assertEquals(answerFromTerminal({ ...base, decision: "deny" }, REQUEST), "no");
});

Deno.test("what the terminal prints for each outcome", () => {
  const outcome = {
    id: "a1b2c3d4",
    by: "terminal",
    command: "git push origin main",
    thread: "git",
    at: "",
  };
  assertEquals(
    takenLine({ ...outcome, status: "approved", scope: "session" }, "session"),
    "approved (session): git push origin main for thread git",
  );
  assertEquals(
    takenLine({ ...outcome, status: "approved", scope: "once", outsideSandbox: true }, "session"),
    "approved once, outside the sandbox (session is taken as once): git push origin main for thread git",
  );
  assertEquals(
    takenLine({ ...outcome, status: "denied" }, undefined),
    "denied: git push origin main for thread git",
  );
  assertMatch(
    answeredElsewhere({ ...outcome, status: "approved", by: "elicitation", scope: "once" }),
    /already answered in the client's dialog: approved \(once\)/,
  );
});

Deno.test("pending rows: tab-separated fields when piped, readable on a terminal", () => {
  const row = {
    id: "a1b2c3d4",
    level: "moderate",
    waited: 75,
    client: "claude-code",
    thread: "git",
    cwd: "/home/me/src/x",
    command: "brew upgrade",
    outsideSandbox: true,
    asks: "command" as const,
    words: "brew upgrade",
  };
  assertEquals(pendingRows([row], false), [[
    "a1b2c3d4",
    "moderate",
    "75",
    "claude-code/git",
    "/home/me/src/x",
    "brew upgrade",
  ]]);
  assertEquals(pendingRows([row], true, "/home/me"), [[
    "a1b2c3d4",
    "moderate",
    "1 min",
    "claude-code/git",
    "~/src/x",
    "OUTSIDE THE SANDBOX: brew upgrade",
  ]]);
});

Deno.test("process facts: /proc's stat gives parent, controlling terminal and start time", () => {
  const stat =
    "123 (wisp mcp (x) y) S 77 123 123 34819 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 987654 0 0";
  assertEquals(parseLinuxStat(stat), { ppid: 77, ttyNr: 34819, start: "987654" });
  assertEquals(parseLinuxStat("123 (x) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0")?.ttyNr, 0);
  assertEquals(parseLinuxStat("garbage"), undefined);
});

Deno.test("a call's arguments that do not fit: one sentence naming the first problem and counting the rest", async () => {
  const { argumentsProblem } = await import("../../../src/faces/mcp/server.ts");
  const { CONDENSING_TOOLS } = await import("../../../src/faces/mcp/condensing.ts");
  const schema = CONDENSING_TOOLS.find((t) => t.name === "summarise_diff")!.schema;
  const one = schema.safeParse({ max_files: 0 });
  assert(!one.success);
  assertMatch(
    argumentsProblem("summarise_diff", one.error),
    /^the arguments of summarise_diff do not fit its schema: max_files: Too small: expected number to be >=1; tools\/list gives the schema$/,
  );
  const three = schema.safeParse({ max_files: "x", text: 1, colour: true });
  assert(!three.success);
  const sentence = argumentsProblem("summarise_diff", three.error);
  assertMatch(sentence, /\(and 2 more\); tools\/list gives the schema$/);
  assert(!sentence.includes("\n"));
  assert(schema.safeParse({ text: "x", working_directory: "sub" }).success);
});

Deno.test("a working directory: absolute or from the server's start, and a folder", async () => {
  const { folderFrom, callDirectory } = await import("../../../src/faces/mcp/condensing.ts");
  const root = Deno.makeTempDirSync();
  try {
    Deno.mkdirSync(`${root}/sub`);
    Deno.writeTextFileSync(`${root}/file`, "x");
    assertEquals(folderFrom("sub", root, "working_directory"), { path: `${root}/sub` });
    assertEquals(folderFrom(`${root}/sub`, "/elsewhere", "x").path, `${root}/sub`);
    assertEquals(
      folderFrom("file", root, "workingDirectory").problem,
      `workingDirectory ${root}/file is not a folder`,
    );
    assertEquals(
      folderFrom("nope", root, "working_directory").problem,
      `working_directory ${root}/nope does not exist`,
    );
    assertEquals(callDirectory(undefined, root), root);
    assertThrows(() => callDirectory("nope", root), Error, "does not exist");
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
