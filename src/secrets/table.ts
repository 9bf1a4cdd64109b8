/**
 * Secrets in tables: in a CSV or TSV file a value sits under its name in
 * the header, not beside it. A column whose header is a secret-like name
 * (`password`, `api_token`) has its cells judged like any named value.
 */
import type { Candidate, Rule, RuleContext } from "./types.ts";
import { PRIORITY } from "./regex_rule.ts";
import { acceptValue, classifyName, kindFor } from "./generic.ts";

/** At most this many rows are read as a table (a larger export is still scanned by the other rules). */
const MAX_ROWS = 1_000_000;

interface Cell {
  start: number;
  value: string;
}

/** Split one line into cells, honouring double quotes (RFC 4180, without multi-line cells). */
function splitRow(line: string, offset: number, delimiter: string): Cell[] {
  const cells: Cell[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let j = i + 1;
      let value = "";
      while (j < line.length) {
        if (line[j] === '"' && line[j + 1] === '"') {
          value += '"';
          j += 2;
        } else if (line[j] === '"') break;
        else value += line[j++];
      }
      cells.push({ start: offset + i + 1, value });
      const next = line.indexOf(delimiter, j);
      if (next === -1) break;
      i = next + 1;
    } else {
      let next = line.indexOf(delimiter, i);
      if (next === -1) next = line.length;
      cells.push({ start: offset + i, value: line.slice(i, next) });
      i = next + 1;
    }
  }
  return cells;
}

export const tableRule: Rule = {
  id: "table-column",
  category: "credential",
  find(text: string, context: RuleContext): Candidate[] {
    if (context.extension !== ".csv" && context.extension !== ".tsv") return [];
    const delimiter = context.extension === ".tsv" ? "\t" : ",";
    const out: Candidate[] = [];
    let lineEnd = text.indexOf("\n");
    if (lineEnd === -1) lineEnd = text.length;
    const header = splitRow(text.slice(0, lineEnd).replace(/\r$/, ""), 0, delimiter);
    const columns = header.map((cell) => {
      const name = cell.value.trim();
      return { name, cls: name === "" ? null : classifyName(name) };
    });
    if (!columns.some((c) => c.cls)) return out;
    let rows = 0;
    for (let start = lineEnd + 1; start < text.length && rows < MAX_ROWS; rows++) {
      let end = text.indexOf("\n", start);
      if (end === -1) end = text.length;
      const cells = splitRow(text.slice(start, end).replace(/\r$/, ""), start, delimiter);
      for (let k = 0; k < cells.length && k < columns.length; k++) {
        const { name, cls } = columns[k];
        const { value, start: at } = cells[k];
        if (
          !cls ||
          !acceptValue(value, cls, { quoted: true, literalFile: true, thorough: context.thorough })
        ) continue;
        const { kind } = kindFor(name, cls, value);
        out.push({
          kind,
          category: "credential",
          start: at,
          end: at + value.length,
          priority: PRIORITY.generic,
          visible: 0,
        });
      }
      start = end + 1;
    }
    return out;
  },
};
