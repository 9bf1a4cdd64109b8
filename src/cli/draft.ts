/**
 * `wisp draft [commit|pr|changelog]`: a commit message (the default), a pull
 * request description or a changelog line, from a diff piped in or from
 * `git diff --cached` run here through the gate and the sandbox. The model
 * writes from the diff's exact summary and the diff; the subject is kept to
 * 72 characters and a commit body ends with `Why: <…>` for you to fill in.
 * Without a model, a plain draft is made from the summary alone (said on
 * stderr). An empty diff is refused.
 */
import { load } from "./lazy.ts";
import type { Command } from "commander";

interface DraftFlags {
  model?: string | false;
  yes?: boolean;
}

const KINDS = ["commit", "pr", "changelog"] as const;
/** A diff piped in is read whole up to this (as draft_change reads a file); more is refused, not cut. */
const PIPED_LIMIT = 16 * 1024 * 1024;

export function register(program: Command): void {
  program
    .command("draft")
    .description(
      "draft a commit message, a pull request description or a changelog line from a diff",
    )
    .argument("[kind]", "commit (default), pr or changelog", "commit")
    .option(
      "-m, --model <name>",
      "the model that writes it (default: routing.tasks.draft, else model)",
    )
    .option("--no-model", "a plain draft from the diff's summary, no model")
    .option("-y, --yes", "approve running git diff --cached without asking")
    .addHelpText(
      "after",
      "\nExamples:\n  wisp draft > msg.txt && $EDITOR msg.txt && git commit -F msg.txt\n  git diff main... | wisp draft pr",
    )
    .action(async (kind: string, flags: DraftFlags) => {
      await runDraft(kind, flags);
    });
}

async function runDraft(kindArg: string, flags: DraftFlags): Promise<void> {
  const { errLine, outLine, stdinIsTerminal, colourEnabled, palette } = await load<
    typeof import("./io.ts")
  >(import.meta.resolve("./io.ts"));
  const { UsageError, WispError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  if (!(KINDS as readonly string[]).includes(kindArg)) {
    throw new UsageError(`${kindArg} is not a kind of draft; use commit, pr or changelog`);
  }
  const kind = kindArg as (typeof KINDS)[number];
  const { loadContext } = await load<typeof import("./context.ts")>(
    import.meta.resolve("./context.ts"),
  );
  const { AuditLog, newSessionId } = await load<typeof import("../audit/writer.ts")>(
    import.meta.resolve("../audit/writer.ts"),
  );
  const { readStreamBounded } = await load<typeof import("../condense/input.ts")>(
    import.meta.resolve("../condense/input.ts"),
  );
  const tools = await load<typeof import("../condense/tools.ts")>(
    import.meta.resolve("../condense/tools.ts"),
  );

  const { paths, config } = loadContext();
  const audit = AuditLog.open(paths, config.audit, `draft-${newSessionId()}`);
  audit.record("session.start", {
    face: "draft",
    pid: Deno.pid,
    cwd: Deno.cwd(),
    argv: ["draft", ...Deno.args.slice(1)],
  });
  try {
    let piped = "";
    if (!stdinIsTerminal()) {
      const read = await readStreamBounded(Deno.stdin.readable, PIPED_LIMIT);
      if (read.droppedBytes > 0) {
        throw new WispError(
          `the diff piped in is ${read.bytes} bytes, more than the 16 MiB a draft reads; draft it in parts`,
        );
      }
      piped = read.text;
    }

    let backend: import("../models/backend.ts").Backend | undefined;
    let reason = "model step off";
    if (flags.model !== false) {
      const explicit = typeof flags.model === "string";
      const name = explicit ? flags.model as string : config.routing.tasks.draft ?? config.model;
      const { chooseForTask } = await load<typeof import("../models/choose.ts")>(
        import.meta.resolve("../models/choose.ts"),
      );
      try {
        // routing.ladder when the task's model is unavailable; --model never falls back.
        backend = (await chooseForTask("draft", config, explicit ? { model: name } : {})).backend;
      } catch (error) {
        if (explicit) throw error;
        reason = `no model configured: ${name} is not available here`;
      }
    }

    // draft_change's one implementation: nothing piped in means the staged change, through the gate,
    // whose question the person answers when standard input is a terminal.
    const { terminalApprovalHost } = await load<
      typeof import("../faces/terminal/approval_dialog.ts")
    >(import.meta.resolve("../faces/terminal/approval_dialog.ts"));
    const host = terminalApprovalHost({
      colour: palette(colourEnabled(Deno.stderr.isTerminal())),
    });
    let drafted: import("../condense/tools.ts").ToolOutput;
    try {
      drafted = await tools.draftChangeTool(
        { kind, ...(piped.trim() !== "" ? { text: piped } : {}) },
        {
          model: backend,
          audit,
          run: { config, paths, audit, yes: flags.yes, ...(host ? { host } : {}) },
        },
      );
    } catch (error) {
      if (error instanceof tools.DraftInputError) {
        throw new WispError(cliSentence(error.problem, error.message, backend?.name));
      }
      if (error instanceof tools.ToolInputError) throw new WispError(error.message);
      throw error;
    }
    if (!backend) errLine(`note: ${reason}; a plain draft from the diff's summary`);
    outLine(drafted.text);
  } finally {
    audit.close();
  }
}

/** draft_change's problems in the words of a command whose input is piped in. */
function cliSentence(
  problem: import("../condense/tools.ts").DraftProblem,
  message: string,
  model: string | undefined,
): string {
  switch (problem) {
    case "empty":
      return "the diff is empty; stage changes with git add, or pipe a diff in";
    case "not-diff":
      return "the input is not a diff; pipe in the output of git diff";
    case "too-big":
      return `${
        message.replace(/; write it to a file.*$/, "")
      }; pipe it in instead (git diff --cached | wisp draft)`;
    case "not-repo":
      return "this folder is not in a git repository, so there is no staged change to draft from; run wisp draft in a repository, or pipe a diff in (git diff | wisp draft)";
    case "silent-model":
      return `${model ?? "the model"} wrote nothing; try again or pick another model with -m`;
  }
}
