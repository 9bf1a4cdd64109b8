/**
 * JUnit XML, the report many test runners write for CI and many CI logs
 * print (`cat report.xml`): Maven Surefire's `TEST-*.xml`, pytest's
 * `--junitxml`, `deno test --reporter=junit`, jest-junit, go-junit-report.
 * One reader for the format, whichever tool wrote it: every `<testcase>` that
 * holds a `<failure>` or `<error>` is a finding, named and placed from what
 * the element says and from the failure's text (a stack frame, a pytest
 * `file:line: Error` line).
 *
 * The XML may be one line (pytest) or many, and an attribute may span lines
 * (deno's multi-line messages), so a document is read as one text: from the
 * line where a `<testsuites>`, `<testsuite>` or `<testcase>` tag starts to
 * where its root closes, or to the first text that cannot stand between a
 * report's elements (the runner's own output after the document).
 */
import { type Finding, finding } from "../findings.ts";
import { type Frame, jsFrame, pickFrame } from "../text.ts";
import { nameApart } from "./identity.ts";
import { LESS_THAN } from "../chars.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";

/** A tag: `<name attrs>`, `</name>`, `<name attrs/>` (attribute values may hold newlines). */
const TAG = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;
const ATTRIBUTE = /([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
/** Lines read as one document at first; doubled while a document runs past them. */
const FIRST_SPAN = 256;
/** A document longer than this many lines is read no further (its findings so far are kept). */
const MAX_SPAN = 200_000;
/** Elements whose text is free (a failure's message and stack, captured output). */
const TEXT_ELEMENTS = new Set(["failure", "error", "system-out", "system-err", "skipped"]);
/** A group's failure that only says a step inside it failed (deno): the step is the finding. */
const GROUP_ONLY = /^\d+ test steps? failed\.?$/;
/** pytest's errors outside a test's body, reported as `<error>`. */
const OUTSIDE_BODY = /^(?:failed on (?:setup|teardown)\b|collection failure)/;
/** pytest's long traceback ends `path/to/test_x.py:12: AssertionError`. */
const PY_PLACE = /^(\S(?:.*?\S)?\.py):(\d+): \w[\w.]*$/;
/** A Java stack frame: `at pkg.Class.method(File.java:16)`. */
const JAVA_FRAME =
  /^\s*at (?:[\w.$]+\/)?([\w.$<>]+)\.([\w$<>]+)\(([\w$]+\.(?:java|kt|scala|groovy)):(\d+)\)$/;

/** A line of a code frame (Jest's, Babel's): `    > 3 |   if (…)`, `      |     ^`. */
const CODE_FRAME = /^\s*(?:>\s*)?\d*\s\|/;

/** Where a failure's text turns into its stack (the first `at …` frame line), or its end. */
function stackStart(body: string): number {
  const m = /^\s+at \S/m.exec(body);
  return m ? m.index : body.length;
}

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** XML's escapes undone: the five named entities and numeric references. */
export function unescapeXml(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|lt|gt|amp|quot|apos);/g, (_, e: string) => {
    if (e[0] !== "#") return ENTITIES[e];
    const code = e[1] === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return String.fromCodePoint(code);
  });
}

function attributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(ATTRIBUTE)) out.set(m[1], unescapeXml(m[2] ?? m[3]));
  return out;
}

interface Failed {
  testcase: Map<string, string>;
  element: "failure" | "error";
  attrs: Map<string, string>;
  body: string;
}

/** One document read from `text`: its failed test cases, and the offset where it ended. */
function parseDocument(
  text: string,
  from: number,
): { failed: Failed[]; end: number; open: boolean } {
  const failed: Failed[] = [];
  const stack: string[] = [];
  let testcase: Map<string, string> | undefined;
  let current: Failed | undefined;
  let pos = from;
  while (pos < text.length) {
    const lt = text.indexOf("<", pos);
    const between = text.slice(pos, lt === -1 ? text.length : lt);
    const inText = stack.length > 0 && TEXT_ELEMENTS.has(stack[stack.length - 1]);
    if (inText) {
      if (current && stack[stack.length - 1] === current.element) current.body += between;
    } else if (between.trim() !== "") {
      // Text where only elements may stand: the document ended before it.
      return { failed, end: pos, open: false };
    }
    if (lt === -1) return { failed, end: text.length, open: stack.length > 0 };
    pos = lt;
    if (text.startsWith("<![CDATA[", pos)) {
      const close = text.indexOf("]]>", pos);
      if (close === -1) return { failed, end: text.length, open: true };
      if (current && stack[stack.length - 1] === current.element) {
        current.body += text.slice(pos + 9, close);
      }
      pos = close + 3;
      continue;
    }
    if (text.startsWith("<!--", pos) || text.startsWith("<?", pos)) {
      const close = text.indexOf(text[pos + 1] === "!" ? "-->" : "?>", pos);
      if (close === -1) return { failed, end: text.length, open: true };
      pos = close + (text[pos + 1] === "!" ? 3 : 2);
      continue;
    }
    TAG.lastIndex = pos;
    const tag = TAG.exec(text);
    if (!tag) {
      // An unfinished tag at the end of what was joined, else not XML at all.
      if (text.indexOf(">", pos) === -1) return { failed, end: text.length, open: true };
      if (inText) {
        if (current && stack[stack.length - 1] === current.element) current.body += "<";
        pos++;
        continue;
      }
      return { failed, end: pos, open: false };
    }
    pos = TAG.lastIndex;
    const [, closing, name, attrText, selfClosing] = tag;
    if (closing) {
      const at = stack.lastIndexOf(name);
      if (at === -1) return { failed, end: pos, open: false };
      stack.length = at;
      if (name === "testcase") testcase = undefined;
      if (current && name === current.element) current = undefined;
      if (stack.length === 0) return { failed, end: pos, open: false };
      continue;
    }
    if (stack.length > 0 && TEXT_ELEMENTS.has(stack[stack.length - 1])) continue;
    const attrs = attributes(attrText);
    if (name === "testcase") testcase = attrs;
    if ((name === "failure" || name === "error") && testcase) {
      current = { testcase, element: name, attrs, body: "" };
      failed.push(current);
      if (selfClosing) current = undefined;
    }
    if (!selfClosing) stack.push(name);
    else if (stack.length === 0) return { failed, end: pos, open: false };
  }
  return { failed, end: pos, open: stack.length > 0 };
}

/** A frame's file as a path: a `file://` URL decoded. */
function framePath(file: string): string {
  if (!file.startsWith("file://")) return file;
  try {
    return decodeURIComponent(file.slice(7));
  } catch {
    return file.slice(7);
  }
}

/** Where the failure happened: a frame of the test's own method or file, pytest's last place, else the element's file and line. */
function placeOf(f: Failed, bodyLines: string[]): string | undefined {
  const cls = f.testcase.get("classname") ?? "";
  const name = f.testcase.get("name") ?? "";
  let ownClass: string | undefined;
  let python: string | undefined;
  const frames: Frame[] = [];
  for (const line of bodyLines) {
    const java = JAVA_FRAME.exec(line);
    if (java) {
      const here = `${java[3]}:${java[4]}`;
      if (java[1] === cls && java[2] === name) return here;
      if (java[1] === cls) ownClass ??= here;
      continue;
    }
    const py = PY_PLACE.exec(line);
    if (py) {
      python = `${py[1]}:${py[2]}`;
      continue;
    }
    const js = jsFrame(line);
    if (js) frames.push(js);
  }
  // A JavaScript failure is placed at the test file's frame (Jest's stack starts in the code under test).
  const js = pickFrame(frames);
  const script = js ? `${framePath(js.file)}:${js.line}:${js.col}` : undefined;
  const here = ownClass ?? python ?? script;
  if (here) return here;
  const file = f.testcase.get("file");
  const line = f.testcase.get("line");
  return file ? (line ? `${file}:${line}` : file) : undefined;
}

/**
 * The test's name as the runner's own report gives it, so a log holding both agrees: pytest's
 * `file.py::Class::test` (its classname is the module's dotted path), a path's tests by their
 * name within the file, and otherwise JUnit's `Class.method`.
 */
function nameOf(f: Failed, place: string | undefined): { test: string; file?: string } {
  const cls = f.testcase.get("classname") ?? "";
  const name = f.testcase.get("name") ?? "";
  if (!cls) return { test: name };
  const py = place ? /^(.*\.py):\d+$/.exec(place) : null;
  if (py) {
    const module = py[1].replace(/^\.\//, "").replace(/\.py$/, "").replaceAll("/", ".");
    if (cls === module || cls.startsWith(module + ".")) {
      const inner = cls.slice(module.length + 1);
      return { test: [py[1], ...(inner ? inner.split(".") : []), name].join("::") };
    }
  }
  if (/[/\\]|\.[cm]?[jt]sx?$/.test(cls)) return { test: name, file: cls };
  if (name.startsWith(cls)) return { test: name };
  return { test: `${cls}.${name}` };
}

/** A failed test case as a finding whose block starts at line `at` (its document's first). */
function toFinding(f: Failed, at: number): Finding | undefined {
  const message = (f.attrs.get("message") ?? "").trim();
  const type = f.attrs.get("type") ?? "";
  const body = unescapeXml(f.body);
  const bodyLines = body.split("\n");
  if (GROUP_ONLY.test(message) || GROUP_ONLY.test(body.trim())) return undefined;
  // Without a message attribute (jest-junit) the body is the message, its code frame and its stack:
  // the message is what comes before the stack.
  const text = message || body.slice(0, stackStart(body));
  const messageLines = text.split("\n").map((l) => l.trimEnd()).filter((l) =>
    l.trim() !== "" && !CODE_FRAME.test(l)
  );
  let first = (messageLines[0] ?? f.element).replace(/^Uncaught /, "");
  // Surefire's message leaves out the exception's type, which names what went wrong.
  const shortType = type.split(".").pop() ?? "";
  if (shortType && !first.includes(shortType) && f.element === "error") {
    first = `${shortType}: ${first}`;
  }
  const place = placeOf(f, bodyLines);
  const { test, file } = nameOf(f, place);
  // The message's further lines hold the values (deno's `1 !== 0`, pytest's `+  where …`).
  const detail = messageLines.slice(1);
  const kind = f.element === "error" && OUTSIDE_BODY.test(message) ? "error" : "test_failure";
  return finding(kind, first, { location: place, test, file, detail, at });
}

function readJunit(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const groupOf = new Map<Finding, string>();
  const shape = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    if (shape.lead[i] !== LESS_THAN || ctx.explained(i)) continue;
    const line = lines[i];
    const start = line.search(/<testsuites?[\s>]|<testcase[\s>]/);
    if (start === -1) continue;
    let span = FIRST_SPAN;
    let doc: ReturnType<typeof parseDocument>;
    let text: string;
    for (;;) {
      const to = Math.min(lines.length, i + span);
      text = lines.slice(i, to).join("\n");
      doc = parseDocument(text, start);
      if (!doc.open || to === lines.length || span >= MAX_SPAN) break;
      span *= 2;
    }
    const found = doc.failed.map((f) => toFinding(f, i)).filter((f): f is Finding =>
      f !== undefined
    );
    // Suites of one name in two files (jest-junit names a suite by its describe): the file where
    // each failed tells tests of one name apart.
    for (const f of found) {
      if (!f.file && f.location) groupOf.set(f, f.location.replace(/(?::\d+){1,2}$/, ""));
    }
    let last = i;
    for (let k = text.indexOf("\n"); k !== -1 && k < doc.end; k = text.indexOf("\n", k + 1)) last++;
    // Only a document that held a test case counts: a lone tag in a program's output is not a report.
    if (doc.failed.length === 0 && !/<testcase[\s>]/.test(text.slice(start, doc.end))) continue;
    out.push(...found);
    ctx.explain(i, last);
    i = last;
  }
  return nameApart(out, groupOf);
}

export const junit: Reader = { name: "junit", read: readJunit };
