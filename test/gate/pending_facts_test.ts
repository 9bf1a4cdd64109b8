/**
 * The pending board's fact kind, on real files and sockets: filed with no
 * time limit, listed apart from approvals, an approval's answer refused for
 * it on its socket, and left in the folder (its socket closed) when the
 * server stops, listed then with its server stopped.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import {
  listPending,
  listPendingFacts,
  parseRequest,
  PendingBoard,
  requestText,
  sha256Hex,
} from "../../src/gate/pending.ts";
import type { Prober } from "../../src/platform/process_probe.ts";
import { connectLocal } from "../../src/platform/peer_socket.ts";

const FACT = {
  id: "c3",
  subject: "entity",
  name: "release codename",
  key: "release codename",
  value: "BLUE HERON",
  by: "model",
  source: "model, noted, turn 4",
};

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("a fact request waits apart from approvals, refuses an approval's answer, and outlives its server", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wisp-pending-" });
  try {
    let serverUp = true;
    const prober: Prober = (pid) =>
      Promise.resolve(
        pid === Deno.pid && serverUp ? { alive: true, start: "1", ppid: 1 } : { alive: false },
      );
    const board = await PendingBoard.open(dir, prober);
    const request = board.fileFact({
      session: "s1",
      client: "claude-code",
      thread: "git",
      fact: FACT,
    });
    const path = join(dir, `${request.id}.json`);
    assertEquals(Deno.statSync(path).mode! & 0o777, 0o600);
    assertEquals(requestText(request), "release codename = BLUE HERON");
    assert(!("expiresAt" in request), "a fact waits with no time limit");
    assertEquals(parseRequest(Deno.readTextFileSync(path))?.kind, "fact");
    assertEquals(board.waiting(), [], "not an approval");
    assertEquals(board.waitingFacts().map((r) => r.id), [request.id]);
    assertEquals(await listPending(dir, prober), [], "wisp approvals pending does not list it");
    const listed = await listPendingFacts(dir, prober);
    assertEquals(listed.map((l) => [l.request.id, l.serverRunning]), [[request.id, true]]);

    // An approval's answer, bound to the file as filed, is refused for a fact.
    const conn = connectLocal(join(dir, `${request.id}.sock`));
    assert(conn);
    conn.writeLine(JSON.stringify({
      version: 1,
      id: request.id,
      decision: "approve",
      scope: "once",
      digest: await sha256Hex(Deno.readFileSync(path)),
    }));
    let refused = "";
    let line: string | undefined;
    for (let i = 0; i < 200 && line === undefined; i++) {
      assertEquals(await board.take(request.id, (r) => refused = r.reason), undefined);
      line = conn.readLine();
      if (line === undefined) await new Promise((r) => setTimeout(r, 10));
    }
    conn.close();
    assertMatch(refused, /a fact is answered with wisp facts keep\|drop/);
    assertEquals(JSON.parse(line!).status, "refused");

    // The server stops: the socket goes, the request stays for the person.
    board.closeAll();
    serverUp = false;
    assert(!exists(join(dir, `${request.id}.sock`)));
    assert(exists(path));
    const after = await listPendingFacts(dir, prober);
    assertEquals(after.map((l) => [l.request.id, l.serverRunning]), [[request.id, false]]);
    assert(!exists(join(dir, `${request.id}.outcome`)), "nothing was decided");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a fact request file missing a field is not a request", () => {
  const base = {
    version: 1,
    kind: "fact",
    id: "a1b2c3d4",
    server: { pid: 1, session: "s" },
    client: "c",
    thread: "t",
    fact: FACT,
    createdAt: new Date().toISOString(),
  };
  assert(parseRequest(JSON.stringify(base)));
  assertEquals(parseRequest(JSON.stringify({ ...base, fact: { ...FACT, value: 7 } })), undefined);
  assertEquals(parseRequest(JSON.stringify({ ...base, thread: undefined })), undefined);
});
