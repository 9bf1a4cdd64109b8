import { assert, assertEquals } from "../support/assert.ts";
import { analysed, verdict } from "./helpers.ts";
import {
  hasLongOption,
  hasShortOption,
  operandArgs,
  spellOutLongOption,
} from "../../src/gate/options.ts";

Deno.test("getopt: abbreviated long options are spelled out, the value kept", () => {
  assertEquals(spellOutLongOption("rsync", "--delete-a"), "--delete-after");
  assertEquals(spellOutLongOption("sed", "--in=.orig"), "--in-place=.orig");
  assertEquals(spellOutLongOption("git", "--ha"), "--hard");
  // Spelled out already, unknown, too short, or another program's: left alone.
  assertEquals(spellOutLongOption("git", "--hard"), "--hard");
  assertEquals(spellOutLongOption("git", "--oneline"), "--oneline");
  assertEquals(spellOutLongOption("rm", "--r"), "--r");
  assertEquals(spellOutLongOption("ls", "--rec"), "--rec");
});

Deno.test("getopt: short options in clusters, and nothing after --", () => {
  assert(hasShortOption(["-vfr", "x"], "f"));
  assert(!hasShortOption(["-v", "--", "-f"], "f"));
  assert(hasLongOption(["--forc", "x"], "force"));
  assert(!hasLongOption(["--", "--force"], "force"));
  assertEquals(operandArgs(["-v", "a", "--", "-r", "b"]), ["a", "-r", "b"]);
});

Deno.test("getopt: the rules read options as the program does", () => {
  // Abbreviations, spelled out before any rule reads them.
  assertEquals(analysed("rsync -a --delete-b src/ dst/").parts[0].argv[2], "--delete-before");
  assertEquals(verdict("sed --in-pla s/x/y/ a.txt"), "moderate");
  assertEquals(verdict("git log --out=/tmp/l.txt -3"), "moderate");
  assertEquals(verdict("git push --force-wi origin dev"), "dangerous");
  assertEquals(verdict("git reset --har"), "dangerous");
  assertEquals(verdict("git clean --dry -d"), "safe");
  assertEquals(verdict("rm --recu --forc ~"), "deny");
  // After --, words are file names, whatever they look like.
  assertEquals(verdict("rm -- -r"), "moderate");
  // Options after operands count (GNU permutes).
  assertEquals(verdict("rm /var/tmp/scratch -f"), "dangerous");
  // Forced removal inside the project stays moderate; outside it is dangerous.
  assertEquals(verdict("rm -f out/app.o"), "moderate");
  assertEquals(verdict("rm --force ../sibling/file"), "dangerous");
});

Deno.test("getopt: git's global options are not the verb's own", () => {
  assertEquals(verdict("git -C sub branch --show-current"), "safe");
  assertEquals(verdict("git -C . branch -D topic"), "dangerous");
});
