/**
 * The command lines main.ts reads ahead of the command tree (src/cli/quick.ts):
 * which shapes it takes, and, for each, that wisp answers exactly as the tree
 * does — the same stdout, stderr and exit code, for good and broken configs
 * and for a refused sandbox line.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { DENO_CONFIG, PROJECT_ROOT, runWisp, tempDir } from "../support/wisp.ts";
import { quickAction } from "../../src/cli/quick.ts";

const TREE_ONLY = join(PROJECT_ROOT, "test/fixtures/cli/tree_only.ts");

Deno.test("only the exact light shapes are read ahead of the tree", () => {
  const taken = [
    ["config"],
    ["config", "show"],
    ["config", "get", "audit.keep"],
    ["config", "list"],
    ["config", "list", "--json"],
    ["sandbox", "--", "true"],
    ["sandbox", "--no-network", "--writable", "out", "--writable=/tmp/x", "--", "make", "-j2"],
    ["mcp"],
    ["scan", "."],
    ["scan", "-"],
    ["scan", "--json", "a.env", "b", "--personal"],
    ["scan", "--format", "sarif", "--baseline=known.json", "--thorough", "--no-history", "x"],
  ];
  const left = [
    [],
    ["--help"],
    ["config", "--help"],
    ["config", "show", "extra"],
    ["config", "get"],
    ["config", "get", "--help"],
    ["config", "get", "a", "b"],
    ["config", "list", "--jsn"],
    ["config", "set", "audit.keep", "3"],
    ["config", "unset", "audit.keep"],
    ["config", "lst"],
    ["sandbox", "true"],
    ["sandbox", "--"],
    ["sandbox", "--writable", "--", "true"],
    ["sandbox", "--writable=", "--", "true"],
    ["sandbox", "--network", "--", "true"],
    ["sandbox", "-h", "--", "true"],
    ["mcp", "--http", "127.0.0.1:0"],
    ["mcp", "-y"],
    ["respond", "config"],
    ["doctor"],
    ["scan", "--help"],
    ["scan", "-h"],
    ["scan", "--", "-odd-name"],
    ["scan", "--jsn", "."],
    ["scan", "--format"],
    ["scan", "--format", "--json", "."],
    ["scan", "--baseline=", "."],
    ["scan", "--personal=yes", "."],
  ];
  for (const argv of taken) assert(quickAction(argv) !== undefined, `not taken: ${argv.join(" ")}`);
  for (const argv of left) assertEquals(quickAction(argv), undefined, `taken: ${argv.join(" ")}`);
});

/** wisp run with the command tree reading every line (nothing read ahead). */
async function runTree(args: string[], home: string, cwd: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-P=wisp", "--config", DENO_CONFIG, TREE_ONLY, ...args],
    cwd,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/root",
      TERM: "dumb",
      NO_COLOR: "1",
      WISP_HOME: home,
    },
    clearEnv: true,
    stdin: "null",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

const CONFIGS: Record<string, string | undefined> = {
  none: undefined,
  plain:
    '// mine\n{ "model": "ollama:qwen3:8b", "audit": { "keep": 3, }, "mcp": {"elicitation": {"codex": "off"}} }\n',
  broken: '{\n  "model": "x",\n',
  "bad value": '{\n  "audit": {\n    "keep": 300\n  }\n}\n',
};

Deno.test("wisp config show, get and list answer as the command tree does", async () => {
  const cases = [
    ["config"],
    ["config", "show"],
    ["config", "get", "audit.keep"],
    ["config", "get", "mcp.elicitation.codex"],
    ["config", "get", "no.such.setting"],
    ["config", "list"],
    ["config", "list", "--json"],
  ];
  for (const [name, text] of Object.entries(CONFIGS)) {
    const home = await tempDir();
    try {
      if (text !== undefined) await Deno.writeTextFile(`${home}/config.json`, text);
      for (const args of cases) {
        const ahead = await runWisp(args, { home });
        const tree = await runTree(args, home, PROJECT_ROOT);
        assertEquals(ahead, tree, `${name}: wisp ${args.join(" ")}`);
      }
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  }
});

Deno.test("wisp sandbox answers as the command tree does: a status, the network cut, a refusal", async () => {
  const home = await tempDir();
  const work = await tempDir();
  try {
    await Deno.writeTextFile(
      `${home}/config.json`,
      '{ "commandPolicy": { "deny": ["^echo forbidden"] } }\n',
    );
    const cases = [
      ["sandbox", "--", "sh", "-c", "echo out; echo err >&2; exit 3"],
      [
        "sandbox",
        "--no-network",
        "--writable",
        "sub",
        "--",
        "sh",
        "-c",
        "echo ok > sub/f; cat sub/f",
      ],
      ["sandbox", "--", "echo", "forbidden"],
    ];
    await Deno.mkdir(`${work}/sub`);
    for (const args of cases) {
      const ahead = await runWisp(args, { home, cwd: work });
      const tree = await runTree(args, home, work);
      assertEquals(ahead, tree, `wisp ${args.join(" ")}`);
    }
    const status = await runWisp(cases[0], { home, cwd: work });
    assertEquals([status.code, status.stdout, status.stderr], [3, "out\n", "err\n"]);
    const refused = await runWisp(cases[2], { home, cwd: work });
    assertEquals(refused.code, 1);
    assert(refused.stderr.startsWith("error: command denied by policy"), refused.stderr);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("wisp scan answers as the command tree does: findings, none, a usage error, a missing file", async () => {
  const home = await tempDir();
  const work = await tempDir();
  try {
    await Deno.mkdir(`${work}/app`);
    // Written for this test: a settings file with a credential, a clean one, and a note.
    await Deno.writeTextFile(
      `${work}/app/settings.env`,
      "DEBUG=false\nDB_PASSWORD=Wq7-vR2x_Lm9pT4z\n",
    );
    await Deno.writeTextFile(`${work}/app/main.ts`, 'const user = "maria";\n');
    await Deno.writeTextFile(`${work}/notes.txt`, "call maria@example.org before friday\n");
    const cases = [
      ["scan", "."],
      ["scan", "--json", "app"],
      ["scan", "--format=sarif", "app/settings.env"],
      ["scan", "--personal", "notes.txt"],
      ["scan", "app/main.ts"],
      ["scan", "--format", "xml", "."],
      ["scan", "missing.env", "app"],
    ];
    for (const args of cases) {
      assert(quickAction(args) !== undefined, `not taken: ${args.join(" ")}`);
      const ahead = await runWisp(args, { home, cwd: work });
      const tree = await runTree(args, home, work);
      assertEquals(ahead, tree, `wisp ${args.join(" ")}`);
    }
    const found = await runWisp(["scan", "."], { home, cwd: work });
    assertEquals(found.code, 1);
    assert(found.stdout.includes("app/settings.env:2:"), found.stdout);
    assertEquals((await runWisp(["scan", "app/main.ts"], { home, cwd: work })).code, 0);
    assertEquals((await runWisp(["scan", "--format", "xml", "."], { home, cwd: work })).code, 64);
    assertEquals((await runWisp(["scan", "missing.env"], { home, cwd: work })).code, 2);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});
