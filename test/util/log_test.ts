/**
 * The one logger: a sink gets the lines at or above its level; a line made
 * by a function is made only when some sink wants it; a remote sink never
 * gets what is logged locally; a removed sink gets nothing; `timed` logs a
 * step's time and passes its value and its failure through.
 */
import { assert, assertEquals, assertMatch, assertRejects } from "../support/assert.ts";
import {
  addLogSink,
  enabled,
  levelOf,
  log,
  type LogLevel,
  logLocally,
  timed,
} from "../../src/util/log.ts";

function collect(level: LogLevel, remote = false) {
  const lines: string[] = [];
  const remove = addLogSink({ level, remote, write: (at, text) => lines.push(`${at} ${text}`) });
  return { lines, remove };
}

Deno.test("log: levels, lazy lines, local lines, removal", () => {
  const info = collect("info");
  const remote = collect("debug", true);
  try {
    let made = 0;
    log("debug", () => `made ${++made}`);
    assertEquals(made, 1, "the remote debug sink wants it");
    assertEquals(info.lines, []);
    assertEquals(remote.lines, ["debug made 1"]);
    log("error", "broken");
    assertEquals(info.lines, ["error broken"]);
    logLocally("info", "a write failed");
    assertEquals(info.lines, ["error broken", "info a write failed"]);
    assertEquals(remote.lines, ["debug made 1", "error broken"], "local lines stay local");
  } finally {
    info.remove();
    remote.remove();
  }
  log("error", "after");
  assertEquals(info.lines.at(-1), "info a write failed", "a removed sink gets nothing");
});

Deno.test("log: nothing is made when no sink wants it", () => {
  // No WISP_LOG in this test's environment and no sink added: debug is off.
  if (Deno.env.get("WISP_LOG")) return;
  assert(!enabled("debug"));
  let made = 0;
  log("debug", () => `made ${++made}`);
  assertEquals(made, 0);
});

Deno.test("log: WISP_LOG's values", () => {
  assertEquals(["debug", "info", "error", "", "verbose", undefined].map(levelOf), [
    "debug",
    "info",
    "error",
    undefined,
    undefined,
    undefined,
  ]);
});

Deno.test("timed: the step's time at debug, its value and its failure passed through", async () => {
  const sink = collect("debug");
  try {
    assertEquals(await timed("step one", () => Promise.resolve(42)), 42);
    assertMatch(sink.lines[0], /^debug step one: \d+ ms \(\+\d+ ms\)$/);
    await assertRejects(
      () => timed("step two", () => Promise.reject(new Error("no"))),
      Error,
      "no",
    );
    assertMatch(sink.lines[1], /^debug step two: failed after \d+ ms$/);
  } finally {
    sink.remove();
  }
});
