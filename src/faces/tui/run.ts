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
import { TuiController } from "./controller.ts";
import { FrameWriter } from "./frame_writer.ts";
import { KeyDecoder } from "./key_decoder.ts";
import type { Paint } from "./palette.ts";
import type { TuiTerminal } from "./terminal.ts";
import { BandView } from "./band_view.ts";
import { type Band, reflowErase } from "./band.ts";

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
  /** The band last handed to ink, and the width it was drawn at (for a narrower terminal). */
  #drawn: Band | undefined;
  #drawnWidth = 0;
  /** The band last handed to ink, drawn once ink says it rendered (ink throttles frames). */
  #latest: Band | undefined;
  #closed = false;

  constructor(private readonly options: TuiOptions) {
    const terminal = options.terminal;
    this.#writer = new FrameWriter(terminal, options.onFrame);
    this.#controller = new TuiController({
      send: (line) => this.#engine?.receive(acrossIn(line)),
      print: (rows) => this.#print(rows),
      redraw: () => this.#queueRedraw(),
      notify: (title, body) =>
        terminal.write(new TextEncoder().encode(`\x1b]9;${title}: ${body}\x07`)),
      now: () => Date.now(),
      later: (ms, fn) => {
        const timer = setTimeout(fn, ms);
        return () => clearTimeout(timer);
      },
    }, {
      paint: options.paint,
      size: () => terminal.size(),
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
      onRender: () => {
        this.#drawn = this.#latest;
        this.#drawnWidth = terminal.size().columns;
      },
    });
  }

  /** The engine's out lines go here. */
  readonly emit = (line: OutLine): void => {
    const across = acrossOut(line);
    if (!this.#engine) this.#early.push(across);
    else this.#controller.receive(across);
  };

  #element(band: Band): React.ReactElement {
    this.#latest = band;
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
      const width = terminal.size().columns;
      if (width < this.#drawnWidth && this.#drawn) {
        terminal.write(new TextEncoder().encode(reflowErase(this.#drawn, width)));
      }
      this.#drawnWidth = width;
      this.#writer.resized();
      this.#controller.resized();
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
      await this.#close();
    }
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

  /** Print what is left, take the band away, and give the terminal back. */
  async #close(): Promise<void> {
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
