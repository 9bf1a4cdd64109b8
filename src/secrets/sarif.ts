/**
 * Findings as a SARIF 2.1.0 log, the format code-scanning pages read (GitHub, GitLab, Azure
 * DevOps). One run, one rule per kind found, one result per finding located by file, line and
 * column. A result's message names the kind and the masked preview; no value is in the log.
 */
import type { SecretFinding } from "./types.ts";

const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";

/** A finding as printed, with the path it is printed at. */
export interface PrintedFinding {
  path: string;
  finding: SecretFinding;
}

/** A file path as a SARIF artifact URI: relative paths stay relative, with `/` separators. */
function artifactUri(path: string): string {
  const slashed = path.replaceAll("\\", "/");
  const encoded = slashed.split("/").map(encodeURIComponent).join("/");
  return slashed.startsWith("/") ? `file://${encoded}` : encoded;
}

/** The SARIF document for a run's findings. */
export function sarifLog(found: PrintedFinding[], version: string): Record<string, unknown> {
  const kinds = [...new Set(found.map((p) => p.finding.kind))].sort();
  const ruleIndex = new Map(kinds.map((k, i) => [k, i]));
  return {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [{
      tool: {
        driver: {
          name: "wisp",
          version,
          rules: kinds.map((kind) => ({
            id: kind,
            name: kind,
            shortDescription: { text: `A ${kind} in the source` },
            defaultConfiguration: { level: "error" },
          })),
        },
      },
      results: found.map(({ path, finding: f }) => ({
        ruleId: f.kind,
        ruleIndex: ruleIndex.get(f.kind),
        level: "error",
        message: {
          text: f.history
            ? `A ${f.kind} (${f.preview}) on a removed line: still in the history; revoke it.`
            : `A ${f.kind} (${f.preview}); revoke it and move it out of the file.`,
        },
        locations: [{
          physicalLocation: {
            artifactLocation: { uri: artifactUri(path) },
            region: { startLine: f.line, startColumn: f.column },
          },
        }],
        ...(f.context ? { partialFingerprints: { "wispContext/v1": f.context } } : {}),
      })),
    }],
  };
}
