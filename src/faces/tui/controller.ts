/**
 * wisp-tui's controller: the one place that knows what is open. It takes the
 * engine's out lines (through the protocol seam, bridge.ts) and the person's
 * keys, keeps the parts' state — the input box, the dialogs, the panel, the
 * status bar's focus, the reply in progress, keys held during a turn — and
 * says what to print above the band and what the band is now. It sends only
 * protocol in lines; it never reaches into the engine.
 *
 * Routing a key, first match wins:
 * 1. a dialog is open: the dialog takes it (the half-second guard may hold it
 *    for the input box instead);
 * 2. the panel is open: it scrolls or closes, anything else is held;
 * 3. the status bar has the focus: it moves or opens an item;
 * 4. a turn or a typed command runs: Ctrl-C/Ctrl-D interrupt, Ctrl-O opens
 *    the panel, Enter is dropped (a message is sent only once you can see
 *    it), every other key is held and applied in order when it ends;
 * 5. the input box.
 *
 * Ctrl-C at rest clears a line being typed, and with an empty box leaves
 * (so does Ctrl-D with an empty box): wisp-tui sends `/quit`, so the
 * transcript is saved as in the plain chat.
 */
import type {
  ActivityLine,
  ApprovalLine,
  ChoiceLine,
  InLine,
  OutLine,
  StatusLine,
  ViewLine,
} from "../chat/protocol.ts";
import { ConversationLines } from "../chat/conversation_lines.ts";
import { isCtrl, isNamed, type Key } from "./key.ts";
import { InputBox } from "./input_box.ts";
import { MarkdownStream } from "./markdown.ts";
import { DialogQueue, parkedNote } from "./dialog_queue.ts";
import { renderDialog } from "./dialog_view.ts";
import { Panel } from "./panel.ts";
import {
  focusKeysLine,
  itemAction,
  moveFocus,
  renderStatusRow,
  type StatusItem,
  statusItems,
} from "./status_bar.ts";
import type { Paint } from "./palette.ts";
import { type Band, boxWorkingText, composeBand } from "./band.ts";
import { sentRows, shownRows } from "./scrollback.ts";

/** What the controller needs from around it. */
export interface ControllerHost {
  /** Send an in line to the engine. */
  send(line: InLine): void;
  /** Print rows above the band, into the terminal's scrollback. */
  print(rows: string[]): void;
  /** The band changed: draw it. */
  redraw(): void;
  /** Post a notification through the terminal (OSC 9). */
  notify?(title: string, body: string): void;
  now(): number;
  /** Call `fn` after `ms` (the guard's end, the working line's tick); returns a canceller. */
  later(ms: number, fn: () => void): () => void;
}

export interface ControllerOptions {
  paint: Paint;
  size: () => { columns: number; rows: number };
  shownOutputLines: number;
  home?: string;
  /** How long the keyboard must be quiet before a dialog takes keys (default half a second). */
  guardMs?: number;
}

/** Keys held, as a person counts them: each character typed is one, a paste is one. */
export function heldCount(keys: Key[]): number {
  return keys.reduce((n, key) => n + (key.kind === "text" ? [...key.text].length : 1), 0);
}

/** wisp-tui's state and the routing of keys and lines. */
export class TuiController {
  readonly input = new InputBox();
  readonly #dialogs: DialogQueue;
  readonly #lines: ConversationLines;
  #reply: MarkdownStream | undefined;
  #panel: Panel | undefined;
  #status: StatusLine | undefined;
  #activity: ActivityLine["activity"] = null;
  #held: Key[] = [];
  #focus: StatusItem | "input" = "input";
  #lastOutputId: string | undefined;
  #tick: (() => void) | undefined;
  #guardTimer: (() => void) | undefined;
  #exit: number | undefined;
  #quitting = false;
  readonly #exited: Promise<number>;
  #resolveExit!: (code: number) => void;

  constructor(private readonly host: ControllerHost, private readonly options: ControllerOptions) {
    this.#dialogs = new DialogQueue({
      now: () => host.now(),
      ...(options.guardMs !== undefined ? { guardMs: options.guardMs } : {}),
    });
    this.#lines = new ConversationLines({ shownOutputLines: options.shownOutputLines });
    this.#exited = new Promise((resolve) => (this.#resolveExit = resolve));
  }

  /** Resolves with the engine's exit code once its exit line came. */
  get exited(): Promise<number> {
    return this.#exited;
  }

  get #width(): number {
    return Math.max(20, this.options.size().columns);
  }

  get #busy(): boolean {
    return this.#activity !== null;
  }

  // ------------------------------------------------------------ out lines

  /** Take one out line from the engine. */
  receive(line: OutLine): void {
    switch (line.type) {
      case "delta":
        this.#delta(line.text, line.thinking === true);
        return;
      case "note":
        this.#endReply();
        this.#print(this.#lines.note(line));
        return;
      case "event": {
        this.#endReply();
        const event = line.event;
        if (event.kind === "tool.result" || event.kind === "command.typed") {
          this.#lastOutputId = String(event.callId ?? event.id);
        }
        this.#print(this.#lines.event(event));
        this.host.redraw();
        return;
      }
      case "status":
        this.#status = line;
        this.host.redraw();
        return;
      case "activity":
        this.#setActivity(line.activity);
        return;
      case "approval":
      case "choice":
        this.#offer(line);
        return;
      case "withdrawn": {
        const record = this.#dialogs.withdraw(line.id, line.reason);
        if (record) this.host.print([this.#paintRecord(record)]);
        this.#afterDialog();
        return;
      }
      case "view":
        this.#view(line);
        return;
      case "notify":
        this.host.notify?.(line.title, line.body);
        return;
      case "exit":
        this.#exit = line.code;
        this.#stopTicking();
        this.#resolveExit(line.code);
        return;
      case "turn":
        if (line.phase === "end") this.#endReply();
        return;
      case "completions":
        if (line.items.length === 1) this.input.complete(line.from, line.items[0].text);
        else if (line.items.length > 1) {
          this.host.print([this.options.paint.fg(
            "quiet",
            line.items.map((i) => i.text).join("  "),
          )]);
        }
        this.host.redraw();
        return;
    }
  }

  #delta(text: string, thinking: boolean): void {
    if (thinking) return;
    if (text === "") {
      this.#endReply();
      this.host.redraw();
      return;
    }
    this.#print(this.#lines.flush());
    this.#reply ??= new MarkdownStream(this.#width, this.options.paint);
    const done = this.#reply.push(text);
    if (done.length > 0) this.host.print(done);
    this.host.redraw();
  }

  #endReply(): void {
    if (!this.#reply) return;
    const rest = this.#reply.end();
    this.#reply = undefined;
    if (rest.length > 0) this.host.print(rest);
  }

  #print(lines: ReturnType<ConversationLines["flush"]>): void {
    if (lines.length === 0) return;
    this.host.print(lines.flatMap((l) => shownRows(l, this.#width, this.options.paint)));
  }

  #paintRecord(text: string): string {
    return this.options.paint.fg(text.startsWith("⚠") ? "amber" : "quiet", text);
  }

  #setActivity(activity: ActivityLine["activity"]): void {
    this.#activity = activity;
    this.#stopTicking();
    if (activity) {
      // The command's seconds tick; nothing else redraws while idle.
      const tick = () => {
        this.host.redraw();
        this.#tick = this.host.later(1000, tick);
      };
      this.#tick = this.host.later(1000, tick);
    } else {
      this.#endReply();
      this.#applyHeld();
    }
    this.host.redraw();
  }

  #stopTicking(): void {
    this.#tick?.();
    this.#tick = undefined;
  }

  #offer(line: ApprovalLine | ChoiceLine): void {
    this.#endReply();
    // A dialog closes the panel and takes its place.
    this.#panel = undefined;
    if (this.#focus !== "input") this.#focus = "input";
    const how = this.#dialogs.offer(line, !this.input.isEmpty);
    if (how === "parked") {
      this.#print([{ text: parkedNote(line), tone: "warn", indent: 0 }]);
    }
    this.#armGuard();
    this.host.redraw();
  }

  #armGuard(): void {
    this.#guardTimer?.();
    this.#guardTimer = undefined;
    const ends = this.#dialogs.guardEndsAt();
    if (ends === undefined) return;
    const wait = Math.max(0, ends - this.host.now());
    this.#guardTimer = this.host.later(wait + 5, () => {
      this.#guardTimer = undefined;
      this.host.redraw();
      this.#armGuard();
    });
  }

  #view(line: ViewLine): void {
    if (this.#dialogs.isOpen) return;
    if (this.#panel && this.#panel.id === line.id) this.#panel.addPage(line);
    else {
      this.#panel = new Panel(line, { kind: "key", name: "o", ctrl: true }, {
        rows: Math.max(3, this.options.size().rows - 6),
      });
    }
    this.host.redraw();
  }

  // ---------------------------------------------------------------- keys

  /** Take one key the person pressed. */
  key(key: Key): void {
    if (this.#exit !== undefined) return;
    if (this.#dialogs.isOpen) return this.#dialogKey(key);
    if (this.#panel) return this.#panelKey(key);
    if (this.#focus !== "input") return this.#statusKey(key);
    if (this.#busy) return this.#busyKey(key);
    this.#inputKey(key);
  }

  #dialogKey(key: Key): void {
    const result = this.#dialogs.key(key);
    switch (result.kind) {
      case "answer":
        this.host.send(result.send);
        // The engine notes how an approval or a fact was answered (one line, for every face);
        // a choice it does not, so its record is printed here.
        if (result.send.type === "choose") this.host.print([this.#paintRecord(result.record)]);
        this.#afterDialog();
        return;
      case "held":
        this.#held.push(key);
        this.#armGuard();
        this.host.redraw();
        return;
      case "moved":
        this.host.redraw();
        return;
      case "ignored":
        return;
    }
  }

  /** A dialog closed: the next one's guard, or held keys back to the box. */
  #afterDialog(): void {
    this.#armGuard();
    if (!this.#dialogs.isOpen && !this.#busy) this.#applyHeld();
    this.host.redraw();
  }

  #panelKey(key: Key): void {
    const result = this.#panel!.key(key);
    if (result === "closed") this.#panel = undefined;
    else if (result === "ignored") {
      if (key.kind !== "key" || !key.ctrl) this.#held.push(key);
    } else if (typeof result === "object" && result.kind === "request-page") {
      this.host.send({ type: "output", id: this.#panel!.id, page: result.page });
    }
    if (!this.#panel && !this.#busy) this.#applyHeld();
    this.host.redraw();
  }

  #statusKey(key: Key): void {
    const items = statusItems(this.#statusShown());
    if (isNamed(key, "enter")) {
      const action = itemAction(this.#focus as StatusItem);
      this.#focus = "input";
      if (action.kind === "send") this.host.send({ type: "message", text: action.text });
      else if (action.kind === "open-waiting") {
        this.#dialogs.openParked();
        this.#armGuard();
      }
      this.host.redraw();
      return;
    }
    if (isCtrl(key, "c") || isCtrl(key, "d")) {
      this.#focus = "input";
      this.host.redraw();
      return;
    }
    const next = moveFocus(items, this.#focus as StatusItem, key);
    this.#focus = next;
    this.host.redraw();
  }

  #busyKey(key: Key): void {
    if (isCtrl(key, "c") || isCtrl(key, "d")) {
      this.host.send({ type: "interrupt" });
      return;
    }
    if (isCtrl(key, "o")) return this.#openOutput();
    if (isNamed(key, "enter")) return;
    this.#held.push(key);
    this.host.redraw();
  }

  #inputKey(key: Key): void {
    if (isCtrl(key, "c") || (isCtrl(key, "d") && this.input.isEmpty)) {
      if (!this.input.isEmpty) {
        this.input.clear();
        this.#dialogs.inputEmptied();
        this.#armGuard();
        this.host.redraw();
        return;
      }
      this.quit();
      return;
    }
    if (isCtrl(key, "o")) return this.#openOutput();
    if (isNamed(key, "tab")) {
      this.host.send({
        type: "complete",
        id: crypto.randomUUID().slice(0, 8),
        text: this.input.text,
        cursor: this.input.cursor,
      });
      return;
    }
    const wasEmpty = this.input.isEmpty;
    const action = this.input.apply(key);
    switch (action.kind) {
      case "submit":
        this.host.print(sentRows(action.message, this.#width, this.options.paint));
        this.host.send({ type: "message", text: action.message });
        break;
      case "focus-status": {
        const items = statusItems(this.#statusShown());
        if (items.length > 0) this.#focus = items[0];
        break;
      }
      default:
        break;
    }
    if (!wasEmpty && this.input.isEmpty) {
      this.#dialogs.inputEmptied();
      this.#armGuard();
    }
    this.host.redraw();
  }

  #openOutput(): void {
    if (this.#lastOutputId === undefined) {
      this.host.print([this.options.paint.fg("quiet", "· no output to show yet")]);
      this.host.redraw();
      return;
    }
    this.host.send({ type: "output", id: this.#lastOutputId, page: 1 });
  }

  /** Keys held during a turn, a dialog's guard or the panel, applied in order as if typed now. */
  #applyHeld(): void {
    const held = this.#held;
    this.#held = [];
    for (const key of held) {
      if (this.#dialogs.isOpen || this.#panel || this.#busy) {
        this.#held.push(key);
        continue;
      }
      // Enter was never held; the rest edit the box.
      this.#inputKey(key);
    }
  }

  /** Leave: `/quit` so the transcript is saved; the engine's exit line ends wisp-tui. */
  quit(): void {
    if (this.#quitting) return;
    this.#quitting = true;
    this.host.send({ type: "message", text: "/quit" });
  }

  // ---------------------------------------------------------------- band

  /**
   * The status as the bar shows it: what waits is counted from the dialogs
   * wisp-tui holds (shown, queued, parked), which it knows the moment each
   * arrives or goes, rather than from the engine's last status line.
   */
  #statusShown(): StatusLine | undefined {
    if (!this.#status) return undefined;
    const counts = this.#dialogs.counts();
    return { ...this.#status, waiting: counts };
  }

  /** The band as it is now. */
  band(): Band {
    const { columns, rows } = this.options.size();
    const width = Math.max(20, columns);
    const paint = this.options.paint;
    const now = this.host.now();
    const dialog = this.#dialogs.current();
    const overlay = dialog
      ? renderDialog(dialog, width, paint, {
        live: this.#dialogs.live(),
        ...(this.options.home ? { home: this.options.home } : {}),
      })
      : this.#panel?.render(width, paint);
    const layout = this.input.layout(width - 3);
    const focus = this.#focus === "input" ? undefined : this.#focus;
    return composeBand({
      width,
      height: rows,
      replyPending: this.#reply?.pending() ?? [],
      ...(overlay ? { overlay } : {}),
      ...(focus ? { hint: focusKeysLine(focus) } : {}),
      inputFocused: focus === undefined,
      input: {
        mode: this.input.mode,
        rows: layout.rows,
        cursorRow: layout.cursorRow,
        cursorColumn: layout.cursorColumn,
        ...(this.#activity ? { working: boxWorkingText(this.#activity, now) } : {}),
        held: heldCount(this.#held),
      },
      status: renderStatusRow(this.#statusShown(), this.#activity, now, width, paint, {
        ...(this.options.home ? { home: this.options.home } : {}),
        ...(focus ? { focus } : {}),
      }),
    }, paint);
  }

  /** The terminal's width changed. */
  resized(): void {
    this.#reply?.resize(this.#width);
    this.host.redraw();
  }
}
