/**
 * The folder of running servers' approvals (src/faces/mcp/live_approvals.ts)
 * in a scratch home: what a server publishes, which files a listing trusts
 * (a reused pid is not the server), and how revocations are picked up.
 * Process facts come from a prober handed in, as the pending board's tests do.
 */
import { join } from "node:path";
import { assertEquals, assertThrows } from "../../support/assert.ts";
import { makeApproval } from "../../../src/gate/approvals.ts";
import {
  fileRevocation,
  listLive,
  LiveApprovals,
  parseLiveFile,
} from "../../../src/faces/mcp/live_approvals.ts";
import type { Prober } from "../../../src/platform/process_probe.ts";

const facts = (table: Record<number, { alive: boolean; start?: string } | undefined>): Prober =>
(
  pid,
) => Promise.resolve(table[pid]);

/** Run `body` with a `servers` folder path in a scratch directory removed afterwards. */
async function inScratch(body: (dir: string) => Promise<void> | void): Promise<void> {
  const base = await Deno.makeTempDir({ prefix: "wisp-live-" });
  try {
    await body(join(base, "servers"));
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

function names(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

Deno.test("a server publishes its session approvals with their source, and removes its file on close", () =>
  inScratch(async (dir) => {
    const live = new LiveApprovals(dir, {
      pid: 41,
      start: "900",
      session: "5e55a0b1",
      client: "c",
    });
    const session = makeApproval({
      scope: "session",
      pattern: "make *",
      level: "moderate",
      root: "/p",
      source: "elicitation",
    });
    const once = makeApproval({
      scope: "once",
      pattern: "ls *",
      level: "safe",
      root: "/p",
      turnId: "t",
    });
    live.publish([session, once]);
    assertEquals(names(dir), ["5e55a0b1.json"]);
    assertEquals(Deno.statSync(live.path).mode! & 0o777, 0o600);
    const file = parseLiveFile(Deno.readTextFileSync(live.path))!;
    assertEquals(file.approvals.map((a) => [a.id, a.source]), [[session.id, "elicitation"]]);
    const listed = await listLive(dir, facts({ 41: { alive: true, start: "900" } }));
    assertEquals(listed.map((l) => l.server.session), ["5e55a0b1"]);
    live.close();
    assertEquals(names(dir), []);
    // Closed: a late change publishes nothing.
    live.publish([session]);
    assertEquals(names(dir), []);
  }));

Deno.test("a listing drops the files of stopped servers and of reused pids, and keeps what it cannot tell", () =>
  inScratch(async (dir) => {
    const a = makeApproval({ scope: "session", pattern: "x *", level: "safe", root: "/p" });
    for (const [pid, session] of [[51, "aaaa0001"], [52, "aaaa0002"], [53, "aaaa0003"]] as const) {
      new LiveApprovals(dir, { pid, start: "1000", session, client: "c" }).publish([a]);
    }
    fileRevocation(dir, "aaaa0001", a.id);
    // A file named for another session than the one inside is not trusted.
    Deno.writeTextFileSync(
      join(dir, "ffff0000.json"),
      Deno.readTextFileSync(join(dir, "aaaa0003.json")),
    );
    Deno.writeTextFileSync(join(dir, "junk.json"), "{");
    const listed = await listLive(
      dir,
      facts({
        51: { alive: false }, // stopped
        52: { alive: true, start: "2000" }, // the pid now belongs to a later process
        53: undefined, // cannot tell here
      }),
    );
    assertEquals(listed, []);
    assertEquals(names(dir), ["aaaa0003.json", "ffff0000.json", "junk.json"]);
    const alive = await listLive(dir, facts({ 53: { alive: true, start: "1000" } }));
    assertEquals(alive.map((l) => l.server.pid), [53]);
  }));

Deno.test("revocations: a server takes only its own, well-formed ones", () =>
  inScratch((dir) => {
    const mine = new LiveApprovals(dir, { pid: 61, session: "bbbb0001", client: "c" });
    mine.publish([]);
    fileRevocation(dir, "bbbb0001", "0123abcd");
    fileRevocation(dir, "bbbb0002", "4567abcd");
    Deno.writeTextFileSync(join(dir, "bbbb0001.not-an-id.revoke"), "");
    assertEquals(mine.takeRevocations(), ["0123abcd"]);
    assertEquals(names(dir), ["bbbb0001.json", "bbbb0002.4567abcd.revoke"]);
    assertEquals(mine.takeRevocations(), []);
    assertThrows(() => fileRevocation(dir, "../x", "0123abcd"));
    assertThrows(() => fileRevocation(dir, "bbbb0001", "../../approvals"));
  }));
