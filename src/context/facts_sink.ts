/**
 * Where condensing hands the turns it drops, and where composition reads the
 * conversation's facts from. Every face hands its conversation the fact book
 * (src/context/facts/, `bookSink`) behind this interface; a conversation
 * with facts.enabled false has the null sink: no facts, and dropped turns
 * live on in the running summary and the audit.
 */

/** A fact the model asks to keep (the memory tool's note and task). */
export interface NotedFact {
  subject: string;
  /** Empty for a subject with one fact a conversation (task). */
  name: string;
  value: string;
  /** Where it came from: "model, noted, turn 4". */
  source: string;
}

/** The conversation's facts, as the context sees them. */
export interface FactSink {
  /**
   * Distil facts from turns leaving view; `source` names them ("turns 1–3").
   * Never throws for bad model output. `signal` is the turn's stop: it
   * cancels the distiller's model call, and nothing of it is recorded.
   */
  distil(turnsText: string, source: string, signal?: AbortSignal): Promise<void>;
  /** The facts to show beside each request, one line each. */
  lines(): string[];
  /**
   * Keep a fact the model noted: returns the line the model is told (noted: …),
   * or a sentence starting "error:" saying why not. Absent: no facts are kept.
   */
  note?(fact: NotedFact): string;
  /**
   * A way back to the facts as they are now (the returned function puts them
   * back): condensing takes one before distilling, so a condensing the turn
   * stops leaves no fact half-applied. Absent: the sink keeps nothing to undo.
   */
  checkpoint?(): () => void;
}

/** No facts kept. */
export const NULL_FACT_SINK: FactSink = {
  distil: () => Promise.resolve(),
  lines: () => [],
};
