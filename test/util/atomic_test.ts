import { assertEquals } from "../support/assert.ts";
import { removeStaleTemps, writeFileAtomicSync } from "../../src/util/atomic.ts";

Deno.test("an atomic write replaces the file whole, mode 0600, leaving no temporary file", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/state.json`;
  writeFileAtomicSync(path, "one\n");
  writeFileAtomicSync(path, "two\n");
  assertEquals(Deno.readTextFileSync(path), "two\n");
  assertEquals((Deno.statSync(path).mode ?? 0) & 0o777, 0o600);
  assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), ["state.json"]);
});

Deno.test("temporary files a killed writer left are removed once stale, fresh ones kept", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/config.json`;
  Deno.writeTextFileSync(`${dir}/.config.json.123.abcd.tmp`, "partial");
  Deno.writeTextFileSync(`${dir}/.config.json.456.ef01.tmp`, "partial");
  Deno.writeTextFileSync(`${dir}/.other.json.1.aa.tmp`, "not ours");
  const old = new Date(Date.now() - 60 * 60 * 1000);
  Deno.utimeSync(`${dir}/.config.json.123.abcd.tmp`, old, old);
  Deno.utimeSync(`${dir}/.other.json.1.aa.tmp`, old, old);
  assertEquals(removeStaleTemps(path), 1);
  const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  assertEquals(names, [".config.json.456.ef01.tmp", ".other.json.1.aa.tmp"]);
});
