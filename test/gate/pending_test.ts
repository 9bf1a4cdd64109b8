/**
 * The pending folder's rules, on real files: an answer is bound to the
 * request as filed; the board takes answers only from its socket, tells a
 * refused sender why, and restores an altered request; stale requests are
 * removed by whoever lists the folder.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { checkAnswer, listPending, PendingBoard, sha256Hex } from "../../src/gate/pending.ts";
import type { Prober } from "../../src/platform/process_probe.ts";
import { connectLocal } from "../../src/platform/peer_socket.ts";

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

const enc = new TextEncoder();

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
    ...extra,
  });
}

Deno.test("an answer matching the request as filed passes the binding check", async () => {
  const filed = enc.encode('{"id":"a1b2c3d4"}\n');
  const ok = await checkAnswer(await answerFor("a1b2c3d4", filed), "a1b2c3d4", filed, filed);
  assert(ok.ok);
});

Deno.test("refused: an altered request, a wrong digest, another id, not an answer", async () => {
  const id = "a1b2c3d4";
  const filed = enc.encode('{"id":"a1b2c3d4","command":"git push"}\n');
  const answer = await answerFor(id, filed);
  const cases: Array<[string, Uint8Array | undefined, string, RegExp]> = [
    ["altered request", enc.encode('{"id":"a1b2c3d4","command":"ls"}\n'), answer, /altered/],
    ["request removed", undefined, answer, /altered/],
    ["wrong digest", filed, await answerFor(id, enc.encode("other")), /does not match/],
    ["another id", filed, await answerFor("ffffffff", filed), /not an answer/],
    ["not an answer", filed, '{"id":"a1b2c3d4","decision":"approve"}', /not an answer/],
  ];
  for (const [what, current, text, reason] of cases) {
    const result = await checkAnswer(text, id, filed, current);
    assert(!result.ok, what);
    assertMatch(result.reason, reason, what);
  }
});

Deno.test("the board files, restores an altered request, settles, and withdraws everything when it stops", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wisp-pending-" });
  try {
    const alive: Prober = (pid) =>
      Promise.resolve(pid === Deno.pid ? { alive: true, start: "1", ppid: 1 } : { alive: false });
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
    // An answer sent over the request's socket, bound to the request as it was shown.
    const conn = connectLocal(join(dir, `${request.id}.sock`));
    assert(conn, "the board listens on the request's socket");
    conn.writeLine(await answerFor(request.id, enc.encode(original)));
    let refused = "";
    let line: string | undefined;
    for (let i = 0; i < 200 && line === undefined; i++) {
      assertEquals(await board.take(request.id, (r) => refused = r.reason), undefined);
      line = conn.readLine();
      if (line === undefined) await new Promise((r) => setTimeout(r, 10));
    }
    conn.close();
    assertMatch(refused, /altered/);
    assertEquals(JSON.parse(line!).status, "refused", "the sender is told on its connection");
    assertEquals(Deno.readTextFileSync(path), original);
    const listed = await listPending(dir, alive);
    assertEquals(listed.map((l) => l.request.id), [request.id]);
    board.closeAll();
    assertEquals(await listPending(dir, alive), []);
    assert(!exists(join(dir, `${request.id}.sock`)), "the socket goes with the request");
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
