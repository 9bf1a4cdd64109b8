/**
 * What a run adds up to: per set, the cases passed, skipped, the floor for
 * the model's class, the time and the tokens; the table that prints it; the
 * JSON a later run compares against (`--baseline`); and that comparison.
 */
import { SET_NAMES, type SetName } from "./cases.ts";
import type { CaseResult } from "./run.ts";

/** A model class: the floors differ by how large a model is. */
export type ModelClass = "small" | "medium" | "large";
export const MODEL_CLASSES: readonly ModelClass[] = ["small", "medium", "large"];

/** floors.json: per set and class, the share of the cases run that must pass. */
export type Floors = Record<SetName, Record<ModelClass, number>>;

/** Read the floors; every set must have a share for every class. */
export function loadFloors(path = new URL("./floors.json", import.meta.url)): Floors {
  const raw = JSON.parse(Deno.readTextFileSync(path)) as { floors?: Record<string, unknown> };
  const floors = raw.floors as Floors | undefined;
  for (const set of SET_NAMES) {
    for (const cls of MODEL_CLASSES) {
      const share = floors?.[set]?.[cls];
      if (typeof share !== "number" || share < 0 || share > 1) {
        throw new Error(`eval/floors.json has no share from 0 to 1 for ${set}, class ${cls}`);
      }
    }
  }
  return floors!;
}

/**
 * The class a model's name implies from its parameter count (`granite4.1:8b`,
 * `qwen3-1.7b`, `gemma4:12b`), or null when the name does not say.
 */
export function classOf(modelName: string): ModelClass | null {
  const sizes = [...modelName.toLowerCase().matchAll(/(?:^|[^a-z0-9.])(\d+(?:\.\d+)?)b(?![a-z])/g)]
    .map((m) => Number(m[1]));
  if (sizes.length === 0) return null;
  const billions = sizes[sizes.length - 1];
  if (billions <= 4) return "small";
  if (billions <= 14) return "medium";
  return "large";
}

/** One set's line of the table. */
export interface SetSummary {
  set: SetName;
  passed: number;
  failed: number;
  skipped: number;
  /** Cases that must pass, of those run; null when there is no class to judge by. */
  floor: number | null;
  belowFloor: boolean;
  seconds: number;
  tokens: { input: number; output: number };
}

/** A run, as --json prints it and --baseline reads it. */
export interface RunReport {
  model: string;
  class: ModelClass | null;
  started: string;
  sets: SetSummary[];
  cases: CaseResult[];
}

/** Sum the results per set and judge each against its floor. */
export function summarise(
  results: CaseResult[],
  cls: ModelClass | null,
  floors: Floors,
): SetSummary[] {
  const sets = SET_NAMES.filter((s) => results.some((r) => r.set === s));
  return sets.map((set) => {
    const mine = results.filter((r) => r.set === set);
    const passed = mine.filter((r) => r.status === "pass").length;
    const failed = mine.filter((r) => r.status === "fail").length;
    const ran = passed + failed;
    const floor = cls === null ? null : Math.ceil(floors[set][cls] * ran);
    return {
      set,
      passed,
      failed,
      skipped: mine.length - ran,
      floor,
      belowFloor: floor !== null && passed < floor,
      seconds: mine.reduce((n, r) => n + r.seconds, 0),
      tokens: {
        input: mine.reduce((n, r) => n + r.tokens.input, 0),
        output: mine.reduce((n, r) => n + r.tokens.output, 0),
      },
    };
  });
}

function pad(cells: string[][]): string {
  const widths = cells[0].map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  return cells.map((row) => row.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd()).join(
    "\n",
  );
}

/** The table for one model: a line per set, then the cases that failed and why. */
export function renderTable(report: RunReport): string {
  const head = `model ${report.model}${
    report.class ? ` (class ${report.class})` : " (no class: pass --class to judge floors)"
  }`;
  const rows = [["SET", "PASSED", "SKIPPED", "FLOOR", "TIME", "TOKENS IN", "TOKENS OUT"]];
  for (const s of report.sets) {
    const ran = s.passed + s.failed;
    rows.push([
      s.set,
      `${s.passed} of ${ran}`,
      String(s.skipped),
      s.floor === null ? "-" : `${s.floor}${s.belowFloor ? " BELOW" : " ok"}`,
      `${s.seconds.toFixed(1)} s`,
      s.tokens.input.toLocaleString("en-US"),
      s.tokens.output.toLocaleString("en-US"),
    ]);
  }
  const lines = [head, pad(rows)];
  const failed = report.cases.filter((r) => r.status === "fail");
  if (failed.length > 0) {
    lines.push("", "failed:");
    for (const r of failed) lines.push(`  ${r.set}/${r.id}: ${r.reasons.join("; ")}`);
  }
  const skipped = report.cases.filter((r) => r.status === "skip");
  if (skipped.length > 0) {
    const reasons = [...new Set(skipped.map((r) => r.reasons.join("; ")))];
    lines.push("", `skipped ${skipped.length}: ${reasons.join("; ")}`);
  }
  return lines.join("\n");
}

/**
 * Passes per shape of behaviour (a case's `about`), set by set, so a shape
 * that fails as a whole (every CRLF edit, every dedent) stands out.
 */
export function renderShapes(report: RunReport): string {
  const rows = [["SET", "SHAPE", "PASSED"]];
  for (const s of report.sets) {
    const mine = report.cases.filter((r) => r.set === s.set && r.status !== "skip");
    for (const about of [...new Set(mine.map((r) => r.about))]) {
      const shape = mine.filter((r) => r.about === about);
      const passed = shape.filter((r) => r.status === "pass").length;
      rows.push([s.set, about, `${passed} of ${shape.length}`]);
    }
  }
  return pad(rows);
}

/** Read the runs written by --json (one model's, or several); a file that is not one is an error naming it. */
export function readBaseline(path: string): RunReport[] {
  let value: unknown;
  try {
    value = JSON.parse(Deno.readTextFileSync(path));
  } catch (error) {
    throw new Error(
      `cannot read the baseline ${path} (${
        error instanceof Error ? error.message : String(error)
      }); give a file written by deno task eval --json`,
    );
  }
  const runs = (Array.isArray(value) ? value : [value]) as Partial<RunReport>[];
  for (const run of runs) {
    if (
      !run || typeof run.model !== "string" || !Array.isArray(run.sets) ||
      !Array.isArray(run.cases)
    ) {
      throw new Error(`${path} is not a run written by deno task eval --json`);
    }
  }
  return runs as RunReport[];
}

/** This run against a baseline: each set's passes then and now, and the cases that changed. */
export function renderComparison(now: RunReport, then: RunReport): string {
  const rows = [["SET", "BASELINE", "NOW", "CHANGE"]];
  for (const s of now.sets) {
    const old = then.sets.find((b) => b.set === s.set);
    const was = old ? `${old.passed} of ${old.passed + old.failed}` : "-";
    const change = old ? s.passed - old.passed : null;
    rows.push([
      s.set,
      was,
      `${s.passed} of ${s.passed + s.failed}`,
      change === null ? "-" : change > 0 ? `+${change}` : String(change),
    ]);
  }
  const lines = [`compared with ${then.model} (${then.started})`, pad(rows)];
  const before = new Map(then.cases.map((r) => [`${r.set}/${r.id}`, r.status]));
  const worse: string[] = [];
  const better: string[] = [];
  for (const r of now.cases) {
    const was = before.get(`${r.set}/${r.id}`);
    if (was === "pass" && r.status === "fail") worse.push(`${r.set}/${r.id}`);
    if (was === "fail" && r.status === "pass") better.push(`${r.set}/${r.id}`);
  }
  if (worse.length > 0) lines.push(`now failing: ${worse.join(", ")}`);
  if (better.length > 0) lines.push(`now passing: ${better.join(", ")}`);
  return lines.join("\n");
}
