/**
 * Doctor's classifier line: the classifier beside the rules that
 * approval.classifier names, and whether it can judge. The trained
 * classifier must load its version's weights and rate a part; the model
 * classifier's model must be served and listed; system-model cannot run in
 * this build. A classifier that cannot judge makes every open part moderate,
 * so it is not ok.
 */
import type { Config } from "../config/schema.ts";
import type { HomePaths } from "../config/home.ts";
import { classifierModelName } from "../gate/choose.ts";
import { predict } from "../gate/trained/model.ts";
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
        `system-model cannot run here (${systemModelReason()}), so every command the rules leave open is moderate; wisp config set approval.classifier coreml (or model)`,
    };
  }
  if (which === "coreml") {
    const version = config.approval.coremlModel ?? store.defaultVersion();
    try {
      const weights = store.loadWeights(paths, version);
      predict(weights, ["bias"]);
      const source = store.isDefaultVersion(version) ? "shipped" : "trained here";
      return { ok: true, name: NAME, detail: `coreml model ${version} (${source}) prepares` };
    } catch (error) {
      return {
        ok: false,
        name: NAME,
        detail: `coreml model ${version} does not prepare: ${messageOf(error)}`,
      };
    }
  }
  const name = classifierModelName(config);
  try {
    const backend = resolveModel(name, config, env);
    await checkAvailable(backend, { tools: false });
    return {
      ok: true,
      name: NAME,
      detail: `model classifier on ${backend.name}, served and listed`,
    };
  } catch (error) {
    return {
      ok: false,
      name: NAME,
      detail: `the model classifier cannot use ${name}: ${messageOf(error)}`,
    };
  }
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
