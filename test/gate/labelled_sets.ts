/**
 * Runs a labelled set (`wisp classifier measure`'s format) through the real Gate, in a scratch
 * wisp home and a scratch project folder, and gives each line's verdict as the measure reports
 * it: `deny` for a policy refusal, else the level.
 */
import { Gate } from "../../src/gate/gate.ts";
import { type Example, parseExamples, type Verdict } from "../../src/gate/measure.ts";
import { homePaths } from "../../src/config/home.ts";
import { configSchema } from "../../src/config/schema.ts";

export interface Rated {
  example: Example;
  verdict: Verdict;
  reasons: string[];
}

/** Rate every line of a fixture under test/fixtures/gate/ with the real Gate. */
export async function rateFixture(name: string): Promise<Rated[]> {
  const file = new URL(`../fixtures/gate/${name}`, import.meta.url);
  const examples = parseExamples(await Deno.readTextFile(file), name);
  const dir = await Deno.makeTempDir({ prefix: "wisp-labelled-" });
  try {
    const userHome = `${dir}/home`;
    const cwd = `${userHome}/project`;
    await Deno.mkdir(cwd, { recursive: true });
    const gate = new Gate({
      config: configSchema.parse({}),
      home: homePaths(`${userHome}/.wisp`),
      audit: { session: "test", record: () => ({}) as never },
      env: { HOME: userHome },
      userHome,
    });
    const out: Rated[] = [];
    for (const example of examples) {
      const a = await gate.assess(example.line, { cwd, origin: "model" });
      const verdict: Verdict = a.policy.allowed ? a.level : "deny";
      const reasons = a.policy.allowed
        ? a.parts.filter((p) => p.level === a.level).flatMap((p) => p.reasons)
        : [a.policy.reason ?? "denied by policy"];
      out.push({ example, verdict, reasons });
    }
    return out;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** One line per row, for a failure message. */
export function describe(rows: Rated[]): string {
  return rows.map((r) =>
    `line ${r.example.lineNo}: labelled ${r.example.label}, rated ${r.verdict}: ${r.example.line} (${
      r.reasons.join("; ")
    })`
  ).join("\n");
}
