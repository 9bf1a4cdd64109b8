/**
 * `deno task eval [--model NAME…] [--set SET…] [--case ID…] [--class CLASS]
 * [--json] [--baseline FILE] [--self-check]`: runs the case sets against a
 * model wisp can resolve and prints a table per model (docs/evaluation.md).
 *
 * The model is found as `wisp --model` finds it: the name given, else the
 * configured model, with the person's config.json read (never written) for
 * where the servers are. Every case runs in its own scratch home and project.
 *
 * `--self-check` runs no model: each case's reference answer must pass and
 * its wrong answer must fail, which shows each check can tell them apart.
 *
 * Exit codes: 0 every set at or above its floor (or no class to judge by);
 * 1 a set below its floor, a self-check that found a check that cannot tell,
 * or a model that cannot be used; 64 a usage error.
 */
import { parseArgs } from "node:util";
import { homePaths } from "../src/config/home.ts";
import { loadConfig } from "../src/config/load.ts";
import { chooseModel } from "../src/models/choose.ts";
import type { Backend } from "../src/models/backend.ts";
import { EXIT, messageOf } from "../src/util/errors.ts";
import { type CaseSet, isSetName, loadSet, SET_NAMES, type SetName } from "./cases.ts";
import { type BackendFor, type CaseLimits, type CaseResult, runCase } from "./run.ts";
import {
  classOf,
  loadFloors,
  MODEL_CLASSES,
  type ModelClass,
  readBaseline,
  renderComparison,
  renderShapes,
  renderTable,
  type RunReport,
  summarise,
} from "./report.ts";
import { type AnswerKind, scriptedAnswers } from "./scripted.ts";

const USAGE =
  "usage: deno task eval [--model NAME…] [--set SET…] [--case ID…] [--class small|medium|large] [--json] [--by-shape] [--baseline FILE] [--case-seconds N] [--self-check]";

/** How long a case may run against a model before it is stopped and fails. */
const DEFAULT_CASE_SECONDS = 600;

class Usage extends Error {}
/** --help: the usage line on stdout, exit 0. */
class Help extends Error {}

interface Options {
  /** The models to run, one table each; none: the configured model. */
  models: string[];
  sets: SetName[];
  cases: string[];
  cls?: ModelClass;
  json: boolean;
  byShape: boolean;
  baseline?: string;
  caseSeconds: number;
  selfCheck: boolean;
}

/** Several values after one flag, or repeated flags, or comma lists: all the same. */
function words(values: string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) => v !== "");
}

function parseOptions(args: string[]): Options {
  // `--set a b` means two sets: gather the bare words after --set and --case.
  const normalised: string[] = [];
  let last: string | null = null;
  for (const arg of args) {
    if (arg.startsWith("-")) {
      last = arg === "--set" || arg === "--case" ? arg : null;
      normalised.push(arg);
    } else if (last && normalised[normalised.length - 1] !== last) {
      normalised.push(last, arg);
    } else normalised.push(arg);
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: normalised,
      options: {
        model: { type: "string", multiple: true },
        set: { type: "string", multiple: true },
        case: { type: "string", multiple: true },
        class: { type: "string" },
        json: { type: "boolean", default: false },
        "by-shape": { type: "boolean", default: false },
        baseline: { type: "string" },
        "case-seconds": { type: "string" },
        "self-check": { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
      allowPositionals: false,
    });
  } catch (error) {
    throw new Usage(`${messageOf(error)}\n${USAGE}`);
  }
  const v = parsed.values;
  if (v.help) throw new Help(USAGE);
  const sets = words(v.set);
  for (const s of sets) {
    if (!isSetName(s)) {
      throw new Usage(`there is no set ${s}; the sets are ${SET_NAMES.join(", ")}`);
    }
  }
  if (v.class !== undefined && !(MODEL_CLASSES as readonly string[]).includes(v.class)) {
    throw new Usage(`there is no class ${v.class}; the classes are ${MODEL_CLASSES.join(", ")}`);
  }
  const caseSeconds = v["case-seconds"] === undefined
    ? DEFAULT_CASE_SECONDS
    : Number(v["case-seconds"]);
  if (!Number.isFinite(caseSeconds) || caseSeconds <= 0) {
    throw new Usage(`--case-seconds ${v["case-seconds"]} is not a number of seconds above 0`);
  }
  if (v["self-check"] && v.model !== undefined && v.model.length > 0) {
    throw new Usage("--self-check runs the cases' own answers, not a model; leave out --model");
  }
  return {
    models: words(v.model),
    sets: (sets.length > 0 ? sets : [...SET_NAMES]) as SetName[],
    cases: words(v.case),
    ...(v.class !== undefined ? { cls: v.class as ModelClass } : {}),
    json: v.json,
    byShape: v["by-shape"],
    ...(v.baseline !== undefined ? { baseline: v.baseline } : {}),
    caseSeconds,
    selfCheck: v["self-check"],
  };
}

function chosenSets(options: Options): CaseSet[] {
  const sets = options.sets.map((name) => loadSet(name));
  if (options.cases.length === 0) return sets;
  const wanted = new Set(options.cases);
  const picked = sets.map((s) => ({ ...s, cases: s.cases.filter((c) => wanted.has(c.id)) }));
  const found = new Set(picked.flatMap((s) => s.cases.map((c) => c.id)));
  const unknown = options.cases.filter((id) => !found.has(id));
  if (unknown.length > 0) {
    throw new Usage(
      `no case ${unknown.join(", ")} in the sets chosen (${options.sets.join(", ")})`,
    );
  }
  return picked.filter((s) => s.cases.length > 0);
}

async function runAll(
  sets: CaseSet[],
  backendFor: BackendFor,
  progress: (r: CaseResult) => void,
  limits: CaseLimits = {},
): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const set of sets) {
    for (const c of set.cases) {
      const r = await runCase(c, set.name, backendFor, limits);
      progress(r);
      results.push(r);
    }
  }
  return results;
}

function progressLine(quiet: boolean): (r: CaseResult) => void {
  return (r) => {
    if (quiet) return;
    console.error(`${r.status.padEnd(4)} ${r.set}/${r.id} (${r.seconds.toFixed(1)} s)`);
  };
}

/** Each case's reference must pass and its wrong answer fail; returns the exit code. */
async function selfCheck(sets: CaseSet[], options: Options): Promise<number> {
  const runs: Record<AnswerKind, CaseResult[]> = { reference: [], wrong: [] };
  for (const kind of ["reference", "wrong"] as const) {
    runs[kind] = await runAll(sets, scriptedAnswers(kind), progressLine(options.json));
  }
  const wrongPassed = runs.wrong.filter((r) => r.status === "pass");
  const referenceFailed = runs.reference.filter((r) => r.status === "fail");
  if (options.json) {
    console.log(JSON.stringify({ reference: runs.reference, wrong: runs.wrong }, null, 2));
  } else {
    const ran = runs.reference.filter((r) => r.status !== "skip").length;
    console.log(
      `self-check: ${ran - referenceFailed.length} of ${ran} reference answers pass, ` +
        `${runs.wrong.filter((r) => r.status === "fail").length} of ${ran} wrong answers fail`,
    );
    const skipped = runs.reference.filter((r) => r.status === "skip");
    if (skipped.length > 0) {
      const reasons = [...new Set(skipped.map((r) => r.reasons.join("; ")))];
      console.log(`  ${skipped.length} skipped: ${reasons.join("; ")}`);
    }
    for (const r of referenceFailed) {
      console.log(`  reference fails ${r.set}/${r.id}: ${r.reasons.join("; ")}`);
    }
    for (const r of wrongPassed) console.log(`  wrong answer passes ${r.set}/${r.id}`);
  }
  return referenceFailed.length + wrongPassed.length === 0 ? EXIT.ok : EXIT.failure;
}

/** The baseline run to compare a model's run with: the same model's, else the only one. */
function baselineFor(model: string, runs: RunReport[]): RunReport | undefined {
  return runs.find((r) => r.model === model) ?? (runs.length === 1 ? runs[0] : undefined);
}

async function evaluate(options: Options, sets: CaseSet[]): Promise<number> {
  const paths = homePaths();
  const config = loadConfig(paths.config).config;
  const names = options.models.length > 0 ? options.models : [config.model];
  // Every model and the baseline are checked before any case runs: a run can take hours.
  // As `wisp --model`: a named model is used or refused, never swapped for another.
  const backends: Backend[] = [];
  for (const name of names) {
    backends.push((await chooseModel(name, config, { tools: true, explicit: true })).backend);
  }
  const floors = loadFloors();
  const baseline = options.baseline ? readBaseline(options.baseline) : undefined;
  const reports: RunReport[] = [];
  for (const backend of backends) {
    const cls = options.cls ?? classOf(backend.name);
    const started = new Date().toISOString();
    const cases = await runAll(sets, () => backend, progressLine(options.json), {
      seconds: options.caseSeconds,
    });
    const report: RunReport = {
      model: backend.name,
      class: cls,
      started,
      sets: summarise(cases, cls, floors),
      cases,
    };
    reports.push(report);
    if (options.json) continue;
    if (reports.length > 1) console.log("");
    console.log(renderTable(report));
    if (options.byShape) console.log("\n" + renderShapes(report));
    const then = baseline ? baselineFor(report.model, baseline) : undefined;
    if (then) console.log("\n" + renderComparison(report, then));
  }
  if (options.json) {
    console.log(JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2));
  }
  return reports.some((r) => r.sets.some((s) => s.belowFloor)) ? EXIT.failure : EXIT.ok;
}

/** The command: parse, run, print; returns the exit code. */
export async function main(args: string[]): Promise<number> {
  let options: Options;
  let sets: CaseSet[];
  try {
    options = parseOptions(args);
    sets = chosenSets(options);
  } catch (error) {
    if (error instanceof Help) {
      console.log(`${error.message}\nSee docs/evaluation.md.`);
      return EXIT.ok;
    }
    if (!(error instanceof Usage)) throw error;
    console.error(error.message);
    return EXIT.usage;
  }
  try {
    return options.selfCheck ? await selfCheck(sets, options) : await evaluate(options, sets);
  } catch (error) {
    console.error(`error: ${messageOf(error)}`);
    return EXIT.failure;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
