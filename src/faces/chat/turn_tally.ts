/**
 * The chat's turn figures, added up as they come: what /stats and the status
 * line say of the turns of a session (how many, how many failed, the mean and
 * slowest time, how many condensed, the last one's figures). A running tally
 * instead of a list of every turn, so a long chat holds the same few numbers
 * on its thousandth turn as on its first (ADR 0635).
 */

/** A turn's figures, for /stats and the status line. */
export interface TurnFigure {
  seconds: number;
  inputTokens: number;
  outputTokens: number;
  outcome: string;
  /** The turn condensed the conversation. */
  condensed?: boolean;
}

/** The turns of a session, added up. */
export interface TurnTally {
  count: number;
  failed: number;
  /** How many turns condensed the conversation. */
  condensed: number;
  totalSeconds: number;
  slowestSeconds: number;
  /** The latest turn's figures; undefined before the first turn. */
  last: TurnFigure | undefined;
}

/** The tally before any turn. */
export function emptyTally(): TurnTally {
  return { count: 0, failed: 0, condensed: 0, totalSeconds: 0, slowestSeconds: 0, last: undefined };
}

/** The tally with one more turn counted. */
export function tallyTurn(tally: TurnTally, turn: TurnFigure): TurnTally {
  return {
    count: tally.count + 1,
    failed: tally.failed + (turn.outcome === "failed" ? 1 : 0),
    condensed: tally.condensed + (turn.condensed ? 1 : 0),
    totalSeconds: tally.totalSeconds + turn.seconds,
    slowestSeconds: tally.count === 0 ? turn.seconds : Math.max(tally.slowestSeconds, turn.seconds),
    last: turn,
  };
}

/** The mean time of a turn, in seconds; 0 before the first. */
export function meanSeconds(tally: TurnTally): number {
  return tally.count === 0 ? 0 : tally.totalSeconds / tally.count;
}
