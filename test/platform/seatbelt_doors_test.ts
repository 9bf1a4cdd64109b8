/**
 * The Seatbelt profile's other doors, by golden file like seatbelt_test.ts:
 * the sockets of host programs that would act for a command are denied by
 * parameter, System V IPC is denied, and POSIX shared memory may be read but
 * not created, written or removed. Regenerate with WISP_UPDATE_GOLDEN=1.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { seatbeltProfile } from "../../src/platform/darwin/seatbelt.ts";
import type { LaunchSpec } from "../../src/platform/types.ts";

const GOLDEN = fileURLToPath(new URL("../fixtures/exec/seatbelt/", import.meta.url));
const update = Deno.env.get("WISP_UPDATE_GOLDEN") === "1";

const spec: LaunchSpec = {
  mode: "confined",
  writable: {
    roots: ["/Users/me/src/project", "/private/tmp"],
    home: "/Users/me/.wisp",
    homeInsideRoot: false,
    missing: [],
    masked: [
      "/Users/me/.docker/run/docker.sock",
      "/private/tmp/tmux-501/default",
      "/private/tmp/com.apple.launchd.abc/Listeners",
    ],
  },
  allowNetwork: true,
  cwd: "/Users/me/src/project",
  inner: ["/bin/bash", "-c", "supervisor"],
};

Deno.test("golden: host programs' sockets denied by parameter; System V IPC and POSIX shared memory writes denied", () => {
  const profile = seatbeltProfile(spec);
  const text = profile.text + "\n; parameters:\n" +
    profile.params.map(([k, v]) => `; ${k}=${v}`).join("\n") + "\n";
  const path = join(GOLDEN, "doors.sb");
  if (update) Deno.writeTextFileSync(path, text);
  assertEquals(text, Deno.readTextFileSync(path), "doors.sb differs from the generated profile");
  for (const socket of spec.writable.masked!) assert(!profile.text.includes(socket), socket);
  assertEquals(
    profile.params.filter(([k]) => k.startsWith("HIDDEN_SOCKET_")).map(([, v]) => v),
    spec.writable.masked,
  );
});

Deno.test("the IPC rules hold in every confined profile and never in the allow-all one", () => {
  const bare = seatbeltProfile({ ...spec, writable: { ...spec.writable, masked: [] } }).text;
  assert(bare.includes("(deny ipc-sysv*)"));
  assert(bare.includes("(deny ipc-posix-shm-write-create ipc-posix-shm-write-data"));
  assert(!bare.includes("HIDDEN_SOCKET"), "no empty socket rule");
  const open = seatbeltProfile({ ...spec, mode: "open" }).text;
  assert(!open.includes("ipc") && !open.includes("unix-socket"));
});
