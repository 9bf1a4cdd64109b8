/**
 * The action of `wisp sandbox`: the gate (for a line the person typed: the
 * deny list only, and the gate records its own decision), then the one
 * runner with stdio passed through, then the program's exit status as wisp's.
 */
import { readContext } from "./read_context.ts";
import { cliState, errLine } from "./io.ts";
import { UsageError, WispError } from "../util/errors.ts";
import { runCommand } from "../exec/runner.ts";
import { nestedSandboxProbe } from "../platform/index.ts";
import { exitCodeFor, shellLine } from "./sandbox.ts";
import { passingOnce } from "../exec/passthrough.ts";
import { AuditLog } from "../audit/writer.ts";
import { startShellParserFor } from "../gate/parse.ts";

export interface SandboxCommandOptions {
  network: boolean;
  writable: string[];
}

export async function runSandbox(argv: string[], options: SandboxCommandOptions): Promise<void> {
  if (argv.length === 0) {
    throw new UsageError("wisp sandbox needs a program to run: wisp sandbox -- CMD [ARG…]");
  }
  // The nested-sandbox probe starts the launcher once; let it overlap the gate's start-up.
  const probing = nestedSandboxProbe();
  // Which of wisp's descriptors the program may have as they are (src/exec/passthrough.ts).
  void passingOnce();
  const line = shellLine(argv);
  // A line the gate's quick reader declines needs tree-sitter: load it beside the rest of start-up.
  startShellParserFor(line);
  const { paths, config } = await readContext();
  const audit = AuditLog.open(paths, config.audit);
  const cwd = Deno.cwd();
  audit.record("session.start", {
    face: "sandbox",
    pid: Deno.pid,
    cwd,
    argv: ["sandbox", ...argv],
  });

  const [{ Gate }, { checkThenRun }] = await Promise.all([
    import("../gate/gate.ts"),
    import("../gate/check_then_run.ts"),
  ]);
  const gate = new Gate({ config, home: paths, audit });

  // Ctrl-C reaches the launcher too (it shares wisp's terminal group) and ends
  // the sandbox at once; wisp waits for it and reports the stop.
  const controller = new AbortController();
  const onInterrupt = () => controller.abort();
  let listening = false;
  try {
    Deno.addSignalListener("SIGINT", onInterrupt);
    listening = true;
  } catch { /* no signal support here */ }
  try {
    // Typing the line is its approval: the gate applies the deny list only (origin "sandbox").
    const gated = await checkThenRun(
      gate,
      line,
      { cwd, root: cwd, origin: "sandbox" },
      async () => {
        await probing;
        return runCommand({
          command: line,
          cwd,
          root: cwd,
          origin: "sandbox",
          budgetBytes: 4096,
          config,
          home: paths,
          audit,
          passthrough: true,
          signal: controller.signal,
          allowNetwork: options.network && config.commandPolicy.sandbox.allowNetwork,
          extraWritable: options.writable.map((p) => (p.startsWith("/") ? p : `${cwd}/${p}`)),
          warn: errLine,
        });
      },
    );
    if (!gated.ran) {
      // The refusal without the model-facing `error: ` (wisp's own error line adds it).
      const refusal = "refusal" in gated ? gated.refusal : "error: stopped before it started";
      throw new WispError(refusal.replace(/^error: /, ""));
    }
    const result = gated.result;
    if (result.error) throw new WispError(result.error);
    cliState.exitCode = exitCodeFor(result.exitStatus);
    if (result.stopped) errLine("wisp: stopped");
  } finally {
    if (listening) Deno.removeSignalListener("SIGINT", onInterrupt);
    audit.close();
  }
}
