/**
 * What a command can load, read from the module graph rather than from a run
 * (docs/adr/0004-start-up-budget.md, docs/adr/0410-start-up-by-construction.md).
 * A command's reach is its file's graph as `deno info` resolves it (static
 * imports and literal dynamic ones), joined with the graph of every module a
 * module of it names through `import.meta.resolve` (the lazy loader's
 * specifiers), until nothing new is reached. Every subcommand and option of
 * the command is in it, so a module reached here is one some use of the
 * command may load.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { DENO_CONFIG } from "../support/wisp.ts";

const ROOT_URL = new URL("../../", import.meta.url).href;

interface InfoDependency {
  code?: { specifier: string };
}

interface InfoModule {
  specifier: string;
  kind?: string;
  npmPackage?: string;
  dependencies?: InfoDependency[];
}

/** `deno info`'s graph of `specifier`: each module by its specifier, and the redirects. */
async function graphOf(
  specifier: string,
): Promise<{ modules: Map<string, InfoModule>; redirects: Record<string, string> }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", DENO_CONFIG, specifier],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout));
  const modules = new Map<string, InfoModule>();
  for (const module of info.modules as InfoModule[]) modules.set(module.specifier, module);
  return { modules, redirects: info.redirects ?? {} };
}

/**
 * Every module `entry` can load at run time: code dependencies only (a type
 * import loads nothing), literal dynamic imports included, and the targets of
 * `import.meta.resolve` in each local module. An npm package is reached as
 * `npm:NAME` (its own modules are not listed). `leaveOut` names lazily loaded
 * modules not to follow; `stopAt` folders whose modules are reached but not
 * followed further.
 */
async function reach(
  entry: string,
  leaveOut: string[] = [],
  stopAt: string[] = [],
): Promise<Set<string>> {
  const skipped = new Set(leaveOut.map((path) => new URL(path, ROOT_URL).href));
  const reached = new Set<string>();
  via.clear();
  const queue = [new URL(entry, ROOT_URL).href];
  while (queue.length > 0) {
    const start = queue.pop()!;
    if (reached.has(start)) continue;
    const { modules, redirects } = await graphOf(start);
    const stack = [start];
    while (stack.length > 0) {
      const raw = stack.pop()!;
      const specifier = redirects[raw] ?? raw;
      const module = modules.get(specifier);
      if (module?.kind === "npm" || specifier.startsWith("npm:")) {
        const id = module?.npmPackage ?? specifier.replace(/^npm:\/?/, "");
        const name = `npm:${id.replace(/^(@?[^@]+)@.*$/, "$1")}`;
        if (!via.has(name)) via.set(name, via.get(specifier) ?? via.get(raw) ?? "");
        reached.add(name);
        continue;
      }
      if (reached.has(specifier)) continue;
      reached.add(specifier);
      // A folder held by its own tests (stopAt) is reached but not followed.
      if (stopAt.some((prefix) => specifier.startsWith(`${ROOT_URL}${prefix}`))) continue;
      for (const dependency of module?.dependencies ?? []) {
        if (!dependency.code) continue;
        const target = redirects[dependency.code.specifier] ?? dependency.code.specifier;
        if (!via.has(target)) via.set(target, specifier);
        stack.push(dependency.code.specifier);
      }
      if (!specifier.startsWith("file:") || !specifier.endsWith(".ts")) continue;
      // Comments may show the loader in an example; only code counts.
      const text = Deno.readTextFileSync(new URL(specifier)).replace(/\/\*[\s\S]*?\*\//g, "")
        .split("\n").filter((line) => !line.trimStart().startsWith("//")).join("\n");
      for (const match of text.matchAll(/import\.meta\.resolve\(\s*"([^"]+)"\s*,?\s*\)/g)) {
        const target = new URL(match[1], specifier).href;
        if (reached.has(target) || skipped.has(target)) continue;
        if (!via.has(target)) via.set(target, specifier);
        if (modules.has(target)) stack.push(target);
        else queue.push(target);
      }
    }
  }
  return reached;
}

const root = ROOT_URL;
const short = (specifier: string) => specifier.replace(root, "");

/** Which module first named each module reached (for a failure's message). */
const via = new Map<string, string>();

/** How `specifier` was reached: the chain of modules from the entry. */
function chain(specifier: string): string {
  const links = [specifier];
  for (let at = via.get(specifier); at && links.length < 12; at = via.get(at)) links.push(at);
  return links.map(short).join(" ← ");
}

/** The modules of `reached` that match any of `forbidden` (a package or a folder of src/). */
function offending(reached: Set<string>, forbidden: string[]): string[] {
  const found = [...reached].filter((s) => forbidden.some((f) => short(s).startsWith(f)));
  // The first of them with how it was reached, so a failure says which import to look at.
  return found.map((s, i) => i === 0 ? chain(s) : short(s)).sort();
}

/** What only the commands that talk to a model, serve MCP or run the gate need. */
const HEAVY = [
  "npm:@modelcontextprotocol/sdk",
  "npm:ollama",
  "npm:web-tree-sitter",
  "npm:tree-sitter-bash",
  "npm:ajv",
  "src/gate/",
  "src/agent/",
  "src/faces/",
  "src/session/",
  "src/condense/",
  "src/secrets/",
];

Deno.test("wisp --version reaches no npm package and no node: module", async () => {
  // main.ts names the command tree through a computed specifier; what it reaches itself is
  // what `--version` loads.
  const reached = [...await reach("main.ts")].map(short);
  assertEquals(reached.filter((s) => s.startsWith("npm:") || s.startsWith("node:")), []);
  assert(reached.includes("src/cli/version.ts"), reached.join(", "));
});

Deno.test("wisp config, any subcommand, reaches no model client, MCP SDK, gate or agent", async () => {
  // Only `config set model X` asks the model's server whether it has X, and loads the
  // client for that (src/models/validate.ts); every other subcommand never does.
  const reached = await reach("src/cli/config.ts", ["src/models/validate.ts"]);
  assert(reached.has(`${root}src/config/load.ts`), "the reach did not follow the lazy loader");
  assertEquals(offending(reached, HEAVY), []);
});

Deno.test("wisp sandbox reaches the gate but no MCP SDK, agent or session", async () => {
  const reached = await reach("src/cli/sandbox.ts");
  assert(reached.has(`${root}src/gate/gate.ts`), "the reach did not follow the lazy loader");
  // The gate's model classifier loads a model client when approval.classifier names one.
  const needed = ["npm:web-tree-sitter", "npm:tree-sitter-bash", "src/gate/", "npm:ollama"];
  assertEquals(offending(reached, HEAVY.filter((f) => !needed.includes(f))), []);
});

/**
 * What only `wisp config set|unset`, a config.json the light reader is not sure of (load.ts:
 * jsonc-parser and zod give the value or the error), or another command loads.
 */
const NOT_THE_READ_PATH = [
  "src/config/load.ts",
  "src/config/edit.ts",
  "src/audit/config_change.ts",
  "src/models/validate.ts",
  "src/cli/sandbox_command.ts",
  "src/cli/mcp.ts",
  "src/cli/scan.ts",
];

Deno.test("wisp config show|get|list with a plain config.json reaches no npm package and no node: module", async () => {
  // main.ts reads these command lines ahead of the command tree (src/cli/quick.ts).
  const reached = await reach("src/cli/quick.ts", NOT_THE_READ_PATH);
  assert(reached.has(`${root}src/cli/config.ts`), "the reach did not follow the lazy loader");
  assert(reached.has(`${root}src/config/quick_check.ts`), "the reach missed the light read");
  assertEquals(offending(reached, ["npm:", "node:"]), []);
});

Deno.test("wisp sandbox, from its own side, reaches no commander, jsonc-parser or zod", async () => {
  // The gate is followed no further: what it loads (its classifier chooser loads zod) is the
  // gate's to hold.
  const reached = await reach("src/cli/sandbox_command.ts", ["src/config/load.ts"], ["src/gate/"]);
  assert(reached.has(`${root}src/gate/gate.ts`), "the reach did not get to the gate");
  assertEquals(offending(reached, ["npm:commander", "npm:jsonc-parser", "npm:zod"]), []);
});

Deno.test("wisp sandbox, short of the shell parser and a model classifier, reaches no node: module", async () => {
  // The first node: module a process loads starts Deno's Node compatibility layer (docs/adr/0680).
  // Not followed: the shell parser (tree-sitter is an npm package), the classifier chooser (loaded
  // only when approval.classifier names a model), and load.ts (a config.json the light reader is
  // not sure of).
  const reached = await reach(
    "src/cli/sandbox_command.ts",
    ["src/config/load.ts", "src/gate/choose.ts"],
    ["src/gate/parse.ts"],
  );
  assert(reached.has(`${root}src/gate/gate.ts`), "the reach did not get to the gate");
  assert(reached.has(`${root}src/exec/runner.ts`), "the reach did not get to the runner");
  assertEquals(offending(reached, ["node:"]), []);
});
