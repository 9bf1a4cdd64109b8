/**
 * `wisp scan [FILE…]`: credentials (and with --personal, personal data) in
 * files, folders or standard input. Prints each finding's location, kind and
 * masked preview. Exit status a script can trust: 0 nothing found, 1 found,
 * 2 something could not be scanned (a missing or unreadable file or folder:
 * a check that did not run is not a pass, and it wins over a finding). Each
 * input is audited as secrets.scan with kinds and counts, never values.
 */
import { load } from "./lazy.ts";
import type { Command } from "commander";
import type { SecretFinding } from "../secrets/types.ts";
import type { InputResult } from "../secrets/scan_input.ts";

interface ScanFlags {
  /** Commander's `--no-history`: false when given. */
  history?: boolean;
  personal?: boolean;
  thorough?: boolean;
  json?: boolean;
  format?: string;
  baseline?: string;
}

const FORMATS = ["text", "json", "sarif"];

export function register(program: Command): void {
  program
    .command("scan")
    .description(
      "find credentials (and, with --personal, personal data) in files or standard input",
    )
    .argument("[files...]", "files or folders to scan; standard input when none, or `-`")
    .option(
      "--personal",
      "also find personal data: emails, phone numbers, IBANs, cards, national ids, IPs",
    )
    .option(
      "--thorough",
      "looser thresholds and nameless high-entropy strings (implies --personal)",
    )
    .option(
      "--no-history",
      "in a diff, only the lines it adds (by default a secret on a removed line is reported too: it is still in the history)",
    )
    .option(
      "--json",
      'print {"findings": [{"path", "line", "column", "kind", "preview", "context"}]} (--format json)',
    )
    .option("--format <format>", "text (the default), json, or sarif (SARIF 2.1.0)")
    .option(
      "--baseline <file>",
      "leave out the findings of an earlier wisp scan --json (known, already judged)",
    )
    .addHelpText(
      "after",
      "\nExamples:\n  git diff --cached | wisp scan     # in .git/hooks/pre-commit\n  wisp scan --personal export.csv\n\nExit status: 0 nothing found, 1 found, 2 could not scan an input.",
    )
    .action(async (files: string[], flags: ScanFlags) => {
      await runScan(files, flags);
    });
}

/** A root that yields at least this many files is scanned by the thread pool; fewer, right here. */
const POOL_MIN_FILES = 16;

/** Exit status when an input could not be scanned: the result is incomplete. */
const EXIT_NOT_SCANNED = 2;

/** The sentence for an input that could not be scanned, or null for an error that is a bug. */
export function notScannedReason(path: string, error: unknown): string | null {
  if (error instanceof Deno.errors.NotFound) return `${path} does not exist; check the path`;
  if (error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotCapable) {
    return `${path} cannot be read; check its permissions`;
  }
  if (error instanceof Deno.errors.IsADirectory) return `${path} could not be read as a file`;
  // A device, FIFO or socket named as an input: nothing is read from it.
  if (error instanceof Error && error.name === "UnsafePath") {
    return `${error.message}; give a file or a folder`;
  }
  if (error instanceof Error && error.name === "NotScannable") return error.message;
  return null;
}

async function runScan(files: string[], flags: ScanFlags): Promise<void> {
  const { cliState, errLine, out, stdinIsTerminal } = await load<typeof import("./io.ts")>(
    import.meta.resolve("./io.ts"),
  );
  const { UsageError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  const { walkFiles } = await load<typeof import("../secrets/input.ts")>(
    import.meta.resolve("../secrets/input.ts"),
  );
  const { scanSummary } = await load<typeof import("../secrets/summary.ts")>(
    import.meta.resolve("../secrets/summary.ts"),
  );
  const { poolSize, scanInOrder, ScanPool } = await load<typeof import("../secrets/pool.ts")>(
    import.meta.resolve("../secrets/pool.ts"),
  );
  const { scanAudit } = await load<typeof import("../secrets/audit_log.ts")>(
    import.meta.resolve("../secrets/audit_log.ts"),
  );
  // The rules themselves load only when this thread scans (stdin, a few files, a large file).
  let scanningModule: Promise<typeof import("../secrets/scan_input.ts")> | undefined;
  const scanning = () =>
    scanningModule ??= load<typeof import("../secrets/scan_input.ts")>(
      import.meta.resolve("../secrets/scan_input.ts"),
    );

  if (files.length === 0 && stdinIsTerminal()) {
    throw new UsageError(
      "give files to scan, or pipe text to standard input (git diff --cached | wisp scan)",
    );
  }
  const format = flags.format ?? (flags.json ? "json" : "text");
  if (!FORMATS.includes(format) || (flags.json && format !== "json")) {
    throw new UsageError(`--format takes one of ${FORMATS.join(", ")} (and --json means json)`);
  }
  const { KnownFindings, KnownFindingsError } = await load<typeof import("../secrets/known.ts")>(
    import.meta.resolve("../secrets/known.ts"),
  );
  let known: InstanceType<typeof KnownFindings>;
  try {
    known = new KnownFindings(Deno.cwd(), flags.baseline);
  } catch (error) {
    if (error instanceof KnownFindingsError) throw new UsageError(error.message);
    throw error;
  }
  const json = format === "json";
  const sarif: { path: string; finding: SecretFinding }[] = [];
  let suppressedTotal = 0;
  let suppressedHere = 0;
  /** The known findings of the input being printed, by kind (taken out of its counts). */
  let knownKinds: Record<string, number> = {};
  const audit = scanAudit("scan");
  const options = {
    personal: flags.personal === true || flags.thorough === true,
    thorough: flags.thorough === true,
    history: flags.history !== false,
  };
  const threads = poolSize(Deno.env.get("WISP_SCAN_THREADS"), navigator.hardwareConcurrency ?? 1);
  let pool: InstanceType<typeof ScanPool> | undefined;
  const totals: Record<string, number> = {};
  let failed = false;
  let firstJson = true;
  let inputs = 0;
  if (json) out('{"findings": [');

  // Findings on lines a diff removes, in this run and in the input being printed (for its audit).
  let historyTotal = 0;
  let historyHere = 0;

  const print = (found: SecretFinding[], fallbackPath: string) => {
    // One write per batch of findings, not per finding.
    let text = "";
    for (const f of found) {
      const path = f.path ?? fallbackPath;
      if (!known.empty && known.isKnown(f, path)) {
        suppressedHere++;
        knownKinds[f.kind] = (knownKinds[f.kind] ?? 0) + 1;
        continue;
      }
      if (f.history) historyHere++;
      if (format === "sarif") sarif.push({ path, finding: f });
      else if (json) {
        const { line, column, kind, preview, context } = f;
        const entry = {
          path,
          line,
          column,
          kind,
          preview,
          ...(f.history ? { history: true } : {}),
          fingerprint: `${path}:${kind}:${line}`,
          context,
        };
        text += `${firstJson ? "\n" : ",\n"}  ${JSON.stringify(entry)}`;
        firstJson = false;
      } else {
        text += `${path}:${f.line}:${f.column}  ${f.kind}  ${f.preview}${
          f.history ? "  leaked in history" : ""
        }\n`;
      }
    }
    out(text);
  };

  const record = (result: InputResult, path: string | undefined) => {
    inputs++;
    // What the baseline or an ignore file already knows is counted apart, not as found.
    const counts = { ...result.counts };
    for (const [kind, n] of Object.entries(knownKinds)) {
      counts[kind] -= n;
      if (counts[kind] <= 0) delete counts[kind];
    }
    knownKinds = {};
    for (const [kind, n] of Object.entries(counts)) totals[kind] = (totals[kind] ?? 0) + n;
    audit.record("secrets.scan", {
      counts,
      total: Object.values(counts).reduce((a, b) => a + b, 0),
      source: "cli",
      input: path === undefined ? "stdin" : "file",
      ...(path !== undefined ? { path } : {}),
      ...(result.diff ? { diff: true } : {}),
      ...(result.binary ? { binary: true } : {}),
      ...(historyHere > 0 ? { history: historyHere } : {}),
      ...(suppressedHere > 0 ? { known: suppressedHere } : {}),
      personal: options.personal,
    });
    historyTotal += historyHere;
    historyHere = 0;
    suppressedTotal += suppressedHere;
    suppressedHere = 0;
    if (result.binary && Deno.env.get("WISP_LOG") === "debug") {
      errLine(`debug: ${path ?? "standard input"} is binary; its printable runs were scanned`);
    }
  };

  /** Say why an input was not scanned and mark the run incomplete; rethrow what is a bug. */
  const notScanned = (path: string, error: unknown) => {
    const reason = notScannedReason(path, error);
    if (reason === null) throw error;
    errLine(`error: ${reason}`);
    failed = true;
  };

  const scanHere = async (path: string) => {
    const { scanFile } = await scanning();
    try {
      record(await scanFile(path, options, (found) => print(found, path)), path);
    } catch (error) {
      notScanned(path, error);
    }
  };

  const scanStdin = async () => {
    const { scanInput } = await scanning();
    try {
      const result = await scanInput(Deno.stdin.readable, options, (found) => print(found, "-"));
      record(result, undefined);
    } catch (error) {
      notScanned("standard input", error);
    }
  };

  try {
    if (files.length === 0) await scanStdin();
    else {
      for (const root of files) {
        if (root === "-") {
          await scanStdin();
          continue;
        }
        const report = { unreadable: [] as string[] };
        try {
          const walk = walkFiles(root, report);
          const head = take(walk, POOL_MIN_FILES);
          if (threads > 0 && head.length === POOL_MIN_FILES) {
            if (!pool) {
              pool = new ScanPool(threads);
              if (Deno.env.get("WISP_LOG") === "debug") {
                errLine(`debug: scanning with ${threads} worker threads`);
              }
            }
            for await (const outcome of scanInOrder(pool, chain(head, walk), options)) {
              if (outcome.kind === "error") notScanned(outcome.path, outcome.error);
              else if (outcome.kind === "large") await scanHere(outcome.path);
              else {
                if (outcome.findings.length > 0) print(outcome.findings, outcome.path);
                record(outcome.result, outcome.path);
              }
            }
          } else {
            for (const path of chain(head, walk)) await scanHere(path);
          }
        } catch (error) {
          notScanned(root, error);
        }
        for (const folder of report.unreadable) {
          notScanned(folder, new Deno.errors.PermissionDenied(folder));
        }
      }
    }
  } finally {
    pool?.close();
    if (json) out(`${firstJson ? "" : "\n"}]}\n`);
    if (format === "sarif") {
      const { sarifLog } = await load<typeof import("../secrets/sarif.ts")>(
        import.meta.resolve("../secrets/sarif.ts"),
      );
      const { VERSION } = await load<typeof import("../version.ts")>(
        import.meta.resolve("../version.ts"),
      );
      out(JSON.stringify(sarifLog(sarif, VERSION), null, 2) + "\n");
    }
    audit.close();
  }
  const total = Object.values(totals).reduce((a, b) => a + b, 0);
  const where = inputs === 1 ? "" : ` in ${inputs} inputs`;
  // When nothing could be read, the errors above are the whole story.
  if (inputs > 0 || total > 0) {
    const history = historyTotal > 0
      ? ` (${historyTotal} on removed lines: leaked in history)`
      : "";
    errLine(total === 0 ? `no secrets found${where}` : `${scanSummary(totals)}${where}${history}`);
    if (suppressedTotal > 0) {
      errLine(
        `${suppressedTotal} known finding${
          suppressedTotal === 1 ? "" : "s"
        } left out (baseline, ignore file)`,
      );
    }
  }
  if (failed) cliState.exitCode = EXIT_NOT_SCANNED;
  else if (total > 0) cliState.exitCode = 1;
}

/** Up to `n` items from an iterator (which goes on from there). */
function take<T>(iterator: Iterator<T>, n: number): T[] {
  const head: T[] = [];
  while (head.length < n) {
    const next = iterator.next();
    if (next.done) break;
    head.push(next.value);
  }
  return head;
}

/** The items taken, then the rest of the iterator. */
function* chain<T>(head: T[], rest: Iterator<T>): Generator<T> {
  yield* head;
  for (let next = rest.next(); !next.done; next = rest.next()) yield next.value;
}
