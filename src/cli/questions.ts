/**
 * `wisp questions [pending] | answer <id> | decline <id>`: the questions the
 * model asked through its ask tool under `wisp mcp`, waiting in the pending
 * folder for the person.
 *
 * `pending` (the default) lists them, oldest first (piped: one tab-separated
 * line each: id, seconds waited, client/thread, the options joined with |,
 * the question). `answer` shows the question and reads the answer at its own
 * prompt — a number or an option for a choice, a line of text otherwise,
 * Enter alone writing nothing — so the answer is in neither the shell's
 * history nor `ps`. `decline` sends no answer. Both run only from a
 * terminal, and the server checks the process the kernel names as the
 * sender (gate/answerer.ts), so an agent's shell cannot answer for you.
 */
import type { Command } from "commander";
import { load } from "./lazy.ts";

/** The rows `wisp questions pending` prints. Pure. */
export function questionRows(
  listed: {
    request: { id: string; client: string; thread: string; options: string[]; question: string };
    waited: number;
  }[],
  terminal: boolean,
): string[][] {
  return listed.map(({ request, waited }) => [
    request.id,
    terminal ? `${waited} s` : String(waited),
    `${request.client}/${request.thread}`,
    request.options.join(terminal ? " | " : "|"),
    request.question,
  ]);
}

/** The question as `answer` shows it, before its prompt. Pure. */
export function questionLines(request: {
  client: string;
  thread: string;
  question: string;
  options: string[];
}): string[] {
  const lines = [
    `? the model asks (${request.client}, thread ${request.thread})`,
    `  ${request.question}`,
  ];
  if (request.options.length > 0) {
    request.options.forEach((o, i) => lines.push(`  ${i + 1}  ${o}`));
    lines.push(`  ${request.options.length + 1}  none of these`);
  }
  return lines;
}

async function pending(): Promise<void> {
  const { out, outLine, errLine, stdoutIsTerminal } = await load<typeof import("./io.ts")>(
    import.meta.resolve("./io.ts"),
  );
  const { homePaths } = await load<typeof import("../config/home.ts")>(
    import.meta.resolve("../config/home.ts"),
  );
  const { listQuestions } = await load<typeof import("../gate/pending.ts")>(
    import.meta.resolve("../gate/pending.ts"),
  );
  const { renderTable } = await load<typeof import("../util/table.ts")>(
    import.meta.resolve("../util/table.ts"),
  );
  const listed = await listQuestions(homePaths().pending);
  const terminal = stdoutIsTerminal();
  if (listed.length === 0) {
    if (terminal) errLine("no question waits for an answer");
    return;
  }
  const text = renderTable({
    headers: ["ID", "WAITING", "FROM", "OPTIONS", "QUESTION"],
    rows: questionRows(listed, terminal),
    terminal,
  });
  if (terminal) {
    for (const line of text.replace(/\n$/, "").split("\n")) outLine(line);
  } else {
    out(text);
  }
}

async function answer(id: string, decision: "answer" | "decline"): Promise<void> {
  const { UsageError, WispError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  if (!Deno.stdin.isTerminal()) {
    throw new WispError(
      `wisp questions ${decision} answers only from a terminal, so that no agent can answer for you; run it yourself in a terminal`,
    );
  }
  const { homePaths } = await load<typeof import("../config/home.ts")>(
    import.meta.resolve("../config/home.ts"),
  );
  const { isPendingId, parseRequest, requestPath } = await load<
    typeof import("../gate/pending.ts")
  >(import.meta.resolve("../gate/pending.ts"));
  const { answerPending } = await load<typeof import("../faces/mcp/answer.ts")>(
    import.meta.resolve("../faces/mcp/answer.ts"),
  );
  const { errLine, err, outLine } = await load<typeof import("./io.ts")>(
    import.meta.resolve("./io.ts"),
  );
  const dir = homePaths().pending;
  let text: string | undefined;
  if (decision === "answer" && isPendingId(id)) {
    // Shown from the file as it is now; the answer is bound to these bytes (answerPending reads
    // them again and refuses if they changed).
    let parsed;
    try {
      parsed = parseRequest(Deno.readTextFileSync(requestPath(dir, id)));
    } catch { /* gone or unreadable: answerPending says which */ }
    if (parsed && parsed.kind === "question") {
      const question = parsed as import("../gate/pending.ts").PendingQuestion;
      errLine("");
      for (const line of questionLines(question)) errLine(line);
      err(
        question.options.length > 0
          ? "  type a number, or press Enter to decline › "
          : "  type your answer, or press Enter to decline › ",
      );
      const { terminalInput } = await load<typeof import("../faces/terminal/input.ts")>(
        import.meta.resolve("../faces/terminal/input.ts"),
      );
      const typed = (await terminalInput().readLine())?.trim() ?? "";
      if (typed === "") {
        errLine("nothing was sent; the question still waits (wisp questions decline declines it)");
        return;
      }
      text = typed;
    }
  }
  const result = await answerPending(dir, id, {
    decision,
    ...(text !== undefined ? { text } : {}),
  });
  if (result.exitCode === 0) {
    outLine(result.message);
    return;
  }
  if (result.exitCode === 64) throw new UsageError(result.message);
  throw new WispError(result.message);
}

export function register(program: Command): void {
  const questions = program
    .command("questions")
    .description("questions the model asked you under wisp mcp (the ask tool)");
  questions
    .command("pending", { isDefault: true })
    .alias("list")
    .description("list the questions waiting for your answer, oldest first")
    .action(() => pending());
  questions
    .command("answer")
    .description("answer a question waiting in a wisp mcp server (only from a terminal)")
    .argument("<id>", "the question's id (wisp questions lists them)")
    .action((id: string) => answer(id, "answer"));
  questions
    .command("decline")
    .description("decline a question waiting in a wisp mcp server (only from a terminal)")
    .argument("<id>", "the question's id (wisp questions lists them)")
    .action((id: string) => answer(id, "decline"));
}
