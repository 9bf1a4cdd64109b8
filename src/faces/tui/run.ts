/**
 * wisp-tui: `wisp chat` at a terminal. It owns the terminal (raw keys, the
 * band at the bottom drawn by ink, the scrollback above it) and talks to the
 * chat session only through protocol lines (bridge.ts). Start it, hand its
 * `emit` to the engine, start the engine, then `run` until the chat ends.
 *
 * Its hello declares what it carries: `approve` (its dialogs answer),
 * `approve-mcp`, `keep-facts` and `answer-questions` (what waits in `wisp
 * mcp` servers is shown as its own dialogs), and `notify` when the terminal
 * shows notification sequences (never under tmux, which does not pass
 * them on).
 */
import React from "react";
import { render } from "ink";
import type { OutLine, ParsedIn } from "../chat/protocol.ts";
import { acrossIn, acrossOut } from "./bridge.ts";
import { bound, osc9 } from "../../notify/notifier.ts";
import { TuiController } from "./controller.ts";
import { FrameWriter } from "./frame_writer.ts";
import { KeyDecoder } from "./key_decoder.ts";
import type { Paint } from "./palette.ts";
import type { TuiTerminal } from "./terminal.ts";
import { BandView } from "./band_view.ts";
import type { Band } from "./band.ts";
import { columns } from "./columns.ts";

/** What wisp-tui needs of the chat engine: the protocol's two directions and its end. */
export interface TuiEngine {
  receive(parsed: ParsedIn): void;
  readonly quitRequested: Promise<number>;
  finish(code: number): Promise<number>;
  endOfInput(): Promise<number>;
}

export interface TuiOptions {
  terminal: TuiTerminal;
  paint: Paint;
  shownOutputLines: number;
  version: string;
  home?: string;
  /** The terminal shows OSC 9 notifications: wisp-tui posts them (hello effect `notify`). */
  notifies: boolean;
  /** The dialogs' guard, in ms (WISP_TUI_GUARD_MS; default half a second). */
  guardMs?: number;
  /** Called with each frame written (WISP_TUI_TRACE). */
  onFrame?: (frame: string) => void;
}

/** Home, then clear the visible screen (the scrollback above it stays). */
const CLEAR_SCREEN = "\x1b[H\x1b[2J";

/** Rows kept to reprint after a narrowing resize: more than any terminal's height. */
const RECENT_ROWS = 300;

/** How long a lone Esc waits for the rest of a sequence before it counts as Esc. */
const ESCAPE_WAIT_MS = 25;

/** The terminal front end. */
export class Tui {
  readonly #writer: FrameWriter;
  readonly #controller: TuiController;
  readonly #ink: ReturnType<typeof render>;
  #engine: TuiEngine | undefined;
  /** Lines from the engine before `run` gave it one to answer to. */
  #early: OutLine[] = [];
  #write: ((text: string) => void) | undefined;
  #unprinted: string[] = [];
  #redrawQueued = false;

  /** The latest rows printed, to show again after a narrowing resize (at most RECENT_ROWS). */
  #recent: string[] = [];
  /** The size everything is laid out at. */
  #size: { columns: number; rows: number };
  /** Resizes are handled one after another. */
  #resizing: Promise<void> = Promise.resolve();

  #closed = false;

  constructor(private readonly options: TuiOptions) {
    const terminal = options.terminal;
    this.#size = terminal.size();
    // ink and the parts lay out at the size wisp-tui last took, not the terminal's live one, so a
    // frame drawn while a resize is being handled never mixes two widths (see #resized).
    this.#writer = new FrameWriter(
      { write: (bytes) => terminal.write(bytes), size: () => this.#size },
      options.onFrame,
    );
    this.#controller = new TuiController({
      send: (line) => this.#engine?.receive(acrossIn(line)),
      print: (rows) => this.#print(rows),
      redraw: () => this.#queueRedraw(),
      // The terminal's own notification sequence, written outside any frame.
      notify: (title, body) =>
        terminal.write(new TextEncoder().encode(osc9(bound({ title, message: body })))),
      now: () => Date.now(),
      later: (ms, fn) => {
        const timer = setTimeout(fn, ms);
        return () => clearTimeout(timer);
      },
    }, {
      paint: options.paint,
      size: () => this.#size,
      shownOutputLines: options.shownOutputLines,
      ...(options.home ? { home: options.home } : {}),
      ...(options.guardMs !== undefined ? { guardMs: options.guardMs } : {}),
    });
    this.#ink = render(this.#element(this.#controller.band()), {
      stdout: this.#writer as unknown as NodeJS.WriteStream,
      stdin: quietStdin() as unknown as NodeJS.ReadStream,
      interactive: true,
      exitOnCtrlC: false,
      patchConsole: false,
      maxFps: 120,
    });
  }

  /** The engine's out lines go here. */
  readonly emit = (line: OutLine): void => {
    const across = acrossOut(line);
    if (!this.#engine) this.#early.push(across);
    else this.#controller.receive(across);
  };

  #element(band: Band): React.ReactElement {
    return React.createElement(BandView, {
      band,
      onWriter: (write: (text: string) => void) => {
        this.#write = write;
        this.#flushPrinted();
      },
    });
  }

  #print(rows: string[]): void {
    this.#unprinted.push(...rows);
    this.#recent.push(...rows);
    if (this.#recent.length > RECENT_ROWS) {
      this.#recent.splice(0, this.#recent.length - RECENT_ROWS);
    }
    this.#flushPrinted();
  }

  #flushPrinted(): void {
    if (!this.#write || this.#unprinted.length === 0 || this.#closed) return;
    const rows = this.#unprinted;
    this.#unprinted = [];
    this.#write(rows.join("\n") + "\n");
  }

  #queueRedraw(): void {
    if (this.#redrawQueued || this.#closed) return;
    this.#redrawQueued = true;
    queueMicrotask(() => {
      this.#redrawQueued = false;
      if (!this.#closed) this.#ink.rerender(this.#element(this.#controller.band()));
    });
  }

  /** Run until the chat ends; returns its exit code. The terminal is given back either way. */
  async run(engine: TuiEngine): Promise<number> {
    this.#engine = engine;
    const terminal = this.options.terminal;
    const stopResize = terminal.onResize(() => {
      this.#resizing = this.#resizing.then(() => this.#resized());
    });
    engine.receive(acrossIn({
      type: "hello",
      effects: [
        "approve",
        "approve-mcp",
        "keep-facts",
        "answer-questions",
        ...(this.options.notifies ? ["notify"] : []),
      ],
      client: "wisp-tui",
      version: this.options.version,
    }));
    for (const line of this.#early.splice(0)) this.#controller.receive(line);
    void this.#readKeys();
    try {
      const ended = await Promise.race([
        engine.quitRequested.then((code) => ({ quit: code })),
        this.#controller.exited.then((code) => ({ exited: code })),
        this.#inputEnded.then(() => ({ inputEnded: true as const })),
      ]);
      if ("quit" in ended) return await engine.finish(ended.quit);
      if ("inputEnded" in ended) return await engine.endOfInput();
      return ended.exited;
    } finally {
      stopResize();
      await this.close();
    }
  }

  /**
   * The terminal changed size. Frames still due are written at the old size
   * first. When it got narrower, a terminal that reflows (tmux, iTerm2,
   * kitty) has re-wrapped the band drawn at the old width, and frames drawn
   * before the signal arrived may have wrapped too, so no count of lines can
   * say where the band starts any more: the visible screen is cleared, the
   * band drawn at the new width, and the last screenful of the conversation
   * printed above it again from the rows wisp-tui keeps for this (a screen's
   * worth, not the conversation).
   */
  async #resized(): Promise<void> {
    if (this.#closed) return;
    await this.#ink.waitUntilRenderFlush().catch(() => {});
    this.#writer.flush();
    const size = this.options.terminal.size();
    const narrower = size.columns < this.#size.columns;
    this.#size = size;
    if (narrower) this.options.terminal.write(new TextEncoder().encode(CLEAR_SCREEN));
    this.#writer.resized();
    this.#controller.resized();
    if (narrower) this.#write?.(this.#lastScreenful(size).join("\n") + "\n");
  }

  /** The latest rows printed that fit above the band at `size`, as the terminal will wrap them. */
  #lastScreenful(size: { columns: number; rows: number }): string[] {
    const room = Math.max(0, size.rows - 1 - this.#controller.band().rows.length);
    const shown: string[] = [];
    let used = 0;
    for (let i = this.#recent.length - 1; i >= 0; i--) {
      const lines = Math.max(1, Math.ceil(columns(this.#recent[i]) / Math.max(1, size.columns)));
      if (used + lines > room) break;
      shown.unshift(this.#recent[i]);
      used += lines;
    }
    return shown;
  }

  #inputEnd!: () => void;
  readonly #inputEnded = new Promise<void>((resolve) => (this.#inputEnd = resolve));

  async #readKeys(): Promise<void> {
    const decoder = new KeyDecoder();
    let escapeTimer: ReturnType<typeof setTimeout> | undefined;
    for await (const bytes of this.options.terminal.bytes()) {
      if (escapeTimer !== undefined) clearTimeout(escapeTimer);
      for (const key of decoder.push(bytes)) this.#controller.key(key);
      if (decoder.pendingEscape) {
        escapeTimer = setTimeout(() => {
          for (const key of decoder.flush()) this.#controller.key(key);
        }, ESCAPE_WAIT_MS);
      }
    }
    if (!this.#closed) this.#inputEnd();
  }

  /**
   * Print what is left, take the band away, and give the terminal back.
   * Safe to call more than once, and before `run` (the chat could not start).
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#flushPrinted();
    this.#ink.rerender(this.#element({ rows: [] }));
    this.#closed = true;
    this.#ink.unmount();
    await this.#ink.waitUntilExit().catch(() => {});
    this.#writer.flush();
    this.options.terminal.release();
  }
}

/** A stand-in for stdin that ink never reads: wisp-tui reads the terminal's keys itself. */
function quietStdin(): unknown {
  return {
    isTTY: false,
    setRawMode() {},
    setEncoding() {},
    on() {},
    off() {},
    addListener() {},
    removeListener() {},
    read: () => null,
    ref() {},
    unref() {},
  };
}
