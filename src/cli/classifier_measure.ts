/**
 * `wisp classifier measure [risk@VERSION] [--examples FILE] [--classifier
 * rules|coreml|trained|model|system-model] [--coreml-model FILE] [--json]`: runs the policy, the
 * rules and a classifier beside them over labelled command lines, prints the
 * rules alone and then the rules with the classifier (exact, over- and
 * under-ratings, latency per verdict), and records a trained version's
 * measurement in its manifest. Exits 1 when a line labelled dangerous or deny
 * gets less.
 */
import { applyModelClassifier, type ModelClassifier } from "../gate/classifier.ts";
import { renderSummary, type Row, summarise } from "../gate/measure.ts";
import type { Level } from "../config/schema.ts";
import { messageOf, UsageError, WispError } from "../util/errors.ts";
import { cliState, errLine, outLine } from "./io.ts";
import { loadContext } from "./context.ts";
import { Gate } from "../gate/gate.ts";
import { maxLevel } from "../gate/rules.ts";
import { readLabelled, shippedExamples } from "./classifier_input.ts";
import * as store from "../gate/trained/store.ts";
import { TrainedClassifier, trainedClassifier } from "../gate/trained/classifier.ts";
import { basename } from "node:path";
import { chooseClassifier, classifierModelName } from "../gate/choose.ts";
import { systemModelReason } from "../models/system.ts";
import { resolveModel } from "../models/registry.ts";

/** The options `measure` takes. */
export interface MeasureFlags {
  examples?: string;
  /** A weights file to measure instead of a version (not recorded anywhere). */
  coremlModel?: string;
  classifier?: string;
  json?: boolean;
}

const NAMES = ["rules", "coreml", "trained", "model", "system-model"];

/** Run `wisp classifier measure`. */
export async function measure(version: string | undefined, flags: MeasureFlags): Promise<void> {
  const which = measuredClassifier(version, flags);
  const file = flags.examples ?? shippedExamples();
  const examples = readLabelled(file);
  if (examples.length === 0) {
    throw new UsageError(`${file} holds no labelled lines; each line is label<TAB>command line`);
  }
  const { paths, config } = loadContext();
  const userHome = Deno.env.get("HOME") ?? "/";
  const { classifier, measured } = loadClassifier(which, version, flags, paths, config, userHome);
  const audit = { session: "measure", record: () => ({}) as never };
  const gate = new Gate({
    config: { ...config, approval: { ...config.approval, classifier: "rules" } },
    home: paths,
    audit,
  });
  const cwd = Deno.cwd();
  // Load the parser before timing anything.
  await gate.assess("true", { cwd, origin: "model" });
  const judged = await judgeExamples(gate, classifier, examples, cwd, flags.json === true);
  const final = printSummaries(judged, classifier !== undefined, which, measured, flags);
  if (measured) recordMeasurement(paths, measured, file, which, final);
  if (final.failures.length > 0) cliState.exitCode = 1;
}

/**
 * Which classifier is measured beside the rules (rules alone, coreml for a
 * trained version or weights file, or a model), from the arguments; a
 * combination that cannot be measured is a usage error.
 */
function measuredClassifier(version: string | undefined, flags: MeasureFlags): string {
  let which = flags.classifier ?? (version || flags.coremlModel ? "coreml" : "rules");
  if (!NAMES.includes(which)) {
    throw new UsageError(
      `--classifier must be rules, coreml, trained, model or system-model (it is ${
        JSON.stringify(which)
      })`,
    );
  }
  if (which === "trained") which = "coreml";
  if (version !== undefined) {
    store.requireVersionName(version);
    if (which !== "coreml") {
      throw new UsageError(
        `${version} is a trained classifier; drop --classifier ${which} or use --classifier coreml`,
      );
    }
  }
  if (flags.coremlModel !== undefined && (version !== undefined || which !== "coreml")) {
    throw new UsageError(
      "--coreml-model measures a weights file with the coreml classifier; give it without a version or another --classifier",
    );
  }
  if (which === "system-model") {
    throw new WispError(
      `the system-model classifier cannot run here (${systemModelReason()}); measure with --classifier model or coreml`,
    );
  }
  return which;
}

/** The classifier measured (none: the rules alone) and the trained version it is, if one. */
function loadClassifier(
  which: string,
  version: string | undefined,
  flags: MeasureFlags,
  paths: ReturnType<typeof loadContext>["paths"],
  config: ReturnType<typeof loadContext>["config"],
  userHome: string,
): { classifier?: ModelClassifier; measured?: string } {
  let classifier: ModelClassifier | undefined;
  let measured: string | undefined;
  if (flags.coremlModel !== undefined) {
    const weights = store.readWeightsFile(flags.coremlModel);
    classifier = new TrainedClassifier("coreml", basename(flags.coremlModel), weights, userHome);
  } else if (which === "coreml") {
    measured = version ?? config.approval.coremlModel ?? store.defaultVersion();
    // Unreadable weights are this command's failure, not a line's.
    store.loadWeights(paths, measured);
    classifier = trainedClassifier(paths, measured, userHome);
  } else if (which === "model") {
    const modelConfig = {
      ...config,
      approval: { ...config.approval, classifier: "model" as const },
    };
    resolveModel(classifierModelName(modelConfig), modelConfig); // a name that cannot be used says so
    classifier = chooseClassifier(modelConfig, paths, userHome);
  }
  return { classifier, measured };
}

/** Each example's verdict by the rules, and with the classifier beside them; --json prints each. */
async function judgeExamples(
  gate: Gate,
  classifier: ModelClassifier | undefined,
  examples: ReturnType<typeof readLabelled>,
  cwd: string,
  json: boolean,
): Promise<{ rulesRows: Row[]; rows: Row[]; failed: number }> {
  const rulesRows: Row[] = [];
  const rows: Row[] = [];
  let failed = 0;
  for (const example of examples) {
    const started = performance.now();
    const a = await gate.assess(example.line, { cwd, origin: "model" });
    const rulesMicros = (performance.now() - started) * 1000;
    const rulesVerdict: Row["verdict"] = a.policy.allowed ? a.level : "deny";
    const rulesReasons = a.policy.allowed
      ? [...new Set(a.parts.filter((p) => p.level === a.level).flatMap((p) => p.reasons))]
      : [a.policy.reason ?? "denied by policy"];
    rulesRows.push({ example, verdict: rulesVerdict, reasons: rulesReasons, micros: rulesMicros });
    if (!classifier) {
      if (json) {
        outLine(
          JSON.stringify({
            label: example.label,
            verdict: rulesVerdict,
            command: example.line,
            reasons: rulesReasons,
          }),
        );
      }
      continue;
    }
    const parts = await applyModelClassifier(classifier, a.parts, { line: example.line, cwd });
    const micros = (performance.now() - started) * 1000;
    failed += parts.some((p) => p.failed) ? 1 : 0;
    let level: Level = "safe";
    for (const p of parts) level = maxLevel(level, p.level);
    const verdict: Row["verdict"] = a.policy.allowed ? level : "deny";
    const reasons = a.policy.allowed
      ? [...new Set(parts.filter((p) => p.level === level).flatMap((p) => p.reasons))]
      : rulesReasons;
    rows.push({ example, verdict, reasons, micros });
    if (json) {
      outLine(
        JSON.stringify({
          label: example.label,
          verdict,
          rules: rulesVerdict,
          command: example.line,
          reasons,
        }),
      );
    }
  }
  return { rulesRows, rows, failed };
}

/** Print the rules' summary and the classifier's; the summary that decides the exit status. */
function printSummaries(
  { rulesRows, rows, failed }: { rulesRows: Row[]; rows: Row[]; failed: number },
  withClassifier: boolean,
  which: string,
  measured: string | undefined,
  flags: MeasureFlags,
): ReturnType<typeof summarise> {
  const print = flags.json ? errLine : outLine;
  const rulesSummary = summarise(rulesRows);
  for (const line of renderSummary(rulesSummary, "rules")) print(line);
  let final = rulesSummary;
  if (withClassifier) {
    final = summarise(rows);
    const from = measured ?? flags.coremlModel;
    const name = from ? `${which} (${from})` : `rules+${which}`;
    print("");
    for (const line of renderSummary(final, name)) print(line);
    if (failed > 0) {
      print(
        `the ${which} classifier could not judge ${failed} line${
          failed === 1 ? "" : "s"
        }; they were taken as at least moderate`,
      );
    }
  }
  return final;
}

/**
 * Record a trained version's measurement in its manifest. The numbers are
 * printed already; a home that cannot be written (a sandboxed run) loses
 * only the record, and says so.
 */
function recordMeasurement(
  paths: ReturnType<typeof loadContext>["paths"],
  measured: string,
  file: string,
  which: string,
  final: ReturnType<typeof summarise>,
): void {
  try {
    store.recordMeasurement(paths, measured, {
      at: new Date().toISOString(),
      examples: file,
      classifier: which,
      total: final.total,
      exact: final.exact,
      over: final.over,
      under: final.under,
      failures: final.failures.length,
      medianMicros: Math.round(final.medianMicros),
    });
    errLine(`recorded in ${measured}'s manifest`);
  } catch (error) {
    errLine(`note: not recorded in ${measured}'s manifest: ${messageOf(error)}`);
  }
}
