/**
 * Secrets: one module behind `wisp scan`, `wisp redact` and the MCP tools
 * scan_secrets and redact. Pure rules (credentials, generic names with
 * entropy, personal data with check digits) over text, a diff's added lines,
 * or a stream of any size. Values never leave the caller's memory: findings
 * carry masked previews; the audit carries kinds and counts.
 */
export type { Candidate, Category, Rule, ScanOptions, SecretFinding } from "./types.ts";
export {
  candidatesIn,
  countByKind,
  CREDENTIAL_KINDS,
  extensionOf,
  PERSONAL_KINDS,
  RULES,
  scanText,
} from "./scanner.ts";
export { addedLines, looksLikeDiff, scanDiff } from "./diff.ts";
export { applyRedaction, RedactionNumbering, redactionSummary, redactText } from "./redact.ts";
export { looksBinary, redactStream, scanStream } from "./stream.ts";
export { NotScannable, scanBytes, scanFile, scanInput, WHOLE_FILE_BYTES } from "./scan_input.ts";
export { PrintableRuns, printableStream, printableText } from "./binary.ts";
export type { InputResult } from "./scan_input.ts";
export { peek, readBounded, walkFiles } from "./input.ts";
export type { StreamOptions, StreamResult } from "./stream.ts";
export {
  MAX_LISTED_FINDINGS,
  MAX_REDACTED_CHARS,
  redactTool,
  renderFinding,
  scanSecretsTool,
  scanSummary,
  ToolInputError,
} from "./tools.ts";
export { redactInput, redactOutput, scanSecretsInput, scanSecretsOutput } from "./schemas.ts";
export type {
  ListedFinding,
  RedactArgs,
  RedactResult,
  ScanSecretsArgs,
  ScanSecretsResult,
  ToolContext,
} from "./tools.ts";
