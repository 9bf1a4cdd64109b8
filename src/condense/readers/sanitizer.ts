/**
 * The sanitizers of gcc and clang (compiler-rt): AddressSanitizer,
 * LeakSanitizer, ThreadSanitizer, MemorySanitizer and the others print a
 * report that opens `==PID==ERROR: AddressSanitizer: heap-buffer-overflow …`
 * (ThreadSanitizer: `WARNING: ThreadSanitizer: data race (pid=N)`), lists
 * stack frames `    #N 0xADDR in function file:line[:col]`, and closes with
 * `SUMMARY: …`. Each report is one error at the first frame in the
 * project's own code (not the sanitizer's interceptors, libc or the
 * runtime); a leak report is one error per leak (`Direct leak of N byte(s)
 * … allocated from:`). UndefinedBehaviorSanitizer prints one line,
 * `file:line:col: runtime error: message`: one error there.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { EQUALS, isDigit, SPACE, TAB, UPPER_W } from "../chars.ts";

const OPEN = /^==\d+==ERROR: (\w+Sanitizer): (.*?)(?: on (?:address|unknown address) .*)?$/;
const TSAN_OPEN = /^WARNING: (ThreadSanitizer): (.*?)(?: \(pid=\d+\))?$/;
/**
 * `#0 0x55 in fn file:12:5`; ThreadSanitizer's `#0 fn file:12:5 (module+0x12)`, a BuildId after either.
 * A C++ function's name holds spaces; so may an absolute path (`/home/dev/my app/x.c`), which is
 * told from the name by its leading slash (or drive).
 */
const FRAME =
  /^\s+#\d+ (?:0x[0-9a-f]+ in )?(.+?) ((?:[A-Za-z]:)?[\\/][^:]*?|\S+?):(\d+)(?::(\d+))?(?: \([^)]*\))*$/;
const LEAK = /^(Direct|Indirect) leak of (\d+) byte\(s\) in (\d+) object\(s\) allocated from:$/;
const UBSAN = /^(.+?):(\d+):(\d+): runtime error: (.*)$/;
/** The first line of what a report says about the access (`WRITE of size 4 at 0x… thread T0`). */
const ACCESS = /^(READ|WRITE) of size \d+/;
/** Reports are never read past this many lines. */
const MAX_REPORT = 2000;

/** A frame in the sanitizer runtime, libc, the C++ library or the toolchain: not the project's. */
function foreign(file: string, fn: string): boolean {
  return /(?:^|\/)(?:libsanitizer|compiler-rt|sanitizer_common|sysdeps|csu|libgcc|libstdc\+\+|libc\+\+)\//
    .test(file) ||
    /^\/usr\/(?:include|lib|src)\//.test(file) ||
    /^__(?:interceptor|asan|lsan|tsan|msan|ubsan|sanitizer)_/.test(fn);
}

/** The first own frame from `from` on, and the line after the frames. */
function ownFrame(lines: string[], from: number): { location?: string; end: number } {
  let location: string | undefined;
  let j = from;
  for (; j < lines.length && j - from < 200; j++) {
    const f = FRAME.exec(lines[j]);
    if (!f) {
      if (/^\s+#\d+ /.test(lines[j])) continue; // a frame with no source (module+offset)
      break;
    }
    if (!location && !foreign(f[2], f[1])) {
      location = f[4] ? `${f[2]}:${f[3]}:${f[4]}` : `${f[2]}:${f[3]}`;
    }
  }
  return { location, end: j };
}

function readSanitizer(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const { first } = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c = first[i];
    // "==", "WARNING: ThreadSanitizer", or a UBSan line that starts with a path
    if (c === EQUALS) {
      // `==PID==`: the second character and the third, a digit, before the pattern.
      const head = lines[i];
      const open = head.charCodeAt(1) === EQUALS && isDigit(head.charCodeAt(2))
        ? OPEN.exec(head)
        : null;
      if (open) i = report(lines, i, open[1], open[2], ctx, out);
      continue;
    }
    if (c === UPPER_W) {
      const open = lines[i].startsWith("WARNING: ThreadSanitizer")
        ? TSAN_OPEN.exec(lines[i])
        : null;
      if (open) i = report(lines, i, open[1], open[2], ctx, out);
      continue;
    }
    if (c === 0 || c === SPACE || c === TAB) continue;
    const line = lines[i];
    if (!line.includes(": runtime error: ")) continue;
    const ub = UBSAN.exec(line);
    if (ub) {
      ctx.explain(i);
      out.push(
        finding("error", `runtime error: ${ub[4]}`, {
          location: `${ub[1]}:${ub[2]}:${ub[3]}`,
          at: i,
        }),
      );
    }
  }
  return out;
}

/** One report from its opening line; returns the index of its last line. */
function report(
  lines: string[],
  i: number,
  tool: string,
  kind: string,
  ctx: ReadContext,
  out: Finding[],
): number {
  let end = i + 1;
  // The report runs to its SUMMARY line (then the shadow map and ABORTING), or to the next report.
  while (
    end < lines.length && end - i < MAX_REPORT && !lines[end].startsWith("SUMMARY: ") &&
    !OPEN.test(lines[end])
  ) end++;
  if (end < lines.length && lines[end].startsWith("SUMMARY: ")) {
    // The shadow bytes' map and legend that follow the summary, and the closing ==PID==ABORTING.
    let k = end + 1;
    while (
      k < lines.length && k - end < 60 &&
      (/^(?:Shadow byte| {2}[A-Z][\w -]+:|=>|\s+0x[0-9a-f]+:)/.test(lines[k]) ||
        /^==\d+==ABORTING$/.test(lines[k]))
    ) k++;
    end = k - 1;
  } else end--;
  // The rule of = signs ASan prints above its report is the report's.
  ctx.explain(i > 0 && /^={20,}$/.test(lines[i - 1]) ? i - 1 : i, end);
  if (/detected memory leaks/.test(kind)) {
    for (let k = i + 1; k <= end; k++) {
      const leak = LEAK.exec(lines[k]);
      if (!leak) continue;
      const own = ownFrame(lines, k + 1);
      out.push(
        finding("error", `${tool}: ${leak[1].toLowerCase()} leak of ${leak[2]} byte(s)`, {
          location: own.location,
          at: i,
        }),
      );
      k = own.end - 1;
    }
    return end;
  }
  let access: string | undefined;
  let location: string | undefined;
  for (let k = i + 1; k <= end && location === undefined; k++) {
    if (!access && ACCESS.test(lines[k])) access = lines[k].replace(/ at 0x[0-9a-f]+.*$/, "");
    if (FRAME.test(lines[k]) || /^\s+#\d+ /.test(lines[k])) {
      const own = ownFrame(lines, k);
      location = own.location ?? "";
      k = own.end - 1;
    }
  }
  out.push(
    finding("error", `${tool}: ${kind}`, {
      location: location || undefined,
      detail: access ? [access] : [],
      at: i,
    }),
  );
  return end;
}

export const sanitizer: Reader = { name: "sanitizer", read: readSanitizer };
