/**
 * Facts a command's run shows, recorded as the tool's observations (rank 2,
 * `from tool run_command, turn 2, entry 9`): where it ran (workdir), the git
 * branch a git command reports, and a test command's latest result. A later
 * run of the same command (the model's or the person's) replaces them, as
 * the kinds' normalisers make the names one.
 *
 * Pure: the run's command line, directory, exit status and output in; the
 * facts to record out. The test result is read by triage's exact readers,
 * never a model.
 */
import { triageText } from "../../condense/triage.ts";
import type { FactInput, FactSource } from "./book.ts";
import { commandCore, shellTokens } from "./normalise.ts";

/** One finished run of a command. */
export interface ObservedRun {
  /** The tool that ran it (run_command), or the person's own command (`person`). */
  tool: string;
  command: string;
  cwd: string;
  exitStatus: number | null;
  /** What it printed (stdout, then stderr). */
  output: string;
  turn?: number;
  entry?: number;
}

/** Programs (with the subcommand that makes them run tests) whose runs are test results. */
const TEST_RUNNERS: readonly (readonly string[])[] = [
  ["deno", "test"],
  ["cargo", "test"],
  ["cargo", "nextest"],
  ["go", "test"],
  ["swift", "test"],
  ["dotnet", "test"],
  ["mvn", "test"],
  ["mvn", "verify"],
  ["gradle", "test"],
  ["./gradlew", "test"],
  ["npm", "test"],
  ["npm", "run", "test"],
  ["npm", "t"],
  ["yarn", "test"],
  ["pnpm", "test"],
  ["bun", "test"],
  ["make", "test"],
  ["make", "check"],
  ["ctest"],
  ["pytest"],
  ["pytest-3"],
  ["python", "-m", "pytest"],
  ["python3", "-m", "pytest"],
  ["python", "-m", "unittest"],
  ["python3", "-m", "unittest"],
  ["tox"],
  ["nox"],
  ["jest"],
  ["vitest"],
  ["mocha"],
  ["rspec"],
  ["phpunit"],
  ["mix", "test"],
  ["npx", "jest"],
  ["npx", "vitest"],
];

/** Whether a command line's core runs tests. */
export function isTestCommand(command: string): boolean {
  const words = shellTokens(commandCore(command).split(" | ")[0]).map((w) =>
    w.replace(/^["']|["']$/g, "")
  );
  // `vendor/bin/phpunit`, `./node_modules/.bin/jest`: the program's own name decides.
  const first = words[0]?.includes("/") && !words[0].startsWith("./gradlew")
    ? words[0].slice(words[0].lastIndexOf("/") + 1)
    : words[0];
  const program = [first, ...words.slice(1)];
  return TEST_RUNNERS.some((runner) => runner.every((word, i) => program[i] === word));
}

/** The branch a git command's output reports, or undefined. */
export function branchFromGit(command: string, output: string): string | undefined {
  const words = shellTokens(commandCore(command).split(" | ")[0]);
  if (words[0] !== "git") return undefined;
  const lines = output.split("\n").map((l) => l.replace(/\r$/, ""));
  const verb = words.find((w, i) => i > 0 && !w.startsWith("-"));
  for (const line of lines) {
    const onBranch = /^On branch (\S+)$/.exec(line);
    if (onBranch) return onBranch[1];
    const detached = /^HEAD detached at (\S+)$/.exec(line);
    if (detached) return `(detached at ${detached[1]})`;
    const switched = /^Switched to (?:a new )?branch '([^']+)'$/.exec(line);
    if (switched) return switched[1];
    // `git status -sb` and `--porcelain -b`: ## main...origin/main [ahead 1]
    const short =
      /^## (?:No commits yet on )?([^\s.]+(?:\.(?!\.)[^\s.]+)*)(?:\.\.\.\S+)?(?: \[.*\])?$/
        .exec(line);
    if (short && verb === "status") return short[1];
  }
  // `git branch`: the starred line is the current branch.
  if (verb === "branch" && !words.includes("--show-current")) {
    const current = lines.find((l) => l.startsWith("* "));
    if (current) {
      const name = current.slice(2).trim();
      return /^\(HEAD detached at (\S+)\)$/.test(name)
        ? `(detached at ${name.slice("(HEAD detached at ".length, -1)})`
        : name;
    }
  }
  // Commands whose whole output is the branch's name.
  const oneLine = lines.filter((l) => l.trim() !== "");
  const namesBranch = (verb === "branch" && words.includes("--show-current")) ||
    (verb === "rev-parse" && words.includes("--abbrev-ref") && words.includes("HEAD")) ||
    (verb === "symbolic-ref" && words.includes("--short"));
  if (namesBranch && oneLine.length === 1 && /^[^\s~^:?*\[\\]+$/.test(oneLine[0].trim())) {
    return oneLine[0].trim();
  }
  return undefined;
}

/** A test command's result in a few words, from triage's readers. */
export function testResult(command: string, exitStatus: number | null, output: string): string {
  const result = triageText(output, { command, exitStatus });
  const { test_failures, errors } = result.counts;
  const status = exitStatus === null ? "ended by a signal" : `exit ${exitStatus}`;
  if (result.outcome === "clean") return `passed (${status})`;
  if (result.outcome === "failures") {
    const parts = [
      ...(test_failures ? [`${test_failures} failed test${test_failures === 1 ? "" : "s"}`] : []),
      ...(errors ? [`${errors} error${errors === 1 ? "" : "s"}`] : []),
    ];
    return `failed: ${parts.join(", ") || "warnings"} (${status})`;
  }
  return `failed (${status}), no reader found why`;
}

/** The facts a run shows (see the module comment). */
export function observe(run: ObservedRun): FactInput[] {
  const source: FactSource = {
    by: "tool",
    method: "observed",
    tool: run.tool,
    ...(run.turn !== undefined ? { turn: run.turn } : {}),
    ...(run.entry !== undefined ? { entry: run.entry } : {}),
  };
  const facts: FactInput[] = [{ subject: "workdir", value: run.cwd, source }];
  const branch = run.exitStatus === 0 ? branchFromGit(run.command, run.output) : undefined;
  if (branch) facts.push({ subject: "branch", value: branch, source });
  if (isTestCommand(run.command)) {
    facts.push({
      subject: "tests",
      name: run.command,
      value: testResult(run.command, run.exitStatus, run.output),
      source,
    });
  }
  return facts;
}
