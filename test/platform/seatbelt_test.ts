/**
 * The Seatbelt profile generator, by golden files of its text
 * (test/fixtures/exec/seatbelt/). Regenerate with WISP_UPDATE_GOLDEN=1 after
 * a deliberate change, and read the diff.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { sandboxExecLaunch, seatbeltProfile } from "../../src/platform/darwin/seatbelt.ts";
import type { LaunchSpec } from "../../src/platform/types.ts";

const GOLDEN = fileURLToPath(new URL("../fixtures/exec/seatbelt/", import.meta.url));
const update = Deno.env.get("WISP_UPDATE_GOLDEN") === "1";

function golden(name: string, spec: LaunchSpec): void {
  const profile = seatbeltProfile(spec);
  const text = profile.text + "\n; parameters:\n" +
    profile.params.map(([k, v]) => `; ${k}=${v}`).join("\n") + "\n";
  const path = join(GOLDEN, `${name}.sb`);
  if (update) Deno.writeTextFileSync(path, text);
  assertEquals(text, Deno.readTextFileSync(path), `${name}.sb differs from the generated profile`);
}

const base: LaunchSpec = {
  mode: "confined",
  writable: {
    roots: [
      "/Users/me/src/project",
      "/private/tmp",
      "/private/var/folders/ab/xyz/T",
      "/private/var/folders/ab/xyz/C",
    ],
    home: "/Users/me/.wisp",
    homeInsideRoot: false,
    missing: [],
  },
  allowNetwork: true,
  cwd: "/Users/me/src/project",
  inner: ["/bin/bash", "-c", "supervisor"],
};

Deno.test("golden: a confined command with the network", () => golden("confined", base));

Deno.test("golden: the network off", () => golden("no-network", { ...base, allowNetwork: false }));

Deno.test("golden: wisp's home inside the project — denied after the allow rule, with a note, its folders pinned", () =>
  golden("home-inside", {
    ...base,
    writable: { ...base.writable, home: "/Users/me/src/project/tools/.wisp", homeInsideRoot: true },
  }));

Deno.test("golden: outside the sandbox, the allow-all profile", () =>
  golden("open", { ...base, mode: "open" }));

Deno.test("paths never enter the profile text: they are parameters, so no path can change a rule", () => {
  const evil = '/Users/me/x") (allow file-write* (subpath "/")) ("';
  const spec: LaunchSpec = { ...base, writable: { ...base.writable, roots: [evil] } };
  const launch = sandboxExecLaunch(spec);
  assert(!launch.profile!.includes(evil));
  const d = launch.args.indexOf(`WRITABLE_ROOT_0=${evil}`);
  assertEquals(launch.args[d - 1], "-D");
  assertEquals(launch.args.slice(-3), ["/bin/bash", "-c", "supervisor"]);
  assertEquals(launch.args[0], "-p");
});

Deno.test("the home's deny rule comes after every allow rule (Seatbelt applies the last match)", () => {
  const text = seatbeltProfile(base).text;
  const lastAllow = text.lastIndexOf("(allow file-write");
  const homeDeny = text.indexOf('(subpath (param "WISP_HOME"))');
  assert(lastAllow >= 0 && homeDeny > lastAllow);
  assert(text.indexOf("(deny file-write*)") < text.indexOf("(allow file-write*"));
});
