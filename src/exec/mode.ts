/**
 * How a command runs — confined, outside (approved), off, or nested — decided
 * once per command from the request, the config and the nested-sandbox probe
 * (docs/adr/0110-one-runner.md).
 */
import type { ProbeResult } from "../platform/index.ts";

export type Origin = "model" | "person" | "custom_tool" | "triage" | "watch" | "draft" | "sandbox";
export type SandboxMode = "confined" | "off" | "outside" | "nested";

export interface ModeDecision {
  mode: SandboxMode;
  /** The launcher's profile: confined, or open (allow-all). */
  launch: "confined" | "open" | "plain";
  notes: string[];
  error?: string;
}

/** Decide how a command runs (pure). */
export function decideMode(input: {
  origin: Origin;
  outsideSandbox: boolean;
  sandboxEnabled: boolean;
  unsafe: boolean;
  allowOutsideSandbox: boolean;
  probe: ProbeResult;
  plainAllowed: boolean;
}): ModeDecision {
  if (input.probe.state === "missing") {
    return {
      mode: "confined",
      launch: "confined",
      notes: [],
      error:
        `the sandbox launcher cannot start (${input.probe.detail}); install bubblewrap (Linux) or run on macOS`,
    };
  }
  const off = input.origin !== "sandbox" && (input.unsafe || !input.sandboxEnabled);
  if (
    input.outsideSandbox && !off && input.probe.state !== "nested" && !input.allowOutsideSandbox
  ) {
    return {
      mode: "outside",
      launch: "open",
      notes: [],
      error: "command denied by policy: running outside the sandbox is turned off here " +
        "(commandPolicy.sandbox.allowOutsideSandbox is false)",
    };
  }
  if (input.probe.state === "nested") {
    const notes = input.outsideSandbox
      ? [
        "sandbox: outsideSandbox changed nothing: wisp runs inside another sandbox, which confined this command",
      ]
      : [];
    if (!input.plainAllowed) {
      return {
        mode: "nested",
        launch: "plain",
        notes,
        error:
          `wisp runs inside another sandbox, where its launcher cannot start (${input.probe.detail}), ` +
          "and wisp's permission fence lets it start no other program; run wisp outside that sandbox",
      };
    }
    return { mode: "nested", launch: "plain", notes };
  }
  if (off) {
    const notes = input.outsideSandbox
      ? ["sandbox: outsideSandbox changed nothing: the sandbox is off here"]
      : [];
    return { mode: "off", launch: "open", notes };
  }
  if (input.outsideSandbox) {
    return {
      mode: "outside",
      launch: "open",
      notes: ["sandbox: ran outside the sandbox, as the person approved, this once"],
    };
  }
  return { mode: "confined", launch: "confined", notes: [] };
}

/** Whether the fence lets wisp start a shell itself (never under the `wisp` permission set). */
export function plainShellAllowed(): boolean {
  try {
    return Deno.permissions.querySync({ name: "run", command: "/bin/bash" }).state === "granted";
  } catch {
    return false;
  }
}
