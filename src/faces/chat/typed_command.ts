/**
 * Commands the person runs themselves: a chat line starting with `!` runs
 * the rest in the conversation's directory, in the sandbox; one starting
 * with `!!` runs it outside the sandbox (typing it is the approval).
 *
 * Both go through the one gate-then-run (src/gate/check_then_run.ts) with
 * origin "person": the policy's deny and allow lists apply, nothing is
 * classified, nothing asks. The one runner runs it with the output bound and
 * no time limit; an interrupt stops it (SIGTERM to its process group,
 * SIGKILL two seconds later), a second kills it at once. `command.typed`
 * records what ran and its output; the model is told on its next request
 * that the person ran it, never as its own action.
 */
import { checkThenRun } from "../../gate/check_then_run.ts";
import { runCommand } from "../../exec/runner.ts";
import type { CapturedStream } from "../../exec/capture.ts";
import { commandResultRenderer } from "../../tools/command_result.ts";
import { nestedSandboxProbe } from "../../platform/index.ts";
import type { ChatEngine } from "./engine.ts";

/** A typed command line: what to run and whether outside the sandbox. */
export interface TypedLine {
  command: string;
  outside: boolean;
}

/** The output the model gets whole (bytes); longer, it gets the first and last lines. */
const NOTICE_WHOLE_BYTES = 320;

/**
 * A chat line's typed command, or null when it is not one. `!!x` and `!! x`
 * are outside the sandbox; `! !x` (a space between) runs `!x` inside.
 */
export function typedCommandLine(text: string): TypedLine | null {
  if (!text.startsWith("!")) return null;
  if (text.startsWith("!!")) return { command: text.slice(2).trim(), outside: true };
  return { command: text.slice(1).trim(), outside: false };
}

function streamText(stream: CapturedStream): string {
  const decoder = new TextDecoder();
  return stream.complete
    ? decoder.decode(stream.head)
    : decoder.decode(stream.head) + "\n…\n" + decoder.decode(stream.tail);
}

/** What the model is told about a command the person ran. */
export function typedNotice(input: {
  command: string;
  cwd: string;
  exitStatus: number | null;
  stopped: boolean;
  outside: boolean;
  output: string;
  memory: boolean;
  /** The store entry the notice is (a recall names it). */
  entry?: number;
}): string {
  const lines = input.output === "" ? 0 : input.output.replace(/\n$/, "").split("\n").length;
  const status = input.stopped
    ? "stopped by the person"
    : input.exitStatus === null
    ? "it could not start"
    : `exit status ${input.exitStatus}`;
  const where = input.outside ? " outside the sandbox" : "";
  let text =
    `[the person ran \`${input.command}\` themselves${where} in ${input.cwd} (${status}, ${lines} line${
      lines === 1 ? "" : "s"
    }); this was not your action`;
  const bytes = new TextEncoder().encode(input.output).length;
  if (input.output === "") {
    text += "]";
  } else if (bytes <= NOTICE_WHOLE_BYTES) {
    text += `; its output:\n${input.output.replace(/\n$/, "")}\n]`;
  } else {
    const all = input.output.replace(/\n$/, "").split("\n");
    text +=
      `; its first and last lines:\n${all.slice(0, 3).join("\n")}\n…\n${
        all.slice(-3).join("\n")
      }\n` +
      (input.memory
        ? input.entry !== undefined
          ? `(to read the rest: memory "recall entry ${input.entry}")]`
          : "(the rest is in the conversation's record)]"
        : "(its output is not repeated; do not run it again to see it)]");
  }
  return text;
}

/** Run a typed command line (see the module comment). */
export async function runTyped(engine: ChatEngine, typed: TypedLine): Promise<void> {
  const session = engine.session;
  const config = engine.config;
  if (typed.command === "") {
    engine.note(
      typed.outside
        ? "!! alone runs nothing; type a command after it, as !!brew upgrade"
        : "! alone runs nothing; type a command after it, as !git status",
      "muted",
      "command",
    );
    return;
  }
  let outside = typed.outside;
  if (outside) {
    // With the sandbox off, or wisp inside another sandbox, !! changes nothing.
    const off = engine.options.unsafe || !config.commandPolicy.sandbox.enabled;
    const nested = !off && (await nestedSandboxProbe()).state === "nested";
    if (off || nested) {
      engine.note(
        `· !! changes nothing here: ${
          off ? "the sandbox is off" : "wisp runs inside another sandbox, which confines it"
        }; it runs as a ! command does`,
        "muted",
        "command",
      );
      outside = false;
    }
  }
  const cwd = engine.conversation.cwd;
  const running = engine.beginRunning("command", `running ${typed.command}`);
  try {
    const gated = await checkThenRun(
      session.gate,
      typed.command,
      { cwd, root: session.root, origin: "person", ...(outside ? { outsideSandbox: true } : {}) },
      () => {
        if (outside) {
          engine.note(
            "! running OUTSIDE the sandbox, as you typed it: it may write anywhere you can",
            "warn",
            "command",
          );
        }
        return runCommand({
          command: typed.command,
          cwd,
          root: session.root,
          origin: "person",
          budgetBytes: engine.conversation.budget,
          outsideSandbox: outside,
          signal: running.stop.signal,
          killSignal: running.kill.signal,
          config,
          home: session.paths,
          audit: session.audit,
          unsafe: engine.options.unsafe,
          outputStore: session.outputStore,
          memory: config.context.memory,
          render: commandResultRenderer,
        });
      },
    );
    if (!gated.ran) {
      const refusal = "refusal" in gated ? gated.refusal : "stopped before it started";
      engine.note(
        `· ${
          refusal.replace(/^error: command denied by policy: /, "blocked by policy: ")
            .replace(/^error: /, "")
        }`,
        "warn",
        "command",
      );
      return;
    }
    const result = gated.result;
    const output = streamText(result.stdout) + streamText(result.stderr);
    const event = session.audit.record("command.typed", {
      command: typed.command,
      cwd,
      exitStatus: result.exitStatus,
      stopped: result.stopped,
      outsideSandbox: outside,
      durationMs: result.durationMs,
      output,
      ...(result.outputId ? { stored: result.outputId } : {}),
      ...(result.error ? { error: result.error } : {}),
    });
    engine.keepOutput({
      id: event.id,
      ...(result.outputId ? { stored: result.outputId } : {}),
      title: `! ${typed.command}`,
      text: output,
    });
    // The model is told on its next request, from an entry of the store's own.
    engine.conversation.context.store.tell(
      (entry) =>
        typedNotice({
          command: typed.command,
          cwd,
          exitStatus: result.exitStatus,
          stopped: result.stopped,
          outside,
          output,
          memory: engine.conversation.context.memory,
          entry,
        }),
      event.id,
    );
    if (result.error) engine.note(`error: ${result.error}`, "error", "error");
  } finally {
    engine.endRunning();
  }
}
