/**
 * One fresh process's first gate checks, for bench/startup_bench.ts. It
 * starts the way `wisp sandbox` does: the config and the gate's modules
 * loaded, a Gate built, then the first check at once. Whatever the tree does
 * about its shell parser (start it when the gate is built, or load it only for
 * a line that needs it) is inside the numbers.
 *
 * `plain`: the first line is one the quick reader takes; `declined`: one it
 * leaves to tree-sitter (so the parser's whole start is in that check);
 * `idle`: a long-lived process (the MCP server, chat) that warms its parser
 * after its own start, then gets a declined line a second later. Prints
 * JSON: firstCheck (ms the first `assess` took), startToAnswer (ms from the
 * process's start to the first answer: moving cost in front of the check does
 * not hide here), and in `plain` mode secondCheck.
 *
 *   deno run -P=wisp --config deno.json bench/startup_gate_probe.ts TREE plain|declined|idle
 */
const tree = Deno.args[0];
const mode = Deno.args[1] === "declined" || Deno.args[1] === "idle" ? Deno.args[1] : "plain";
// Computed specifiers: the tree is the bench's copy, not this file's own.
const src = (path: string) => `file://${tree}/src/${path}`;

const PLAIN_LINE = "npm test 2>&1 | tail -n 20";
// A loop, a glob and a variable: the quick reader leaves all three to tree-sitter.
const DECLINED_LINE = 'for f in src/*.ts; do wc -l "$f"; done';

const { homePaths } = await import(
  src("config/home.ts")
) as typeof import("../src/config/home.ts");
const { loadConfig } = await import(
  src("config/load.ts")
) as typeof import("../src/config/load.ts");
const { Gate } = await import(
  src("gate/gate.ts")
) as typeof import("../src/gate/gate.ts");
const paths = homePaths();
const { config } = loadConfig(paths.config);
const audit = {
  session: "bench",
  record: () => ({}),
} as unknown as ConstructorParameters<
  typeof Gate
>[0]["audit"];
const gate = new Gate({ config, home: paths, audit });
const context = { cwd: Deno.cwd(), origin: "sandbox" as const };
if (mode === "idle") {
  // A tree from before the quick reader starts its parser when the gate is built instead.
  (gate as { warmShellParser?: () => void }).warmShellParser?.();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const began = performance.now();
  await gate.assess(DECLINED_LINE, context);
  console.log(JSON.stringify({ idleDeclinedCheck: performance.now() - began }));
  Deno.exit(0);
}
let start = performance.now();
const first = await gate.assess(
  mode === "plain" ? PLAIN_LINE : DECLINED_LINE,
  context,
);
const firstCheck = performance.now() - start;
// performance.now() counts from the process's time origin.
const startToAnswer = performance.now();
if (!first.policy.allowed) {
  throw new Error(`the probe's line was refused: ${first.policy.reason}`);
}
if (mode === "declined") {
  console.log(
    JSON.stringify({
      declinedFirstCheck: firstCheck,
      declinedStartToAnswer: startToAnswer,
    }),
  );
} else {
  start = performance.now();
  await gate.assess("git status && echo done", context);
  const secondCheck = performance.now() - start;
  console.log(JSON.stringify({ firstCheck, startToAnswer, secondCheck }));
}
