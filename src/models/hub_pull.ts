/**
 * A pull of a Hugging Face repository, in the steps both `wisp models pull
 * ORG/NAME` and the `models` tool take: look at the repository and the cache
 * (`inspectHubPull`, nothing written), check the cached files' SHA-256
 * (`recheckCached`), then fetch what is missing into huggingface_hub's cache
 * and link the snapshot for the backend that serves it (`fetchAndLink`): each
 * GGUF file under <home>/models/llamacpp for llama.cpp, an MLX folder under
 * mlx.modelsDirectory (<home>/models/mlx) otherwise. Who is asked, and how,
 * is the caller's.
 */
import { basename, join } from "node:path";
import type { HomePaths } from "../config/home.ts";
import type { Config } from "../config/schema.ts";
import type { Env } from "./host.ts";
import {
  downloadToCache,
  hubCacheDir,
  hubEndpoint,
  type HubFile,
  type HubRepo,
  hubRepoInfo,
  isCached,
  repoFolder,
  snapshotDir,
  verifyCached,
  writeRef,
} from "./hub.ts";

/** A Hugging Face repository name, ORG/NAME. */
export const HUB_REPO = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;

/** Whether a publisher's repositories are pulled without the publisher question. */
export function isTrusted(publisher: string, trusted: readonly string[]): boolean {
  return publisher === "mlx-community" || trusted.includes(publisher);
}

/** One link a pull makes: where, to what, and the model name it is then used by. */
export interface PullLink {
  link: string;
  target: string;
  model: string;
}

/** What a pull would do, found without writing anything. */
export interface HubPullPlan {
  repoName: string;
  publisher: string;
  /** Whether the publisher is trusted (mlx.trustedPublishers, or mlx-community). */
  trusted: boolean;
  repo: HubRepo;
  endpoint: string;
  /** The repository's folder in the cache. */
  folder: string;
  snapshot: string;
  /** Every file's bytes. */
  total: number;
  /** The files already in the cache at this revision. */
  cached: Set<string>;
  links: PullLink[];
}

/** The files a plan still has to fetch, and their bytes. */
export function toFetch(plan: HubPullPlan): { files: HubFile[]; bytes: number } {
  const files = plan.repo.files.filter((f) => !plan.cached.has(f.path));
  return { files, bytes: files.reduce((sum, f) => sum + f.size, 0) };
}

function linkPlan(repo: HubRepo, snapshot: string, modelsRoot: string, mlxDirectory: string) {
  const ggufs = repo.files.filter((f) => f.path.toLowerCase().endsWith(".gguf"));
  if (ggufs.length > 0) {
    return ggufs.map((f) => ({
      link: join(modelsRoot, "llamacpp", basename(f.path)),
      target: join(snapshot, f.path),
      model: `llamacpp:${basename(f.path)}`,
    }));
  }
  const name = repo.repo.split("/")[1];
  return [{ link: join(mlxDirectory, name), target: snapshot, model: `mlx:${name}` }];
}

/** Ask the hub about the repository and see what the cache holds already. */
export async function inspectHubPull(
  repoName: string,
  options: { config: Config; paths: HomePaths; env: Env; signal?: AbortSignal },
): Promise<HubPullPlan> {
  const publisher = repoName.split("/")[0];
  const endpoint = hubEndpoint(options.env);
  const folder = repoFolder(hubCacheDir(options.env), repoName);
  const repo = await hubRepoInfo(endpoint, repoName, options.signal);
  const snapshot = snapshotDir(folder, repo.revision);
  const cached = new Set(
    repo.files.filter((f) => isCached(folder, repo.revision, f)).map((f) => f.path),
  );
  return {
    repoName,
    publisher,
    trusted: isTrusted(publisher, options.config.mlx.trustedPublishers),
    repo,
    endpoint,
    folder,
    snapshot,
    total: repo.files.reduce((sum, f) => sum + f.size, 0),
    cached,
    links: linkPlan(
      repo,
      snapshot,
      options.paths.models,
      options.config.mlx.modelsDirectory ?? join(options.paths.models, "mlx"),
    ),
  };
}

/**
 * A cached large file is checked against its SHA-256 before it is trusted
 * again; one that does not match is removed and left to fetch.
 */
export async function recheckCached(
  plan: HubPullPlan,
  say: (line: string) => void,
): Promise<void> {
  for (const file of plan.repo.files.filter((f) => plan.cached.has(f.path) && f.sha256)) {
    say(`checking the SHA-256 of ${file.path} in the cache`);
    if (!await verifyCached(plan.folder, plan.repo.revision, file)) {
      say(`${file.path} in the cache does not match its SHA-256; it will be fetched again`);
      await Deno.remove(join(plan.folder, "blobs", file.sha256!)).catch(() => {});
      plan.cached.delete(file.path);
    }
  }
}

/** Make `link` a link to `target`; a real file or folder there is not replaced. */
function makeLink(link: string, target: string): string | undefined {
  Deno.mkdirSync(join(link, ".."), { recursive: true });
  try {
    const stat = Deno.lstatSync(link);
    if (!stat.isSymlink) {
      return `${link} is a real ${stat.isDirectory ? "folder" : "file"}; it was left as it is`;
    }
    Deno.removeSync(link);
  } catch { /* nothing there */ }
  Deno.symlinkSync(target, link);
  return undefined;
}

/** How a file's download is followed (a progress bar, or nothing). */
export interface FetchWatcher {
  start?(file: HubFile, index: number, of: number, resumedFrom: number): void;
  update?(done: number): void;
  /** The file is in the cache (ok), or its download stopped or failed. */
  end?(outcome: "ok" | "stopped" | "failed"): void;
}

/** What a finished pull did. */
export interface PullDone {
  /** Bytes fetched now. */
  fetched: number;
  /** The links made. */
  linked: PullLink[];
  /** Links not made (a real file or folder in the way), as sentences. */
  notes: string[];
}

/**
 * Fetch what the cache lacks (resumable, SHA-256 checked), write refs/main,
 * and link. Throws HubError on a failure, and the signal's reason when
 * stopped; what arrived in whole files is kept for the next pull.
 */
export async function fetchAndLink(
  plan: HubPullPlan,
  watcher: FetchWatcher = {},
  signal?: AbortSignal,
): Promise<PullDone> {
  const { files } = toFetch(plan);
  let fetched = 0;
  for (const [index, file] of files.entries()) {
    try {
      await downloadToCache(plan.endpoint, plan.repo, file, plan.folder, {
        start: (resumedFrom) => watcher.start?.(file, index, files.length, resumedFrom),
        update: (done) => watcher.update?.(done),
      }, signal);
      watcher.end?.("ok");
      fetched += file.size;
    } catch (error) {
      watcher.end?.(signal?.aborted ? "stopped" : "failed");
      throw error;
    }
  }
  // Files already cached under this revision keep their links; the ref says which revision main is.
  writeRef(plan.folder, plan.repo.revision);
  const linked: PullLink[] = [];
  const notes: string[] = [];
  for (const l of plan.links) {
    const problem = makeLink(l.link, l.target);
    if (problem) notes.push(problem);
    else linked.push(l);
  }
  return { fetched, linked, notes };
}
