/** One-line fact statements: the person's and the model's forms, and what is refused. */
import { assertEquals, assertMatch } from "../../support/assert.ts";
import { parseFactStatement } from "../../../src/context/facts/statement.ts";
import { resolveKinds } from "../../../src/context/facts/kinds.ts";

const kinds = resolveKinds([{ name: "ticket" }]);

Deno.test("the forms a person and a small model write are read alike", () => {
  const want = { subject: "entity", name: "release codename", value: "BLUE HERON" };
  for (
    const line of [
      "entity release codename = BLUE HERON",
      "Entity: release codename = BLUE HERON",
      "entity release codename: BLUE HERON",
      'entity release codename = "BLUE HERON"',
      "entity   release codename =   “BLUE HERON”",
    ]
  ) {
    const read = parseFactStatement(line, kinds);
    assertEquals(read, { ok: true, fact: want }, line);
  }
  assertEquals(parseFactStatement("branch = main", kinds), {
    ok: true,
    fact: { subject: "branch", name: "", value: "main" },
  });
  assertEquals(parseFactStatement("task: ship 0.16; objective: tests pass", kinds), {
    ok: true,
    fact: { subject: "task", name: "", value: "ship 0.16; objective: tests pass" },
  });
  assertEquals(parseFactStatement("task ship it", kinds), {
    ok: true,
    fact: { subject: "task", name: "", value: "ship it" },
  });
  assertEquals(parseFactStatement("ticket WISP-7 = open: waiting on review", kinds), {
    ok: true,
    fact: { subject: "ticket", name: "WISP-7", value: "open: waiting on review" },
  });
});

Deno.test("a statement that is not one is refused with a sentence", () => {
  const cases: [string, RegExp][] = [
    ["colour sky = blue", /^there is no fact kind "colour"; the kinds are task, /],
    ["entity release codename", /has no value after = or :/],
    ["entity release codename =  ", /has no value after =/],
    ["entity = BLUE HERON", /needs a name before =/],
    ["= x", /does not start with a kind/],
  ];
  for (const [line, reason] of cases) {
    const read = parseFactStatement(line, kinds);
    assertEquals(read.ok, false, line);
    if (!read.ok) assertMatch(read.reason, reason, line);
  }
});
