/**
 * Where a window's end can change what triage finds. For every fixture log
 * under test/fixtures/condense/ (up to --max-bytes, default 12,000), filler
 * lines are put before it so that a window ends, in turn, after each of its
 * lines; each such text is scanned in windows and whole, and the findings
 * compared. Prints, per log that differs at some cut, how many cuts differ and
 * the first finding a window added or lost, then a count of the logs that
 * differ. A diagnostic for the window-cut fault (ADR 0660, amended; ADR
 * 0700), not a test: test/condense/window_cuts_test.ts sweeps the logs it
 * found differing.
 *
 *   deno run -A scripts/window_cut_sweep.ts [--window CHARS] [--carry LINES] [--max-bytes N] [--passing]
 *
 * `--passing` sweeps the logs with no finding instead of those with some.
 * Then (not with `--passing`) it sweeps generated logs whose failures are each
 * longer than a window's context (test/support/counted_logs.ts: 2,500 lines
 * of output per failure), the windows' cuts moved by an eighth of a window at
 * a time, and counts those that differ.
 * `--carry` sets the context a window takes from the one before (the
 * scanner's default, 2,000 lines, holds every fixture log whole, so only a
 * smaller one makes a window start inside a log).
 */
import { scanText } from "../src/condense/scan.ts";
import { findingKey } from "../src/condense/findings.ts";
import { COUNTED_FORMATS, countedLog } from "../test/support/counted_logs.ts";

const args = Deno.args;
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) || fallback : fallback;
};
const windowChars = option("--window", 16 * 1024);
const maxBytes = option("--max-bytes", 12_000);
const carryLines = args.includes("--carry") ? option("--carry", 0) : undefined;
const passing = args.includes("--passing");

const root = new URL("../test/fixtures/condense/", import.meta.url);
const names: string[] = [];
for (const folder of Deno.readDirSync(root)) {
  if (!folder.isDirectory) continue;
  for (const file of Deno.readDirSync(new URL(`${folder.name}/`, root))) {
    if (file.name.endsWith(".log")) names.push(`${folder.name}/${file.name}`);
  }
}

const FILLER = "x".repeat(99) + "\n";
const keys = (text: string, windowed: boolean) =>
  scanText(text, windowed ? { windowChars, carryLines } : {}).findings.map(findingKey).sort();

let swept = 0;
let differing = 0;
for (const name of names.sort()) {
  const log = Deno.readTextFileSync(new URL(name, root));
  if (log.length > maxBytes) continue;
  if ((scanText(log).findings.length === 0) !== passing) continue;
  swept++;
  const lead = Math.max(0, Math.floor((windowChars - log.length) / FILLER.length));
  let cuts = 0;
  let first = "";
  for (let step = 0; step < Math.ceil(log.length / FILLER.length) + 2; step++) {
    const text = "\n" + FILLER.repeat(lead + step) + log;
    const whole = keys(text, false);
    const windows = keys(text, true);
    if (JSON.stringify(whole) === JSON.stringify(windows)) continue;
    cuts++;
    if (!first) {
      const added = windows.filter((k) => !whole.includes(k));
      const lost = whole.filter((k) => !windows.includes(k));
      first = `added ${JSON.stringify(added)} lost ${JSON.stringify(lost)}`.slice(0, 240);
    }
  }
  if (cuts > 0) {
    differing++;
    console.log(`${name}: ${cuts} ${cuts === 1 ? "cut differs" : "cuts differ"}; ${first}`);
  }
}
console.log(
  `${differing} of ${swept} logs differ at some cut (windows of ${windowChars} characters` +
    `${carryLines === undefined ? "" : `, ${carryLines} context lines`})`,
);

if (!passing) {
  let longDiffering = 0;
  for (const format of COUNTED_FORMATS) {
    const log = countedLog(format, 3, { outputLines: 2500 });
    const whole = JSON.stringify(keys(log, false));
    let cuts = 0;
    for (let shift = 0; shift < 8; shift++) {
      const text = "x".repeat(Math.floor((shift * windowChars) / 8)) + "\n" + log;
      if (JSON.stringify(keys(text, true)) !== whole) cuts++;
    }
    if (cuts > 0) {
      longDiffering++;
      console.log(`${format} (long blocks): ${cuts} of 8 shifts differ`);
    }
  }
  console.log(
    `${longDiffering} of ${COUNTED_FORMATS.length} generated logs of long blocks differ at some cut`,
  );
}
