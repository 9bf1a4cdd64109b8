/**
 * `deno task test`: makes sure the system tools the suite drives are present
 * (bubblewrap, tmux, bash, zsh, fish, ruby), installing what is missing with apt on
 * Debian/Ubuntu or Homebrew on a Mac, then runs the whole suite. Extra
 * arguments go to `deno test` (a file or folder narrows the run).
 *
 * Each test file runs as its own `deno test --no-check` process, DENO_JOBS
 * of them at a time, else one more than there are processors, and each
 * file's output and result are printed the moment it finishes
 * (scripts/test_files.ts says why). The tree is type-checked (and,
 * in a whole run, linted) once, beside the first files rather than before
 * them. The slowest files start first: by the times the last whole run kept
 * in .test-times.json, else end-to-end files first. Whenever nothing was
 * printed for 30 s (WISP_TEST_QUIET_MS), a line names what is still running,
 * and the run closes with the 25 slowest files and their times.
 * The run fails if the person's own wisp home changed meanwhile
 * (scripts/home_guard.ts). The last line, `tests: N passed, M failed`, is
 * what CI reads.
 */
import { fileURLToPath } from "node:url";
import { describeChanges, realHomes, snapshot } from "./home_guard.ts";
import {
  closingCounts,
  configExcludes,
  duration,
  type FileCounts,
  type FileTime,
  slowestFiles,
  splitArgs,
  startOrder,
  testFiles,
} from "./test_files.ts";

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
  // `ruby -c` on the Homebrew formula (test/scripts/release_test.ts).
  ruby: "ruby",
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

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** After this long without a line printed, the log says what is still running. */
const QUIET_MS = Number(Deno.env.get("WISP_TEST_QUIET_MS")) || 30_000;
/** Of one file's output, at most this many characters of its start and of its end are kept. */
const KEEP_CHARS = 1 << 20;
/** Each file's time in earlier runs (ms), for the next run's order; not committed. */
const TIMES_FILE = `${ROOT}.test-times.json`;
/** How many of the slowest files the closing report names. */
const SLOWEST_SHOWN = 25;

function readTimes(): Record<string, number> {
  try {
    const parsed = JSON.parse(Deno.readTextFileSync(TIMES_FILE));
    return typeof parsed === "object" && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

/** Keeps this run's times over the earlier ones (a file since removed keeps its old time, unused). */
function writeTimes(earlier: Record<string, number>, times: FileTime[]): void {
  const merged = { ...earlier, ...Object.fromEntries(times.map((t) => [t.file, t.ms])) };
  try {
    Deno.writeTextFileSync(TIMES_FILE, JSON.stringify(merged, null, 1) + "\n");
  } catch {
    // A read-only checkout only loses the ordering hint.
  }
}

const encoder = new TextEncoder();
let lastPrinted = Date.now();
const running = new Map<string, number>();

function say(text: string): void {
  Deno.stdout.writeSync(encoder.encode(text.endsWith("\n") ? text : `${text}\n`));
  lastPrinted = Date.now();
}

const ticker = setInterval(() => {
  if (Date.now() - lastPrinted < QUIET_MS || running.size === 0) return;
  const now = Date.now();
  const what = [...running].map(([name, since]) => `${name} (${duration(now - since)})`);
  say(`… still running: ${what.join(", ")}`);
}, 1000);

/** Runs deno with `args`, its stdout and stderr kept together in the order they came. */
async function runDeno(name: string, args: string[]): Promise<{ code: number; output: string }> {
  running.set(name, Date.now());
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // Each stream has its own decoder, so a character split between two reads
  // of one stream is not mixed with the other stream's text.
  const head: string[] = [];
  const tail: string[] = [];
  let headSize = 0;
  let tailSize = 0;
  let dropped = 0;
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) {
      if (headSize < KEEP_CHARS) {
        head.push(text);
        headSize += text.length;
        continue;
      }
      tail.push(text);
      tailSize += text.length;
      while (tailSize - tail[0].length > KEEP_CHARS) {
        dropped += tail[0].length;
        tailSize -= tail.shift()!.length;
      }
    }
  };
  await Promise.all([collect(child.stdout), collect(child.stderr)]);
  const { code } = await child.status;
  running.delete(name);
  const gap = dropped > 0 ? `\n[… ${dropped} characters of output left out …]\n` : "";
  const output = head.join("") + gap + tail.join("");
  return { code, output };
}

await ensureTools();
const whole = Deno.args.length === 0;
const { paths, flags } = splitArgs(Deno.args);
const files = testFiles(ROOT, paths.length > 0 ? paths : ["test/"], configExcludes(ROOT));
const homes = realHomes();
const homesBefore = await Promise.all(homes.map(snapshot));
// One more file than there are processors: the files spend about half their
// time waiting on the processes they start and on timers, and a worker that
// waits leaves its processor idle (bench/results/suite-time.md).
const jobs = Math.max(
  1,
  Number(Deno.env.get("DENO_JOBS")) || (navigator.hardwareConcurrency || 2) + 1,
);
let code = 0;

// The whole suite also type-checks every module (some are not reached by a
// test) and lints the tree; a narrowed run checks the files it runs. The
// files run unchecked, each in its own process, so the check and the lint
// need not hold them up: they run beside the first files, and their output
// is printed when they end.
say(
  whole ? "type-checking and linting the whole tree" : `type-checking ${files.length} test files`,
);
const checked = runDeno(
  "deno check",
  ["check", "-q", ...(whole ? ["main.ts", "src/", "test/", "bench/", "scripts/", "eval/"] : files)],
).then((check) => {
  if (check.output.trim()) say(check.output);
  if (check.code !== 0) {
    say("deno check failed");
    code = 1;
  }
});
const linted = !whole ? Promise.resolve() : runDeno("deno lint", ["lint", "-q"]).then((lint) => {
  if (lint.output.trim()) say(lint.output);
  if (lint.code !== 0) {
    say("deno lint failed");
    code = 1;
  }
});

say(`running ${files.length} test files, ${jobs} at a time`);
const total: FileCounts = { passed: 0, failed: 0 };
const failedFiles: string[] = [];
const lastTimes = readTimes();
const times: FileTime[] = [];
const queue = startOrder(files, lastTimes);
async function worker(): Promise<void> {
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const started = Date.now();
    const run = await runDeno(file, ["test", "-A", "--no-check", ...flags, file]);
    const counts = closingCounts(run.output);
    const ms = Date.now() - started;
    times.push({ file, ms });
    const took = duration(ms);
    let result: string;
    if (counts) {
      total.passed += counts.passed;
      total.failed += counts.failed;
      result = `${counts.passed} passed, ${counts.failed} failed`;
    } else {
      total.failed += run.code === 0 ? 0 : 1;
      result = run.code === 0 ? "no tests" : "ended without a summary, counted as 1 failed";
    }
    const ok = run.code === 0 && (counts?.failed ?? 0) === 0;
    if (!ok) failedFiles.push(file);
    say(`${run.output.trimEnd()}\n${ok ? "ok" : "FAILED"}  ${file}  ${result}  (${took})\n`);
  }
}
await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker));
await Promise.all([checked, linted]);
// Only a whole run's times are kept: a narrowed one may name files outside the tree.
if (whole) writeTimes(lastTimes, times);
if (times.length > 1) say(`\n${slowestFiles(times, SLOWEST_SHOWN).join("\n")}`);
if (failedFiles.length > 0) {
  say(`\nfiles with failures:\n${failedFiles.map((f) => `  ${f}`).join("\n")}`);
  code = 1;
}

// Every test runs with a scratch home: the person's own must be as it was.
const homesAfter = await Promise.all(homes.map(snapshot));
const changes = homes.flatMap((home, i) => describeChanges(home, homesBefore[i], homesAfter[i]));
if (changes.length > 0) {
  say(
    `\nthe suite changed the real wisp home (every test must use a scratch WISP_HOME; ` +
      `if you ran wisp yourself meanwhile, run the suite again):\n` +
      changes.slice(0, 20).map((c) => `  ${c}`).join("\n") +
      (changes.length > 20 ? `\n  … and ${changes.length - 20} more` : ""),
  );
  code = 1;
}

clearInterval(ticker);
say(`\ntests: ${total.passed} passed, ${total.failed} failed`);
Deno.exit(code);
