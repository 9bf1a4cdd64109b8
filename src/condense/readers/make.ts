/**
 * make's own failures: `make: *** [Makefile:4: main.o] Error 1`, missing
 * rules, and makefile syntax errors. A failure that bubbles up through
 * recursive makes (`make[1]: … Error 1` then `make: … Error 2`) is one finding.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { LOWER_G, LOWER_M, LOWER_N, SLASH, SPACE, TAB, UPPER_F } from "../chars.ts";

const MAKE = /^(?:[\w./-]*\/)?(?:g?make|gmake|mingw32-make)(?:\[(\d+)\])?: (?:\*\*\* )?(.*)$/;
const ERROR_N = /^\[(?:([^\]:]+:\d+): )?([^\]]+)\] Error (\d+)(?: \(ignored\))?$/;
const STOP = /^(.*?)\.?\s+Stop\.$/;
/** A target ended by a signal or a status other than `Error N`: `[Makefile:3: all] Interrupt`. */
const TARGET_ENDED = /^\[(?:([^\]:]+:\d+): )?([^\]]+)\] (\S.*)$/;
/** ninja's status line: `[3/10] Building CXX object …`. */
const NINJA_STATUS = /^\[\d+\/\d+\] /;
const MAKEFILE_ERROR = /^([^\s:]+):(\d+): \*\*\* (.*?)\.?\s+Stop\.$/;

/** Lines looked at around a `FAILED:` line for ninja's own lines. */
const NINJA_NEAR_BEFORE = 3;
const NINJA_NEAR_AFTER = 400;

/**
 * Whether the `FAILED: target` at line i is ninja's: its status line (`[3/10] Building …`) just
 * above, or its `ninja: build stopped` below. A test that prints "FAILED: …" has neither.
 */
function ninjaFailure(lines: string[], i: number): boolean {
  for (let k = i - 1; k >= 0 && k >= i - NINJA_NEAR_BEFORE; k--) {
    if (NINJA_STATUS.test(lines[k])) return true;
  }
  for (let k = i + 1; k < lines.length && k <= i + NINJA_NEAR_AFTER; k++) {
    if (lines[k].startsWith("ninja: build stopped")) return true;
  }
  return false;
}

function readMake(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  let deepest = -1;
  const { first } = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c0 = first[i];
    // make:, make[1]:, gmake, mingw32-make, /usr/bin/make, or a makefile's own "Makefile:3: *** …" (a path at the margin)
    if (c0 === 0 || c0 === SPACE || c0 === TAB) continue;
    const line = lines[i];
    if (c0 === UPPER_F && line.startsWith("FAILED: ") && ninjaFailure(lines, i)) {
      // ninja: "FAILED: obj/main.o" then the command; "ninja: build stopped: subcommand failed." after.
      ctx.explain(i);
      out.push(finding("error", `ninja: target ${line.slice(8).trim()} failed`, { at: i }));
      continue;
    }
    if (c0 === LOWER_N && line.startsWith("ninja: ")) {
      ctx.explain(i);
      continue;
    }
    if (c0 !== LOWER_M && c0 !== LOWER_G && c0 !== SLASH && !line.includes("***")) continue;
    const mf = MAKEFILE_ERROR.exec(line);
    if (mf) {
      ctx.explain(i);
      out.push(finding("error", mf[3], { location: `${mf[1]}:${mf[2]}`, at: i }));
      continue;
    }
    const m = MAKE.exec(line);
    if (!m) continue;
    const level = m[1] === undefined ? 0 : Number(m[1]);
    const rest = m[2];
    if (
      /^(?:Entering|Leaving) directory|^Nothing to be done|is up to date\.$|^Target .* not remade because of errors\.$/
        .test(rest)
    ) {
      ctx.explain(i);
      continue;
    }
    if (!line.includes("***")) continue;
    if (rest.startsWith("Waiting for unfinished jobs")) {
      ctx.explain(i); // -j: the failure it waits on is a line of its own
      continue;
    }
    const e = ERROR_N.exec(rest);
    if (e) {
      ctx.explain(i);
      if (rest.endsWith("(ignored)")) continue;
      // A parent make reporting its child's failure is the same failure.
      if (deepest > level && e[3] === "2") continue;
      deepest = Math.max(deepest, level);
      out.push(
        finding("error", `make: target ${e[2]} failed (Error ${e[3]})`, { location: e[1], at: i }),
      );
      continue;
    }
    // make's other `***` lines name a target (ended by a signal) or end with "Stop."; a program's
    // own line that starts `make: ***` and has neither shape is not make's.
    const ended = TARGET_ENDED.exec(rest);
    if (ended) {
      ctx.explain(i);
      out.push(
        finding("error", `make: target ${ended[2]} failed (${ended[3]})`, {
          location: ended[1],
          at: i,
        }),
      );
      continue;
    }
    const stop = STOP.exec(rest);
    if (!stop) continue;
    ctx.explain(i);
    out.push(finding("error", `make: ${stop[1]}`, { at: i }));
  }
  return out;
}

export const make: Reader = { name: "make", read: readMake };
