/**
 * The chat's bounded lists (kept.ts) and its running tally of turns
 * (turn_tally.ts): pure functions, checked on their own.
 */
import { assertEquals } from "../../support/assert.ts";
import { keepLatest, pushLatest } from "../../../src/faces/chat/kept.ts";
import { emptyTally, meanSeconds, tallyTurn } from "../../../src/faces/chat/turn_tally.ts";

Deno.test("pushLatest keeps the latest entries, oldest first, and never more than the limit", () => {
  const list: number[] = [];
  for (let i = 1; i <= 7; i++) pushLatest(list, i, 3);
  assertEquals(list, [5, 6, 7]);
});

Deno.test("keepLatest leaves a list within its limit as it was, and trims a longer one from the front", () => {
  const short = ["a", "b"];
  keepLatest(short, 5);
  assertEquals(short, ["a", "b"]);
  const long = ["a", "b", "c", "d"];
  keepLatest(long, 2);
  assertEquals(long, ["c", "d"]);
});

Deno.test("the turn tally counts, sums and remembers the last and slowest turn", () => {
  let tally = emptyTally();
  assertEquals(meanSeconds(tally), 0);
  assertEquals(tally.last, undefined);
  tally = tallyTurn(tally, { seconds: 2, inputTokens: 10, outputTokens: 5, outcome: "replied" });
  tally = tallyTurn(tally, {
    seconds: 0.5,
    inputTokens: 0,
    outputTokens: 0,
    outcome: "failed",
  });
  const last = {
    seconds: 1.5,
    inputTokens: 7,
    outputTokens: 3,
    outcome: "replied",
    condensed: true,
  };
  tally = tallyTurn(tally, last);
  assertEquals(tally.count, 3);
  assertEquals(tally.failed, 1);
  assertEquals(tally.condensed, 1);
  assertEquals(tally.slowestSeconds, 2);
  assertEquals(meanSeconds(tally), 4 / 3);
  assertEquals(tally.last, last);
});

Deno.test("the first turn sets the slowest time, however short it was", () => {
  const tally = tallyTurn(emptyTally(), {
    seconds: 0.01,
    inputTokens: 0,
    outputTokens: 0,
    outcome: "replied",
  });
  assertEquals(tally.slowestSeconds, 0.01);
});
