/**
 * The resource readers over a real audit log: pages, a thread's events, and
 * a read after an append seeing the new event (the parsed log is kept
 * between reads only while no file changed).
 */
import { join } from "node:path";
import { assertEquals, assertThrows } from "../../support/assert.ts";
import { AuditLog } from "../../../src/audit/writer.ts";
import { homePaths } from "../../../src/config/home.ts";
import { configSchema } from "../../../src/config/schema.ts";
import { ResourceError, Resources } from "../../../src/faces/mcp/resources.ts";

Deno.test("audit pages follow appends; a thread's audit holds its events only; unknown threads are errors", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wisp-resources-" });
  try {
    const paths = homePaths(join(dir, "home"));
    const log = new AuditLog({ path: paths.auditLog, enabled: true, maxBytes: 1 << 20, keep: 2 });
    for (let i = 0; i < 150; i++) {
      log.record("prompt", { text: `p${i}`, ...(i % 3 === 0 ? { thread: "t1" } : {}) });
    }
    const resources = new Resources({
      config: configSchema.parse({}),
      paths,
      session: log.session,
      configView: () => ({}),
      tools: () => [],
      openThread: () => undefined,
      closedThread: (id) =>
        id === "t1" ? { id, shape: {}, turns: 1, closedAt: 0, why: "closed" } : undefined,
      openThreads: () => [],
    });
    const read = (uri: string) => JSON.parse(resources.read(uri).text);
    const first = read("wisp://audit?page=2");
    assertEquals([first.total, first.pages, first.events.length, first.next], [150, 2, 50, null]);
    log.record("prompt", { text: "late" });
    const after = read("wisp://audit?page=2");
    assertEquals(after.total, 151);
    assertEquals(after.events.at(-1).text, "late");
    const thread = read("wisp://threads/t1/audit?limit=500");
    assertEquals(thread.total, 50);
    assertEquals(thread.events.every((e: { thread: string }) => e.thread === "t1"), true);
    assertThrows(() => resources.read("wisp://threads/t2/audit"), ResourceError);
    assertThrows(() => resources.read("wisp://audit?page=3"), ResourceError);
    log.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
