/**
 * What one Tab costs when a completion script asks wisp for values
 * (`wisp completions values KIND`), as a ratio to `wisp --version` (the
 * cheapest start of wisp) in the same run; and printing a whole script
 * (`wisp completions zsh`), which install and Homebrew do once.
 * Command names and options complete from the script's own tables and start
 * nothing.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 11);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timeWisp(args: string[], env: Record<string, string>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < RUNS + 2; i++) {
    const start = performance.now();
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-q",
        "-P=wisp",
        "--config",
        join(ROOT, "deno.json"),
        join(ROOT, "main.ts"),
        ...args,
      ],
      env,
      stdout: "null",
      stderr: "piped",
    }).output();
    const elapsed = performance.now() - start;
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
    if (i >= 2) samples.push(elapsed); // two warm-up runs
  }
  return median(samples);
}

const home = await Deno.makeTempDir({ prefix: "wisp-bench-" });
const env = { WISP_HOME: join(home, "home"), NO_COLOR: "1" };
try {
  const versionMs = await timeWisp(["--version"], env);
  const rows: [string, number][] = [
    ["completions values settings", await timeWisp(["completions", "values", "settings"], env)],
    [
      "completions values setting-values",
      await timeWisp(["completions", "values", "setting-values", "approval.threshold"], env),
    ],
    ["completions values models", await timeWisp(["completions", "values", "models"], env)],
    ["completions values tools", await timeWisp(["completions", "values", "tools"], env)],
    ["completions values pending", await timeWisp(["completions", "values", "pending"], env)],
    ["completions zsh (whole script)", await timeWisp(["completions", "zsh"], env)],
  ];
  console.log("one Tab's values (median of %d runs)", RUNS);
  console.log("  %s %s ms   1.00×", "wisp --version".padEnd(40), versionMs.toFixed(1));
  for (const [name, ms] of rows) {
    console.log(
      "  %s %s ms   %s×",
      `wisp ${name}`.padEnd(40),
      ms.toFixed(1),
      (ms / versionMs).toFixed(2),
    );
  }
} finally {
  await Deno.remove(home, { recursive: true });
}
