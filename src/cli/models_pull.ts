/**
 * `wisp models pull`: `ollama:NAME` through the Ollama server's /api/pull,
 * with progress on stderr; `ORG/NAME` from a Hugging Face repository into
 * huggingface_hub's own cache (models/hub_pull.ts). Ctrl-C stops the pull;
 * each outcome is audited as model.pull.
 */
import { load } from "./lazy.ts";

export interface PullFlags {
  trustPublisher?: boolean;
}

/** Ctrl-C aborts `controller`; removes its listener when `run` ends. */
async function withInterrupt<T>(
  controller: AbortController,
  run: () => Promise<T>,
): Promise<T> {
  const onInterrupt = () => controller.abort(new Error("stopped by you"));
  let listening = false;
  try {
    Deno.addSignalListener("SIGINT", onInterrupt);
    listening = true;
  } catch { /* no signals here: Ctrl-C ends the process */ }
  try {
    return await run();
  } finally {
    if (listening) Deno.removeSignalListener("SIGINT", onInterrupt);
  }
}

async function pullFromOllama(model: string): Promise<void> {
  const { loadContext } = await load<typeof import("./context.ts")>(
    import.meta.resolve("./context.ts"),
  );
  const { AuditLog } = await load<typeof import("../audit/writer.ts")>(
    import.meta.resolve("../audit/writer.ts"),
  );
  const { pullOllama } = await load<typeof import("../models/ollama.ts")>(
    import.meta.resolve("../models/ollama.ts"),
  );
  const { ollamaHost } = await load<typeof import("../models/host.ts")>(
    import.meta.resolve("../models/host.ts"),
  );
  const { FileProgress, stderrSink } = await load<typeof import("../models/progress.ts")>(
    import.meta.resolve("../models/progress.ts"),
  );
  const { ModelStopped } = await load<typeof import("../models/errors.ts")>(
    import.meta.resolve("../models/errors.ts"),
  );
  const { errLine, cliState } = await load<typeof import("./io.ts")>(
    import.meta.resolve("./io.ts"),
  );
  const { paths, config } = loadContext();
  const host = ollamaHost(config, Deno.env.get);
  const name = `ollama:${model}`;
  const sink = stderrSink();
  const controller = new AbortController();
  let current: { digest: string; progress: InstanceType<typeof FileProgress> } | undefined;
  let fetched = 0;
  const audit = (outcome: "pulled" | "failed" | "interrupted") => {
    const log = AuditLog.open(paths, config.audit);
    try {
      log.record("model.pull", { model: name, outcome, bytes: fetched });
    } finally {
      log.close();
    }
  };
  try {
    await withInterrupt(controller, async () => {
      for await (const line of pullOllama(host, model, controller.signal)) {
        if (line.digest && line.total) {
          if (current?.digest !== line.digest) {
            current?.progress.finish();
            current = {
              digest: line.digest,
              progress: new FileProgress(
                sink,
                `layer ${line.digest.replace(/^sha256:/, "").slice(0, 12)}`,
                line.total,
                line.completed ?? 0,
              ),
            };
            fetched += line.total - (line.completed ?? 0);
          }
          current.progress.update(line.completed ?? 0);
        } else {
          current?.progress.finish();
          current = undefined;
          errLine(line.status);
        }
      }
    });
  } catch (error) {
    if (error instanceof ModelStopped) {
      current?.progress.finish("stopped");
      audit("interrupted");
      errLine(
        `the pull of ${name} was stopped; Ollama keeps what it fetched, and wisp models pull ${name} goes on from there`,
      );
      cliState.exitCode = 130;
      return;
    }
    current?.progress.finish("failed");
    audit("failed");
    throw error;
  }
  current?.progress.finish();
  audit("pulled");
  errLine(
    `pulled ${name}; wisp models lists it, and wisp config set model ${name} makes it the default`,
  );
}

/** `wisp models pull <name>`: ollama:NAME, or a Hugging Face ORG/NAME. */
export async function pull(name: string, flags: PullFlags): Promise<void> {
  const { UsageError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  if (name.startsWith("ollama:") && name.length > "ollama:".length) {
    return await pullFromOllama(name.slice("ollama:".length));
  }
  if (/^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(name)) {
    const { pullFromHub } = await load<typeof import("./models_hub.ts")>(
      import.meta.resolve("./models_hub.ts"),
    );
    return await pullFromHub(name, flags);
  }
  throw new UsageError(
    `wisp models pull takes ollama:<name> (pulled by the Ollama server) or a Hugging Face repository <organisation>/<name>, not '${name}'`,
  );
}
