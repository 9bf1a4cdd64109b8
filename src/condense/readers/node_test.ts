/**
 * `node --test` with the spec reporter: the `✖ failing tests:` section
 * (`test at file:line:col`, `✖ name (ms)`, the error and its stack), or,
 * where a Node release prints no such section, the ✖ lines of the tree that
 * carry an error beneath them (a suite's ✖ carries none). Names are the
 * suite path joined with " > ".
 */
import { type Finding, finding } from "../findings.ts";
import { type Frame, indentOf, jsFrame, pickFrame } from "../text.ts";
import { NO_CONTEXT, type ReadContext, type Reader } from "./reader.ts";

const MARK = /^(\s*)(✖|✔|▶|﹣|\*) (.+?)(?: \((?:[\d.]+m?s)\))?(?: # .*)?$/;
const SECTION = /^✖ failing tests:$/;
const TEST_AT = /^test at (\S+?):(\d+):(\d+)$/;
const INFO = /^ℹ (?:tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) /;

interface Failure {
  name: string;
  location?: string;
  message: string;
  detail: string[];
}

function readError(lines: string[], from: number, to: number, testFile?: string): { message: string; detail: string[]; frame?: Frame } {
  const body = lines.slice(from, to);
  const frames = body.map(jsFrame).filter((x): x is Frame => x !== undefined);
  const text = body.filter((l) => l.trim() !== "" && !jsFrame(l) && !/^\s*at /.test(l) && !/^\s+(?:generatedMessage|code|actual|expected|operator):|^\s*[{}]\s*$/.test(l)).map((l) => l.trim());
  return { message: text[0] ?? "failed", detail: text.slice(1, 6), frame: pickFrame(frames, testFile) };
}

export function readNodeTest(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const tree: Failure[] = [];
  const stack: { indent: number; name: string }[] = [];
  let section = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (INFO.test(line)) {
      ctx.explain(i);
      continue;
    }
    if (SECTION.test(line)) {
      section = i;
      break;
    }
    const m = MARK.exec(line);
    if (!m) continue;
    ctx.explain(i);
    const indent = m[1].length;
    while (stack.length > 0 && stack[stack.length - 1].indent >= indent) stack.pop();
    const path = [...stack.map((s) => s.name), m[3]].join(" > ");
    if (m[2] === "▶") {
      stack.push({ indent, name: m[3] });
      continue;
    }
    if (m[2] !== "✖") continue;
    // A failed test has its error indented beneath it; a failed suite does not.
    let j = i + 1;
    while (j < lines.length && (lines[j].trim() === "" || indentOf(lines[j]) > indent) && !MARK.test(lines[j])) j++;
    while (j > i + 1 && lines[j - 1].trim() === "") j--;
    if (j === i + 1) continue;
    ctx.explain(i, j - 1);
    const err = readError(lines, i + 1, j);
    tree.push({
      name: path,
      location: err.frame ? `${err.frame.file}:${err.frame.line}:${err.frame.col}` : undefined,
      message: err.message,
      detail: err.detail,
    });
    i = j - 1;
  }
  if (section < 0) return tree.map((t) => finding("test_failure", t.message, { test: t.name, location: t.location, detail: t.detail }));
  ctx.explain(section);
  const out: Finding[] = [];
  for (let i = section + 1; i < lines.length; i++) {
    const at = TEST_AT.exec(lines[i]);
    const m = MARK.exec(lines[at ? i + 1 : i] ?? "");
    if (!m || m[2] !== "✖") continue;
    const head = at ? i + 1 : i;
    let j = head + 1;
    while (j < lines.length && !TEST_AT.test(lines[j]) && !(MARK.test(lines[j]) && indentOf(lines[j]) === 0)) j++;
    ctx.explain(i, j - 1);
    const err = readError(lines, head + 1, j, at?.[1]);
    const full = tree.find((t) => t.name === m[3] || t.name.endsWith(" > " + m[3]))?.name ?? m[3];
    const loc = err.frame ? `${err.frame.file}:${err.frame.line}:${err.frame.col}` : at ? `${at[1]}:${at[2]}:${at[3]}` : undefined;
    out.push(finding("test_failure", err.message, { test: full, location: loc, detail: err.detail }));
    i = j - 1;
  }
  return out;
}

export const nodeTest: Reader = { name: "node-test", signals: ["✖ "], read: readNodeTest };
