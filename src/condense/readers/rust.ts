/**
 * rustc and cargo build diagnostics: `error[E0308]: mismatched types` with its
 * ` --> src/lib.rs:3:18` place and the annotated code below it. The short
 * message format (`src/lib.rs:3:18: error[E0308]: …`) is the generic
 * compiler form and is read there.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { LOWER_E, LOWER_W, UPPER_F, UPPER_S } from "../chars.ts";

const HEADER = /^(error|warning)(?:\[([\w:-]+)\])?: (.+)$/;
const SHORT = /^([^\s:][^\s:]*\.rs):(\d+):(\d+): (error|warning)(?:\[([\w:-]+)\])?: (.*)$/;
const ARROW = /^\s*(?:-->|╭▸|┌─) (\S+?):(\d+):(\d+)$/;
const SUMMARY =
  /^(?:could not compile|aborting due to|test failed, to rerun|\d+ targets? failed|build failed|unused manifest key|.*generated \d+ warnings?|.*\d+ warnings? emitted|some errors have detailed|for more information about)/i;

function readRust(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const loose: Finding[] = [];
  const unlocated: { at: number; to: number; f: Finding }[] = [];
  let compileSummary: string | undefined;
  let compileSummaryAt = 0;
  const shape = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const first = shape.first[i];
    if (
      first !== LOWER_E && first !== LOWER_W && first !== UPPER_S && first !== UPPER_F
    ) continue;
    const line = lines[i];
    if (
      !line.startsWith("error") && !line.startsWith("warning") && !line.startsWith("Some errors") &&
      !line.startsWith("For more")
    ) continue;
    if (
      (first === UPPER_S || first === UPPER_F) &&
      /^(?:Some errors have detailed|For more information about)/.test(line)
    ) {
      ctx.explain(i);
      continue;
    }
    const h = HEADER.exec(line);
    if (!h) continue;
    // Look for the place within the next lines (a multi-line message may come first).
    let arrow: RegExpExecArray | null = null;
    let j = i + 1;
    for (; j < lines.length && j <= i + 4; j++) {
      arrow = ARROW.exec(lines[j]);
      if (arrow || lines[j].trim() === "" || HEADER.test(lines[j])) break;
    }
    if (arrow) {
      const messageLines = lines.slice(i + 1, j).map((l) => l.trim());
      const detail: string[] = [];
      let k = j + 1;
      while (k < lines.length && lines[k].trim() !== "" && !HEADER.test(lines[k])) {
        if (detail.length < 12) detail.push(lines[k]);
        k++;
      }
      ctx.explain(i, k - 1);
      const message = [h[3], ...messageLines].join(" ");
      out.push(
        finding(h[1] === "error" ? "error" : "warning", h[2] ? `${h[2]}: ${message}` : message, {
          location: `${arrow[1]}:${arrow[2]}:${arrow[3]}`,
          detail: detail.filter((d) => !/^\s*\|\s*$/.test(d)),
          at: i,
        }),
      );
      i = k - 1;
      continue;
    }
    if (SUMMARY.test(h[3])) {
      ctx.explain(i);
      if (h[1] === "error" && /^could not compile/.test(h[3]) && compileSummary === undefined) {
        compileSummary = line;
        compileSummaryAt = i;
      }
      continue;
    }
    if (h[1] === "error" && h[2]) {
      // error[E0601] and the like without a place: still rustc's own.
      ctx.explain(i);
      loose.push(finding("error", `${h[2]}: ${h[3]}`, { at: i }));
    } else if (h[1] === "error") {
      // cargo's own ("linking with `cc` failed", "failed to run custom build command"): kept only when cargo
      // reported the compile failed (a program's own "error: …" output is not cargo's).
      const detail: string[] = [];
      let j = i + 1;
      while (j < lines.length && j - i < 12 && /^\s+(?:=\s*note:|\S)/.test(lines[j])) {
        const undefinedRef = /undefined reference to [`'‘](.+?)['’]/.exec(lines[j]);
        if (undefinedRef) detail.push(`undefined reference to ${undefinedRef[1]}`);
        j++;
      }
      unlocated.push({ at: i, to: j - 1, f: finding("error", h[3], { detail, at: i }) });
    }
  }
  const errors = out.filter((f) => f.kind === "error").length;
  if (errors === 0) out.push(...loose);
  if (errors === 0 && loose.length === 0 && compileSummary && unlocated.length > 0) {
    for (const u of unlocated) {
      ctx.explain(u.at, u.to);
      out.push(u.f);
    }
    return out;
  }
  // The short message format's errors are the generic compiler form's (read there): no summary then.
  if (errors === 0 && loose.length === 0 && compileSummary && !lines.some((l) => SHORT.test(l))) {
    out.push(finding("error", compileSummary, { at: compileSummaryAt }));
  }
  return out;
}

export const rust: Reader = {
  name: "rust",
  read: readRust,
};
