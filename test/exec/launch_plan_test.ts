/**
 * The pure parts of the runner's launch plan: which program starts the
 * command, with what arguments, and what the person is warned of about the
 * writable set.
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { launchArgv, sandboxWarnings } from "../../src/exec/runner.ts";
import { darwin, linux } from "../../src/platform/index.ts";
import type { WritableSet } from "../../src/platform/types.ts";

const SET: WritableSet = {
  roots: ["/srv/project"],
  home: "/home/me/.wisp",
  homeInsideRoot: false,
  missing: ["/opt/cache"],
  protected: [],
} as unknown as WritableSet;

Deno.test("plain: the supervisor alone, whatever the platform", () => {
  for (const platform of [linux, darwin]) {
    const { program, args } = launchArgv({
      launch: "plain",
      platform,
      command: "echo hi",
      timeout: 5,
      capture: true,
      writable: SET,
      allowNetwork: false,
      cwd: "/srv/project",
    });
    assertEquals(program, "/bin/bash"); // the process-group supervisor
    assert(args.some((a) => a.includes("echo hi")), args.join(" "));
  }
});

Deno.test("confined on Linux: bubblewrap around the supervisor, the command inside it", () => {
  const { program, args } = launchArgv({
    launch: "confined",
    platform: linux,
    command: "make test",
    timeout: 0,
    capture: true,
    writable: SET,
    allowNetwork: false,
    cwd: "/srv/project",
  });
  assertEquals(program, "bwrap");
  assert(args.includes("--unshare-net"), "no network unless allowed");
  assert(args.some((a) => a.includes("make test")), "the command is in the launcher's argv");
});

Deno.test("warnings: refused, unprotected, shared and missing paths each get a sentence", () => {
  const lines = sandboxWarnings({
    ...SET,
    refused: ["/srv/link"],
    unprotected: ["/srv/project/.git/hooks"],
    shared: ["/srv/project/.envrc"],
  } as WritableSet, "linux");
  assertEquals(lines.length, 4);
  assertMatch(lines[0], /\/srv\/link is not writable in the sandbox/);
  assertMatch(lines[1], /protected but writable here/);
  assertMatch(lines[2], /another hard link/);
  assertMatch(lines[3], /\/opt\/cache does not exist/);
  // A Mac allows a missing path by its prefix: no warning there.
  assertEquals(sandboxWarnings(SET, "darwin"), []);
});
