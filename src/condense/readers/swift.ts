/**
 * Swift test output. XCTest prints `/path/FooTests.swift:8: error:
 * -[Module.FooTests testAdd] : XCTAssertEqual failed: …` (Linux:
 * `FooTests.testAdd : …`) and `Test Case '…' failed (0.001 seconds).`;
 * swift-testing prints `✘ Test add() recorded an issue at Foo.swift:8:5: …`
 * (SF Symbols such as U+100084 in place of ✘ on macOS terminals) and
 * `✘ Test add() failed after …`. swift build's diagnostics are the generic
 * compiler form; its `error: fatalError` and `emit-module` lines are summary.
 */
import { type Finding, finding } from "../findings.ts";
import { firstNonJsSpace } from "../text.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import {
  LAST_ASCII,
  LOWER_E,
  OPEN_BRACKET,
  SLASH,
  TAB,
  UPPER_B,
  UPPER_C,
  UPPER_E,
  UPPER_T,
  UPPER_W,
} from "../chars.ts";

const XC_ISSUE = /^(\S+\.swift):(\d+): error: (-\[\S+ \S+\]|[\w.]+) : (.*)$/;
const XC_CASE =
  /^Test Case '(-\[\S+ \S+\]|[^']+)' (failed|passed|started)(?: \(([\d.]+) seconds\))?\.?$/;
const XC_SUITE =
  /^(?:Test Suite '[^']+' (?:started|passed|failed) at .*|\s*Executed \d+ tests?, with \d+ failures?.*)$/;
// swift-testing marks: ✘ or the private-use SF Symbol it prints on macOS.
const MARK = "(?:✘|✔|◇|↳|􀢄|􀟈|􁁛|􀄵|􀊯|􀙟|􀇾|􀀄)";
const ST_ISSUE = new RegExp(
  `^${MARK} Test (.+?) recorded an issue(?: with \\d+ arguments? .+?)? at (\\S+?:\\d+:\\d+): (.*)$`,
  "u",
);
const ST_ISSUE_NOLOC = new RegExp(`^${MARK} Test (.+?) recorded an issue: (.*)$`, "u");
const ST_FAILED = new RegExp(`^${MARK} Test (.+?) failed after [\\d.]+ seconds.*$`, "u");
const ST_OTHER = new RegExp(
  `^${MARK} (?:Test run|Suite|Test .+? (?:passed|started|skipped)|Testing Library Version|Target Platform)`,
  "u",
);
const BUILD_SUMMARY =
  /^(?:error: (?:fatalError|emit-module command failed.*|compile command failed.*|\d+ errors? generated)|\[\d+\/\d+\] .*|Building for (?:debugging|production)\.\.\.|Build complete!.*|Compiling .*|Write swift-version.*)$/;

function xcName(raw: string): string {
  const m = /^-\[(\S+) (\S+)\]$/.exec(raw);
  return m ? `${m[1]}.${m[2]}` : raw;
}

function readSwift(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const reported = new Set<string>();
  const failedCases: string[] = [];
  const stFailed: string[] = [];
  /** The line each failed case was first reported failed on. */
  const failedAt = new Map<string, number>();
  const { first } = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c0 = first[i];
    // Only lines that start like one of these formats' lines are looked at further.
    // (a mark, /path, Test …, a tab before Executed, error:, [n/m], Build…, Compiling, Write)
    if (
      !(c0 > LAST_ASCII || c0 === SLASH || c0 === UPPER_T || c0 === TAB || c0 === LOWER_E ||
        c0 === OPEN_BRACKET || c0 === UPPER_B ||
        c0 === UPPER_C || c0 === UPPER_W)
    ) continue;
    const line = lines[i];
    // Each pattern is tried only where its fixed part is present (the answers are the same, far cheaper).
    const x = line.includes(".swift:") ? XC_ISSUE.exec(line) : null;
    if (x) {
      ctx.explain(i);
      const test = xcName(x[3]);
      reported.add(test);
      out.push(
        finding("test_failure", x[4].replace(/ - $/, ""), {
          test,
          location: `${x[1]}:${x[2]}`,
          at: i,
        }),
      );
      continue;
    }
    const c = c0 === UPPER_T && line.startsWith("Test Case '") ? XC_CASE.exec(line) : null;
    if (c) {
      ctx.explain(i);
      if (c[2] === "failed") {
        const name = xcName(c[1]);
        failedCases.push(name);
        if (!failedAt.has(name)) failedAt.set(name, i);
      }
      continue;
    }
    if (
      ((line.startsWith("Test Suite '") || firstNonJsSpace(line) === UPPER_E) &&
        XC_SUITE.test(line)) ||
      ((c0 === LOWER_E || c0 === OPEN_BRACKET || c0 === UPPER_B || c0 === UPPER_C ||
        c0 === UPPER_W) && BUILD_SUMMARY.test(line))
    ) {
      ctx.explain(i);
      continue;
    }
    if (c0 <= LAST_ASCII) continue; // the rest are swift-testing's lines, which start with a mark
    const s = ST_ISSUE.exec(line) ?? null;
    if (s) {
      let j = i + 1;
      const detail: string[] = [];
      while (
        j < lines.length && new RegExp(`^(?:${MARK} |\\s+)`, "u").test(lines[j]) &&
        !ST_ISSUE.test(lines[j]) && !ST_FAILED.test(lines[j]) && !ST_OTHER.test(lines[j])
      ) {
        detail.push(lines[j].trim());
        j++;
      }
      ctx.explain(i, j - 1);
      reported.add(s[1]);
      out.push(finding("test_failure", s[3], { test: s[1], location: s[2], detail, at: i }));
      i = j - 1;
      continue;
    }
    const sn = ST_ISSUE_NOLOC.exec(line);
    if (sn) {
      ctx.explain(i);
      reported.add(sn[1]);
      out.push(finding("test_failure", sn[2], { test: sn[1], at: i }));
      continue;
    }
    const f = ST_FAILED.exec(line);
    if (f && !/^run with /.test(f[1])) {
      ctx.explain(i);
      stFailed.push(f[1]);
      if (!failedAt.has(f[1])) failedAt.set(f[1], i);
      continue;
    }
    if (ST_OTHER.test(line)) ctx.explain(i);
  }
  // A case reported failed without an issue line of its own (a crash, a timeout).
  for (const name of [...failedCases, ...stFailed]) {
    if (!reported.has(name)) {
      reported.add(name);
      out.push(finding("test_failure", "failed", { test: name, at: failedAt.get(name) }));
    }
  }
  return out;
}

export const swift: Reader = {
  name: "swift",
  read: readSwift,
};
