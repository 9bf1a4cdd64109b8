import { assertEquals, assertMatch } from "../support/assert.ts";
import { formatCurrentDate } from "../../src/tools/current_date.ts";
import { registry, scratch } from "./support.ts";

Deno.test("current_date: ISO 8601 with the offset, then the zone", () => {
  const instant = new Date("2026-09-17T12:41:02Z");
  assertEquals(
    formatCurrentDate(instant, 60, "Europe/London"),
    "2026-09-17T13:41:02+01:00 (Europe/London)",
  );
  assertEquals(
    formatCurrentDate(instant, -150, "America/St_Johns"),
    "2026-09-17T10:11:02-02:30 (America/St_Johns)",
  );
  assertEquals(formatCurrentDate(instant, 0, "UTC"), "2026-09-17T12:41:02+00:00 (UTC)");
  // Crossing midnight and a year boundary.
  assertEquals(
    formatCurrentDate(new Date("2026-12-31T23:30:00Z"), 60, "Europe/Berlin"),
    "2027-01-01T00:30:00+01:00 (Europe/Berlin)",
  );
});

Deno.test("current_date through the registry: one line naming now", async () => {
  const s = await scratch();
  try {
    const before = Date.now();
    const result = await registry.call("current_date", {}, s.ctx);
    assertEquals(result.ok, true);
    assertMatch(result.text, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d \(.+\)$/);
    const after = Date.now();
    const stamp = Date.parse(result.text.split(" ")[0]);
    // Second precision: the stamp is a second between the call's start and its end.
    assertEquals(
      stamp >= Math.floor(before / 1000) * 1000 && stamp <= after,
      true,
      `${result.text} vs ${new Date(before).toISOString()}–${new Date(after).toISOString()}`,
    );
    const bad = await registry.call("current_date", { when: "now" }, s.ctx);
    assertEquals(bad.ok, false);
    assertMatch(bad.text, /^error: bad arguments for current_date: unknown argument when/);
  } finally {
    await s.cleanup();
  }
});
