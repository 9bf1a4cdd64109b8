/**
 * CI annotations: the lines a job writes for its CI system to show as
 * failures beside the code, read as findings in their own right.
 *
 * - GitHub Actions workflow commands, as a tool prints them:
 *   `::error file=a.py,line=3,col=5,title=…::message` (also `::warning`;
 *   values and message percent-escaped, `%0A` a line break).
 * - The same in the job's log as the runner writes it: `##[error]message`
 *   (`##[warning]`). The runner puts that mark in front of what the tool
 *   printed, so the mark is taken off before the readers run
 *   (`withoutRunnerMarks`) and the tool's own reader reads the line as it
 *   reads it anywhere (`##[error]a.py:1:1: F401 …` is flake8's line); a
 *   marked line no reader took is a finding of its level
 *   (`runnerFinding`), placed where the message starts with a place.
 * - Azure Pipelines: `##vso[task.logissue type=error;sourcepath=…;
 *   linenumber=…;columnnumber=…;code=…;]message`.
 *
 * A warning that names no place is the CI's own notice about the job (a
 * deprecated action, a cache not found), which passing jobs print too: no
 * finding. A CI's statement that a step ended with a status (`##[error]Process
 * completed with exit code 1.`, GitLab's `ERROR: Job failed: exit code 1`,
 * Azure's `Bash exited with code '1'.`) repeats the exit status the
 * headline already rules on: accounted for, no finding. So are the
 * commands that only shape the log (`::group::`, `##[endgroup]`,
 * `##vso[task.setvariable …]`) and notices.
 *
 * An annotation often repeats what the tool printed above it (a test
 * runner's failure, a linter's line): `withoutRepeatedAnnotations` drops
 * an annotation that names the same place or message as another reader's
 * finding of the same lines, so each failure counts once.
 */
import { clip, type Finding, finding, location } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { COLON, HASH, UPPER_E } from "../chars.ts";

/** The reader's name, as findings are attributed to it. */
export const ANNOTATIONS = "annotations";

/** `::command props::message` (props may be absent: `::error::message`). */
const WORKFLOW_COMMAND = /^::([a-z-]+)(?: ([^:]*))?::(.*)$/;
/** The runner's marks in a job log: `##[group]…`, `##[endgroup]`, `##[error]message`. */
const RUNNER_LINE = /^##\[[a-z]+\]/;
/** The marks that put a level on the line after them. */
const RUNNER_MARK = /^##\[(error|warning)\](.*)$/;
/** Azure's logging commands: `##vso[area.action props]message`. */
const AZURE_COMMAND = /^##vso\[([a-z.]+)(?: ([^\]]*))?\](.*)$/;
/** A step's or job's end stated by the CI, with its exit status. */
const EXIT_STATEMENT =
  /(?:exit(?:ed)?(?: with)? code|failed with exit code) '?-?\d+'?\.?$|^ERROR: Job failed: /;
/** A place the tool put at the start of the message: `a.py:3:5: …`, `a.ts(3,5): …`. */
const PLACE_COLON = /^([^\s:]+\.[A-Za-z0-9]+):(\d+)(?::(\d+))?:? (.*)$/;
const PLACE_PARENS = /^([^\s(]+\.[A-Za-z0-9]+)\((\d+),(\d+)\): (.*)$/;

/** `%25` `%0D` `%0A` `%3A` `%2C` undone (GitHub's escapes of messages and property values). */
function unescapeCommand(text: string): string {
  if (!text.includes("%")) return text;
  return text.replace(
    /%(25|0D|0A|3A|2C|3B|5D)/gi,
    (_m, code: string) => String.fromCharCode(parseInt(code, 16)),
  );
}

/** `a=1,b=2` (GitHub) or `a=1;b=2;` (Azure) as a map. */
function properties(text: string | undefined, separator: string): Map<string, string> {
  const map = new Map<string, string>();
  if (!text) return map;
  for (const part of text.split(separator)) {
    const eq = part.indexOf("=");
    if (eq > 0) {
      map.set(part.slice(0, eq).trim().toLowerCase(), unescapeCommand(part.slice(eq + 1)));
    }
  }
  return map;
}

/** A finding of an annotation's level: its message's first line, the rest as detail. */
function annotation(
  level: string,
  message: string,
  place: { file?: string; line?: string; col?: string },
  title: string | undefined,
  at: number,
): Finding | undefined {
  const kind = level === "error" ? "error" : level === "warning" ? "warning" : undefined;
  if (!kind) return undefined;
  const lines = message.split(/\r?\n/);
  const firstAt = lines.findIndex((l) => l.trim() !== "");
  let first = firstAt === -1 ? "" : lines[firstAt];
  let { file, line, col } = place;
  if (!file) {
    const m = PLACE_COLON.exec(first) ?? PLACE_PARENS.exec(first);
    if (m) [, file, line, col, first] = m;
  }
  if (EXIT_STATEMENT.test(first.trim())) return undefined;
  // A warning that names no place is the CI's own notice (a deprecated action, a cache miss), not
  // the code's: the runner prints those on passing jobs too.
  if (kind === "warning" && !file) return undefined;
  if (first.trim() === "" && title) first = title;
  if (first.trim() === "") return undefined;
  return finding(kind, first, {
    location: file ? location(file, line, col) : undefined,
    detail: firstAt === -1 ? [] : lines.slice(firstAt + 1),
    at,
  });
}

/** A rule's code (a title without blanks, Azure's `code=`) after the message, as linters' readers write it. */
function withCode(f: Finding, code: string | undefined): Finding {
  if (!code || /\s/.test(code)) return f;
  if (f.message.startsWith(code + " ")) f.message = f.message.slice(code.length + 1);
  else if (f.message.includes(code)) return f;
  f.message = clip(`${f.message} (${code})`);
  return f;
}

function readAnnotations(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const shape = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c = shape.first[i];
    if (c !== COLON && c !== HASH && c !== UPPER_E) continue;
    const line = lines[i];
    if (c === UPPER_E) {
      if (line.startsWith("ERROR: Job failed: ")) ctx.explain(i);
      continue;
    }
    if (c === COLON) {
      const m = WORKFLOW_COMMAND.exec(line);
      if (!m) continue;
      ctx.explain(i);
      const props = properties(m[2], ",");
      const f = annotation(
        m[1],
        unescapeCommand(m[3]),
        {
          file: props.get("file"),
          line: props.get("line"),
          col: props.get("col") ?? props.get("column"),
        },
        props.get("title"),
        i,
      );
      if (f) out.push(withCode(f, props.get("title")));
      continue;
    }
    if (!line.startsWith("##")) continue;
    const vso = AZURE_COMMAND.exec(line);
    if (vso) {
      ctx.explain(i);
      if (vso[1] !== "task.logissue") continue;
      const props = properties(vso[2], ";");
      const f = annotation(
        props.get("type") ?? "",
        vso[3],
        {
          file: props.get("sourcepath"),
          line: props.get("linenumber"),
          col: props.get("columnnumber"),
        },
        undefined,
        i,
      );
      if (f) out.push(withCode(f, props.get("code")));
      continue;
    }
    // The runner's other marks shape the log (`##[group]Run …`, `##[endgroup]`, `##[command]…`).
    if (RUNNER_LINE.test(line)) ctx.explain(i);
  }
  return out;
}

/** Lines with the runner's error and warning marks taken off, and the level of each marked line. */
export interface RunnerMarked {
  lines: string[];
  levels: Map<number, string>;
}

/**
 * The lines without `##[error]` / `##[warning]` marks, when some line has
 * one (a copy: the caller's lines are left as they are); otherwise undefined.
 */
export function withoutRunnerMarks(lines: string[], first: Uint16Array): RunnerMarked | undefined {
  let out: string[] | undefined;
  let levels: Map<number, string> | undefined;
  for (let i = 0; i < lines.length; i++) {
    if (first[i] !== HASH) continue;
    const m = RUNNER_MARK.exec(lines[i]);
    if (!m) continue;
    out ??= lines.slice();
    levels ??= new Map();
    out[i] = m[2];
    levels.set(i, m[1]);
  }
  return out && levels ? { lines: out, levels } : undefined;
}

/**
 * A runner-marked line no reader took: a finding of its level (none for a
 * statement of the step's exit status, which the headline carries).
 */
export function runnerFinding(level: string, text: string, at: number): Finding | undefined {
  return annotation(level, text, {}, undefined, at);
}

export const annotations: Reader = { name: ANNOTATIONS, read: readAnnotations };

/**
 * The findings without the annotations that repeat another reader's finding:
 * the same line of the same file (one path ending the other), or the same
 * message. `readerOf` names each finding's reader.
 */
export function withoutRepeatedAnnotations(
  findings: Finding[],
  readerOf: Map<Finding, string>,
): Finding[] {
  const others = findings.filter((f) => readerOf.get(f) !== ANNOTATIONS);
  if (others.length === findings.length || others.length === 0) return findings;
  return findings.filter((f) =>
    readerOf.get(f) !== ANNOTATIONS || !others.some((o) => repeats(f, o))
  );
}

/** Whether annotation `a` names the failure `o` names. */
function repeats(a: Finding, o: Finding): boolean {
  if (a.message === o.message || (o.message.length > 0 && a.message.startsWith(o.message))) {
    return true;
  }
  if (!a.location || !o.location) return false;
  const pa = splitPlace(a.location);
  const po = splitPlace(o.location);
  if (!pa || !po || pa.line !== po.line) return false;
  return sameFile(pa.file, po.file);
}

function splitPlace(place: string): { file: string; line: string } | undefined {
  const m = /^(.*?):(\d+)(?::\d+)?$/.exec(place);
  return m ? { file: m[1], line: m[2] } : undefined;
}

/** One path is the other, or ends with it after a `/` (an absolute path and a relative one). */
function sameFile(a: string, b: string): boolean {
  const x = a.replace(/^\.\//, "");
  const y = b.replace(/^\.\//, "");
  if (x === y) return true;
  const [long, short] = x.length > y.length ? [x, y] : [y, x];
  return long.endsWith("/" + short);
}
