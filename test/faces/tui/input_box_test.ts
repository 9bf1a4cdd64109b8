/**
 * wisp-tui's input box (src/faces/tui/input_box.ts): every key, every mode
 * change, what Enter sends, recall with its draft, and the wrapped layout
 * with its sticky height.
 */
import { assertEquals } from "../../support/assert.ts";
import {
  HISTORY_LIMIT,
  type HistoryEntry,
  type InputAction,
  InputBox,
  type InputMode,
} from "../../../src/faces/tui/input_box.ts";
import type { Key } from "../../../src/faces/tui/key.ts";

type Flags = { ctrl?: boolean; alt?: boolean; shift?: boolean };
const key = (name: string, flags: Flags = {}): Key => ({ kind: "key", name, ...flags });
const ctrl = (letter: string): Key => key(letter, { ctrl: true });
const alt = (letter: string): Key => key(letter, { alt: true });
const text = (t: string): Key => ({ kind: "text", text: t });
const paste = (t: string): Key => ({ kind: "paste", text: t });

const EDITED: InputAction = { kind: "edited" };
const NONE: InputAction = { kind: "none" };
const UNHANDLED: InputAction = { kind: "unhandled" };
const FOCUS_STATUS: InputAction = { kind: "focus-status" };
const submit = (message: string): InputAction => ({ kind: "submit", message });

/** Type `typed` one character at a time, as keys come from a person. */
function typeEach(box: InputBox, typed: string): void {
  for (const char of typed) box.apply(text(char));
}

/** The box's text with `|` where the cursor is (in code points), and its mode. */
function shown(box: InputBox): string {
  const chars = Array.from(box.text);
  chars.splice(box.cursor, 0, "|");
  return `${box.mode}:${chars.join("")}`;
}

/** A box holding `typed` with the cursor at code point `cursor` (the end when left out). */
function boxWith(typed: string, cursor?: number, mode: InputMode = "prompt"): InputBox {
  const box = new InputBox();
  box.restore({ mode, text: typed, cursor: cursor ?? Array.from(typed).length });
  return box;
}

function press(box: InputBox, ...keys: Key[]): void {
  for (const k of keys) box.apply(k);
}

// ---- typing and the modes ----

Deno.test("typing inserts at the cursor, which counts code points", () => {
  const box = new InputBox();
  assertEquals(box.isEmpty, true);
  assertEquals(box.apply(text("helo")), EDITED);
  assertEquals(shown(box), "prompt:helo|");
  press(box, key("left"));
  typeEach(box, "l");
  assertEquals(shown(box), "prompt:hell|o");
  press(box, key("end"));
  typeEach(box, " 👍漢");
  assertEquals(shown(box), "prompt:hello 👍漢|");
  assertEquals(box.cursor, 8);
  assertEquals(box.isEmpty, false);
});

Deno.test("! at the start of an empty box enters command mode and is not inserted", () => {
  const box = new InputBox();
  assertEquals(box.apply(text("!")), EDITED);
  assertEquals(shown(box), "command:|");
  typeEach(box, "git status");
  assertEquals(shown(box), "command:git status|");
});

Deno.test("! at the start in command mode enters outside mode; at the start in outside mode it is text", () => {
  const box = new InputBox();
  typeEach(box, "!!");
  assertEquals(shown(box), "outside:|");
  typeEach(box, "!");
  assertEquals(shown(box), "outside:!|");
});

Deno.test("! in front of typed text switches the mode and keeps the text", () => {
  const box = boxWith("ls -la", 0);
  assertEquals(box.apply(text("!")), EDITED);
  assertEquals(shown(box), "command:|ls -la");
  box.apply(text("!"));
  assertEquals(shown(box), "outside:|ls -la");
});

Deno.test("! after other text is text, in every mode", () => {
  for (const mode of ["prompt", "command", "outside"] as const) {
    const box = boxWith("a", 1, mode);
    box.apply(text("!"));
    assertEquals(shown(box), `${mode}:a!|`);
  }
});

Deno.test("several characters arriving as one key step the mode as typing them would", () => {
  const box = new InputBox();
  box.apply(text("!!ls"));
  assertEquals(shown(box), "outside:ls|");
  const other = new InputBox();
  other.apply(text("a!b"));
  assertEquals(shown(other), "prompt:a!b|");
});

Deno.test("Backspace at the start steps back a mode each time, keeping the text; then does nothing", () => {
  const box = boxWith("brew upgrade", 0, "outside");
  assertEquals(box.apply(key("backspace")), EDITED);
  assertEquals(shown(box), "command:|brew upgrade");
  assertEquals(box.apply(key("backspace")), EDITED);
  assertEquals(shown(box), "prompt:|brew upgrade");
  assertEquals(box.apply(key("backspace")), NONE);
  assertEquals(shown(box), "prompt:|brew upgrade");
});

Deno.test("Ctrl-H is Backspace, for the mode step too", () => {
  const box = boxWith("", 0, "command");
  assertEquals(box.apply(ctrl("h")), EDITED);
  assertEquals(shown(box), "prompt:|");
  const other = boxWith("ab");
  other.apply(ctrl("h"));
  assertEquals(shown(other), "prompt:a|");
});

Deno.test("a stray ! costs one Backspace", () => {
  const box = new InputBox();
  typeEach(box, "!");
  press(box, key("backspace"));
  assertEquals(shown(box), "prompt:|");
  assertEquals(box.isEmpty, true);
});

Deno.test("Delete in an empty box steps back a mode; with text it deletes forward and keeps the mode", () => {
  const box = boxWith("", 0, "outside");
  assertEquals(box.apply(key("delete")), EDITED);
  assertEquals(box.mode, "command");
  assertEquals(box.apply(key("delete")), EDITED);
  assertEquals(box.mode, "prompt");
  assertEquals(box.apply(key("delete")), NONE);

  const typed = boxWith("ab", 0, "command");
  assertEquals(typed.apply(key("delete")), EDITED);
  assertEquals(shown(typed), "command:|b");
  press(typed, key("end"));
  assertEquals(typed.apply(key("delete")), NONE);
  assertEquals(shown(typed), "command:b|");
});

Deno.test("a paste at the start steps up a mode per leading !, up to outside; the rest goes in", () => {
  const empty = new InputBox();
  assertEquals(empty.apply(paste("!!brew upgrade")), EDITED);
  assertEquals(shown(empty), "outside:brew upgrade|");

  const command = boxWith("", 0, "command");
  command.apply(paste("!x"));
  assertEquals(shown(command), "outside:x|");

  const many = new InputBox();
  many.apply(paste("!!!x"));
  assertEquals(shown(many), "outside:!x|");

  const one = new InputBox();
  one.apply(paste("!git log"));
  assertEquals(shown(one), "command:git log|");

  const inFront = boxWith(" --short", 0);
  inFront.apply(paste("!git status"));
  assertEquals(shown(inFront), "command:git status| --short");
});

Deno.test("a paste of only ! marks steps the mode and inserts nothing", () => {
  const box = new InputBox();
  assertEquals(box.apply(paste("!!")), EDITED);
  assertEquals(shown(box), "outside:|");
});

Deno.test("a paste after text keeps its ! as text", () => {
  const box = boxWith("echo ");
  box.apply(paste("!!x"));
  assertEquals(shown(box), "prompt:echo !!x|");
});

// ---- Enter ----

Deno.test("Enter sends a prompt as typed, then the box is empty in prompt mode", () => {
  const box = new InputBox();
  typeEach(box, "what is in README.md?");
  assertEquals(box.apply(key("enter")), submit("what is in README.md?"));
  assertEquals(shown(box), "prompt:|");
  assertEquals(box.isEmpty, true);
});

Deno.test("Enter sends a command as !text and returns the box to the prompt", () => {
  const box = new InputBox();
  typeEach(box, "!git status --short");
  assertEquals(box.apply(key("enter")), submit("!git status --short"));
  assertEquals(shown(box), "prompt:|");
});

Deno.test("a command whose text starts with ! is sent as ! !text, to run in the sandbox", () => {
  const box = boxWith("!x", 2, "command");
  assertEquals(box.apply(key("enter")), submit("! !x"));
});

Deno.test("Enter sends an outside command as !!text", () => {
  const box = new InputBox();
  typeEach(box, "!!brew upgrade");
  assertEquals(box.apply(key("enter")), submit("!!brew upgrade"));
  assertEquals(shown(box), "prompt:|");
});

Deno.test("an empty or blank line sends nothing in any mode, and stays as it is", () => {
  for (const mode of ["prompt", "command", "outside"] as const) {
    const empty = boxWith("", 0, mode);
    assertEquals(empty.apply(key("enter")), NONE, mode);
    assertEquals(empty.mode, mode);
    const blank = boxWith("   ", 3, mode);
    assertEquals(blank.apply(key("enter")), NONE, mode);
    assertEquals(shown(blank), `${mode}:   |`);
  }
  assertEquals(new InputBox().history, []);
});

Deno.test("prompt text starting with !! is not sent unseen: Enter shows it in outside mode, a second sends", () => {
  const box = new InputBox();
  typeEach(box, " ");
  box.apply(paste("!!rm -rf build"));
  assertEquals(box.apply(key("enter")), EDITED);
  assertEquals(shown(box), "outside:rm -rf build|");
  assertEquals(box.apply(key("enter")), submit("!!rm -rf build"));
});

Deno.test("prompt text starting with a single ! is shown in command mode first, the same way", () => {
  const box = new InputBox();
  typeEach(box, " ");
  box.apply(paste("!ls"));
  assertEquals(box.apply(key("enter")), EDITED);
  assertEquals(shown(box), "command:ls|");
  assertEquals(box.apply(key("enter")), submit("!ls"));
});

Deno.test("Alt-Enter and Shift-Enter insert a newline; a multi-line message is sent whole", () => {
  const box = new InputBox();
  typeEach(box, "one");
  assertEquals(box.apply(key("enter", { alt: true })), EDITED);
  typeEach(box, "two");
  assertEquals(box.apply(key("enter", { shift: true })), EDITED);
  typeEach(box, "three");
  assertEquals(shown(box), "prompt:one\ntwo\nthree|");
  assertEquals(box.apply(key("enter")), submit("one\ntwo\nthree"));
});

Deno.test("Enter after a \\ replaces the \\ with a newline (Claude Code's convention)", () => {
  const box = new InputBox();
  typeEach(box, "first\\");
  assertEquals(box.apply(key("enter")), EDITED);
  assertEquals(shown(box), "prompt:first\n|");
  typeEach(box, "second");
  assertEquals(box.apply(key("enter")), submit("first\nsecond"));
});

Deno.test("a paste keeps its newlines, made \\n, and drops control characters but tabs", () => {
  const box = new InputBox();
  box.apply(paste("a\r\nb\rc\x07\x1b[31m\td"));
  assertEquals(box.text, "a\nb\nc[31m\td");
});

// ---- readline's keys ----

Deno.test("Ctrl-A and Home go to the start, Ctrl-E and End to the end", () => {
  for (const start of [ctrl("a"), key("home")]) {
    const box = boxWith("hello", 3);
    assertEquals(box.apply(start), EDITED);
    assertEquals(shown(box), "prompt:|hello");
    assertEquals(box.apply(start), NONE);
  }
  for (const end of [ctrl("e"), key("end")]) {
    const box = boxWith("hello", 1);
    assertEquals(box.apply(end), EDITED);
    assertEquals(shown(box), "prompt:hello|");
    assertEquals(box.apply(end), NONE);
  }
});

Deno.test("in a message of several lines, Home and End reach the ends of the cursor's line", () => {
  const box = boxWith("one\ntwo\nthree", 5);
  press(box, key("home"));
  assertEquals(shown(box), "prompt:one\n|two\nthree");
  press(box, ctrl("e"));
  assertEquals(shown(box), "prompt:one\ntwo|\nthree");
  const first = boxWith("\nx", 0);
  assertEquals(first.apply(ctrl("a")), NONE);
  assertEquals(first.cursor, 0);
});

Deno.test("Ctrl-B and Left go back a character, Ctrl-F and Right forward; at the ends nothing", () => {
  for (const back of [ctrl("b"), key("left")]) {
    const box = boxWith("ab", 2);
    assertEquals(box.apply(back), EDITED);
    assertEquals(box.cursor, 1);
    box.apply(back);
    assertEquals(box.apply(back), NONE);
    assertEquals(box.cursor, 0);
  }
  for (const forward of [ctrl("f"), key("right")]) {
    const box = boxWith("ab", 0);
    assertEquals(box.apply(forward), EDITED);
    assertEquals(box.cursor, 1);
    box.apply(forward);
    assertEquals(box.apply(forward), NONE);
    assertEquals(box.cursor, 2);
  }
});

Deno.test("Shift with an arrow moves as the arrow does", () => {
  const box = boxWith("ab", 2);
  press(box, key("left", { shift: true }));
  assertEquals(box.cursor, 1);
});

Deno.test("the cursor steps over a whole grapheme: an accent, an emoji family, a flag", () => {
  const samples = ["e\u0301", "👨‍👩‍👧", "🇫🇷", "漢"];
  for (const grapheme of samples) {
    const box = boxWith(`a${grapheme}b`);
    const codePoints = Array.from(grapheme).length;
    press(box, key("left"));
    assertEquals(box.cursor, 1 + codePoints, grapheme);
    press(box, key("left"));
    assertEquals(box.cursor, 1, grapheme);
    press(box, key("right"));
    assertEquals(box.cursor, 1 + codePoints, grapheme);
    press(box, key("backspace"));
    assertEquals(shown(box), "prompt:a|b", grapheme);
  }
});

Deno.test("word motions: Alt-B, Ctrl-Left and Alt-Left back; Alt-F, Ctrl-Right and Alt-Right forward", () => {
  const sample = "git commit -m 'fix: über'";
  for (const back of [alt("b"), key("left", { ctrl: true }), key("left", { alt: true })]) {
    const box = boxWith(sample);
    const stops: number[] = [];
    while (box.apply(back).kind === "edited") stops.push(box.cursor);
    assertEquals(stops, [20, 15, 12, 4, 0]);
  }
  for (const forward of [alt("f"), key("right", { ctrl: true }), key("right", { alt: true })]) {
    const box = boxWith(sample, 0);
    const stops: number[] = [];
    while (box.apply(forward).kind === "edited") stops.push(box.cursor);
    assertEquals(stops, [3, 10, 13, 18, 24, 25]);
  }
});

Deno.test("Backspace deletes the character before the cursor; at the start of a prompt nothing", () => {
  const box = boxWith("abc", 2);
  assertEquals(box.apply(key("backspace")), EDITED);
  assertEquals(shown(box), "prompt:a|c");
});

Deno.test("Delete deletes the character under the cursor", () => {
  const box = boxWith("abc", 1);
  assertEquals(box.apply(key("delete")), EDITED);
  assertEquals(shown(box), "prompt:a|c");
});

Deno.test("Ctrl-D deletes forward with text; at the end nothing; in an empty box it is the app's", () => {
  const box = boxWith("abc", 1);
  assertEquals(box.apply(ctrl("d")), EDITED);
  assertEquals(shown(box), "prompt:a|c");
  press(box, key("end"));
  assertEquals(box.apply(ctrl("d")), NONE);
  assertEquals(new InputBox().apply(ctrl("d")), UNHANDLED);
  // An empty box in command mode is still empty: Ctrl-D is the app's, not a mode step.
  assertEquals(boxWith("", 0, "command").apply(ctrl("d")), UNHANDLED);
});

Deno.test("Ctrl-K kills to the end, Ctrl-U to the start, and Ctrl-Y yanks it back", () => {
  const box = boxWith("hello world", 5);
  assertEquals(box.apply(ctrl("k")), EDITED);
  assertEquals(shown(box), "prompt:hello|");
  assertEquals(box.apply(ctrl("k")), NONE);
  press(box, key("home"));
  assertEquals(box.apply(ctrl("y")), EDITED);
  assertEquals(shown(box), "prompt: world|hello");
  assertEquals(box.apply(ctrl("u")), EDITED);
  assertEquals(shown(box), "prompt:|hello");
  press(box, key("end"), ctrl("y"));
  assertEquals(shown(box), "prompt:hello world|");
});

Deno.test("Ctrl-K and Ctrl-U stop at the cursor's line in a message of several lines", () => {
  const box = boxWith("one\ntwo\nthree", 5);
  press(box, ctrl("k"));
  assertEquals(shown(box), "prompt:one\nt|\nthree");
  press(box, ctrl("u"));
  assertEquals(shown(box), "prompt:one\n|\nthree");
});

Deno.test("Ctrl-W kills back to the blank before the word, Alt-Backspace to the word's start", () => {
  const w = boxWith("cat src/main.ts  ");
  assertEquals(w.apply(ctrl("w")), EDITED);
  assertEquals(shown(w), "prompt:cat |");

  const altBackspace = boxWith("cat src/main.ts");
  assertEquals(altBackspace.apply(key("backspace", { alt: true })), EDITED);
  assertEquals(shown(altBackspace), "prompt:cat src/main.|");

  assertEquals(boxWith("", 0).apply(ctrl("w")), NONE);
});

Deno.test("Alt-D kills the word after the cursor", () => {
  const box = boxWith("git commit --amend", 3);
  assertEquals(box.apply(alt("d")), EDITED);
  assertEquals(shown(box), "prompt:git| --amend");
  press(box, key("end"));
  assertEquals(box.apply(alt("d")), NONE);
});

Deno.test("kills in a row join into one yank; a key between starts a new one", () => {
  const box = boxWith("one two three");
  press(box, ctrl("w"), ctrl("w"));
  assertEquals(shown(box), "prompt:one |");
  press(box, ctrl("y"));
  assertEquals(shown(box), "prompt:one two three|");

  const forward = boxWith("alpha beta gamma", 0);
  press(forward, alt("d"), alt("d"), key("end"), ctrl("y"));
  assertEquals(shown(forward), "prompt: gammaalpha beta|");

  const apart = boxWith("one two three");
  press(apart, ctrl("w"), key("left"), ctrl("w"), key("end"), ctrl("y"));
  assertEquals(shown(apart), "prompt:one  two|");
});

Deno.test("Ctrl-Y with nothing killed does nothing", () => {
  const box = boxWith("abc");
  assertEquals(box.apply(ctrl("y")), NONE);
  assertEquals(shown(box), "prompt:abc|");
});

Deno.test("Ctrl-T swaps the characters around the cursor, the last two at the end", () => {
  const middle = boxWith("abcd", 2);
  assertEquals(middle.apply(ctrl("t")), EDITED);
  assertEquals(shown(middle), "prompt:acb|d");

  const end = boxWith("abcd");
  assertEquals(end.apply(ctrl("t")), EDITED);
  assertEquals(shown(end), "prompt:abdc|");

  const wide = boxWith("a漢👍");
  press(wide, ctrl("t"));
  assertEquals(shown(wide), "prompt:a👍漢|");

  assertEquals(boxWith("abc", 0).apply(ctrl("t")), NONE);
  assertEquals(boxWith("a").apply(ctrl("t")), NONE);
  // Never across a line break.
  assertEquals(boxWith("a\nb", 2).apply(ctrl("t")), NONE);
});

Deno.test("keys the box does not take are the app's: Ctrl-C, Ctrl-O, Esc, Tab, others", () => {
  const keys = [
    ctrl("c"),
    ctrl("o"),
    ctrl("l"),
    ctrl("r"),
    ctrl("z"),
    key("escape"),
    key("tab"),
    key("tab", { shift: true }),
    key("pageup"),
    key("pagedown"),
    alt("x"),
    key("up", { ctrl: true }),
  ];
  for (const k of keys) {
    const box = boxWith("keep", 2);
    assertEquals(box.apply(k), UNHANDLED, JSON.stringify(k));
    assertEquals(shown(box), "prompt:ke|ep");
  }
});

// ---- recall ----

function sent(box: InputBox, ...lines: string[]): void {
  for (const line of lines) {
    typeEach(box, line);
    box.apply(key("enter"));
  }
}

Deno.test("sent lines go into the history with their mode", () => {
  const box = new InputBox();
  sent(box, "hello", "!ls", "!!brew upgrade");
  assertEquals(box.history, [
    { mode: "prompt", text: "hello" },
    { mode: "command", text: "ls" },
    { mode: "outside", text: "brew upgrade" },
  ]);
});

Deno.test("a line repeating the one before it is kept once; a repeat further back is kept", () => {
  const box = new InputBox();
  sent(box, "a", "a", "b", "a", "!a");
  assertEquals(box.history.map((e) => `${e.mode}:${e.text}`), [
    "prompt:a",
    "prompt:b",
    "prompt:a",
    "command:a",
  ]);
});

Deno.test("the history keeps the latest 100 lines, the starting ones included", () => {
  const start: HistoryEntry[] = Array.from({ length: 120 }, (_, i) => ({
    mode: "prompt",
    text: `old ${i}`,
  }));
  const box = new InputBox(start);
  assertEquals(box.history.length, HISTORY_LIMIT);
  assertEquals(box.history[0].text, "old 20");
  sent(box, "new");
  assertEquals(box.history.length, HISTORY_LIMIT);
  assertEquals(box.history[0].text, "old 21");
  assertEquals(box.history[HISTORY_LIMIT - 1].text, "new");
  // The list handed out is a copy.
  box.history.pop();
  assertEquals(box.history.length, HISTORY_LIMIT);
});

Deno.test("Up recalls older lines with their mode, Down newer, and past the newest the draft comes back", () => {
  const box = new InputBox([
    { mode: "prompt", text: "first" },
    { mode: "command", text: "git status" },
  ]);
  typeEach(box, "!!half typ");
  assertEquals(shown(box), "outside:half typ|");

  assertEquals(box.apply(key("up")), EDITED);
  assertEquals(shown(box), "command:git status|");
  assertEquals(box.apply(key("up")), EDITED);
  assertEquals(shown(box), "prompt:first|");
  assertEquals(box.apply(key("up")), NONE);
  assertEquals(shown(box), "prompt:first|");

  assertEquals(box.apply(key("down")), EDITED);
  assertEquals(shown(box), "command:git status|");
  assertEquals(box.apply(key("down")), EDITED);
  assertEquals(shown(box), "outside:half typ|");
  // Back on the fresh line: Down gives the focus to the status bar.
  assertEquals(box.apply(key("down")), FOCUS_STATUS);
  assertEquals(shown(box), "outside:half typ|");
});

Deno.test("Up with no history does nothing; Down on a fresh line moves the focus to the status bar", () => {
  const box = new InputBox();
  assertEquals(box.apply(key("up")), NONE);
  assertEquals(box.apply(key("down")), FOCUS_STATUS);
  typeEach(box, "one line");
  assertEquals(box.apply(key("down")), FOCUS_STATUS);
});

Deno.test("an empty draft comes back empty, in prompt mode", () => {
  const box = new InputBox([{ mode: "outside", text: "x" }]);
  press(box, key("up"));
  assertEquals(shown(box), "outside:x|");
  press(box, key("down"));
  assertEquals(shown(box), "prompt:|");
});

Deno.test("a recalled line, sent again, is sent in its mode and the box returns to a fresh line", () => {
  const box = new InputBox([{ mode: "command", text: "make test" }]);
  press(box, key("up"));
  assertEquals(box.apply(key("enter")), submit("!make test"));
  assertEquals(box.apply(key("down")), FOCUS_STATUS);
  assertEquals(box.history, [{ mode: "command", text: "make test" }]);
});

Deno.test("changes to a recalled line are dropped when recall moves on; the draft is kept", () => {
  const box = new InputBox([{ mode: "prompt", text: "a" }, { mode: "prompt", text: "b" }]);
  typeEach(box, "draft");
  press(box, key("up"));
  typeEach(box, "XX");
  press(box, key("up"), key("down"));
  assertEquals(shown(box), "prompt:b|");
  press(box, key("down"));
  assertEquals(shown(box), "prompt:draft|");
});

Deno.test("clear() ends recall and forgets the draft", () => {
  const box = new InputBox([{ mode: "prompt", text: "a" }]);
  typeEach(box, "draft");
  press(box, key("up"));
  box.clear();
  assertEquals(shown(box), "prompt:|");
  assertEquals(box.apply(key("down")), FOCUS_STATUS);
});

// ---- rows: Up and Down through a message of several rows ----

Deno.test("in a message of several lines Up and Down move a row keeping the column, then recall", () => {
  const box = new InputBox([{ mode: "prompt", text: "older" }]);
  box.apply(paste("abcdef\nxy\nabcdef"));
  press(box, key("left"), key("left")); // column 4 of the last line
  assertEquals(box.apply(key("up")), EDITED);
  assertEquals(shown(box), "prompt:abcdef\nxy|\nabcdef");
  assertEquals(box.apply(key("up")), EDITED);
  // The column kept from before the short line, not the short line's end.
  assertEquals(shown(box), "prompt:abcd|ef\nxy\nabcdef");
  assertEquals(box.apply(key("down")), EDITED);
  assertEquals(box.apply(key("down")), EDITED);
  assertEquals(shown(box), "prompt:abcdef\nxy\nabcd|ef");
  // On the last row of a fresh line, Down is the status bar's.
  assertEquals(box.apply(key("down")), FOCUS_STATUS);
  // From the first row, Up recalls.
  press(box, key("up"), key("up"));
  assertEquals(box.apply(key("up")), EDITED);
  assertEquals(shown(box), "prompt:older|");
  // And Down past the newest brings the draft back whole.
  press(box, key("down"));
  assertEquals(box.text, "abcdef\nxy\nabcdef");
});

Deno.test("the kept column is forgotten after any other key", () => {
  const box = boxWith("abcdef\nxy\nabcdef");
  press(box, key("up"), key("left"), key("up"));
  assertEquals(shown(box), "prompt:a|bcdef\nxy\nabcdef");
});

Deno.test("a recalled message of several lines: Up goes through its rows before recalling older", () => {
  const box = new InputBox([{ mode: "prompt", text: "old" }, { mode: "prompt", text: "l1\nl2" }]);
  press(box, key("up"));
  assertEquals(shown(box), "prompt:l1\nl2|");
  press(box, key("up"));
  assertEquals(shown(box), "prompt:l1|\nl2");
  press(box, key("up"));
  assertEquals(shown(box), "prompt:old|");
  // Down recalls from the last row: the cursor ends at the end, so one Down moves on.
  press(box, key("down"));
  assertEquals(shown(box), "prompt:l1\nl2|");
  press(box, key("down"));
  assertEquals(shown(box), "prompt:|");
});

Deno.test("Up and Down move through soft-wrapped rows of the latest layout", () => {
  const box = boxWith("abcdefghij");
  box.layout(4); // abcd / efgh / ij
  assertEquals(box.apply(key("up")), EDITED);
  assertEquals(box.cursor, 6);
  press(box, key("up"));
  assertEquals(box.cursor, 2);
  assertEquals(box.apply(key("up")), NONE); // no history
  press(box, key("down"), key("down"));
  assertEquals(box.cursor, 10);
  assertEquals(box.apply(key("down")), FOCUS_STATUS);
});

Deno.test("Up into a row of wide characters keeps the column without splitting one", () => {
  const box = boxWith("漢字漢\nabcde", 7);
  press(box, key("up")); // column 3 is inside 字, so the cursor goes before it
  assertEquals(box.cursor, 1);
});

// ---- layout ----

Deno.test("a short line lays out in one row with the cursor after it", () => {
  const box = boxWith("hello");
  assertEquals(box.layout(20), { rows: ["hello"], cursorRow: 0, cursorColumn: 5, height: 1 });
  assertEquals(new InputBox().layout(20), { rows: [""], cursorRow: 0, cursorColumn: 0, height: 1 });
});

Deno.test("a long line wraps at the width, breaking anywhere", () => {
  const box = boxWith("abcdefghij");
  assertEquals(box.layout(4), {
    rows: ["abcd", "efgh", "ij"],
    cursorRow: 2,
    cursorColumn: 2,
    height: 3,
  });
});

Deno.test("a line that fills its row exactly gets an empty row for the cursor", () => {
  const box = boxWith("abcd");
  assertEquals(box.layout(4), { rows: ["abcd", ""], cursorRow: 1, cursorColumn: 0, height: 2 });
  press(box, key("home"));
  assertEquals(box.layout(4), { rows: ["abcd", ""], cursorRow: 0, cursorColumn: 0, height: 2 });
});

Deno.test("at a soft wrap the cursor begins the next row", () => {
  const box = boxWith("abcdef", 4);
  const layout = box.layout(4);
  assertEquals([layout.cursorRow, layout.cursorColumn], [1, 0]);
});

Deno.test("hard newlines start rows, empty lines included", () => {
  const box = boxWith("one\n\nthree", 4);
  assertEquals(box.layout(10), {
    rows: ["one", "", "three"],
    cursorRow: 1,
    cursorColumn: 0,
    height: 3,
  });
});

Deno.test("wide characters count two columns and move whole to the next row", () => {
  const box = boxWith("漢字漢");
  assertEquals(box.layout(5), { rows: ["漢字", "漢"], cursorRow: 1, cursorColumn: 2, height: 2 });
  const mixed = boxWith("a漢b", 1);
  assertEquals(mixed.layout(2), {
    rows: ["a", "漢", "b"],
    cursorRow: 1,
    cursorColumn: 0,
    height: 3,
  });
  const emoji = boxWith("👍x");
  assertEquals(emoji.layout(10).cursorColumn, 3);
  const accent = boxWith("e\u0301!");
  assertEquals(accent.layout(10).cursorColumn, 2);
});

Deno.test("a character wider than the box still gets a row of its own", () => {
  const box = boxWith("漢a");
  assertEquals(box.layout(1).rows, ["漢", "a", ""]);
});

Deno.test("a tab shows as one space", () => {
  const box = new InputBox();
  box.apply(paste("a\tb"));
  assertEquals(box.layout(10), { rows: ["a b"], cursorRow: 0, cursorColumn: 3, height: 1 });
});

Deno.test("at most six rows are in sight, scrolled to keep the cursor's row in sight", () => {
  const lines = Array.from({ length: 10 }, (_, i) => `line ${i}`);
  const box = boxWith(lines.join("\n"));
  const bottom = box.layout(20);
  assertEquals(bottom.height, 6);
  assertEquals(bottom.rows, lines.slice(4));
  assertEquals([bottom.cursorRow, bottom.cursorColumn], [5, 6]);

  // Up within the rows in sight does not scroll.
  press(box, key("up"), key("up"));
  assertEquals(box.layout(20).rows, lines.slice(4));
  assertEquals(box.layout(20).cursorRow, 3);

  // Going above the first row in sight scrolls just enough.
  press(box, key("up"), key("up"), key("up"), key("up"));
  const scrolled = box.layout(20);
  assertEquals(scrolled.rows, lines.slice(3, 9));
  assertEquals(scrolled.cursorRow, 0);

  press(box, ...Array.from({ length: 5 }, () => key("up")));
  assertEquals(box.layout(20).rows, lines.slice(0, 6));
  assertEquals(box.cursor, 6);

  // And back down past the bottom.
  press(box, ...Array.from({ length: 9 }, () => key("down")));
  const back = box.layout(20);
  assertEquals(back.rows, lines.slice(4));
  assertEquals(back.cursorRow, 5);
});

Deno.test("the height grows with the text and shrinks only once the box is emptied", () => {
  const box = new InputBox();
  typeEach(box, "abcdefghij");
  assertEquals(box.layout(4).height, 3);
  // Deleting across a wrap keeps the height; the rows freed show empty.
  press(box, ...Array.from({ length: 7 }, () => key("backspace")));
  assertEquals(box.layout(4), { rows: ["abc", "", ""], cursorRow: 0, cursorColumn: 3, height: 3 });
  // Emptied, it shrinks back.
  press(box, ...Array.from({ length: 3 }, () => key("backspace")));
  assertEquals(box.layout(4), { rows: [""], cursorRow: 0, cursorColumn: 0, height: 1 });
});

Deno.test("the height shrinks back after a line is sent", () => {
  const box = new InputBox();
  box.apply(paste("a\nb\nc"));
  assertEquals(box.layout(10).height, 3);
  box.apply(key("enter"));
  assertEquals(box.layout(10).height, 1);
});

Deno.test("the height never passes six rows, however long the text", () => {
  const box = new InputBox();
  box.apply(paste("x".repeat(500)));
  const layout = box.layout(10);
  assertEquals(layout.height, 6);
  assertEquals(layout.rows.length, 6);
  assertEquals(layout.cursorRow, 5);
  assertEquals(layout.cursorColumn, 0); // 500 fills 50 rows exactly: the cursor starts row 51
});

Deno.test("a new width lays out afresh: the height is that width's", () => {
  const box = boxWith("abcdefghij");
  assertEquals(box.layout(4).height, 3);
  assertEquals(box.layout(20).height, 1);
});

// ---- a picker borrowing the line ----

Deno.test("putAside() takes the line out, leaving a fresh empty box; restore() puts it back", () => {
  const box = new InputBox([{ mode: "prompt", text: "old" }]);
  typeEach(box, "!deploy 漢字 now");
  press(box, key("left"), key("left"), key("left"), key("left"));
  const saved = box.putAside();
  assertEquals(saved, { mode: "command", text: "deploy 漢字 now", cursor: 9 });
  assertEquals(shown(box), "prompt:|");
  typeEach(box, "answer");
  box.clear();
  box.restore(saved);
  assertEquals(shown(box), "command:deploy 漢字| now");
  assertEquals(box.history, [{ mode: "prompt", text: "old" }]);
});

Deno.test("input box: a completion replaces the word before the cursor and puts the cursor after it", () => {
  const box = new InputBox();
  box.apply({ kind: "text", text: "/mod x" });
  for (let i = 0; i < 2; i++) box.apply({ kind: "key", name: "left" });
  box.complete(0, "/model");
  assertEquals(box.text, "/model x");
  assertEquals(box.cursor, 6);
});
