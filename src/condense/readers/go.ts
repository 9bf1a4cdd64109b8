/**
 * go build, go vet and go test: diagnostics under a `# package` heading
 * (`./calc.go:6:21: message`), `--- FAIL: TestName (0.00s)` with the test's
 * `file_test.go:13: …` log lines (after the heading, or before it with -v),
 * subtests (`TestTable/two`), and panics with the first frame in the
 * project's own code.
 */
import { blockStart, type Finding, finding, setBlockStart } from "../findings.ts";
import { indentOf, trailingToken } from "../text.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { nameApart } from "./identity.ts";
import {
  DASH,
  DOT,
  EQUALS,
  HASH,
  isLower,
  isUpper,
  LOWER_G,
  LOWER_O,
  LOWER_P,
  OPEN_BRACE,
  QUESTION_MARK,
  SLASH,
  SPACE,
  TAB,
  UNDERSCORE,
  UPPER_F,
  UPPER_P,
  UPPER_W,
} from "../chars.ts";

const PACKAGE = /^# (\S+)(?: \[.*\])?$/;
const DIAG = /^(?:vet: )?(\.{0,2}\/?[^\s:]+\.go):(\d+)(?::(\d+))?: (.*)$/;
const RUN = /^=== (?:RUN|CONT|PAUSE|NAME)\s+(\S+)$/;
const FAIL = /^(\s*)--- FAIL: (\S+) \(([\d.]+s)\)$/;
const LOG = /^\s+([^\s:]+\.go):(\d+): (.*)$/;
// The same patterns without their captures, for a yes or no: a match with no groups to record is about twice as
// fast, and RUN, PASS and log lines are nearly every line of a verbose run (ADR 0650).
const IS_RUN = /^=== (?:RUN|CONT|PAUSE|NAME)\s+\S+$/;
const IS_PASS = /^\s*--- (?:PASS|SKIP): \S+ \([\d.]+s\)$/;
const IS_LOG = /^\s+[^\s:]+\.go:\d+: .*$/;
const PKG_RESULT =
  /^(?:ok|FAIL|\?)\s+\S+(?:\s+(?:[\d.]+s|\[.*\]|\(cached\)))*\s*$|^(?:FAIL|PASS|ok)$/;
/** The go command's own failures (a module it cannot find, go.mod out of date); not its progress (downloading…). */
const GO_TOOL_ERROR =
  /^go: (?:cannot find|updates to go\.mod needed|errors parsing|no required module|missing go\.sum entry|inconsistent vendoring|go\.mod file not found|malformed|unknown|module .*: (?:reading|git|invalid)|.*: (?:no matching versions|invalid version|unrecognized import path))/;
const PANIC = /^panic: (.*?)(?: \[recovered\])?$/;
/** A frame's place in the race detector's report: `      /home/dev/p/vet.go:16 +0x66`. */
const RACE_FRAME = /^\s+(\/.+?\.go):(\d+)(?: \+0x[0-9a-f]+)?$/;
/** What a test that raced says of itself (testing.go's own log line). */
const RACE_DETECTED = "race detected during execution of test";
/** A file of Go's own library or of a downloaded module: not the project's (GOROOT's src, GOPATH's pkg/mod). */
const GO_ROOT_FILE = /\/go(?:-[\d.]+)?\/src\/|\/pkg\/mod\/|^\/?_testmain\.go$/;

/** The name in a line IS_PASS matched (`--- PASS: name (0.00s)`): the `\S+` between `: ` and the ` (` of the duration (neither holds a space). */
export function passedName(line: string): string {
  return line.slice(line.indexOf(": ") + 2, line.lastIndexOf(" ("));
}

/** A test's log line: where it starts in the lines (read into place and message only for a failed test), or a panic's. */
type LogEntry = number | { loc: string; msg: string };

/** The log line at `at` (and its more-indented continuation lines): its place, its text, and the last line it spans. */
function logAt(lines: string[], at: number): { loc: string; msg: string; end: number } {
  const log = LOG.exec(lines[at])!;
  const body = [log[3]];
  // t.Errorf text with newlines continues on more-indented lines.
  const ind = indentOf(lines[at]);
  let i = at;
  while (
    i + 1 < lines.length && indentOf(lines[i + 1]) > ind && !LOG.test(lines[i + 1]) &&
    lines[i + 1].trim() !== ""
  ) {
    body.push(lines[++i].trim());
  }
  return { loc: `${log[1]}:${log[2]}`, msg: body.join(" "), end: i };
}

/** A line of `go test -json` (test2json): `{"Time":…,"Action":"output",…}`. */
function isJsonEvent(line: string): boolean {
  return (line.startsWith('{"Time":') || line.startsWith('{"Action":')) && line.endsWith("}");
}

/**
 * The text the events of lines from..to (inclusive) printed, as lines, and
 * for each of those the event line its text began on.
 */
function jsonOutput(
  lines: string[],
  from: number,
  to: number,
): { text: string[]; origin: number[] } {
  let text = "";
  const origin: number[] = [];
  let lineBegins = true;
  for (let k = from; k <= to; k++) {
    let event: { Action?: string; Output?: string };
    try {
      event = JSON.parse(lines[k]);
    } catch {
      continue;
    }
    if (event.Action !== "output" || typeof event.Output !== "string") continue;
    const output = event.Output;
    text += output;
    // Each line the text begins here is this event's.
    for (let c = 0; c < output.length; c++) {
      if (lineBegins) origin.push(k);
      lineBegins = output.charCodeAt(c) === 10;
    }
  }
  const out = text.split("\n");
  if (out[out.length - 1] === "") out.pop();
  return { text: out, origin };
}

function readGo(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const logs = new Map<string, LogEntry[]>();
  const failed: string[] = [];
  let running: string | undefined;
  /** The line of the RUN line that named `running`. */
  let runningAt = 0;
  let lastFail: { name: string; indent: number } | undefined;
  let inPackage = false;
  /** How many findings there were at the last package's result line. */
  let foundBefore = 0;
  /**
   * Whether a test's RUN or PASS line came since the last package's result line: a package whose
   * tests ran (-v) or whose lines began in an earlier window is not read as a binary that died.
   */
  let sawTest = false;
  /** The line of the `# package` heading the diagnostics read now are under. */
  let packageAt = 0;
  // The lines of the test that logged last, not yet in the map: under -v a test's lines come together and
  // most tests pass, so their lines are dropped at their PASS without the map ever being asked.
  // They are the first `lastCount` entries of one array reused from test to test (a new array for each of
  // half a million passing tests was most of what this reader allocated), copied into the map when kept.
  let lastOwner: string | undefined;
  const lastList: LogEntry[] = [];
  let lastCount = 0;
  /** Where the last owner's lines began: its RUN line when that named it, else its first line here. */
  let lastStart = 0;
  /** Where each test's lines in `logs` began (its block's start, for the scanner). */
  const logStart = new Map<string, number>();
  /** The line of each failed test's first FAIL line. */
  const failAt = new Map<string, number>();
  const flush = () => {
    if (lastOwner !== undefined && lastCount > 0) {
      logs.set(lastOwner, lastList.slice(0, lastCount));
      if (!logStart.has(lastOwner)) logStart.set(lastOwner, lastStart);
    }
  };
  const addLog = (name: string, entry: LogEntry, at: number) => {
    if (name !== lastOwner) {
      flush();
      lastOwner = name;
      lastCount = 0;
      lastStart = name === running ? Math.min(runningAt, at) : at;
      // The map holds only lines of tests that failed or were interleaved: usually empty, and not asked then.
      const earlier = logs.size > 0 ? logs.get(name) : undefined;
      if (earlier) { for (const e of earlier) lastList[lastCount++] = e; }
    }
    // A test run many times (-count, a rerun in the same log) keeps its first few lines, not thousands.
    if (lastCount < 20) lastList[lastCount++] = entry;
  };
  /** The package whose result line closed each test finding, where one did. */
  const packageOf = new Map<Finding, string>();
  /**
   * The failed tests read so far as findings, each of package `pkg` where its result line named it
   * (`FAIL\texample.com/shop/cart\t0.01s`): two packages may hold tests of one name.
   */
  const emit = (pkg?: string) => {
    flush();
    const before = out.length;
    for (const name of failed) {
      const own = (logs.get(name) ?? []).map((e) => typeof e === "number" ? logAt(lines, e) : e);
      // A parent that failed only because a subtest did says nothing of its own.
      if (own.length === 0 && failed.some((other) => other.startsWith(name + "/"))) continue;
      // t.Log and t.Error print alike; the failure is most often the last line a test printed (t.Fatal ends it).
      const first = own.find((l) => l.msg.startsWith("panic:")) ?? own[own.length - 1];
      // The race detector's failure is placed at the race it reported, in the project's code (the
      // tests that raced fail in the order their races were reported).
      const race = first?.msg === RACE_DETECTED ? races.shift() : undefined;
      // The test's block: from its first line read (its RUN line, a log line, its FAIL line); a
      // race's report comes before all of them.
      const at = Math.min(
        logStart.get(name) ?? Infinity,
        failAt.get(name) ?? Infinity,
        race?.at ?? Infinity,
      );
      if (race?.location) {
        out.push(
          finding("test_failure", RACE_DETECTED, {
            test: name,
            location: race.location,
            detail: race.detail,
            at: at === Infinity ? undefined : at,
          }),
        );
        continue;
      }
      out.push(
        finding("test_failure", first?.msg ?? "failed", {
          test: name,
          location: first?.loc || undefined,
          detail: own.filter((l) => l !== first).map((l) => `${l.loc}: ${l.msg}`),
          at: at === Infinity ? undefined : at,
        }),
      );
    }
    if (pkg) { for (let k = before; k < out.length; k++) packageOf.set(out[k], pkg); }
    logs.clear();
    logStart.clear();
    failAt.clear();
    failed.length = 0;
    lastOwner = undefined;
    lastCount = 0;
  };
  const { first, lead } = shapeOf(lines, ctx);
  /** The data races reported, in order: each one's place in the project's code and its accesses. */
  const races: { location?: string; detail: string[]; at: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const c0 = first[i];
    if (c0 === OPEN_BRACE && isJsonEvent(lines[i])) {
      // go test -json: the events' output, read as the text it is, then the events accounted for.
      let j = i;
      while (j + 1 < lines.length && first[j + 1] === OPEN_BRACE && isJsonEvent(lines[j + 1])) j++;
      const json = jsonOutput(lines, i, j);
      for (const f of readGo(json.text)) {
        // Back to the event line its block began on.
        const at = blockStart(f);
        out.push(setBlockStart(f, at === undefined ? i : json.origin[at] ?? i));
      }
      ctx.explain(i, j);
      i = j;
      continue;
    }
    if (!inPackage) {
      // # pkg, === RUN, --- FAIL, panic:, ok, FAIL, PASS, ?, and indented --- FAIL / file.go: lines
      if (c0 === SPACE || c0 === TAB) {
        const l = lead[i];
        if (l === DASH) {
          if (!lines[i].includes("--- ")) continue;
        } else {
          if (!isLower(l) && !isUpper(l) && l !== UNDERSCORE && l !== DOT && l !== SLASH) {
            continue;
          }
          const s = lines[i];
          const colon = s.indexOf(":");
          // ".go" just before the colon, by character: startsWith at an offset costs far more on a cut-out line.
          if (
            colon < 4 || s.charCodeAt(colon - 3) !== DOT || s.charCodeAt(colon - 2) !== LOWER_G ||
            s.charCodeAt(colon - 1) !== LOWER_O
          ) continue;
        }
      } else if (c0 === UPPER_W && lines[i] === "WARNING: DATA RACE") {
        // The race detector's report (before the test's FAIL line): the first access's place in the
        // project's own code is where the race is; the test says only "race detected".
        let j = i + 1;
        let at: string | undefined;
        const accesses: string[] = [];
        for (; j < lines.length && j - i < 200 && !lines[j].startsWith("=========="); j++) {
          const l = lines[j];
          if (/^(?:Read|Write|Previous (?:read|write)) at /.test(l)) accesses.push(l);
          const f = at === undefined ? RACE_FRAME.exec(l) : null;
          if (f && !GO_ROOT_FILE.test(f[1])) at = `${f[1]}:${f[2]}`;
        }
        ctx.explain(i, j);
        races.push({ location: at, detail: accesses, at: i });
        i = j;
        continue;
      } else if (
        c0 !== HASH && c0 !== EQUALS && c0 !== DASH && c0 !== LOWER_P && c0 !== LOWER_O &&
        c0 !== UPPER_F && c0 !== UPPER_P &&
        c0 !== QUESTION_MARK && c0 !== LOWER_G
      ) continue;
    }
    const line = lines[i];
    if (c0 === LOWER_G && line.startsWith("go: ")) {
      if (GO_TOOL_ERROR.test(line)) {
        ctx.explain(i);
        out.push(finding("error", line, { at: i }));
      }
      continue;
    }
    const pkg = c0 === HASH ? PACKAGE.exec(line) : null;
    if (pkg) {
      inPackage = true;
      packageAt = i;
      ctx.explain(i);
      continue;
    }
    if (inPackage) {
      const d = DIAG.exec(line);
      if (d) {
        ctx.explain(i);
        let message = d[4];
        // A type error may continue on indented lines ("\thave (…)\n\twant (…)").
        const detail: string[] = [];
        while (i + 1 < lines.length && /^\t\S/.test(lines[i + 1])) {
          detail.push(lines[++i].trim());
          ctx.explain(i);
        }
        if (/^too many errors$/.test(message)) continue;
        message = message.replace(/^vet: /, "");
        out.push(
          finding("error", message, {
            location: `${d[1]}:${d[2]}${d[3] ? ":" + d[3] : ""}`,
            detail,
            at: packageAt,
          }),
        );
        continue;
      }
      if (!/^\s/.test(line)) inPackage = false;
    }
    const l0 = lead[i];
    // test, then the name cut out: most lines of a verbose run are RUN and PASS lines, and a match's
    // array and captures were most of what this reader allocated (ADR 0650).
    if (c0 === EQUALS && IS_RUN.test(line)) {
      // A test's RUN and FAIL lines are headings (ADR 0705): a window that starts inside a test's
      // long output (a goroutine dump, a chatty log) knows a test ran and which one. (PASS lines
      // are not: a carried RUN line already says a test ran, and they are as many as the RUN lines;
      // bench/results/readers.md has what they cost.)
      ctx.heading?.(i, 0);
      sawTest = true;
      running = trailingToken(line);
      // Under -v a test's verdict comes after its output: the window that read a carried RUN line
      // did not know the test failed and reported nothing, so here its block starts at this
      // window's first line, not at the heading (a finding at a carried heading is left out).
      const carried = ctx.carried ?? 0;
      runningAt = i < carried ? carried : i;
      lastFail = undefined;
      ctx.explain(i);
      continue;
    }
    const f = l0 === DASH && line.includes("FAIL") ? FAIL.exec(line) : null;
    if (f) {
      ctx.heading?.(i, 0);
      ctx.explain(i);
      if (!failed.includes(f[2])) {
        failed.push(f[2]);
        failAt.set(f[2], i);
      }
      lastFail = { name: f[2], indent: f[1].length };
      continue;
    }
    if (l0 === DASH && IS_PASS.test(line)) {
      sawTest = true;
      ctx.explain(i);
      lastFail = undefined;
      const passed = passedName(line);
      // A passing test's log lines (printed before its verdict under -v) are no failure's: let them go,
      // or a long verbose run holds every test's lines to the end.
      if (!failed.includes(passed)) {
        if (passed === lastOwner) {
          lastOwner = undefined;
          lastCount = 0;
        }
        if (logs.size > 0) logs.delete(passed);
      }
      continue;
    }
    if ((c0 === SPACE || c0 === TAB) && IS_LOG.test(line)) {
      const ind = indentOf(line);
      const owner = lastFail && ind > lastFail.indent ? lastFail.name : running;
      if (owner) {
        // Only the place is kept now; the text is read if the test turns out to have failed.
        const at = i;
        while (
          i + 1 < lines.length && indentOf(lines[i + 1]) > ind && !IS_LOG.test(lines[i + 1]) &&
          lines[i + 1].trim() !== ""
        ) i++;
        ctx.explain(at, i);
        addLog(owner, at, at);
      }
      continue;
    }
    const p = c0 === LOWER_P ? PANIC.exec(line) : null;
    if (p) {
      let j = i + 1;
      let loc: string | undefined;
      let fn = "";
      // The test the panic belongs to when no RUN line said (without -v): Go 1.20+ lists the tests
      // running at a timeout; before that, the test's function is a frame of its goroutine.
      let listed: string | undefined;
      let inTrace: string | undefined;
      let inList = false;
      // A goroutine trace: its lines start with a tab, a function name, "goroutine" or "created by".
      while (
        j < lines.length && j - i < 400 &&
        !((first[j] === LOWER_O || first[j] === UPPER_F || first[j] === UPPER_P ||
          first[j] === QUESTION_MARK) &&
          PKG_RESULT.test(lines[j])) &&
        !(lead[j] === DASH && FAIL.test(lines[j])) && !(first[j] === EQUALS && RUN.test(lines[j]))
      ) {
        const l = lines[j];
        if (/^\s*running tests:$/.test(l)) inList = true;
        else if (inList) {
          const t = /^\s+(\S+) \([\d.]+\w*\)$/.exec(l);
          if (t) listed ??= t[1];
          else inList = false;
        }
        const frame = /^\t(\S+\.go):(\d+)/.exec(l);
        if (
          frame && !loc && !GO_ROOT_FILE.test(frame[1]) && !/^(?:testing|runtime|panic)\b/.test(fn)
        ) {
          loc = `${frame[1]}:${frame[2]}`;
        } else if (!frame) {
          fn = l.trim();
          const test = /\.((?:Test|Benchmark|Fuzz|Example)\w*)\(/.exec(fn);
          if (test && !fn.startsWith("testing.")) inTrace ??= test[1];
        }
        j++;
      }
      const owner = lastFail?.name ?? running ?? listed ?? inTrace;
      ctx.explain(i, j - 1);
      if (owner) {
        if (!failed.includes(owner)) {
          failed.push(owner);
          failAt.set(owner, i);
        }
        addLog(owner, { loc: loc ?? "", msg: `panic: ${p[1]}` }, i);
      } else {
        out.push(finding("error", `panic: ${p[1]}`, { location: loc, at: i }));
      }
      i = j - 1;
      continue;
    }
    if (
      (c0 === LOWER_O || c0 === UPPER_F || c0 === UPPER_P || c0 === QUESTION_MARK) &&
      PKG_RESULT.test(line)
    ) {
      ctx.explain(i);
      // A package whose test binary failed (`FAIL\tpkg\t0.01s`) with no test failing, nothing found
      // in its lines and no test's line at all (under -v, unfinished.ts names the test that was
      // running): os.Exit, a crash in TestMain, a signal. The package is the failure.
      const binary = !sawTest && failed.length === 0 && out.length === foundBefore
        ? /^FAIL\s+(\S+)\s+[\d.]+s\s*$/.exec(line)
        : null;
      if (binary) {
        out.push(
          finding("error", `${binary[1]}: the test binary failed and no test reported failing`, {
            at: i,
          }),
        );
      }
      running = undefined;
      lastFail = undefined;
      // A package's result line ends its tests' output: they are its failures.
      const pkg = /^(?:ok|FAIL)\s+(\S+)/.exec(line);
      if (pkg && failed.length > 0) emit(pkg[1]);
      // The bare `FAIL`/`PASS` before a package's line is still that package's.
      if (pkg) {
        // The package's tests end here: a later window is given none of their lines.
        ctx.headingEnds?.(i, 0);
        foundBefore = out.length;
        sawTest = false;
      }
    }
  }
  emit();
  return nameApart(out, packageOf);
}

export const go: Reader = { name: "go", read: readGo };
