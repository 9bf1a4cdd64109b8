/** The shape every exact reader has. */
import type { Finding } from "../findings.ts";

/** What a reader may tell the caller besides its findings: which lines it accounted for. */
export interface ReadContext {
  /** Lines from..to (inclusive) belong to this format, whether or not they hold a finding. */
  explain(from: number, to?: number): void;
  /** Whether an earlier reader already accounted for line i. */
  explained(i: number): boolean;
}

export interface Reader {
  name: string;
  /**
   * Literal strings one of which any output of this format contains; a reader
   * whose signals are all absent is not run (a cheap pre-pass over the text).
   */
  signals: string[];
  read(lines: string[], ctx?: ReadContext): Finding[];
}

export const NO_CONTEXT: ReadContext = { explain() {}, explained: () => false };
