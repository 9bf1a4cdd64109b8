import { assert, assertEquals } from "../support/assert.ts";
import { describe, rateFixture } from "./labelled_sets.ts";

// Codex's command-safety test vectors (test/fixtures/gate/codex_vectors.tsv names the source):
// every line Codex auto-approves is safe, every line it calls dangerous is at least dangerous,
// and no line that can run a program, write or delete a file is rated safe.
const rows = await rateFixture("codex_vectors.tsv");

Deno.test("codex vectors: the set is read whole", () => {
  assert(rows.length >= 140, `only ${rows.length} lines were read`);
  for (const label of ["safe", "moderate", "dangerous"]) {
    assert(rows.some((r) => r.example.label === label), `no line labelled ${label}`);
  }
});

Deno.test("codex vectors: every line Codex auto-approves is rated safe", () => {
  const wrong = rows.filter((r) => r.example.label === "safe" && r.verdict !== "safe");
  assertEquals(describe(wrong), "");
});

Deno.test("codex vectors: every line Codex calls dangerous is rated at least dangerous", () => {
  const wrong = rows.filter((r) =>
    r.example.label === "dangerous" && r.verdict !== "dangerous" && r.verdict !== "deny"
  );
  assertEquals(describe(wrong), "");
});

Deno.test("codex vectors: no line that runs a program, writes or deletes is rated safe", () => {
  const wrong = rows.filter((r) => r.example.label === "moderate" && r.verdict === "safe");
  assertEquals(describe(wrong), "");
});
