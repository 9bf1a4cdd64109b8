import { assert, assertEquals } from "../support/assert.ts";
import { parseExamples } from "../../src/gate/measure.ts";
import { verdict } from "./helpers.ts";

const FILE = new URL("../fixtures/gate/effects.tsv", import.meta.url).pathname;
const RANK: Record<string, number> = { safe: 0, moderate: 1, dangerous: 2, deny: 3 };

Deno.test("effects set: no deny or dangerous line rated lower, deny lines denied, safe lines kept safe", () => {
  const examples = parseExamples(Deno.readTextFileSync(FILE), FILE);
  assert(examples.length >= 300, `${examples.length} lines`);
  const rows = examples.map((e) => ({ ...e, got: verdict(e.line) }));
  const under = rows.filter((r) =>
    (r.label === "deny" || r.label === "dangerous") && RANK[r.got] < RANK[r.label]
  ).map((r) => `line ${r.lineNo}: labelled ${r.label}, rated ${r.got}: ${r.line}`);
  assertEquals(under, []);
  const deny = rows.filter((r) => r.label === "deny");
  const denied = deny.filter((r) => r.got === "deny").length;
  assert(denied >= 0.95 * deny.length, `${denied} of ${deny.length} deny lines denied`);
  const safe = rows.filter((r) => r.label === "safe");
  const over = safe.filter((r) => r.got !== "safe");
  assert(
    over.length <= 0.1 * safe.length,
    `safe lines rated higher: ${over.map((r) => r.line).join(" | ")}`,
  );
});
