import { assert, assertEquals } from "../support/assert.ts";
import { analysed, verdict } from "./helpers.ts";
import {
  expandWordBraces,
  globProgramCandidate,
  isGlobbedOption,
  isSystemProgram,
} from "../../src/gate/expand.ts";
import { display, splitUnquoted, type Word } from "../../src/gate/words.ts";

const word = (text: string): Word => ({ raw: text, segs: splitUnquoted(text, true) });
const expand = (text: string) => expandWordBraces(word(text)).map(display);

Deno.test("expand: braces as bash expands them, nested, ranges, and bounded", () => {
  assertEquals(expand("ch{own,mod}"), ["chown", "chmod"]);
  assertEquals(expand("x{a,{b,c}}y"), ["xay", "xby", "xcy"]);
  assertEquals(expand("{p,q}{1,2}"), ["p1", "p2", "q1", "q2"]);
  assertEquals(expand("v{3..1}"), ["v3", "v2", "v1"]);
  assertEquals(expand("{a..c}"), ["a", "b", "c"]);
  assertEquals(expand("{x}"), ["{x}"]);
  // More than the bound stays one word (a glob to the rules).
  assertEquals(expand("{1..500}").length, 1);
});

Deno.test("expand: a brace in any word is expanded before the line is rated", () => {
  assertEquals(analysed("wc -l lib/{x,y}.py").parts[0].argv, ["wc", "-l", "lib/x.py", "lib/y.py"]);
  assertEquals(verdict("do{a,}s whoami"), "deny");
  assertEquals(verdict("git stash {drop,list}"), "dangerous");
  assertEquals(verdict("tail -{n,5} app.log"), "safe");
});

Deno.test("expand: a glob in the program word is taken as the worst program it can name", () => {
  assertEquals(globProgramCandidate(word("/usr/*/pkex?c")), "pkexec");
  assertEquals(globProgramCandidate(word("d[o]as")), "doas");
  assertEquals(globProgramCandidate(word("/bin/?m")), "rm");
  assertEquals(globProgramCandidate(word("./*")), undefined);
  assertEquals(globProgramCandidate(word("zz*q")), undefined);
  assertEquals(verdict("/us?/bin/doa? ls"), "deny");
  assertEquals(verdict("/b?n/r? -r -f /"), "deny");
  // No candidate: still a program chosen when the line runs.
  assertEquals(verdict("./tools/*/run.sh"), "dangerous");
});

Deno.test("expand: an option whose name holds a glob is dangerous; a glob in a value is not", () => {
  assert(isGlobbedOption(word("-exe?")));
  assert(isGlobbedOption(word("--forc[e]")));
  assert(!isGlobbedOption(word("--glob=*.rs")));
  assert(!isGlobbedOption(word("src/*.rs")));
  assertEquals(verdict("find lib -exe? rm {} +"), "dangerous");
  assertEquals(verdict("grep -rn --include=*.go TODO ."), "safe");
  assertEquals(verdict("ls lib/*.rs"), "safe");
});

Deno.test("expand: a path to a program outside the system's folders is not that program", () => {
  assert(isSystemProgram("head"));
  assert(isSystemProgram("/usr/bin/head"));
  assert(isSystemProgram("/opt/homebrew/bin/rg"));
  assert(!isSystemProgram("./head"));
  assert(!isSystemProgram("tools/head"));
  assert(!isSystemProgram("/home/someone/bin/head"));
  assertEquals(verdict("./head -5 notes.txt"), "moderate");
  assertEquals(verdict("vendor/bin/wc -l x"), "moderate");
  assertEquals(verdict("/usr/bin/head -5 notes.txt"), "safe");
});

Deno.test("expand: a program word the line set statically is that program, split at IFS", () => {
  assertEquals(verdict("p=pwd; $p"), "safe");
  assertEquals(verdict('t="git status"; $t'), "safe");
  assertEquals(verdict("IFS=:; v=rm:-rf:out; $v"), "dangerous");
  assertEquals(verdict("a=pk; b=exec; $a$b id"), "deny");
  // Quoted, it is one word: a program named "git status", which nobody knows.
  assertEquals(verdict('t="git status"; "$t"'), "moderate");
  // From the environment: chosen outside the line.
  assertEquals(verdict("$EDITOR notes.md"), "dangerous");
});

Deno.test("expand: a globbed option is read as the consequential option it can match", () => {
  assertEquals(verdict("find /usr -dele?e"), "deny");
  assertEquals(verdict("chmod -[R] 700 /var"), "deny");
  assertEquals(analysed("find lib -del*").parts[0].argv, ["find", "lib", "-delete"]);
});

Deno.test("expand: arrays and positional parameters the line set are their words", () => {
  assertEquals(verdict('cmd=(pkexec id); "${cmd[@]}"'), "deny");
  assertEquals(verdict("cmd=(du -sh); ${cmd[0]} ."), "safe");
  assertEquals(verdict('set -- doas whoami; "$@"'), "deny");
  assertEquals(verdict('set -- ls; "$@"'), "safe");
  assertEquals(verdict('"${unknown[@]}"'), "dangerous");
});

Deno.test("expand: a word whose groups multiply past the bound is left whole", () => {
  assertEquals(expand("x{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}").length, 1);
  assertEquals(expand("{a,b}".repeat(40)).length, 1);
  assertEquals(verdict(`ls ${"-{l,a}".repeat(30)}`), "dangerous");
});
