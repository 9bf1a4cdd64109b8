/**
 * The runner's costs, each against a baseline in the same run:
 *
 * (a) start-up: `wisp sandbox -- true` against a bare `bwrap … true`, with
 *     Deno's own start-up (`deno run` of an empty script under the same
 *     permission set) reported apart;
 * (b) a command printing 1 GiB (`yes | head -c 1G`): the runner's peak RSS
 *     growth over its baseline (goal ≤ 64 MiB), measured in a subprocess so
 *     nothing else in this process counts, and its throughput against
 *     `cat > /dev/null` reading the same stream in the same sandbox (goal ≥ 0.5×);
 * (c) 1 GiB of stdin through `wisp sandbox -- cat` (wisp copies its stdin into
 *     the command's pipe) against the same stream piped into `bwrap … cat`;
 * (d) the capturing supervisor running `true` with its perl waiter (which
 *     tells an exit status from a signal) against the same supervisor with
 *     /usr/bin/perl hidden, so without it: the waiter's cost per command
 *     (docs/adr/0330-exit-status-or-signal.md). Runs alternate, so a busy
 *     machine weighs on both alike.
 *
 * Run: deno run -A bench/exec_bench.ts [--runs N] [--gib N]
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { supervisorArgv } from "../src/exec/supervisor.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DENO = Deno.execPath();
const args = Deno.args;
const runs = Number(args[args.indexOf("--runs") + 1]) || 20;
const gib = Number(args[args.indexOf("--gib") + 1]) || 1;

async function time(
  cmd: string,
  cmdArgs: string[],
  options: Partial<Deno.CommandOptions> = {},
): Promise<number> {
  const t0 = performance.now();
  const out = await new Deno.Command(cmd, {
    args: cmdArgs,
    stdin: "null",
    stdout: "null",
    stderr: "null",
    ...options,
  })
    .output();
  const ms = performance.now() - t0;
  if (!out.success) throw new Error(`${cmd} ${cmdArgs.join(" ")} failed (${out.code})`);
  return ms;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function repeat(n: number, f: () => Promise<number>): Promise<number> {
  await f(); // warm the caches
  const xs: number[] = [];
  for (let i = 0; i < n; i++) xs.push(await f());
  return median(xs);
}

const home = await Deno.makeTempDir({ prefix: "wisp-bench-home-" });
const project = await Deno.makeTempDir({ prefix: "wisp-bench-project-" });
const env = {
  WISP_HOME: home,
  PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
  HOME: Deno.env.get("HOME") ?? "/",
};
const empty = join(home, "empty.ts");
await Deno.writeTextFile(empty, "");

const bwrapArgs = [
  "--ro-bind",
  "/",
  "/",
  "--dev",
  "/dev",
  "--proc",
  "/proc",
  "--bind",
  project,
  project,
  "--unshare-pid",
  "--as-pid-1",
  "--die-with-parent",
  "--new-session",
  "--cap-drop",
  "ALL",
  "--",
  "/bin/sh",
  "-c",
  "true",
];
const bare = await repeat(runs, () => time("bwrap", bwrapArgs));
const denoStart = await repeat(
  runs,
  () =>
    time(DENO, ["run", "-q", "-P=wisp", "--config", join(ROOT, "deno.json"), empty], {
      env,
      cwd: project,
    }),
);
const wispHelp = await repeat(
  runs,
  () =>
    time(DENO, [
      "run",
      "-q",
      "-P=wisp",
      "--config",
      join(ROOT, "deno.json"),
      join(ROOT, "main.ts"),
      "sandbox",
      "--help",
    ], { env, cwd: project }),
);
const wispTrue = await repeat(
  runs,
  () =>
    time(DENO, [
      "run",
      "-q",
      "-P=wisp",
      "--config",
      join(ROOT, "deno.json"),
      join(ROOT, "main.ts"),
      "sandbox",
      "--",
      "true",
    ], { env, cwd: project }),
);

// (b) 1 GiB through the runner, in a subprocess that reports its own numbers.
const probe = join(home, "probe.ts");
await Deno.writeTextFile(
  probe,
  `import { runCommand } from ${JSON.stringify(join(ROOT, "src/exec/runner.ts"))};
import { defaultConfig } from ${JSON.stringify(join(ROOT, "src/config/schema.ts"))};
import { homePaths } from ${JSON.stringify(join(ROOT, "src/config/home.ts"))};
const status = () => Deno.readTextFileSync("/proc/self/status");
const kib = (k: string) => Number(new RegExp(k + ":\\\\s+(\\\\d+)").exec(status())![1]);
const home = homePaths(${JSON.stringify(home)});
const audit = { session: "bench0001", record: () => ({}) };
const base = { cwd: ${JSON.stringify(project)}, root: ${
    JSON.stringify(project)
  }, origin: "model" as const, budgetBytes: 64 * 1024, config: defaultConfig(), home, audit: audit as never };
await runCommand({ ...base, command: "echo warm" });
const line = Deno.args[0];
const baseline = kib("VmRSS");
const t0 = performance.now();
const r = await runCommand({ ...base, command: line });
const ms = performance.now() - t0;
console.log(JSON.stringify({ baselineKiB: baseline, peakKiB: kib("VmHWM"), ms, bytes: r.stdout.bytes }));
`,
);
const stream = `yes | head -c ${gib}G`;
const catMs = await time("bwrap", [...bwrapArgs.slice(0, -1), `${stream} | cat > /dev/null`]);
const out = await new Deno.Command(DENO, {
  args: ["run", "-A", "--config", join(ROOT, "deno.json"), probe, stream],
  stdout: "piped",
  stderr: "inherit",
  cwd: ROOT,
}).output();
const runner = JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!);
const bytes = gib * 1024 ** 3;

// (c) stdin through wisp sandbox, against the same stream into bare bwrap.
const quote = (a: string) => "'" + a.replaceAll("'", "'\\''") + "'";
const feed = `head -c ${gib}G /dev/zero | `;
const bareCat = [...bwrapArgs.slice(0, -3), "cat"].map(quote).join(" ");
const wispCat = [DENO, "run", "-q", "-P=wisp", "--config", join(ROOT, "deno.json")]
  .concat([join(ROOT, "main.ts"), "sandbox", "--", "cat"]).map(quote).join(" ");
const stdinBare = await time("sh", ["-c", `${feed}bwrap ${bareCat} > /dev/null`]);
const stdinWisp = await time("sh", ["-c", `${feed}${wispCat} > /dev/null`], {
  env: { ...env, PATH: env.PATH },
  cwd: project,
});
const mbps = (ms: number) => bytes / 1e6 / (ms / 1000);

// (d) the waiter's cost: the same supervisor with perl and with perl hidden.
const sandboxed = bwrapArgs.slice(0, -3);
const supervised = supervisorArgv("pidns", "true", 0, true);
const noPerl = ["--ro-bind", "/dev/null", "/usr/bin/perl"];
const withWaiter: number[] = [];
const withoutWaiter: number[] = [];
await time("bwrap", [...sandboxed, ...supervised]); // warm the caches
for (let i = 0; i < runs; i++) {
  withWaiter.push(await time("bwrap", [...sandboxed, ...supervised]));
  withoutWaiter.push(await time("bwrap", [...noPerl, ...sandboxed, ...supervised]));
}
const waiter = median(withWaiter);
const noWaiter = median(withoutWaiter);

const rows: Array<[string, string, string]> = [
  ["bwrap … true (baseline)", `${bare.toFixed(1)} ms`, "1.00×"],
  [
    "deno start-up, empty script (apart)",
    `${denoStart.toFixed(1)} ms`,
    `${(denoStart / bare).toFixed(2)}×`,
  ],
  [
    "wisp sandbox --help (CLI start-up, apart)",
    `${wispHelp.toFixed(1)} ms`,
    `${(wispHelp / bare).toFixed(2)}×`,
  ],
  ["wisp sandbox -- true", `${wispTrue.toFixed(1)} ms`, `${(wispTrue / bare).toFixed(2)}×`],
  [
    "wisp sandbox -- true, minus CLI start-up",
    `${(wispTrue - wispHelp).toFixed(1)} ms`,
    `${((wispTrue - wispHelp) / bare).toFixed(2)}×`,
  ],
  [`${stream} | cat > /dev/null (baseline)`, `${mbps(catMs).toFixed(0)} MB/s`, "1.00×"],
  [
    `runner capturing ${stream}`,
    `${mbps(runner.ms).toFixed(0)} MB/s`,
    `${(catMs / runner.ms).toFixed(2)}× (goal ≥ 0.5×)`,
  ],
  [`${feed}bwrap … cat (baseline)`, `${mbps(stdinBare).toFixed(0)} MB/s`, "1.00×"],
  [
    `${feed}wisp sandbox -- cat`,
    `${mbps(stdinWisp).toFixed(0)} MB/s`,
    `${(stdinBare / stdinWisp).toFixed(2)}×`,
  ],
  [
    "  the same, minus wisp sandbox -- true",
    `${mbps(stdinWisp - wispTrue).toFixed(0)} MB/s`,
    `${(stdinBare / (stdinWisp - wispTrue)).toFixed(2)}×`,
  ],
  ["supervisor, capturing, without perl (baseline)", `${noWaiter.toFixed(1)} ms`, "1.00×"],
  [
    "supervisor, capturing, with its waiter",
    `${waiter.toFixed(1)} ms`,
    `${(waiter / noWaiter).toFixed(2)}×`,
  ],
  [
    "runner peak RSS growth over its baseline",
    `${((runner.peakKiB - runner.baselineKiB) / 1024).toFixed(1)} MiB`,
    "goal ≤ 64 MiB",
  ],
];
const width = Math.max(...rows.map((r) => r[0].length));
console.log(`exec bench (median of ${runs} runs for start-up; ${gib} GiB stream)`);
for (const [name, value, ratio] of rows) {
  console.log(`${name.padEnd(width)}  ${value.padStart(12)}  ${ratio}`);
}
await Deno.remove(home, { recursive: true });
await Deno.remove(project, { recursive: true });
