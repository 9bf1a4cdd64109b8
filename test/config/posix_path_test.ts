/** The home's path helpers give what node:path gives, on the shapes WISP_HOME and HOME take. */
import { join, normalize, resolve } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { joinPath, normalisePath, resolvePath } from "../../src/config/posix_path.ts";

const PATHS = [
  "",
  ".",
  "..",
  "/",
  "//",
  "/a",
  "/a/",
  "a",
  "a/",
  "a//b",
  "./a",
  "../a",
  "a/../..",
  "/a/../../b",
  "/a/./b/../c/",
  "~/x",
  "a/b/../../..",
  "/home/me/.wisp",
  "rel/home",
];

Deno.test("normalising, joining and resolving as node:path does", () => {
  for (const path of PATHS) {
    assertEquals(normalisePath(path), normalize(path), `normalise ${JSON.stringify(path)}`);
    assertEquals(resolvePath(path), resolve(path), `resolve ${JSON.stringify(path)}`);
    for (const other of PATHS) {
      assertEquals(joinPath(path, other), join(path, other), `join ${path} ${other}`);
    }
  }
});
