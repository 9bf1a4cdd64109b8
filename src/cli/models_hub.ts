/**
 * `wisp models pull ORG/NAME`: a Hugging Face repository into
 * huggingface_hub's cache (the steps in models/hub_pull.ts), after asking on
 * the terminal; trusted publishers (mlx.trustedPublishers, mlx-community
 * always) skip the publisher question.
 */
import { load } from "./lazy.ts";
import type { PullFlags } from "./models_pull.ts";

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
  const pulls = await load<typeof import("../models/hub_pull.ts")>(
    import.meta.resolve("../models/hub_pull.ts"),
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
  const trusted = pulls.isTrusted(publisher, config.mlx.trustedPublishers);
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

  const controller = new AbortController();
  const onInterrupt = () => controller.abort(new Error("stopped by you"));
  let listening = false;
  try {
    Deno.addSignalListener("SIGINT", onInterrupt);
    listening = true;
  } catch { /* no signals here */ }
  try {
    const plan = await pulls.inspectHubPull(repoName, {
      config,
      paths,
      env,
      signal: controller.signal,
    });
    const { repo, cached, total } = plan;
    outLine(
      `${repoName} at ${repo.revision.slice(0, 12)}: ${repo.files.length} files, ${
        formatDecimalBytes(total)
      }`,
    );
    const width = Math.max(...repo.files.map((f) => f.path.length), 4);
    for (const file of repo.files) {
      outLine(
        `  ${file.path.padEnd(width)}  ${formatDecimalBytes(file.size).padEnd(8)}  ${
          cached.has(file.path) ? "already in the Hugging Face cache" : "to fetch"
        }`,
      );
    }
    outLine(`Snapshot: ${plan.snapshot}`);
    for (const l of plan.links) outLine(`Link: ${l.link} to the snapshot, as ${l.model}`);

    await pulls.recheckCached(plan, errLine);
    const { files: toFetch, bytes: fetchBytes } = pulls.toFetch(plan);

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
          `the pull would download ${
            formatDecimalBytes(fetchBytes)
          } and asks first; run it in a terminal`,
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
    let progress: InstanceType<typeof FileProgress> | undefined;
    const done = await pulls.fetchAndLink(plan, {
      start: (file, index, of, resumedFrom) =>
        progress = new FileProgress(
          sink,
          `[${index + 1}/${of}] ${file.path}`,
          file.size,
          resumedFrom,
        ),
      update: (bytes) => progress?.update(bytes),
      end: (outcome) => {
        progress?.finish(outcome === "ok" ? undefined : outcome);
        progress = undefined;
      },
    }, controller.signal);
    for (const l of done.linked) outLine(`linked ${l.model}: ${l.link} → ${l.target}`);
    for (const note of done.notes) errLine(note);
    audit(done.fetched > 0 ? "pulled" : "linked", done.fetched);
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
