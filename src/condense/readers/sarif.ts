/**
 * SARIF 2.1.0 documents printed into an output: clang's
 * `-fdiagnostics-format=sarif`, gcc's `-fdiagnostics-format=sarif-stderr`
 * (gcc 13 and later), and analysers that print SARIF (often spread over many
 * lines, indented). A document is `{"$schema": "…sarif…", "version": "2.1.0",
 * "runs": [{"results": [...]}]}`; each result has a `level` ("error",
 * "warning", "note", "none"; absent means warning), a `message.text`, and
 * `locations[].physicalLocation` with an `artifactLocation.uri` and a
 * `region` (`startLine`, `startColumn`).
 *
 * Errors and warnings are findings at their first location. A note is the
 * detail of the result before it (clang prints notes as results of their
 * own); a result's `relatedLocations` (gcc's notes) are its detail too.
 */
import { type Finding, finding, location } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { OPEN_BRACE } from "../chars.ts";

/** How many lines a document spread over lines may take before it is taken for something else. */
const MAX_DOCUMENT_LINES = 200_000;

interface PhysicalLocation {
  artifactLocation?: { uri?: string };
  region?: { startLine?: number; startColumn?: number };
}
interface SarifLocation {
  physicalLocation?: PhysicalLocation;
  message?: { text?: string };
}
interface SarifResult {
  level?: string;
  ruleId?: string;
  message?: { text?: string; markdown?: string };
  locations?: SarifLocation[];
  relatedLocations?: SarifLocation[];
}
interface SarifLog {
  version?: string;
  runs?: { results?: SarifResult[] }[];
}

/** A file URI as a path (`file:///src/a.c` → `/src/a.c`, `file:///C:/a.c` → `C:/a.c`); anything else as given. */
function pathOf(uri: string): string {
  if (!uri.startsWith("file://")) return uri;
  let path = uri.slice("file://".length);
  try {
    path = decodeURIComponent(path);
  } catch {
    // a stray % in a path: keep it as printed
  }
  return /^\/[A-Za-z]:\//.test(path) ? path.slice(1) : path;
}

function placeOf(loc: SarifLocation | undefined): string | undefined {
  const p = loc?.physicalLocation;
  const uri = p?.artifactLocation?.uri;
  if (!uri) return undefined;
  return location(pathOf(uri), p?.region?.startLine, p?.region?.startColumn);
}

function textOf(r: { message?: { text?: string; markdown?: string } }): string {
  return r.message?.text ?? r.message?.markdown ?? "";
}

/** Whether the line opens a SARIF document on one line, or the first line of one spread over lines. */
function opensDocument(lines: string[], i: number): "line" | "block" | undefined {
  const line = lines[i];
  if (line.startsWith('{"')) {
    return line.includes('"runs"') && line.includes("sarif") ? "line" : undefined;
  }
  if (line.trimEnd() !== "{") return undefined;
  // A document spread over lines names its schema or version within its first few keys.
  for (let k = i + 1; k < lines.length && k <= i + 4; k++) {
    if (/^\s*"(?:\$schema": ".*sarif|version": "2\.1\.0")/.test(lines[k])) return "block";
  }
  return undefined;
}

/** The findings of one parsed document, whose block starts at line `at`. */
function resultsOf(doc: SarifLog, at: number): Finding[] {
  const out: Finding[] = [];
  if (!doc || !Array.isArray(doc.runs)) return out;
  for (const run of doc.runs) {
    let previous:
      | { kind: Finding["kind"]; message: string; place?: string; detail: string[] }
      | undefined;
    const emit = () => {
      if (previous) {
        out.push(finding(previous.kind, previous.message, {
          location: previous.place,
          detail: previous.detail,
          at,
        }));
      }
      previous = undefined;
    };
    for (const r of Array.isArray(run?.results) ? run.results : []) {
      const level = r?.level ?? "warning";
      const text = textOf(r);
      const place = placeOf(r.locations?.[0]);
      if (level === "note" || level === "none") {
        previous?.detail.push(`${place ? place + ": " : ""}note: ${text}`);
        continue;
      }
      emit();
      if (level !== "error" && level !== "warning") continue;
      const detail = (Array.isArray(r.relatedLocations) ? r.relatedLocations : [])
        .filter((l) => textOf(l) !== "")
        .map((l) => {
          const at = placeOf(l);
          return `${at ? at + ": " : ""}${textOf(l)}`;
        });
      previous = { kind: level, message: text || r.ruleId || level, place, detail };
    }
    emit();
  }
  return out;
}

function readSarif(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const { first } = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    if (first[i] !== OPEN_BRACE) continue;
    const opens = opensDocument(lines, i);
    if (!opens) continue;
    let end = i;
    if (opens === "block") {
      // The document closes with a "}" at the margin, as it opened.
      while (
        end + 1 < lines.length && end - i < MAX_DOCUMENT_LINES && lines[end].trimEnd() !== "}"
      ) {
        end++;
      }
      if (lines[end].trimEnd() !== "}") continue;
    }
    let doc: SarifLog;
    try {
      doc = JSON.parse(opens === "line" ? lines[i] : lines.slice(i, end + 1).join("\n"));
    } catch {
      continue; // cut short or not JSON after all: left to the other readers and the model
    }
    if (typeof doc !== "object" || doc === null || !Array.isArray(doc.runs)) continue;
    ctx.explain(i, end);
    out.push(...resultsOf(doc, i));
    i = end;
  }
  return out;
}

export const sarif: Reader = { name: "sarif", read: readSarif };
