/**
 * The fact book and its parts as pure pieces: kinds from config over wisp's
 * own, every normaliser, versions with sources, supersession and ranks,
 * ephemeral facts expiring, a kind's share of the window, and permanent facts
 * kept atomically in a scratch home and offered to a later book.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertThrows } from "../../support/assert.ts";
import { BUILTIN_KINDS, findKind, resolveKinds } from "../../../src/context/facts/kinds.ts";
import {
  commandCore,
  gitRootOf,
  normaliseName,
  pathKey,
} from "../../../src/context/facts/normalise.ts";
import { FactBook, FactError, lineOf, sourceText } from "../../../src/context/facts/book.ts";
import {
  keepPermanentFact,
  offeredFacts,
  readPermanentFacts,
} from "../../../src/context/facts/permanent.ts";
import { openFactBook } from "../../../src/context/facts/mod.ts";
import { configSchema } from "../../../src/config/schema.ts";

Deno.test("kinds: config changes only the fields it sets, and adds new kinds dynamic and casefold", () => {
  const kinds = resolveKinds([
    { name: "ticket", description: "A ticket, its number, and its state." },
    { name: "Entity", class: "dynamic" },
    { name: "branch", share: 0.1 },
  ]);
  assertEquals(kinds.length, BUILTIN_KINDS.length + 1);
  const entity = findKind(kinds, "entity")!;
  assertEquals(entity.class, "dynamic");
  assertEquals(entity.normaliser, "casefold", "a field left out keeps wisp's value");
  assertEquals(entity.description, BUILTIN_KINDS.find((k) => k.name === "entity")!.description);
  const ticket = findKind(kinds, "TICKET")!;
  assertEquals(
    { class: ticket.class, normaliser: ticket.normaliser, distil: ticket.distil },
    { class: "dynamic", normaliser: "casefold", distil: true },
  );
  assertEquals(findKind(kinds, "branch")!.share, 0.1);
  assertEquals(findKind(kinds, "file")!.distil, false, "wisp's file kind is left to the tools");
});

Deno.test("kinds: the config schema refuses an unknown normaliser, a nameless kind and a share past 0.5", () => {
  for (
    const bad of [
      { name: "x", normaliser: "upper" },
      { class: "dynamic" },
      { name: "x", share: 0.6 },
      { name: "x", share: -0.1 },
      { name: "x", class: "forever" },
    ]
  ) {
    assert(!configSchema.safeParse({ facts: { kinds: [bad] } }).success, JSON.stringify(bad));
  }
  assert(configSchema.safeParse({ facts: { kinds: [{ name: "x", share: 0.5 }] } }).success);
});

Deno.test("normalisers: casefold, trim and single", () => {
  assertEquals(normaliseName("casefold", "  Release   CODENAME "), "release codename");
  assertEquals(normaliseName("trim", "  Release   CODENAME "), "Release CODENAME");
  assertEquals(normaliseName("single", "anything at all"), "");
});

Deno.test("normalisers: a command line's core drops preparation, assignments, redirections and trimming pipes", () => {
  const cases: [string, string][] = [
    ["deno test -A", "deno test -A"],
    ["cd repo && deno test -A 2>&1 | tail -3", "deno test -A"],
    ["FOO=1 BAR='a b' npm test", "npm test"],
    ["env CI=1 cargo test --all > out.txt", "cargo test --all"],
    ["cd /x; export A=1; pytest -q tests/ | head -n 20", "pytest -q tests/"],
    ["make check 2> err.log", "make check"],
    ["git log --oneline | grep 'fix: a|b'", "git log --oneline"],
    ["swift test 2>&1 | xcpretty", "swift test | xcpretty"],
    ["echo 'a && b'", "echo 'a && b'"],
  ];
  for (const [line, core] of cases) assertEquals(commandCore(line), core, line);
  assertEquals(
    normaliseName("command", "cd a && deno test -A | tail -3"),
    normaliseName("command", "deno   test -A 2>&1"),
  );
});

Deno.test("normalisers: a path is relative to its repository's root, absolute outside one", () => {
  const dir = Deno.makeTempDirSync({ prefix: "wisp-facts-" });
  try {
    const repo = join(dir, "repo");
    Deno.mkdirSync(join(repo, ".git"), { recursive: true });
    Deno.mkdirSync(join(repo, "src", "deep"), { recursive: true });
    const ctx = { cwd: join(repo, "src"), repoRootOf: gitRootOf };
    assertEquals(pathKey("deep/a.ts", ctx), "src/deep/a.ts");
    assertEquals(pathKey(join(repo, "src/deep/a.ts"), ctx), "src/deep/a.ts");
    assertEquals(pathKey("./deep/../deep/a.ts", ctx), "src/deep/a.ts");
    assertEquals(pathKey(join(dir, "elsewhere", "b.txt"), ctx), join(dir, "elsewhere", "b.txt"));
    assertEquals(
      normaliseName("path", "deep/a.ts", ctx),
      normaliseName("path", "src/deep/a.ts", { cwd: repo, repoRootOf: gitRootOf }),
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

function newBook(events: Record<string, unknown>[] = []) {
  return new FactBook({
    kinds: resolveKinds([{ name: "ticket", class: "dynamic" }]),
    onEvent: (_kind, fields) => events.push(fields),
  });
}

Deno.test("book: versions carry sources; a newer value supersedes, the history keeps both", () => {
  const events: Record<string, unknown>[] = [];
  const book = newBook(events);
  book.beginTurn(2);
  const first = book.record({
    subject: "branch",
    value: "main",
    source: { by: "tool", method: "observed", tool: "run_command", entry: 9 },
  });
  assertEquals(lineOf(first), "c1 branch = main (from tool run_command, turn 2, entry 9)");
  book.beginTurn(4);
  const second = book.record({
    subject: "Branch",
    name: "ignored for a single kind",
    value: "feature/x",
    source: { by: "tool", method: "observed", tool: "run_command", entry: 14 },
  });
  assertEquals(second.supersedes, "c1");
  assertEquals(first.state, "superseded");
  assertEquals(book.lines(), ["c2 branch = feature/x (from tool run_command, turn 4, entry 14)"]);
  assertEquals(book.history("c1").map((v) => [v.id, v.value, v.state]), [
    ["c1", "main", "superseded"],
    ["c2", "feature/x", "current"],
  ]);
  assertEquals(events.map((e) => e.factId), ["c1", "c2"]);
  assertEquals(events[1].supersedes, "c1");
  assertEquals(events[0].source, "from tool run_command, turn 2, entry 9");
});

Deno.test("book: names under one kind are one fact as its normaliser reads them", () => {
  const book = newBook();
  book.record({
    subject: "entity",
    name: "Release Codename",
    value: "GREY OWL",
    source: { by: "model", method: "noted", turn: 1 },
  });
  book.record({
    subject: "entity",
    name: "release  codename",
    value: "BLUE HERON",
    source: { by: "model", method: "noted", turn: 4 },
  });
  book.record({
    subject: "tests",
    name: "cd repo && deno test -A 2>&1 | tail -3",
    value: "3 failed",
    source: { by: "tool", method: "observed", tool: "run_command", turn: 2, entry: 5 },
  });
  book.record({
    subject: "tests",
    name: "deno test -A",
    value: "all passed",
    source: { by: "tool", method: "observed", tool: "run_command", turn: 3, entry: 8 },
  });
  assertEquals(book.lines(), [
    "c2 entity release codename = BLUE HERON (model, noted, turn 4)",
    "c4 tests deno test -A = all passed (from tool run_command, turn 3, entry 8)",
  ]);
});

Deno.test("book: a lower-ranked source never replaces a higher one; the same rank or higher does", () => {
  const book = newBook();
  book.record({
    subject: "ticket",
    name: "WISP-7",
    value: "open",
    source: { by: "person", method: "stated", turn: 1 },
  });
  const noted = book.record({
    subject: "ticket",
    name: "wisp-7",
    value: "closed",
    source: { by: "model", method: "noted", turn: 2 },
  });
  assertEquals(noted.state, "outranked");
  assertEquals(book.lines(), ["c1 ticket WISP-7 = open (you, stated, turn 1)"]);
  const observed = book.record({
    subject: "ticket",
    name: "wisp-7",
    value: "closed",
    source: { by: "caller", method: "stated", turn: 3 },
  });
  assertEquals(observed.state, "current");
  assertEquals(observed.supersedes, "c1");
  // The same value again from a lower rank changes nothing.
  const again = book.record({
    subject: "ticket",
    name: "WISP-7",
    value: "closed",
    source: { by: "model", method: "distilled", turn: 4 },
  });
  assertEquals(again.id, observed.id);
  assertEquals(book.all().length, 3);
});

Deno.test("book: ephemeral facts last their turn and the next", () => {
  const book = newBook();
  book.beginTurn(3);
  book.record({
    subject: "answer",
    name: "which config",
    value: "./wisp.json",
    source: { by: "person", method: "stated" },
  });
  assertEquals(book.lines().length, 1);
  book.beginTurn(4);
  assertEquals(book.lines().length, 1);
  book.beginTurn(5);
  assertEquals(book.lines(), []);
  assertEquals(book.find("c1")!.state, "expired");
});

Deno.test("book: unknown kinds, empty values and missing names are refused with a sentence", () => {
  const book = newBook();
  const source = { by: "model", method: "noted", turn: 1 } as const;
  assertThrows(
    () => book.record({ subject: "colour", name: "x", value: "y", source }),
    FactError,
    `no fact kind "colour"`,
  );
  assertThrows(
    () => book.record({ subject: "entity", name: "x", value: "  ", source }),
    FactError,
    "needs a value",
  );
  assertThrows(
    () => book.record({ subject: "entity", name: "", value: "y", source }),
    FactError,
    "needs a name",
  );
});

Deno.test("book: a kind's share of the window keeps only its newest lines that fit", () => {
  const book = new FactBook({ kinds: resolveKinds([{ name: "ticket", share: 0.01 }]) });
  for (let i = 1; i <= 20; i++) {
    book.record({
      subject: "ticket",
      name: `T-${i}`,
      value: "open ".repeat(10),
      source: { by: "model", method: "noted", turn: i },
    });
  }
  book.record({
    subject: "entity",
    name: "host",
    value: "db1",
    source: { by: "model", method: "noted", turn: 1 },
  });
  const all = book.lines();
  const bounded = book.lines({ windowTokens: 8192 });
  assertEquals(all.length, 21);
  const ticketChars = bounded.filter((l) => / ticket /.test(l)).reduce(
    (n, l) => n + l.length + 1,
    0,
  );
  assert(ticketChars <= 0.01 * 8192 * 4, `tickets take ${ticketChars} characters`);
  assert(bounded.some((l) => l.includes("T-20 ")), "the newest ticket stays");
  assert(!bounded.some((l) => l.includes("T-1 ")), "the oldest ticket goes");
  assert(bounded.some((l) => l.includes("entity host")), "a kind without a share is not bounded");
});

Deno.test("sources read as the spec writes them", () => {
  assertEquals(sourceText({ by: "model", method: "noted", turn: 4 }), "model, noted, turn 4");
  assertEquals(
    sourceText({ by: "tool", method: "observed", tool: "run_command", turn: 2, entry: 9 }),
    "from tool run_command, turn 2, entry 9",
  );
  assertEquals(
    sourceText({ by: "person", method: "kept", keptAt: "2026-12-02T06:00:00Z" }),
    "yours, kept 2 Dec 2026",
  );
});

Deno.test("permanent facts: kept atomically in the home, offered to a later book, a damaged file reported and left alone", () => {
  const home = Deno.makeTempDirSync({ prefix: "wisp-home-" });
  const path = join(home, "facts.json");
  try {
    assertEquals(readPermanentFacts(path), []);
    const kept = keepPermanentFact(path, {
      subject: "entity",
      name: "release codename",
      key: "release codename",
      value: "BLUE HERON",
      from: { thread: "git", factId: "c3" },
      via: "terminal",
    });
    assert(!kept.already);
    assertEquals(Deno.statSync(path).mode! & 0o777, 0o600);
    assertEquals(keepPermanentFact(path, { ...kept.fact }).already, true);
    assertEquals(readPermanentFacts(path).length, 1);
    const book = openFactBook({
      config: configSchema.parse({}),
      paths: { facts: path },
    })!;
    assertMatch(
      book.lines()[0],
      /^c1 entity release codename = BLUE HERON \(yours, kept \d+ \w+ \d{4}\)$/,
    );
    assertEquals(book.find("c1")!.scope, "permanent");
    assertEquals(
      openFactBook({
        config: configSchema.parse({ facts: { enabled: false } }),
        paths: { facts: path },
      }),
      undefined,
    );
    Deno.writeTextFileSync(path, "{ not json");
    assertThrows(() => readPermanentFacts(path), FactError, "is not JSON");
    assertThrows(() => keepPermanentFact(path, { ...kept.fact }), FactError);
    assertEquals(Deno.readTextFileSync(path), "{ not json", "a damaged file is never overwritten");
    assertEquals(offeredFacts(path), []);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});
