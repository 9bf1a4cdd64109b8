/**
 * Models from a Hugging Face repository, fetched into huggingface_hub's own
 * cache so Hugging Face's tools and wisp share one copy:
 *
 *   <cache>/models--ORG--NAME/
 *     blobs/<etag>                      the file's bytes, named by its ETag
 *                                       (the SHA-256 for large files)
 *     blobs/<etag>.incomplete           a download in progress (resumed from)
 *     snapshots/<revision>/<path>       a relative link to ../../blobs/<etag>
 *     refs/main                         the revision main points at
 *
 * The cache folder is found as huggingface_hub finds it: HF_HUB_CACHE, else
 * HUGGINGFACE_HUB_CACHE, else $HF_HOME/hub, else
 * $XDG_CACHE_HOME/huggingface/hub, else ~/.cache/huggingface/hub.
 *
 * Downloads resume with a range request from the `.incomplete` file, are
 * checked against the SHA-256 the Hub gives, and become visible in the cache
 * only when complete (a rename, then the link).
 */
import { createHash } from "node:crypto";
import { dirname, join, relative } from "node:path";
import type { Env } from "./host.ts";
import { connectionCause } from "./errors.ts";
import { WispError } from "../util/errors.ts";
import { writeAll } from "../util/fs_safe.ts";

/** huggingface_hub's cache folder. */
export function hubCacheDir(env: Env): string {
  const nonEmpty = (name: string) => {
    const value = env(name)?.trim();
    return value ? value : undefined;
  };
  const direct = nonEmpty("HF_HUB_CACHE") ?? nonEmpty("HUGGINGFACE_HUB_CACHE");
  if (direct) return direct;
  const hfHome = nonEmpty("HF_HOME");
  if (hfHome) return join(hfHome, "hub");
  const xdg = nonEmpty("XDG_CACHE_HOME");
  if (xdg) return join(xdg, "huggingface", "hub");
  return join(nonEmpty("HOME") ?? "/", ".cache", "huggingface", "hub");
}

/** The Hub's address: HF_ENDPOINT, as huggingface_hub reads it, else huggingface.co. */
export function hubEndpoint(env: Env): string {
  return (env("HF_ENDPOINT")?.trim() || "https://huggingface.co").replace(/\/+$/, "");
}

/** A repository's folder in the cache: models--ORG--NAME. */
export function repoFolder(cache: string, repo: string): string {
  return join(cache, `models--${repo.split("/").join("--")}`);
}

export interface HubFile {
  /** The path in the repository. */
  path: string;
  size: number;
  /** The SHA-256 of a large (LFS) file, as the Hub gives it. */
  sha256?: string;
}

export interface HubRepo {
  repo: string;
  /** The commit main points at. */
  revision: string;
  files: HubFile[];
  /** The model card's license, else a license: tag, else "unknown". */
  license: string;
}

/** A failure of the Hub or a download, as one sentence. */
export class HubError extends WispError {}

/** Why a request to the Hub failed, in a few words: the fence, or the connection's cause. */
function fenceOrCause(error: unknown, url: string): string {
  if (error instanceof Deno.errors.NotCapable) {
    return `wisp's permission fence does not allow connections to ${new URL(url).host}; ` +
      "it allows the Hugging Face Hub (huggingface.co, hf.co) and this machine";
  }
  return connectionCause(error);
}

/** What the Hub says about a repository at main: its revision, files, sizes and licence. */
export async function hubRepoInfo(
  endpoint: string,
  repo: string,
  signal?: AbortSignal,
): Promise<HubRepo> {
  const url = `${endpoint}/api/models/${repo}/revision/main?blobs=true`;
  let response: Response;
  try {
    response = await fetch(url, { signal });
  } catch (error) {
    throw new HubError(
      `cannot reach the Hugging Face Hub at ${endpoint} (${fenceOrCause(error, url)})`,
    );
  }
  if (response.status === 404 || response.status === 401) {
    await response.body?.cancel();
    throw new HubError(
      `the Hugging Face Hub has no repository ${repo} (or it is private or gated); check the name on ${endpoint}/${repo}`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new HubError(`the Hugging Face Hub answered ${response.status} for ${repo}`);
  }
  const info = await response.json() as {
    sha?: string;
    siblings?: { rfilename: string; size?: number; lfs?: { sha256?: string; size?: number } }[];
    cardData?: { license?: unknown };
    tags?: string[];
  };
  if (typeof info.sha !== "string" || !/^[0-9a-f]{40}$/.test(info.sha)) {
    throw new HubError(`the Hugging Face Hub gave no revision for ${repo}`);
  }
  const tag = info.tags?.find((t) => t.startsWith("license:"));
  return {
    repo,
    revision: info.sha,
    files: (info.siblings ?? []).map((s) => ({
      path: s.rfilename,
      size: s.lfs?.size ?? s.size ?? 0,
      ...(s.lfs?.sha256 ? { sha256: s.lfs.sha256 } : {}),
    })),
    license: typeof info.cardData?.license === "string"
      ? info.cardData.license
      : tag
      ? tag.slice("license:".length)
      : "unknown",
  };
}

/** The snapshot folder of a revision. */
export function snapshotDir(folder: string, revision: string): string {
  return join(folder, "snapshots", revision);
}

/** Whether the snapshot has this file, complete (its link resolves to a blob of the right size). */
export function isCached(folder: string, revision: string, file: HubFile): boolean {
  try {
    const stat = Deno.statSync(join(snapshotDir(folder, revision), file.path));
    return stat.isFile && (file.size === 0 || stat.size === file.size);
  } catch {
    return false;
  }
}

export interface DownloadProgress {
  /** Bytes already in the `.incomplete` file when this download started. */
  start(resumedFrom: number): void;
  update(done: number): void;
}

function cleanEtag(raw: string | null): string | undefined {
  if (!raw) return undefined;
  return raw.replace(/^W\//, "").replace(/^"|"$/g, "") || undefined;
}

async function hashFile(path: string, hash: ReturnType<typeof createHash>): Promise<number> {
  let bytes = 0;
  const file = await Deno.open(path, { read: true });
  try {
    for await (const chunk of file.readable) {
      hash.update(chunk);
      bytes += chunk.length;
    }
  } finally {
    try {
      file.close();
    } catch { /* closed when its stream ended */ }
  }
  return bytes;
}

/** The SHA-256 of a complete file, hex. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  await hashFile(path, hash);
  return hash.digest("hex");
}

function linkSnapshot(folder: string, revision: string, path: string, blob: string): void {
  const link = join(snapshotDir(folder, revision), path);
  Deno.mkdirSync(dirname(link), { recursive: true });
  try {
    Deno.removeSync(link);
  } catch { /* not there yet */ }
  // Relative, as huggingface_hub makes them, so the cache can move as a whole.
  Deno.symlinkSync(relative(dirname(link), blob), link);
}

/** Record the revision main points at. */
export function writeRef(folder: string, revision: string): void {
  Deno.mkdirSync(join(folder, "refs"), { recursive: true });
  Deno.writeTextFileSync(join(folder, "refs", "main"), revision);
}

/**
 * Fetch one file into the cache and link it into the snapshot. Resumes from
 * `blobs/<etag>.incomplete` with a range request; checks the SHA-256 the Hub
 * gives (or that the ETag is, for large files); a mismatch removes what was
 * fetched and throws. Stopped by `signal`, the `.incomplete` file is removed
 * too, so nothing partial is left; a dropped connection keeps it to resume.
 */
export async function downloadToCache(
  endpoint: string,
  repo: HubRepo,
  file: HubFile,
  folder: string,
  progress: DownloadProgress,
  signal?: AbortSignal,
): Promise<void> {
  const url = `${endpoint}/${repo.repo}/resolve/${repo.revision}/${
    file.path.split("/").map(encodeURIComponent).join("/")
  }`;
  const blobs = join(folder, "blobs");
  Deno.mkdirSync(blobs, { recursive: true });
  // The blob's name: the SHA-256 of a large file, as the Hub's ETag gives it; else ask for the ETag.
  let etag = file.sha256;
  if (!etag) {
    let head: Response;
    try {
      head = await fetch(url, { method: "HEAD", signal, redirect: "manual" });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new HubError(`cannot fetch ${file.path} (${fenceOrCause(error, url)})`);
    }
    etag = cleanEtag(head.headers.get("x-linked-etag") ?? head.headers.get("etag"));
    if (!etag) throw new HubError(`the Hub gave no ETag for ${file.path}`);
  }
  const blob = join(blobs, etag);
  const incomplete = `${blob}.incomplete`;
  let have = 0;
  try {
    have = Deno.statSync(incomplete).size;
  } catch { /* a fresh download */ }
  if (have > file.size && file.size > 0) {
    Deno.removeSync(incomplete);
    have = 0;
  }
  const hash = createHash("sha256");
  if (have > 0) have = await hashFile(incomplete, hash);
  const headers: Record<string, string> = have > 0 ? { range: `bytes=${have}-` } : {};
  let response: Response;
  try {
    response = await fetch(url, { headers, signal });
  } catch (error) {
    if (signal?.aborted) {
      await removeQuietly(incomplete);
      throw error;
    }
    throw new HubError(`cannot fetch ${file.path} (${fenceOrCause(error, url)})`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new HubError(`the Hub answered ${response.status} for ${file.path}`);
  }
  if (have > 0 && response.status !== 206) {
    // The server sent the whole file: start again.
    await removeQuietly(incomplete);
    return await downloadToCache(endpoint, repo, file, folder, progress, signal);
  }
  progress.start(have);
  const out = await Deno.open(incomplete, { create: true, append: true, mode: 0o644 });
  let done = have;
  try {
    for await (const chunk of response.body!) {
      writeAll(out, chunk);
      hash.update(chunk);
      done += chunk.length;
      progress.update(done);
    }
  } catch (error) {
    out.close();
    if (signal?.aborted) {
      await removeQuietly(incomplete);
      throw error;
    }
    throw new HubError(
      `the download of ${file.path} broke off at ${done} of ${file.size} bytes (${
        fenceOrCause(error, url)
      }); pull again to resume it`,
    );
  }
  out.close();
  const digest = hash.digest("hex");
  const expected = file.sha256 ?? (/^[0-9a-f]{64}$/.test(etag) ? etag : undefined);
  if (expected && digest !== expected) {
    await removeQuietly(incomplete);
    throw new HubError(
      `${file.path} does not match its SHA-256 (expected ${expected.slice(0, 12)}…, got ${
        digest.slice(0, 12)
      }…); it was removed and nothing was linked`,
    );
  }
  if (file.size > 0 && done !== file.size) {
    await removeQuietly(incomplete);
    throw new HubError(
      `${file.path} arrived with ${done} bytes where the Hub lists ${file.size}; it was removed`,
    );
  }
  Deno.renameSync(incomplete, blob);
  linkSnapshot(folder, repo.revision, file.path, blob);
}

async function removeQuietly(path: string): Promise<void> {
  try {
    await Deno.remove(path);
  } catch { /* already gone */ }
}

/**
 * Check a cached large file against its SHA-256 before it is used (a blob the
 * cache holds may have been damaged since it was fetched). Returns whether it
 * matched.
 */
export async function verifyCached(
  folder: string,
  revision: string,
  file: HubFile,
): Promise<boolean> {
  if (!file.sha256) return true;
  return await sha256File(join(snapshotDir(folder, revision), file.path)) === file.sha256;
}
