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

await ensureTools();
const args = Deno.args.length > 0 ? Deno.args : ["test/"];
const code = (await new Deno.Command(Deno.execPath(), {
  args: ["test", "-A", "--parallel", ...args],
  stdin: "null",
}).spawn().status).code;
Deno.exit(code);
