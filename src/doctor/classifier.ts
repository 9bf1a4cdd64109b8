/**
 * Doctor's classifier line: the classifier beside the rules that
 * approval.classifier names, and whether it answers. It is asked about one
 * command the rules leave open (`make test`) exactly as the gate asks it
 * (applyModelClassifier): the trained classifier with its version's weights,
 * the model classifier with a real request to its model. system-model cannot
 * run in this build. A classifier that cannot judge makes every open part
 * moderate, so it is not ok.
 */
import type { Config } from "../config/schema.ts";
import type { HomePaths } from "../config/home.ts";
import { chooseClassifier, classifierModelName } from "../gate/choose.ts";
import { applyModelClassifier, type ModelClassifier } from "../gate/classifier.ts";
import { Gate } from "../gate/gate.ts";
import { LocalModelClassifier } from "../gate/model_classifier.ts";
import * as store from "../gate/trained/store.ts";
import { checkAvailable, resolveModel } from "../models/registry.ts";
import { systemModelReason } from "../models/system.ts";
import type { Env } from "../models/host.ts";
import { messageOf } from "../util/errors.ts";
import { type Finding, withConfig } from "./finding.ts";

const NAME = "classifier";

/** The classifier finding for a loaded config. */
export async function classifierFindingFor(
  config: Config,
  paths: HomePaths,
  env: Env = Deno.env.get,
): Promise<Finding> {
  const which = config.approval.classifier;
  if (which === "rules") {
    return {
      ok: true,
      name: NAME,
      detail: "the rules alone (approval.classifier rules); no classifier can raise a rating",
    };
  }
  if (which === "system-model") {
    return {
      ok: false,
      name: NAME,
      detail:
        `system-model cannot run here (${systemModelReason()}), so every command the rules leave open is moderate`,
      fix: "wisp config set approval.classifier coreml (or model)",
    };
  }
  if (which === "coreml") {
    const version = config.approval.coremlModel ?? store.defaultVersion();
    const source = store.isDefaultVersion(version) ? "shipped" : "trained here";
    const failure = await probe(
      config,
      paths,
      chooseClassifier(config, paths, userHome(env, paths)),
    );
    return failure === undefined
      ? { ok: true, name: NAME, detail: `coreml model ${version} (${source}) prepares` }
      : {
        ok: false,
        name: NAME,
        detail: `coreml model ${version} does not prepare: ${failure}`,
        fix: `choose another version (wisp classifier list, wisp classifier use) or train again`,
      };
  }
  const name = classifierModelName(config);
  let served: string;
  try {
    const backend = resolveModel(name, config, env);
    await checkAvailable(backend, { tools: false });
    served = backend.name;
  } catch (error) {
    return {
      ok: false,
      name: NAME,
      detail: `the model classifier cannot use ${name}: ${messageOf(error)}`,
      fix: "start the model's server or choose another (routing.tasks.classifier)",
    };
  }
  const classifier = new LocalModelClassifier({
    name: which,
    backend: () => Promise.resolve(resolveModel(name, config, env)),
  });
  const failure = await probe(config, paths, classifier);
  return failure === undefined
    ? { ok: true, name: NAME, detail: `model classifier on ${served}, served and answers` }
    : {
      ok: false,
      name: NAME,
      detail: `the model classifier on ${served} is listed but does not answer: ${failure}`,
      fix: "check the model server's own log, or choose another model (routing.tasks.classifier)",
    };
}

/** The person's home folder, as the gate takes it for the trained classifier's features. */
function userHome(env: Env, paths: HomePaths): string {
  return env("HOME") ?? paths.root;
}

/** The command the probe asks about: one the rules leave open, whatever the folder. */
const PROBE_LINE = "make test";

/**
 * Ask the classifier about the probe line as the gate would; undefined when it
 * gave a level, else why not (the gate would have taken the part as moderate).
 */
async function probe(
  config: Config,
  paths: HomePaths,
  classifier: ModelClassifier | undefined,
): Promise<string | undefined> {
  if (!classifier) return "approval.classifier names no classifier";
  const gate = new Gate({
    config,
    home: paths,
    audit: { session: "doctor", record: () => ({}) as never },
    classifier,
  });
  const cwd = paths.root;
  const { parts } = await gate.assess(PROBE_LINE, { cwd, origin: "model" });
  const [part] = await applyModelClassifier(classifier, parts, { line: PROBE_LINE, cwd });
  if (!part || part.by === "rules") return `the rules decided ${PROBE_LINE} alone`;
  if (!part.failed) return undefined;
  const reason = part.reasons.find((r) => r.includes("could not judge")) ?? "it gave no level";
  return /could not judge it \((.*)\), so/.exec(reason)?.[1] ?? reason;
}

/** The classifier finding, reading config.json; a malformed config is its own finding. */
export async function classifierFindings(paths: HomePaths): Promise<Finding[]> {
  return await withConfig(
    paths,
    NAME,
    "which classifier",
    async (config) => [await classifierFindingFor(config, paths)],
  );
}
