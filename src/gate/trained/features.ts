/**
 * What the trained classifier reads of one part: short strings taken from the
 * gate's own analysis, never from a second parse. The program, its verb
 * (subcommand), each option as the program got it, where its targets lie
 * (features.ts: outside the project, in the home, writes, globs), and the
 * analysis' flags (wrappers, payloads, hooks, variables, run-time arguments).
 *
 * The rules' own level is left out on purpose: a feature that repeats the
 * rules would soak up the weight that lets the model raise a line the rules
 * under-rate (docs/adr/0321-trained-risk-classifier.md).
 *
 * Pure.
 */
import type { PartVerdict } from "../rules.ts";
import { partFeatures } from "../features.ts";
import { literal } from "../words.ts";

/** Where the part runs: targets are placed against these folders. */
export interface TrainedFeatureContext {
  /** The project folder. */
  root: string;
  userHome: string;
}

/** A word that reads as a subcommand (`commit`, `publish`, `run-script`). */
const VERB = /^[a-z][a-z0-9:_-]{0,23}$/;
/** Short option clusters read letter by letter (`-rf` is `-r` and `-f`). */
const SHORT_CLUSTER = /^-[A-Za-z]{1,6}$/;
/** How many option features one part gives at most (a long line says no more than this). */
const MAX_OPTIONS = 24;

/** The features of one rated part; an unreadable line (no part) has one feature of its own. */
export function trainedFeatures(verdict: PartVerdict, ctx: TrainedFeatureContext): string[] {
  const part = verdict.part;
  const out = new Set<string>(["bias"]);
  if (!part) {
    out.add("unreadable");
    return [...out].sort();
  }
  for (const f of partFeatures(part, ctx)) out.add(f);
  for (const f of verdict.ruleFeatures ?? []) out.add(`rule:${f}`);
  const program = part.program || "(dynamic)";
  out.add(`prog:${program}`);
  if (part.programPath.includes("/")) out.add("program-path");
  if (part.payloadKind) out.add(`payload:${part.payloadKind}`);
  if (part.payloadDynamic) out.add("payload-dynamic");
  if (part.payloadError) out.add("payload-error");
  if (part.readsScriptFromStdin) out.add("script-on-stdin");
  if (part.depth > 1) out.add("nested-deep");
  if (part.hookSource) out.add(`hook-of:${part.hookSource}`);
  if (part.cmd.redirects.length > 0) out.add("redirect");
  let options = 0;
  let verb: string | undefined;
  let afterDoubleDash = false;
  let args = 0;
  for (const word of part.words.slice(1)) {
    const text = literal(word);
    if (text === undefined) continue;
    if (text === "--") {
      afterDoubleDash = true;
      continue;
    }
    if (!afterDoubleDash && text.startsWith("-") && text.length > 1) {
      if (options >= MAX_OPTIONS) continue;
      if (text.startsWith("--")) {
        out.add(`opt:${program}:${text.split("=")[0]}`);
        options++;
      } else if (SHORT_CLUSTER.test(text)) {
        for (const letter of text.slice(1)) {
          out.add(`opt:${program}:-${letter}`);
          options++;
        }
      } else {
        out.add(`opt:${program}:${text.slice(0, 3)}`);
        options++;
      }
      continue;
    }
    args++;
    if (verb === undefined && VERB.test(text)) verb = text;
  }
  if (verb !== undefined) out.add(`verb:${program} ${verb}`);
  out.add(`args:${args === 0 ? "0" : args === 1 ? "1" : args <= 3 ? "2-3" : "4+"}`);
  return [...out].sort();
}
