import { assert, assertEquals, assertMatch, assertThrows } from "../support/assert.ts";
import { AuditLog } from "../../src/audit/writer.ts";
import { auditFiles, readAuditLog } from "../../src/audit/reader.ts";
import { AuditTailer } from "../../src/audit/follow.ts";
import type { AuditEvent } from "../../src/audit/catalogue.ts";

const WORKER = new URL("../fixtures/audit/append_worker.ts", import.meta.url).pathname;

function lines(path: string): string[] {
  return Deno.readTextFileSync(path).split("\n").filter((l) => l !== "");
}

Deno.test("each event is one JSON line with the envelope and its own fields", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/logs/audit.jsonl`;
  const log = new AuditLog({ path, enabled: true, maxBytes: 1 << 20, keep: 3 });
  log.record("config.change", { key: "model", from: "system", to: "ollama:x", source: "cli" });
  log.record("prompt", { text: "line one\nline two" });
  log.close();
  const [first, second] = lines(path).map((l) => JSON.parse(l));
  assertEquals(first.kind, "config.change");
  assertEquals(first.seq, 1);
  assertEquals(second.seq, 2);
  assertEquals(second.text, "line one\nline two");
  assertEquals(first.session, log.session);
  assertMatch(first.session, /^[0-9a-f]{8}$/);
  assertMatch(first.ts, /^\d{4}-\d\d-\d\dT/);
  assertEquals(typeof first.version, "string");
  assertMatch(first.id, /^[0-9a-f]{16}$/);
  assertEquals((Deno.statSync(path).mode ?? 0) & 0o777, 0o600);
  assertEquals((Deno.statSync(`${dir}/logs`).mode ?? 0) & 0o777, 0o700);
});

Deno.test("a disabled log writes nothing but listeners still see every event", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/logs/audit.jsonl`;
  const log = new AuditLog({ path, enabled: false, maxBytes: 1 << 20, keep: 3 });
  const seen: AuditEvent[] = [];
  log.onEvent((e) => seen.push(e));
  log.record("prompt", { text: "hello" });
  assertEquals(seen.length, 1);
  assertEquals(seen[0].text, "hello");
  let exists = true;
  try {
    Deno.statSync(`${dir}/logs`);
  } catch {
    exists = false;
  }
  assertEquals(exists, false);
});

Deno.test("an event missing a catalogue field is refused before anything is written", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/audit.jsonl`;
  const log = new AuditLog({ path, enabled: true, maxBytes: 1 << 20, keep: 3 });
  assertThrows(() => log.record("config.change", { key: "model" } as never), Error, "source");
  assertEquals(auditFiles(path).length, 0);
});

Deno.test("the log rotates by size and keeps the configured number of files", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/audit.jsonl`;
  const log = new AuditLog({ path, enabled: true, maxBytes: 4096, keep: 3 });
  for (let i = 0; i < 400; i++) log.record("prompt", { text: `event ${i} ${"y".repeat(50)}` });
  log.close();
  const files = auditFiles(path);
  assertEquals(files.map((f) => f.slice(dir.length + 1)), [
    "audit.jsonl.3",
    "audit.jsonl.2",
    "audit.jsonl.1",
    "audit.jsonl",
  ]);
  for (const file of files) assert(Deno.statSync(file).size <= 4096, `${file} is over the bound`);
  // What is kept is the newest events, in order.
  const { events } = readAuditLog(path);
  const seqs = events.map((e) => e.seq);
  assertEquals(seqs[seqs.length - 1], 400);
  for (let i = 1; i < seqs.length; i++) assertEquals(seqs[i], seqs[i - 1] + 1);
});

Deno.test("a rotation listener reads every event before its file is removed, its own rotations and another writer's", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/audit.jsonl`;
  try {
    const log = new AuditLog({ path, enabled: true, maxBytes: 2048, keep: 2 });
    const seen = new Set<number>();
    const told: string[] = [];
    log.onRotation((file) => {
      told.push(file.slice(dir.length + 1));
      try {
        for (const line of lines(file)) seen.add(JSON.parse(line).seq);
      } catch { /* not there yet: fewer files so far */ }
    });
    for (let i = 0; i < 300; i++) log.record("prompt", { text: `event ${i} ${"y".repeat(50)}` });
    // Every event that left the kept files was read while its file was still there.
    const kept = new Set(readAuditLog(path).events.map((e) => e.seq));
    for (let seq = 1; seq <= 300; seq++) {
      assert(kept.has(seq) || seen.has(seq), `event ${seq} was removed unread`);
    }
    assert(told.length > 0 && told.every((f) => f === "audit.jsonl.2"), told.join(" "));

    // Another writer (as another process would) rotates the log; this one, at its next check,
    // tells the oldest kept file, the next to go.
    const other = new AuditLog({ path, enabled: true, maxBytes: 2048, keep: 2 });
    const before = told.length;
    for (let i = 0; i < 40; i++) other.record("prompt", { text: `other ${i} ${"z".repeat(50)}` });
    other.close();
    log.record("prompt", { text: "after the other's rotation " + "y".repeat(2048) });
    assertEquals(told.slice(before), ["audit.jsonl.2"]);
    log.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

async function appendConcurrently(
  path: string,
  processes: number,
  each: number,
  maxBytes: number,
  keep: number,
  /** Which of the processes write in batches (holdWrites). */
  holds: (process: number) => boolean = () => false,
) {
  const children = Array.from({ length: processes }, (_, n) =>
    new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        WORKER,
        path,
        String(each),
        String(maxBytes),
        String(keep),
        holds(n) ? "hold" : "each",
      ],
      stdout: "piped",
      stderr: "inherit",
    }).spawn());
  const outputs = await Promise.all(children.map((c) => c.output()));
  for (const o of outputs) assert(o.success, "a writer process failed");
  return outputs.map((o) => new TextDecoder().decode(o.stdout).trim());
}

function assertComplete(events: AuditEvent[], sessions: string[], each: number) {
  for (const session of sessions) {
    const seqs = events.filter((e) => e.session === session).map((e) => e.seq).sort((a, b) =>
      a - b
    );
    assertEquals(seqs.length, each, `session ${session} lost events`);
    assertEquals(seqs[0], 1);
    assertEquals(seqs[each - 1], each);
  }
}

Deno.test("8 processes × 2,000 events appended at once: none lost, every line parses", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/audit.jsonl`;
  const sessions = await appendConcurrently(path, 8, 2000, 1 << 30, 5);
  const raw = lines(path);
  assertEquals(raw.length, 16000);
  for (const line of raw) JSON.parse(line); // throws on a torn or interleaved line
  const { events, skipped } = readAuditLog(path);
  assertEquals(skipped, []);
  assertComplete(events, sessions, 2000);
});

Deno.test("concurrent appenders across rotation lose nothing", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/audit.jsonl`;
  const sessions = await appendConcurrently(path, 8, 2000, 256 * 1024, 100);
  assert(auditFiles(path).length > 3, "expected the log to rotate");
  const { events, skipped } = readAuditLog(path);
  assertEquals(skipped, []);
  assertEquals(events.length, 16000);
  assertComplete(events, sessions, 2000);
});

Deno.test("held writes reach the file in batches of whole lines, at the bound and at close", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/audit.jsonl`;
    const log = new AuditLog({ path, enabled: true, maxBytes: 1 << 20, keep: 3 });
    const seen: AuditEvent[] = [];
    log.onEvent((e) => seen.push(e));
    log.holdWrites(2048, 60_000);
    log.record("prompt", { text: "first" });
    log.record("prompt", { text: "second" });
    // Held: nothing on disk yet, but listeners saw both at once.
    assertEquals(auditFiles(path).length === 0 ? [] : lines(path), []);
    assertEquals(seen.map((e) => e.text), ["first", "second"]);
    log.flush();
    assertEquals(lines(path).map((l) => JSON.parse(l).text), ["first", "second"]);
    // Past the byte bound the held lines are written without a flush.
    for (let i = 0; i < 40; i++) log.record("prompt", { text: `bulk ${i} ${"b".repeat(60)}` });
    const written = lines(path).length;
    assert(written > 2 && written < 42, `${written} lines after the bound`);
    log.record("prompt", { text: "last" });
    log.close();
    const events = lines(path).map((l) => JSON.parse(l));
    assertEquals(events.length, 43);
    assertEquals(events.at(-1).text, "last");
    for (let i = 1; i < events.length; i++) assertEquals(events[i].seq, events[i - 1].seq + 1);
    // Ids stay 16 hex digits and distinct when drawn from a block.
    assertEquals(new Set(events.map((e) => e.id)).size, events.length);
    for (const e of events) assertMatch(e.id, /^[0-9a-f]{16}$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("held writes waiting past their time go out with the next event", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/audit.jsonl`;
    const log = new AuditLog({ path, enabled: true, maxBytes: 1 << 20, keep: 3 });
    log.holdWrites(1 << 20, 20);
    log.record("prompt", { text: "early" });
    await new Promise((resolve) => setTimeout(resolve, 60));
    log.record("prompt", { text: "late" });
    assertEquals(lines(path).map((l) => JSON.parse(l).text), ["early", "late"]);
    log.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a process that holds its events and exits without closing the log still writes them", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/audit.jsonl`;
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", WORKER, path, "25", String(1 << 20), "3", "exit"],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    assert(run.success, "the writer process failed");
    const session = new TextDecoder().decode(run.stdout).trim();
    const { events, skipped } = readAuditLog(path);
    assertEquals(skipped, []);
    assertComplete(events, [session], 25);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writers holding their events and writers that do not, across rotation, lose nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/audit.jsonl`;
    const sessions = await appendConcurrently(path, 8, 2000, 256 * 1024, 100, (n) => n % 2 === 0);
    assert(auditFiles(path).length > 3, "expected the log to rotate");
    const { events, skipped } = readAuditLog(path);
    assertEquals(skipped, []);
    assertEquals(events.length, 16000);
    assertComplete(events, sessions, 2000);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the reader skips a torn or corrupt line and says where", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/audit.jsonl`;
  const log = new AuditLog({ path, enabled: true, maxBytes: 1 << 20, keep: 3 });
  log.record("prompt", { text: "a" });
  Deno.writeTextFileSync(path, '{"ts":"2026-11-30T00:00:00Z","sess\nnot json at all\n', {
    append: true,
  });
  log.record("prompt", { text: "b" });
  log.close();
  const { events, skipped } = readAuditLog(path);
  assertEquals(events.map((e) => e.text), ["a", "b"]);
  assertEquals(skipped.length, 1);
  assertEquals(skipped[0].lines, [2, 3]);
});

Deno.test("the tailer follows the log across rotation", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/audit.jsonl`;
  const log = new AuditLog({ path, enabled: true, maxBytes: 2048, keep: 10 });
  log.record("prompt", { text: "before" });
  const tailer = new AuditTailer(path);
  tailer.startAtEnd();
  const seen: string[] = [];
  for (let i = 0; i < 100; i++) {
    log.record("prompt", { text: `t${i} ${"z".repeat(40)}` });
    if (i % 7 === 0) seen.push(...tailer.poll().map((e) => String(e.text).split(" ")[0]));
  }
  seen.push(...tailer.poll().map((e) => String(e.text).split(" ")[0]));
  log.close();
  tailer.close();
  assert(auditFiles(path).length > 2, "expected rotation");
  assertEquals(seen, Array.from({ length: 100 }, (_, i) => `t${i}`));
});
