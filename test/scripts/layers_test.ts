/**
 * The layering check (scripts/layers.ts): the repository's own imports all
 * point down the data path, and a wrong one — of every kind of import — is
 * caught, by the function and by the script's exit status.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { FLOORS, importsOf, violations, wrongImport } from "../../scripts/layers.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SCRIPT = join(ROOT, "scripts/layers.ts");

/** A scratch repository: main.ts and the given files under it. */
function scratchTree(files: Record<string, string>): string {
  const root = Deno.makeTempDirSync({ prefix: "wisp-layers-" });
  Deno.writeTextFileSync(join(root, "main.ts"), 'import "./src/cli/run.ts";\n');
  for (const [path, text] of Object.entries(files)) {
    Deno.mkdirSync(dirname(join(root, path)), { recursive: true });
    Deno.writeTextFileSync(join(root, path), text);
  }
  return root;
}

Deno.test("every import in the repository points down the data path", () => {
  const wrong = violations(ROOT);
  assertEquals(
    wrong.map((v) => `${v.file}:${v.line} → ${v.target}: ${v.reason}`),
    [],
  );
});

Deno.test("every folder under src/ sits on a floor", () => {
  const placed = new Set(FLOORS.flat());
  for (const entry of Deno.readDirSync(join(ROOT, "src"))) {
    assert(placed.has(entry.name), `src/${entry.name} is on no floor in scripts/layers.ts`);
  }
});

Deno.test("a deliberately wrong import is caught, whatever its form", () => {
  const root = scratchTree({
    "src/cli/run.ts": 'import "../faces/respond.ts";\n',
    "src/faces/respond.ts": 'import "../exec/runner.ts";\n',
    // Each of these points up: exec is below cli, tools, agent and faces.
    "src/exec/runner.ts": [
      'import { a } from "../cli/io.ts";',
      'import type { B } from "../tools/tool.ts";',
      'export { c } from "../agent/turn.ts";',
      'const d = await import("../faces/respond.ts");',
      'const e = import.meta.resolve("../session/session.ts");',
      '// An example in a comment is not code: import { x } from "../cli/io.ts";',
      '/* nor is this: import("../cli/io.ts") */',
      'const url = "http://example.invalid/not/a/comment";',
    ].join("\n"),
  });
  try {
    const wrong = violations(root);
    assertEquals(wrong.map((v) => [v.file, v.line, v.target]), [
      ["src/exec/runner.ts", 1, "src/cli/io.ts"],
      ["src/exec/runner.ts", 2, "src/tools/tool.ts"],
      ["src/exec/runner.ts", 3, "src/agent/turn.ts"],
      ["src/exec/runner.ts", 4, "src/faces/respond.ts"],
      ["src/exec/runner.ts", 5, "src/session/session.ts"],
    ]);
    assertMatch(wrong[0].reason, /exec\/ may not import cli\/, which is above it/);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("the script exits 1 and names the wrong import; 0 on a clean tree", async () => {
  const bad = scratchTree({
    "src/cli/run.ts": "",
    "src/gate/gate.ts": 'import { Session } from "../session/session.ts";\n',
  });
  const good = scratchTree({
    "src/cli/run.ts": 'import "../gate/gate.ts";\n',
    "src/gate/gate.ts": 'import "../exec/runner.ts";\n',
  });
  try {
    const run = async (root: string) => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", SCRIPT, root],
        stdout: "piped",
        stderr: "piped",
      }).output();
      return { code: out.code, text: new TextDecoder().decode(out.stdout) };
    };
    const wrong = await run(bad);
    assertEquals(wrong.code, 1);
    assertMatch(wrong.text, /src\/gate\/gate\.ts:1: imports src\/session\/session\.ts/);
    const clean = await run(good);
    assertEquals(clean.code, 0, clean.text);
  } finally {
    Deno.removeSync(bad, { recursive: true });
    Deno.removeSync(good, { recursive: true });
  }
});

Deno.test("sideways imports between folders of one floor are wrong; own folder is fine", () => {
  assertMatch(
    wrongImport("src/condense/triage.ts", "src/secrets/scanner.ts") ?? "",
    /share a floor/,
  );
  assertEquals(wrongImport("src/gate/gate.ts", "src/gate/policy.ts"), null);
  assertEquals(wrongImport("src/cli/run.ts", "src/util/errors.ts"), null);
  assertEquals(wrongImport("src/config/schema.ts", "src/models/names.ts"), null);
  assertMatch(wrongImport("src/config/load.ts", "src/models/ollama.ts") ?? "", /above it/);
});

Deno.test("importsOf reads every import form and skips strings that only look like one", () => {
  const found = importsOf([
    'import { a } from "./a.ts";',
    "import './side-effect.ts';",
    'export * from "../b.ts";',
    'const s = "from \\"./not-an-import.ts\\"";',
    "const t = `import('./nor-this.ts')`;",
  ].join("\n")).map((i) => i.specifier);
  assertEquals(found, ["./a.ts", "./side-effect.ts", "../b.ts"]);
});

Deno.test("a quote inside a regular expression does not hide the imports after it", () => {
  const found = importsOf([
    "const quote = /[\"']/g;",
    "const half = total / 2; const third = total / 3;",
    'import { late } from "../late.ts";',
  ].join("\n")).map((i) => i.specifier);
  assertEquals(found, ["../late.ts"]);
});
