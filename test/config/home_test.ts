/**
 * Where wisp's home is: WISP_HOME when set (an absolute one needs no HOME,
 * since MCP clients often start servers with an environment of their own),
 * else ~/.wisp; without either, one sentence.
 */
import { assertEquals, assertThrows } from "../support/assert.ts";
import { ensurePrivateDir, homeRoot } from "../../src/config/home.ts";

const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("an absolute WISP_HOME needs no HOME; ~ in it does", () => {
  assertEquals(homeRoot(envOf({ WISP_HOME: "/srv/wisp-home" })), "/srv/wisp-home");
  assertEquals(homeRoot(envOf({ WISP_HOME: "~/w", HOME: "/home/ann" })), "/home/ann/w");
  assertEquals(homeRoot(envOf({ HOME: "/home/ann" })), "/home/ann/.wisp");
  assertThrows(() => homeRoot(envOf({ WISP_HOME: "~/w" })), Error, "HOME is not set");
  assertThrows(() => homeRoot(envOf({})), Error, "HOME is not set");
});

Deno.test("a home folder is tightened to its owner, never widened", () => {
  const root = Deno.makeTempDirSync({ prefix: "wisp-home-mode-" });
  try {
    const modeOf = (path: string) => (Deno.statSync(path).mode ?? 0) & 0o777;
    const cases: [number, number][] = [
      [0o755, 0o700],
      [0o777, 0o700],
      [0o700, 0o700],
      // Read-only by its owner: stays read-only (before, wisp made it writable again).
      [0o500, 0o500],
      [0o555, 0o500],
    ];
    for (const [before, after] of cases) {
      const dir = `${root}/${before.toString(8)}`;
      Deno.mkdirSync(dir);
      Deno.chmodSync(dir, before);
      ensurePrivateDir(dir);
      assertEquals(modeOf(dir).toString(8), after.toString(8), `from ${before.toString(8)}`);
      Deno.chmodSync(dir, 0o700);
    }
    const fresh = `${root}/a/b`;
    ensurePrivateDir(fresh);
    assertEquals(modeOf(fresh), 0o700);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
