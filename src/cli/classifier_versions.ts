/**
 * `wisp classifier list|use|remove`: the trained classifier's versions in
 * wisp's home. `list` shows each with its source and latest measurement, the
 * one in use marked *; `use` sets approval.classifier to coreml and
 * approval.coremlModel to the version through the config edit path (audited
 * as config.change, from the next session); `remove` deletes a version
 * trained here, never the default or the one the config names.
 */
import type { HomePaths } from "../config/home.ts";
import type { Config } from "../config/schema.ts";
import { planSet } from "../config/edit.ts";
import { commitConfigChange, loadContext } from "./context.ts";
import { errLine, outLine, stdoutIsTerminal } from "./io.ts";
import { renderTable, terminalWidth } from "../util/table.ts";
import * as store from "../gate/trained/store.ts";
import { WispError } from "../util/errors.ts";

/** The version the config names for coreml (its default when none is set). */
function configuredVersion(config: Config): string {
  return config.approval.coremlModel ?? store.defaultVersion();
}

/** The version the gate uses, or undefined when approval.classifier is not coreml. */
function versionInUse(config: Config): string | undefined {
  return config.approval.classifier === "coreml" ? configuredVersion(config) : undefined;
}

/** Every version, with this release's default shown even before it is written to the home. */
function entries(paths: HomePaths): store.VersionEntry[] {
  const listed = store.listVersions(paths);
  const def = store.defaultVersion();
  if (listed.some((e) => e.version === def)) return listed;
  const shipped = store.bundledDefault();
  return [{
    version: def,
    manifest: {
      version: def,
      source: "shipped",
      created: "",
      trainedOn: shipped.trainedOn,
      features: Object.keys(shipped.weights.weights).length,
      threshold: shipped.weights.threshold,
    },
  }, ...listed];
}

function measurementText(m: store.Manifest["measurement"]): string {
  if (!m) return "not measured";
  return `${m.exact}/${m.total} exact, ${m.over} over, ${m.under} under (${
    m.at.slice(0, 10)
  }, ${m.classifier})`;
}

/** Run `wisp classifier list`. */
export function list(flags: { json?: boolean }): void {
  const { paths, config } = loadContext();
  const inUse = versionInUse(config);
  const all = entries(paths);
  if (flags.json) {
    outLine(JSON.stringify({
      inUse: inUse ?? null,
      versions: all.map((e) => ({
        version: e.version,
        inUse: e.version === inUse,
        ...(e.manifest ?? {}),
        ...(e.problem ? { problem: e.problem } : {}),
      })),
    }));
    return;
  }
  const rows = all.map((e) => [
    e.version === inUse ? "*" : " ",
    e.version,
    e.manifest?.source ?? "unreadable",
    e.manifest
      ? `${e.manifest.trainedOn.examples} lines${
        e.manifest.trainedOn.fromAudit ? ` + ${e.manifest.trainedOn.fromAudit} answers` : ""
      }`
      : "",
    e.manifest ? measurementText(e.manifest.measurement) : e.problem ?? "",
  ]);
  const terminal = stdoutIsTerminal();
  outLine(
    renderTable({
      headers: [" ", "VERSION", "SOURCE", "TRAINED ON", "LATEST MEASUREMENT"],
      rows,
      terminal,
      width: terminal ? terminalWidth() : undefined,
    }).trimEnd(),
  );
  if (!inUse) {
    errLine(
      `approval.classifier is ${config.approval.classifier}, so no trained version is in use; wisp classifier use risk@… switches to one`,
    );
  } else if (!all.some((e) => e.version === inUse)) {
    errLine(
      `${inUse}, which approval.coremlModel names, is not here; every verdict fails to moderate`,
    );
  }
}

/** Make `version` the one in use, from the next session. */
export function use(version: string): void {
  store.requireVersionName(version);
  const { paths } = loadContext();
  if (version !== store.defaultVersion() && !store.hasVersion(paths, version)) {
    throw new WispError(
      `${version} is not in ${
        store.riskFolder(paths)
      }; wisp classifier list shows the versions here`,
    );
  }
  // Loadable before anything is changed: a version that cannot be read is never put in use.
  store.loadWeights(paths, version);
  if (version === store.defaultVersion()) store.ensureDefault(paths);
  switchTo(paths, version);
  errLine(`approval.classifier is coreml with ${version} from the next session`);
}

/** Set approval.coremlModel, then approval.classifier; each audited as config.change. */
export function switchTo(paths: HomePaths, version: string): void {
  commitConfigChange(paths, planSet(paths.config, "approval.coremlModel", [version]), "cli");
  commitConfigChange(paths, planSet(paths.config, "approval.classifier", ["coreml"]), "cli");
}

/** Delete a version trained here. */
export function remove(version: string): void {
  store.requireVersionName(version);
  const { paths, config } = loadContext();
  if (store.isDefaultVersion(version)) {
    throw new WispError(
      `${version} is a default a release ships and is never removed; remove a version trained here (risk@…-local.<n>)`,
    );
  }
  if (config.approval.coremlModel === version) {
    throw new WispError(
      `${version} is the one approval.coremlModel names; wisp classifier use another version first`,
    );
  }
  store.removeVersion(paths, version);
  errLine(`removed ${version}`);
}
