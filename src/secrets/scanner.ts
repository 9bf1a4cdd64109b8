/**
 * The scanner: runs the rules that apply to a text (skipping those whose
 * keywords do not occur), settles overlaps (a specific rule beats a generic
 * one, a longer span beats a shorter), and locates each finding by line and
 * column with a masked preview.
 */
import type { Candidate, Rule, ScanOptions, SecretFinding } from "./types.ts";
import { CREDENTIAL_RULES } from "./credentials.ts";
import { genericRule, highEntropyRule } from "./generic.ts";
import { PERSONAL_RULES } from "./personal.ts";
import { tableRule } from "./table.ts";
import { FORMAT_RULES } from "./formats.ts";
import { maskedPreview } from "./preview.ts";
import { type AnchorSet, anchorSet, findAnchors } from "./anchors.ts";
import { allowedInline, contextOf, mayHaveAllowComments } from "./conventions.ts";

export const RULES: Rule[] = [
  ...CREDENTIAL_RULES,
  ...FORMAT_RULES,
  genericRule,
  tableRule,
  highEntropyRule,
  ...PERSONAL_RULES,
];

/**
 * The rules that read the whole text by design, with the reason, by id. Every other rule must
 * declare an entry in the scanner's one pass: `anchors` (literals every match starts with),
 * `keywords` (literals a match contains) or `keywordsFolded` (words found in any case), so that
 * the pass can skip it where it cannot match. A test fails for a rule that does neither.
 */
export const WHOLE_TEXT_RULES: ReadonlyMap<string, string> = new Map([
  ["url-credentials", "finds each `://` itself with a native search"],
  ["raw-key-file", "a `.key` file of one random string: decided by the extension"],
  ["table-column", "a CSV or TSV column named like a secret: decided by the extension"],
  ["high-entropy-string", "thorough mode only: a random string with no name has no literal"],
  ["credit-card", "digits only: no literal to anchor on"],
  ["iban", "a country code and digits: no fixed literal"],
  ["us-ssn", "digits only: no literal to anchor on"],
  ["uk-nino", "letters and digits: no fixed literal"],
  ["es-dni", "digits and a check letter: no fixed literal"],
  ["nl-bsn", "digits only: no literal to anchor on"],
  ["se-personnummer", "digits only: no literal to anchor on"],
  ["fr-nir", "digits only: no literal to anchor on"],
  ["in-aadhaar", "digits only: no literal to anchor on"],
  ["ca-sin", "digits only: no literal to anchor on"],
  ["phone", "digits only, in many national layouts"],
]);

/** The kinds wisp can report, for documentation and tests. */
export const CREDENTIAL_KINDS = [
  "aws-access-key-id",
  "aws-secret-access-key",
  "gcp-api-key",
  "gcp-service-account",
  "azure-connection-string",
  "azure-sas-token",
  "github-pat",
  "github-fine-grained-pat",
  "github-oauth-token",
  "github-app-token",
  "gitlab-token",
  "slack-token",
  "slack-webhook",
  "stripe-key",
  "stripe-webhook-secret",
  "twilio-api-key",
  "twilio-auth-token",
  "sendgrid-api-key",
  "openai-api-key",
  "anthropic-api-key",
  "huggingface-token",
  "npm-token",
  "pypi-token",
  "private-key",
  "openssh-private-key",
  "pgp-private-key",
  "jwt",
  "url-credentials",
  "database-connection-string",
  "bearer-token",
  "basic-auth",
  "password",
  "generic-secret",
  "kubernetes-secret",
  "high-entropy-string",
];
export const PERSONAL_KINDS = [
  "email",
  "phone",
  "iban",
  "credit-card",
  "us-ssn",
  "uk-nino",
  "es-dni",
  "nl-bsn",
  "se-personnummer",
  "fr-nir",
  "in-aadhaar",
  "ca-sin",
  "ip-address",
];

/** The lower-case extension that decides how literal unquoted values are (`.env`, `.py`), or "". */
export function extensionOf(path: string | undefined): string {
  if (!path) return "";
  const base = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  if (base.startsWith(".env") || base.endsWith(".env")) return ".env";
  if (base === ".npmrc" || base === ".netrc" || base === ".pypirc") return base;
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return "";
  return base.slice(dot);
}

/** Interpreters whose scripts are program code, by the extension their files usually have. */
const INTERPRETER_EXTENSIONS: Record<string, string> = {
  node: ".js",
  deno: ".ts",
  bun: ".js",
  python: ".py",
  python3: ".py",
  ruby: ".rb",
  php: ".php",
};

/**
 * The extension a script without one is written in, read from its `#!` line (`#!/usr/bin/env
 * node`, an npm package's `bin` entry): its values are read as code's are. "" for anything else.
 */
export function shebangExtension(text: string): string {
  if (!text.startsWith("#!")) return "";
  const end = text.indexOf("\n");
  const words = text.slice(2, end === -1 ? 200 : Math.min(end, 200)).trim().split(/[ \t]+/);
  let program = words[0].slice(words[0].lastIndexOf("/") + 1);
  // `#!/usr/bin/env -S deno run`: the program is the first word after env's own options.
  if (program === "env") program = words.slice(1).find((w) => !w.startsWith("-")) ?? "";
  return INTERPRETER_EXTENSIONS[program] ?? "";
}

/**
 * Every candidate the applicable rules propose, overlaps and all. `bytes`, when the caller holds
 * them, are the text's UTF-8 bytes: the one pass then searches an ASCII text over them (faster).
 */
export function candidatesIn(
  text: string,
  options: ScanOptions = {},
  bytes?: Uint8Array,
): Candidate[] {
  const thorough = options.thorough === true;
  const personal = options.personal === true || thorough;
  const extension = extensionOf(options.path) || (options.language ?? shebangExtension(text));
  const context = { thorough, extension };
  const out: Candidate[] = [];
  const { set, rulesAt, keywordRules, gatedAt, gated } = anchorIndex();
  for (const rule of RULES) {
    if (rule.anchors || rule.keywordsFolded || gated.has(rule)) continue;
    if (rule.category === "personal" && !personal) continue;
    if (rule.thoroughOnly && !thorough) continue;
    if (rule.keywords && !rule.keywords.some((k) => text.includes(k))) continue;
    for (const c of rule.find(text, context)) out.push(c);
  }
  // One pass finds every rule's anchors and keywords; each anchored rule is tried only where its
  // anchor is, keyword rules get the offsets of their words, and a rule gated by a literal runs
  // once when its literal occurred (instead of one `includes` pass per literal).
  const keywordHits: number[] = [];
  const triggered = new Set<Rule>();
  const { offsets, which } = findAnchors(text, set, bytes);
  for (let k = 0; k < offsets.length; k++) {
    const gates = gatedAt[which[k]];
    if (gates !== undefined) { for (const rule of gates) triggered.add(rule); }
    const rules = rulesAt[which[k]];
    if (rules === undefined) {
      keywordHits.push(offsets[k]);
      continue;
    }
    for (const rule of rules) {
      if (rule.category === "personal" && !personal) continue;
      if (rule.thoroughOnly && !thorough) continue;
      const c = rule.matchAt!(text, offsets[k], context);
      if (c) out.push(c);
    }
  }
  for (const rule of RULES) {
    if (!triggered.has(rule)) continue;
    if (rule.category === "personal" && !personal) continue;
    if (rule.thoroughOnly && !thorough) continue;
    for (const c of rule.find(text, context)) out.push(c);
  }
  for (const rule of keywordRules) {
    if (rule.thoroughOnly && !thorough) continue;
    // Hits come in the order their last characters do; the rule wants them by start.
    for (const c of rule.findAt!(text, sortNearlySorted(keywordHits), context)) out.push(c);
  }
  return out;
}

/**
 * Sort numbers in place that are out of order only locally (keyword hits, listed by where each
 * keyword ends, are never further out of place than the longest keyword): an insertion sort,
 * linear here, where a general sort with a comparator is not.
 */
export function sortNearlySorted(values: number[]): number[] {
  for (let i = 1; i < values.length; i++) {
    const v = values[i];
    let j = i - 1;
    if (values[j] <= v) continue;
    while (j >= 0 && values[j] > v) {
      values[j + 1] = values[j];
      j--;
    }
    values[j + 1] = v;
  }
  return values;
}

interface AnchorIndex {
  set: AnchorSet;
  /** For each literal of `set` (by index), the rules it anchors; undefined for keywords. */
  rulesAt: (Rule[] | undefined)[];
  keywordRules: Rule[];
  /** For each literal of `set`, the keyword-gated rules it lets run (undefined for none). */
  gatedAt: (Rule[] | undefined)[];
  /** Rules gated through the one pass: whole-text rules whose keywords are all 3+ characters. */
  gated: Set<Rule>;
}

let anchors: AnchorIndex | undefined;

/**
 * Every rule's anchors with the rules that own each (a rule with two anchors that both match at
 * one offset proposes the same span twice, which settling overlaps keeps once), and the keyword
 * rules, which share one list of offsets.
 */
function anchorIndex(): AnchorIndex {
  if (anchors) return anchors;
  // A one-character keyword (`@`, `:`) would hit everywhere; those rules keep their own check.
  const gated = new Set(
    RULES.filter((r) =>
      !r.anchors && !r.keywordsFolded && r.keywords && r.keywords.every((k) => k.length >= 3)
    ),
  );
  const gates = [...gated].flatMap((r) => r.keywords!);
  const all = [...new Set([...RULES.flatMap((r) => r.anchors ?? []), ...gates])];
  const keywordRules = RULES.filter((r) => r.keywordsFolded);
  const words = [...new Set(keywordRules.flatMap((r) => r.keywordsFolded!))];
  const set = anchorSet(all, words);
  const rulesAt = set.literals.map(({ literal, fold }) =>
    fold ? undefined : RULES.filter((r) => r.anchors?.includes(literal))
  );
  const gatedAt = set.literals.map(({ literal, fold }) => {
    if (fold) return undefined;
    const rules = [...gated].filter((r) => r.keywords!.includes(literal));
    return rules.length > 0 ? rules : undefined;
  });
  anchors = { set, rulesAt, keywordRules, gatedAt, gated };
  return anchors;
}

/** Keep the best of overlapping candidates: higher priority, then longer, then earlier. */
function settleOverlaps(candidates: Candidate[]): Candidate[] {
  const ranked = [...candidates].sort((a, b) =>
    b.priority - a.priority || (b.end - b.start) - (a.end - a.start) || a.start - b.start
  );
  const kept: Candidate[] = []; // sorted by start
  for (const c of ranked) {
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (kept[mid].start < c.start) lo = mid + 1;
      else hi = mid;
    }
    const before = kept[lo - 1];
    const after = kept[lo];
    if (before && before.end > c.start) continue;
    if (after && after.start < c.end) continue;
    kept.splice(lo, 0, c);
  }
  return kept;
}

/** Turn settled candidates (sorted by start) into located findings. */
export function locate(text: string, kept: Candidate[], path?: string): SecretFinding[] {
  const findings: SecretFinding[] = [];
  let line = 1;
  let lineStart = 0;
  let cursor = 0;
  for (const c of kept) {
    let nl = text.indexOf("\n", cursor);
    while (nl !== -1 && nl < c.start) {
      line++;
      lineStart = nl + 1;
      nl = text.indexOf("\n", nl + 1);
    }
    cursor = c.start;
    const value = text.slice(c.start, c.end);
    findings.push({
      kind: c.kind,
      line,
      column: c.start - lineStart + 1,
      ...(path !== undefined ? { path } : {}),
      preview: maskedPreview(c.kind, value, c.visible),
      start: c.start,
      end: c.end,
      context: contextOf(text, c.start, c.end, c.kind),
    });
  }
  return findings;
}

/**
 * Scan a text held in memory. A value on a line marked with an allow comment (`gitleaks:allow`,
 * `pragma: allowlist secret`, `wisp:allow`, or a next-line marker above) is left out, unless
 * `allowComments` is false (redaction ignores them: text on its way out is cleaned whatever a
 * comment says). `bytes`, when the caller holds them, are the text's UTF-8 bytes (a file read
 * whole): the one pass uses them for an ASCII text.
 */
export function scanText(
  text: string,
  options: ScanOptions = {},
  bytes?: Uint8Array,
): SecretFinding[] {
  let kept = settleOverlaps(candidatesIn(text, options, bytes));
  if (options.allowComments !== false && kept.length > 0 && mayHaveAllowComments(text)) {
    kept = kept.filter((c) => !allowedInline(text, c.start, c.end));
  }
  return locate(text, kept, options.path);
}

/** Findings counted per kind. */
export function countByKind(findings: Iterable<{ kind: string }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const f of findings) counts[f.kind] = (counts[f.kind] ?? 0) + 1;
  return counts;
}
