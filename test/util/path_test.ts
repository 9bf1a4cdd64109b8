/**
 * src/util/path.ts against node:path's POSIX functions and node:url's
 * fileURLToPath: every path of up to six characters over `/`, `.` and `a`
 * (which covers roots, doubled slashes, `.`/`..` segments and trailing
 * slashes), a set of longer real-looking paths, and pairs of them for join
 * and resolve. The helpers must answer exactly as node does.
 */
import { assertEquals, assertThrows } from "../support/assert.ts";
import * as node from "node:path";
import { fileURLToPath } from "node:url";
import {
  basename,
  dirname,
  fromFileUrl,
  isAbsolute,
  join,
  normalize,
  resolve,
  sep,
} from "../../src/util/path.ts";

/** Every string of length 0..max over the alphabet. */
function strings(alphabet: string[], max: number): string[] {
  const out = [""];
  let layer = [""];
  for (let n = 1; n <= max; n++) {
    layer = layer.flatMap((s) => alphabet.map((c) => s + c));
    out.push(...layer);
  }
  return out;
}

const SHORT = strings(["/", ".", "a"], 6);
const REAL = [
  "/home/u/.wisp/config.json",
  "/home/u/src/app/",
  "~/notes",
  "./node_modules/.bin/tsc",
  "../../etc/passwd",
  "/tmp//x/./y/../z",
  "a b/c d",
  "/..",
  "/../a",
  "..a/.b/c..",
  "/a/b/c/../../../../d",
  "//srv//share",
];
const ALL = [...SHORT, ...REAL];

Deno.test("normalize, dirname, basename and isAbsolute answer as node:path's for every path", () => {
  for (const path of ALL) {
    assertEquals(normalize(path), node.posix.normalize(path), `normalize(${JSON.stringify(path)})`);
    assertEquals(dirname(path), node.posix.dirname(path), `dirname(${JSON.stringify(path)})`);
    assertEquals(basename(path), node.posix.basename(path), `basename(${JSON.stringify(path)})`);
    assertEquals(isAbsolute(path), node.posix.isAbsolute(path), `isAbsolute(${path})`);
  }
  assertEquals(sep, node.posix.sep);
});

const PAIRS = strings(["/", ".", "a"], 3).concat(REAL);

Deno.test("join and resolve answer as node:path's for one, two and three parts", () => {
  assertEquals(join(), node.posix.join());
  assertEquals(resolve(), node.posix.resolve());
  for (const a of ALL) {
    assertEquals(join(a), node.posix.join(a), `join(${JSON.stringify(a)})`);
    assertEquals(resolve(a), node.posix.resolve(a), `resolve(${JSON.stringify(a)})`);
  }
  for (const a of PAIRS) {
    for (const b of PAIRS) {
      const what = JSON.stringify([a, b]);
      assertEquals(join(a, b), node.posix.join(a, b), `join${what}`);
      assertEquals(resolve(a, b), node.posix.resolve(a, b), `resolve${what}`);
    }
  }
  for (const parts of [["/a", "", "b"], ["a", "/b", "c"], ["", "", ""], ["x", "..", "..", "y"]]) {
    assertEquals(join(...parts), node.posix.join(...parts), `join${JSON.stringify(parts)}`);
    assertEquals(
      resolve(...parts),
      node.posix.resolve(...parts),
      `resolve${JSON.stringify(parts)}`,
    );
  }
});

Deno.test("fromFileUrl decodes a file: URL as fileURLToPath does and refuses what it refuses", () => {
  const urls = [
    "file:///home/u/wisp/main.ts",
    "file:///tmp/a%20b/c%25d.ts",
    "file:///%E2%9C%93/x",
    "file://localhost/etc/hosts",
    "file:///a/b/",
    import.meta.url,
  ];
  for (const url of urls) {
    assertEquals(fromFileUrl(url), fileURLToPath(url), url);
    assertEquals(fromFileUrl(new URL(url)), fileURLToPath(new URL(url)), url);
  }
  for (
    const url of [
      "https://example.com/a",
      "file://server/share/a",
      "file:///a%2Fb",
      "file:///a%2fb",
    ]
  ) {
    assertThrows(() => fileURLToPath(url));
    assertThrows(() => fromFileUrl(url), TypeError);
  }
});
