/**
 * Start-up of the commands people and clients start most (issue 27), each
 * beside `deno run` of an empty module under the same permission set,
 * measured in the same run, with the runs of every case interleaved so a
 * change in the machine's load reaches them all alike:
 *
 *   wisp --version                       ratio to the empty module, goal ≤ 1.3×
 *   wisp config                          ratio, goal ≤ 2×
 *   wisp sandbox -- true                 ms, goal ≤ 150 ms; with its parts:
 *                                        CLI start → the nested-sandbox probe's
 *                                        launch, CLI start → bubblewrap start, bubblewrap
 *                                        alone with wisp's own arguments, and the rest
 *   wisp mcp, start → initialize reply   ms, goal ≤ 300 ms; ratio to a bare Deno
 *                                        process that answers one line
 *   the gate's first check in a process  ms, goal ≤ 20 ms, of a plain line; beside it the
 *                                        first check of a line the quick reader declines
 *                                        (the parser's whole start), and for both the time
 *                                        from the process's start to that answer
 *
 * What runs: a copy of main.ts, deno.json, deno.lock and src/ in a scratch
 * folder whose src/build_info.ts is written the way `deno task compile` writes
 * it for the binary (so `--version` reads no git state, as the binary does not),
 * started with the compile task's permission set (-P=wisp). Those are the
 * modules and the flags the binary carries; the binary itself cannot be built
 * here (`deno compile` downloads its runtime), so what a compiled start saves
 * over a source start (Deno's module resolution, npm's layout) is not in these
 * numbers. `--from-source` runs the work tree itself instead.
 *
 * Then, unless `--no-profile`: a start-up profile of each command through
 * the inspector (Debugger.scriptParsed for every module the process compiles,
 * the sampling profiler for where CPU time went), grouped by npm package and
 * by folder of src/: how many modules each group brings, when the first of
 * them was compiled (ms after the inspector let the program start), and the
 * CPU time its code took. A group that appears in a command that should not
 * need it is the regression this list is for.
 *
 * With `--baseline=DIR` (another checkout, e.g. the commit before a change),
 * the same commands of that tree, built the same way, run interleaved with
 * this tree's in every round, and a second table gives each row's time in
 * both and their ratio: a before/after measured under one and the same load.
 *
 *   deno run -A bench/startup_bench.ts [--from-source] [--no-profile] [--baseline=DIR]
 *   BENCH_RUNS=21 (default 11)
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildInfoSource } from "../scripts/compile.ts";
import { readGitState } from "../src/util/gitstate.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 11);
const FROM_SOURCE = Deno.args.includes("--from-source");
const PROFILE = !Deno.args.includes("--no-profile");
const BASELINE = Deno.args.find((a) => a.startsWith("--baseline="))?.slice("--baseline=".length);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const decoder = new TextDecoder();

/** A copy of a tree (`source`, this one by default) as the binary carries it: build_info as compile writes it. */
function asBuiltTree(scratch: string, source = ROOT, name = "tree"): string {
  const tree = join(scratch, name);
  Deno.mkdirSync(tree);
  for (const name of ["main.ts", "deno.json", "deno.lock"]) {
    Deno.copyFileSync(join(source, name), join(tree, name));
  }
  copyDir(join(source, "src"), join(tree, "src"));
  Deno.symlinkSync(join(ROOT, "node_modules"), join(tree, "node_modules"));
  const state = readGitState(source);
  Deno.writeTextFileSync(
    join(tree, "src", "build_info.ts"),
    buildInfoSource({ kind: "dev", commit: state?.commit, modified: state?.modified }),
  );
  return tree;
}

function copyDir(from: string, to: string): void {
  Deno.mkdirSync(to, { recursive: true });
  for (const entry of Deno.readDirSync(from)) {
    const source = join(from, entry.name);
    if (entry.isDirectory) copyDir(source, join(to, entry.name));
    else if (entry.isFile) Deno.copyFileSync(source, join(to, entry.name));
  }
}

/** The 1-, 5- and 15-minute load averages, for the record beside the times. */
function loadAverage(): string {
  return Deno.loadavg().map((n) => n.toFixed(2)).join(" ");
}
const loadAtStart = loadAverage();

const scratch = await Deno.makeTempDir({ prefix: "wisp-startup-bench-" });
const tree = FROM_SOURCE ? ROOT : asBuiltTree(scratch);
const MAIN = join(tree, "main.ts");
const FLAGS = ["run", "-q", "-P=wisp", "--config", join(tree, "deno.json")];
const baseTree = BASELINE ? asBuiltTree(scratch, BASELINE, "baseline") : undefined;
const BASE_MAIN = baseTree ? join(baseTree, "main.ts") : "";
const BASE_FLAGS = baseTree
  ? ["run", "-q", "-P=wisp", "--config", join(baseTree, "deno.json")]
  : [];
const work = join(scratch, "work");
Deno.mkdirSync(work);
const empty = join(scratch, "empty.ts");
Deno.writeTextFileSync(empty, "");

// A bwrap earlier on PATH that notes when it starts and with what arguments,
// then becomes the real one: the permission set names `bwrap`, which Deno
// resolves through PATH when the process starts.
const realBwrap = (() => {
  for (const dir of (Deno.env.get("PATH") ?? "/usr/bin:/bin").split(":")) {
    try {
      const path = join(dir, "bwrap");
      if (Deno.statSync(path).isFile) return path;
    } catch { /* not here */ }
  }
  return undefined;
})();
const shimDir = join(scratch, "shim");
const bwrapLog = join(scratch, "bwrap-log");
Deno.mkdirSync(shimDir);
if (realBwrap) {
  Deno.writeTextFileSync(
    join(shimDir, "bwrap"),
    `#!/bin/sh\nn=$(date +%s%N)\nprintf '%s\\0' "$n" "$@" > "${bwrapLog}.$n"\nexec ${realBwrap} "$@"\n`,
  );
  Deno.chmodSync(join(shimDir, "bwrap"), 0o755);
}

const env: Record<string, string> = {
  PATH: `${shimDir}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
  HOME: Deno.env.get("HOME") ?? "/root",
  WISP_HOME: join(scratch, "home"),
  NO_COLOR: "1",
};

/** Wall time of one run from spawn to exit; a failed run stops the bench. */
async function timeRun(args: string[], cmd = Deno.execPath()): Promise<number> {
  const start = performance.now();
  const out = await new Deno.Command(cmd, {
    args,
    env,
    clearEnv: true,
    cwd: work,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  const elapsed = performance.now() - start;
  if (!out.success) throw new Error(`${args.join(" ")}: ${decoder.decode(out.stderr)}`);
  return elapsed;
}

/**
 * `wisp sandbox -- true`, with when the real bubblewrap started (the shim's
 * note of the launch that carries the supervisor; the nested-sandbox probe's
 * launches come first) and its arguments.
 */
async function timeSandbox(): Promise<
  { total: number; toLaunch?: number; toProbe?: number; args?: string[] }
> {
  for (const entry of Deno.readDirSync(scratch)) {
    if (entry.name.startsWith("bwrap-log.")) Deno.removeSync(join(scratch, entry.name));
  }
  const startedAt = performance.timeOrigin + performance.now();
  const total = await timeRun([...FLAGS, MAIN, "sandbox", "--", "true"]);
  const run: { total: number; toLaunch?: number; toProbe?: number; args?: string[] } = { total };
  for (const entry of Deno.readDirSync(scratch)) {
    if (!entry.name.startsWith("bwrap-log.")) continue;
    const [ns, ...args] = Deno.readTextFileSync(join(scratch, entry.name)).split("\0")
      .slice(0, -1);
    const at = Number(BigInt(ns) / 1000n) / 1000 - startedAt;
    if (args.includes("wisp-supervisor")) Object.assign(run, { toLaunch: at, args });
    // The nested-sandbox probe: the launcher on `true` (src/platform/index.ts).
    else if (args.at(-1) === "/usr/bin/true") run.toProbe = at;
  }
  return run;
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "bench", version: "1" },
  },
}) + "\n";

/** Start `args`, send initialize at once, and time until the first line of stdout. */
async function timeToFirstLine(args: string[]): Promise<number> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    env,
    cwd: work,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(INITIALIZE));
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${args.join(" ")} ended before answering`);
    text += decoder.decode(value);
  }
  const elapsed = performance.now() - started;
  if (!text.includes('"result"')) throw new Error(`no initialize result: ${text.slice(0, 200)}`);
  reader.releaseLock();
  await writer.close().catch(() => {});
  await child.stdout.cancel().catch(() => {});
  await child.status;
  return elapsed;
}

const bare = join(scratch, "bare.ts");
Deno.writeTextFileSync(
  bare,
  `const r = Deno.stdin.readable.getReader(); await r.read();\n` +
    `await Deno.stdout.write(new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"result":{}}\\n'));\n`,
);

/**
 * The gate's first check in a fresh process, as the commands start it
 * (startup_gate_probe.ts): of a plain line, or of one the quick reader declines.
 */
async function gateFirstCheck(
  mode: "plain" | "declined" | "idle",
  probeTree = tree,
  flags = FLAGS,
): Promise<Record<string, number>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [...flags, join(ROOT, "bench", "startup_gate_probe.ts"), probeTree, mode],
    env,
    clearEnv: true,
    cwd: work,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`gate probe: ${decoder.decode(out.stderr)}`);
  return JSON.parse(decoder.decode(out.stdout));
}

const cases: Record<string, () => Promise<number>> = {
  empty: () => timeRun([...FLAGS, empty]),
  version: () => timeRun([...FLAGS, MAIN, "--version"]),
  config: () => timeRun([...FLAGS, MAIN, "config"]),
  bareLine: () => timeToFirstLine([...FLAGS, bare]),
  mcp: () => timeToFirstLine([...FLAGS, MAIN, "mcp"]),
};
/** The baseline tree's runs of the same commands, each next to this tree's in the round. */
const BASELINE_CASES: Record<string, string[]> = {
  "wisp --version": ["--version"],
  "wisp config": ["config"],
  "wisp sandbox -- true": ["sandbox", "--", "true"],
  "wisp mcp, start → initialize reply": ["mcp"],
};
if (baseTree) {
  for (const [name, args] of Object.entries(BASELINE_CASES)) {
    if (args[0] === "sandbox" && !realBwrap) continue;
    const run = (main: string, flags: string[]) =>
      args[0] === "mcp"
        ? timeToFirstLine([...flags, main, ...args])
        : timeRun([...flags, main, ...args]);
    cases[`base ${name}`] = () => run(BASE_MAIN, BASE_FLAGS);
    cases[`this ${name}`] = () => run(MAIN, FLAGS);
  }
}
const times: Record<string, number[]> = {};
const sandbox: { total: number[]; toLaunch: number[]; toProbe: number[] } = {
  total: [],
  toLaunch: [],
  toProbe: [],
};
const bwrapAlone: number[] = [];
const bwrapBare: number[] = [];
const gate: Record<string, number[]> = {};
let bwrapArgs: string[] | undefined;

// Two rounds to warm Deno's caches (the copy's modules are new to it), then the measured ones.
for (let round = 0; round < RUNS + 2; round++) {
  const measured = round >= 2;
  for (const [name, run] of Object.entries(cases)) {
    const ms = await run();
    if (measured) (times[name] ??= []).push(ms);
  }
  if (realBwrap) {
    const run = await timeSandbox();
    if (measured) {
      sandbox.total.push(run.total);
      if (run.toLaunch !== undefined) sandbox.toLaunch.push(run.toLaunch);
      if (run.toProbe !== undefined) sandbox.toProbe.push(run.toProbe);
    }
    bwrapArgs ??= run.args;
    if (bwrapArgs) {
      // The same launch with `true` in place of the supervisor: bubblewrap's own cost.
      const dashes = bwrapArgs.indexOf("--");
      const alone = [...bwrapArgs.slice(0, dashes + 1), "true"];
      const ms = await timeRun(alone, realBwrap);
      if (measured) bwrapAlone.push(ms);
    }
    const bareMs = await timeRun(
      ["--ro-bind", "/", "/", "--dev", "/dev", "--unshare-pid", "--die-with-parent", "true"],
      realBwrap,
    );
    if (measured) bwrapBare.push(bareMs);
  }
  for (const mode of ["plain", "declined", "idle"] as const) {
    const probe = await gateFirstCheck(mode);
    if (measured) {
      for (const [key, value] of Object.entries(probe)) (gate[key] ??= []).push(value);
    }
    if (baseTree) {
      // The baseline's probe beside this tree's, in the same round.
      const before = await gateFirstCheck(mode, baseTree, BASE_FLAGS);
      if (measured) {
        for (const [key, value] of Object.entries(before)) {
          (times[`base gate ${key}`] ??= []).push(value);
          (times[`this gate ${key}`] ??= []).push(probe[key]);
        }
      }
    }
  }
}

const emptyMs = median(times.empty);
const ms = (n: number) => `${n.toFixed(1)} ms`;
const ratio = (n: number, base = emptyMs) => `${(n / base).toFixed(2)}×`;
const rows: Record<string, string>[] = [];
rows.push({ what: "deno run of an empty module", time: ms(emptyMs), ratio: "1.00×", goal: "" });
const versionMs = median(times.version);
rows.push({
  what: "wisp --version",
  time: ms(versionMs),
  ratio: ratio(versionMs),
  goal: `≤ 1.3× ${versionMs / emptyMs <= 1.3 ? "met" : "NOT met"}`,
});
const configMs = median(times.config);
rows.push({
  what: "wisp config",
  time: ms(configMs),
  ratio: ratio(configMs),
  goal: `≤ 2× ${configMs / emptyMs <= 2 ? "met" : "NOT met"}`,
});
if (sandbox.total.length > 0) {
  const total = median(sandbox.total);
  rows.push({
    what: "wisp sandbox -- true",
    time: ms(total),
    ratio: ratio(total),
    goal: `≤ 150 ms ${total <= 150 ? "met" : "NOT met"}`,
  });
  if (sandbox.toLaunch.length > 0) {
    const toLaunch = median(sandbox.toLaunch);
    const alone = median(bwrapAlone);
    if (sandbox.toProbe.length > 0) {
      rows.push({
        what: "  CLI start → the nested-sandbox probe's launcher starts",
        time: ms(median(sandbox.toProbe)),
        ratio: ratio(median(sandbox.toProbe)),
        goal: "",
      });
    }
    rows.push({
      what: "  CLI start → bubblewrap starts",
      time: ms(toLaunch),
      ratio: ratio(toLaunch),
      goal: "",
    });
    rows.push({
      what: `  bubblewrap alone, wisp's ${bwrapArgs?.length ?? 0} arguments`,
      time: ms(alone),
      ratio: ratio(alone),
      goal: "",
    });
    rows.push({
      what: "  the rest (supervisor, exit, audit)",
      time: ms(Math.max(0, total - toLaunch - alone)),
      ratio: "",
      goal: "",
    });
  }
  rows.push({
    what: "  bare bwrap … true",
    time: ms(median(bwrapBare)),
    ratio: ratio(median(bwrapBare)),
    goal: "",
  });
}
const mcpMs = median(times.mcp);
const bareLineMs = median(times.bareLine);
rows.push({
  what: "wisp mcp, start → initialize reply",
  time: ms(mcpMs),
  ratio: `${ratio(mcpMs)} (${ratio(mcpMs, bareLineMs)} a bare line answer)`,
  goal: `≤ 300 ms ${mcpMs <= 300 ? "met" : "NOT met"}`,
});
const first = median(gate.firstCheck);
rows.push({
  what: "the gate's first check in a process",
  time: ms(first),
  ratio: "",
  goal: `≤ 20 ms ${first <= 20 ? "met" : "NOT met"}`,
});
rows.push({
  what: "  process start → that first answer",
  time: ms(median(gate.startToAnswer)),
  ratio: "",
  goal: "",
});
rows.push({ what: "  the second check", time: ms(median(gate.secondCheck)), ratio: "", goal: "" });
rows.push({
  what: "  first check of a line the quick reader declines",
  time: ms(median(gate.declinedFirstCheck)),
  ratio: "",
  goal: "",
});
rows.push({
  what: "  process start → that first answer",
  time: ms(median(gate.declinedStartToAnswer)),
  ratio: "",
  goal: "",
});
rows.push({
  what: "  a declined line 1 s after a long-lived process's start",
  time: ms(median(gate.idleDeclinedCheck)),
  ratio: "",
  goal: "",
});

console.log(
  `start-up, median of ${RUNS} interleaved runs, ${FROM_SOURCE ? "the work tree" : "as built"}; ` +
    `load average ${loadAtStart} at the start, ${loadAverage()} at the end (2 cores shared)`,
);
console.table(rows);

if (baseTree) {
  const gateRows = [
    "firstCheck",
    "startToAnswer",
    "declinedFirstCheck",
    "declinedStartToAnswer",
    "idleDeclinedCheck",
  ].map((key) => `gate ${key}`);
  const pairs = [...Object.keys(BASELINE_CASES), ...gateRows].filter((name) =>
    times[`base ${name}`]
  );
  console.log(`\nagainst the baseline ${BASELINE}, the same rounds (ratio: this tree / baseline)`);
  console.table(pairs.map((name) => {
    const [before, after] = [median(times[`base ${name}`]), median(times[`this ${name}`])];
    const spread = (values: number[]) => `${ms(Math.min(...values))}–${ms(Math.max(...values))}`;
    return {
      what: name,
      baseline: ms(before),
      "this tree": ms(after),
      ratio: `${(after / before).toFixed(2)}×`,
      "this tree's range": spread(times[`this ${name}`]),
    };
  }));
}

// ---- Profiles -----------------------------------------------------------------------------------

interface Group {
  group: string;
  modules: number;
  firstAtMs: number;
  cpuMs: number;
}

/** The module group a script URL belongs to: an npm package, a node: module, or a src/ folder. */
function groupOf(url: string): string {
  const npm = /node_modules\/\.deno\/([^/]+)\//.exec(url);
  if (npm) return `npm:${npm[1].replace(/^(@[^+]+)\+/, "$1/")}`;
  if (url.startsWith("node:")) return "node: built-ins";
  // Started by the first node: module or npm package a process loads (docs/adr/0680).
  if (url.startsWith("ext:deno_node")) return "(Deno's Node layer)";
  if (url.startsWith("ext:") || url === "") return "(Deno's runtime)";
  if (url.startsWith("wasm://")) return "(WebAssembly)";
  const local = url.startsWith(`file://${tree}/`) ? url.slice(`file://${tree}/`.length) : url;
  const parts = local.split("/");
  return parts.length > 2 ? `${parts.slice(0, 2).join("/")}/` : parts.join("/");
}

/**
 * One run of `args` under the inspector: every script the process compiles
 * (with when it arrived) and a CPU profile, folded into groups.
 */
async function profile(args: string[]): Promise<{ groups: Group[]; wallMs: number }> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    // Without -q: the inspector's address is on stderr.
    args: [args[0], "--inspect-brk=127.0.0.1:0", ...args.slice(1).filter((a) => a !== "-q")],
    env,
    clearEnv: true,
    cwd: work,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const lines = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  let address: string | undefined;
  while (!address) {
    const { value, done } = await lines.read();
    if (done) throw new Error(`${args.join(" ")}: no inspector address`);
    seen += value;
    address = /ws:\/\/\S+/.exec(seen)?.[0];
  }
  (async () => {
    while (!(await lines.read()).done) { /* drain */ }
  })();
  const socket = new WebSocket(address);
  await new Promise((resolve) => socket.onopen = resolve);
  const pending = new Map<number, (result: unknown) => void>();
  const scripts: Array<{ url: string; at: number }> = [];
  let finished!: () => void;
  const ended = new Promise<void>((resolve) => finished = resolve);
  // A process that ends without the inspector's last event ends the wait too.
  child.status.then(() => finished());
  let nextId = 1;
  const send = <T>(method: string, params: Record<string, unknown> = {}) =>
    new Promise<T>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve as (result: unknown) => void);
      socket.send(JSON.stringify({ id, method, params }));
    });
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.id) pending.get(message.id)?.(message.result);
    else if (message.method === "Debugger.scriptParsed") {
      scripts.push({ url: message.params.url, at: performance.now() - started });
    } else if (message.method === "Debugger.paused") send("Debugger.resume");
    else if (message.method === "Runtime.executionContextDestroyed") finished();
  };
  await send("Runtime.enable");
  await send("Debugger.enable");
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: 250 });
  await send("Profiler.start");
  const running = performance.now();
  await send("Runtime.runIfWaitingForDebugger");
  await ended;
  const wallMs = performance.now() - running;
  // Deno waits for the inspector to leave before it exits; one that exited anyway has no profile.
  const stopped = await Promise.race([
    send<{ profile: CpuProfile }>("Profiler.stop"),
    child.status.then(() => undefined),
  ]);
  const profile = stopped?.profile ?? { nodes: [], samples: [], timeDeltas: [] };
  socket.close();
  await child.status;

  const groups = new Map<string, Group>();
  const groupFor = (name: string) => {
    let group = groups.get(name);
    if (!group) groups.set(name, group = { group: name, modules: 0, firstAtMs: NaN, cpuMs: 0 });
    return group;
  };
  for (const script of scripts) {
    const group = groupFor(groupOf(script.url));
    group.modules++;
    if (!(group.firstAtMs <= script.at)) group.firstAtMs = script.at;
  }
  const selfUs = new Map<number, number>();
  profile.samples.forEach((node, i) => {
    selfUs.set(node, (selfUs.get(node) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id) ?? 0;
    if (us === 0) continue;
    const frame = node.callFrame;
    // Samples outside any script: Deno's own work (module loading, ops), idle, the collector.
    const name = frame.url
      ? groupOf(frame.url)
      : frame.functionName.startsWith("op_")
      ? "(Deno's ops: files, processes, module loading)"
      : `(${frame.functionName.replace(/[()]/g, "") || "native"})`;
    groupFor(name).cpuMs += us / 1000;
  }
  return { groups: [...groups.values()], wallMs };
}

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { url: string; functionName: string } }>;
  samples: number[];
  timeDeltas: number[];
}

if (PROFILE) {
  const commands: Record<string, string[]> = {
    "wisp --version": [...FLAGS, MAIN, "--version"],
    "wisp config": [...FLAGS, MAIN, "config"],
    "wisp sandbox -- true": [...FLAGS, MAIN, "sandbox", "--", "true"],
    // Standard input is closed: the server starts, reads the end, and stops.
    "wisp mcp (starts, then reads the end of its input)": [...FLAGS, MAIN, "mcp"],
  };
  for (const [name, args] of Object.entries(commands)) {
    const { groups, wallMs } = await profile(args);
    const modules = groups.reduce((sum, g) => sum + g.modules, 0);
    console.log(
      `\n${name}: ${modules} scripts compiled, ${wallMs.toFixed(0)} ms under the inspector ` +
        '(sampling every 250 µs, which slows the run); "first compiled at" counts from the ' +
        "spawn, the top 16 groups by CPU",
    );
    groups.sort((a, b) => b.cpuMs - a.cpuMs);
    console.table(
      groups.slice(0, 16).map((g) => ({
        group: g.group,
        modules: g.modules || "",
        "first compiled at": Number.isNaN(g.firstAtMs) ? "" : `${g.firstAtMs.toFixed(0)} ms`,
        "CPU in its code": `${g.cpuMs.toFixed(1)} ms`,
      })),
    );
  }
}

await Deno.remove(scratch, { recursive: true });
