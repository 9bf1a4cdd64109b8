/**
 * `wisp completions`: the tree the scripts are generated from, the scripts
 * as each real shell parses them, `install`'s rules about what it may
 * replace, and the values read from wisp's own files.
 */
import { join } from "node:path";
import { Help } from "commander";
import {
  assert,
  assertEquals,
  assertMatch,
  assertNotMatch,
  assertStringIncludes,
} from "../support/assert.ts";
import { runWisp, tempDir } from "../support/wisp.ts";
import { buildProgram, NOT_BUILT } from "../../src/cli/program.ts";
import { completionTree, VALUE_HOOKS } from "../../src/cli/completions_tree.ts";
import {
  completionScript,
  isWispScript,
  MARKER,
  SHELLS,
} from "../../src/cli/completions_scripts.ts";
import type { Command } from "commander";
import { VERSION } from "../../src/version.ts";

function visiblePaths(command: Command, path: string[], help = new Help()): string[][] {
  const out = [path];
  for (const sub of command.commands) {
    if (help.visibleCommands(command).includes(sub)) {
      out.push(...visiblePaths(sub, [...path, sub.name()], help));
    }
  }
  return out;
}

Deno.test("the tree has every visible command path, with its own options and the default's", () => {
  const program = buildProgram();
  const nodes = completionTree(program);
  const keys = nodes.map((n) => n.path.join(" "));
  for (const path of visiblePaths(program, ["wisp"])) {
    assert(keys.includes(path.join(" ")), path.join(" "));
  }
  // Hidden commands are not offered.
  assert(!keys.includes("wisp completions values"));
  // A command the spec documents but this build lacks is a hidden placeholder, never offered.
  for (const words of NOT_BUILT) {
    assert(!nodes[0].subcommands.some((s) => s.name === words[0]), `${words[0]} is hidden`);
  }
  assert(nodes[0].subcommands.some((s) => s.name === "chat"), "chat is offered");
  const node = (key: string) => nodes.find((n) => n.path.join(" ") === key)!;
  // `wisp --tool x "prompt"` runs respond: the root takes respond's options.
  const tool = node("wisp").options.find((o) => o.names.includes("--tool"))!;
  assertEquals(tool.values, { kind: "tools" });
  assert(node("wisp").options.some((o) => o.names.includes("--version")));
  // `wisp models --all` runs models list.
  assert(node("wisp models").options.some((o) => o.names.includes("--all")));
  const set = node("wisp config set");
  assertEquals(set.arguments.map((a) => a.name), ["key", "value"]);
  assertEquals(set.arguments[1].values, { kind: "setting-values", settingArgument: 0 });
  assert(set.arguments[1].variadic);
  // A file argument or option completes file names, whatever command has it.
  assertEquals(node("wisp redact").arguments[0].values, { files: true });
});

Deno.test("every value hook names an argument or option the tree has", () => {
  const program = buildProgram();
  const find = (words: string[]): Command | undefined => {
    let command: Command | undefined = program;
    for (const word of words) command = command?.commands.find((c) => c.name() === word);
    return command;
  };
  for (const key of Object.keys(VALUE_HOOKS.arguments)) {
    const words = key.split(" ");
    const command = find(words.slice(0, -1));
    assert(command, `no command ${words.slice(0, -1).join(" ")} for the hook '${key}'`);
    assert(
      command.registeredArguments.some((a) => a.name() === words[words.length - 1]),
      `no argument for the hook '${key}'`,
    );
  }
  const longs = new Set<string>();
  const collect = (command: Command) => {
    for (const option of command.options) if (option.long) longs.add(option.long);
    command.commands.forEach(collect);
  };
  collect(program);
  for (const long of Object.keys(VALUE_HOOKS.options)) assert(longs.has(long), long);
});

Deno.test("each script parses in its real shell and carries the marker near its top", async () => {
  const nodes = completionTree(buildProgram());
  const dir = await tempDir("wisp-completions-");
  try {
    for (const shell of SHELLS) {
      const script = completionScript(shell, nodes, "9.9.9");
      assert(isWispScript(script), shell);
      assertStringIncludes(script, `${MARKER} ${shell}`);
      const file = join(dir, `script.${shell}`);
      Deno.writeTextFileSync(file, script);
      const out = await new Deno.Command(shell, { args: ["-n", file], stderr: "piped" }).output();
      assertEquals(out.code, 0, `${shell} -n: ${new TextDecoder().decode(out.stderr)}`);
    }
    assert(completionScript("zsh", nodes, "9.9.9").startsWith("#compdef wisp\n"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A scratch HOME and WISP_HOME for wisp, with the shell $SHELL names. */
async function homes(shell = "/bin/zsh") {
  const home = await tempDir("wisp-completions-home-");
  const wispHome = join(home, "wisp-home");
  const env = { HOME: home, WISP_HOME: wispHome, SHELL: shell };
  return { home, wispHome, env };
}

Deno.test("install writes where each shell looks, then finds it current; never touches wisp's home", async () => {
  const { home, wispHome, env } = await homes();
  try {
    const zsh = await runWisp(["completions", "install"], { env });
    assertEquals(zsh.code, 0, zsh.stderr);
    const zshPath = join(home, ".zsh/completions/_wisp");
    assertStringIncludes(zsh.stdout, `wrote the zsh completions to ${zshPath}`);
    assertStringIncludes(zsh.stdout, "fpath+=(~/.zsh/completions)");
    assertEquals(
      Deno.readTextFileSync(zshPath),
      (await runWisp(["completions", "zsh"], { env })).stdout,
    );
    const again = await runWisp(["completions", "install", "zsh"], {
      env: { ...env, FPATH: `/usr/share/zsh/functions:${join(home, ".zsh/completions")}` },
    });
    assertStringIncludes(again.stdout, `the zsh completions at ${zshPath} are current`);
    assertNotMatch(again.stdout, /fpath\+=/);

    const bash = await runWisp(["completions", "install", "bash", "--print-path"], {
      env: { ...env, XDG_DATA_HOME: join(home, "data") },
    });
    assertEquals(bash.stdout, `${join(home, "data/bash-completion/completions/wisp")}\n`);
    const fish = await runWisp(["completions", "install", "fish"], { env });
    const fishPath = join(home, ".config/fish/completions/wisp.fish");
    assertStringIncludes(fish.stdout, `wrote the fish completions to ${fishPath}`);
    assertEquals((Deno.statSync(fishPath).mode ?? 0) & 0o777, 0o644);
    assertEquals(
      (await runWisp(["completions", "print", "fish"], { env })).stdout,
      Deno.readTextFileSync(fishPath),
    );
    assert(!(await exists(join(home, "data"))), "--print-path wrote nothing");
    assert(!(await exists(wispHome)), "wisp's home was not created");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("install replaces only wisp's own file, and writes through a link only to wisp's file", async () => {
  const { home, env } = await homes("/bin/bash");
  try {
    const path = join(home, ".local/share/bash-completion/completions/wisp");
    Deno.mkdirSync(join(home, ".local/share/bash-completion/completions"), { recursive: true });
    // Somebody else's file.
    Deno.writeTextFileSync(path, "complete -W 'mine' wisp\n");
    const foreign = await runWisp(["completions", "install"], { env });
    assertEquals(foreign.code, 1);
    assertMatch(foreign.stderr, /exists and is not wisp's completions; it was left as it is/);
    assertEquals(Deno.readTextFileSync(path), "complete -W 'mine' wisp\n");
    // An older script of wisp's is replaced.
    Deno.writeTextFileSync(path, `${MARKER} bash, an old one\n`);
    const older = await runWisp(["completions", "install"], { env });
    assertEquals(older.code, 0, older.stderr);
    assertStringIncludes(older.stdout, "wrote the bash completions");
    // A dotfiles link to wisp's file: written through, the link kept.
    const dotfile = join(home, "dotfiles-wisp.bash");
    Deno.writeTextFileSync(dotfile, `${MARKER} bash, an old one\n`);
    Deno.removeSync(path);
    Deno.symlinkSync(dotfile, path);
    const through = await runWisp(["completions", "install", "bash"], { env });
    assertEquals(through.code, 0, through.stderr);
    assertStringIncludes(through.stdout, `wrote the bash completions to ${dotfile}`);
    assert(Deno.lstatSync(path).isSymlink);
    assert(Deno.readTextFileSync(dotfile).includes("complete -F _wisp wisp"));
    // A link to somebody else's file, and a link to nothing: refused.
    Deno.writeTextFileSync(dotfile, "# my own\n");
    const other = await runWisp(["completions", "install", "bash"], { env });
    assertEquals(other.code, 1);
    assertMatch(other.stderr, /is a link to .*which is not wisp's completions/);
    Deno.removeSync(dotfile);
    const dangling = await runWisp(["completions", "install", "bash"], { env });
    assertEquals(dangling.code, 1);
    assertMatch(dangling.stderr, /is a link to nothing/);
    assert(!dangling.stderr.includes("    at "), "no stack trace");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("an unknown shell, named or from $SHELL, is a usage error", async () => {
  const { home, env } = await homes("/usr/bin/tcsh");
  try {
    const fromEnv = await runWisp(["completions", "install"], { env });
    assertEquals(fromEnv.code, 64);
    assertStringIncludes(fromEnv.stderr, "cannot tell your shell from $SHELL (tcsh)");
    const named = await runWisp(["completions", "install", "ksh"], { env });
    assertEquals(named.code, 64);
    assertStringIncludes(named.stderr, "unknown shell 'ksh'");
    const printed = await runWisp(["completions", "pwsh"], { env });
    assertEquals(printed.code, 64);
    assertEquals(printed.stdout, "");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("values come from config.json and the pending folder, without writing anything", async () => {
  const { home, wispHome, env } = await homes();
  try {
    Deno.mkdirSync(join(wispHome, "pending"), { recursive: true });
    Deno.writeTextFileSync(
      join(wispHome, "config.json"),
      JSON.stringify({
        model: "ollama:granite4.1:8b",
        ollama: { models: { "qwen3:4b": { think: false } } },
        tools: { disabled: ["notify"] },
      }),
    );
    const request = (id: string, expires: number, command: string) =>
      Deno.writeTextFileSync(
        join(wispHome, "pending", `${id}.json`),
        JSON.stringify({
          version: 1,
          kind: "approval",
          id,
          server: { pid: 1, session: "s" },
          client: "c",
          thread: "t",
          command,
          level: "moderate",
          cwd: home,
          reasons: [],
          outsideSandbox: false,
          createdAt: new Date().toISOString(),
          expiresAt: new Date(Date.now() + expires).toISOString(),
        }),
      );
    const approval = (id: string, expires: number, pattern: string) => ({
      id,
      scope: "always",
      pattern,
      level: "moderate",
      directory: null,
      created: new Date().toISOString(),
      expires: new Date(Date.now() + expires).toISOString(),
    });
    Deno.writeTextFileSync(
      join(wispHome, "approvals.json"),
      JSON.stringify({
        version: 1,
        approvals: [
          approval("1111aaaa", 3_600_000, "make *"),
          approval("2222bbbb", -1000, "old *"),
        ],
      }),
    );
    request("0000abcd", 3_600_000, "make deploy");
    request("0000dead", -1000, "an expired one");
    Deno.writeTextFileSync(
      join(wispHome, "pending", "0000f00d.json"),
      JSON.stringify({
        version: 1,
        kind: "fact",
        id: "0000f00d",
        server: { pid: 1, session: "s" },
        client: "c",
        thread: "t",
        fact: {
          id: "c3",
          subject: "entity",
          name: "release codename",
          key: "release codename",
          value: "BLUE HERON",
          by: "model",
          source: "model, noted, turn 4",
        },
        createdAt: new Date().toISOString(),
      }),
    );
    const before = [...Deno.readDirSync(join(wispHome, "pending"))].map((e) => e.name).sort();

    const values = async (...args: string[]) => {
      const run = await runWisp(["completions", "values", ...args], { env });
      assertEquals(run.code, 0, run.stderr);
      return run.stdout.split("\n").filter(Boolean).map((line) => line.split("\t"));
    };
    assertEquals(await values("pending"), [["0000abcd", "make deploy"]]);
    assertEquals(await values("pending-facts"), [["0000f00d", "release codename = BLUE HERON"]]);
    assertEquals(await values("approvals"), [["1111aaaa", "always: make *"]]);
    const versions = (await values("classifier-versions")).map(([v]) => v);
    assertEquals(versions, [`risk@${VERSION}-default`]);
    assertEquals(
      (await values("setting-values", "approval.coremlModel")).map(([v]) => v),
      versions,
    );
    const models = (await values("models")).map(([name]) => name);
    assertEquals(models.slice(0, 3), ["ollama:granite4.1:8b", "system", "ollama:qwen3:4b"]);
    const settings = (await values("settings")).map(([key]) => key);
    assert(settings.includes("approval.threshold"));
    assert(settings.includes("ollama.models.qwen3:4b.think"), "a patterned setting's instance");
    assert(!settings.some((key) => key.includes("<")), "no pattern itself");
    assertEquals(await values("setting-values", "approval.threshold"), [
      ["safe", ""],
      ["moderate", "the default"],
      ["dangerous", ""],
      ["never", ""],
    ]);
    assertEquals((await values("setting-values", "audit.enabled")).map(([v]) => v), [
      "true",
      "false",
    ]);
    assertEquals((await values("setting-values", "routing.ladder"))[0][0], "ollama:granite4.1:8b");
    assertEquals(await values("setting-values", "no.such.setting"), []);
    const tools = (await values("tools")).map(([name]) => name);
    assert(tools.includes("run_command") && tools.includes("read_file"));
    assert(!tools.includes("notify"), "tools.disabled takes a tool away");

    const after = [...Deno.readDirSync(join(wispHome, "pending"))].map((e) => e.name).sort();
    assertEquals(after, before, "a Tab removes nothing, not even an expired request");
    assert(!(await exists(join(wispHome, "logs"))), "nothing audited");
    const unknown = await runWisp(["completions", "values", "colours"], { env });
    assertEquals(unknown.code, 64);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("values from a malformed config.json are the defaults, printed without a complaint", async () => {
  const { home, wispHome, env } = await homes();
  try {
    Deno.mkdirSync(wispHome, { recursive: true });
    Deno.writeTextFileSync(join(wispHome, "config.json"), "{ not json");
    const run = await runWisp(["completions", "values", "models"], { env });
    assertEquals(run.code, 0);
    assertEquals(run.stderr, "");
    assertEquals(run.stdout, "system\tthe default model\n");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
