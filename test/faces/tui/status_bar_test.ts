/**
 * wisp-tui's status bar: the row's two halves, the order parts go in when it
 * is narrow, its exact width, the colours the spec gives each part, and the
 * items' focus, keys and actions.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../support/assert.ts";
import type { StatusLine } from "../../../src/faces/chat/protocol.ts";
import { COLOURS, paint } from "../../../src/faces/tui/palette.ts";
import { columns } from "../../../src/faces/tui/columns.ts";
import {
  contextColour,
  focusKeysLine,
  itemAction,
  moveFocus,
  renderStatusRow,
  type StatusItem,
  statusItems,
  workingText,
} from "../../../src/faces/tui/status_bar.ts";
import type { Key } from "../../../src/faces/tui/key.ts";

const PLAIN = paint(false);
const COLOUR = paint(true);
const HOME = "/home/ada";

function status(over: Partial<StatusLine> = {}): StatusLine {
  return {
    type: "status",
    model: "system",
    contextPercent: 15,
    cwd: "/home/ada/src/wisp",
    branch: "main",
    added: 3,
    removed: 1,
    approvalMode: "approve at moderate",
    last: { seconds: 3.14, inputTokens: 4009, outputTokens: 79 },
    ...over,
  };
}

/** The SGR that paints `text` in `colour` as a foreground, then `text`. */
function fgOf(colour: keyof typeof COLOURS, text: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(COLOURS[colour].slice(i, i + 2), 16));
  return `\x1b[38;2;${r};${g};${b}m${text}`;
}

/** The SGR for black text on `colour`, then `text`. */
function buttonOf(colour: keyof typeof COLOURS, text: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(COLOURS[colour].slice(i, i + 2), 16));
  return `\x1b[38;2;0;0;0;48;2;${r};${g};${b}m${text}`;
}

const row = (s: StatusLine | undefined, width: number, focus?: StatusItem) =>
  renderStatusRow(s, null, 0, width, PLAIN, { home: HOME, focus });

Deno.test("status row: the left half at the left edge, the right half at the right edge, exactly the width", () => {
  const line = row(status(), 120);
  assertEquals(columns(line), 120);
  assertMatch(
    line,
    /^system · 15% used · ~\/src\/wisp:main \+3 -1 +approve at moderate · last:3\.1s · ↓4,009 ↑79$/,
  );
});

Deno.test("status row: what waits comes first on the right, each count only when there are some", () => {
  const both = row(status({ waiting: { questions: 1, approvals: 2 } }), 120);
  assertMatch(both, / {2}questions: 1 · approvals: 2 · approve at moderate · last:3\.1s/);
  const approvalsOnly = row(status({ waiting: { questions: 0, approvals: 2 } }), 120);
  assertMatch(approvalsOnly, / {2}approvals: 2 · approve at moderate/);
  assert(!approvalsOnly.includes("questions"), approvalsOnly);
  const none = row(status({ waiting: { questions: 0, approvals: 0 } }), 120);
  assert(!none.includes("questions") && !none.includes("approvals:"), none);
});

Deno.test("status row: parts the status does not know are left out", () => {
  const bare = row(
    status({
      contextPercent: undefined,
      branch: undefined,
      added: undefined,
      removed: undefined,
      last: undefined,
    }),
    80,
  );
  assertMatch(bare, /^system · ~\/src\/wisp +approve at moderate$/);
  // No changes: just the branch. Outside home: the whole path.
  assertMatch(
    row(status({ added: 0, removed: 0, cwd: "/srv/app" }), 80),
    /^system · 15% used · \/srv\/app:main +approve/,
  );
  // The home folder itself is ~.
  assertMatch(row(status({ cwd: HOME }), 80), /^system · 15% used · ~:main \+3 -1 /);
  // A condensed conversation is marked beside the gauge.
  assertMatch(row(status({ condensed: true }), 100), /^system · 15% used \(condensed\) · /);
  // Nothing known yet: an empty row of the width.
  assertEquals(row(undefined, 30), " ".repeat(30));
});

Deno.test("status row: while something runs, the working line replaces the mode and the last turn", () => {
  const since = 1_000_000;
  const running = renderStatusRow(
    status({ waiting: { questions: 0, approvals: 1 } }),
    { kind: "command", text: "running git status", since },
    since + 12_400,
    120,
    PLAIN,
    { home: HOME },
  );
  assertMatch(running, / {2}approvals: 1 · … 12 s · running git status$/);
  assert(!running.includes("approve at moderate"), running);
  assertEquals(
    workingText({ kind: "turn", text: "waiting for the model", since }, since + 125_000),
    "… 2 min 5 s · waiting for the model",
  );
  assertEquals(
    workingText({ kind: "turn", text: "waiting for the model", since, stopping: true }, since),
    "stopping the turn · Ctrl-C again quits",
  );
  assertEquals(
    workingText({ kind: "command", text: "running sleep 100", since, stopping: true }, since),
    "stopping sleep 100 · Ctrl-C again quits",
  );
  // A clock a little behind the start never shows a negative time.
  assertEquals(workingText({ kind: "turn", text: "x", since }, since - 500), "… 0 s · x");
});

Deno.test("status row: when narrow, parts go in the spec's order and what waits stays", () => {
  const s = status({ waiting: { questions: 1, approvals: 2 } });
  // The narrowest row with every part: the two halves two columns apart.
  const fullWidth = columns(row(s, 200).replace(/ {3,}/, "  "));
  assertMatch(row(s, fullWidth), /^system · 15% used · ~\/src\/wisp:main \+3 -1 {2}questions: 1/);
  // Every width from the full row down to a few columns: never wider, and the
  // parts present are always a prefix of the spec's order of going.
  const steps: string[] = [];
  for (let width = fullWidth + 5; width >= 4; width--) {
    const line = row(s, width);
    assertEquals(columns(line), width, `width ${width}: ${JSON.stringify(line)}`);
    const step = line.includes("~/src/wisp") && line.includes("approve at")
      ? "full"
      : line.includes("wisp:main") && line.includes("approve at")
      ? "short directory"
      : line.includes("wisp:main")
      ? "no mode, short directory"
      : line.includes("15% used")
      ? "no directory"
      : line.includes("approvals: 2")
      ? "model and waiting"
      : "cut";
    if (steps.at(-1) !== step) steps.push(step);
  }
  assertEquals(steps, [
    "full",
    "short directory",
    "no mode, short directory",
    "no directory",
    "model and waiting",
    "cut",
  ]);
  // The short directory is the last folder, with its branch and counts.
  assertMatch(
    row(s, fullWidth - 1),
    /^system · 15% used · wisp:main \+3 -1 +questions: 1 · approvals: 2 · approve at moderate/,
  );
  // With only the model and what waits, the model gives way before the counts.
  const tight = row(s, 33);
  assertMatch(tight, /^sys… {2}questions: 1 · approvals: 2$/);
  assertEquals(columns(tight), 33);
});

Deno.test("status row: wide characters count two columns and the row still fits", () => {
  const s = status({
    model: "ollama:模型",
    cwd: "/home/ada/项目/wisp",
    waiting: { questions: 0, approvals: 3 },
  });
  for (const width of [100, 60, 45, 30, 20, 12]) {
    const line = row(s, width);
    assertEquals(columns(line), width, `width ${width}: ${line}`);
  }
  assertMatch(row(s, 120), /^ollama:模型 · 15% used · ~\/项目\/wisp:main/);
});

Deno.test("status row: colours: gauge by how full, amber approvals, tokens read and written, added and removed", () => {
  assertEquals(contextColour(0), "quiet");
  assertEquals(contextColour(49), "quiet");
  assertEquals(contextColour(50), "bright");
  assertEquals(contextColour(80), "bright");
  assertEquals(contextColour(81), "amber");
  const line = renderStatusRow(
    status({ contextPercent: 85, waiting: { questions: 1, approvals: 2 } }),
    null,
    0,
    160,
    COLOUR,
    { home: HOME },
  );
  assertStringIncludes(line, fgOf("amber", "85% used"));
  assertStringIncludes(line, fgOf("amber", "approvals: 2"));
  assertStringIncludes(line, fgOf("tokensRead", "↓4,009"));
  assertStringIncludes(line, fgOf("tokensWritten", "↑79"));
  assertStringIncludes(line, fgOf("added", " +3"));
  assertStringIncludes(line, fgOf("removed", " -1"));
  assertStringIncludes(line, fgOf("bright", ":main"));
  assertEquals(columns(line), 160);
  const half = renderStatusRow(status({ contextPercent: 60 }), null, 0, 160, COLOUR, {});
  assertStringIncludes(half, fgOf("bright", "60% used"));
  const low = renderStatusRow(status({ contextPercent: 10 }), null, 0, 160, COLOUR, {});
  assertStringIncludes(low, fgOf("quiet", "10% used"));
  // With colour off there is no escape at all.
  assert(!row(status({ waiting: { questions: 1, approvals: 2 } }), 160).includes("\x1b"));
});

Deno.test("status row: the focused item is black on its own colour; with colour off, in brackets", () => {
  const s = status({ contextPercent: 85, waiting: { questions: 1, approvals: 2 } });
  const on = (focus: StatusItem) => renderStatusRow(s, null, 0, 160, COLOUR, { home: HOME, focus });
  assertStringIncludes(on("model"), buttonOf("main", " system "));
  assertStringIncludes(on("context"), buttonOf("amber", " 85% used "));
  assertStringIncludes(on("questions"), buttonOf("bright", " questions: 1 "));
  assertStringIncludes(on("approvals"), buttonOf("amber", " approvals: 2 "));
  // Only the focused one is a button.
  assert(!on("approvals").includes(buttonOf("main", " system ")));
  for (const focus of ["model", "context", "questions", "approvals"] as const) {
    assertEquals(columns(on(focus)), 160);
  }
  assertMatch(row(s, 160, "model"), /^\[system\] · 85% used/);
  assertMatch(row(s, 160, "approvals"), /questions: 1 · \[approvals: 2\] · approve/);
  // A focused item cut to fit keeps its padding inside the width.
  for (let width = 8; width < 40; width++) {
    assertEquals(columns(renderStatusRow(s, null, 0, width, COLOUR, { focus: "model" })), width);
  }
});

Deno.test("status items: only those present, and the gauge only when the row draws it", () => {
  assertEquals(statusItems(undefined), []);
  assertEquals(statusItems(status()), ["model", "context"]);
  assertEquals(statusItems(status({ contextPercent: undefined })), ["model"]);
  assertEquals(statusItems(status({ waiting: { questions: 2, approvals: 1 } })), [
    "model",
    "context",
    "questions",
    "approvals",
  ]);
  assertEquals(statusItems(status({ waiting: { questions: 0, approvals: 1 } })), [
    "model",
    "context",
    "approvals",
  ]);
  const s = status({ waiting: { questions: 1, approvals: 2 } });
  assertEquals(statusItems(s, 200), ["model", "context", "questions", "approvals"]);
  // Too narrow for the gauge: the row leaves it out, and so do the items.
  const narrow = 30;
  assert(!row(s, narrow).includes("% used"));
  assertEquals(statusItems(s, narrow), ["model", "questions", "approvals"]);
});

Deno.test("status focus: Left and Right move and stop at the ends, Up and Esc go back to the input", () => {
  const items: StatusItem[] = ["model", "context", "approvals"];
  const key = (name: string, extra: Partial<Extract<Key, { kind: "key" }>> = {}): Key => ({
    kind: "key",
    name,
    ...extra,
  });
  assertEquals(moveFocus(items, "model", key("right")), "context");
  assertEquals(moveFocus(items, "context", key("right")), "approvals");
  assertEquals(moveFocus(items, "approvals", key("right")), "approvals");
  assertEquals(moveFocus(items, "approvals", key("left")), "context");
  assertEquals(moveFocus(items, "model", key("left")), "model");
  assertEquals(moveFocus(items, "context", key("up")), "input");
  assertEquals(moveFocus(items, "context", key("escape")), "input");
  // Other keys leave the focus where it is.
  assertEquals(moveFocus(items, "context", key("down")), "context");
  assertEquals(moveFocus(items, "context", { kind: "text", text: "x" }), "context");
  assertEquals(moveFocus(items, "context", key("left", { ctrl: true })), "context");
  // The focused item went (its last question answered elsewhere): the model takes it.
  assertEquals(moveFocus(["model", "context"], "questions", key("down")), "model");
  assertEquals(moveFocus([], "model", key("right")), "input");
});

Deno.test("status focus: the keys line names Enter's action, and Enter's action is a real command or the parked dialog", () => {
  assertEquals(
    focusKeysLine("model"),
    "←/→ move · Enter opens the model picker · Esc or ↑ back to the input",
  );
  assertStringIncludes(focusKeysLine("context"), "Enter shows what fills the context");
  assertStringIncludes(focusKeysLine("questions"), "Enter opens the waiting question");
  assertStringIncludes(focusKeysLine("approvals"), "Enter opens the waiting approval");
  assertEquals(itemAction("model"), { kind: "send", text: "/model" });
  assertEquals(itemAction("context"), { kind: "send", text: "/inspect context" });
  assertEquals(itemAction("questions"), { kind: "open-waiting", waiting: "questions" });
  assertEquals(itemAction("approvals"), { kind: "open-waiting", waiting: "approvals" });
});

Deno.test("status focus: each command an item sends is one the chat knows", async () => {
  const { SLASH_COMMANDS } = await import("../../../src/faces/chat/slash.ts");
  for (const item of ["model", "context"] as const) {
    const action = itemAction(item);
    assert(action.kind === "send");
    const [name, ...args] = action.text.slice(1).split(" ");
    const command = SLASH_COMMANDS.find((c) => c.name === name);
    assert(command, `no /${name}`);
    for (const arg of args) assertStringIncludes(command.usage, arg);
  }
});
