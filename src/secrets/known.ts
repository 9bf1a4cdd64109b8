/**
 * Findings someone has already judged, so that `wisp scan` stops repeating them: fingerprints in
 * an ignore file (`.wispignore`, and a `.gitleaksignore` a repository already keeps) and the
 * findings of a baseline (an earlier `wisp scan --json`). Neither holds a value: a fingerprint is
 * `path:kind:line`, a baseline entry a path, a kind and a context hash
 * (docs/adr/0360-secrets-conventions.md).
 */
import { isAbsolute, join, relative, resolve } from "node:path";
import type { SecretFinding } from "./types.ts";
import { repositoryRoot } from "../util/walk.ts";

/** A baseline or ignore file that cannot be used; the message is the sentence to show. */
export class KnownFindingsError extends Error {
  override name = "KnownFindingsError";
}

/** The ignore files read, in order: wisp's own, then gitleaks' (whose rule ids are not ours). */
export const IGNORE_FILES = [".wispignore", ".gitleaksignore"];

interface Fingerprint {
  /** Folder the path is relative to (the ignore file's). */
  base: string;
  path: string;
  /** null: any kind (a .gitleaksignore names gitleaks' rules, not wisp's kinds). */
  kind: string | null;
  line: number;
}

/** Parse an ignore file: `path:kind:line`, or gitleaks' `[commit:]path:rule:line`; `#` comments. */
function parseIgnoreFile(text: string, base: string, ownKinds: boolean): Fingerprint[] {
  const out: Fingerprint[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const m = /^(?:[0-9a-f]{7,40}:)?(.+):([A-Za-z0-9_.-]+):(\d+)$/.exec(line);
    if (!m) continue; // not a fingerprint: skipped, as gitleaks skips it
    out.push({ base, path: m[1], kind: ownKinds ? m[2] : null, line: Number(m[3]) });
  }
  return out;
}

interface BaselineEntry {
  path: string;
  kind: string;
  context: string;
}

/** Read a baseline: the JSON `wisp scan --json` prints (or its SARIF, by partial fingerprints). */
function parseBaseline(text: string, name: string): BaselineEntry[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new KnownFindingsError(
      `${name} is not JSON; make a baseline with wisp scan --json … > ${name}`,
    );
  }
  const findings = (doc as { findings?: unknown })?.findings;
  if (!Array.isArray(findings)) {
    throw new KnownFindingsError(
      `${name} has no "findings" list; make a baseline with wisp scan --json … > ${name}`,
    );
  }
  const out: BaselineEntry[] = [];
  for (const f of findings) {
    const { path, kind, context } = (f ?? {}) as Record<string, unknown>;
    if (typeof path === "string" && typeof kind === "string" && typeof context === "string") {
      out.push({ path, kind, context });
    }
  }
  return out;
}

/** What is already known: the ignore files around `cwd` and an optional baseline. */
export class KnownFindings {
  readonly #fingerprints: Fingerprint[] = [];
  readonly #baseline = new Set<string>();
  readonly #cwd: string;

  constructor(cwd: string, baselinePath?: string) {
    this.#cwd = cwd;
    const folders = [cwd];
    const repo = repositoryRoot(cwd);
    if (repo && repo !== cwd) folders.push(repo);
    for (const folder of folders) {
      for (const name of IGNORE_FILES) {
        let text: string;
        try {
          text = Deno.readTextFileSync(join(folder, name));
        } catch {
          continue; // no such file here
        }
        this.#fingerprints.push(...parseIgnoreFile(text, folder, name === ".wispignore"));
      }
    }
    if (baselinePath !== undefined) {
      let text: string;
      try {
        text = Deno.readTextFileSync(baselinePath);
      } catch {
        throw new KnownFindingsError(
          `the baseline ${baselinePath} cannot be read; make one with wisp scan --json … > ${baselinePath}`,
        );
      }
      for (const e of parseBaseline(text, baselinePath)) {
        this.#baseline.add(this.#key(e.path, e.kind, e.context));
      }
    }
  }

  /** Nothing to compare against: skip the work. */
  get empty(): boolean {
    return this.#fingerprints.length === 0 && this.#baseline.size === 0;
  }

  #key(path: string, kind: string, context: string): string {
    return `${this.#absolute(path)}\0${kind}\0${context}`;
  }

  #absolute(path: string): string {
    return isAbsolute(path) ? path : resolve(this.#cwd, path);
  }

  /** Whether a finding (printed at `path`) is in an ignore file or the baseline. */
  isKnown(f: SecretFinding, path: string): boolean {
    if (f.context !== undefined && this.#baseline.has(this.#key(path, f.kind, f.context))) {
      return true;
    }
    if (this.#fingerprints.length === 0) return false;
    const absolute = this.#absolute(path);
    return this.#fingerprints.some((p) =>
      p.line === f.line && (p.kind === null || p.kind === f.kind) &&
      relative(p.base, absolute).replaceAll("\\", "/") === p.path
    );
  }
}
