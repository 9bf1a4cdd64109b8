import { assert, assertEquals } from "../support/assert.ts";
import { awkEffects, sedEffects } from "../../src/gate/script_writes.ts";
import { display, litWord } from "../../src/gate/words.ts";

const sedWrites = (script: string) => sedEffects(script).writes.map(display);
const awkWrites = (program: string) => awkEffects(program).writes.map(display);

Deno.test("sed: w commands and the w flag of s name the files written, to the end of the line", () => {
  assertEquals(sedWrites("w out.txt"), ["out.txt"]);
  assertEquals(sedWrites("/err/w errors.log"), ["errors.log"]);
  assertEquals(sedWrites("3,7W part two.txt"), ["part two.txt"]);
  assertEquals(sedWrites("s/a/b/gw changed.txt"), ["changed.txt"]);
  assertEquals(sedWrites("s|x|y|2w /etc/motd\np"), ["/etc/motd"]);
  assertEquals(sedWrites("1{w first.txt\n}"), ["first.txt"]);
  assertEquals(sedWrites("y/abc/xyz/;w t.txt"), ["t.txt"]);
});

Deno.test("sed: a w or an e inside a regular expression, a replacement or text is not a command", () => {
  for (
    const script of [
      "s/wide/narrow/",
      "s/we/they/g",
      "/^w /p",
      "/ew/d",
      "s/x/w y/",
      "a\\\nwrite this",
      "i we insert",
      "y/we/ab/",
      "\\,w /tmp,d",
    ]
  ) {
    const e = sedEffects(script);
    assertEquals([e.writes.length, e.runs], [0, false], script);
  }
});

Deno.test("sed: the e command and the e flag of s run shell commands", () => {
  assert(sedEffects("e date").runs);
  assert(sedEffects("1e uname").runs);
  assert(sedEffects("s/.*/id/e").runs);
  assert(sedEffects("/x/{s/a/b/ge\n}").runs);
  assert(!sedEffects("s/e/E/g").runs);
});

Deno.test("awk: print and printf redirect into files; comparisons are not redirections", () => {
  assertEquals(awkWrites('{ print > "a.txt" }'), ["a.txt"]);
  assertEquals(awkWrites('{ printf "%s\\n", $1 >> "/var/log/x" }'), ["/var/log/x"]);
  assertEquals(awkWrites('{ print $2 > ("cols/" $1 ".txt") }'), ["cols/*.txt"]);
  assertEquals(awkWrites('BEGIN { print "x" > ENVIRON["HOME"] "/.profile" }'), [
    "$HOME/.profile",
  ]);
  assertEquals(awkWrites("$3 > 10 { print $1 }"), []);
  assertEquals(awkWrites("{ if (NF > 2) print $0 }"), []);
  assertEquals(awkWrites("{ print ($1 > $2) }"), []);
  assertEquals(awkWrites("/a>b/ { print }"), []);
});

Deno.test("awk: -v values stand in for the variables they set", () => {
  const e = awkEffects("{ print > dest }", new Map([["dest", litWord("/etc/cron.d/x")]]));
  assertEquals(e.writes.map(display), ["/etc/cron.d/x"]);
});

Deno.test("awk: system, pipes to and from commands run them", () => {
  assert(awkEffects("{ system($0) }").runs);
  assert(awkEffects('{ print | "sort" }').runs);
  assert(awkEffects('BEGIN { "date" | getline d }').runs);
  assert(awkEffects('{ print |& "bc" }').runs);
  assert(!awkEffects('{ s = "system(x)"; print s }').runs);
  assert(!awkEffects("/a|b/ { n++ }").runs);
  assert(!awkEffects("$1 == 1 || $2 == 2").runs);
});

Deno.test("sed and awk: the command lines written in a script are handed over for rating", () => {
  assertEquals(sedEffects("1e date -u").commands, ["date -u"]);
  assertEquals(sedEffects("s/.*/rm x/e").commands, ["rm x"]);
  assertEquals(sedEffects("e").commands, undefined);
  assert(sedEffects("e").runs);
  assertEquals(awkEffects('{ print | "sort -r" }').commands, ["sort -r"]);
  assertEquals(awkEffects('BEGIN { "hostname" | getline h }').commands, ["hostname"]);
  assertEquals(awkEffects("{ system($0) }").commands, undefined);
});
