/**
 * `wisp models` on a terminal (a table fitted to the width), piped (one
 * tab-separated line per model) and as JSON. Pure: a listing in, text out.
 *
 * The table leaves out a column no listed model has a value for. When the
 * columns leave the capabilities fewer than 20 cells, columns go in this order:
 * FORMAT, RUNTIME, FROM, WHERE, PARAMS, SIZE, CONTEXT; MODEL, ENABLED and
 * CAPABILITIES always stay, and capabilities wrap under themselves. The last
 * cell of a line is never written, so a terminal never wraps a line itself.
 */
import type { ModelEntry, ModelListing } from "./registry.ts";
import { formatCount } from "../util/bytes.ts";
import { wrapWords } from "../util/wrap.ts";

interface Column {
  key: string;
  title: string;
  cell(entry: ModelEntry): string;
}

const RUNTIME_LABEL: Record<string, string> = {
  system: "Foundation Models",
  ollama: "Ollama",
  llamacpp: "llama.cpp",
  lmstudio: "LM Studio",
  mlx: "MLX",
};

const LOCATION_LABEL: Record<string, string> = {
  modelsFolder: "models folder",
  hubCache: "HF cache",
  hubCacheNotLinked: "HF cache, not linked",
};

/** Every column but MODEL and CAPABILITIES, in the order piped lines and --json follow. */
export const COLUMNS: Column[] = [
  { key: "runtime", title: "RUNTIME", cell: (e) => RUNTIME_LABEL[e.runtime] ?? e.runtime },
  { key: "format", title: "FORMAT", cell: (e) => e.format ?? "" },
  { key: "params", title: "PARAMS", cell: (e) => e.parameters ?? "" },
  { key: "size", title: "SIZE", cell: (e) => e.size ?? "" },
  {
    key: "context",
    title: "CONTEXT",
    cell: (e) => e.context === null ? "" : formatCount(e.context),
  },
  { key: "from", title: "FROM", cell: (e) => e.contextFrom ?? "" },
  {
    key: "where",
    title: "WHERE",
    cell: (e) => e.location ? LOCATION_LABEL[e.location] ?? e.location : "",
  },
  { key: "enabled", title: "ENABLED", cell: (e) => e.enabled ? "yes" : "no" },
];

/** The order in which columns leave a narrow table. */
const DROP_ORDER = ["format", "runtime", "from", "where", "params", "size", "context"];
const MIN_CAPABILITY_CELLS = 20;
const GAP = 2;
const MARK = 2;

function capabilitiesText(entry: ModelEntry): string {
  return entry.capabilities.join(", ");
}

/** Wrap a comma-separated list at `width`, breaking after commas (a word longer than the width stays whole). */
export function wrapList(text: string, width: number): string[] {
  return wrapWords(text, width);
}

function widthOf(column: Column, entries: ModelEntry[]): number {
  return Math.max(column.title.length, ...entries.map((e) => column.cell(e).length));
}

/** The columns a table of these entries shows at this width. */
function fitColumns(entries: ModelEntry[], width: number): Column[] {
  let columns = COLUMNS.filter((c) => c.key === "enabled" || entries.some((e) => c.cell(e) !== ""));
  const modelWidth = Math.max("MODEL".length, ...entries.map((e) => e.model.length));
  const usable = width - 1;
  const start = (cols: Column[]) =>
    MARK + modelWidth + GAP + cols.reduce((sum, c) => sum + widthOf(c, entries) + GAP, 0);
  for (const key of DROP_ORDER) {
    if (usable - start(columns) >= MIN_CAPABILITY_CELLS) break;
    columns = columns.filter((c) => c.key !== key);
  }
  return columns;
}

/** The terminal table, one string per line (no trailing spaces). */
export function renderTable(listing: ModelListing, width: number): string[] {
  const entries = listing.models;
  const lines: string[] = [];
  if (entries.length > 0) {
    const columns = fitColumns(entries, width);
    const modelWidth = Math.max("MODEL".length, ...entries.map((e) => e.model.length));
    const widths = columns.map((c) => widthOf(c, entries));
    const capStart = MARK + modelWidth + GAP + widths.reduce((sum, w) => sum + w + GAP, 0);
    const capWidth = Math.max(MIN_CAPABILITY_CELLS, width - 1 - capStart);
    const row = (mark: string, model: string, cells: string[], caps: string) =>
      (mark + model.padEnd(modelWidth + GAP) + cells.map((cell, i) =>
        cell.padEnd(widths[i] + GAP)
      ).join("") + caps).trimEnd();
    lines.push(row("  ", "MODEL", columns.map((c) => c.title), "CAPABILITIES"));
    for (const entry of entries) {
      const caps = entry.usable ? wrapList(capabilitiesText(entry), capWidth) : [""];
      lines.push(
        row(entry.default ? "* " : "  ", entry.model, columns.map((c) => c.cell(entry)), caps[0]),
      );
      for (const more of caps.slice(1)) lines.push(" ".repeat(capStart) + more);
      if (!entry.usable && entry.problem) {
        for (
          const reason of wrapList(`not usable: ${entry.problem}`, Math.max(20, width - 1 - 4))
        ) lines.push("    " + reason);
      }
    }
  }
  for (const down of listing.unreachable) lines.push(`(${down.reason})`);
  return lines;
}

/** One tab-separated line per model: mark and name, every column, capabilities, and the reason when unusable. */
export function renderTsv(listing: ModelListing): string[] {
  return listing.models.map((entry) => {
    const fields = [
      (entry.default ? "* " : "  ") + entry.model,
      ...COLUMNS.map((c) => c.cell(entry).replaceAll("\t", " ")),
      capabilitiesText(entry),
    ];
    if (!entry.usable) fields.push(entry.problem ?? "");
    return fields.join("\t");
  });
}

/** The --json document. */
export function renderJson(listing: ModelListing): string {
  return JSON.stringify({ models: listing.models, unreachable: listing.unreachable }, null, 2);
}
