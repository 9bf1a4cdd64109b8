/**
 * `wisp facts` without a server: the rows of `pending` (terminal and piped),
 * the default subcommand on an empty home, `list` of a kept fact, a damaged
 * facts.json as one sentence, and keep|drop refused from a pipe.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { runWisp, tempDir } from "../support/wisp.ts";
import { factRows } from "../../src/cli/facts.ts";
import { keepPermanentFact } from "../../src/context/facts/permanent.ts";

const ROW = {
  id: "a1b2c3d4",
  waited: 75,
  client: "claude-code",
  thread: "git",
  factId: "c3",
  by: "model",
  subject: "entity",
  name: "release codename",
  value: "BLUE HERON",
  serverRunning: true,
};

Deno.test("pending rows: the spec's columns on a terminal, every field piped", () => {
  assertEquals(factRows([ROW], true), [[
    "a1b2c3d4",
    "1 min",
    "claude-code/git",
    "c3",
    "model",
    "release codename = BLUE HERON",
  ]]);
  assertEquals(
    factRows([{ ...ROW, serverRunning: false }], true)[0][5],
    "release codename = BLUE HERON (its server has stopped)",
  );
  assertEquals(factRows([ROW], false), [[
    "a1b2c3d4",
    "75",
    "claude-code/git",
    "c3",
    "model",
    "entity",
    "release codename",
    "BLUE HERON",
  ]]);
  assertEquals(
    factRows([{ ...ROW, subject: "branch", name: "", value: "main" }], true)[0][5],
    "branch = main",
  );
});

Deno.test("wisp facts: nothing waiting, a kept fact listed, a damaged file a sentence, keep|drop only at a terminal", async () => {
  const home = await tempDir("wisp-home-");
  try {
    const empty = await runWisp(["facts"], { home });
    assertEquals(empty.code, 0, empty.stderr);
    assertEquals(empty.stdout, "");
    const emptyJson = await runWisp(["facts", "pending", "--json"], { home });
    assertEquals(JSON.parse(emptyJson.stdout), { pending: [] });

    keepPermanentFact(join(home, "facts.json"), {
      subject: "preference",
      name: "test runner",
      key: "test runner",
      value: "deno test -A",
      from: { client: "codex", thread: "t1" },
      via: "terminal",
    });
    const listed = await runWisp(["facts", "list"], { home });
    assertEquals(listed.code, 0, listed.stderr);
    const fields = listed.stdout.trimEnd().split("\t");
    assertMatch(fields[0], /^p[0-9a-f]{8}$/);
    assertEquals(fields.slice(1, 4), ["preference", "test runner", "deno test -A"]);
    assertEquals(fields[5], "codex/t1");

    Deno.writeTextFileSync(join(home, "facts.json"), "{ torn");
    const damaged = await runWisp(["facts", "list"], { home });
    assertEquals(damaged.code, 1);
    assertMatch(
      damaged.stderr,
      /^error: .*facts\.json is not JSON, so wisp keeps no permanent facts until it is mended or moved aside\n$/,
    );

    for (const verb of ["keep", "drop"]) {
      const piped = await runWisp(["facts", verb, "a1b2c3d4"], { home });
      assertEquals(piped.code, 1, verb);
      assertMatch(
        piped.stderr,
        new RegExp(`^error: wisp facts ${verb} answers only from a terminal`),
      );
      assert(!/\n\s+at /.test(piped.stderr), "no stack trace");
    }
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
