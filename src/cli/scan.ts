/**
 * `wisp scan [FILE…]`: credentials (and with --personal, personal data) in
 * files, folders or standard input. Prints each finding's location, kind and
 * masked preview; exits 1 when anything is found (or an input could not be
 * read: a check that did not run is not a pass), 0 otherwise. Each input is
 * audited as secrets.scan with kinds and counts, never values.
 */
import { load } from "./lazy.ts";
import type { Command } from "commander";

interface ScanFlags {
  personal?: boolean;
  thorough?: boolean;
  json?: boolean;
}

export function register(program: Command): void {
  program
    .command("scan")
    .description(
      "find credentials (and, with --personal, personal data) in files or standard input",
    )
    .argument("[files...]", "files or folders to scan; standard input when none")
    .option(
      "--personal",
      "also find personal data: emails, phone numbers, IBANs, cards, national ids, IPs",
    )
    .option(
      "--thorough",
      "looser thresholds and nameless high-entropy strings (implies --personal)",
    )
    .option("--json", 'print {"findings": [{"path", "line", "kind", "preview"}]} on stdout')
    .addHelpText(
      "after",
      "\nExamples:\n  git diff --cached | wisp scan     # in .git/hooks/pre-commit\n  wisp scan --personal export.csv",
    )
    .action(async (files: string[], flags: ScanFlags) => {
      await runScan(files, flags);
    });
}

async function runScan(files: string[], flags: ScanFlags): Promise<void> {
  const { cliState, errLine, out, stdinIsTerminal } = await load<typeof import("./io.ts")>(
    import.meta.resolve("./io.ts"),
  );
  const { UsageError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  const secrets = await load<typeof import("../secrets/index.ts")>(
    import.meta.resolve("../secrets/index.ts"),
  );
  const { openAudit } = await load<typeof import("../secrets/audit_log.ts")>(
    import.meta.resolve("../secrets/audit_log.ts"),
  );

  if (files.length === 0 && stdinIsTerminal()) {
    throw new UsageError(
      "give files to scan, or pipe text to standard input (git diff --cached | wisp scan)",
    );
  }
  const audit = openAudit("scan");
  const options = {
    personal: flags.personal === true || flags.thorough === true,
    thorough: flags.thorough === true,
  };
  const totals: Record<string, number> = {};
  let failed = false;
  let firstJson = true;
  let inputs = 0;
  if (flags.json) out('{"findings": [');

  const print = (found: import("../secrets/index.ts").SecretFinding[], fallbackPath: string) => {
    // One write per batch of findings, not per finding.
    let text = "";
    for (const f of found) {
      const path = f.path ?? fallbackPath;
      if (flags.json) {
        const { line, column, kind, preview } = f;
        text += `${firstJson ? "\n" : ",\n"}  ${
          JSON.stringify({ path, line, column, kind, preview })
        }`;
        firstJson = false;
      } else {
        text += `${path}:${f.line}:${f.column}  ${f.kind}  ${f.preview}\n`;
      }
    }
    out(text);
  };

  const record = (result: import("../secrets/index.ts").InputResult, path: string | undefined) => {
    inputs++;
    for (const [kind, n] of Object.entries(result.counts)) totals[kind] = (totals[kind] ?? 0) + n;
    audit.record("secrets.scan", {
      counts: result.counts,
      total: Object.values(result.counts).reduce((a, b) => a + b, 0),
      source: "cli",
      input: path === undefined ? "stdin" : "file",
      ...(path !== undefined ? { path } : {}),
      ...(result.diff ? { diff: true } : {}),
      ...(result.binary ? { binary: true } : {}),
      personal: options.personal,
    });
    if (result.binary) errLine(`note: ${path ?? "standard input"} is binary; skipped`);
  };

  try {
    if (files.length === 0) {
      const result = await secrets.scanInput(
        Deno.stdin.readable,
        options,
        (found) => print(found, "-"),
      );
      record(result, undefined);
    } else {
      for (const root of files) {
        try {
          for (const path of secrets.walkFiles(root)) {
            const result = await secrets.scanFile(path, options, (found) => print(found, path));
            record(result, path);
          }
        } catch (error) {
          if (error instanceof Deno.errors.NotFound) {
            errLine(`error: ${root} does not exist; check the path`);
          } else if (error instanceof Deno.errors.PermissionDenied) {
            errLine(`error: ${root} cannot be read; check its permissions`);
          } else if (error instanceof Deno.errors.IsADirectory) {
            errLine(`error: ${root} could not be read as a file`);
          } else throw error;
          failed = true;
        }
      }
    }
  } finally {
    if (flags.json) out(`${firstJson ? "" : "\n"}]}\n`);
    audit.close();
  }
  const total = Object.values(totals).reduce((a, b) => a + b, 0);
  const where = inputs === 1 ? "" : ` in ${inputs} inputs`;
  errLine(total === 0 ? `no secrets found${where}` : `${secrets.scanSummary(totals)}${where}`);
  if (total > 0 || failed) cliState.exitCode = 1;
}
