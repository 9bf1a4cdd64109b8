/**
 * Which classifier sits beside the rules, from approval.classifier:
 *
 * - `rules`: none; the rules decide alone.
 * - `coreml`: the trained classifier (trained/), at approval.coremlModel or
 *   this release's default. On macOS the spec's Core ML model; here the same
 *   role is played by weights wisp reads itself, on every platform.
 * - `model`: the model classifier on routing.tasks.classifier, else the
 *   configured model.
 * - `system-model`: the model classifier on the on-device model, which this
 *   build cannot reach (models/system.ts): every verdict fails, and fails
 *   closed at moderate.
 *
 * The model is resolved on the first part that needs it, so a session whose
 * commands are all read-only never loads a model backend.
 */
import type { Config } from "../config/schema.ts";
import type { HomePaths } from "../config/home.ts";
import type { ModelClassifier } from "./classifier.ts";
import { LocalModelClassifier } from "./model_classifier.ts";
import { trainedClassifier } from "./trained/classifier.ts";

/** The model name the model classifier asks, for approval.classifier model or system-model. */
export function classifierModelName(config: Config): string {
  return config.approval.classifier === "system-model"
    ? "system"
    : config.routing.tasks.classifier ?? config.model;
}

/** The classifier approval.classifier names, or undefined for the rules alone. */
export function chooseClassifier(
  config: Config,
  paths: HomePaths,
  userHome: string,
): ModelClassifier | undefined {
  const which = config.approval.classifier;
  if (which === "rules") return undefined;
  if (which === "coreml") return trainedClassifier(paths, config.approval.coremlModel, userHome);
  const name = classifierModelName(config);
  return new LocalModelClassifier({
    name: which,
    backend: async () => {
      // Not a literal import: model clients load only when a part needs them (cli/lazy.ts).
      if (which === "system-model") {
        const { resolveModel } = await import(
          import.meta.resolve("../models/registry.ts")
        ) as typeof import("../models/registry.ts");
        return resolveModel(name, config);
      }
      // routing.tasks.classifier, else the model; routing.ladder when that is unavailable.
      const { chooseForTask } = await import(
        import.meta.resolve("../models/choose.ts")
      ) as typeof import("../models/choose.ts");
      return (await chooseForTask("classifier", config)).backend;
    },
  });
}
