/**
 * One fresh process's first gate checks, for bench/startup_bench.ts. It
 * starts the way `wisp sandbox` does: the shell parser's start first, then the
 * config and the gate's own modules loaded beside it, then the first check.
 * Prints JSON: parserStart (ms from starting the parser to its being ready),
 * firstCheck and secondCheck (ms each `assess` took); with `cold`, only
 * coldFirstCheck: the first check of a process that did not start the parser
 * ahead of it.
 *
 *   deno run -P=wisp --config deno.json bench/startup_gate_probe.ts TREE [cold]
 */
const tree = Deno.args[0];
const cold = Deno.args[1] === "cold";
// Computed specifiers: the tree is the bench's copy, not this file's own.
const src = (path: string) => `file://${tree}/src/${path}`;

const line = "npm test 2>&1 | tail -n 20";
let parserStart = NaN;
if (!cold) {
  const { initShellParser } = await import(
    src("gate/parse.ts")
  ) as typeof import("../src/gate/parse.ts");
  const began = performance.now();
  initShellParser().then(() => parserStart = performance.now() - began);
}
const { homePaths } = await import(src("config/home.ts")) as typeof import("../src/config/home.ts");
const { loadConfig } = await import(
  src("config/load.ts")
) as typeof import("../src/config/load.ts");
const { Gate } = await import(src("gate/gate.ts")) as typeof import("../src/gate/gate.ts");
const paths = homePaths();
const { config } = loadConfig(paths.config);
const audit = { session: "bench", record: () => ({}) } as unknown as ConstructorParameters<
  typeof Gate
>[0]["audit"];
const gate = new Gate({ config, home: paths, audit });
const context = { cwd: Deno.cwd(), origin: "sandbox" as const };
let start = performance.now();
const first = await gate.assess(line, context);
const firstCheck = performance.now() - start;
if (!first.policy.allowed) throw new Error(`the probe's line was refused: ${first.policy.reason}`);
start = performance.now();
await gate.assess("git status && echo done", context);
const secondCheck = performance.now() - start;

console.log(JSON.stringify(
  cold ? { coldFirstCheck: firstCheck } : { parserStart, firstCheck, secondCheck },
));
