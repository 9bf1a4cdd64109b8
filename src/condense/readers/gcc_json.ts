/**
 * gcc's `-fdiagnostics-format=json`: each translation unit's diagnostics as
 * one JSON array on one line, each `{"kind": "error"|"warning"|"fatal
 * error"|"note", "message", "locations": [{"caret": {"file", "line",
 * "column"}}], "children": [...]}`. Errors and warnings are findings at
 * their first location's caret; their children (notes) are detail.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { CLOSE_BRACKET, OPEN_BRACKET } from "../chars.ts";

interface Caret {
  file?: string;
  line?: number;
  column?: number;
}
interface Diagnostic {
  kind?: string;
  message?: string;
  locations?: { caret?: Caret }[];
  children?: Diagnostic[];
}

function place(d: Diagnostic): string | undefined {
  const c = d.locations?.[0]?.caret;
  if (!c?.file) return undefined;
  return c.line === undefined
    ? c.file
    : c.column === undefined
    ? `${c.file}:${c.line}`
    : `${c.file}:${c.line}:${c.column}`;
}

function readGccJson(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const { first, last } = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    // "[{" … "}]" on one line; an empty unit is "[]".
    if (first[i] !== OPEN_BRACKET || last[i] !== CLOSE_BRACKET) continue;
    const line = lines[i];
    if (!line.startsWith('[{"kind": ') && line !== "[]") continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue; // a cut or foreign line: left for the other readers and the model
    }
    if (!Array.isArray(parsed)) continue;
    ctx.explain(i);
    for (const d of parsed as Diagnostic[]) {
      if (typeof d?.message !== "string") continue;
      const kind = d.kind === "warning"
        ? "warning"
        : /error/.test(d.kind ?? "")
        ? "error"
        : undefined;
      if (!kind) continue;
      const detail = (d.children ?? []).filter((c) => typeof c?.message === "string").map((c) => {
        const at = place(c);
        return `${at ? at + ": " : ""}${c.kind ?? "note"}: ${c.message}`;
      });
      out.push(finding(kind, d.message, { location: place(d), detail, at: i }));
    }
  }
  return out;
}

export const gccJson: Reader = { name: "gcc-json", read: readGccJson };
