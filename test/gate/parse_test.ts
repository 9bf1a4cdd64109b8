import { assert, assertEquals } from "../support/assert.ts";
import { initShellParser, parseLine } from "../../src/gate/parse.ts";
import { display } from "../../src/gate/words.ts";

await initShellParser();

const argvs = (line: string) => parseLine(line).commands.map((c) => c.words.map(display));

Deno.test("parse: lists, pipelines and background split into simple commands", () => {
  assertEquals(argvs("a && b || c; d & e\nf"), [["a"], ["b"], ["c"], ["d"], ["e"], ["f"]]);
  const p = parseLine("cat x | grep y |& wc -l");
  assertEquals(p.commands.map((c) => c.pipeIn), [false, true, true]);
  assertEquals(p.commands[2].upstream, [0, 1]);
});

Deno.test("parse: subshells, groups, compound statements and functions are walked", () => {
  assertEquals(argvs("(cd x; ls) && { pwd; }"), [["cd", "x"], ["ls"], ["pwd"]]);
  assertEquals(
    argvs(
      "if test -f a; then cat a; elif b; then c; else d; fi; for i in 1 2; do rm $i; done; while read l; do echo; done",
    ),
    [["test", "-f", "a"], ["cat", "a"], ["b"], ["c"], ["d"], ["rm", "$i"], ["read", "l"], ["echo"]],
  );
  assertEquals(argvs("case $x in a) rm a;; b) ls;; esac"), [["rm", "a"], ["ls"]]);
  const f = parseLine("f() { git push; }; f");
  assertEquals(f.functions.map((x) => x.name), ["f"]);
  assertEquals(f.commands[f.functions[0].body[0]].words.map(display), ["git", "push"]);
});

Deno.test("parse: command and process substitutions and backticks are commands of their own", () => {
  const p = parseLine("echo $(whoami) `date` <(ls) >(wc)");
  assertEquals(p.commands.map((c) => c.words.map(display)[0]), [
    "echo",
    "whoami",
    "date",
    "ls",
    "wc",
  ]);
  for (const c of p.commands.slice(1)) assertEquals(c.substitutionOf, 0);
  const nested = parseLine("echo `ls \\`pwd\\``");
  assertEquals(nested.commands.map((c) => c.words.map(display)[0]), ["echo", "ls"]);
});

Deno.test("parse: quotes and escapes resolve in argv", () => {
  assertEquals(argvs(`w\\isp ch'a't "a b" a\\ b $'\\x41\\t' 'it''s' "x\\"y"`), [[
    "wisp",
    "chat",
    "a b",
    "a b",
    "A\t",
    "its",
    'x"y',
  ]]);
  const [cmd] = parseLine(`ls ~/x *.ts {a,b} "~/y"`).commands;
  assertEquals(cmd.words[1].segs[0].kind, "tilde");
  assert(cmd.words[2].segs.some((s) => s.kind === "glob"));
  assert(cmd.words[3].segs.some((s) => s.kind === "glob"));
  assertEquals(cmd.words[4].segs[0].kind, "lit", "a quoted tilde is literal");
});

Deno.test("parse: assignments, redirections and here-docs are kept", () => {
  const [a] = parseLine("FOO=1 BAR=$x cmd arg 2>> log >&2 < in").commands;
  assertEquals(a.assignments.map((x) => x.name), ["FOO", "BAR"]);
  assertEquals(a.words.map(display), ["cmd", "arg"]);
  assertEquals(a.redirects.map((r) => [r.op, r.fd, r.target ? display(r.target) : r.dupFd]), [
    [">>", 2, "log"],
    [">&", null, 2],
    ["<", null, "in"],
  ]);
  const standalone = parseLine("X=1; export Y=2").commands;
  assert(standalone.every((c) => c.standaloneAssignments));
  const h = parseLine("sh <<'EOF'\nrm -rf x\nEOF").commands[0];
  assertEquals(h.heredoc, { body: "rm -rf x\n", expands: false });
  const s = parseLine(`bash <<< "ls"`).commands[0];
  assertEquals(s.herestring && display(s.herestring), "ls");
});

Deno.test("parse: here-doc piped onward feeds the next command", () => {
  const p = parseLine("cat <<EOF | sh\nrm x\nEOF");
  assertEquals(p.commands.map((c) => c.words.map(display)[0]), ["cat", "sh"]);
  assert(p.commands[1].pipeIn);
});

Deno.test("parse: redirections of a compound statement apply to each command inside", () => {
  const p = parseLine("{ echo a; ls; } > out");
  assertEquals(p.commands.length, 2);
  for (const c of p.commands) {
    assertEquals(c.redirects.map((r) => r.target && display(r.target)), ["out"]);
  }
});

Deno.test("parse: a line that does not parse cleanly is reported, not guessed", () => {
  for (const bad of ["echo $(", "if then fi", "ls ;; echo", "echo 'unterminated", "a && && b"]) {
    const p = parseLine(bad);
    assertEquals(p.ok, false, bad);
    assert(p.error && p.error.length > 0, bad);
  }
  assertEquals(parseLine("# only a comment").ok, true);
  assertEquals(parseLine("x".repeat(70_000)).ok, false);
});

Deno.test("parse: the newline given to the parser changes nothing bash would read differently", () => {
  const p = parseLine("a | b | c");
  assert(p.ok);
  assertEquals(p.commands.map((c) => [c.text, c.upstream, c.pipeIn]), [
    ["a", [], false],
    ["b", [0], true],
    ["c", [0, 1], true],
  ]);
  // A here-doc with no terminator, a final backslash, a final escaped blank, a dangling pipe:
  // still refused as unparseable, with the same commands recovered for the policy.
  for (
    const [line, texts] of [
      ["cat <<EOF\nx", ["cat"]],
      ["sh <<EOF\nrm -rf x", ["sh"]],
      ["echo a \\", ["echo a"]],
      [">out * \\  ", [">out *"]],
      ["ls |", ["ls", ""]],
    ] as const
  ) {
    const parsed = parseLine(line);
    assertEquals(parsed.ok, false, JSON.stringify(line));
    assertEquals(parsed.commands.map((c) => c.text), [...texts], JSON.stringify(line));
  }
});
