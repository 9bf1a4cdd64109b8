/**
 * wisp-tui's dialogs drawn, with colour off compared row by row with what a
 * person sees at 100, 60 and 30 columns, and with colour on checked for the
 * level's colour and the keys row dim while the guard runs. Every row is
 * exactly the width asked for, wide characters counted as two columns.
 */
import { dialogFor, type OpenDialog } from "../../../src/faces/tui/dialog_queue.ts";
import { GUARD_WORDS, renderDialog } from "../../../src/faces/tui/dialog_view.ts";
import { type ColourName, COLOURS, paint } from "../../../src/faces/tui/palette.ts";
import {
  columns,
  cutToColumns,
  flowLabels,
  wrapToColumns,
} from "../../../src/faces/tui/columns.ts";
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import {
  approvalLine,
  factLine,
  mcpApprovalLine,
  questionLine,
  settingLine,
} from "./dialog_lines.ts";

const HOME = "/home/me";

/** The rows with colour off, the guard over. */
function plain(dialog: OpenDialog, width: number): string[] {
  const rows = renderDialog(dialog, width, paint(false), { live: true, home: HOME });
  for (const row of rows) {
    assertEquals(columns(row), Math.max(30, width), `row too wide or narrow: ${row}`);
  }
  return rows;
}

/** The SGR foreground sequence of a palette colour. */
function fgCode(colour: ColourName): string {
  const hex = COLOURS[colour];
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `\x1b[38;2;${r};${g};${b}m`;
}

/** A long command from wisp mcp with two reasons, one too long for 60 columns. */
const longPush = mcpApprovalLine({
  command:
    "git push origin main --force-with-lease --follow-tags --atomic --verbose --progress --signed=if-asked --push-option=ci.skip",
  reasons: [
    "sends commits to a remote",
    "rewrites history on the remote when the lease holds, which others may have pulled",
  ],
});

Deno.test("a command from wisp mcp at 100 columns: every part on its own row", () => {
  assertEquals(plain(dialogFor(longPush), 100), [
    "╭─ moderate · wisp mcp ────────────────────────────────────────────────────────────────────────────╮",
    "│ git push origin main --force-with-lease --follow-tags --atomic --verbose --progress              │",
    "│ --signed=if-asked --push-option=ci.skip                                                          │",
    "│ line: git fetch && git push origin main                                                          │",
    "│ in: ~/src/wisp                                                                                   │",
    "│ · sends commits to a remote                                                                      │",
    "│ · rewrites history on the remote when the lease holds, which others may have pulled              │",
    "│ remembered as: git push *                                                                        │",
    "│ waiting in wisp mcp for claude-code, thread git                                                  │",
    "│ [y]once [s]ession [p]roject 30d [a]lways 30d [n]o                                                │",
    "╰──────────────────────────────────────────────────────────────────────────────────────────────────╯",
  ]);
});

Deno.test("a command from wisp mcp at 60 columns: the command wraps, a long reason ends in …", () => {
  assertEquals(plain(dialogFor(longPush), 60), [
    "╭─ moderate · wisp mcp ────────────────────────────────────╮",
    "│ git push origin main --force-with-lease --follow-tags    │",
    "│ --atomic --verbose --progress --signed=if-asked          │",
    "│ --push-option=ci.skip                                    │",
    "│ line: git fetch && git push origin main                  │",
    "│ in: ~/src/wisp                                           │",
    "│ · sends commits to a remote                              │",
    "│ · rewrites history on the remote when the lease holds, … │",
    "│ remembered as: git push *                                │",
    "│ waiting in wisp mcp for claude-code, thread git          │",
    "│ [y]once [s]ession [p]roject 30d [a]lways 30d [n]o        │",
    "╰──────────────────────────────────────────────────────────╯",
  ]);
});

Deno.test("a command from wisp mcp at 30 columns: four rows of command, then …; keys flow over rows", () => {
  assertEquals(plain(dialogFor(longPush), 30), [
    "╭─ moderate · wisp mcp ──────╮",
    "│ git push origin main       │",
    "│ --force-with-lease         │",
    "│ --follow-tags --atomic     │",
    "│ --verbose --progress…      │",
    "│ line: git fetch && git pu… │",
    "│ in: ~/src/wisp             │",
    "│ · sends commits to a remo… │",
    "│ · rewrites history on the… │",
    "│ remembered as: git push *  │",
    "│ waiting in wisp mcp for c… │",
    "│ [y]once [s]ession          │",
    "│ [p]roject 30d [a]lways 30d │",
    "│ [n]o                       │",
    "╰────────────────────────────╯",
  ]);
});

const outside = approvalLine({
  outsideSandbox: true,
  level: "dangerous",
  command: "brew upgrade",
  line: "brew upgrade",
  reasons: ["sends commits to a remote"],
  options: ["once", "no"],
});

Deno.test("outside the sandbox: its own title, never remembered, only once and no", () => {
  assertEquals(plain(dialogFor(outside), 60), [
    "╭─ approve OUTSIDE the sandbox (dangerous) ────────────────╮",
    "│ brew upgrade                                             │",
    "│ in: ~/src/wisp                                           │",
    "│ · sends commits to a remote                              │",
    "│ never remembered                                         │",
    "│ [y]once [n]o                                             │",
    "╰──────────────────────────────────────────────────────────╯",
  ]);
  assertEquals(plain(dialogFor(outside), 30), [
    "╭─ approve OUTSIDE the san… ─╮",
    "│ brew upgrade               │",
    "│ in: ~/src/wisp             │",
    "│ · sends commits to a remo… │",
    "│ never remembered           │",
    "│ [y]once [n]o               │",
    "╰────────────────────────────╯",
  ]);
});

Deno.test("a fact to keep at 60 and 30 columns", () => {
  assertEquals(plain(dialogFor(factLine()), 60), [
    "╭─ keep as a permanent fact? · wisp mcp ───────────────────╮",
    "│ release codename = BLUE HERON                            │",
    "│ · proposed by model (chat) in thread docs                │",
    "│ waiting in wisp mcp for claude-code, thread docs         │",
    "│ [k]eep [d]rop                                            │",
    "╰──────────────────────────────────────────────────────────╯",
  ]);
  assertEquals(plain(dialogFor(factLine()), 30), [
    "╭─ keep as a permanent fac… ─╮",
    "│ release codename = BLUE    │",
    "│ HERON                      │",
    "│ · proposed by model (chat… │",
    "│ waiting in wisp mcp for c… │",
    "│ [k]eep [d]rop              │",
    "╰────────────────────────────╯",
  ]);
});

const question = questionLine({
  title: "Which config should wisp read first (claude-code, thread git)?",
  typed: true,
});

Deno.test("a question the model asks: its text first, the options, a line to type into", () => {
  assertEquals(plain(dialogFor(question), 60), [
    "╭─ the model asks · wisp mcp ──────────────────────────────╮",
    "│ Which config should wisp read first (claude-code, thread │",
    "│ git)?                                                    │",
    "│ › 1. ~/.wisp                                             │",
    "│   2. ./wisp.json                                         │",
    "│ type: _                                                  │",
    "│ ↑↓ move · Enter chooses · Esc no answer                  │",
    "╰──────────────────────────────────────────────────────────╯",
  ]);
  assertEquals(plain(dialogFor(question), 30), [
    "╭─ the model asks · wisp m… ─╮",
    "│ Which config should wisp   │",
    "│ read first (claude-code,   │",
    "│ thread git)?               │",
    "│ › 1. ~/.wisp               │",
    "│   2. ./wisp.json           │",
    "│ type: _                    │",
    "│ ↑↓ move · Enter chooses    │",
    "│ Esc no answer              │",
    "╰────────────────────────────╯",
  ]);
});

Deno.test("a setting's picker: the value in force selected and marked, digits offered", () => {
  assertEquals(plain(dialogFor(settingLine()), 60), [
    "╭─ approval.threshold ─────────────────────────────────────╮",
    "│   1. safe                                                │",
    "│ › 2. moderate (current)                                  │",
    "│   3. dangerous only                                      │",
    "│ ↑↓ move · 1-9 pick · Enter chooses · Esc no answer       │",
    "╰──────────────────────────────────────────────────────────╯",
  ]);
});

Deno.test("a long picker shows eight options around the selection and how many more", () => {
  const many = settingLine({
    title: "model",
    options: Array.from({ length: 12 }, (_, i) => ({ value: `model-${i + 1}`, current: i === 9 })),
  });
  assertEquals(plain(dialogFor(many), 40), [
    "╭─ model ──────────────────────────────╮",
    "│   ↑ 4 more                           │",
    "│    5. model-5                        │",
    "│    6. model-6                        │",
    "│    7. model-7                        │",
    "│    8. model-8                        │",
    "│    9. model-9                        │",
    "│ › 10. model-10 (current)             │",
    "│   11. model-11                       │",
    "│   12. model-12                       │",
    "│ ↑↓ move · 1-9 pick · Enter chooses   │",
    "│ Esc no answer                        │",
    "╰──────────────────────────────────────╯",
  ]);
});

Deno.test("a toggles picker marks what is on", () => {
  const toggles = settingLine({
    title: "models",
    toggles: true,
    options: [{ value: "system", current: true }, { value: "ollama:granite4.1:8b" }],
  });
  assertEquals(plain(dialogFor(toggles), 40), [
    "╭─ models ─────────────────────────────╮",
    "│ › 1. [x] system (current)            │",
    "│   2. [ ] ollama:granite4.1:8b        │",
    "│ ↑↓ move · Space toggles              │",
    "│ Enter sends · Esc no answer          │",
    "╰──────────────────────────────────────╯",
  ]);
});

Deno.test("wide characters count two columns: rows still fit exactly", () => {
  const wide = approvalLine({
    command: "echo 日本語のテキストをここに書きます",
    line: "echo 日本語のテキストをここに書きます",
    reasons: ["写真🙂を送る 日本語のテキストをここに書きます"],
  });
  assertEquals(plain(dialogFor(wide), 30), [
    "╭─ moderate ─────────────────╮",
    "│ echo 日本語のテキストをこ  │",
    "│ こに書きます               │",
    "│ in: ~/src/wisp             │",
    "│ · 写真🙂を送る 日本語のテ… │",
    "│ remembered as: git push *  │",
    "│ [y]once [s]ession          │",
    "│ [p]roject 30d [a]lways 30d │",
    "│ [n]o                       │",
    "╰────────────────────────────╯",
  ]);
});

Deno.test("narrower than 30 columns is drawn at 30", () => {
  assertEquals(plain(dialogFor(outside), 12), plain(dialogFor(outside), 30));
});

Deno.test("a typed answer too long for its row keeps its end in view", () => {
  const dialog = dialogFor(questionLine({ typed: true, options: [] }));
  assert(dialog.kind === "choice");
  const rows = plain({ ...dialog, typed: "the quick brown fox jumps over the lazy dog" }, 30);
  assertEquals(rows[2], "│ type: … over the lazy dog_ │");
});

Deno.test("colour on: the border in the level's colour, the keys row dim in the guard", () => {
  const cases: [OpenDialog, ColourName][] = [
    [dialogFor(approvalLine()), "amber"],
    [dialogFor(approvalLine({ level: "dangerous" })), "ember"],
    [dialogFor(approvalLine({ level: "safe" })), "main"],
    [dialogFor(outside), "outside"],
    [dialogFor(factLine()), "amber"],
  ];
  for (const [dialog, colour] of cases) {
    const live = renderDialog(dialog, 60, paint(true), { live: true, home: HOME });
    const guarded = renderDialog(dialog, 60, paint(true), { live: false, home: HOME });
    assert(
      live[0].startsWith(fgCode(colour)),
      `top border in ${colour}: ${JSON.stringify(live[0])}`,
    );
    assertStringIncludes(live.at(-1)!, fgCode(colour));
    const keysLive = live.at(-2)!;
    assertStringIncludes(keysLive, `${fgCode(colour)}[`);
    // In the guard the keys are dim and the row says, in words, that they answer in a moment.
    const keysGuarded = guarded.slice(-4).join("\n");
    assertStringIncludes(keysGuarded, `\x1b[2m${GUARD_WORDS}`);
    assert(!keysGuarded.includes(`${fgCode(colour)}[`), keysGuarded);
    // Colour changes nothing of the layout: stripped, the rows are the plain ones.
    // deno-lint-ignore no-control-regex
    const stripped = live.map((row) => row.replace(/\x1b\[[0-9;]*m/g, ""));
    assertEquals(stripped, plain(dialog, 60));
  }
});

Deno.test("text fitting: truncate, wrap and flow by columns", () => {
  assertEquals(cutToColumns("abcdef", 6), "abcdef");
  assertEquals(cutToColumns("abcdef", 4), "abc…");
  assertEquals(cutToColumns("日本語", 4), "日…");
  assertEquals(wrapToColumns("one two three", 7), ["one two", "three"]);
  assertEquals(wrapToColumns("abcdefghij", 4), ["abcd", "efgh", "ij"]);
  // A word longer than a row starts on the row it follows, rather than leaving it short.
  assertEquals(wrapToColumns("ab cdefghij", 4), ["ab c", "defg", "hij"]);
  assertEquals(wrapToColumns("ab cd efgh", 4), ["ab", "cd", "efgh"]);
  assertEquals(wrapToColumns("a b c d e", 1, 3), ["a", "b", "…"]);
  assertEquals(wrapToColumns("line one\nline two", 20), ["line one line two"]);
  assertEquals(flowLabels(["[y]once", "[n]o"], 12), ["[y]once [n]o"]);
  assertEquals(flowLabels(["[y]once", "[n]o"], 11), ["[y]once", "[n]o"]);
  assertEquals(flowLabels(["a", "b"], 10, " · "), ["a · b"]);
});
