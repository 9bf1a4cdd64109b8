/**
 * pytest: the `short test summary info` lines (`FAILED id - message`,
 * `ERROR id`), the FAILURES and ERRORS sections they summarise (place and
 * `E` lines), and `-v` result lines. One finding per test id.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { exampleOutcome, PLACE as DOCTEST_PLACE } from "./doctest.ts";
import {
  CLOSE_BRACKET,
  DIGIT_0,
  DIGIT_9,
  EQUALS,
  EXCLAMATION,
  SPACE,
  UNDERSCORE,
  UPPER_D,
  UPPER_E,
  UPPER_F,
  UPPER_I,
  UPPER_L,
  UPPER_P,
  UPPER_R,
  UPPER_S,
  UPPER_X,
} from "../chars.ts";

/**
 * A summary entry: the outcome, then the test id and message (split by summaryEntry). pytest 9
 * reports each failing subtest as `SUBFAILED(item='pear') path::Case::test - message`.
 */
const SUMMARY = /^(FAILED|ERROR|XPASS\(strict\)|SUBFAILED\((.*?)\)) (\S.*)$/;
/**
 * A `-v` result line: `path::test[params] FAILED  [ 25%]`. A Python file's id may hold spaces (in
 * its path or its parameters); any other id is one word.
 */
const VERBOSE = /^(\S[^:]*?\.py::.+?|\S+::\S+?) (FAILED|ERROR)(?:\s+\[\s*\d+%\])?$/;
const SECTION =
  /^={3,} (FAILURES|ERRORS|short test summary info|warnings summary|PASSES|.*(?:passed|failed|error|errors|skipped|deselected|no tests ran).*) ={3,}$/;
const TITLE = /^_{3,} (.+?) _{3,}$/;
/** `-q`'s closing counts (`2 failed, 1 passed, 3 errors in 0.74s`): the run's end, printed with no rule. */
const QUIET_END =
  /^\d+ (?:failed|passed|errors?|skipped|deselected|xfailed|xpassed|warnings?)\b.* in \d+(?:\.\d+)?s(?: \(.*\))?$/;
/** A place in a traceback at the margin: `tests/test_x.py:12: AssertionError` (a path may hold spaces, or a drive). */
const PLACE = /^((?:[A-Za-z]:)?[^\s:][^:]*\.py):(\d+): ?(.*)$/;
const DOCTEST_TITLE = "[doctest] ";
const COLLECT = /^(?:ERROR collecting|ERROR at (?:setup|teardown) of) (.+)$/;
/** A warnings-summary entry: `  path.py:5: DeprecationWarning: message`. */
const WARNING = /^ {2}(\S+?):(\d+): (\w*Warning\w*): (.*)$/;
const NATIVE_FRAME = /^\s+File "([^"]+)", line (\d+)/;
const NATIVE_NOT_MESSAGE =
  /^(?:Traceback \(most recent call last\):|During handling|The above exception)/;

/**
 * A summary entry's test id and message. The id may hold spaces (a path with a space, a parameter
 * id such as `test_total[naive basket]`), so it runs to the first ` - ` outside square brackets,
 * or to the line's end.
 */
function summaryEntry(rest: string): { id: string; message?: string } {
  let depth = 0;
  for (let k = 0; k < rest.length; k++) {
    const ch = rest[k];
    if (ch === "[") depth++;
    else if (ch === "]" && depth > 0) depth--;
    else if (depth === 0 && ch === " " && rest.startsWith(" - ", k)) {
      return { id: rest.slice(0, k), message: rest.slice(k + 3) };
    }
  }
  return { id: rest.trimEnd() };
}

interface Section {
  location?: string;
  message?: string;
  detail: string[];
}

function readSection(
  lines: string[],
  from: number,
  to: number,
  testFile: string | undefined,
): Section {
  const places: { file: string; line: string; rest: string }[] = [];
  const eLines: string[] = [];
  // --tb=native: the exception's lines at the margin after the last frame (a message may span lines).
  let native: string[] = [];
  let afterFrame = false;
  for (let i = from; i < to; i++) {
    const line = lines[i];
    if (line.startsWith("E ")) {
      const text = line.slice(1).trim();
      eLines.push(text);
      // A SyntaxError names its place as `File "x.py", line N`.
      const f = /^File "([^"]+)", line (\d+)/.exec(text);
      if (f) places.push({ file: f[1], line: f[2], rest: "" });
      continue;
    }
    const p = PLACE.exec(line);
    if (p) {
      places.push({ file: p[1], line: p[2], rest: p[3] });
      continue;
    }
    // --tb=native: a Python traceback's frames, and its exception on the last line at the margin.
    const f = NATIVE_FRAME.exec(line);
    if (f) {
      places.push({ file: f[1], line: f[2], rest: "" });
      afterFrame = true;
    } else if (line !== "" && !/^\s/.test(line) && !NATIVE_NOT_MESSAGE.test(line)) {
      if (afterFrame) native = [line];
      else if (native.length > 0) native.push(line);
      afterFrame = false;
    }
  }
  if (eLines.length === 0) eLines.push(...native);
  const base = testFile?.split("/").pop();
  const inTest = base
    ? places.find((p) => p.file === testFile || p.file.endsWith("/" + base) || p.file === base)
    : undefined;
  const place = inTest ?? places[places.length - 1];
  const meaningful = eLines.filter((l) => l !== "");
  // The exception line (or the assertion) is the message; the rest is detail.
  const at = meaningful.findIndex((l) =>
    /^(?:[\w.]+(?:Error|Exception|Exit|Interrupt|Failed|Warning)\b|assert\b|Failed:)/.test(l)
  );
  if (at > 0) meaningful.unshift(...meaningful.splice(at, 1));
  const lastPlace = places[places.length - 1];
  return {
    location: place ? `${place.file}:${place.line}` : undefined,
    message: meaningful[0] ?? (lastPlace?.rest || undefined),
    detail: meaningful.slice(1),
  };
}

/** The section title pytest prints for a test id: `Class.test_name[param]` for `file.py::Class::test_name[param]`. */
/** The name a section's title gives its test: the title, or what follows `ERROR collecting` / `ERROR at setup of`. */
function sectionName(title: string): string {
  const collected = COLLECT.exec(title);
  if (collected) return collected[1];
  // --doctest-modules titles a docstring's section `[doctest] stats.ratio`; its id is `stats.py::stats.ratio`.
  return title.startsWith(DOCTEST_TITLE) ? title.slice(DOCTEST_TITLE.length) : title;
}

/**
 * A `[doctest]` section's outcome: the failed example is the last numbered source line shown
 * (`007 >>> median([4, 1, 3, 2])`), and what it gave follows (doctest.ts `exampleOutcome`).
 */
function doctestSection(
  lines: string[],
  from: number,
  to: number,
): { message: string; detail: string[]; location?: string } | undefined {
  let example = -1;
  let location: string | undefined;
  for (let k = from; k < to; k++) {
    if (/^\d{3,} +>>> /.test(lines[k])) example = k;
    const place = DOCTEST_PLACE.exec(lines[k]);
    if (place) location = `${place[1]}:${place[2]}`;
  }
  if (example < 0) return undefined;
  const shown = lines[example].replace(/^\d{3,} +>>> /, "");
  const outcome = exampleOutcome(shown, lines, example + 1, to);
  // The place is the example's line, not a frame of the code it called.
  return outcome && { ...outcome, ...(location ? { location } : {}) };
}

/** `value` onto the list `map` holds under `key`. */
function fileUnder(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function titleOf(id: string): string {
  const parts = id.split("::");
  return parts.length > 1 ? parts.slice(1).join(".") : id;
}

/**
 * The file of a section no summary entry named (no summary printed, or — in a long output read in
 * windows — the summary in the next window), for its test's id: pytest prints the test's own frame
 * first, at its file's path from the root directory, which is the id's first part.
 */
function sectionFile(lines: string[], from: number, to: number): string | undefined {
  for (let i = from; i < to; i++) {
    const p = lines[i].charCodeAt(0) === SPACE ? null : PLACE.exec(lines[i]);
    if (!p) continue;
    return p[1].startsWith("/") || /^[A-Za-z]:/.test(p[1]) ? undefined : p[1];
  }
  return undefined;
}

/** The id pytest gives the test of a section titled `title` in `file`. */
function idIn(file: string, title: string): string {
  const bracket = title.indexOf("[");
  const name = bracket < 0 ? title : title.slice(0, bracket);
  const params = bracket < 0 ? "" : title.slice(bracket);
  return `${file}::${name.replace(/\./g, "::")}${params}`;
}

function readPytest(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  // Each with `at`, the line its block starts at (for the scanner: findings.ts `blockStart`).
  const summary: { kind: string; id: string; message?: string; at: number }[] = [];
  const verbose: { kind: string; id: string; at: number }[] = [];
  const sections = new Map<string, { from: number; to: number; error: boolean; at: number }>();
  let part = "";
  // --tb=line: FAILURES holds no titles, only each failure's E lines and its `path:line: message`, in the
  // order of the summary's entries.
  let titled = false;
  let warnedIds: string[] = [];
  /** The line of the first of `warnedIds`. */
  let warnedAt = 0;
  const warnings: Finding[] = [];
  const untitled: { from: number; to: number; at: number }[] = [];
  let untitledFrom = -1;
  const conftest: Finding[] = [];
  const { first, last: lastChar } = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c = first[i];
    // Section rules (=, _), summary entries (F, E, X), -rA entries (P, S), "!!! interrupted", and -v lines (any start)
    const line = lines[i];
    // A section rule ends as it starts, in "=" (a go test's "=== RUN" line does not).
    if (c === EQUALS && lastChar[i] === EQUALS) {
      const s = SECTION.exec(line);
      if (s) {
        part = s[1];
        titled = false;
        untitledFrom = -1;
        ctx.explain(i);
        // A window that starts inside the part is given this rule first (ADR 0705).
        ctx.heading?.(i, 0);
        continue;
      }
    }
    // -q ends its summary with the counts and no rule: what follows is no longer pytest's summary.
    if (c >= DIGIT_0 && c <= DIGIT_9 && part !== "" && QUIET_END.test(line)) {
      part = "";
      ctx.explain(i);
      ctx.headingEnds?.(i, 0);
      continue;
    }
    if (part === "warnings summary") {
      // Test ids (or a module) at the margin, then each warning indented: `  path:line: Category: message`,
      // and the source line under it.
      if (line === "") warnedIds = [];
      else if (c !== SPACE) {
        if (warnedIds.length === 0) warnedAt = i;
        if (!line.startsWith("-- Docs: ")) warnedIds.push(line);
        ctx.explain(i);
        continue;
      } else {
        const w = WARNING.exec(line);
        if (w) {
          let j = i + 1;
          while (j < lines.length && lines[j].startsWith("    ")) j++;
          ctx.explain(i, j - 1);
          const id = warnedIds.find((x) => x.includes("::"));
          warnings.push(
            finding("warning", `${w[3]}: ${w[4]}`, {
              location: `${w[1]}:${w[2]}`,
              test: id,
              detail: warnedIds.length > 1 ? [`also in ${warnedIds.length - 1} more`] : [],
              // The block starts at the ids it names (none: at its own line).
              at: warnedIds.length > 0 ? warnedAt : i,
            }),
          );
          i = j - 1;
          continue;
        }
      }
    }
    if (part === "FAILURES" && !titled && c !== UNDERSCORE) {
      if (c === UPPER_E && line.startsWith("E ")) {
        if (untitledFrom < 0) untitledFrom = i;
        continue;
      }
      if (untitledFrom >= 0 && (c === SPACE || c === 0)) continue; // an E line's continuation
      const p = PLACE.exec(line);
      if (p) {
        const from = untitledFrom >= 0 ? untitledFrom : i;
        ctx.explain(from, i);
        untitled.push({ from, to: i + 1, at: from });
        untitledFrom = -1;
        continue;
      }
    }
    if ((part === "FAILURES" || part === "ERRORS") && c === UNDERSCORE) {
      const t = TITLE.exec(line);
      if (t) {
        titled = true;
        let j = i + 1;
        while (j < lines.length && !TITLE.test(lines[j]) && !SECTION.test(lines[j])) j++;
        ctx.explain(i, j - 1);
        // A window that starts inside the section (a long captured output) is given its title.
        ctx.heading?.(i, 1);
        sections.set(t[1], { from: i + 1, to: j, error: part === "ERRORS", at: i });
        i = j - 1;
        continue;
      }
    }
    if (
      c === UPPER_F || c === UPPER_E || c === UPPER_X ||
      (c === UPPER_S && line.startsWith("SUBFAILED("))
    ) {
      const m = SUMMARY.exec(line);
      const entry = m ? summaryEntry(m[3]) : undefined;
      if (
        m && entry &&
        (part === "short test summary info" || entry.id.includes("::") || entry.id.endsWith(".py"))
      ) {
        ctx.explain(i);
        // The message may go on over the following lines, until the next entry.
        let j = i + 1;
        while (
          j < lines.length && part === "short test summary info" && !SUMMARY.test(lines[j]) &&
          !SECTION.test(lines[j]) && !/^!{3,}/.test(lines[j]) && !QUIET_END.test(lines[j])
        ) {
          ctx.explain(j);
          j++;
        }
        const at = i;
        // A subtest is named as its section is titled: the test, then its parameters in parentheses.
        if (m[2] !== undefined) {
          summary.push({ kind: "FAILED", id: `${entry.id} (${m[2]})`, message: entry.message, at });
        } else summary.push({ kind: m[1], id: entry.id, message: entry.message, at });
        i = j - 1;
        continue;
      }
    }
    // From the shape: the line's own text is not touched for most lines (0 for an empty one, as NaN was).
    const last = lastChar[i];
    // -v lines end in "[ 25%]" or the outcome (…ED, ERROR, XFAIL, XPASS); the -rA ones start with it.
    if (
      (last === CLOSE_BRACKET || last === UPPER_D || last === UPPER_R || last === UPPER_L ||
        last === UPPER_S || c === UPPER_P ||
        c === UPPER_S) && line.includes("::")
    ) {
      const v = VERBOSE.exec(line);
      if (v) {
        ctx.explain(i);
        verbose.push({ kind: v[2], id: v[1], at: i });
        continue;
      }
      if (
        /^\S+::\S+ (PASSED|SKIPPED|XFAIL|XPASS)/.test(line) ||
        /^(PASSED|SKIPPED|XFAIL) \S+::/.test(line)
      ) ctx.explain(i);
    }
    // `-rs` names a skip by its place and reason (`SKIPPED [1] test_x.py:29: reason`): the reason is
    // the author's words, and may read like a diagnostic (`error: …`).
    if (c === UPPER_S && /^SKIPPED \[\d+\] /.test(line)) {
      ctx.explain(i);
      continue;
    }
    if (c === EXCLAMATION && /^!{3,} .* !{3,}$/.test(line)) {
      ctx.explain(i);
      // Ctrl-C (or SIGINT) stopped the run: pytest names the place it stopped at on the next line.
      if (line.includes(" KeyboardInterrupt ")) {
        const at = /^(.+?):(\d+): KeyboardInterrupt$/.exec(lines[i + 1] ?? "");
        let k = i - 1;
        while (k >= 0 && lines[k] === "") k--;
        // -v printed the running test's id and no outcome after it.
        const running = k >= 0 ? /^(\S+::\S+?) *$/.exec(lines[k]) : null;
        if (at) ctx.explain(i + 1);
        if (running) ctx.explain(k);
        conftest.push(
          finding("error", "KeyboardInterrupt: the run was interrupted", {
            location: at && at[1] !== "<string>" ? `${at[1]}:${at[2]}` : undefined,
            test: running?.[1],
            at: running ? k : i,
          }),
        );
      }
    }
    if (c === UPPER_I && line.startsWith("ImportError while loading conftest")) {
      // pytest stops before collecting: no summary, only this block.
      let j = i + 1;
      while (j < lines.length && j - i < 40 && lines[j] !== "" && !SECTION.test(lines[j])) j++;
      ctx.explain(i, j - 1);
      const read = readSection(lines, i + 1, j, /'([^']+)'/.exec(line)?.[1]);
      conftest.push(
        finding("error", read.message ?? line, {
          location: read.location,
          detail: read.detail,
          at: i,
        }),
      );
      i = j - 1;
    }
  }
  // Entries in the summary come first; -v lines and lone sections fill in what it lacks.
  // One test may both fail and error (its body failed, then a fixture's teardown raised): an entry
  // is its outcome and its id.
  const entries: { kind: string; id: string; message?: string; at: number }[] = [];
  // Looked up, not searched: a summary of thousands of failures was read in time squared.
  const seen = new Set<string>();
  const firstOf = (x: { kind: string; id: string }) => {
    const key = `${isError(x.kind) ? "E" : "F"} ${x.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  for (const s of summary) if (firstOf(s)) entries.push(s);
  for (const v of verbose) if (firstOf(v)) entries.push(v);
  const used = new Set<string>();
  const out: Finding[] = [...conftest];
  // A section's title names an entry's test when the title's name is the entry's title or id, or
  // ends the id after a `::` (dots read as `::`). The sections are filed by those names, so each
  // entry meets its own sections: trying every section for every entry was time squared in a run
  // of thousands of failures.
  const sectionOrder = new Map<string, number>();
  const byName = new Map<string, string[]>();
  const byDotted = new Map<string, string[]>();
  for (const t of sections.keys()) {
    sectionOrder.set(t, sectionOrder.size);
    const name = sectionName(t);
    fileUnder(byName, name, t);
    fileUnder(byDotted, "::" + name.replace(/\./g, "::"), t);
  }
  /** The titles of the sections that name this entry's test, in the sections' order. */
  const titledBy = (e: { id: string }): string[] => {
    // A summary with no sections in these lines (-rN aside, most windows of a long summary).
    if (sections.size === 0) return [];
    const found = new Set<string>([
      ...byName.get(titleOf(e.id)) ?? [],
      ...byName.get(e.id) ?? [],
    ]);
    for (let j = e.id.indexOf("::"); j !== -1; j = e.id.indexOf("::", j + 1)) {
      for (const t of byDotted.get(e.id.slice(j)) ?? []) found.add(t);
    }
    return [...found].sort((a, b) => sectionOrder.get(a)! - sectionOrder.get(b)!);
  };
  for (const e of entries) {
    // An error's section is under ERRORS, a failure's under FAILURES; either, where only one exists.
    const open = titledBy(e).filter((t) => !used.has(t));
    const title = open.find((t) => sections.get(t)!.error === isError(e.kind)) ?? open[0];
    const testFile = e.id.split("::")[0];
    // Without a titled section, a failure takes the next untitled one (--tb=line), in order.
    const section = title !== undefined
      ? sections.get(title)!
      : e.kind === "FAILED" && untitled.length > 0
      ? { ...untitled.shift()!, error: false }
      : undefined;
    if (title !== undefined) used.add(title);
    const read = section ? readSection(lines, section.from, section.to, testFile) : undefined;
    const example = title?.startsWith(DOCTEST_TITLE) && section
      ? doctestSection(lines, section.from, section.to)
      : undefined;
    if (read && example) Object.assign(read, example);
    // The summary line is cut to the terminal's width ("…: asser..."): the section's own line is whole.
    const summary = e.message?.trim();
    const cut = summary !== undefined && summary.endsWith("...") && read?.message !== undefined;
    const message = (cut ? read?.message : summary) || read?.message ||
      (e.kind === "ERROR" ? "error" : "failed");
    const isTest = e.id.includes("::");
    out.push(
      finding(
        e.kind === "ERROR" && !isTest ? "error" : e.kind === "ERROR" ? "error" : "test_failure",
        message,
        {
          test: isTest ? e.id : undefined,
          location: read?.location ?? (isTest ? undefined : e.id),
          detail: read?.detail,
          at: section ? Math.min(e.at, section.at) : e.at,
        },
      ),
    );
  }
  out.push(...warnings);
  // A section with no place (a strict XPASS) is most likely in the file of the section before it:
  // pytest reports failures file by file.
  let lastFile: string | undefined;
  // The names entries give sections (see titledBy), to ask of each section left whether any entry names it.
  const entryNames = new Set<string>();
  // Asked of sections only: none, nothing to ask.
  for (const e of sections.size > 0 ? entries : []) {
    entryNames.add(titleOf(e.id)).add(e.id);
    for (let j = e.id.indexOf("::"); j !== -1; j = e.id.indexOf("::", j + 1)) {
      entryNames.add(e.id.slice(j));
    }
  }
  const namedByEntry = (title: string) => {
    const name = sectionName(title);
    return entryNames.has(name) || entryNames.has("::" + name.replace(/\./g, "::"));
  };
  for (const [title, section] of sections) {
    const file = sectionFile(lines, section.from, section.to) ?? lastFile;
    lastFile = file;
    if (used.has(title)) continue;
    // A second run of the same tests in one output (tox's environments, a rerun): its sections
    // belong to tests already reported by id, not to tests of their own.
    if (namedByEntry(title)) continue;
    const collected = COLLECT.exec(title);
    // "ERROR at setup of test_x" is the test's error; only "ERROR collecting path" is a file's.
    const fixture = /^ERROR at (?:setup|teardown) of (.+)$/.exec(title)?.[1];
    const name = fixture ?? sectionName(title);
    const read = readSection(lines, section.from, section.to, fixture ? file : collected?.[1]);
    // A setup or teardown error's frames are its fixture's, most often in a conftest.py: its place
    // names the test's file only when that is a test file (a test fixture defined in the module).
    const testFile = file && (!fixture || isTestFile(file)) ? file : undefined;
    const example = title.startsWith(DOCTEST_TITLE)
      ? doctestSection(lines, section.from, section.to)
      : undefined;
    if (example) Object.assign(read, example);
    out.push(
      finding(section.error ? "error" : "test_failure", read.message ?? title, {
        test: collected && !fixture ? undefined : testFile ? idIn(testFile, name) : name,
        location: read.location ?? (collected && !fixture ? collected[1] : undefined),
        detail: read.detail,
        at: section.at,
      }),
    );
  }
  return out;
}

/** Whether pytest collects tests from a file of this name by default (`test_*.py`, `*_test.py`). */
function isTestFile(path: string): boolean {
  const base = path.slice(path.lastIndexOf("/") + 1);
  return base.endsWith(".py") && (base.startsWith("test_") || base.endsWith("_test.py"));
}

/** Whether an outcome (`ERROR`, `FAILED`, a -v line's word) is an error rather than a failure. */
function isError(kind: string): boolean {
  return kind === "ERROR";
}

export const pytest: Reader = {
  name: "pytest",
  read: readPytest,
};
