/**
 * Java builds (javac's own `Calc.java:7: error: …` is the generic compiler
 * form, read by compiler.ts with its symbol lines): Maven's compiler plugin (`[ERROR] /…/Calc.java:[7,26] …`,
 * printed twice: the two are one finding), Surefire/Failsafe (per-test
 * `<<< FAILURE!` blocks and the `Failures:`/`Errors:` summary, one finding
 * per test), Gradle's `Class > method() FAILED` lines, and the build's own
 * failure when nothing more exact explains it.
 */
import { type Finding, finding } from "../findings.ts";
import { hasText } from "../text.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import {
  COLON,
  EXCLAMATION,
  isLower,
  isUpper,
  LOWER_E,
  LOWER_W,
  OPEN_BRACKET,
  SPACE,
  UPPER_D,
} from "../chars.ts";

const MVN_COMPILE = /^\[(ERROR|WARNING)\] (\S+\.(?:java|kt|scala|groovy)):\[(\d+),(\d+)\] (.*)$/;
// A JUnit 5 parameterised invocation keeps its parameter types and index: `discounts(long, int)[2]`.
const SUREFIRE_3 =
  /^\[ERROR\] ([\w.$]+)\.([\w$]+)(\([^)]*\))?(\[\d+\])?\s+(?:--|Time elapsed:).*<<< (FAILURE|ERROR)!$/;
const SUREFIRE_2 = /^([\w$]+)\(([\w.$]+)\)\s+Time elapsed: .*<<< (FAILURE|ERROR)!$/;
const SUMMARY_ENTRY = /^\[ERROR\]\s{2,}([\w$]+)\.([\w$]+):(\d+)(?:->\S+)? (.*)$/;
const SUMMARY_ENTRY_NO_LINE = /^\[ERROR\]\s{2,}([\w.$]+)\.([\w$]+)(?:\(\))? (.*)$/;
const GRADLE = /^([\w.$]+) > (.+?) FAILED$/;
const GOAL = /^\[ERROR\] Failed to execute goal (.*)$/;
const STACK = /^\s+at ([\w.$<>]+)\(([\w$]+\.(?:java|kt|scala|groovy)):(\d+)\)$/;
const MVN_NOISE =
  /^\[(?:INFO|WARNING|ERROR)\]\s*(?:$|-> \[Help|To see the full|Re-run Maven|For more information|\[Help \d\]|Please refer to|Tests run:|T E S T S|Results:|Failures:\s*$|Errors:\s*$|COMPILATION ERROR|BUILD (?:FAILURE|SUCCESS)|Total time|Finished at|-{10,}|\d+ errors?\s*$)/;

function simple(cls: string): string {
  return cls.split(".").pop()!.split("$")[0];
}

function readJava(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const tests = new Map<string, Finding>();
  // The summary names a test without its invocation (`PricingTest.discounts:14` for each failed
  // `discounts(long, int)[n]`): each summary entry is the next block of that method not yet claimed.
  const claimed = new Set<Finding>();
  let goal: string | undefined;
  let goalAt = 0;
  const addSummary = (cls: string, method: string, f: Finding) => {
    const base = `${simple(cls)}.${method}`;
    const ofMethod = [...tests].filter(([key]) =>
      key === base || key.startsWith(`${base}(`) || key.startsWith(`${base}[`) ||
      key.startsWith(`${base}#`)
    ).map(([, found]) => found);
    // The next invocation not yet claimed; once all are, the summary repeats one (a second run of
    // the same build in the output) and adds nothing.
    const earlier = ofMethod.find((found) => !claimed.has(found)) ?? ofMethod[0];
    if (earlier) {
      claimed.add(earlier);
      earlier.location ??= f.location;
      return;
    }
    claimed.add(f);
    tests.set(`${base}#${tests.size}`, f);
  };
  const addTest = (cls: string, method: string, f: Finding) => {
    const key = `${simple(cls)}.${method}`;
    const earlier = tests.get(key);
    if (!earlier) {
      tests.set(key, f);
      return;
    }
    earlier.location ??= f.location;
    if (earlier.test && f.test && f.test.length > earlier.test.length) earlier.test = f.test;
  };
  const { first, last } = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    const c0 = first[i];
    // [ERROR]/[WARNING]/[INFO] lines; Gradle's "Class > test() FAILED" and Surefire 2's "… <<< FAILURE!" start with a
    // letter and end in D or !. (javac's own "File.java:7: error: …" is the generic compiler form, read there.)
    if (c0 !== OPEN_BRACKET && !isUpper(c0) && !isLower(c0)) continue;
    // Gradle's and Surefire 2's lines end in D or !; Kotlin's start "e: "/"w: "
    if (
      c0 !== OPEN_BRACKET && last[i] !== UPPER_D && last[i] !== EXCLAMATION && c0 !== LOWER_E &&
      c0 !== LOWER_W
    ) continue;
    const line = lines[i];
    if (
      (c0 === LOWER_E || c0 === LOWER_W) && line.charCodeAt(1) === COLON &&
      line.charCodeAt(2) === SPACE
    ) {
      // kotlinc: "e: file:///src/Main.kt:3:5 Unresolved reference: foo" (older: "e: /src/Main.kt: (3, 5): …")
      const k = /^([ew]): (?:file:\/\/)?(\S+?\.kts?)(?::(\d+):(\d+)|: \((\d+), (\d+)\):) (.*)$/
        .exec(line);
      if (k) {
        ctx.explain(i);
        const where = k[3] ? `${k[2]}:${k[3]}:${k[4]}` : `${k[2]}:${k[5]}:${k[6]}`;
        out.push(finding(k[1] === "e" ? "error" : "warning", k[7], { location: where, at: i }));
        continue;
      }
    }
    if (c0 !== OPEN_BRACKET) {
      const last = line.charCodeAt(line.length - 1);
      if (last !== UPPER_D && last !== EXCLAMATION) continue;
    }
    if (!line.startsWith("[") && !hasText(line, ">", " > ") && !line.includes("<<<")) continue;
    if (line.startsWith("[INFO]")) {
      ctx.explain(i); // Maven's progress: accounted for (its failures are [ERROR] lines)
      continue;
    }
    const mc = MVN_COMPILE.exec(line);
    if (mc) {
      const detail: string[] = [];
      let j = i + 1;
      while (
        j < lines.length &&
        /^(?:\[ERROR\])?\s+(?:symbol|location|required|found|reason):/.test(lines[j])
      ) {
        detail.push(lines[j].replace(/^\[ERROR\]/, "").trim());
        j++;
      }
      ctx.explain(i, j - 1);
      out.push(
        finding(mc[1] === "ERROR" ? "error" : "warning", mc[5], {
          location: `${mc[2]}:${mc[3]}:${mc[4]}`,
          detail,
          at: i,
        }),
      );
      i = j - 1;
      continue;
    }
    const s3 = SUREFIRE_3.exec(line);
    const s2 = s3 ? null : SUREFIRE_2.exec(line);
    if (s3 || s2) {
      // `()` is no parameter list; a parameterised invocation's `(long, int)[2]` stays in its name
      const invocation = s3 ? `${s3[3] === "()" ? "" : s3[3] ?? ""}${s3[4] ?? ""}` : "";
      const [cls, method] = s3 ? [s3[1], s3[2] + invocation] : [s2![2], s2![1]];
      let j = i + 1;
      while (j < lines.length && lines[j].trim() !== "" && !lines[j].startsWith("[")) j++;
      ctx.explain(i, j - 1);
      const body = lines.slice(i + 1, j);
      const frame = body.map((l) => STACK.exec(l)).find((m) => m && m[1].startsWith(`${cls}.`)) ??
        body.map((l) => STACK.exec(l)).find((m) =>
          m && !/^(?:java|javax|jdk|sun|org\.junit|org\.opentest4j|junit)\./.test(m[1])
        );
      const text = body.filter((l) => !/^\s+at /.test(l) && l.trim() !== "").map((l) => l.trim());
      // An exception whose message starts on the next line (`MultipleFailuresError: ` then
      // `label (2 failures)`) is read with that line.
      const message = text[0]?.endsWith(":") && text[1] !== undefined
        ? `${text[0]} ${text[1]}`
        : text[0] ?? "failed";
      addTest(
        cls,
        method,
        finding("test_failure", message, {
          test: `${cls}.${method}`,
          location: frame ? `${frame[2]}:${frame[3]}` : undefined,
          at: i,
        }),
      );
      i = j - 1;
      continue;
    }
    const se = SUMMARY_ENTRY.exec(line);
    if (se) {
      ctx.explain(i);
      let j = i + 1;
      while (
        j < lines.length && /^\[ERROR\]\s{3,}\S/.test(lines[j]) && !SUMMARY_ENTRY.test(lines[j])
      ) j++;
      ctx.explain(i, j - 1);
      addSummary(
        se[1],
        se[2],
        finding("test_failure", se[4], {
          test: `${se[1]}.${se[2]}`,
          location: `${simple(se[1])}.java:${se[3]}`,
          at: i,
        }),
      );
      i = j - 1;
      continue;
    }
    const sn = SUMMARY_ENTRY_NO_LINE.exec(line);
    if (
      sn && !/^\[ERROR\]\s+(?:Run \d|Tests run)/.test(line) && /[a-z]/.test(sn[2]) && tests.size > 0
    ) {
      ctx.explain(i);
      addSummary(
        sn[1],
        sn[2],
        finding("test_failure", sn[3], { test: `${sn[1]}.${sn[2]}`, at: i }),
      );
      continue;
    }
    const g = GRADLE.exec(line);
    if (g) {
      let j = i + 1;
      const body: string[] = [];
      while (j < lines.length && /^\s{4}\S/.test(lines[j])) body.push(lines[j++].trim());
      ctx.explain(i, j - 1);
      const at = body.map((l) => / at (\S+\.(?:java|kt|groovy|scala)):(\d+)$/.exec(l)).find(
        Boolean,
      );
      const method = g[2].replace(/\(\)$/, "");
      addTest(
        g[1],
        method,
        finding("test_failure", body[0]?.replace(/ at \S+:\d+$/, "") ?? "failed", {
          test: `${g[1]}.${method}`,
          location: at ? `${at[1]}:${at[2]}` : undefined,
          at: i,
        }),
      );
      i = j - 1;
      continue;
    }
    const gl = GOAL.exec(line);
    if (gl) {
      ctx.explain(i);
      if (goal === undefined) {
        goal = gl[1];
        goalAt = i;
      }
      continue;
    }
    if (MVN_NOISE.test(line)) ctx.explain(i);
  }
  out.push(...tests.values());
  if (out.every((f) => f.kind !== "error" && f.kind !== "test_failure") && goal) {
    out.push(finding("error", `Failed to execute goal ${goal}`, { at: goalAt }));
  }
  return out;
}

export const java: Reader = {
  name: "java",
  read: readJava,
};
