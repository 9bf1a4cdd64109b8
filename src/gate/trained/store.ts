/**
 * Versions of the trained risk classifier in wisp's home, one folder each
 * under classifiers/risk: `risk@X.Y.Z-default`, the weights this release
 * ships (written once from the bundled file, never changed), and
 * `risk@X.Y.Z-local.<n>`, trained here (created with a new folder, never
 * overwritten). Each folder holds weights.json and manifest.json (where it
 * came from and its latest measurement); only the manifest is ever rewritten.
 * Every file is written to a temporary file and renamed, mode 0600.
 */
import { join } from "node:path";
import { z } from "zod";
import type { HomePaths } from "../../config/home.ts";
import { ensurePrivateDir } from "../../config/home.ts";
import { writeFileAtomicSync } from "../../util/atomic.ts";
import { messageOf, UsageError, WispError } from "../../util/errors.ts";
import { VERSION } from "../../version.ts";
import { type Weights, weightsSchema } from "./model.ts";
import bundled from "./risk-default.json" with { type: "json" };

/** The latest measurement of a version, as `wisp classifier measure` records it. */
const measurementSchema = z.looseObject({
  at: z.string(),
  examples: z.string(),
  classifier: z.string(),
  total: z.number().int(),
  exact: z.number().int(),
  over: z.number().int(),
  under: z.number().int(),
  failures: z.number().int(),
  medianMicros: z.number(),
});
/** A measurement as a manifest keeps it. */
export type Measurement = z.infer<typeof measurementSchema>;

/** manifest.json: where a version came from, what it learned from, its latest measurement. */
export const manifestSchema = z.looseObject({
  version: z.string(),
  /** shipped: the release's default; trained: made here by `wisp classifier train`. */
  source: z.enum(["shipped", "trained"]),
  created: z.string(),
  /** What it was trained on: lines from examples files, answers from the audit, lines left out. */
  trainedOn: z.looseObject({
    examples: z.number().int(),
    fromAudit: z.number().int().optional(),
    excluded: z.number().int().optional(),
    sources: z.array(z.string()).optional(),
  }),
  features: z.number().int(),
  threshold: z.number(),
  measurement: measurementSchema.optional(),
});
/** A manifest as read. */
export type Manifest = z.infer<typeof manifestSchema>;

/** What the bundled default file holds: its weights and what they were trained on. */
const bundledSchema = z.object({
  weights: weightsSchema,
  trainedOn: manifestSchema.shape.trainedOn,
});

const VERSION_NAME = /^risk@(\d+\.\d+\.\d+)-(default|local\.([1-9]\d{0,5}))$/;

/** The default version this release ships. */
export function defaultVersion(version = VERSION): string {
  return `risk@${version}-default`;
}

/** The folder every version lives in. */
export function riskFolder(paths: HomePaths): string {
  return join(paths.classifiers, "risk");
}

/** The held-out lines no training ever uses. */
export function heldOutFile(paths: HomePaths): string {
  return join(riskFolder(paths), "held-out.tsv");
}

/** Is this a version name (`risk@0.1.0-local.2`)? A UsageError names the form when it is not. */
export function requireVersionName(name: string): string {
  if (!VERSION_NAME.test(name)) {
    throw new UsageError(
      `${
        JSON.stringify(name)
      } is not a classifier version; versions look like ${defaultVersion()} or risk@${VERSION}-local.1 (wisp classifier list shows them)`,
    );
  }
  return name;
}

/** Whether a version is one a release shipped. */
export function isDefaultVersion(name: string): boolean {
  return VERSION_NAME.exec(name)?.[2] === "default";
}

let shipped: z.infer<typeof bundledSchema> | undefined;

/** The bundled default's weights and what they were trained on, checked once per process. */
export function bundledDefault(): z.infer<typeof bundledSchema> {
  shipped ??= bundledSchema.parse(bundled);
  return shipped;
}

function versionFolder(paths: HomePaths, version: string): string {
  return join(riskFolder(paths), version);
}

function writeJson(path: string, value: unknown): void {
  writeFileAtomicSync(path, JSON.stringify(value, null, 1) + "\n", 0o600);
}

/** Write this release's default into the home unless it is there already (it is never changed). */
export function ensureDefault(paths: HomePaths): void {
  const version = defaultVersion();
  const folder = versionFolder(paths, version);
  try {
    Deno.statSync(join(folder, "manifest.json"));
    return;
  } catch { /* not written yet */ }
  const def = bundledDefault();
  ensurePrivateDir(paths.root);
  ensurePrivateDir(paths.classifiers, "the classifiers folder");
  ensurePrivateDir(riskFolder(paths), "the classifiers folder");
  ensurePrivateDir(folder, "the classifier's folder");
  writeJson(join(folder, "weights.json"), def.weights);
  const manifest: Manifest = {
    version,
    source: "shipped",
    created: new Date().toISOString(),
    trainedOn: def.trainedOn,
    features: Object.keys(def.weights.weights).length,
    threshold: def.weights.threshold,
  };
  writeJson(join(folder, "manifest.json"), manifest);
}

/** The weights of a version: the default from the bundle, any other from the home. */
export function loadWeights(paths: HomePaths, version: string): Weights {
  requireVersionName(version);
  if (version === defaultVersion()) return bundledDefault().weights;
  const file = join(versionFolder(paths, version), "weights.json");
  try {
    Deno.statSync(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new WispError(
        `${version} is not in ${riskFolder(paths)}; wisp classifier list shows the versions here`,
      );
    }
  }
  return readWeightsFile(file, `remove ${version} and train again`);
}

/** A weights file wherever it is; `fix` ends the sentence when it is not one wisp reads. */
export function readWeightsFile(file: string, fix = "give a weights.json wisp wrote"): Weights {
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new WispError(`${file} does not exist; ${fix}`);
    }
    throw new WispError(`${file} cannot be read (${messageOf(error)})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new WispError(`${file} is not valid JSON; ${fix}`);
  }
  const result = weightsSchema.safeParse(parsed);
  if (!result.success) {
    throw new WispError(`${file} is not a weights file wisp reads; ${fix}`);
  }
  return result.data;
}

/** One version as `wisp classifier list` shows it. */
export interface VersionEntry {
  version: string;
  manifest?: Manifest;
  /** Why the manifest could not be read, when it could not. */
  problem?: string;
}

/** Every version in the home, the default first, then by version name. */
export function listVersions(paths: HomePaths): VersionEntry[] {
  const out: VersionEntry[] = [];
  let names: string[] = [];
  try {
    names = [...Deno.readDirSync(riskFolder(paths))]
      .filter((e) => e.isDirectory && VERSION_NAME.test(e.name))
      .map((e) => e.name);
  } catch { /* no folder yet */ }
  for (const version of names) out.push(readEntry(paths, version));
  const order = (v: string) => {
    const m = VERSION_NAME.exec(v)!;
    return [m[1], m[2] === "default" ? 0 : Number(m[3])] as const;
  };
  return out.sort((a, b) => {
    const [va, na] = order(a.version);
    const [vb, nb] = order(b.version);
    return va === vb ? na - nb : va < vb ? -1 : 1;
  });
}

function readEntry(paths: HomePaths, version: string): VersionEntry {
  const file = join(versionFolder(paths, version), "manifest.json");
  try {
    const result = manifestSchema.safeParse(JSON.parse(Deno.readTextFileSync(file)));
    return result.success
      ? { version, manifest: result.data }
      : { version, problem: `${file} is not a manifest wisp reads` };
  } catch (error) {
    return { version, problem: `${file} cannot be read (${messageOf(error)})` };
  }
}

/** Whether a version is in the home, whole: a folder without a manifest is a training that did not finish. */
export function hasVersion(paths: HomePaths, version: string): boolean {
  try {
    return Deno.statSync(join(versionFolder(paths, version), "manifest.json")).isFile;
  } catch {
    return false;
  }
}

/**
 * Save newly trained weights as the next local version of this release. The
 * folder is created exclusively, so two trainings at once never share one.
 */
export function saveTrained(
  paths: HomePaths,
  weights: Weights,
  trainedOn: Manifest["trainedOn"],
): string {
  ensurePrivateDir(paths.root);
  ensurePrivateDir(paths.classifiers, "the classifiers folder");
  ensurePrivateDir(riskFolder(paths), "the classifiers folder");
  let n = 1;
  for (const entry of listVersions(paths)) {
    const m = VERSION_NAME.exec(entry.version);
    if (m && m[1] === VERSION && m[3]) n = Math.max(n, Number(m[3]) + 1);
  }
  for (;; n++) {
    const version = `risk@${VERSION}-local.${n}`;
    const folder = versionFolder(paths, version);
    try {
      Deno.mkdirSync(folder, { mode: 0o700 });
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) continue;
      throw new WispError(`${folder} cannot be created (${messageOf(error)})`);
    }
    try {
      writeJson(join(folder, "weights.json"), weights);
      const manifest: Manifest = {
        version,
        source: "trained",
        created: new Date().toISOString(),
        trainedOn,
        features: Object.keys(weights.weights).length,
        threshold: weights.threshold,
      };
      // The manifest last: a folder without one is a training that did not finish.
      writeJson(join(folder, "manifest.json"), manifest);
    } catch (error) {
      try {
        Deno.removeSync(folder, { recursive: true });
      } catch { /* nothing more to do */ }
      throw error;
    }
    return version;
  }
}

/** Record a measurement as the version's latest (the manifest is rewritten whole). */
export function recordMeasurement(paths: HomePaths, version: string, m: Measurement): void {
  if (version === defaultVersion()) ensureDefault(paths);
  const entry = readEntry(paths, version);
  if (!entry.manifest) {
    throw new WispError(`${version}'s manifest cannot be updated: ${entry.problem}`);
  }
  writeJson(join(versionFolder(paths, version), "manifest.json"), {
    ...entry.manifest,
    measurement: m,
  });
}

/** Delete a version trained here. The caller has checked it is neither the default nor in use. */
export function removeVersion(paths: HomePaths, version: string): void {
  const folder = versionFolder(paths, version);
  // Renamed away first, so the version is gone at once or not at all.
  const doomed = join(riskFolder(paths), `.removing-${version}-${crypto.randomUUID().slice(0, 8)}`);
  try {
    Deno.renameSync(folder, doomed);
    Deno.removeSync(doomed, { recursive: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new WispError(
        `${version} is not in ${riskFolder(paths)}; wisp classifier list shows the versions here`,
      );
    }
    throw new WispError(`${folder} cannot be removed (${messageOf(error)})`);
  }
}
