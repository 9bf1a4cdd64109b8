/** The shapes shared by the rules, the scanner and the front ends. */

/** One thing found. `start`/`end` are offsets into the scanned text and stay in memory. */
export interface SecretFinding {
  kind: string;
  /** 1-based line of the first character. */
  line: number;
  /** 1-based column of the first character. */
  column: number;
  path?: string;
  /** A masked preview: the kind's public prefix at most, never the value. */
  preview: string;
  start: number;
  end: number;
  /** On a line a diff removes: gone from the file, still in the repository's history. */
  history?: boolean;
  /** A hash of the kind and the line around the value, without the value (conventions.ts). */
  context?: string;
}

export type Category = "credential" | "personal";

export interface ScanOptions {
  /** Also look for personal data (emails, phones, IBANs, cards, national ids, IPs). */
  personal?: boolean;
  /** Looser thresholds and keyword-less high-entropy strings; implies personal. */
  thorough?: boolean;
  path?: string;
  /** A diff's removed lines are scanned too (findings marked `history`); on unless false. */
  history?: boolean;
  /** Honour inline allow comments (`gitleaks:allow`, …); on unless false. */
  allowComments?: boolean;
  /**
   * The extension to read a text as when its path has none, taken from a script's `#!` line; a
   * stream sets it from its first window for the windows after it.
   */
  language?: string;
}

/** A candidate span proposed by a rule, before overlaps are settled. */
export interface Candidate {
  kind: string;
  category: Category;
  start: number;
  end: number;
  /** Higher wins an overlap; equal priorities keep the longer span. */
  priority: number;
  /** How many leading characters of the value are a public prefix that the preview may show. */
  visible: number;
}

export interface RuleContext {
  thorough: boolean;
  /** Lower-case extension of the scanned file (".env", ".py"), or "" when unknown. */
  extension: string;
}

/** A rule finds candidates in a text. Keywords gate it: when none occurs, it is not run. */
export interface Rule {
  id: string;
  category: Category;
  /** Literal strings (case-sensitive) at least one of which a match must contain. */
  keywords?: string[];
  /** Literal strings every match starts with: the scanner calls `matchAt` only where one occurs. */
  anchors?: string[];
  /** Run only in thorough mode. */
  thoroughOnly?: boolean;
  find(text: string, context: RuleContext): Candidate[];
  /** Lower-case words found in any case in the scanner's one pass; `findAt` gets their offsets. */
  keywordsFolded?: string[];
  /** Candidates given the sorted offsets of `keywordsFolded` in the text. */
  findAt?(text: string, offsets: number[], context: RuleContext): Candidate[];
  /** The match that starts exactly at `position`, if any (rules with anchors). */
  matchAt?(text: string, position: number, context: RuleContext): Candidate | null;
}
