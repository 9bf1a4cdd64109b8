/**
 * `deno task test`: makes sure the system tools the suite drives are present
 * (bubblewrap, tmux, bash, zsh, fish), installing what is missing with apt on
 * Debian/Ubuntu or Homebrew on a Mac, then runs the whole suite. Extra
 * arguments go to `deno test` (a file or folder narrows the run).
 */
const NEEDED_LINUX: Record<string, string> = {
  bwrap: "bubblewrap",
  tmux: "tmux",
  bash: "bash",
  zsh: "zsh",
  fish: "fish",
  script: "bsdutils",
  git: "git",
  // The triage test that runs a real pytest inside the sandbox.
  "pytest-3": "python3-pytest",
};
const NEEDED_MAC: Record<string, string> = { tmux: "tmux", fish: "fish" };

function has(program: string): boolean {
  const path = Deno.env.get("PATH") ?? "";
  return path.split(":").some((dir) => {
    try {
      return Deno.statSync(`${dir}/${program}`).isFile;
    } catch {
      return false;
    }
  });
}

async function run(cmd: string[]): Promise<boolean> {
  const status = await new Deno.Command(cmd[0], { args: cmd.slice(1), stdin: "null" }).spawn()
    .status;
  return status.success;
}

async function ensureTools(): Promise<void> {
  const needed = Deno.build.os === "darwin" ? NEEDED_MAC : NEEDED_LINUX;
  const missing = Object.entries(needed).filter(([program]) => !has(program)).map(([, pkg]) => pkg);
  if (missing.length === 0) return;
  if (Deno.build.os === "darwin") {
    console.error(`installing with Homebrew: ${missing.join(" ")}`);
    if (!await run(["brew", "install", ...missing])) Deno.exit(1);
    return;
  }
  if (!has("apt-get")) {
    console.error(`the tests need ${missing.join(", ")}; install them with your package manager`);
    Deno.exit(1);
  }
  const sudo = Deno.uid() === 0 ? [] : ["sudo"];
  console.error(`installing with apt-get: ${missing.join(" ")}`);
  const env = ["env", "DEBIAN_FRONTEND=noninteractive"];
  if (!await run([...sudo, "apt-get", "update", "-qq"])) Deno.exit(1);
  if (!await run([...sudo, ...env, "apt-get", "install", "-y", "-qq", ...missing])) Deno.exit(1);
}

/** Run a command, passing its output through; returns its exit code and what it printed. */
async function runPassing(args: string[]): Promise<{ code: number; text: string }> {
  const child = new Deno.Command(Deno.execPath(), { args, stdin: "null", stdout: "piped" }).spawn();
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    await Deno.stdout.write(chunk);
    text += decoder.decode(chunk, { stream: true });
    if (text.length > 1_000_000) text = text.slice(-100_000); // only the closing lines matter
  }
  return { code: (await child.status).code, text };
}

await ensureTools();
const args = Deno.args.length > 0 ? Deno.args : ["test/"];
const tests = await runPassing(["test", "-A", "--parallel", ...args]);
// deno test's closing line ("ok | 692 passed | 0 failed (1m13s)"), restated
// plainly so that any reader of the log finds the counts.
// deno-lint-ignore no-control-regex
const plain = tests.text.replace(/\x1b\[[0-9;]*m/g, "");
const counts = [...plain.matchAll(/(\d+) passed(?: \((\d+) steps?\))? \| (\d+) failed/g)].at(-1);
let code = tests.code;
if (Deno.args.length === 0) {
  // The whole suite also type-checks every module (some are not reached by a
  // test) and lints the tree.
  console.log("\ntype-checking and linting the whole tree");
  const check = await new Deno.Command(Deno.execPath(), {
    args: ["check", "-q", "main.ts", "src/", "test/", "bench/", "scripts/"],
    stdin: "null",
  }).spawn().status;
  const lint = await new Deno.Command(Deno.execPath(), { args: ["lint", "-q"], stdin: "null" }).spawn().status;
  if (!check.success) console.log("deno check failed");
  if (!lint.success) console.log("deno lint failed");
  if (code === 0 && (!check.success || !lint.success)) code = 1;
}
if (counts) console.log(`\ntests: ${counts[1]} passed, ${counts[3]} failed`);
Deno.exit(code);
