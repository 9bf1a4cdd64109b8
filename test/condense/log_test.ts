import { assert, assertEquals, assertMatch, assertThrows } from "../support/assert.ts";
import { condenseLog, severityOf, systemLogCommand, templateOf } from "../../src/condense/log.ts";

Deno.test("severities from the common log shapes; words inside a message are not levels", () => {
  assertEquals(severityOf("2026-11-30T10:00:00Z ERROR db: connection refused"), "error");
  assertEquals(severityOf("[WARN] disk at 91%"), "warning");
  assertEquals(severityOf('{"time":"…","level":"error","msg":"boom"}'), "error");
  assertEquals(severityOf("ts=… level=info msg=started"), "info");
  assertEquals(severityOf("E1130 10:00:00.123456   42 controller.go:88] sync failed"), "error");
  assertEquals(severityOf("<4>kernel: low memory"), "warning");
  assertEquals(severityOf("INFO:root:ready"), "info");
  assertEquals(severityOf("build finished with 0 errors"), undefined);
  assertEquals(severityOf("handled error gracefully"), undefined);
});

Deno.test("templates: the variable parts replaced, so repeats of one message match", () => {
  assertEquals(
    templateOf(
      "2026-11-30T10:00:01.5Z INFO request 9f1c2d3e-1111-2222-3333-444455556666 from 10.0.0.7:5432 took 35ms path=/api/items/42",
    ),
    templateOf(
      "2026-11-30T11:22:33.9Z INFO request 0a1b2c3d-aaaa-bbbb-cccc-ddddeeeeffff from 192.168.1.20:80 took 7ms path=/api/items/977",
    ),
  );
});

Deno.test("condenseLog: counts, span, the severe messages first, the rare ones, first and last lines", () => {
  const lines: string[] = [];
  for (let i = 0; i < 500; i++) {
    lines.push(
      `2026-11-30T10:${String(Math.floor(i / 60)).padStart(2, "0")}:${
        String(i % 60).padStart(2, "0")
      }Z INFO request ${i} served in ${i % 40}ms`,
    );
  }
  lines.splice(
    200,
    0,
    "2026-11-30T10:03:20Z ERROR payment gateway timeout after 30s (order 88123)",
  );
  lines.splice(300, 0, "2026-11-30T10:05:00Z WARN cache miss ratio 0.93");
  lines.splice(301, 0, "2026-11-30T10:05:00Z INFO config reloaded by admin");
  const r = condenseLog(lines.join("\n"));
  assertEquals(r.lines, 503);
  assertEquals(r.severities, { error: 1, warning: 1, info: 501 });
  assertEquals(r.span, { first: "2026-11-30T10:00:00Z", last: "2026-11-30T10:08:19Z" });
  assertMatch(
    r.text,
    /^503 lines, 2026-11-30T10:00:00Z to 2026-11-30T10:08:19Z; 1 error, 1 warning, 501 info; 4 distinct messages\nsevere:\n {2}L201 error ×1: .*payment gateway timeout/,
  );
  assertMatch(r.text, /rare:\n {2}L302 ×1: .*config reloaded by admin/);
  assert(r.templates.find((t) => t.count === 500), "the repeated request line is one template");
});

Deno.test("systemLogCommand: journalctl for a duration on Linux; nonsense refused", () => {
  assertEquals(
    systemLogCommand("5m", "linux"),
    "journalctl --no-pager -o short-iso --since '-5 minutes'",
  );
  assertThrows(() => systemLogCommand("soon", "linux"), Error, "not a duration");
  assertThrows(() => systemLogCommand("5m", "darwin"), Error, "read in process");
});
