/**
 * `wisp redact [FILE]`: the text of a file or standard input with each
 * credential and piece of personal data replaced by `[REDACTED:kind#n]`
 * (the same value, the same number), streamed to stdout, with a one-line
 * summary on stderr. Audited as redaction with counts per kind.
 */
import { load } from "./lazy.ts";
import type { Command } from "commander";

interface RedactFlags {
  personal?: boolean;
  thorough?: boolean;
}

export function register(program: Command): void {
  program
    .command("redact")
    .description(
      "print a file or standard input with credentials and personal data replaced by markers",
    )
    .argument("[file]", "the file to redact; standard input when absent")
    .option("--personal", "redact personal data as well as credentials (the default)")
    .option("--no-personal", "redact credentials only")
    .option("--thorough", "looser thresholds and nameless high-entropy strings")
    .addHelpText(
      "after",
      "\nExamples:\n  wisp redact crash.log | pbcopy\n  wisp redact --thorough ticket.txt > ticket-clean.txt",
    )
    .action(async (file: string | undefined, flags: RedactFlags) => {
      await runRedact(file, flags);
    });
}

async function runRedact(file: string | undefined, flags: RedactFlags): Promise<void> {
  const { cliState, errLine, out, stdinIsTerminal } = await load<typeof import("./io.ts")>(
    import.meta.resolve("./io.ts"),
  );
  const { UsageError, WispError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  const secrets = await load<typeof import("../secrets/index.ts")>(
    import.meta.resolve("../secrets/index.ts"),
  );
  const { scanAudit } = await load<typeof import("../secrets/audit_log.ts")>(
    import.meta.resolve("../secrets/audit_log.ts"),
  );

  if (file === undefined && stdinIsTerminal()) {
    throw new UsageError(
      "give a file to redact, or pipe text to standard input (wisp redact crash.log)",
    );
  }
  let stream: ReadableStream<Uint8Array>;
  if (file === undefined) stream = Deno.stdin.readable;
  else {
    try {
      const info = await Deno.stat(file);
      if (info.isDirectory) throw new UsageError(`${file} is a folder; give one file to redact`);
      // A regular file only: a device never ends and a FIFO waits for a writer.
      const { openInputFile } = await load<typeof import("../util/tool_input.ts")>(
        import.meta.resolve("../util/tool_input.ts"),
      );
      try {
        stream = openInputFile(file).file.readable;
      } catch (error) {
        if (error instanceof Error && error.name === "ToolInputError") {
          throw new WispError(error.message);
        }
        throw error;
      }
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        throw new WispError(`${file} does not exist; check the path`);
      }
      if (error instanceof Deno.errors.PermissionDenied) {
        throw new WispError(`${file} cannot be read; check its permissions`);
      }
      throw error;
    }
  }
  const options = {
    personal: flags.personal !== false || flags.thorough === true,
    thorough: flags.thorough === true,
    path: file,
  };
  const audit = await scanAudit("redact");
  try {
    const result = await secrets.redactStream(stream, options, (chunk) => out(chunk));
    audit.record("redaction", {
      counts: result.counts,
      source: "cli",
      input: file === undefined ? "stdin" : "file",
      ...(file !== undefined ? { path: file } : {}),
      ...(result.binary ? { binary: true } : {}),
      personal: options.personal,
    });
    if (result.binary) {
      errLine(`error: ${file ?? "standard input"} is binary; wisp redact works on text`);
      cliState.exitCode = 1;
      return;
    }
    errLine(secrets.redactionSummary(result.counts));
  } finally {
    audit.close();
  }
}
