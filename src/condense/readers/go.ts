/**
 * go build, go vet and go test: diagnostics under a `# package` heading
 * (`./calc.go:6:21: message`), `--- FAIL: TestName (0.00s)` with the test's
 * `file_test.go:13: …` log lines (after the heading, or before it with -v),
 * subtests (`TestTable/two`), and panics with the first frame in the
 * project's own code.
 */
import { type Finding, finding } from "../findings.ts";
import { indentOf } from "../text.ts";
import { NO_CONTEXT, type ReadContext, type Reader } from "./reader.ts";

const PACKAGE = /^# (\S+)(?: \[.*\])?$/;
const DIAG = /^(?:vet: )?(\.{0,2}\/?[^\s:]+\.go):(\d+)(?::(\d+))?: (.*)$/;
const RUN = /^=== (?:RUN|CONT|PAUSE|NAME)\s+(\S+)$/;
const FAIL = /^(\s*)--- FAIL: (\S+) \(([\d.]+s)\)$/;
const PASS = /^\s*--- (?:PASS|SKIP): \S+ \([\d.]+s\)$/;
const LOG = /^\s+([^\s:]+\.go):(\d+): (.*)$/;
const PKG_RESULT = /^(?:ok|FAIL|\?)\s+\S+(?:\s+(?:[\d.]+s|\[.*\]|\(cached\)))*\s*$|^(?:FAIL|PASS|ok)$/;
const PANIC = /^panic: (.*?)(?: \[recovered\])?$/;

export function readGo(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const logs = new Map<string, { loc: string; msg: string }[]>();
  const failed: string[] = [];
  let running: string | undefined;
  let lastFail: { name: string; indent: number } | undefined;
  let inPackage = false;
  const addLog = (name: string, loc: string, msg: string) => {
    const list = logs.get(name) ?? [];
    list.push({ loc, msg });
    logs.set(name, list);
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const pkg = PACKAGE.exec(line);
    if (pkg) {
      inPackage = true;
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
        out.push(finding("error", message, { location: `${d[1]}:${d[2]}${d[3] ? ":" + d[3] : ""}`, detail }));
        continue;
      }
      if (!/^\s/.test(line)) inPackage = false;
    }
    const run = RUN.exec(line);
    if (run) {
      running = run[1];
      lastFail = undefined;
      ctx.explain(i);
      continue;
    }
    const f = FAIL.exec(line);
    if (f) {
      ctx.explain(i);
      if (!failed.includes(f[2])) failed.push(f[2]);
      lastFail = { name: f[2], indent: f[1].length };
      continue;
    }
    if (PASS.test(line)) {
      ctx.explain(i);
      lastFail = undefined;
      continue;
    }
    const log = LOG.exec(line);
    if (log) {
      const owner = lastFail && indentOf(line) > lastFail.indent ? lastFail.name : running;
      if (owner) {
        ctx.explain(i);
        const body = [log[3]];
        // t.Errorf text with newlines continues on more-indented lines.
        const ind = indentOf(line);
        while (i + 1 < lines.length && indentOf(lines[i + 1]) > ind && !LOG.test(lines[i + 1]) && lines[i + 1].trim() !== "") {
          body.push(lines[++i].trim());
          ctx.explain(i);
        }
        addLog(owner, `${log[1]}:${log[2]}`, body.join(" "));
      }
      continue;
    }
    const p = PANIC.exec(line);
    if (p) {
      const owner = lastFail?.name ?? running;
      let j = i + 1;
      let loc: string | undefined;
      let fn = "";
      while (j < lines.length && !PKG_RESULT.test(lines[j]) && !FAIL.test(lines[j]) && !RUN.test(lines[j])) {
        const l = lines[j];
        const frame = /^\t(\S+\.go):(\d+)/.exec(l);
        if (frame && !loc && !/\/src\/(?:runtime|testing)\//.test(frame[1]) && !/^(?:testing|runtime|panic)\b/.test(fn)) {
          loc = `${frame[1]}:${frame[2]}`;
        } else if (!frame) fn = l.trim();
        j++;
      }
      ctx.explain(i, j - 1);
      if (owner) {
        if (!failed.includes(owner)) failed.push(owner);
        addLog(owner, loc ?? "", `panic: ${p[1]}`);
      } else {
        out.push(finding("error", `panic: ${p[1]}`, { location: loc }));
      }
      i = j - 1;
      continue;
    }
    if (PKG_RESULT.test(line)) {
      ctx.explain(i);
      running = undefined;
      lastFail = undefined;
    }
  }
  for (const name of failed) {
    const own = logs.get(name) ?? [];
    // A parent that failed only because a subtest did says nothing of its own.
    if (own.length === 0 && failed.some((other) => other.startsWith(name + "/"))) continue;
    const first = own.find((l) => l.msg.startsWith("panic:")) ?? own[0];
    out.push(
      finding("test_failure", first?.msg ?? "failed", {
        test: name,
        location: first?.loc || undefined,
        detail: own.filter((l) => l !== first).map((l) => `${l.loc}: ${l.msg}`),
      }),
    );
  }
  return out;
}

export const go: Reader = { name: "go", signals: ["--- FAIL", "\n# ", "# ", "panic: "], read: readGo };
