/**
 * wisp's own node_modules unshared: each hard-linked file gets a private copy
 * with the same bytes and mode, other names keep theirs, and a stamp keyed to
 * the layout records that it was done.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { join } from "node:path";
import { unshareOwnModules } from "../../src/platform/own_links.ts";

Deno.test("hard-linked module files get private copies (bytes and mode kept); the layout is stamped", () => {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "wisp-own-links-" }));
  try {
    const cache = join(base, "cache/pkg/index.js");
    Deno.mkdirSync(join(base, "cache/pkg"), { recursive: true });
    Deno.writeTextFileSync(cache, "export const v = 1;\n");
    Deno.chmodSync(cache, 0o640);
    const source = join(base, "wisp");
    Deno.mkdirSync(join(source, "node_modules/.deno/pkg@1/node_modules/pkg"), { recursive: true });
    Deno.writeTextFileSync(join(source, "node_modules/.deno/.setup-cache.bin"), "x");
    const own = join(source, "node_modules/.deno/pkg@1/node_modules/pkg/index.js");
    Deno.linkSync(cache, own);
    Deno.writeTextFileSync(join(source, "node_modules/.deno/pkg@1/node_modules/pkg/alone.js"), "");
    Deno.symlinkSync(".deno/pkg@1/node_modules/pkg", join(source, "node_modules/pkg"));

    const result = unshareOwnModules(source);
    assertEquals(result, { copied: 1, shared: [] });
    assertEquals(Deno.statSync(own).nlink, 1);
    assertEquals(Deno.statSync(cache).nlink, 1, "the cache keeps its own file");
    assertEquals(Deno.readTextFileSync(own), "export const v = 1;\n");
    assertEquals(Deno.statSync(own).mode! & 0o777, 0o640);
    assert(Deno.lstatSync(join(source, "node_modules/pkg")).isSymlink, "links are left alone");
    const stamp = Deno.readTextFileSync(join(source, "node_modules/.wisp-private-links"));
    assert(stamp.startsWith("v1 .deno/.setup-cache.bin "), stamp);
    assertEquals(
      [...Deno.readDirSync(join(source, "node_modules/.deno/pkg@1/node_modules/pkg"))]
        .map((e) => e.name).sort(),
      ["alone.js", "index.js"],
      "no temporary copy is left behind",
    );
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("a folder with no node_modules (a compiled build) is nothing to do", () => {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "wisp-own-links-" }));
  try {
    assertEquals(unshareOwnModules(base), { copied: 0, shared: [] });
    assert(![...Deno.readDirSync(base)].length);
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});
