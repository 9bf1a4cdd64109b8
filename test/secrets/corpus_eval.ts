/**
 * Scoring a scanner against the labelled corpus: findings and labels are
 * matched by file and line (a label is met by at most one finding), which is
 * how any scanner can be scored, whatever it calls its kinds. Kind agreement
 * is counted separately for wisp.
 */
import { join } from "node:path";
import { CORPUS_DIR, type Label, type Labels, LABELS_PATH } from "./make_corpus.ts";
import { looksLikeDiff, scanDiff, scanText } from "../../src/secrets/index.ts";

export interface Found {
  line: number;
  /** The last line of a multi-line finding (a key block, a whole JSON file); a label anywhere in it is met. */
  endLine?: number;
  kind: string;
}

export interface Score {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  kindMismatches: number;
  precision: number;
  recall: number;
  /** `path:line kind` of each miss and false alarm, for the failure message. */
  misses: string[];
  falseAlarms: string[];
}

export async function loadCorpus(): Promise<{ files: Record<string, string>; labels: Labels }> {
  const labels = JSON.parse(await Deno.readTextFile(LABELS_PATH)) as Labels;
  const files: Record<string, string> = {};
  for (const path of Object.keys(labels)) {
    files[path] = await Deno.readTextFile(join(CORPUS_DIR, path));
  }
  return { files, labels };
}

/** The labels a mode expects: credentials only, or credentials and personal data. */
export function expected(labels: Label[], personal: boolean): Label[] {
  return labels.filter((l) => personal || !l.personal);
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  let i = text.indexOf("\n");
  while (i !== -1 && i < offset) {
    line++;
    i = text.indexOf("\n", i + 1);
  }
  return line;
}

/** wisp's findings in a corpus file, located by line of that file (a diff's own lines). */
export function wispFindings(
  path: string,
  text: string,
  personal: boolean,
  thorough = false,
): Found[] {
  const options = { personal, path, thorough };
  const findings = looksLikeDiff(text) ? scanDiff(text, options) : scanText(text, options);
  return findings.map((f) => ({ line: lineOf(text, f.start), kind: f.kind }));
}

export function score(
  labelsByFile: Record<string, Label[]>,
  foundByFile: Record<string, Found[]>,
): Score {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let kindMismatches = 0;
  const misses: string[] = [];
  const falseAlarms: string[] = [];
  const paths = new Set([...Object.keys(labelsByFile), ...Object.keys(foundByFile)]);
  for (const path of paths) {
    const open = [...(labelsByFile[path] ?? [])];
    for (const f of foundByFile[path] ?? []) {
      const covers = (l: Label) => l.line >= f.line && l.line <= (f.endLine ?? f.line);
      let i = open.findIndex((l) => covers(l) && l.kind === f.kind);
      if (i === -1) i = open.findIndex(covers);
      if (i === -1) {
        fp++;
        falseAlarms.push(`${path}:${f.line} ${f.kind}`);
        continue;
      }
      if (open[i].kind !== f.kind) kindMismatches++;
      open.splice(i, 1);
      tp++;
    }
    fn += open.length;
    for (const l of open) misses.push(`${path}:${l.line} ${l.kind}`);
  }
  return {
    truePositives: tp,
    falsePositives: fp,
    falseNegatives: fn,
    kindMismatches,
    precision: tp + fp === 0 ? 1 : tp / (tp + fp),
    recall: tp + fn === 0 ? 1 : tp / (tp + fn),
    misses,
    falseAlarms,
  };
}

/** Score wisp on the corpus, with or without personal data. */
export async function scoreWisp(personal: boolean): Promise<Score> {
  const { files, labels } = await loadCorpus();
  const want: Record<string, Label[]> = {};
  const found: Record<string, Found[]> = {};
  for (const [path, text] of Object.entries(files)) {
    want[path] = expected(labels[path], personal);
    found[path] = wispFindings(path, text, personal);
  }
  return score(want, found);
}

if (import.meta.main) {
  for (const personal of [false, true]) {
    const s = await scoreWisp(personal);
    console.log(
      `${personal ? "personal" : "credentials"}: precision ${s.precision.toFixed(3)} recall ${
        s.recall.toFixed(3)
      } ` +
        `(tp ${s.truePositives}, fp ${s.falsePositives}, fn ${s.falseNegatives}, kind mismatches ${s.kindMismatches})`,
    );
    for (const m of s.misses) console.log("  miss", m);
    for (const f of s.falseAlarms) console.log("  false alarm", f);
  }
}
