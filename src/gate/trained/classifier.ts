/**
 * The trained classifier as the gate asks it (classifier.ts): the features of
 * the rules' verdict on a part, the weights of one version, and the level the
 * weights raise it to. No model server, no I/O per verdict; the weights are
 * read once, when the gate is made. Weights that cannot be read make every
 * verdict a failure, which the gate takes as at least moderate.
 */
import type { HomePaths } from "../../config/home.ts";
import { messageOf } from "../../util/errors.ts";
import type { ClassifierInput, ModelClassifier, ModelVerdict } from "../classifier.ts";
import { trainedFeatures } from "./features.ts";
import { predict, type Weights } from "./model.ts";
import { defaultVersion, loadWeights } from "./store.ts";

/** One version's weights, asked as the gate asks a classifier. */
export class TrainedClassifier implements ModelClassifier {
  readonly by = "trained" as const;

  constructor(
    readonly name: string,
    readonly version: string,
    readonly weights: Weights,
    readonly userHome: string,
  ) {}

  /** The level the weights give one part (sync: the gate's hot path and the bench call this). */
  judge(input: ClassifierInput): ModelVerdict {
    if (!input.verdict) throw new Error("the trained classifier needs the analysed part");
    const features = trainedFeatures(input.verdict, {
      root: input.root ?? input.cwd,
      userHome: this.userHome,
    });
    const { level, confidence } = predict(this.weights, features);
    return {
      level,
      reasons: [
        `the trained classifier ${this.version} rates it ${level} (${
          Math.round(confidence * 100)
        } % sure)`,
      ],
      source: this.version,
    };
  }

  classify(input: ClassifierInput): Promise<ModelVerdict> {
    try {
      return Promise.resolve(this.judge(input));
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

/** A classifier whose weights could not be read: every verdict fails with the reason. */
class UnreadableClassifier implements ModelClassifier {
  readonly by = "trained" as const;
  constructor(readonly name: string, readonly reason: string) {}
  classify(): Promise<ModelVerdict> {
    return Promise.reject(new Error(this.reason));
  }
}

/** The trained classifier for a version (default: the one this release ships). */
export function trainedClassifier(
  paths: HomePaths,
  version: string | undefined,
  userHome: string,
  name = "coreml",
): ModelClassifier {
  const chosen = version ?? defaultVersion();
  try {
    return new TrainedClassifier(name, chosen, loadWeights(paths, chosen), userHome);
  } catch (error) {
    return new UnreadableClassifier(name, messageOf(error));
  }
}
