/**
 * A fact book's saved state: a snapshot restored into a new book lists the
 * same facts with the same ids, sources, states and history; the permanent
 * facts offered from wisp's home are not saved but offered afresh, below
 * what the person stated in the conversation; a checkpoint puts a book back
 * exactly; and a damaged saved value is refused with a phrase, never thrown.
 */
import { assert, assertEquals } from "../../support/assert.ts";
import { FactBook, lineOf, type OfferedFact } from "../../../src/context/facts/book.ts";
import { resolveKinds } from "../../../src/context/facts/kinds.ts";
import { readBookState } from "../../../src/context/facts/book_state.ts";

const kinds = resolveKinds([{ name: "ticket", class: "dynamic" }]);

function bookOf(permanent: OfferedFact[] = []): FactBook {
  return new FactBook({ kinds, permanent });
}

/** A conversation's book: a task, a superseded branch, a model note the person outranked. */
function usedBook(permanent: OfferedFact[] = []): FactBook {
  const book = bookOf(permanent);
  book.beginTurn(1);
  book.record({
    subject: "task",
    value: "tidy the docs",
    source: { by: "person", method: "stated" },
  });
  book.record({
    subject: "branch",
    value: "main",
    source: { by: "tool", method: "observed", tool: "run_command", entry: 3 },
  });
  book.beginTurn(2);
  book.record({
    subject: "branch",
    value: "feature/x",
    source: { by: "tool", method: "observed", tool: "run_command", entry: 7 },
  });
  book.record({
    subject: "entity",
    name: "codename",
    value: "BLUE HERON",
    source: { by: "person", method: "stated" },
  });
  book.record({
    subject: "entity",
    name: "Codename",
    value: "RED KITE",
    source: { by: "model", method: "noted" },
  });
  book.decline("c4");
  return book;
}

/** A saved state as JSON gives it back, for damaging by hand. */
interface SavedState {
  versions?: { id: string; state: string; value?: string; source: { by: string } }[];
  declined: unknown[];
  next: number;
}

/** The state through JSON, as a transcript carries it. */
function throughJson(book: FactBook): unknown {
  return JSON.parse(JSON.stringify(book.snapshot()));
}

Deno.test("book state: restored, a book lists the same facts with their ids, sources, states and history", () => {
  const first = usedBook();
  const read = readBookState(throughJson(first));
  assert(read.ok, JSON.stringify(read));
  const second = bookOf();
  assertEquals(second.restore(read.state), 0);
  assertEquals(second.lines(), first.lines());
  assertEquals(second.lines(), [
    "c1 task = tidy the docs (you, stated, turn 1)",
    "c4 entity codename = BLUE HERON (you, stated, turn 2)",
    "c3 branch = feature/x (from tool run_command, turn 2, entry 7)",
  ]);
  assertEquals(second.history("c2").map((v) => [v.id, v.state]), [["c2", "superseded"], [
    "c3",
    "current",
  ]]);
  assertEquals(second.find("c5")!.state, "outranked");
  assert(second.declined(second.find("c4")!), "a declined value stays declined");
  assertEquals(second.turn, 2);
  // The next fact takes the next id; the person's fact still outranks the model.
  const noted = second.record({
    subject: "entity",
    name: "codename",
    value: "GREY OWL",
    source: { by: "model", method: "noted" },
  });
  assertEquals([noted.id, noted.state], ["c6", "outranked"]);
});

Deno.test("book state: permanent facts are not saved; offered again, they stay below the person's word in the conversation", () => {
  const offered: OfferedFact[] = [
    { subject: "preference", name: "editor", value: "helix", keptAt: "2026-11-01T00:00:00Z" },
    { subject: "entity", name: "codename", value: "OLD NAME", keptAt: "2026-11-01T00:00:00Z" },
  ];
  const first = usedBook(offered);
  const state = first.snapshot();
  assert(
    state.versions.every((v) => v.source.method !== "kept"),
    "no permanent fact is copied into the state",
  );
  assert(!JSON.stringify(state).includes("helix"));

  const second = bookOf(offered);
  const read = readBookState(JSON.parse(JSON.stringify(state)));
  assert(read.ok, JSON.stringify(read));
  second.restore(read.state);
  const current = second.current().map((f) => [f.subject, f.value, f.source.method]);
  // The person's BLUE HERON, stated in the conversation, stays over the offered OLD NAME.
  assertEquals(current, [
    ["task", "tidy the docs", "stated"],
    ["preference", "helix", "kept"],
    ["entity", "BLUE HERON", "stated"],
    ["branch", "feature/x", "observed"],
  ]);
  // The offered fact took an id after the saved ones; no saved id was reused.
  const helix = second.current().find((f) => f.value === "helix")!;
  assertEquals(helix.id, `c${state.next}`);
  assertEquals(new Set(second.all().map((v) => v.id)).size, second.all().length);

  // A permanent fact that arrived after the save outranks a model's note of the same fact.
  const noted = bookOf();
  noted.record({
    subject: "entity",
    name: "mascot",
    value: "a crab",
    source: { by: "model", method: "noted" },
  });
  const later = bookOf([{ subject: "entity", name: "mascot", value: "a gull", keptAt: "x" }]);
  later.restore(noted.snapshot());
  assertEquals(later.current().map((f) => f.value), ["a gull"]);
  assertEquals(later.find("c1")!.state, "outranked");
});

Deno.test("book state: a kind no longer configured is left out and counted; restoring twice is refused", () => {
  const book = new FactBook({ kinds });
  book.record({
    subject: "ticket",
    name: "WISP-1",
    value: "open",
    source: { by: "person", method: "stated" },
  });
  book.record({ subject: "task", value: "ship it", source: { by: "person", method: "stated" } });
  const fewer = new FactBook({ kinds: resolveKinds() });
  assertEquals(fewer.restore(book.snapshot()), 1);
  assertEquals(fewer.lines(), ["c2 task = ship it (you, stated)"]);
  let refused = false;
  try {
    fewer.restore(book.snapshot());
  } catch {
    refused = true;
  }
  assert(refused, "a book with facts of its own is not restored over");
});

Deno.test("book checkpoint: going back forgets what was recorded since and puts back older states", () => {
  const book = usedBook();
  const before = book.all().map((v) => ({ ...v }));
  const lines = book.lines();
  const back = book.checkpoint();
  book.record({
    subject: "branch",
    value: "release",
    source: { by: "model", method: "distilled" },
  });
  book.record({
    subject: "decision",
    name: "storage",
    value: "SQLite",
    source: { by: "model", method: "distilled" },
  });
  book.record({ subject: "task", value: "other", source: { by: "person", method: "stated" } });
  assert(book.lines().some((l) => l.includes("SQLite")));
  back();
  assertEquals(book.all().map((v) => ({ ...v })), before);
  assertEquals(book.lines(), lines);
  assertEquals(
    lineOf(
      book.record({
        subject: "decision",
        name: "db",
        value: "pg",
        source: { by: "person", method: "stated" },
      }),
    ),
    "c6 decision db = pg (you, stated, turn 2)",
  );
});

Deno.test("book state: a damaged value is refused with the first thing wrong, never thrown", () => {
  const good = JSON.parse(JSON.stringify(usedBook().snapshot()));
  const damaged = (change: (s: SavedState) => void) => {
    const copy = structuredClone(good);
    change(copy);
    return readBookState(copy);
  };
  assertEquals(readBookState("facts"), { ok: false, reason: "it is not an object" });
  assertEquals(readBookState([]), { ok: false, reason: "it is not an object" });
  assertEquals(damaged((s) => delete s.versions), {
    ok: false,
    reason: "it has no list of versions",
  });
  assertEquals(damaged((s) => s.declined = [1]), {
    ok: false,
    reason: "its declined list is malformed",
  });
  assertEquals(damaged((s) => s.next = 0), { ok: false, reason: "its next id is malformed" });
  assertEquals(damaged((s) => s.versions![1].source.by = "ghost"), {
    ok: false,
    reason: "version 2 (c2) has a malformed source",
  });
  assertEquals(damaged((s) => s.versions![0].id = "x1"), {
    ok: false,
    reason: "version 1 has no id like c7",
  });
  assertEquals(damaged((s) => s.versions![2].id = "c1"), {
    ok: false,
    reason: "the id c1 is used twice",
  });
  assertEquals(damaged((s) => s.next = 3), {
    ok: false,
    reason: "the id c3 is not below its next id",
  });
  assertEquals(damaged((s) => delete s.versions![3].value), {
    ok: false,
    reason: "version 4 (c4) has no value",
  });
  assertEquals(damaged((s) => s.versions![0].state = "lost"), {
    ok: false,
    reason: "version 1 (c1) has an unknown state",
  });
  assert(readBookState(good).ok);
});
