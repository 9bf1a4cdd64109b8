/**
 * `wisp models pull ORG/NAME`: a Hugging Face repository into
 * huggingface_hub's cache (models/hub.ts), after asking; trusted publishers
 * (mlx.trustedPublishers, mlx-community always) skip the publisher question;
 * then the snapshot is linked for the backend that serves it: each GGUF file
 * under <home>/models/llamacpp for llama.cpp, an MLX folder under
 * mlx.modelsDirectory (<home>/models/mlx) otherwise.
 */
import { basename, join } from "node:path";
import { load } from "./lazy.ts";
import type { PullFlags } from "./models_pull.ts";
import type { HubRepo } from "../models/hub.ts";

/** Read one line typed on the terminal (empty at end of input). */
async function readAnswer(): Promise<string> {
  const buffer = new Uint8Array(1);
  const bytes: number[] = [];
  for (;;) {
    const n = await Deno.stdin.read(buffer);
    if (n === null || n === 0) break;
    if (buffer[0] === 10 || buffer[0] === 13) break;
    bytes.push(buffer[0]);
  }
  return new TextDecoder().decode(new Uint8Array(bytes)).trim();
}

function isTrusted(publisher: string, trusted: readonly string[]): boolean {
  return publisher === "mlx-community" || trusted.includes(publisher);
}

/** Where the pulled model is linked, and the name it is then used by. */
function linkPlan(
  repo: HubRepo,
  snapshot: string,
  modelsRoot: string,
  mlxDirectory: string,
): { links: { link: string; target: string; model: string }[] } {
  const ggufs = repo.files.filter((f) => f.path.toLowerCase().endsWith(".gguf"));
  if (ggufs.length > 0) {
    return {
      links: ggufs.map((f) => ({
        link: join(modelsRoot, "llamacpp", basename(f.path)),
        target: join(snapshot, f.path),
        model: `llamacpp:${basename(f.path)}`,
      })),
    };
  }
  const name = repo.repo.split("/")[1];
  return { links: [{ link: join(mlxDirectory, name), target: snapshot, model: `mlx:${name}` }] };
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

/** The modules a pull needs, loaded when it runs. */
async function loadPullModules() {
  const [context, writer, hub, progress, bytes, edit, io, errors] = await Promise.all([
    load<typeof import("./context.ts")>(import.meta.resolve("./context.ts")),
    load<typeof import("../audit/writer.ts")>(import.meta.resolve("../audit/writer.ts")),
    load<typeof import("../models/hub.ts")>(import.meta.resolve("../models/hub.ts")),
    load<typeof import("../models/progress.ts")>(import.meta.resolve("../models/progress.ts")),
    load<typeof import("../util/bytes.ts")>(import.meta.resolve("../util/bytes.ts")),
    load<typeof import("../config/edit.ts")>(import.meta.resolve("../config/edit.ts")),
    load<typeof import("./io.ts")>(import.meta.resolve("./io.ts")),
    load<typeof import("../util/errors.ts")>(import.meta.resolve("../util/errors.ts")),
  ]);
  return { context, writer, hub, progress, bytes, edit, io, errors };
}

type PullModules = Awaited<ReturnType<typeof loadPullModules>>;
type PullContext = ReturnType<PullModules["context"]["loadContext"]>;

/**
 * Pull a repository from the Hugging Face Hub: list it, recheck what the
 * cache holds, ask, fetch what is missing, and link the snapshot; audited
 * as model.pull.
 */
export async function pullFromHub(repoName: string, flags: PullFlags): Promise<void> {
  const m = await loadPullModules();
  const { hub } = m;
  const { errLine, cliState } = m.io;
  const context = m.context.loadContext();
  const { paths, config } = context;
  const env = Deno.env.get;
  const publisher = repoName.split("/")[0];
  const terminal = Deno.stdin.isTerminal();
  const trusted = isTrusted(publisher, config.mlx.trustedPublishers);
  if (!trusted && !flags.trustPublisher && !terminal) {
    // Refused before any request: nothing about the repository is fetched.
    throw new m.errors.UsageError(
      `${publisher} is not a trusted publisher (mlx.trustedPublishers), and without a terminal wisp cannot ask; pass --trust-publisher to pull ${repoName} this once from a terminal, or add ${publisher} to mlx.trustedPublishers`,
    );
  }
  const audit = (
    outcome: "pulled" | "linked" | "refused" | "failed" | "interrupted",
    bytes = 0,
  ) => {
    const log = m.writer.AuditLog.open(paths, config.audit);
    try {
      log.record("model.pull", { model: repoName, outcome, bytes });
    } finally {
      log.close();
    }
  };

  const endpoint = hub.hubEndpoint(env);
  const folder = hub.repoFolder(hub.hubCacheDir(env), repoName);
  const controller = new AbortController();
  const onInterrupt = () => controller.abort(new Error("stopped by you"));
  let listening = false;
  try {
    Deno.addSignalListener("SIGINT", onInterrupt);
    listening = true;
  } catch { /* no signals here */ }
  try {
    const repo = await hub.hubRepoInfo(endpoint, repoName, controller.signal);
    const snapshot = hub.snapshotDir(folder, repo.revision);
    const cached = showRepository(m, repoName, repo, folder);
    const plan = linkPlan(
      repo,
      snapshot,
      paths.models,
      config.mlx.modelsDirectory ?? join(paths.models, "mlx"),
    );
    m.io.outLine(`Snapshot: ${snapshot}`);
    for (const l of plan.links) m.io.outLine(`Link: ${l.link} to the snapshot, as ${l.model}`);
    await recheckCached(m, repo, folder, cached);
    const toFetch = repo.files.filter((f) => !cached.has(f.path));
    const consent = await askToPull(m, context, {
      repoName,
      repo,
      publisher,
      asksPublisher: !trusted && !flags.trustPublisher,
      terminal,
      toFetch,
    });
    if ("refused" in consent) {
      audit("refused");
      errLine(consent.refused);
      return;
    }
    if (toFetch.length === 0) errLine("every file is already in the Hugging Face cache");
    const fetched = await fetchFiles(m, endpoint, repo, toFetch, folder, controller.signal);
    // Files already cached under this revision keep their links; the ref says which revision main is.
    hub.writeRef(folder, repo.revision);
    linkSnapshot(m, plan.links);
    audit(fetched > 0 ? "pulled" : "linked", fetched);
    const next = nextStepLine(plan.links[0]);
    if (next) errLine(next);
  } catch (error) {
    if (controller.signal.aborted) {
      audit("interrupted");
      errLine("the pull was stopped; nothing partial is left in the Hugging Face cache");
      cliState.exitCode = 130;
      return;
    }
    if (error instanceof hub.HubError) {
      audit("failed");
      throw new m.errors.WispError(error.message);
    }
    throw error;
  } finally {
    if (listening) Deno.removeSignalListener("SIGINT", onInterrupt);
  }
}

/** List the repository's files, each as cached or to fetch; the cached ones' paths. */
function showRepository(
  m: PullModules,
  repoName: string,
  repo: HubRepo,
  folder: string,
): Set<string> {
  const { formatDecimalBytes } = m.bytes;
  const total = repo.files.reduce((sum, f) => sum + f.size, 0);
  m.io.outLine(
    `${repoName} at ${repo.revision.slice(0, 12)}: ${repo.files.length} files, ${
      formatDecimalBytes(total)
    }`,
  );
  const width = Math.max(...repo.files.map((f) => f.path.length), 4);
  const cached = new Set<string>();
  for (const file of repo.files) {
    if (m.hub.isCached(folder, repo.revision, file)) cached.add(file.path);
    m.io.outLine(
      `  ${file.path.padEnd(width)}  ${formatDecimalBytes(file.size).padEnd(8)}  ${
        cached.has(file.path) ? "already in the Hugging Face cache" : "to fetch"
      }`,
    );
  }
  return cached;
}

/** A cached large file is checked against its SHA-256 before it is trusted again. */
async function recheckCached(
  m: PullModules,
  repo: HubRepo,
  folder: string,
  cached: Set<string>,
): Promise<void> {
  for (const file of repo.files.filter((f) => cached.has(f.path) && f.sha256)) {
    m.io.errLine(`checking the SHA-256 of ${file.path} in the cache`);
    if (!await m.hub.verifyCached(folder, repo.revision, file)) {
      m.io.errLine(
        `${file.path} in the cache does not match its SHA-256; it will be fetched again`,
      );
      await Deno.remove(join(folder, "blobs", file.sha256!)).catch(() => {});
      cached.delete(file.path);
    }
  }
}

/**
 * Ask before anything is fetched: about a publisher not trusted (once, or
 * trusted from now on, which is saved), else about the download itself.
 * The sentence of a refusal, or go.
 */
async function askToPull(
  m: PullModules,
  { paths, config }: PullContext,
  ask: {
    repoName: string;
    repo: HubRepo;
    publisher: string;
    asksPublisher: boolean;
    terminal: boolean;
    toFetch: HubRepo["files"];
  },
): Promise<{ refused: string } | { go: true }> {
  const { formatDecimalBytes } = m.bytes;
  const { outLine, out, errLine } = m.io;
  const { repo, publisher, toFetch } = ask;
  const fetchBytes = toFetch.reduce((sum, f) => sum + f.size, 0);
  if (ask.asksPublisher) {
    const total = repo.files.reduce((sum, f) => sum + f.size, 0);
    outLine(`${publisher} is not a trusted publisher (mlx.trustedPublishers).`);
    outLine(`  Publisher:   ${publisher}`);
    outLine(`  Repository:  ${ask.repoName}`);
    outLine(`  Licence:     ${repo.license}`);
    outLine(
      `  Download:    ${
        formatDecimalBytes(fetchBytes)
      } in ${toFetch.length} of ${repo.files.length} files, ${formatDecimalBytes(total)} in all`,
    );
    outLine("Its weights, tokenizer, and chat template would run on this machine.");
    out(`Pull it once [o], trust ${publisher} from now on [t], or refuse [N]? `);
    const answer = (await readAnswer()).toLowerCase();
    if (answer === "t") {
      const list = [...config.mlx.trustedPublishers, publisher];
      m.context.commitConfigChange(
        paths,
        m.edit.planSet(paths.config, "mlx.trustedPublishers", [JSON.stringify(list)]),
        "cli",
      );
      errLine(`added ${publisher} to mlx.trustedPublishers`);
    } else if (answer !== "o") {
      return { refused: "refused; nothing was fetched" };
    }
    return { go: true };
  }
  if (toFetch.length > 0) {
    if (!ask.terminal) {
      throw new m.errors.UsageError(
        `the pull would download ${
          formatDecimalBytes(fetchBytes)
        } and asks first; run it in a terminal`,
      );
    }
    out(`Fetch ${toFetch.length} of them, ${formatDecimalBytes(fetchBytes)}? [y/N] `);
    if ((await readAnswer()).toLowerCase() !== "y") return { refused: "nothing was fetched" };
  }
  return { go: true };
}

/** Fetch each file into the cache with its progress line; the bytes fetched. */
async function fetchFiles(
  m: PullModules,
  endpoint: string,
  repo: HubRepo,
  toFetch: HubRepo["files"],
  folder: string,
  signal: AbortSignal,
): Promise<number> {
  const sink = m.progress.stderrSink();
  let fetched = 0;
  for (const [index, file] of toFetch.entries()) {
    const label = `[${index + 1}/${toFetch.length}] ${file.path}`;
    let progress: InstanceType<typeof m.progress.FileProgress> | undefined;
    try {
      await m.hub.downloadToCache(endpoint, repo, file, folder, {
        start: (resumedFrom) =>
          progress = new m.progress.FileProgress(sink, label, file.size, resumedFrom),
        update: (done) => progress?.update(done),
      }, signal);
      progress?.finish();
      fetched += file.size;
    } catch (error) {
      progress?.finish(signal.aborted ? "stopped" : "failed");
      throw error;
    }
  }
  return fetched;
}

/** Link the snapshot for its backend; a real file or folder in the way is reported, not replaced. */
function linkSnapshot(
  m: PullModules,
  links: { link: string; target: string; model: string }[],
): void {
  const notes: string[] = [];
  for (const l of links) {
    const problem = makeLink(l.link, l.target);
    if (problem) notes.push(problem);
    else m.io.outLine(`linked ${l.model}: ${l.link} → ${l.target}`);
  }
  for (const note of notes) m.io.errLine(note);
}

/** What to do next with the first model linked (llama.cpp or MLX). Pure. */
function nextStepLine(first: { link: string; model: string } | undefined): string | undefined {
  if (first?.model.startsWith("llamacpp:")) {
    return `start it with llama-server -m ${first.link}; then wisp models check ${first.model}`;
  }
  if (first) {
    return `${first.model} runs in a build with MLX on a Mac; wisp models enable ${first.model} checks it there`;
  }
  return undefined;
}
