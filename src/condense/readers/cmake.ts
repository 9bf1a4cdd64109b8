/**
 * CMake's own messages: `CMake Error at CMakeLists.txt:3 (find_package):`
 * (also `CMake Warning`, `CMake Warning (dev)`, `CMake Deprecation Warning`,
 * `CMake Error in file:` from the generate step, and `CMake Error:` with no
 * place), each followed by its text indented two spaces. One finding per
 * message: the first paragraph of the text as its message, the rest of it
 * (and the `Call Stack` CMake prints for a nested call) as detail.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { DASH, UPPER_C } from "../chars.ts";

const HEAD =
  /^CMake (Error|Warning|Warning \(dev\)|Deprecation Warning|Deprecation Error)(?: (?:at|in) (.+?)(?::(\d+))?(?: \(([\w]+)\))?)?:\s*(.*)$/;
const DONE = /^-- (?:Configuring incomplete, errors occurred!|Generating done|Configuring done)/;

function readCmake(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const { first } = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c = first[i];
    if (c === DASH) {
      // "-- Configuring …" / "-- Generating …": tested by their start before the pattern.
      if ((lines[i].startsWith("-- C") || lines[i].startsWith("-- G")) && DONE.test(lines[i])) {
        ctx.explain(i);
      }
      continue;
    }
    if (c !== UPPER_C || !lines[i].startsWith("CMake ")) continue;
    const m = HEAD.exec(lines[i]);
    if (!m) continue;
    // The text: indented lines and blank lines between them, up to the next line at the margin.
    let j = i + 1;
    while (j < lines.length && (lines[j] === "" || lines[j].startsWith(" "))) j++;
    while (j > i + 1 && lines[j - 1].trim() === "") j--;
    ctx.explain(i, j - 1);
    const body = lines.slice(i + 1, j).map((l) => l.trim());
    const blank = body.indexOf("");
    const paragraph = (blank < 0 ? body : body.slice(0, blank)).join(" ");
    const message = [m[5], paragraph].filter((x) => x !== "").join(" ") ||
      `CMake ${m[1].toLowerCase()}`;
    const kind = m[1].endsWith("Error") ? "error" : "warning";
    out.push(
      finding(kind, message, {
        location: m[2] ? (m[3] ? `${m[2]}:${m[3]}` : m[2]) : undefined,
        detail: blank < 0 ? [] : body.slice(blank + 1),
        at: i,
      }),
    );
    i = j - 1;
  }
  return out;
}

export const cmake: Reader = { name: "cmake", read: readCmake };
