/**
 * The controller's routing, on a fake host: what it sends to the engine and
 * prints for each key and line, with a fake clock. The terminal tests
 * (tui_e2e_test.ts) show the same behaviour on a real screen.
 */
import { assert, assertEquals } from "../../support/assert.ts";
import { TuiController } from "../../../src/faces/tui/controller.ts";
import { paint } from "../../../src/faces/tui/palette.ts";
import type { InLine, OutLine } from "../../../src/faces/chat/protocol.ts";
import type { Key } from "../../../src/faces/tui/key.ts";

function setUp() {
  const sent: InLine[] = [];
  const printed: string[] = [];
  let now = 1_000_000;
  const timers: { at: number; fn: () => void }[] = [];
  const controller = new TuiController({
    send: (line) => sent.push(line),
    print: (rows) => printed.push(...rows),
    redraw: () => {},
    now: () => now,
    later: (ms, fn) => {
      const timer = { at: now + ms, fn };
      timers.push(timer);
      return () => timers.splice(timers.indexOf(timer), 1);
    },
  }, { paint: paint(false), size: () => ({ columns: 80, rows: 24 }), shownOutputLines: 4 });
  const type = (text: string) => controller.key({ kind: "text", text });
  const key = (name: string, mods: Partial<Key & { kind: "key" }> = {}) =>
    controller.key({ kind: "key", name, ...mods } as Key);
  const advance = (ms: number) => {
    now += ms;
    for (const t of [...timers].filter((t) => t.at <= now)) {
      timers.splice(timers.indexOf(t), 1);
      t.fn();
    }
  };
  const receive = (line: OutLine) => controller.receive(line);
  const status: OutLine = {
    type: "status",
    model: "ollama:granite4.1:8b",
    cwd: "/tmp/p",
    approvalMode: "approve at moderate",
  };
  receive(status);
  return { controller, sent, printed, type, key, advance, receive };
}

const running = (kind: "turn" | "command" = "turn"): OutLine => ({
  type: "activity",
  activity: { kind, text: kind === "turn" ? "waiting for the model" : "running sleep 9", since: 0 },
});

Deno.test("controller: Enter sends the line as a message and prints it above the band", () => {
  const t = setUp();
  t.type("hello");
  t.key("enter");
  assertEquals(t.sent, [{ type: "message", text: "hello" }]);
  assert(t.printed.some((r) => r.startsWith("› hello")), t.printed.join("\n"));
  assertEquals(t.controller.input.text, "");
});

Deno.test("controller: keys typed while a turn runs are held, Enter is dropped, and they apply when it ends", () => {
  const t = setUp();
  t.receive(running());
  t.type("ab");
  t.key("enter");
  t.type("c");
  assertEquals(t.sent, []);
  assertEquals(t.controller.input.text, "");
  assert(t.controller.band().rows.some((r) => r.includes("3 keys held")));
  t.receive({ type: "activity", activity: null });
  assertEquals(t.controller.input.text, "abc");
  assertEquals(t.sent, []);
});

Deno.test("controller: Ctrl-C interrupts what runs; at rest it clears the line, then leaves with /quit", () => {
  const t = setUp();
  t.receive(running("command"));
  t.key("c", { ctrl: true });
  assertEquals(t.sent, [{ type: "interrupt" }]);
  t.receive({ type: "activity", activity: null });
  t.type("draft");
  t.key("c", { ctrl: true });
  assertEquals(t.controller.input.text, "");
  assertEquals(t.sent.length, 1);
  t.key("c", { ctrl: true });
  assertEquals(t.sent.at(-1), { type: "message", text: "/quit" });
});

const mcpApproval: OutLine = {
  type: "approval",
  id: "a1b2c3d4",
  kind: "command",
  words: "git push",
  source: "mcp",
  level: "moderate",
  command: "git push",
  line: "git push",
  cwd: "/tmp/p",
  reasons: ["sends commits to a remote"],
  pattern: "git push *",
  outsideSandbox: false,
  options: ["once", "session", "project", "always", "no"],
  client: "claude-code",
  thread: "git",
};

Deno.test("controller: an approval from wisp mcp waits while the box has text, opens when it is emptied, and takes keys after the guard", () => {
  const t = setUp();
  t.type("half");
  t.receive(mcpApproval);
  assert(
    t.printed.some((r) => r.includes("⚠ waiting in wisp mcp: git push")),
    t.printed.join("\n"),
  );
  assert(!t.controller.band().rows.some((r) => r.includes("╭")));
  assert(t.controller.band().rows.at(-1)!.includes("approvals: 1"));
  t.key("u", { ctrl: true });
  assert(t.controller.band().rows.some((r) => r.includes("╭")));
  // Inside the guard: the key is the box's, not an answer.
  t.type("y");
  assertEquals(t.sent, []);
  t.advance(600);
  t.type("y");
  assertEquals(t.sent, [{ type: "answer", id: "a1b2c3d4", decision: "once" }]);
  // The key typed in the guard went to the box once the dialog closed.
  assertEquals(t.controller.input.text, "y");
});

Deno.test("controller: a withdrawn dialog closes with a line saying so", () => {
  const t = setUp();
  t.receive({ ...mcpApproval, source: "chat" } as OutLine);
  t.receive({ type: "withdrawn", id: "a1b2c3d4", reason: "answered elsewhere" });
  assert(t.printed.some((r) => r.includes("no longer waiting: answered elsewhere")));
  assert(!t.controller.band().rows.some((r) => r.includes("╭")));
});

Deno.test("controller: Down from an empty box focuses the status bar; Enter on the model asks for the picker", () => {
  const t = setUp();
  t.key("down");
  assert(t.controller.band().rows.some((r) => r.includes("Enter")), "the bar's keys are named");
  t.key("enter");
  assertEquals(t.sent, [{ type: "message", text: "/model" }]);
});

Deno.test("controller: Tab asks for completions and a single one is applied", () => {
  const t = setUp();
  t.type("/mod");
  t.key("tab");
  const asked = t.sent[0] as { type: string; id: string; text: string; cursor: number };
  assertEquals([asked.type, asked.text, asked.cursor], ["complete", "/mod", 4]);
  t.receive({ type: "completions", id: asked.id, from: 0, items: [{ text: "/model" }] });
  assertEquals(t.controller.input.text, "/model");
});

Deno.test("controller: a reply streams into the band and is printed whole when it ends", () => {
  const t = setUp();
  t.receive({ type: "delta", text: "Hello **there**" });
  assert(t.controller.band().rows.some((r) => r.includes("Hello there")));
  t.receive({ type: "delta", text: "" });
  assert(t.printed.some((r) => r.includes("Hello there")));
  assert(!t.controller.band().rows.some((r) => r.includes("Hello there")));
});

Deno.test("controller: Ctrl-O asks for the last output whole; the view opens in the panel and Esc closes it", () => {
  const t = setUp();
  t.receive({
    type: "event",
    event: { kind: "command.typed", id: "e1234567", exitStatus: 0, output: "1\n2\n3\n" },
  });
  t.key("o", { ctrl: true });
  assertEquals(t.sent.at(-1), { type: "output", id: "e1234567", page: 1 });
  t.receive({ type: "view", id: "e1234567", kind: "output", title: "seq", text: "1\n2\n3\n" });
  assert(t.controller.band().rows.some((r) => r.includes("╭")));
  t.key("escape");
  assert(!t.controller.band().rows.some((r) => r.includes("╭")));
});

Deno.test("controller: a model action's dialog names it in words and offers once or no", () => {
  const t = setUp();
  t.receive({
    ...mcpApproval,
    id: "m1",
    kind: "model",
    source: "chat",
    words: "pull model ollama:qwen3:8b (downloads it through the Ollama server)",
    command: "models pull ollama:qwen3:8b",
    line: "models pull ollama:qwen3:8b",
    options: ["once", "no"],
  } as OutLine);
  const rows = t.controller.band().rows.join("\n");
  assert(rows.includes("approve a model action"), rows);
  assert(rows.includes("pull model ollama:qwen3:8b"), rows);
  assert(rows.includes("never remembered"), rows);
  assert(rows.includes("[y]once") && rows.includes("[n]o") && !rows.includes("[s]ession"), rows);
});

Deno.test("controller: a notify line is posted through the host's terminal route", () => {
  const posted: string[] = [];
  const controller = new TuiController({
    send: () => {},
    print: () => {},
    redraw: () => {},
    notify: (title, body) => posted.push(`${title}: ${body}`),
    now: () => 0,
    later: () => () => {},
  }, { paint: paint(false), size: () => ({ columns: 80, rows: 24 }), shownOutputLines: 4 });
  controller.receive({ type: "notify", title: "wisp", body: "approval needed" });
  assertEquals(posted, ["wisp: approval needed"]);
});
