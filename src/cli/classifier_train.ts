/**
 * `wisp classifier train [--examples FILE] [--from-audit] [--exclude FILE]…
 * [--use]`: trains a new local version of the trained risk classifier from
 * labelled lines (the file given, else the examples wisp ships) and, with
 * --from-audit, the person's own answers in the audit log. Lines overlapping
 * classifiers/risk/held-out.tsv or any --exclude file are left out before
 * anything is learned. The version is saved whole or not at all, audited as
 * classifier.train, and with --use put in use.
 */
import { basename } from "node:path";
import { loadContext } from "./context.ts";
import { errLine, outLine } from "./io.ts";
import { readLabelled, shippedExamples } from "./classifier_input.ts";
import { switchTo } from "./classifier_versions.ts";
import * as store from "../gate/trained/store.ts";
import { trainOnLines } from "../gate/trained/train_lines.ts";
import { overlapKey, withoutHeldOut } from "../gate/trained/samples.ts";
import { answersFromAudit } from "../gate/trained/answers.ts";
import { readAuditLog } from "../audit/reader.ts";
import type { Verdict } from "../gate/measure.ts";
import { WispError } from "../util/errors.ts";
import { AuditLog } from "../audit/writer.ts";

/** The options `train` takes. */
export interface TrainFlags {
  examples?: string;
  fromAudit?: boolean;
  exclude?: string[];
  use?: boolean;
}

/** Run `wisp classifier train`. */
export async function train(flags: TrainFlags): Promise<void> {
  const { paths, config } = loadContext();
  const file = flags.examples ?? shippedExamples();
  const labelled: Array<{ label: Verdict; line: string }> = readLabelled(file);
  const sources = [flags.examples ? basename(file) : "examples.tsv"];
  // Held out: the home's own test set (when there is one) and every --exclude file.
  const heldOut = new Set<string>();
  const heldOutFile = store.heldOutFile(paths);
  let hasHeldOut = true;
  try {
    Deno.statSync(heldOutFile);
  } catch {
    hasHeldOut = false;
  }
  const excludeFiles = [...(hasHeldOut ? [heldOutFile] : []), ...(flags.exclude ?? [])];
  for (const f of excludeFiles) {
    for (const e of readLabelled(f, "--exclude")) heldOut.add(overlapKey(e.line));
  }
  let answers: Array<{ label: Verdict; line: string }> = [];
  if (flags.fromAudit) {
    answers = answersFromAudit(readAuditLog(paths.auditLog).events);
    sources.push("audit");
  }
  const fromFile = withoutHeldOut(labelled, heldOut);
  const fromAudit = withoutHeldOut(answers, heldOut);
  const lines = [...fromFile.kept, ...fromAudit.kept];
  if (lines.length === 0) {
    throw new WispError(
      "nothing is left to train on once the held-out lines are left out; give more lines with --examples",
    );
  }
  const weights = await trainOnLines(lines);
  const trainedOn = {
    examples: fromFile.kept.length,
    ...(flags.fromAudit ? { fromAudit: fromAudit.kept.length } : {}),
    excluded: fromFile.excluded + fromAudit.excluded,
    sources,
  };
  const version = store.saveTrained(paths, weights, trainedOn);
  try {
    const audit = AuditLog.open(paths, config.audit);
    try {
      audit.record("classifier.train", {
        classifierVersion: version,
        examples: trainedOn.examples,
        ...(flags.fromAudit ? { fromAudit: trainedOn.fromAudit } : {}),
        excluded: trainedOn.excluded,
        sources,
        ...(flags.use ? { use: true } : {}),
      });
    } finally {
      audit.close();
    }
  } catch (error) {
    // Not audited, not kept.
    store.removeVersion(paths, version);
    throw error;
  }
  outLine(version);
  errLine(
    `trained ${version} on ${trainedOn.examples} labelled line${
      trainedOn.examples === 1 ? "" : "s"
    }${
      flags.fromAudit ? ` and ${trainedOn.fromAudit} of your answers` : ""
    }; ${trainedOn.excluded} held-out line${trainedOn.excluded === 1 ? "" : "s"} left out`,
  );
  if (flags.use) {
    switchTo(paths, version);
    errLine(`approval.classifier is coreml with ${version} from the next session`);
  } else {
    errLine(`wisp classifier use ${version} puts it in use`);
  }
}
