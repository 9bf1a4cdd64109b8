import { assert, assertEquals } from "../support/assert.ts";
import { analysed } from "./helpers.ts";

/** The program that really runs, for the first part of a line, and the wrappers removed. */
function effective(line: string): { program: string; argv: string[]; wrappers: string[] } {
  const p = analysed(line).parts[0];
  return { program: p.program, argv: p.argv, wrappers: p.wrappers };
}

Deno.test("unwrap: every wrapper gives way to the program that really runs", () => {
  const cases: Array<[string, string, string[]]> = [
    ["env -i FOO=1 -u BAR git push", "git", ["push"]],
    ["env -- rm x", "rm", ["x"]],
    ["command -p rm x", "rm", ["x"]],
    ["builtin cd /", "cd", ["/"]],
    ["exec -a name rm x", "rm", ["x"]],
    ["nohup rm x", "rm", ["x"]],
    ["nice -n 10 rm x", "rm", ["x"]],
    ["nice -5 rm x", "rm", ["x"]],
    ["ionice -c 3 rm x", "rm", ["x"]],
    ["timeout -s KILL 5 rm x", "rm", ["x"]],
    ["timeout --kill-after=2 10s rm x", "rm", ["x"]],
    ["time -p rm x", "rm", ["x"]],
    ["stdbuf -o0 -e L rm x", "rm", ["x"]],
    ["xargs -0 -n 1 -I{} rm {}", "rm", ["{}"]],
    ["xargs", "echo", []],
    ["sudo -u root -E rm x", "rm", ["x"]],
    ["doas -u root rm x", "rm", ["x"]],
    ["setsid rm x", "rm", ["x"]],
    ["caffeinate -i rm x", "rm", ["x"]],
    ["flock /tmp/l rm x", "rm", ["x"]],
    ["npm exec -- rm x", "rm", ["x"]],
    ["npx -y rimraf dist", "rimraf", ["dist"]],
    // The architecture after `--` or a lone `-` is skipped, and only it.
    ["arch -- -arm64 rm -rf x", "rm", ["-rf", "x"]],
    ["arch - rm -rf x", "rm", ["-rf", "x"]],
    ["arch -arm64 rm x", "rm", ["x"]],
    ["uv run pytest -x", "pytest", ["-x"]],
    ["poetry run pytest", "pytest", []],
    ["bundle exec rake", "rake", []],
    ["busybox rm x", "rm", ["x"]],
    ["env nohup timeout 5 nice rm x", "rm", ["x"]],
    ["/usr/bin/env rm x", "rm", ["x"]],
  ];
  for (const [line, program, args] of cases) {
    const e = effective(line);
    assertEquals(e.program, program, line);
    assertEquals(e.argv.slice(1), args, line);
    assert(e.wrappers.length > 0 || line === "xargs", `${line} records its wrappers`);
  }
});

Deno.test("unwrap: command -v and a bare wrapper stay what they are", () => {
  assertEquals(effective("command -v rm").program, "command");
  assertEquals(effective("env").program, "env");
  assertEquals(effective("nohup").program, "nohup");
});

Deno.test("unwrap: find -exec, -execdir and -ok run commands of their own", () => {
  const parts =
    analysed("find . -name '*.o' -exec rm -f {} \\; -execdir chmod 600 {} + -ok touch {} \\;")
      .parts;
  assertEquals(parts.map((p) => p.program), ["find", "rm", "chmod", "touch"]);
  assert(parts.slice(1).every((p) => p.wrappers.includes("find -exec")));
});

Deno.test("unwrap: shells, eval, watch, parallel, su -c, env -S and here-docs carry payloads that are parsed", () => {
  const cases: Array<[string, string]> = [
    ["sh -c 'rm -rf x'", "rm"],
    ['bash -lc "rm -rf x"', "rm"],
    ["bash -e -o pipefail -c 'rm x'", "rm"],
    ["zsh -c 'rm x'", "rm"],
    ["dash -c 'rm x'", "rm"],
    ["eval rm x", "rm"],
    ["eval 'rm x'", "rm"],
    ["watch -n 1 rm x", "rm"],
    ["parallel rm ::: a b", "rm"],
    ["su -c 'rm x'", "rm"],
    ["env -S 'rm x'", "rm"],
    ["flock /tmp/l -c 'rm x'", "rm"],
    ["sh <<'EOF'\nrm x\nEOF", "rm"],
    ["bash <<< 'rm x'", "rm"],
    ["echo 'rm x' | sh", "rm"],
    ["printf 'rm x' | bash", "rm"],
    ['sh -c "sh -c \'bash -c \\"rm x\\"\'"', "rm"],
  ];
  for (const [line, inner] of cases) {
    const parts = analysed(line).parts;
    const payloadParts = parts.filter((p) => p.depth > 0);
    assert(
      payloadParts.some((p) => p.program === inner),
      `${line}: ${parts.map((p) => `${p.depth}:${p.program}`).join(" ")}`,
    );
    assert(parts.some((p) => p.payloadKind !== null), `${line} has a carrier`);
  }
});

Deno.test("unwrap: a program named by a variable the line set is that program", () => {
  const parts = analysed("X=rm; $X -rf build").parts;
  const p = parts.find((x) => x.words.length > 0)!;
  assertEquals(p.program, "rm");
  // The line set it to a literal: the program is known before the line runs (ADR 0300).
  assert(!p.dynamicProgram, "a value the line set is not chosen at run time");
  const unknown = analysed("$CMD x").parts[0];
  assertEquals(unknown.program, "");
  assert(unknown.dynamicProgram);
});

Deno.test("unwrap: cd changes where later relative paths land", () => {
  const parts = analysed("cd ../other && touch x").parts;
  assertEquals(parts[1].cwds, ["/home/tester/project", "/home/tester/other"]);
  const home = analysed("cd && ls").parts;
  assert(home[1].cwds.includes("/home/tester"));
});
