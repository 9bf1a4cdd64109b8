/**
 * Lines for the quick reader's differential tests: every line the gate's
 * tests and fixtures hold (harvested, not copied), and lines generated from a
 * small grammar of shell tokens — plain words, quotes, operators and
 * redirections of every shape, beside near misses the quick reader must
 * leave to tree-sitter (expansions, globs, braces, keywords, here-docs,
 * process substitution, odd bytes, broken quoting).
 */
import { parseExamples } from "../../src/gate/measure.ts";

/** The labelled fixtures under test/fixtures/gate/: realistic lines, with their origin. */
export async function fixtureLines(): Promise<string[]> {
  const dir = new URL("../fixtures/gate/", import.meta.url);
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.name.endsWith(".tsv")) continue;
    const text = await Deno.readTextFile(new URL(entry.name, dir));
    for (const example of parseExamples(text, entry.name)) out.push(example.line);
  }
  return out.sort();
}

/**
 * String literals of the gate's test files: most are command lines; the rest
 * (labels, paths, messages) are odd lines, which is fine for a differential
 * test. A literal with an interpolation is taken as written.
 */
export async function testFileLines(): Promise<string[]> {
  const dir = new URL("./", import.meta.url);
  const out = new Set<string>();
  const literal = /"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g;
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.name.endsWith(".ts")) names.push(entry.name);
  }
  for (const name of names.sort()) {
    const text = await Deno.readTextFile(new URL(name, dir));
    for (const m of text.matchAll(literal)) {
      const body = m[1] ?? m[2] ?? m[3] ?? "";
      out.add(unescapeLiteral(body));
    }
  }
  return [...out];
}

/** The common escapes of a TypeScript string literal, so harvested lines read as written. */
function unescapeLiteral(body: string): string {
  return body.replace(
    /\\(["'`\\nt$])/g,
    (_m, c: string) => c === "n" ? "\n" : c === "t" ? "\t" : c,
  );
}

/** A small seeded generator, so a failure names a line that can be made again. */
export { seededRandom as seeded } from "../support/random.ts";

const PROGRAMS = ["ls", "git", "npm", "cat", "grep", "echo", "tail", "rm", "./bin/x", "make", "wc"];
const PLAIN_WORDS = [
  "ls",
  "git",
  "status",
  "-la",
  "--opt=val",
  "./a/b",
  "1",
  "22",
  "a=b",
  "x_=y",
  "foo.txt",
  "/dev/null",
  "a:b",
  "a,b",
  "%s",
  "^x",
  "@x",
  "+x",
  "-",
  "--",
  "-n",
  "20",
  "tail",
  "grep",
  "npm",
  "test",
  "echo",
  "cat",
  "rm",
  "-rf",
  "build/",
  "src/a.ts",
  "HEAD~1",
  "a.b.c",
  "0",
  "x=",
  "=x",
  "a==b",
  "-e",
  "3",
  "10",
  "_",
  "_x",
  "A1",
  "do",
  "done",
  "in",
  "export",
  "if",
  "then",
  "time",
  "declare",
  "local",
  "fi",
  "esac",
  "function",
  "select",
  "unset",
  "coproc",
];
const QUOTED_WORDS = [
  "'a b'",
  '"a b"',
  '""',
  "''",
  '"x!y"',
  "'a$b'",
  "'`x`'",
  "'a\\b'",
  '"a;b|c&d"',
  "'#x'",
  '"#x"',
  "'>f'",
  '"<f"',
  "a'b'c",
  '"x"y',
  'x"y"z',
  "'it''s'",
  "\"a b\"'c d'",
  "'\t'",
  '"--opt=a b"',
  "'é'",
  '"é"',
  "'ü x'",
  "'日本語'",
  '"fix: naïve café"',
  "'🎉 done'",
  '"a🎉b"',
  "'\u202ex'",
  '"a\u200bb"',
  "'\u0085'",
  '"\ufeff"',
];
const ESCAPES = [
  "a\\ b",
  "\\;",
  "\\|",
  "\\&",
  "\\$x",
  "\\*",
  "\\'",
  '\\"',
  "\\\\",
  "\\#",
  "\\~",
  "\\{a,b\\}",
  "\\[x]",
  "x\\",
  "\\>",
  "\\<",
  "\\(",
  "\\)",
  "\\!",
  "a\\nb",
  "\\ ",
  "\\é",
  "\\\t",
];
const NEAR_MISSES = [
  "$x",
  "${x}",
  "$(x)",
  "`x`",
  "$((1))",
  "*.ts",
  "a?b",
  "[ab]",
  "{a,b}",
  "~",
  "~/x",
  "é",
  "a#b",
  "(",
  ")",
  "{",
  "}",
  "!",
  "[[",
  "]]",
  '"a$b"',
  '"a`b`"',
  '"a\\"b"',
  "'open",
  '"open',
  "$'x\\n'",
  '$"x"',
  "a\u0001b",
  "a\rb",
  "x\ny",
  "!(x)",
  "@(x)",
  "+(x)",
  "%",
  "a]",
  "]",
  "<(x)",
  ">(y)",
  "=",
  "a+=1",
];
const ASSIGNMENTS = [
  "FOO=1",
  "A_B='x y'",
  "x=",
  "_=1",
  "1a=2",
  "a=b=c",
  "_a=1",
  'X="a b"',
  "P=./bin",
  "Y=a\\ b",
  "a+=1",
  "Z=$x",
  "Q=~",
  "E=é",
];
const REDIRECTS = [
  ">f",
  "> f",
  ">>f",
  "<f",
  "2>&1",
  ">&2",
  "2>/dev/null",
  "&>f",
  "&>>f",
  ">|f",
  "10>f",
  "<&0",
  ">&-",
  "2> &1",
  "<<EOF",
  "<<<x",
  "<(x)",
  ">(y)",
  "2>>f",
  '>"a b"',
  ">'x'",
  "1>&2",
  "3<f",
  ">&file",
  "<>f",
  "> #x",
  "2 >f",
  ">",
  "99999>f",
  ">& 2",
  "2>&1-",
  ">>&f",
  "&> f",
  "0<f",
];
const OPERATORS = [
  "|",
  "||",
  "&&",
  ";",
  "&",
  "|&",
  ";;",
  "\n",
  ";&",
  "& ",
  " ; ",
  " | ",
  " && ",
  " || ",
  "&&&",
];
const BLANKS = [" ", " ", " ", "  ", "\t", ""];
const COMMENTS = ["# hi", "#", "#$x", "# a 'b", "#é"];

/**
 * A random line from the token grammar: statements of and-or lists of
 * pipelines of commands, each with assignments, words and redirections in
 * mostly ordinary, sometimes odd, order; now and then a near miss, an
 * operator out of place, or a character cut or inserted. `oddness` (0 to 1)
 * scales how often those come.
 */
export function generatedLine(random: () => number, oddness = 1): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const chance = (p: number) => random() < p;
  const blank = () => pick(BLANKS);
  const word = (): string => {
    const r = random();
    if (r < 0.55) return pick(PLAIN_WORDS);
    if (r < 0.72) return pick(QUOTED_WORDS);
    if (r < 0.82) return pick(ESCAPES);
    if (r < 1 - 0.1 * oddness) return pick(PLAIN_WORDS) + pick([...QUOTED_WORDS, ...ESCAPES]);
    return pick(NEAR_MISSES);
  };
  const command = (): string => {
    const parts: string[] = [];
    if (chance(0.2)) parts.push(pick(ASSIGNMENTS));
    if (chance(0.08)) parts.push(pick(ASSIGNMENTS));
    if (chance(0.05)) parts.push(pick(REDIRECTS));
    const words = chance(0.1) && parts.length > 0 ? 0 : 1 + Math.floor(random() * 4);
    for (let i = 0; i < words; i++) parts.push(i === 0 && chance(0.7) ? pick(PROGRAMS) : word());
    const redirects = chance(0.35) ? 1 + Math.floor(random() * 2) : 0;
    for (let i = 0; i < redirects; i++) parts.push(pick(REDIRECTS));
    if (chance(0.05)) parts.push(word()); // a word after a redirection
    // Mostly blanks between parts; now and then none (`a>f`, `2>&1|b`).
    return parts.map((p, i) => (i === 0 ? "" : chance(0.9) ? " " : blank()) + p).join("");
  };
  const join = (items: string[], ops: readonly string[]) =>
    items.map((item, i) => i === 0 ? item : (chance(0.85) ? ` ${pick(ops)} ` : pick(ops)) + item)
      .join("");
  const pipeline = () =>
    join(Array.from({ length: 1 + Math.floor(random() * (chance(0.3) ? 3 : 1)) }, command), ["|"]);
  const andOr = () =>
    join(Array.from({ length: 1 + Math.floor(random() * (chance(0.3) ? 3 : 1)) }, pipeline), [
      "&&",
      "||",
    ]);
  let line = join(
    Array.from({ length: 1 + Math.floor(random() * (chance(0.3) ? 3 : 1)) }, andOr),
    [";", "&"],
  );
  if (chance(0.15)) line += pick([" &", "&", ";", " ;", " & ", "; "]);
  if (chance(0.1)) line += blank() + pick(COMMENTS);
  if (chance(0.1)) line = blank() + line;
  if (chance(0.05 * oddness)) line = pick(OPERATORS) + line;
  if (chance(0.1 * oddness)) {
    // Insert an operator, a near miss, or cut a character somewhere.
    const at = Math.floor(random() * (line.length + 1));
    const r = random();
    line = r < 0.35
      ? line.slice(0, at) + pick(OPERATORS) + line.slice(at)
      : r < 0.7
      ? line.slice(0, at) + pick(NEAR_MISSES) + line.slice(at)
      : line.slice(0, at) + line.slice(at + 1);
  }
  return line;
}
