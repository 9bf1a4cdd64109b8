import { assertEquals } from "../support/assert.ts";
import { verdict } from "./helpers.ts";
import { codeShellouts } from "../../src/gate/code_shellouts.ts";

const commands = (program: string, code: string) =>
  codeShellouts(program, code, ["/home/tester/project"]).map((u) => u.command ?? `(${u.level})`);

Deno.test("code shell-outs: the commands inline code runs are found", () => {
  assertEquals(commands("python3", "import os; os.system('make lint')"), ["make lint"]);
  assertEquals(commands("python3", "import subprocess as s; s.call(['git', 'log', '-1'])"), [
    "git log -1",
  ]);
  assertEquals(commands("python3", "import os; os.execv('/bin/pkexec', ['/bin/pkexec', 'id'])"), [
    "/bin/pkexec id",
  ]);
  assertEquals(commands("perl", 'system "make", "all"'), ["make all"]);
  assertEquals(commands("perl", "print qx{uname -a}"), ["uname -a"]);
  assertEquals(commands("ruby", "puts `date`"), ["date"]);
  assertEquals(commands("ruby", "puts %x{hostname}"), ["hostname"]);
  assertEquals(commands("node", "require('child_process').spawnSync('ls', ['-la'])"), ["ls -la"]);
  // Template literals are not commands in JavaScript.
  assertEquals(commands("node", "console.log(`${1 + 1}`)"), []);
  assertEquals(commands("python3", "print(sum([1, 2]))"), []);
});

Deno.test("code shell-outs: writes outside the folder are dangerous, inside and scratch are not", () => {
  assertEquals(commands("python3", "open('/etc/motd', 'w').write('x')"), ["(dangerous)"]);
  assertEquals(commands("python3", "open(os.path.expanduser('~/.profile'), 'a')"), ["(dangerous)"]);
  assertEquals(commands("node", "fs.appendFileSync(os.homedir() + '/.zshrc', 'x')"), [
    "(dangerous)",
  ]);
  assertEquals(commands("perl", 'open(my $f, ">", "/usr/local/etc/x.conf")'), ["(dangerous)"]);
  assertEquals(commands("python3", "open('out/report.txt', 'w')"), []);
  assertEquals(commands("python3", "open('/tmp/scratch.txt', 'w')"), []);
});

Deno.test("code shell-outs: code that runs a refused program is refused", () => {
  assertEquals(verdict(`python3 -c 'import os; os.system("doas id")'`), "deny");
  assertEquals(verdict(`perl -e 'exec "pkexec", "id"'`), "deny");
  assertEquals(verdict(`ruby -e 'system("rm -rf ~")'`), "deny");
  assertEquals(verdict(`node -e 'require("child_process").execSync("doas reboot")'`), "deny");
  assertEquals(verdict(`awk 'BEGIN { system("rm -rf /") }'`), "deny");
  assertEquals(verdict(`ruby -e '%x(rm -rf log)'`), "dangerous");
  assertEquals(verdict(`python3 -c "open('/etc/hosts', 'w')"`), "dangerous");
  assertEquals(verdict(`python3 -c 'print(2 ** 10)'`), "moderate");
});

Deno.test("code shell-outs: lists, pipes, Deno, Lua, Tcl and code on stdin", () => {
  assertEquals(commands("perl", "system(qw(make check))"), ["make check"]);
  assertEquals(commands("awk", 'BEGIN { print "x" | "sort -r" }'), ["sort -r"]);
  assertEquals(commands("awk", '{ "date +%s" | getline t }'), ["date +%s"]);
  assertEquals(commands("perl", 'open(my $p, "-|", "git log -1")'), ["git log -1"]);
  assertEquals(commands("perl", 'open(P, "| lpr")'), ["lpr"]);
  assertEquals(commands("deno", 'new Deno.Command("git", { args: ["status"] })'), ["git"]);
  assertEquals(commands("lua", 'os.execute("make")'), ["make"]);
  assertEquals(commands("expect", "spawn ssh host; expect eof"), ["ssh host"]);
  assertEquals(verdict("expect -c 'spawn pkexec id; interact'"), "deny");
  assertEquals(verdict("lua -e 'io.popen(\"doas id\")'"), "deny");
  assertEquals(verdict("python3 - <<'PY'\nimport os\nos.system(\"pkexec id\")\nPY"), "deny");
  assertEquals(verdict("ruby <<< 'system(\"rm -rf ~\")'"), "deny");
});

Deno.test("code shell-outs: os.spawn* with a mode first", () => {
  assertEquals(commands("python3", 'os.spawnlp(os.P_WAIT, "make", "make", "all")'), ["make all"]);
  assertEquals(
    verdict(`python3 -c 'import os; os.spawnvp(os.P_NOWAIT, "doas", ["doas", "id"])'`),
    "deny",
  );
});
