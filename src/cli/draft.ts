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
  const { errLine, outLine, stdinIsTerminal } = await load<typeof import("./io.ts")>(
    import.meta.resolve("./io.ts"),
  );
  const { UsageError, WispError, messageOf } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  if (!(KINDS as readonly string[]).includes(kindArg)) {
    throw new UsageError(`${kindArg} is not a kind of draft; use commit, pr or changelog`);
  }
  const kind = kindArg as (typeof KINDS)[number];
  const { loadContext, openAudit } = await load<typeof import("./context.ts")>(
    import.meta.resolve("./context.ts"),
  );
  const { newSessionId } = await load<typeof import("../audit/writer.ts")>(
    import.meta.resolve("../audit/writer.ts"),
  );
  const { readStreamBounded } = await load<typeof import("../condense/input.ts")>(
    import.meta.resolve("../condense/input.ts"),
  );
  const draft = await load<typeof import("../condense/draft.ts")>(
    import.meta.resolve("../condense/draft.ts"),
  );
  const { summariseDiff } = await load<typeof import("../condense/diff.ts")>(
    import.meta.resolve("../condense/diff.ts"),
  );

  const { paths, config } = loadContext();
  const audit = openAudit(paths, config, `draft-${newSessionId()}`);
  audit.record("session.start", {
    face: "draft",
    pid: Deno.pid,
    cwd: Deno.cwd(),
    argv: ["draft", ...Deno.args.slice(1)],
  });
  try {
    let diff = "";
    if (!stdinIsTerminal()) diff = (await readStreamBounded(Deno.stdin.readable)).text;
    if (diff.trim() === "") {
      const { runCaptured } = await load<typeof import("../condense/run_command.ts")>(
        import.meta.resolve("../condense/run_command.ts"),
      );
      const ran = await runCaptured("git diff --cached", "draft", {
        config,
        paths,
        audit,
        yes: flags.yes,
      });
      if (ran.exitStatus !== 0) {
        throw new WispError(
          `git diff --cached failed (exit ${ran.exitStatus}): ${
            ran.text.trim().split("\n")[0] ?? ""
          }`,
        );
      }
      diff = ran.text;
    }
    if (diff.trim() === "") {
      throw new WispError("the diff is empty; stage changes with git add, or pipe a diff in");
    }
    const summary = summariseDiff(diff);
    if (summary.files.length === 0) {
      throw new WispError("the input is not a diff; pipe in the output of git diff");
    }

    let backend: import("../models/backend.ts").Backend | undefined;
    let reason = "model step off";
    if (flags.model !== false) {
      const explicit = typeof flags.model === "string";
      const name = explicit ? flags.model as string : config.routing.tasks.draft ?? config.model;
      const { resolveModel } = await load<typeof import("../models/registry.ts")>(
        import.meta.resolve("../models/registry.ts"),
      );
      try {
        backend = resolveModel(name, config);
      } catch (error) {
        if (explicit) throw error;
        reason = `no model configured: ${name} is not available here`;
      }
    }
    if (!backend) {
      errLine(`note: ${reason}; a plain draft from the diff's summary`);
      outLine(draft.exactDraft(kind, summary));
      return;
    }
    const messages = draft.draftMessages(kind, diff, summary);
    audit.record("prompt", { text: messages[messages.length - 1].content, model: backend.name });
    let written = "";
    try {
      for await (const event of backend.chat({ messages, think: false })) {
        if (event.type === "text") written += event.text;
      }
    } catch (error) {
      throw new WispError(`${backend.name} could not write the draft: ${messageOf(error)}`);
    }
    audit.record("response", { text: written, model: backend.name });
    if (written.trim() === "") {
      throw new WispError(`${backend.name} wrote nothing; try again or pick another model with -m`);
    }
    outLine(draft.finishDraft(kind, written));
  } finally {
    audit.close();
  }
}
