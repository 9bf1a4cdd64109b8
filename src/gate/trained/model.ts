/**
 * The trained risk classifier's model: multinomial logistic regression over
 * the binary features of one part (trained/features.ts), three classes (safe,
 * moderate, dangerous). Training is deterministic (zero start, full-batch
 * gradient descent, fixed steps), so the same examples give the same weights.
 *
 * A prediction raises a part only when the model is confident: the level L
 * is the highest whose probability of "L or worse" reaches the threshold.
 * Training picks the lowest threshold at which no training part would be
 * rated above its line's label, so the model never over-rates what it was
 * trained on (docs/adr/0321-trained-risk-classifier.md).
 *
 * Pure: no I/O, no clock.
 */
import { z } from "zod";
import type { Level } from "../../config/schema.ts";

const RANK: Record<Level, number> = { safe: 0, moderate: 1, dangerous: 2 };

/** The weights file's format version; a file of another format is refused, not guessed at. */
const WEIGHTS_FORMAT = 1;

const weightRow = z.tuple([z.number(), z.number(), z.number()]);

/** A weights file as stored (weights.json). */
export const weightsSchema = z.object({
  format: z.literal(WEIGHTS_FORMAT),
  classes: z.tuple([z.literal("safe"), z.literal("moderate"), z.literal("dangerous")]),
  /** Feature name → its weight for each class. */
  weights: z.record(z.string(), weightRow),
  /** Confidence needed to raise a part (0.5–1; above 1 means never). */
  threshold: z.number().min(0.5).max(1.01),
});

/** A version's weights, as weights.json holds them. */
export type Weights = z.infer<typeof weightsSchema>;

/** One training sample: the features of a part and the highest level it may be rated. */
export interface Sample {
  features: string[];
  /** What the model learns for this part. */
  target: Level;
  /** The highest level the part may be given without over-rating its line. */
  ceiling: Level;
}

/** How training runs; the defaults train the shipped default. */
export interface TrainOptions {
  /** Gradient steps over the whole set. */
  steps?: number;
  /** Step size. */
  rate?: number;
  /** L2 penalty on the weights. */
  l2?: number;
}

/** Probabilities of safe, moderate and dangerous for a set of features. */
function probabilities(weights: Weights, features: readonly string[]): number[] {
  const scores = [0, 0, 0];
  for (const f of features) {
    const w = weights.weights[f];
    if (!w) continue;
    scores[0] += w[0];
    scores[1] += w[1];
    scores[2] += w[2];
  }
  return softmax(scores);
}

function softmax(scores: number[]): number[] {
  const top = Math.max(scores[0], scores[1], scores[2]);
  const e = scores.map((s) => Math.exp(s - top));
  const sum = e[0] + e[1] + e[2];
  return [e[0] / sum, e[1] / sum, e[2] / sum];
}

/** The level the model raises to at this threshold: dangerous, moderate, or safe (no raise). */
function levelAt(p: readonly number[], threshold: number): Level {
  if (p[2] >= threshold) return "dangerous";
  if (p[1] + p[2] >= threshold) return "moderate";
  return "safe";
}

/** The model's level for a part, with the probability behind it. */
export function predict(
  weights: Weights,
  features: readonly string[],
): { level: Level; confidence: number } {
  const p = probabilities(weights, features);
  const level = levelAt(p, weights.threshold);
  const confidence = level === "dangerous" ? p[2] : level === "moderate" ? p[1] + p[2] : p[0];
  return { level, confidence };
}

/** Thresholds tried, lowest first; the first that over-rates nothing is kept. */
const THRESHOLDS = Array.from({ length: 50 }, (_, i) => 0.5 + i * 0.01);
/** Written when no threshold below 1 is safe: the model then never raises anything. */
const NEVER = 1.01;

/** Train weights on samples. Deterministic; rounds weights so the file is stable. */
export function train(samples: readonly Sample[], options: TrainOptions = {}): Weights {
  const steps = options.steps ?? 400;
  const rate = options.rate ?? 0.5;
  const l2 = options.l2 ?? 1e-3;
  const index = new Map<string, number>();
  const rows = samples.map((s) => {
    const ids: number[] = [];
    for (const f of s.features) {
      let id = index.get(f);
      if (id === undefined) {
        id = index.size;
        index.set(f, id);
      }
      ids.push(id);
    }
    return { ids, target: RANK[s.target] };
  });
  const w = new Float64Array(index.size * 3);
  const grad = new Float64Array(index.size * 3);
  const n = Math.max(1, rows.length);
  for (let step = 0; step < steps; step++) {
    grad.fill(0);
    for (const row of rows) {
      const scores = [0, 0, 0];
      for (const id of row.ids) {
        scores[0] += w[id * 3];
        scores[1] += w[id * 3 + 1];
        scores[2] += w[id * 3 + 2];
      }
      const p = softmax(scores);
      for (let k = 0; k < 3; k++) {
        const g = p[k] - (row.target === k ? 1 : 0);
        for (const id of row.ids) grad[id * 3 + k] += g;
      }
    }
    for (let i = 0; i < w.length; i++) w[i] -= rate * (grad[i] / n + l2 * w[i]);
  }
  const weights: Weights = {
    format: WEIGHTS_FORMAT,
    classes: ["safe", "moderate", "dangerous"],
    weights: {},
    threshold: NEVER,
  };
  // Sorted names and rounded numbers: the same samples give the same file, byte for byte.
  for (const name of [...index.keys()].sort()) {
    const id = index.get(name)!;
    weights.weights[name] = [round(w[id * 3]), round(w[id * 3 + 1]), round(w[id * 3 + 2])];
  }
  weights.threshold = calibrate(weights, samples);
  return weights;
}

function round(x: number): number {
  return Math.round(x * 1e5) / 1e5;
}

/** The lowest threshold at which no sample is raised above its ceiling. */
export function calibrate(weights: Weights, samples: readonly Sample[]): number {
  const ps = samples.map((s) => ({ p: probabilities(weights, s.features), ceiling: s.ceiling }));
  for (const t of THRESHOLDS) {
    if (ps.every(({ p, ceiling }) => RANK[levelAt(p, t)] <= RANK[ceiling])) return round(t);
  }
  return NEVER;
}
