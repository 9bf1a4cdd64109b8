/**
 * dependency_audit from lockfiles alone (no network, no registry): the
 * packages a lockfile pins, the names pinned at more than one version, and
 * what the lockfile itself marks — a source outside the ecosystem's registry
 * (git, a path, a URL), plain http, a missing integrity hash, install scripts,
 * a pin to a branch, an unreleased commit. Formats: package-lock.json
 * (v1–v3), deno.lock, Cargo.lock, go.sum, poetry.lock, uv.lock,
 * Package.resolved (v1–v3).
 */

export interface LockPackage {
  name: string;
  version: string;
  /** Where it comes from when not the registry (a git URL, a path, a tarball URL). */
  source?: string;
  marks: string[];
}

export interface LockAudit {
  path: string;
  ecosystem: "npm" | "deno" | "cargo" | "go" | "python" | "swift";
  format: string;
  packages: LockPackage[];
  /** Names pinned at more than one version, most versions first. */
  duplicates: { name: string; versions: string[] }[];
}

export class LockfileError extends Error {}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

// ---------- npm

const NPM_REGISTRY = /^https:\/\/registry\.(?:npmjs\.org|yarnpkg\.com)\//;

function npmMarks(entry: Record<string, unknown>): { marks: string[]; source?: string } {
  const marks: string[] = [];
  let source: string | undefined;
  // v1 writes a git or path dependency's source as its version.
  const resolved = typeof entry.resolved === "string"
    ? entry.resolved
    : typeof entry.version === "string" &&
        /^(?:git\+|git:|github:|file:|https?:)/.test(entry.version)
    ? entry.version
    : undefined;
  if (resolved && !NPM_REGISTRY.test(resolved)) {
    source = resolved;
    if (/^git\+|^git:|github:/.test(resolved)) marks.push("from git");
    else if (/^file:/.test(resolved)) marks.push("from a local path");
    else if (/^https?:/.test(resolved)) marks.push("from a URL outside the registry");
    if (/^http:/.test(resolved)) marks.push("over plain http");
  }
  if (resolved && !entry.integrity && !/^file:/.test(resolved)) marks.push("no integrity hash");
  if (entry.hasInstallScript === true) marks.push("runs install scripts");
  if (typeof entry.deprecated === "string") marks.push(`deprecated: ${entry.deprecated}`);
  return { marks, source };
}

/** One package-lock entry as listed: its name, version, source and marks. */
function npmPackage(name: string, entry: Record<string, unknown>): LockPackage {
  const { marks, source } = npmMarks(entry);
  return { name, version: String(entry.version ?? "?"), ...(source ? { source } : {}), marks };
}

function readPackageLock(text: string): { format: string; packages: LockPackage[] } {
  const doc = JSON.parse(text) as Record<string, unknown>;
  const packages: LockPackage[] = [];
  const version = doc.lockfileVersion;
  if (doc.packages && typeof doc.packages === "object") {
    for (
      const [key, raw] of Object.entries(doc.packages as Record<string, Record<string, unknown>>)
    ) {
      if (key === "" || raw.link === true) continue; // the project itself, a workspace link
      const name = typeof raw.name === "string"
        ? raw.name
        : key.slice(key.lastIndexOf("node_modules/") + 13);
      packages.push(npmPackage(name, raw));
    }
  } else if (doc.dependencies && typeof doc.dependencies === "object") {
    // v1: a nested tree
    const walk = (deps: Record<string, Record<string, unknown>>) => {
      for (const [name, raw] of Object.entries(deps)) {
        packages.push(npmPackage(name, raw));
        if (raw.dependencies && typeof raw.dependencies === "object") {
          walk(raw.dependencies as Record<string, Record<string, unknown>>);
        }
      }
    };
    walk(doc.dependencies as Record<string, Record<string, unknown>>);
  } else throw new LockfileError("package-lock.json has neither packages nor dependencies");
  return { format: `package-lock v${version ?? "?"}`, packages };
}

// ---------- deno

function readDenoLock(text: string): { format: string; packages: LockPackage[] } {
  const doc = JSON.parse(text) as Record<string, unknown>;
  const packages: LockPackage[] = [];
  const npm =
    (doc.npm ?? (doc.packages as Record<string, unknown> | undefined)?.npm ?? {}) as Record<
      string,
      Record<string, unknown>
    >;
  for (const [key, raw] of Object.entries(npm)) {
    // "name@version" or "name@version_peer@x" (peer suffixes after "_")
    const at = key.lastIndexOf("@", key.indexOf("_") > 0 ? key.indexOf("_") : key.length);
    const name = key.slice(0, at);
    const version = key.slice(at + 1).split("_")[0];
    packages.push({
      name: `npm:${name}`,
      version,
      marks: raw && !raw.integrity ? ["no integrity hash"] : [],
    });
  }
  const jsr =
    (doc.jsr ?? (doc.packages as Record<string, unknown> | undefined)?.jsr ?? {}) as Record<
      string,
      Record<string, unknown>
    >;
  for (const [key, raw] of Object.entries(jsr)) {
    const at = key.lastIndexOf("@");
    packages.push({
      name: `jsr:${key.slice(0, at)}`,
      version: key.slice(at + 1),
      marks: raw && !raw.integrity ? ["no integrity hash"] : [],
    });
  }
  const remote = (doc.remote ?? {}) as Record<string, string>;
  for (const url of Object.keys(remote)) {
    const marks = ["a remote module (pinned by hash)"];
    if (url.startsWith("http:")) marks.push("over plain http");
    packages.push({ name: url, version: "-", source: url, marks });
  }
  return { format: `deno.lock v${doc.version ?? "?"}`, packages };
}

// ---------- TOML lockfiles (Cargo, poetry, uv): [[package]] blocks read line by line

interface TomlBlock {
  fields: Record<string, string>;
  /** `[package.source]` and the like: table name → fields. */
  tables: Record<string, Record<string, string>>;
}

function tomlValue(raw: string): string {
  const v = raw.trim();
  const m = /^"((?:[^"\\]|\\.)*)"/.exec(v);
  if (m) return m[1].replace(/\\(.)/g, "$1");
  return v;
}

/** Inline tables `{ git = "…", rev = "…" }` as fields. */
function inlineTable(raw: string): Record<string, string> | undefined {
  const v = raw.trim();
  if (!v.startsWith("{")) return undefined;
  const out: Record<string, string> = {};
  for (
    const m of v.slice(1, v.lastIndexOf("}")).matchAll(/([\w-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^,}]+)/g)
  ) out[m[1]] = tomlValue(m[2]);
  return out;
}

function tomlPackages(text: string): TomlBlock[] {
  const blocks: TomlBlock[] = [];
  let current: TomlBlock | undefined;
  let table: string | undefined;
  let depth = 0; // inside a multi-line array
  for (const rawLine of text.split("\n")) {
    const line = rawLine.trim();
    if (depth > 0) {
      depth += (line.match(/\[/g) ?? []).length - (line.match(/\]/g) ?? []).length;
      continue;
    }
    if (line === "[[package]]") {
      current = { fields: {}, tables: {} };
      blocks.push(current);
      table = undefined;
      continue;
    }
    const header = /^\[\[?([^\]]+)\]\]?$/.exec(line);
    if (header) {
      table = current && header[1].startsWith("package.") ? header[1].slice(8) : undefined;
      if (!table) current = undefined;
      else current!.tables[table] ??= {};
      continue;
    }
    if (!current) continue;
    const kv = /^([\w.-]+|"[^"]+")\s*=\s*(.*)$/.exec(line);
    if (!kv) continue;
    const key = kv[1].replace(/^"|"$/g, "");
    const value = kv[2];
    if (value.startsWith("[") && !value.includes("]")) {
      depth = 1;
      continue;
    }
    const inline = inlineTable(value);
    const target = table ? current.tables[table] : current.fields;
    if (inline) {
      for (const [k, v] of Object.entries(inline)) target[`${key}.${k}`] = v;
      target[key] = value;
    } else target[key] = tomlValue(value);
  }
  return blocks;
}

function readCargoLock(text: string): { format: string; packages: LockPackage[] } {
  const version = /^version\s*=\s*(\d+)/m.exec(text)?.[1];
  const packages = tomlPackages(text).map((b) => {
    const source = b.fields.source;
    const marks: string[] = [];
    let from: string | undefined;
    if (!source) marks.push("a path or workspace crate");
    else if (source.startsWith("git+")) {
      marks.push("from git");
      from = source;
    } else if (
      !source.startsWith("registry+https://github.com/rust-lang/crates.io-index") &&
      !source.startsWith("sparse+https://index.crates.io/")
    ) {
      marks.push("from another registry");
      from = source;
    }
    if (source && !source.startsWith("git+") && !b.fields.checksum) marks.push("no checksum");
    return {
      name: b.fields.name ?? "?",
      version: b.fields.version ?? "?",
      ...(from ? { source: from } : {}),
      marks,
    };
  });
  return { format: `Cargo.lock v${version ?? "1"}`, packages };
}

function readPoetryLock(text: string): { format: string; packages: LockPackage[] } {
  const packages = tomlPackages(text).map((b) => {
    const src = b.tables.source ?? {};
    const marks: string[] = [];
    let from: string | undefined;
    if (src.type && src.type !== "legacy") {
      marks.push(
        `from a ${
          src.type === "directory" || src.type === "file"
            ? "local path"
            : src.type === "url"
            ? "URL"
            : src.type
        }`,
      );
      from = src.url;
    } else if (src.type === "legacy") {
      marks.push("from another package index");
      from = src.url;
    }
    if (b.fields.optional === "true") marks.push("optional");
    if (from?.startsWith("http:")) marks.push("over plain http");
    return {
      name: b.fields.name ?? "?",
      version: b.fields.version ?? "?",
      ...(from ? { source: from } : {}),
      marks,
    };
  });
  return { format: "poetry.lock", packages };
}

function readUvLock(text: string): { format: string; packages: LockPackage[] } {
  const packages = tomlPackages(text).map((b) => {
    const f = b.fields;
    const marks: string[] = [];
    let from: string | undefined;
    if (f["source.git"]) {
      marks.push("from git");
      from = f["source.git"];
    } else if (f["source.path"] || f["source.directory"]) {
      marks.push("from a local path");
      from = f["source.path"] ?? f["source.directory"];
    } else if (f["source.editable"] || f["source.virtual"]) {
      marks.push("the project or a workspace member");
    } else if (f["source.url"]) {
      marks.push("from a URL");
      from = f["source.url"];
    } else if (f["source.registry"] && !/^https:\/\/pypi\.org\/simple/.test(f["source.registry"])) {
      marks.push("from another package index");
      from = f["source.registry"];
    }
    if (from?.startsWith("http:")) marks.push("over plain http");
    return {
      name: f.name ?? "?",
      version: f.version ?? "?",
      ...(from ? { source: from } : {}),
      marks,
    };
  });
  return { format: "uv.lock", packages };
}

// ---------- go.sum

function readGoSum(text: string): { format: string; packages: LockPackage[] } {
  const packages: LockPackage[] = [];
  const seen = new Set<string>();
  for (const line of text.split("\n")) {
    const m = /^(\S+) (\S+?)(\/go\.mod)? h1:\S+$/.exec(line.trim());
    if (!m || m[3]) continue; // a /go.mod line hashes only the module's go.mod: its code is not used
    const key = `${m[1]}@${m[2]}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const marks: string[] = [];
    if (m[2].endsWith("+incompatible")) {
      marks.push("+incompatible (a major version without a go.mod)");
    }
    if (/^v\d+\.\d+\.\d+-(?:\d+\.)?\d{14}-[0-9a-f]{12}$/.test(m[2].replace("+incompatible", ""))) {
      marks.push("an unreleased commit (pseudo-version)");
    }
    packages.push({ name: m[1], version: m[2], marks });
  }
  return { format: "go.sum", packages };
}

// ---------- Package.resolved

function readPackageResolved(text: string): { format: string; packages: LockPackage[] } {
  const doc = JSON.parse(text) as Record<string, unknown>;
  const pins =
    ((doc.pins ?? (doc.object as Record<string, unknown> | undefined)?.pins) ?? []) as Record<
      string,
      unknown
    >[];
  const packages = pins.map((pin) => {
    const state = (pin.state ?? {}) as Record<string, string | null>;
    const name = String(pin.identity ?? pin.package ?? "?");
    const location = String(pin.location ?? pin.repositoryURL ?? "");
    const marks: string[] = [];
    if (state.branch) marks.push(`pinned to branch ${state.branch}`);
    else if (!state.version) marks.push("pinned to a revision, not a version");
    if (
      pin.kind === "localSourceControl" || location.startsWith("/") || location.startsWith("file:")
    ) marks.push("from a local path");
    if (location.startsWith("http:")) marks.push("over plain http");
    return {
      name,
      version: state.version ?? state.branch ?? (state.revision ?? "?").slice(0, 12),
      source: location || undefined,
      marks,
    };
  }).map((
    p,
  ) => (p.source === undefined ? { name: p.name, version: p.version, marks: p.marks } : p));
  return { format: `Package.resolved v${doc.version ?? "?"}`, packages };
}

const READERS: Record<
  string,
  {
    ecosystem: LockAudit["ecosystem"];
    read: (text: string) => { format: string; packages: LockPackage[] };
  }
> = {
  "package-lock.json": { ecosystem: "npm", read: readPackageLock },
  "npm-shrinkwrap.json": { ecosystem: "npm", read: readPackageLock },
  "deno.lock": { ecosystem: "deno", read: readDenoLock },
  "Cargo.lock": { ecosystem: "cargo", read: readCargoLock },
  "go.sum": { ecosystem: "go", read: readGoSum },
  "poetry.lock": { ecosystem: "python", read: readPoetryLock },
  "uv.lock": { ecosystem: "python", read: readUvLock },
  "Package.resolved": { ecosystem: "swift", read: readPackageResolved },
};

export const LOCKFILE_NAMES = Object.keys(READERS);

function duplicatesOf(packages: LockPackage[]): { name: string; versions: string[] }[] {
  const byName = new Map<string, Set<string>>();
  for (const p of packages) {
    const set = byName.get(p.name) ?? new Set<string>();
    set.add(p.version);
    byName.set(p.name, set);
  }
  return [...byName.entries()]
    .filter(([, v]) => v.size > 1)
    .map(([name, v]) => ({ name, versions: [...v].sort() }))
    .sort((a, b) => b.versions.length - a.versions.length || a.name.localeCompare(b.name));
}

/** One lockfile, told by its file name; throws LockfileError for a name it does not know or text it cannot read. */
export function auditLockfile(path: string, text: string): LockAudit {
  const reader = READERS[baseName(path)];
  if (!reader) {
    throw new LockfileError(
      `${baseName(path)} is not a lockfile wisp reads (${LOCKFILE_NAMES.join(", ")})`,
    );
  }
  let read: { format: string; packages: LockPackage[] };
  try {
    read = reader.read(text);
  } catch (error) {
    if (error instanceof LockfileError) throw error;
    throw new LockfileError(
      `${path} could not be read as ${baseName(path)}: ${(error as Error).message}`,
    );
  }
  return {
    path,
    ecosystem: reader.ecosystem,
    format: read.format,
    packages: read.packages,
    duplicates: duplicatesOf(read.packages),
  };
}

/** The audits as text: per lockfile, counts, the duplicates and the marked packages, bounded. */
export function renderAudits(audits: LockAudit[], opts: { maxItems?: number } = {}): string {
  const max = opts.maxItems ?? 20;
  const out: string[] = [];
  for (const a of audits) {
    const marked = a.packages.filter((p) => p.marks.length > 0);
    out.push(
      `${a.path} (${a.format}): ${a.packages.length} packages, ${a.duplicates.length} at several versions, ${marked.length} marked`,
    );
    for (const d of a.duplicates.slice(0, max)) {
      out.push(`  several versions: ${d.name} ${d.versions.join(", ")}`);
    }
    if (a.duplicates.length > max) {
      out.push(`  … ${a.duplicates.length - max} more names at several versions (held back)`);
    }
    // The same marks on many packages are summed by mark; then the packages themselves.
    const byMark = new Map<string, LockPackage[]>();
    for (const p of marked) for (const m of p.marks) byMark.set(m, [...(byMark.get(m) ?? []), p]);
    for (const [mark, list] of [...byMark.entries()].sort((x, y) => y[1].length - x[1].length)) {
      const names = list.slice(0, 5).map((p) => `${p.name}@${p.version}`).join(", ");
      out.push(`  ${mark}: ${list.length} (${names}${list.length > 5 ? ", …" : ""})`);
    }
  }
  return out.join("\n");
}
