/**
 * Mocha's default (spec) reporter: after `N failing`, numbered blocks whose
 * title runs over one line per describe level and ends with `:`, then the
 * error and a stack.
 */
import { type Finding, finding } from "../findings.ts";
import { type Frame, jsFrame, pickFrame } from "../text.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { DIGIT_0, DIGIT_9 } from "../chars.ts";

const FAILING = /^\s+(\d+) failing$/;
const COUNTS = /^\s+\d+ (?:passing|pending)(?: \(.*\))?$/;
const ENTRY = /^\s+(\d+)\) (.*)$/;

function readMocha(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const shape = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c = shape.lead[i];
    if (c < DIGIT_0 || c > DIGIT_9) continue; // "  3 passing", "  1 failing"
    if (!lines[i].endsWith("ing") && !lines[i].endsWith(")")) continue;
    if (COUNTS.test(lines[i])) ctx.explain(i);
    const failing = FAILING.exec(lines[i]);
    if (failing) {
      ctx.explain(i);
      // A window that starts among the entries is given this line first (ADR 0705).
      ctx.heading?.(i, 0);
      // The entries are numbered 1…N: read exactly those, then look for the next run. Under a
      // heading carried from before the window they go on from wherever the window starts.
      const carried = i < (ctx.carried ?? 0);
      i = readEntries(lines, i + 1, Number(failing[1]), ctx, shape.lead, out, carried) - 1;
    }
  }
  return out;
}

function readEntries(
  lines: string[],
  start: number,
  count: number,
  ctx: ReadContext,
  lead: Uint16Array,
  out: Finding[],
  fromAny: boolean,
): number {
  /** The number of the next entry; 0: the first one seen, whatever its number (fromAny). */
  let expected = fromAny ? 0 : 1;
  let i = start;
  for (; i < lines.length && expected <= count; i++) {
    const c = lead[i];
    if (c < DIGIT_0 || c > DIGIT_9) continue; // "  1) title"
    if (!lines[i].includes(") ")) continue;
    const e = ENTRY.exec(lines[i]);
    if (!e) continue;
    const number = Number(e[1]);
    const first = expected === 0;
    if (first ? number < 1 || number > count : number !== expected) continue;
    // The title: this line and the deeper-indented ones after it, up to the one ending in ':'.
    const title: string[] = [e[2]];
    let j = i;
    while (
      !title[title.length - 1].endsWith(":") && j + 1 < lines.length && j - i < 10 &&
      lines[j + 1].trim() !== ""
    ) {
      j++;
      title.push(lines[j].trim());
    }
    // The first entry of a window that starts among them is one only with a whole title (a later
    // run's spec tree numbers its failed tests too, with no colon after them).
    if (first && !title[title.length - 1].endsWith(":")) continue;
    expected = number + 1;
    const name = title.join(" ").replace(/:$/, "").trim();
    // The body: the error and its stack, up to the blank line after the stack (or the next entry).
    let k = j + 1;
    let stack = false;
    while (k < lines.length && k - j < 80 && !ENTRY.test(lines[k])) {
      if (/^\s+at /.test(lines[k])) stack = true;
      else if (stack && lines[k].trim() === "") break;
      k++;
    }
    ctx.explain(i, k - 1);
    const body = lines.slice(j + 1, k);
    const frames = body.map(jsFrame).filter((x): x is Frame => x !== undefined);
    const frame = pickFrame(frames);
    const text = body.filter((l) => l.trim() !== "" && !jsFrame(l)).map((l) => l.trim());
    const detail = text.slice(1).filter((l) => /^[-+]|!==|===/.test(l)).slice(0, 6);
    // A timeout has no frame in the test: Mocha names the test's file in parentheses after it.
    const timedOutIn = frame ? undefined : TIMEOUT_FILE.exec(text[0] ?? "")?.[1];
    out.push(
      finding("test_failure", text[0] ?? "failed", {
        test: name,
        location: frame ? `${frame.file}:${frame.line}:${frame.col}` : timedOutIn,
        detail,
        // Entries are read only under their `N failing` line, which a later window is given first.
        at: i,
      }),
    );
    i = k - 1;
  }
  // After the last entry the list is over: a later window is not given its `N failing` line.
  if (expected > count) ctx.headingEnds?.(i, 0);
  return i;
}

/** The file Mocha names after a timeout's message: `Error: Timeout of 100ms exceeded. … (/path/a.spec.js)`. */
const TIMEOUT_FILE = /^Error: Timeout of \d+ms exceeded\..* \(([^()]+\.[cm]?[jt]sx?)\)$/;

export const mocha: Reader = { name: "mocha", read: readMocha };
