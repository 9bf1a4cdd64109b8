import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { diagnoseRefusal, listRoots, namedPaths } from "../../src/exec/refusal.ts";
import type { WritableSet } from "../../src/platform/types.ts";

const set: WritableSet = {
  roots: ["/home/me/src/app", "/tmp", "/home/me/.cache"],
  home: "/home/me/.wisp",
  homeInsideRoot: false,
  missing: [],
};
const identity = (p: string) => p.replace(/\/$/, "");

Deno.test("the paths each tool's error names are read", () => {
  const cases: Array<[string, string]> = [
    ["sh: 1: cannot create /etc/x: Read-only file system", "/etc/x"],
    ["bash: /etc/y: Read-only file system", "/etc/y"],
    ["touch: cannot touch '/etc/z': Read-only file system", "/etc/z"],
    ["touch: /private/etc/z: Operation not permitted", "/private/etc/z"],
    ["cp: cannot create regular file '/opt/a': Read-only file system", "/opt/a"],
    ["mkdir: cannot create directory ‘/opt/b’: Read-only file system", "/opt/b"],
    ["mkdir: /opt/b2: Operation not permitted", "/opt/b2"],
    ["rm: cannot remove '/opt/c': Read-only file system", "/opt/c"],
    ["mv: cannot move 'a' to '/opt/d': Read-only file system", "/opt/d"],
    ["mv: rename a to /opt/e: Operation not permitted", "/opt/e"],
    ["PermissionError: [Errno 1] Operation not permitted: '/opt/f'", "/opt/f"],
    ["OSError: [Errno 30] Read-only file system: '/opt/g'", "/opt/g"],
    ["Error: /opt/homebrew/Cellar is not writable.", "/opt/homebrew/Cellar"],
  ];
  for (const [line, path] of cases) assertEquals(namedPaths(line).paths, [path], line);
  const brew = namedPaths(
    "Error: The following directories are not writable by your user:\n  /opt/homebrew\n  /Users/me/Library/Logs/Homebrew\n\nYou should change the ownership",
  );
  assertEquals(brew.paths, ["/opt/homebrew", "/Users/me/Library/Logs/Homebrew"]);
});

Deno.test("a path outside the roots is a refusal, named with the roots; inside, it is not the sandbox's doing", () => {
  const refused = diagnoseRefusal({
    output: "touch: cannot touch '/etc/x': Read-only file system",
    exitStatus: 1,
    cwd: "/home/me/src/app",
    set,
    allowOutside: true,
    realpath: identity,
  })!;
  assertEquals(refused.verdict, "refused");
  assertEquals(refused.paths, ["/etc/x"]);
  assertStringIncludes(
    refused.line,
    "sandbox: the sandbox refused writing /etc/x (outside the writable roots: /home/me/src/app, /tmp, /home/me/.cache)",
  );
  assert(
    refused.line.endsWith(
      "; if it must, ask again with outsideSandbox true (the person approves each run)",
    ),
  );
  const inside = diagnoseRefusal({
    output: "touch: cannot touch 'x': Permission denied",
    exitStatus: 1,
    cwd: "/home/me/src/app",
    set,
    allowOutside: true,
    realpath: identity,
  });
  assertEquals(inside, undefined);
  const ok = diagnoseRefusal({
    output: "touch: cannot touch '/etc/x': Read-only file system",
    exitStatus: 0,
    cwd: "/",
    set,
    allowOutside: true,
    realpath: identity,
  });
  assertEquals(ok, undefined);
});

Deno.test("relative paths resolve from the command's directory, as the kernel would", () => {
  const r = diagnoseRefusal({
    output: "mkdir: cannot create directory '../elsewhere': Read-only file system",
    exitStatus: 1,
    cwd: "/home/me/src/app",
    set,
    allowOutside: false,
    realpath: identity,
  })!;
  assertEquals(r.paths, ["/home/me/src/elsewhere"]);
  assert(!r.line.includes("outsideSandbox"), "no suggestion when running outside is off");
});

Deno.test("wisp's home is named as such, and at most three paths are listed", () => {
  const home = diagnoseRefusal({
    output: "sh: 1: cannot create /home/me/.wisp/approvals.json: Read-only file system",
    exitStatus: 2,
    cwd: "/",
    set,
    allowOutside: true,
    realpath: identity,
  })!;
  assertStringIncludes(home.line, "it is in wisp's own home (/home/me/.wisp)");
  const many = diagnoseRefusal({
    output: ["/a", "/b", "/c", "/d", "/e"].map((p) =>
      `touch: cannot touch '${p}': Read-only file system`
    ).join("\n"),
    exitStatus: 1,
    cwd: "/",
    set,
    allowOutside: true,
    realpath: identity,
  })!;
  assertEquals(many.paths, ["/a", "/b", "/c"]);
  assertStringIncludes(many.line, "/a, /b, /c and 2 more");
});

Deno.test("an error with no path is a guess that says so and names the policy as having passed", () => {
  const r = diagnoseRefusal({
    output: "Error: Operation not permitted",
    exitStatus: 1,
    cwd: "/",
    set,
    allowOutside: true,
    realpath: identity,
  })!;
  assertEquals(r.verdict, "guess");
  assertStringIncludes(r.line, "a guess");
  assertStringIncludes(r.line, "the policy allowed the command");
  assertEquals(
    diagnoseRefusal({
      output: "Permission denied",
      exitStatus: 1,
      cwd: "/",
      set,
      allowOutside: true,
      realpath: identity,
    }),
    undefined,
  );
});

Deno.test("the roots are listed in about 240 bytes", () => {
  const roots = Array.from({ length: 30 }, (_, i) => `/very/long/path/number/${i}/of/many`);
  const text = listRoots(roots);
  assert(text.length < 280);
  assert(text.endsWith("…"));
});
