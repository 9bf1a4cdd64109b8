/**
 * The pending folder's rules, on real files: an answer is bound to the
 * request as filed and to a wisp approvals process at a terminal; where the
 * process cannot be checked the answer is refused; stale requests are
 * removed by whoever lists the folder.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../../support/assert.ts";
import {
  checkAnswer,
  listPending,
  PendingBoard,
  sha256Hex,
} from "../../../src/faces/mcp/pending.ts";
import type { Prober, ProcessFacts } from "../../../src/faces/mcp/procinfo.ts";

const enc = new TextEncoder();
const terminalWisp = (id: string): ProcessFacts => ({
  alive: true,
  start: "100",
  stdin: "/dev/pts/4",
  argv: ["wisp", "approvals", "approve", id],
});

async function answerFor(
  id: string,
  filed: Uint8Array,
  extra: Record<string, unknown> = {},
): Promise<string> {
  return JSON.stringify({
    version: 1,
    id,
    decision: "approve",
    scope: "once",
    digest: await sha256Hex(filed),
    nonce: "n1",
    by: { pid: 4242 },
    at: new Date().toISOString(),
    ...extra,
  });
}

Deno.test("an answer from wisp approvals at a terminal, matching the request as filed, is taken", async () => {
  const filed = enc.encode('{"id":"a1b2c3d4"}\n');
  const ok = await checkAnswer(
    await answerFor("a1b2c3d4", filed),
    "a1b2c3d4",
    filed,
    filed,
    () => Promise.resolve(terminalWisp("a1b2c3d4")),
  );
  assert(ok.ok);
});

Deno.test("refused: another process, no terminal, a dead process, unknown facts, an altered request, a wrong digest", async () => {
  const id = "a1b2c3d4";
  const filed = enc.encode('{"id":"a1b2c3d4","command":"git push"}\n');
  const answer = await answerFor(id, filed);
  const cases: Array<[string, Prober, Uint8Array, string, RegExp]> = [
    [
      "another program",
      () => Promise.resolve({ ...terminalWisp(id), argv: ["sh", "-c", "echo"] }),
      filed,
      answer,
      /did not come from wisp approvals/,
    ],
    [
      "a pipe on stdin",
      () => Promise.resolve({ ...terminalWisp(id), stdin: "pipe:[1234]" }),
      filed,
      answer,
      /at a terminal/,
    ],
    [
      "another id",
      () => Promise.resolve(terminalWisp("ffffffff")),
      filed,
      answer,
      /did not come from wisp approvals/,
    ],
    ["a dead process", () => Promise.resolve({ alive: false }), filed, answer, /did not come from/],
    [
      "facts unknown",
      () => Promise.resolve(undefined),
      filed,
      answer,
      /could not check which process/,
    ],
    [
      "altered request",
      () => Promise.resolve(terminalWisp(id)),
      enc.encode('{"id":"a1b2c3d4","command":"ls"}\n'),
      answer,
      /altered/,
    ],
    [
      "wrong digest",
      () => Promise.resolve(terminalWisp(id)),
      filed,
      await answerFor(id, enc.encode("other")),
      /does not match the request/,
    ],
    [
      "not an answer",
      () => Promise.resolve(terminalWisp(id)),
      filed,
      '{"id":"a1b2c3d4","decision":"approve"}',
      /not an answer/,
    ],
  ];
  for (const [what, prober, current, text, reason] of cases) {
    const result = await checkAnswer(text, id, filed, current, prober);
    assert(!result.ok, what);
    assertMatch(result.reason, reason, what);
  }
});

Deno.test("the board files, restores an altered request, settles, and withdraws everything when it stops", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wisp-pending-" });
  try {
    const alive: Prober = (pid) =>
      Promise.resolve(pid === Deno.pid ? { alive: true, start: "1" } : terminalWisp(""));
    const board = await PendingBoard.open(dir, alive);
    const request = board.file({
      session: "s1",
      timeoutSeconds: 60,
      client: "claude-code",
      thread: "git",
      command: "git push",
      level: "moderate",
      cwd: "/x",
      reasons: [],
      outsideSandbox: false,
    });
    const path = join(dir, `${request.id}.json`);
    const original = Deno.readTextFileSync(path);
    assertEquals(Deno.statSync(path).mode! & 0o777, 0o600);
    Deno.writeTextFileSync(path, original.replace("git push", "ls"));
    Deno.writeTextFileSync(
      join(dir, `${request.id}.answer`),
      await answerFor(request.id, enc.encode(original)),
    );
    let refused = "";
    assertEquals(await board.take(request.id, (r) => refused = r), undefined);
    assertMatch(refused, /altered/);
    assertEquals(Deno.readTextFileSync(path), original);
    const listed = await listPending(dir, alive);
    assertEquals(listed.map((l) => l.request.id), [request.id]);
    board.closeAll();
    assertEquals(await listPending(dir, alive), []);
    const outcome = JSON.parse(Deno.readTextFileSync(join(dir, `${request.id}.outcome`)));
    assertEquals(outcome.status, "closed");
    assertMatch(outcome.reason, /server stopped/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("listing removes a request whose server is gone or whose wait expired", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wisp-pending-" });
  try {
    const now = Date.now();
    const write = (id: string, pid: number, expiresIn: number) =>
      Deno.writeTextFileSync(
        join(dir, `${id}.json`),
        JSON.stringify({
          version: 1,
          kind: "approval",
          id,
          server: { pid, start: "7", session: "s" },
          client: "c",
          thread: "t",
          command: "x",
          level: "moderate",
          cwd: "/",
          reasons: [],
          outsideSandbox: false,
          createdAt: new Date(now - 1000).toISOString(),
          expiresAt: new Date(now + expiresIn).toISOString(),
        }),
      );
    write("aaaaaaaa", 11, 60_000); // its server runs
    write("bbbbbbbb", 22, 60_000); // its server is gone
    write("cccccccc", 11, -1); // expired
    write("dddddddd", 33, 60_000); // pid reused by another process (start differs)
    const prober: Prober = (pid) =>
      Promise.resolve(
        pid === 11
          ? { alive: true, start: "7" }
          : pid === 33
          ? { alive: true, start: "99" }
          : { alive: false },
      );
    const listed = await listPending(dir, prober, now);
    assertEquals(listed.map((l) => l.request.id), ["aaaaaaaa"]);
    const left = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".json"));
    assertEquals(left, ["aaaaaaaa.json"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
