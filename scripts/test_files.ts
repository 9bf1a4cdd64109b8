/**
 * The pieces of `deno task test` that decide what to run and read what ran:
 * which test files a set of arguments names (deno test's own file pattern and
 * the config's excludes), and the counts in one file's closing line.
 *
 * The task runs each test file as its own `deno test` process, a few at a
 * time, because `deno test --parallel` prints a test's line only when the
 * test ends and never says when a file is done: with a long end-to-end test
 * in every worker the log stays silent for a minute and more. One process a
 * file lets the task print each file's whole output and result the moment
 * it finishes.
 */
import { join, relative, resolve } from "node:path";
import { parse as parseJsonc } from "jsonc-parser";

/** deno test's default test-file names: test.ts, *_test.ts and *.test.ts (and js/tsx/mts/…). */
const TEST_FILE = /(^|[._])test\.(ts|tsx|mts|js|jsx|mjs)$/;

/** deno test flags that take the next argument as their value. */
const FLAGS_WITH_VALUE = new Set([
  "--filter",
  "--reporter",
  "--junit-path",
  "--seed",
  "--coverage",
  "--config",
  "-c",
  "--import-map",
  "--location",
  "--env-file",
]);

/** The arguments given to the task, split into paths to test and flags for deno test. */
export interface TestArgs {
  paths: string[];
  flags: string[];
}

/** Splits the task's arguments: a flag's value stays with the flag; the rest are paths. */
export function splitArgs(args: string[]): TestArgs {
  const paths: string[] = [];
  const flags: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg.startsWith("-")) {
      flags.push(arg);
      if (FLAGS_WITH_VALUE.has(arg) && i + 1 < args.length) flags.push(args[++i]);
    } else {
      paths.push(arg);
    }
  }
  return { paths, flags };
}

/**
 * The paths the config (deno.json) leaves out of testing: its top-level
 * "exclude" and "test.exclude", as absolute paths (each a file or a folder).
 */
export function configExcludes(root: string): string[] {
  let text: string;
  try {
    text = Deno.readTextFileSync(join(root, "deno.json"));
  } catch {
    return [];
  }
  const config = parseJsonc(text) ?? {};
  const patterns: unknown[] = [...(config.exclude ?? []), ...(config.test?.exclude ?? [])];
  return patterns.filter((p): p is string => typeof p === "string").map((p) => resolve(root, p));
}

function excluded(path: string, excludes: string[]): boolean {
  return excludes.some((ex) =>
    path === ex.replace(/\/$/, "") || path.startsWith(ex.replace(/\/?$/, "/"))
  );
}

/**
 * The test files under `paths` (relative to `root`), sorted: a file named
 * outright is taken as it is; a folder gives every file in it whose name is
 * a test file's, outside the excluded paths.
 */
export function testFiles(root: string, paths: string[], excludes: string[]): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = join(dir, entry.name);
      if (excluded(path, excludes)) continue;
      if (entry.isDirectory) walk(path);
      else if (entry.isFile && TEST_FILE.test(entry.name)) found.add(path);
    }
  };
  for (const given of paths) {
    const path = resolve(root, given);
    if (Deno.statSync(path).isDirectory) {
      if (!excluded(path, excludes)) walk(path);
    } else found.add(path);
  }
  return [...found].sort().map((path) => {
    const inside = relative(root, path);
    return inside.startsWith("..") ? path : `./${inside}`;
  });
}

/** What one file's run came to. */
export interface FileCounts {
  passed: number;
  failed: number;
}

/**
 * The counts in deno test's closing line ("ok | 12 passed (3 steps) | 0
 * failed | 1 ignored (5s)"), colours removed; undefined when the run ended
 * without one (it could not load the file, or it crashed).
 */
export function closingCounts(output: string): FileCounts | undefined {
  // deno-lint-ignore no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  const last = [...plain.matchAll(/(\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed/g)].at(-1);
  return last ? { passed: Number(last[1]), failed: Number(last[2]) } : undefined;
}

/** Seconds, for the log: "12s", "1m05s". */
export function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`;
}

/** How long one test file's process ran. */
export interface FileTime {
  file: string;
  ms: number;
}

/**
 * The closing report's lines: the `count` slowest files, slowest first, each
 * with its time; the header says how many files there were in all, so a
 * reader knows how much of the run the list covers.
 */
export function slowestFiles(times: FileTime[], count: number): string[] {
  if (times.length === 0) return [];
  const slowest = [...times].sort((a, b) => b.ms - a.ms || a.file.localeCompare(b.file))
    .slice(0, count);
  const width = Math.max(...slowest.map((t) => duration(t.ms).length));
  return [
    `the ${slowest.length} slowest of ${times.length} files:`,
    ...slowest.map((t) => `  ${duration(t.ms).padStart(width)}  ${t.file}`),
  ];
}

/**
 * The order to start files in, slowest first, so that the run does not end
 * with one long file alone on a worker while the others sit idle.
 * `lastTimes` holds each file's time (ms) from earlier runs, when any were
 * recorded. A file without one (a new file, or every file on a fresh CI
 * machine) is guessed from its name: an end-to-end file (`e2e` in its name,
 * it drives real processes) as slow as the slowest tenth of the timed files,
 * any other as quick. Ties keep the given (name) order, so the order is the
 * same from run to run.
 */
export function startOrder(files: string[], lastTimes: Record<string, number>): string[] {
  const endToEnd = (file: string) => /e2e/.test(file.split("/").at(-1) ?? "");
  const timed = Object.values(lastTimes).sort((a, b) => b - a);
  const slowGuess = timed.length > 0 ? timed[Math.floor(timed.length / 10)] : 1;
  const weight = (file: string) => lastTimes[file] ?? (endToEnd(file) ? slowGuess : 0);
  return files
    .map((file, index) => ({ file, index, weight: weight(file) }))
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.file);
}
