/**
 * A fresh process that assesses lines with a real Gate and prints, for each,
 * what the gate decided and whether the full shell parser was loaded by then.
 * With `preloaded`, the parser is loaded before the first line; without, the
 * gate loads it only when a parse needs it. quick_parse_test.ts compares the
 * two.
 *
 *   deno run -A test/gate/quick_parse_probe.ts HOME_DIR [preloaded] < lines (JSON array)
 */
import { Gate } from "../../src/gate/gate.ts";
import { initShellParser, shellParserReady } from "../../src/gate/parse.ts";
import { homePaths } from "../../src/config/home.ts";
import { configSchema } from "../../src/config/schema.ts";

const [dir, mode] = Deno.args;
if (mode === "preloaded") await initShellParser();
const lines: string[] = JSON.parse(await new Response(Deno.stdin.readable).text());
const gate = new Gate({
  config: configSchema.parse({}),
  home: homePaths(`${dir}/.wisp`),
  audit: { session: "probe", record: () => ({}) } as unknown as ConstructorParameters<
    typeof Gate
  >[0]["audit"],
  env: { HOME: dir },
  userHome: dir,
});
const out = [];
for (const line of lines) {
  const { policy, parts, level } = await gate.assess(line, { cwd: dir, origin: "model" });
  out.push({
    line,
    allowed: policy.allowed,
    reason: policy.allowed ? null : policy.reason,
    level,
    parts: parts.map((p) => ({ level: p.level, reasons: p.reasons })),
    parserLoaded: shellParserReady(),
  });
}
console.log(JSON.stringify(out));
