/**
 * wisp's secret scanner side by side with secretlint (its recommended
 * preset) on the same inputs, in one run:
 *
 *   1. the labelled corpus (test/fixtures/secrets): precision and recall;
 *   2. a large generated tree (copies of the corpus among code-like filler):
 *      precision, recall, and end-to-end MB/s of each CLI;
 *   3. the engines alone, in process, over the same files: MB/s.
 *
 *   deno run -A bench/secrets_bench.ts [--mb 24] [--json] [--rounds N] [--baseline=DIR]
 *
 * With `--rounds N`, N more rounds run the two CLIs on the tree one after the other (and, with
 * `--baseline=DIR`, another checkout of wisp in the same round, e.g. the commit before a change),
 * each round's ratios printed with the load average it ran at: on a shared machine, runs side by
 * side in one round are the comparison that holds, and the spread over rounds shows the noise.
 *
 * secretlint is not a dependency of wisp: the bench installs it with npm into
 * a temporary folder (or uses SECRETLINT_DIR, a folder where
 * `npm install secretlint @secretlint/secretlint-rule-preset-recommend` was run)
 * and runs it with node, the runtime it is built for. Diff files are left out
 * of the large tree because wisp locates a diff's findings in the files it
 * changes (path:line), which a per-file score cannot compare; the corpus score
 * covers the diff with both tools reading it as a plain file's lines.
 */
import { dirname, join, relative } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { generateCorpus, type Label } from "../test/secrets/make_corpus.ts";
import {
  expected,
  type Found,
  type Score,
  score,
  wispFindings,
} from "../test/secrets/corpus_eval.ts";
import { largeTree } from "../test/secrets/large_tree.ts";
import { scanText } from "../src/secrets/index.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const args = Deno.args;
const targetMb = Number(args[args.indexOf("--mb") + 1]) || 24;
const asJson = args.includes("--json");
const rounds = args.includes("--rounds") ? Number(args[args.indexOf("--rounds") + 1]) || 0 : 0;
const BASELINE = args.find((a) => a.startsWith("--baseline="))?.slice("--baseline=".length);

function log(line: string) {
  if (!asJson) console.error(line);
}

const GNU_TIME = (() => {
  try {
    return Deno.statSync("/usr/bin/time").isFile ? "/usr/bin/time" : null;
  } catch {
    return null;
  }
})();

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  /** Wall-clock seconds. */
  seconds: number;
  /** User + system CPU seconds of the process tree (when GNU time is there), else the wall time. */
  cpuSeconds: number;
}

/** Run a command; CPU time comes from GNU time, which is robust to a busy machine where wall time is not. */
async function run(
  cmd: string,
  argv: string[],
  cwd: string,
  env?: Record<string, string>,
): Promise<Ran> {
  const started = performance.now();
  const [program, programArgs] = GNU_TIME
    ? [GNU_TIME, ["-f", "@@cpu %U %S", cmd, ...argv]]
    : [cmd, argv];
  const out = await new Deno.Command(program, {
    args: programArgs,
    cwd,
    ...(env ? { env, clearEnv: true } : {}),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const seconds = (performance.now() - started) / 1000;
  let stderr = new TextDecoder().decode(out.stderr);
  let cpuSeconds = seconds;
  const m = /@@cpu (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)\s*$/.exec(stderr);
  if (m) {
    cpuSeconds = Number(m[1]) + Number(m[2]);
    stderr = stderr.slice(0, m.index);
  }
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr,
    seconds,
    cpuSeconds,
  };
}

/** The best (least) time of `n` runs: the run least disturbed by everything else on the machine. */
async function bestOf(n: number, once: () => Promise<Ran>): Promise<Ran> {
  let best: Ran | undefined;
  for (let i = 0; i < n; i++) {
    const r = await once();
    if (!best || r.cpuSeconds < best.cpuSeconds) {
      best = { ...r, seconds: Math.min(r.seconds, best?.seconds ?? Infinity) };
    } else best.seconds = Math.min(best.seconds, r.seconds);
  }
  return best!;
}

async function secretlintDir(): Promise<{ dir: string; temporary: boolean; version: string }> {
  let dir = Deno.env.get("SECRETLINT_DIR");
  let temporary = false;
  if (!dir) {
    dir = await Deno.makeTempDir({ prefix: "secretlint-bench-" });
    temporary = true;
    log(`installing secretlint into a temporary folder with npm (not a project dependency) ...`);
    const install = await run("npm", [
      "install",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      "--prefix",
      dir,
      "secretlint@13",
      "@secretlint/secretlint-rule-preset-recommend@13",
    ], dir);
    if (install.code !== 0) {
      throw new Error(`npm install secretlint failed: ${install.stderr.trim()}`);
    }
  }
  const pkg = JSON.parse(
    await Deno.readTextFile(join(dir, "node_modules", "secretlint", "package.json")),
  );
  return { dir, temporary, version: pkg.version };
}

async function writeTree(root: string, files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) {
    const full = join(root, path);
    await Deno.mkdir(dirname(full), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
  await Deno.writeTextFile(
    join(root, ".secretlintrc.json"),
    JSON.stringify({ rules: [{ id: "@secretlint/secretlint-rule-preset-recommend" }] }),
  );
}

interface SecretlintMessage {
  range: [number, number];
  loc: { start: { line: number }; end: { line: number } };
}

/** secretlint's JSON output as findings by file; overlapping messages (two rules, one value) count once. */
function secretlintFindings(stdout: string, root: string): Record<string, Found[]> {
  const out: Record<string, Found[]> = {};
  for (const file of JSON.parse(stdout) as { filePath: string; messages: SecretlintMessage[] }[]) {
    const path = relative(root, file.filePath);
    const kept: SecretlintMessage[] = [];
    for (const m of [...file.messages].sort((a, b) => a.range[0] - b.range[0])) {
      const last = kept.at(-1);
      if (last && m.range[0] < last.range[1]) continue;
      kept.push(m);
    }
    out[path] = kept.map((m) => ({
      line: m.loc.start.line,
      endLine: m.loc.end.line,
      kind: "secretlint",
    }));
  }
  return out;
}

function totalBytes(files: Record<string, string>): number {
  let n = 0;
  for (const text of Object.values(files)) n += new TextEncoder().encode(text).length;
  return n;
}

function wispScore(files: Record<string, string>, labels: Record<string, Label[]>): Score {
  const found: Record<string, Found[]> = {};
  const want: Record<string, Label[]> = {};
  for (const [path, text] of Object.entries(files)) {
    found[path] = wispFindings(path, text, false);
    want[path] = expected(labels[path] ?? [], false);
  }
  return score(want, found);
}

/** wisp's CLI JSON as findings by file, relative to the tree. */
function wispCliFindings(stdout: string, root: string): Record<string, Found[]> {
  const out: Record<string, Found[]> = {};
  for (const f of JSON.parse(stdout).findings as { path: string; line: number; kind: string }[]) {
    const path = relative(root, join(root, f.path));
    (out[path] ??= []).push({ line: f.line, kind: f.kind });
  }
  return out;
}

const NODE_ENGINE_SCRIPT = `
import { readFileSync } from "node:fs";
import { lintSource } from "@secretlint/core";
import { creator } from "@secretlint/secretlint-rule-preset-recommend";
const paths = JSON.parse(readFileSync(process.argv[2], "utf8"));
const sources = paths.map((p) => ({ filePath: p, content: readFileSync(p, "utf8"), contentType: "text" }));
const config = { rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: creator }] };
let best = Infinity;
let messages = 0;
for (let round = 0; round < 3; round++) {
  messages = 0;
  const c0 = process.cpuUsage();
  for (const source of sources) {
    const result = await lintSource({ source, options: { config, maskSecrets: true } });
    messages += result.messages.length;
  }
  const c = process.cpuUsage(c0);
  best = Math.min(best, (c.user + c.system) / 1000);
}
console.log(JSON.stringify({ ms: best, messages }));
`;

function fmt(n: number, digits = 3): string {
  return n.toFixed(digits);
}

/** One interleaved round: each CLI's wall-clock and CPU seconds, and the load it ran at. */
interface Round {
  load: number;
  wisp: { seconds: number; cpuSeconds: number };
  secretlint: { seconds: number; cpuSeconds: number };
  baseline?: { seconds: number; cpuSeconds: number };
}

/**
 * Run the CLIs one after the other, `n` times; wisp's output must be the same in every round (and
 * the baseline's the same as wisp's: a faster scan that finds something else is no result).
 */
async function interleavedRounds(
  n: number,
  runs: { wisp: () => Promise<Ran>; secretlint: () => Promise<Ran>; baseline?: () => Promise<Ran> },
  expectedStdout: string,
): Promise<Round[]> {
  const out: Round[] = [];
  const times = (r: Ran) => ({ seconds: r.seconds, cpuSeconds: r.cpuSeconds });
  for (let i = 0; i < n; i++) {
    const load = Deno.loadavg()[0];
    log(`round ${i + 1} of ${n} (load ${load.toFixed(1)}) ...`);
    const baseline = runs.baseline ? await runs.baseline() : undefined;
    const wisp = await runs.wisp();
    const secretlint = await runs.secretlint();
    if (wisp.stdout !== expectedStdout) throw new Error("wisp scan printed other findings");
    if (baseline && baseline.stdout !== expectedStdout) {
      throw new Error("the baseline printed other findings than this tree");
    }
    if (secretlint.code > 1) {
      throw new Error(`secretlint failed: ${secretlint.stderr.slice(0, 400)}`);
    }
    out.push({
      load,
      wisp: times(wisp),
      secretlint: times(secretlint),
      ...(baseline ? { baseline: times(baseline) } : {}),
    });
  }
  return out;
}

/** Each round's ratios, then the least, the median and the most of each. */
function printRounds(rounds: Round[]) {
  console.log(`\ninterleaved rounds on the tree (ratio: secretlint's time / wisp's)`);
  const wall = rounds.map((r) => r.secretlint.seconds / r.wisp.seconds);
  const cpu = rounds.map((r) => r.secretlint.cpuSeconds / r.wisp.cpuSeconds);
  rounds.forEach((r, i) => {
    const base = r.baseline
      ? `; baseline ${fmt(r.baseline.seconds, 2)} s, ${fmt(r.baseline.cpuSeconds, 2)} CPU s`
      : "";
    console.log(
      `  round ${i + 1}, load ${fmt(r.load, 1)}: wisp ${fmt(r.wisp.seconds, 2)} s, ${
        fmt(r.wisp.cpuSeconds, 2)
      } CPU s; secretlint ${fmt(r.secretlint.seconds, 2)} s, ${
        fmt(r.secretlint.cpuSeconds, 2)
      } CPU s; ${fmt(wall[i], 1)}x wall, ${fmt(cpu[i], 1)}x CPU${base}`,
    );
  });
  const spread = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return `${fmt(sorted[0], 1)}x / ${fmt(sorted[Math.floor((sorted.length - 1) / 2)], 1)}x / ${
      fmt(sorted[sorted.length - 1], 1)
    }x`;
  };
  console.log(`  least / median / most: wall ${spread(wall)}, CPU ${spread(cpu)}`);
  if (rounds.every((r) => r.baseline)) {
    const after = rounds.map((r) => r.baseline!.cpuSeconds / r.wisp.cpuSeconds);
    const afterWall = rounds.map((r) => r.baseline!.seconds / r.wisp.seconds);
    console.log(
      `  baseline / this tree: wall ${spread(afterWall)}, CPU ${spread(after)}`,
    );
  }
}

async function main() {
  const secretlint = await secretlintDir();
  const work = await Deno.makeTempDir({ prefix: "wisp-secrets-bench-" });
  const node = "node";
  const secretlintBin = join(secretlint.dir, "node_modules", "secretlint", "bin", "secretlint.js");
  try {
    // 1. The labelled corpus.
    const corpus = generateCorpus();
    const corpusDir = join(work, "corpus");
    await writeTree(corpusDir, corpus.files);
    const corpusLabels: Record<string, Label[]> = {};
    for (const [p, l] of Object.entries(corpus.labels)) corpusLabels[p] = expected(l, false);
    const wispCorpus = wispScore(corpus.files, corpus.labels);
    const slCorpusRun = await run(
      node,
      [secretlintBin, "--format", "json", "--no-color", "**/*"],
      corpusDir,
    );
    const slCorpus = score(corpusLabels, secretlintFindings(slCorpusRun.stdout, corpusDir));

    // 2. The large tree, end to end through each CLI.
    log(`writing a large tree of about ${targetMb} MB ...`);
    const tree = largeTree(targetMb * 1024 * 1024);
    const treeDir = join(work, "tree");
    await writeTree(treeDir, tree.files);
    const treeBytes = totalBytes(tree.files);
    const wispEnv = {
      WISP_HOME: join(work, "wisp-home"),
      HOME: work,
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    };
    const wispArgs = [
      "run",
      "-q",
      "-P=wisp",
      "--config",
      join(ROOT, "deno.json"),
      join(ROOT, "main.ts"),
      "scan",
      "--json",
      ".",
    ];
    const slArgs = [secretlintBin, "--format", "json", "--no-color", "**/*"];
    const wispRun = await bestOf(3, () => run(Deno.execPath(), wispArgs, treeDir, wispEnv));
    if (wispRun.code > 1) throw new Error(`wisp scan failed: ${wispRun.stderr}`);
    const wispTree = score(tree.labels, wispCliFindings(wispRun.stdout, treeDir));
    // The same with the opt-in pool of scanning threads (WISP_SCAN_THREADS), which must find the same.
    const pooledRun = await bestOf(
      3,
      () => run(Deno.execPath(), wispArgs, treeDir, { ...wispEnv, WISP_SCAN_THREADS: "2" }),
    );
    if (pooledRun.stdout !== wispRun.stdout) {
      throw new Error("wisp scan with WISP_SCAN_THREADS=2 printed different findings");
    }
    const slRun = await bestOf(2, () => run(node, slArgs, treeDir));
    if (slRun.code > 1) throw new Error(`secretlint failed: ${slRun.stderr.slice(0, 400)}`);
    const slTree = score(tree.labels, secretlintFindings(slRun.stdout, treeDir));

    // Start-up: each CLI on one empty file (what every run pays before its first byte).
    const emptyDir = join(work, "empty");
    await writeTree(emptyDir, { "empty.txt": "" });
    const wispStart = await bestOf(
      3,
      () => run(Deno.execPath(), [...wispArgs.slice(0, -1), "empty.txt"], emptyDir, wispEnv),
    );
    const slStart = await bestOf(
      2,
      () => run(node, [...slArgs.slice(0, -1), "empty.txt"], emptyDir),
    );

    // 3. The engines alone, in process, over the same files (CPU time, best of 3).
    const paths = Object.keys(tree.files).map((p) => join(treeDir, p));
    // Read back from disk, as both CLIs do (and as secretlint's engine run below does).
    const texts = paths.map((p) => Deno.readTextFileSync(p));
    let wispEngineSeconds = Infinity;
    let wispMessages = 0;
    for (let round = 0; round < 3; round++) {
      wispMessages = 0;
      const c0 = process.cpuUsage();
      for (let i = 0; i < texts.length; i++) {
        wispMessages += scanText(texts[i], { path: paths[i] }).length;
      }
      const c = process.cpuUsage(c0);
      wispEngineSeconds = Math.min(wispEngineSeconds, (c.user + c.system) / 1e6);
    }
    const listPath = join(work, "paths.json");
    await Deno.writeTextFile(listPath, JSON.stringify(paths));
    const scriptPath = join(secretlint.dir, "engine-bench.mjs");
    await Deno.writeTextFile(scriptPath, NODE_ENGINE_SCRIPT);
    const engineRun = await run(node, [scriptPath, listPath], secretlint.dir);
    const slEngine = engineRun.code === 0
      ? JSON.parse(engineRun.stdout) as { ms: number; messages: number }
      : null;

    const mb = treeBytes / 1024 / 1024;
    const interleaved = rounds > 0
      ? await interleavedRounds(rounds, {
        wisp: () => run(Deno.execPath(), wispArgs, treeDir, wispEnv),
        secretlint: () => run(node, slArgs, treeDir),
        ...(BASELINE
          ? {
            baseline: () =>
              run(
                Deno.execPath(),
                [
                  ...wispArgs.slice(0, 4),
                  join(BASELINE, "deno.json"),
                  join(BASELINE, "main.ts"),
                  ...wispArgs.slice(6),
                ],
                treeDir,
                wispEnv,
              ),
          }
          : {}),
      }, wispRun.stdout)
      : [];
    const rows = {
      secretlintVersion: secretlint.version,
      corpus: { wisp: wispCorpus, secretlint: slCorpus },
      tree: {
        megabytes: mb,
        files: paths.length,
        wisp: {
          ...wispTree,
          seconds: wispRun.seconds,
          cpuSeconds: wispRun.cpuSeconds,
          mbPerCpuSecond: mb / wispRun.cpuSeconds,
        },
        secretlint: {
          ...slTree,
          seconds: slRun.seconds,
          cpuSeconds: slRun.cpuSeconds,
          mbPerCpuSecond: mb / slRun.cpuSeconds,
        },
        wispTwoThreads: {
          seconds: pooledRun.seconds,
          cpuSeconds: pooledRun.cpuSeconds,
          mbPerCpuSecond: mb / pooledRun.cpuSeconds,
        },
      },
      startup: {
        wisp: { seconds: wispStart.seconds, cpuSeconds: wispStart.cpuSeconds },
        secretlint: { seconds: slStart.seconds, cpuSeconds: slStart.cpuSeconds },
      },
      engine: {
        wisp: {
          seconds: wispEngineSeconds,
          mbPerSecond: mb / wispEngineSeconds,
          findings: wispMessages,
        },
        secretlint: slEngine
          ? {
            seconds: slEngine.ms / 1000,
            mbPerSecond: mb / (slEngine.ms / 1000),
            findings: slEngine.messages,
          }
          : { error: engineRun.stderr.slice(0, 300) },
      },
      rounds: interleaved,
    };
    if (asJson) {
      console.log(
        JSON.stringify(rows, (k, v) => (k === "misses" || k === "falseAlarms" ? undefined : v), 1),
      );
      return;
    }
    const line = (cells: string[]) =>
      console.log(cells.map((c, i) => i === 0 ? c.padEnd(34) : c.padStart(12)).join(""));
    console.log(`secret scanning: wisp vs secretlint ${secretlint.version} (preset-recommend)\n`);
    line(["", "wisp", "secretlint", "ratio"]);
    line([
      "corpus precision",
      fmt(wispCorpus.precision),
      fmt(slCorpus.precision),
      fmt(wispCorpus.precision / slCorpus.precision, 2) + "x",
    ]);
    line([
      "corpus recall",
      fmt(wispCorpus.recall),
      fmt(slCorpus.recall),
      fmt(wispCorpus.recall / slCorpus.recall, 2) + "x",
    ]);
    line([
      `tree (${fmt(mb, 1)} MB, ${paths.length} files) precision`,
      fmt(wispTree.precision),
      fmt(slTree.precision),
      fmt(wispTree.precision / slTree.precision, 2) + "x",
    ]);
    line([
      "tree recall",
      fmt(wispTree.recall),
      fmt(slTree.recall),
      fmt(wispTree.recall / slTree.recall, 2) + "x",
    ]);
    line([
      "tree CLI MB per CPU second",
      fmt(mb / wispRun.cpuSeconds, 1),
      fmt(mb / slRun.cpuSeconds, 1),
      fmt(slRun.cpuSeconds / wispRun.cpuSeconds, 1) + "x",
    ]);
    line([
      "tree CLI MB/s (wall clock)",
      fmt(mb / wispRun.seconds, 1),
      fmt(mb / slRun.seconds, 1),
      fmt(slRun.seconds / wispRun.seconds, 1) + "x",
    ]);
    line([
      "  wisp with 2 threads, MB per CPU s",
      fmt(mb / pooledRun.cpuSeconds, 1),
      "",
      fmt(slRun.cpuSeconds / pooledRun.cpuSeconds, 1) + "x",
    ]);
    line([
      "  wisp with 2 threads, MB/s (wall)",
      fmt(mb / pooledRun.seconds, 1),
      "",
      fmt(slRun.seconds / pooledRun.seconds, 1) + "x",
    ]);
    line([
      "start-up, CPU s (one empty file)",
      fmt(wispStart.cpuSeconds, 2),
      fmt(slStart.cpuSeconds, 2),
      fmt(slStart.cpuSeconds / wispStart.cpuSeconds, 1) + "x",
    ]);
    line([
      "tree CLI less start-up, MB per CPU s",
      fmt(mb / (wispRun.cpuSeconds - wispStart.cpuSeconds), 1),
      fmt(mb / (slRun.cpuSeconds - slStart.cpuSeconds), 1),
      fmt(
        (slRun.cpuSeconds - slStart.cpuSeconds) / (wispRun.cpuSeconds - wispStart.cpuSeconds),
        1,
      ) + "x",
    ]);
    if (slEngine) {
      line([
        "engine MB per CPU second",
        fmt(mb / wispEngineSeconds, 1),
        fmt(mb / (slEngine.ms / 1000), 1),
        fmt(slEngine.ms / 1000 / wispEngineSeconds, 1) + "x",
      ]);
    } else console.log(`secretlint engine run failed: ${engineRun.stderr.slice(0, 300)}`);
    if (interleaved.length > 0) printRounds(interleaved);
    console.log(
      `\ncorpus: wisp tp ${wispCorpus.truePositives} fp ${wispCorpus.falsePositives} fn ${wispCorpus.falseNegatives}; ` +
        `secretlint tp ${slCorpus.truePositives} fp ${slCorpus.falsePositives} fn ${slCorpus.falseNegatives}`,
    );
    if (args.includes("--verbose")) {
      for (const m of wispCorpus.misses) console.log(`  wisp missed ${m}`);
      for (const f of wispCorpus.falseAlarms) console.log(`  wisp false alarm ${f}`);
      for (const m of slCorpus.misses) console.log(`  secretlint missed ${m}`);
      for (const f of slCorpus.falseAlarms) console.log(`  secretlint false alarm ${f}`);
    }
  } finally {
    await Deno.remove(work, { recursive: true });
    if (secretlint.temporary) await Deno.remove(secretlint.dir, { recursive: true });
  }
}

await main();
