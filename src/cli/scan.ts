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

/** The options of `wisp scan`, as commander gives them. */
export interface ScanFlags {
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

/** Output for a pipe or a file is written in blocks of about this many characters. */
const OUTPUT_BLOCK = 64 * 1024;

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

/** How the findings are printed, and what is looked for. */
interface ScanPlan {
  format: string;
  options: ScanOptions;
}

/** What the scanner is asked to find (scan_input.ts). */
interface ScanOptions {
  personal: boolean;
  thorough: boolean;
  history: boolean;
}

/**
 * The plan for a scan from its arguments, pure: the output format and the
 * scanner's options, or the usage error that stops it.
 */
export function planScan(
  files: string[],
  flags: ScanFlags,
  stdinIsTerminal: boolean,
): ScanPlan | { usage: string } {
  if (files.length === 0 && stdinIsTerminal) {
    return {
      usage: "give files to scan, or pipe text to standard input (git diff --cached | wisp scan)",
    };
  }
  const format = flags.format ?? (flags.json ? "json" : "text");
  if (!FORMATS.includes(format) || (flags.json && format !== "json")) {
    return { usage: `--format takes one of ${FORMATS.join(", ")} (and --json means json)` };
  }
  return {
    format,
    options: {
      personal: flags.personal === true || flags.thorough === true,
      thorough: flags.thorough === true,
      history: flags.history !== false,
    },
  };
}

/** The totals of a finished scan, for its closing lines. */
interface ScanTotals {
  totals: Record<string, number>;
  inputs: number;
  history: number;
  known: number;
}

/**
 * The lines on stderr that close a scan, pure: what was found in how many
 * inputs, and how many known findings were left out. When nothing could be
 * read, the errors already said it all.
 */
export function scanClosingLines(
  t: ScanTotals,
  summary: (totals: Record<string, number>) => string,
): string[] {
  const total = Object.values(t.totals).reduce((a, b) => a + b, 0);
  if (t.inputs === 0 && total === 0) return [];
  const where = t.inputs === 1 ? "" : ` in ${t.inputs} inputs`;
  const history = t.history > 0 ? ` (${t.history} on removed lines: leaked in history)` : "";
  const lines = [
    total === 0 ? `no secrets found${where}` : `${summary(t.totals)}${where}${history}`,
  ];
  if (t.known > 0) {
    lines.push(
      `${t.known} known finding${t.known === 1 ? "" : "s"} left out (baseline, ignore file)`,
    );
  }
  return lines;
}

/** Where a scan's findings go as they arrive: printed, counted and audited per input. */
class ScanReport {
  readonly totals: Record<string, number> = {};
  inputs = 0;
  failed = false;
  historyTotal = 0;
  knownTotal = 0;
  readonly #sarif: { path: string; finding: SecretFinding }[] = [];
  #firstJson = true;
  // Per input being printed: its findings on removed lines, and its known ones (by kind).
  #historyHere = 0;
  #knownHere = 0;
  #knownKinds: Record<string, number> = {};
  /** Output not yet written (see print). */
  #pending = "";

  constructor(
    readonly format: string,
    readonly personal: boolean,
    readonly known: { empty: boolean; isKnown(f: SecretFinding, path: string): boolean },
    readonly audit: { record(kind: "secrets.scan", fields: Record<string, unknown>): unknown },
    readonly io: { out(text: string): void; errLine(line: string): void },
    /** Stdout is a terminal: write each batch of findings at once. */
    readonly interactive = false,
  ) {}

  /** The opening of the output. */
  begin(): void {
    if (this.format === "json") this.io.out('{"findings": [');
  }

  /** Print a batch of findings (one write per batch), leaving out the known ones. */
  print(found: SecretFinding[], fallbackPath: string): void {
    let text = "";
    for (const f of found) {
      const path = f.path ?? fallbackPath;
      if (!this.known.empty && this.known.isKnown(f, path)) {
        this.#knownHere++;
        this.#knownKinds[f.kind] = (this.#knownKinds[f.kind] ?? 0) + 1;
        continue;
      }
      if (f.history) this.#historyHere++;
      if (this.format === "sarif") this.#sarif.push({ path, finding: f });
      else if (this.format === "json") {
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
        text += `${this.#firstJson ? "\n" : ",\n"}  ${JSON.stringify(entry)}`;
        this.#firstJson = false;
      } else {
        text += `${path}:${f.line}:${f.column}  ${f.kind}  ${f.preview}${
          f.history ? "  leaked in history" : ""
        }\n`;
      }
    }
    this.#pending += text;
    // A terminal sees each file's findings as they come; a pipe or a file gets them in blocks
    // (a write per file with findings was a system call each over a large tree).
    if (this.interactive || this.#pending.length >= OUTPUT_BLOCK) this.#flushOutput();
  }

  #flushOutput(): void {
    if (this.#pending === "") return;
    const text = this.#pending;
    this.#pending = "";
    this.io.out(text);
  }

  /** One input scanned: its counts (less what is known) added up and audited. */
  record(result: InputResult, path: string | undefined): void {
    this.inputs++;
    // What the baseline or an ignore file already knows is counted apart, not as found.
    const counts = { ...result.counts };
    for (const [kind, n] of Object.entries(this.#knownKinds)) {
      counts[kind] -= n;
      if (counts[kind] <= 0) delete counts[kind];
    }
    this.#knownKinds = {};
    for (const [kind, n] of Object.entries(counts)) {
      this.totals[kind] = (this.totals[kind] ?? 0) + n;
    }
    this.audit.record("secrets.scan", {
      counts,
      total: Object.values(counts).reduce((a, b) => a + b, 0),
      source: "cli",
      input: path === undefined ? "stdin" : "file",
      ...(path !== undefined ? { path } : {}),
      ...(result.diff ? { diff: true } : {}),
      ...(result.binary ? { binary: true } : {}),
      ...(this.#historyHere > 0 ? { history: this.#historyHere } : {}),
      ...(this.#knownHere > 0 ? { known: this.#knownHere } : {}),
      personal: this.personal,
    });
    this.historyTotal += this.#historyHere;
    this.#historyHere = 0;
    this.knownTotal += this.#knownHere;
    this.#knownHere = 0;
    if (result.binary && Deno.env.get("WISP_LOG") === "debug") {
      this.io.errLine(
        `debug: ${path ?? "standard input"} is binary; its printable runs were scanned`,
      );
    }
  }

  /** Say why an input was not scanned and mark the run incomplete; rethrow what is a bug. */
  notScanned(path: string, error: unknown): void {
    const reason = notScannedReason(path, error);
    if (reason === null) throw error;
    this.io.errLine(`error: ${reason}`);
    this.failed = true;
  }

  /** The closing of the output (SARIF is written whole here). */
  async end(): Promise<void> {
    this.#flushOutput();
    if (this.format === "json") this.io.out(`${this.#firstJson ? "" : "\n"}]}\n`);
    if (this.format === "sarif") {
      const { sarifLog } = await load<typeof import("../secrets/sarif.ts")>(
        import.meta.resolve("../secrets/sarif.ts"),
      );
      const { VERSION } = await load<typeof import("../version.ts")>(
        import.meta.resolve("../version.ts"),
      );
      this.io.out(JSON.stringify(sarifLog(this.#sarif, VERSION), null, 2) + "\n");
    }
  }
}

/**
 * Scan `files` (standard input when none, or `-`) with `flags` as the command tree parsed them;
 * the exit code is left in cliState. Also run ahead of the tree for plain command lines (quick.ts).
 */
export async function runScan(files: string[], flags: ScanFlags): Promise<void> {
  const { cliState, errLine, out, stdinIsTerminal, stdoutIsTerminal } = await load<
    typeof import("./io.ts")
  >(
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

  const plan = planScan(files, flags, stdinIsTerminal());
  if ("usage" in plan) throw new UsageError(plan.usage);
  const { options } = plan;
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
  const audit = await scanAudit("scan");
  const report = new ScanReport(
    plan.format,
    options.personal,
    known,
    audit,
    { out, errLine },
    stdoutIsTerminal(),
  );
  const threads = poolSize(Deno.env.get("WISP_SCAN_THREADS"), navigator.hardwareConcurrency ?? 1);
  let pool: InstanceType<typeof ScanPool> | undefined;
  report.begin();

  const scanHere = async (path: string) => {
    const { scanFile } = await scanning();
    try {
      report.record(await scanFile(path, options, (found) => report.print(found, path)), path);
    } catch (error) {
      report.notScanned(path, error);
    }
  };

  const scanStdin = async () => {
    const { scanInput } = await scanning();
    try {
      const result = await scanInput(
        Deno.stdin.readable,
        options,
        (found) => report.print(found, "-"),
      );
      report.record(result, undefined);
    } catch (error) {
      report.notScanned("standard input", error);
    }
  };

  /** A file or folder: many files go to the thread pool in order, a few are scanned here. */
  const scanRoot = async (root: string) => {
    const unreadable = { unreadable: [] as string[] };
    try {
      const walk = walkFiles(root, unreadable);
      const head = take(walk, POOL_MIN_FILES);
      if (threads > 0 && head.length === POOL_MIN_FILES) {
        if (!pool) {
          pool = new ScanPool(threads, true);
          if (Deno.env.get("WISP_LOG") === "debug") {
            errLine(`debug: scanning with ${threads} worker threads`);
          }
        }
        for await (const outcome of scanInOrder(pool, chain(head, walk), options)) {
          if (outcome.kind === "error") report.notScanned(outcome.path, outcome.error);
          else if (outcome.kind === "large") await scanHere(outcome.path);
          else {
            if (outcome.findings.length > 0) report.print(outcome.findings, outcome.path);
            report.record(outcome.result, outcome.path);
          }
        }
      } else {
        for (const path of chain(head, walk)) await scanHere(path);
      }
    } catch (error) {
      report.notScanned(root, error);
    }
    for (const folder of unreadable.unreadable) {
      report.notScanned(folder, new Deno.errors.PermissionDenied(folder));
    }
  };

  try {
    if (files.length === 0) await scanStdin();
    for (const root of files) {
      if (root === "-") await scanStdin();
      else await scanRoot(root);
    }
  } finally {
    pool?.close();
    try {
      await report.end();
    } finally {
      audit.close(); // writes the events the log holds (it writes a scan's in batches)
    }
  }
  const closing = scanClosingLines({
    totals: report.totals,
    inputs: report.inputs,
    history: report.historyTotal,
    known: report.knownTotal,
  }, scanSummary);
  for (const line of closing) errLine(line);
  const total = Object.values(report.totals).reduce((a, b) => a + b, 0);
  if (report.failed) cliState.exitCode = EXIT_NOT_SCANNED;
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
