import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { initShellParser, parseLine } from "../../src/gate/parse.ts";
import { analyse } from "../../src/gate/analyse.ts";
import { classify } from "../../src/gate/rules.ts";
import { realPathExisting } from "../../src/gate/paths.ts";
import { rate, verdict } from "./helpers.ts";

await initShellParser();

Deno.test("rules: the line's level is its highest part, and each part has reasons", () => {
  const c = rate("ls && git commit -m x && rm -rf build");
  assertEquals(c.parts.map((p) => p.level), ["safe", "moderate", "dangerous"]);
  assertEquals(c.level, "dangerous");
  for (const p of c.parts) assert(p.reasons.length > 0 && p.reasons.every((r) => r.length > 5));
});

Deno.test("rules: the read-only list skips any model classifier; a write takes a part off it", () => {
  const c = rate("cat a | grep b | sort");
  assert(c.parts.every((p) => p.readOnly && p.level === "safe"));
  const w = rate("cat a > out.txt").parts[0];
  assertEquals(w.level, "moderate");
  assertEquals(w.readOnly, false);
  assertMatch(w.reasons.join(" "), /writes out\.txt/);
  assertEquals(rate("ls > /dev/null 2>&1").level, "safe");
  assertEquals(rate("sort -o x y").level, "moderate");
  assertEquals(rate("sed -i s/a/b/ f").level, "moderate");
  assertEquals(rate("find . -fprint out").level, "moderate");
});

Deno.test("rules: verb knowledge per program", () => {
  const cases: Array<[string, string]> = [
    ["git log", "safe"],
    ["git commit -m x", "moderate"],
    ["git push", "moderate"],
    ["git push -f", "dangerous"],
    ["git reset --hard", "dangerous"],
    ["git clean -n", "safe"],
    ["git clean -f", "dangerous"],
    ["cargo tree", "safe"],
    ["cargo build", "moderate"],
    ["cargo publish", "dangerous"],
    ["npm ls", "safe"],
    ["npm install", "moderate"],
    ["npm publish", "dangerous"],
    ["pnpm why x", "safe"],
    ["yarn add x", "moderate"],
    ["swift build", "moderate"],
    ["swift package describe", "safe"],
    ["go vet ./...", "safe"],
    ["go test ./...", "moderate"],
    ["pip list", "safe"],
    ["pip install x", "moderate"],
    ["uv pip list", "safe"],
    ["uv publish", "dangerous"],
    ["brew info x", "safe"],
    ["brew install x", "moderate"],
    ["docker ps", "safe"],
    ["docker run x", "moderate"],
    ["docker system prune", "dangerous"],
    ["podman images", "safe"],
    ["kubectl get pods", "safe"],
    ["kubectl apply -f x", "moderate"],
    ["kubectl delete pod x", "dangerous"],
    ["make -n", "safe"],
    ["make", "moderate"],
    ["gh pr list", "safe"],
    ["gh pr create", "moderate"],
    ["gh repo delete x", "dangerous"],
    ["terraform plan", "safe"],
    ["terraform destroy", "dangerous"],
  ];
  const wrong = cases.filter(([line, level]) => verdict(line) !== level).map(([l, e]) =>
    `${l}: ${verdict(l)} (expected ${e})`
  );
  assertEquals(wrong, []);
});

Deno.test("rules: patterns are program, verb, or the exact text", () => {
  const p = (line: string) => rate(line).parts[0].pattern;
  assertEquals(p("head -n 5 x"), "head *");
  assertEquals(p("/usr/bin/head x"), "head *");
  assertEquals(p("git commit -m x"), "git commit *");
  assertEquals(p("git -C sub commit -m x"), "git commit *");
  assertEquals(p("docker compose up -d"), "docker compose up *");
  assertEquals(p("gh pr create --fill"), "gh pr create *");
  assertEquals(p("npm run build"), "npm run build *");
  assertEquals(
    p("python3 script.py"),
    "python3 script.py",
    "an interpreter is remembered by its exact text",
  );
  assertEquals(p("bash -c 'make'"), "bash -c 'make'");
  assertEquals(
    p("rm -rf build"),
    "rm -rf build",
    "a dangerous part is remembered by its exact text",
  );
  assertEquals(p("$X y"), "$X y", "a program named by a variable");
  assertEquals(p("./build.sh --fast"), "./build.sh *");
});

Deno.test("rules: interpreters with inline code are at least moderate and exact", () => {
  for (
    const line of [
      "python3 -c 'print(1)'",
      "node -e '1'",
      "perl -e 'print 1'",
      "ruby -e 'p 1'",
      "osascript -e 'beep'",
      "php -r 'echo 1;'",
    ]
  ) {
    const part = rate(line).parts[0];
    assert(part.level !== "safe", line);
    assert(part.exact, line);
  }
  assertEquals(verdict("python3 -c 'import subprocess; subprocess.run([\"ls\"])'"), "dangerous");
  assertEquals(verdict("node -e \"require('fs').rmSync('x',{recursive:true})\""), "dangerous");
  assertEquals(verdict("awk '{ print | \"sh\" }' f"), "dangerous");
  assertEquals(verdict("python3 --version"), "safe");
});

Deno.test("rules: a program chosen at run time, or a line that does not parse, is dangerous", () => {
  for (
    const line of [
      "$CMD",
      '"${TOOL}" run',
      "$(which rm) x",
      "`cat cmd.txt`",
      'eval "$x"',
      'sh -c "$y"',
      "ls $(",
      "a && && b",
    ]
  ) {
    assertEquals(verdict(line), "dangerous", line);
  }
});

Deno.test("rules: credential paths are dangerous by name, in any case, through globs and variables", () => {
  for (
    const line of [
      "cat ~/.ssh/id_ed25519",
      "head ~/.aws/credentials",
      "cat ~/.netrc",
      "cat .env",
      "cat config/.env.production",
      "cat key.pem",
      "cat ~/.SSH/config",
      "cat ~/.s*/id_rsa",
      "cat ~/.aws/cred*",
      "cp ~/.gnupg/x /tmp",
      "F=~/.ssh/id_rsa; cat $F",
      "cat ~/Library/Keychains/login.keychain-db",
      "grep token ~/.config/gh/hosts.yml",
      "cat < ~/.ssh/id_rsa",
      "cat ~/.aws/*",
    ]
  ) {
    assertEquals(verdict(line), "dangerous", line);
  }
});

Deno.test("rules: a glob that matches anything is not taken for a credential", () => {
  for (const line of ["du -sh *", "ls *", "wc -l src/*", "cat ~/notes/*.md"]) {
    assertEquals(verdict(line), "safe", line);
  }
});

Deno.test("rules: a credential reached through a link is dangerous by where the link leads", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wisp-gate-link-" });
  try {
    const ssh = `${dir}/home/.ssh`;
    await Deno.mkdir(ssh, { recursive: true });
    await Deno.writeTextFile(`${ssh}/id_rsa`, "not a real key");
    await Deno.mkdir(`${dir}/project`);
    await Deno.symlink(`${ssh}/id_rsa`, `${dir}/project/notes.txt`);
    await Deno.symlink(ssh, `${dir}/project/stuff`);
    const rateIn = (line: string) =>
      classify(analyse(parseLine(line), { cwd: `${dir}/project`, userHome: `${dir}/home` }), {
        realPath: realPathExisting,
      });
    assertEquals(rateIn("cat notes.txt").level, "dangerous");
    assertEquals(rateIn("cat stuff/id_rsa").level, "dangerous");
    assertEquals(rateIn(`cat ${dir}/project/notes.txt`).level, "dangerous");
    assertEquals(rateIn("cat other.txt").level, "safe");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("rules: wrappers do not hide what runs", () => {
  for (
    const line of [
      "timeout 5 rm -rf x",
      "env A=1 nice rm -rf x",
      "xargs rm -rf",
      "find . -exec rm -rf {} +",
      "sh -c 'rm -rf x'",
      "echo 'rm -rf x' | sh",
    ]
  ) {
    assertEquals(verdict(line), "dangerous", line);
  }
  assertEquals(verdict("timeout 5 cat x"), "safe");
  assertEquals(verdict("find . -name x | xargs grep y"), "safe");
});

Deno.test("rules: pathological lines are judged in bounded time, not backtracked for ever", () => {
  // Before wildcards were bounded, the first of these never finished.
  const lines = [
    "rm -rf " + "*".repeat(40) + "x",
    "cat " + "*a".repeat(25) + "b",
    "rm -rf ~/" + "*a".repeat(25) + "b",
    `sed "s/${"a".repeat(60_000)}/x/" f`,
    `rm -rf ${"$a".repeat(30)}*`,
  ];
  const started = Date.now();
  for (const line of lines) verdict(line);
  // A generous bound: the point is that it ends (exponential backtracking takes hours).
  assert(Date.now() - started < 20_000, `took ${Date.now() - started} ms`);
  assertEquals(verdict("rm -rf /" + "*".repeat(40)), "deny");
});
