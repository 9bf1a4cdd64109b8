/**
 * dependency_audit over lockfiles: the real package-lock npm wrote for the
 * fixture tools and this repository's deno.lock, and hand-written lockfiles of
 * the other formats carrying each case the audit marks (see the fixtures' README).
 */
import { assert, assertEquals, assertMatch, assertThrows } from "../support/assert.ts";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { auditLockfile, LockfileError, renderAudits } from "../../src/condense/lockfiles.ts";

const DIR = fileURLToPath(new URL("../fixtures/condense/lockfiles/", import.meta.url));
const audit = (name: string) => auditLockfile(name, Deno.readTextFileSync(join(DIR, name)));
const marksOf = (a: ReturnType<typeof audit>, name: string) =>
  a.packages.find((p) => p.name === name)?.marks ?? [];

Deno.test("package-lock v3 (real): every package, the names at several versions, install scripts", () => {
  const a = audit("package-lock.json");
  const doc = JSON.parse(Deno.readTextFileSync(join(DIR, "package-lock.json")));
  const expected =
    Object.entries(doc.packages as Record<string, { link?: boolean }>).filter(([k, v]) =>
      k !== "" && !v.link
    ).length;
  assertEquals(a.packages.length, expected);
  assertEquals(a.format, "package-lock v3");
  // Counted independently: a name's versions across all its install paths.
  const versions = new Map<string, Set<string>>();
  for (
    const [k, v] of Object.entries(
      doc.packages as Record<string, { version: string; name?: string; link?: boolean }>,
    )
  ) {
    if (k === "" || v.link) continue;
    const name = v.name ?? k.slice(k.lastIndexOf("node_modules/") + 13);
    versions.set(name, (versions.get(name) ?? new Set()).add(v.version));
  }
  assertEquals(a.duplicates.length, [...versions.values()].filter((s) => s.size > 1).length);
  const scripts =
    Object.values(doc.packages as Record<string, { hasInstallScript?: boolean }>).filter((v) =>
      v.hasInstallScript
    ).length;
  assertEquals(a.packages.filter((p) => p.marks.includes("runs install scripts")).length, scripts);
  assert(scripts > 0);
});

Deno.test("package-lock v1: git, a local path, plain http without integrity, nested duplicates", () => {
  const a = audit("v1/package-lock.json");
  assertEquals(a.format, "package-lock v1");
  assertEquals(marksOf(a, "old-mirror"), [
    "from a URL outside the registry",
    "over plain http",
    "no integrity hash",
  ]);
  assertEquals(a.duplicates, [{ name: "ansi-styles", versions: ["3.2.1", "4.3.0"] }]);
  assertEquals(marksOf(a, "left-pad"), []);
  assertEquals(marksOf(a, "forked-lib"), ["from git", "no integrity hash"]);
  assertEquals(marksOf(a, "local-util"), ["from a local path"]);
});

Deno.test("deno.lock (real): npm packages with integrity, duplicates by name", () => {
  const a = audit("deno.lock");
  const doc = JSON.parse(Deno.readTextFileSync(join(DIR, "deno.lock")));
  assertEquals(
    a.packages.length,
    Object.keys(doc.npm ?? {}).length + Object.keys(doc.jsr ?? {}).length +
      Object.keys(doc.remote ?? {}).length,
  );
  assert(a.packages.every((p) => !p.marks.includes("no integrity hash")));
  assert(a.packages.some((p) => p.name === "npm:zod"));
});

Deno.test("Cargo.lock: git and path crates, another registry without checksum, syn at two versions", () => {
  const a = audit("Cargo.lock");
  assertEquals(a.packages.length, 6);
  assertEquals(marksOf(a, "patched-log"), ["from git"]);
  assertEquals(marksOf(a, "app"), ["a path or workspace crate"]);
  assertEquals(marksOf(a, "internal-crate"), ["from another registry", "no checksum"]);
  assertEquals(marksOf(a, "serde"), []);
  assertEquals(a.duplicates, [{ name: "syn", versions: ["1.0.109", "2.0.87"] }]);
});

Deno.test("go.sum: only modules whose code is hashed; pseudo-versions and +incompatible marked", () => {
  const a = audit("go.sum");
  assertEquals(a.packages.map((p) => `${p.name}@${p.version}`).sort(), [
    "github.com/google/uuid@v1.6.0",
    "github.com/old/thing@v2.3.0+incompatible",
    "github.com/pkg/errors@v0.9.1",
    "golang.org/x/sys@v0.0.0-20220908164124-27713097b956",
    "golang.org/x/sys@v0.26.0",
  ]);
  assertEquals(marksOf(a, "github.com/old/thing"), [
    "+incompatible (a major version without a go.mod)",
  ]);
  assertEquals(a.packages.find((p) => p.version.startsWith("v0.0.0"))!.marks, [
    "an unreleased commit (pseudo-version)",
  ]);
  assertEquals(a.duplicates, [{
    name: "golang.org/x/sys",
    versions: ["v0.0.0-20220908164124-27713097b956", "v0.26.0"],
  }]);
});

Deno.test("poetry.lock and uv.lock: git, local and other-index sources", () => {
  const p = audit("poetry.lock");
  assertEquals(p.packages.length, 3);
  assertEquals(marksOf(p, "internal-tools"), ["from a git", "optional"]);
  assertEquals(marksOf(p, "vendored"), ["from a local path"]);
  assertEquals(marksOf(p, "requests"), []);
  const u = audit("uv.lock");
  assertEquals(u.packages.length, 4);
  assertEquals(marksOf(u, "mylib"), ["from git"]);
  assertEquals(marksOf(u, "legacy-index"), ["from another package index", "over plain http"]);
  assertEquals(marksOf(u, "httpx"), []);
  assertEquals(marksOf(u, "app"), ["the project or a workspace member"]);
});

Deno.test("Package.resolved: a branch pin, a local package, a version pin unmarked", () => {
  const a = audit("Package.resolved");
  assertEquals(a.format, "Package.resolved v3");
  assertEquals(marksOf(a, "swift-argument-parser"), []);
  assertEquals(marksOf(a, "swift-nightly-thing"), ["pinned to branch main"]);
  assertEquals(marksOf(a, "local-kit"), [
    "pinned to a revision, not a version",
    "from a local path",
  ]);
});

Deno.test("rendering: one line per lockfile, duplicates and marks summed; unknown names and broken files refused", () => {
  const text = renderAudits([audit("Cargo.lock"), audit("v1/package-lock.json")]);
  assertMatch(text, /^Cargo\.lock \(Cargo\.lock v4\): 6 packages, 1 at several versions, 3 marked/);
  assertMatch(text, /several versions: syn 1\.0\.109, 2\.0\.87/);
  assertMatch(text, /from git: 1 \(patched-log@0\.4\.22\)/);
  assertThrows(() => auditLockfile("yarn.lock", ""), LockfileError, "is not a lockfile wisp reads");
  assertThrows(() => auditLockfile("package-lock.json", "{"), LockfileError, "could not be read");
});
