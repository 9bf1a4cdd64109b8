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

export async function pullFromHub(repoName: string, flags: PullFlags): Promise<void> {
  const { loadContext, commitConfigChange } = await load<
    typeof import("./context.ts")
  >(import.meta.resolve("./context.ts"));
  const { AuditLog } = await load<typeof import("../audit/writer.ts")>(
    import.meta.resolve("../audit/writer.ts"),
  );
  const hub = await load<typeof import("../models/hub.ts")>(
    import.meta.resolve("../models/hub.ts"),
  );
  const { FileProgress, stderrSink } = await load<typeof import("../models/progress.ts")>(
    import.meta.resolve("../models/progress.ts"),
  );
  const { formatDecimalBytes } = await load<typeof import("../util/bytes.ts")>(
    import.meta.resolve("../util/bytes.ts"),
  );
  const { planSet } = await load<typeof import("../config/edit.ts")>(
    import.meta.resolve("../config/edit.ts"),
  );
  const { outLine, out, errLine, cliState } = await load<typeof import("./io.ts")>(
    import.meta.resolve("./io.ts"),
  );
  const { UsageError, WispError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  const { paths, config } = loadContext();
  const env = Deno.env.get;
  const publisher = repoName.split("/")[0];
  const terminal = Deno.stdin.isTerminal();
  const trusted = isTrusted(publisher, config.mlx.trustedPublishers);
  if (!trusted && !flags.trustPublisher && !terminal) {
    // Refused before any request: nothing about the repository is fetched.
    throw new UsageError(
      `${publisher} is not a trusted publisher (mlx.trustedPublishers), and without a terminal wisp cannot ask; pass --trust-publisher to pull ${repoName} this once from a terminal, or add ${publisher} to mlx.trustedPublishers`,
    );
  }
  const audit = (
    outcome: "pulled" | "linked" | "refused" | "failed" | "interrupted",
    bytes = 0,
  ) => {
    const log = AuditLog.open(paths, config.audit);
    try {
      log.record("model.pull", { model: repoName, outcome, bytes });
    } finally {
      log.close();
    }
  };

  const endpoint = hub.hubEndpoint(env);
  const cache = hub.hubCacheDir(env);
  const folder = hub.repoFolder(cache, repoName);
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
    const total = repo.files.reduce((sum, f) => sum + f.size, 0);
    outLine(
      `${repoName} at ${repo.revision.slice(0, 12)}: ${repo.files.length} files, ${
        formatDecimalBytes(total)
      }`,
    );
    const width = Math.max(...repo.files.map((f) => f.path.length), 4);
    const cached = new Set<string>();
    for (const file of repo.files) {
      if (hub.isCached(folder, repo.revision, file)) cached.add(file.path);
      outLine(
        `  ${file.path.padEnd(width)}  ${formatDecimalBytes(file.size).padEnd(8)}  ${
          cached.has(file.path) ? "already in the Hugging Face cache" : "to fetch"
        }`,
      );
    }
    const plan = linkPlan(
      repo,
      snapshot,
      paths.models,
      config.mlx.modelsDirectory ?? join(paths.models, "mlx"),
    );
    outLine(`Snapshot: ${snapshot}`);
    for (const l of plan.links) outLine(`Link: ${l.link} to the snapshot, as ${l.model}`);

    // A cached large file is checked against its SHA-256 before it is trusted again.
    for (const file of repo.files.filter((f) => cached.has(f.path) && f.sha256)) {
      errLine(`checking the SHA-256 of ${file.path} in the cache`);
      if (!await hub.verifyCached(folder, repo.revision, file)) {
        errLine(`${file.path} in the cache does not match its SHA-256; it will be fetched again`);
        await Deno.remove(join(folder, "blobs", file.sha256!)).catch(() => {});
        cached.delete(file.path);
      }
    }
    const toFetch = repo.files.filter((f) => !cached.has(f.path));
    const fetchBytes = toFetch.reduce((sum, f) => sum + f.size, 0);

    let approved = false;
    if (!trusted && !flags.trustPublisher) {
      outLine(`${publisher} is not a trusted publisher (mlx.trustedPublishers).`);
      outLine(`  Publisher:   ${publisher}`);
      outLine(`  Repository:  ${repoName}`);
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
        commitConfigChange(
          paths,
          planSet(paths.config, "mlx.trustedPublishers", [JSON.stringify(list)]),
          "cli",
        );
        errLine(`added ${publisher} to mlx.trustedPublishers`);
      } else if (answer !== "o") {
        audit("refused");
        errLine(`refused; nothing was fetched`);
        return;
      }
      approved = true;
    }
    if (toFetch.length > 0 && !approved) {
      if (!terminal) {
        throw new UsageError(
          `the pull would download ${formatDecimalBytes(fetchBytes)} and asks first; run it in a terminal`,
        );
      }
      out(`Fetch ${toFetch.length} of them, ${formatDecimalBytes(fetchBytes)}? [y/N] `);
      if ((await readAnswer()).toLowerCase() !== "y") {
        audit("refused");
        errLine("nothing was fetched");
        return;
      }
    }
    if (toFetch.length === 0) errLine("every file is already in the Hugging Face cache");

    const sink = stderrSink();
    let fetched = 0;
    for (const [index, file] of toFetch.entries()) {
      const label = `[${index + 1}/${toFetch.length}] ${file.path}`;
      let progress: InstanceType<typeof FileProgress> | undefined;
      try {
        await hub.downloadToCache(endpoint, repo, file, folder, {
          start: (resumedFrom) => progress = new FileProgress(sink, label, file.size, resumedFrom),
          update: (done) => progress?.update(done),
        }, controller.signal);
        progress?.finish();
        fetched += file.size;
      } catch (error) {
        progress?.finish(controller.signal.aborted ? "stopped" : "failed");
        throw error;
      }
    }
    // Files already cached under this revision keep their links; the ref says which revision main is.
    hub.writeRef(folder, repo.revision);
    const notes: string[] = [];
    for (const l of plan.links) {
      const problem = makeLink(l.link, l.target);
      if (problem) notes.push(problem);
      else outLine(`linked ${l.model}: ${l.link} → ${l.target}`);
    }
    for (const note of notes) errLine(note);
    audit(fetched > 0 ? "pulled" : "linked", fetched);
    const first = plan.links[0];
    if (first?.model.startsWith("llamacpp:")) {
      errLine(`start it with llama-server -m ${first.link}; then wisp models check ${first.model}`);
    } else if (first) {
      errLine(
        `${first.model} runs in a build with MLX on a Mac; wisp models enable ${first.model} checks it there`,
      );
    }
  } catch (error) {
    if (controller.signal.aborted) {
      audit("interrupted");
      errLine("the pull was stopped; nothing partial is left in the Hugging Face cache");
      cliState.exitCode = 130;
      return;
    }
    if (error instanceof hub.HubError) {
      audit("failed");
      throw new WispError(error.message);
    }
    throw error;
  } finally {
    if (listening) Deno.removeSignalListener("SIGINT", onInterrupt);
  }
}
