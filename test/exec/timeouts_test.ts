import { assertEquals } from "../support/assert.ts";
import { resolveTimeout, timedOutLine } from "../../src/exec/timeouts.ts";

Deno.test("the ladder: the call's limit first, then the thread's, then the default", () => {
  assertEquals(resolveTimeout({ call: 30, thread: 600, configDefault: 120, cap: 3600 }), {
    seconds: 30,
    source: "call",
    clamped: false,
  });
  assertEquals(resolveTimeout({ thread: 600, configDefault: 120, cap: 3600 }), {
    seconds: 600,
    source: "thread",
    clamped: false,
  });
  assertEquals(resolveTimeout({ call: null, thread: null, configDefault: 120, cap: 3600 }), {
    seconds: 120,
    source: "default",
    clamped: false,
  });
  assertEquals(resolveTimeout({ call: 0, configDefault: 120, cap: 0 }), {
    seconds: 120,
    source: "default",
    clamped: false,
  });
});

Deno.test("a thread's 0 is no limit, under the operator's cap; not the default", () => {
  assertEquals(resolveTimeout({ call: 0, thread: 0, configDefault: 120, cap: 0 }), {
    seconds: 0,
    source: "thread",
    clamped: false,
  });
  assertEquals(resolveTimeout({ thread: 0, configDefault: 120, cap: 1800 }), {
    seconds: 1800,
    source: "thread",
    clamped: true,
  });
  // The call's own limit still comes first.
  assertEquals(resolveTimeout({ call: 5, thread: 0, configDefault: 120, cap: 1800 }), {
    seconds: 5,
    source: "call",
    clamped: false,
  });
});

Deno.test("the operator's cap bounds every source; 0 means no limit and no cap", () => {
  assertEquals(resolveTimeout({ call: 7200, configDefault: 120, cap: 1800 }), {
    seconds: 1800,
    source: "call",
    clamped: true,
  });
  assertEquals(resolveTimeout({ thread: 9999, configDefault: 120, cap: 1800 }), {
    seconds: 1800,
    source: "thread",
    clamped: true,
  });
  assertEquals(resolveTimeout({ configDefault: 0, cap: 1800 }), {
    seconds: 1800,
    source: "default",
    clamped: true,
  });
  assertEquals(resolveTimeout({ configDefault: 0, cap: 0 }), {
    seconds: 0,
    source: "default",
    clamped: false,
  });
  assertEquals(resolveTimeout({ call: 1800, configDefault: 120, cap: 1800 }), {
    seconds: 1800,
    source: "call",
    clamped: false,
  });
});

Deno.test("the timed-out line says how to ask for more, or that it was the most allowed", () => {
  assertEquals(
    timedOutLine(120, 1800, true),
    "timed out: the command was killed after 120 s; ask for up to 1800 s with timeoutSeconds",
  );
  assertEquals(
    timedOutLine(1800, 1800, true),
    "timed out: the command was killed after 1800 s, the most allowed",
  );
  assertEquals(
    timedOutLine(120, 0, true),
    "timed out: the command was killed after 120 s; ask for more with timeoutSeconds",
  );
  assertEquals(timedOutLine(10, 1800, false), "timed out: the command was killed after 10 s");
});
