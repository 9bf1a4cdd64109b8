/**
 * Where condensing hands the turns it drops, and where composition reads the
 * conversation's facts from. The facts book (src/context/facts/) is wired in
 * behind this interface; until it is, a conversation has the null sink: no
 * facts, and dropped turns live on in the running summary and the audit.
 */

export interface FactSink {
  /** Distil facts from turns leaving view; `source` names them ("turns 1–3"). Never throws for bad model output. */
  distil(turnsText: string, source: string): Promise<void>;
  /** The facts to show beside each request, one line each. */
  lines(): string[];
}

/** No facts kept. */
export const NULL_FACT_SINK: FactSink = {
  distil: () => Promise.resolve(),
  lines: () => [],
};
