/**
 * The approval dialog at a terminal: its lines and key line (pure), the one
 * reader of standard input under it (a scripted source), and, in a real
 * terminal (tmux), `wisp triage -- cmd` answered with a single key — `s`
 * runs the command, `n` refuses it — while a piped stdin can never answer.
 */
import {
  answeredLine,
  answerOf,
  dialogLines,
  keyLine,
  offered,
  TerminalApprovalHost,
} from "../../../src/faces/terminal/approval_dialog.ts";
import { type InputSource, keyOf, TerminalInput } from "../../../src/faces/terminal/input.ts";
import type { ApprovalRequest } from "../../../src/gate/gate.ts";
import { palette } from "../../../src/cli/io.ts";
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { Terminal, tmuxAvailable } from "../../support/tmux.ts";
import { runWisp, tempDir } from "../../support/wisp.ts";

function request(over: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    id: "a1b2c3d4",
    line: "git add . && git commit -m wip",
    command: "git commit -m wip",
    level: "moderate",
    reasons: ["writes the repository (git commit)"],
    cwd: "/srv/project",
    pattern: "git commit *",
    outsideSandbox: false,
    rememberable: ["once", "session", "project", "always", "no"],
    ...over,
  };
}

/** An input whose reads return the given chunks in order, then the end. */
class Scripted implements InputSource {
  raw: boolean[] = [];
  constructor(private chunks: string[]) {}
  read(buffer: Uint8Array): Promise<number | null> {
    const next = this.chunks.shift();
    if (next === undefined) return Promise.resolve(null);
    const bytes = new TextEncoder().encode(next);
    buffer.set(bytes);
    return Promise.resolve(bytes.length);
  }
  setRaw(raw: boolean): void {
    this.raw.push(raw);
  }
}

Deno.test("the key line offers what the gate may remember; outside the sandbox only once and no", () => {
  assertEquals(keyLine(offered(request())), "[y]once [s]ession [p]roject 30d [a]lways 30d [n]o");
  assertEquals(
    keyLine(offered(request({ level: "dangerous", rememberable: ["once", "session", "no"] }))),
    "[y]once [s]ession [n]o",
  );
  assertEquals(keyLine(offered(request({ outsideSandbox: true }))), "[y]once [n]o");
});

Deno.test("keys: y s p a n answer, Enter Ctrl-C Ctrl-D and the end refuse, others wait", () => {
  const all = offered(request());
  const key = (s: string) => keyOf(new TextEncoder().encode(s));
  assertEquals(answerOf(key("y"), all), "once");
  assertEquals(answerOf(key("S"), all), "session");
  assertEquals(answerOf(key("p"), all), "project");
  assertEquals(answerOf(key("a"), all), "always");
  assertEquals(answerOf(key("n"), all), "no");
  assertEquals(answerOf(key("\r"), all), "no");
  assertEquals(answerOf(key("\x03"), all), "no");
  assertEquals(answerOf(key("\x04"), all), "no");
  assertEquals(answerOf({ kind: "end" }, all), "no");
  assertEquals(answerOf(key("x"), all), undefined);
  assertEquals(answerOf(key("\x1b[A"), all), undefined);
  // A key not offered is not an answer: p for a command outside the sandbox waits.
  assertEquals(answerOf(key("p"), offered(request({ outsideSandbox: true }))), undefined);
});

Deno.test("the dialog shows level, command, whole line, directory, reasons, pattern", () => {
  const lines = dialogLines(request(), palette(false)).join("\n");
  assertStringIncludes(lines, "⚠ moderate: git commit -m wip");
  assertStringIncludes(lines, "line: git add . && git commit -m wip");
  assertStringIncludes(lines, "in: /srv/project");
  assertStringIncludes(lines, "· writes the repository (git commit)");
  assertStringIncludes(lines, "remembered as: git commit *");
  const outside = dialogLines(
    request({ outsideSandbox: true, line: "brew upgrade", command: "brew upgrade" }),
    palette(false),
  ).join("\n");
  assertStringIncludes(outside, "⚠ approve OUTSIDE the sandbox");
  assertStringIncludes(outside, "never remembered");
  assert(!outside.includes("line:"), outside);
  const long = dialogLines(request({ reasons: ["x".repeat(300)] }), palette(false));
  assert(long.every((l) => l.length < 130), long.join("\n"));
});

Deno.test("a model action's dialog names it as what it does, once or no, never remembered", () => {
  const pull = request({
    kind: "modelAction",
    line: "models pull ollama:qwen3:8b",
    command: "models pull ollama:qwen3:8b",
    pattern: "models pull ollama:qwen3:8b",
    reasons: ["downloads a model through Ollama"],
    rememberable: ["once", "no"],
    modelAction: {
      verb: "pull",
      model: "ollama:qwen3:8b",
      reason: "downloads a model through Ollama",
      details: ["downloads it through the Ollama server at http://127.0.0.1:11434"],
    },
  });
  const lines = dialogLines(pull, palette(false));
  assertEquals(
    lines[0],
    "⚠ approve a model action (moderate): pull model ollama:qwen3:8b (downloads it through the Ollama server at http://127.0.0.1:11434)",
  );
  assertStringIncludes(lines.join("\n"), "never remembered: asked every time");
  assert(!lines.join("\n").includes("remembered as:"), lines.join("\n"));
  assertEquals(keyLine(offered(pull)), "[y]once [n]o");
  assertEquals(
    answeredLine("no", pull),
    "⚠ refused: pull model ollama:qwen3:8b (downloads it through the Ollama server at http://127.0.0.1:11434)",
  );
});

Deno.test("the host reads one key in raw mode, ignores keys it does not offer, and writes its answer", async () => {
  const source = new Scripted(["x", "s"]);
  let written = "";
  const host = new TerminalApprovalHost({
    input: new TerminalInput(source),
    write: (t) => (written += t),
    colour: palette(false),
  });
  assertEquals(await host.approve(request()), "session");
  assertStringIncludes(written, "⚠ approved for this session: git commit -m wip");
  // Raw mode was switched on for each key and off again after.
  assertEquals(source.raw.at(-1), false);
  assert(source.raw.includes(true));
  // The end of input refuses.
  assertEquals(await host.approve(request()), "no");
});

Deno.test("keys typed before a dialog never answer it; they stay for the next line", async () => {
  const source = new Scripted(["y\n", "n"]);
  const input = new TerminalInput(source);
  // A line read that its caller left: what it brings is held, not lost.
  const stop = new AbortController();
  const line = input.readLine(stop.signal);
  stop.abort();
  assertEquals(await line, undefined);
  await new Promise((r) => setTimeout(r, 0));
  const host = new TerminalApprovalHost({ input, write: () => {}, colour: palette(false) });
  assertEquals(await host.approve(request()), "no");
  assertEquals(await input.readLine(), "y");
});

Deno.test({
  name: "wisp triage -- cmd at a terminal: s runs it, n refuses, piped stdin cannot answer",
  ignore: !tmuxAvailable(),
  fn: async () => {
    const home = await tempDir();
    const project = await tempDir();
    const terminal = new Terminal();
    try {
      await terminal.wisp(
        "yes",
        home,
        ["triage", "--no-model", "--", "touch", "made"],
        undefined,
        project,
      );
      await terminal.waitFor("yes", "[y]once [s]ession [p]roject 30d [a]lways 30d [n]o");
      await terminal.keys("yes", "s");
      const approved = await terminal.waitFor("yes", "EXIT=");
      assertStringIncludes(approved, "⚠ approved for this session: touch made");
      assertStringIncludes(approved, "EXIT=0");
      assert(Deno.statSync(`${project}/made`).isFile);

      await terminal.wisp(
        "no",
        home,
        ["triage", "--no-model", "--", "touch", "refused"],
        undefined,
        project,
      );
      await terminal.waitFor("no", "[n]o");
      await terminal.keys("no", "n");
      const refused = await terminal.waitFor("no", "EXIT=");
      assertStringIncludes(refused, "⚠ refused: touch refused");
      assertStringIncludes(refused, "not approved");
      assertStringIncludes(refused, "EXIT=1");
      let exists = true;
      try {
        Deno.statSync(`${project}/refused`);
      } catch {
        exists = false;
      }
      assert(!exists, "a refused command ran");

      // Piped, a "y" on stdin is no answer: the gate refuses and points at --yes.
      const piped = await runWisp(["triage", "--no-model", "--", "touch", "piped"], {
        home,
        cwd: project,
        stdin: "y\n",
      });
      assertEquals(piped.code, 1, piped.stderr);
      assertStringIncludes(piped.stderr, "--yes");
    } finally {
      await terminal.close();
      await Deno.remove(home, { recursive: true });
      await Deno.remove(project, { recursive: true });
    }
  },
});
