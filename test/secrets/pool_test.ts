/**
 * The scanning thread pool: real workers over real files give exactly what
 * one thread gives, in the order the files were listed; errors keep their
 * kind; a file too large for a worker is handed back; a listing that fails
 * part-way fails after the files listed before it. And `wisp scan` over a
 * tree prints and audits the same with WISP_SCAN_THREADS=2 as without.
 */
import { join } from "node:path";
import { assert, assertEquals, assertRejects } from "../support/assert.ts";
import { runWisp, tempDir } from "../support/wisp.ts";
import {
  type FileOutcome,
  poolSize,
  reviveError,
  scanInOrder,
  ScanPool,
} from "../../src/secrets/pool.ts";
import { scanFile, WHOLE_FILE_BYTES } from "../../src/secrets/scan_input.ts";
import { walkFiles } from "../../src/secrets/input.ts";
import type { ScanOptions, SecretFinding } from "../../src/secrets/types.ts";
import { CORPUS_DIR } from "./make_corpus.ts";

async function collect(outcomes: AsyncIterable<FileOutcome>): Promise<FileOutcome[]> {
  const out: FileOutcome[] = [];
  for await (const o of outcomes) out.push(o);
  return out;
}

/** Two paths, then the error a folder that cannot be read raises. */
function* failingListing(path: string): Generator<string> {
  yield path;
  yield path;
  throw new Deno.errors.PermissionDenied("a folder cannot be read");
}

async function sequential(paths: string[], options: ScanOptions): Promise<FileOutcome[]> {
  const out: FileOutcome[] = [];
  for (const path of paths) {
    const findings: SecretFinding[] = [];
    const result = await scanFile(path, options, (found) => findings.push(...found));
    out.push({ path, kind: "scanned", result, findings });
  }
  return out;
}

Deno.test("pool: two workers find exactly what one thread finds, in the listed order", async () => {
  const paths = [...walkFiles(CORPUS_DIR)];
  assert(paths.length > 20, "the corpus has enough files to keep two workers busy");
  const pool = new ScanPool(2);
  try {
    for (const options of [{}, { personal: true }, { thorough: true }] as ScanOptions[]) {
      const pooled = await collect(scanInOrder(pool, paths, options));
      const alone = await sequential(paths, options);
      assertEquals(pooled, alone, JSON.stringify(options));
      const total = pooled.reduce((n, o) => n + (o.kind === "scanned" ? o.findings.length : 0), 0);
      assert(total > 50, `the corpus yields findings (${total})`);
    }
  } finally {
    pool.close();
  }
});

Deno.test("pool: a missing file is a NotFound error; a large file is handed back; a listing error comes last", async () => {
  const dir = await tempDir();
  const pool = new ScanPool(1);
  try {
    const small = join(dir, "small.env");
    await Deno.writeTextFile(small, "PORT=8080\n");
    const large = join(dir, "large.log");
    await Deno.writeTextFile(large, "x".repeat(WHOLE_FILE_BYTES + 1));
    const missing = join(dir, "missing.txt");
    const outcomes = await collect(scanInOrder(pool, [small, missing, large], {}));
    assertEquals(outcomes.map((o) => [o.path, o.kind]), [
      [small, "scanned"],
      [missing, "error"],
      [large, "large"],
    ]);
    const failure = outcomes[1];
    assert(failure.kind === "error" && failure.error instanceof Deno.errors.NotFound);

    const seen: string[] = [];
    await assertRejects(async () => {
      for await (const o of scanInOrder(pool, failingListing(small), {})) seen.push(o.kind);
    }, Deno.errors.PermissionDenied);
    assertEquals(seen, ["scanned", "scanned"]);
  } finally {
    pool.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pool: size from WISP_SCAN_THREADS, off by default, never more than the cores", () => {
  assertEquals(poolSize(undefined, 8), 0);
  assertEquals(poolSize("", 8), 0);
  assertEquals(poolSize("0", 8), 0);
  assertEquals(poolSize("2", 8), 2);
  assertEquals(poolSize("6", 2), 2);
  assertEquals(poolSize("1", 1), 1);
  assertEquals(poolSize("two", 8), 0);
  assertEquals(poolSize("-1", 8), 0);
});

Deno.test("pool: errors come back with their Deno class, others as plain errors", () => {
  assert(reviveError({ name: "NotFound", message: "x" }) instanceof Deno.errors.NotFound);
  assert(
    reviveError({ name: "PermissionDenied", message: "x" }) instanceof Deno.errors.PermissionDenied,
  );
  const other = reviveError({ name: "TypeError", message: "boom" });
  assertEquals([other.name, other.message, other instanceof Deno.errors.NotFound], [
    "TypeError",
    "boom",
    false,
  ]);
  assertEquals(reviveError({ name: "toString", message: "x" }).name, "toString");
});

Deno.test("wisp scan over a tree: the same output, exit code and audit with two threads as with one", async () => {
  const dir = await tempDir();
  const homes = [await tempDir(), await tempDir()];
  try {
    // The corpus twice over (more than the pool's threshold of files), and a binary file.
    for (const copy of ["a", "b"]) {
      for (const path of walkFiles(CORPUS_DIR)) {
        const target = join(dir, copy, path.slice(CORPUS_DIR.length));
        await Deno.mkdir(join(target, ".."), { recursive: true });
        await Deno.copyFile(path, target);
      }
    }
    await Deno.writeFile(join(dir, "a", "logo.png"), new Uint8Array([0x89, 0x50, 0, 0, 13]));
    const runs = [];
    for (const [i, threads] of ["0", "2"].entries()) {
      runs.push(
        await runWisp(["scan", "--json", "--personal", "a", "b"], {
          home: homes[i],
          cwd: dir,
          env: { WISP_SCAN_THREADS: threads, WISP_LOG: "debug" },
        }),
      );
    }
    const [one, two] = runs;
    assertEquals(one.code, 1, one.stderr);
    // The pool really ran (and only when asked for); apart from saying so, nothing differs.
    const note = "debug: scanning with 2 worker threads\n";
    assert(two.stderr.startsWith(note), two.stderr);
    assert(!one.stderr.includes("worker threads"), one.stderr);
    const twoStderr = two.stderr.slice(note.length);
    assertEquals([two.code, two.stdout, twoStderr], [one.code, one.stdout, one.stderr]);
    assert(JSON.parse(one.stdout).findings.length > 100);
    assert(
      one.stderr.includes("a/logo.png is binary; its printable runs were scanned"),
      one.stderr,
    );
    const audits = [];
    for (const home of homes) {
      const lines = (await Deno.readTextFile(join(home, "logs", "audit.jsonl"))).trim().split("\n");
      audits.push(
        lines.map((l) => JSON.parse(l)).filter((e) => e.kind === "secrets.scan").map((e) =>
          JSON.stringify([e.path, e.counts, e.binary ?? false])
        ),
      );
    }
    assertEquals(audits[1], audits[0]);
    assert(audits[0].length > 40);
  } finally {
    await Deno.remove(dir, { recursive: true });
    for (const home of homes) await Deno.remove(home, { recursive: true });
  }
});
