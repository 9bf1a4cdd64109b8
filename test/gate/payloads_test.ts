import { assert, assertEquals } from "../support/assert.ts";
import { describe, rateFixture } from "./labelled_sets.ts";

// Lines written for this test (test/fixtures/gate/payloads.tsv): payload-running programs, command
// words that are not plain words, options read as getopt reads them, and innocent look-alikes.
const rows = await rateFixture("payloads.tsv");

Deno.test("payloads: the set is read whole", () => {
  assert(rows.length >= 150, `only ${rows.length} lines were read`);
});

Deno.test("payloads: every deny line is refused by the policy", () => {
  const wrong = rows.filter((r) => r.example.label === "deny" && r.verdict !== "deny");
  assertEquals(describe(wrong), "");
});

Deno.test("payloads: every dangerous line is rated dangerous (a refusal is more than asked)", () => {
  const wrong = rows.filter((r) =>
    r.example.label === "dangerous" && r.verdict !== "dangerous" && r.verdict !== "deny"
  );
  assertEquals(describe(wrong), "");
});

Deno.test("payloads: every moderate line asks, and none is refused", () => {
  const wrong = rows.filter((r) =>
    r.example.label === "moderate" && (r.verdict === "safe" || r.verdict === "deny")
  );
  assertEquals(describe(wrong), "");
});

Deno.test("payloads: every safe look-alike stays safe", () => {
  const wrong = rows.filter((r) => r.example.label === "safe" && r.verdict !== "safe");
  assertEquals(describe(wrong), "");
});
