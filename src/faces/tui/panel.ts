/**
 * wisp-tui's panel: something whole shown over the band (a tool's output from
 * /show or /last, a slash command's text such as /inspect context), in a
 * rounded border around up to 16 rows, its keys in the bottom border.
 *
 * Up and Down scroll a row, PageUp and PageDown a page; Esc, or the key that
 * opened the panel, closes it. A tool's output comes from the engine a page
 * at a time (a `view` line of kind "output" with `page` of `pages`): scrolling
 * past the end of the pages held asks for the next one, and the scroll the
 * person asked for is finished when it arrives.
 *
 * Lines are not wrapped: one too long for the panel ends in `…`, as a pager
 * with wrapping off shows it, so a table or a log keeps its shape. Tabs are
 * expanded to stops of eight columns, and escape sequences and control
 * characters in the text are dropped, since a colour code or a carriage
 * return from a tool's output would break the border around it.
 *
 * The panel is pure state: keys in, what changed out, rows rendered for a
 * width. Where the spec is silent (the position in the top border, Home and
 * End not taken) it does what `less` and Claude Code's transcript view do.
 */
import type { ViewLine } from "../chat/protocol.ts";
import { isNamed, type Key } from "./key.ts";
import type { Paint } from "./palette.ts";
import { columns, cutToColumns, expandTabs, padToColumns, withoutControls } from "./columns.ts";

/** The most rows of text a panel shows at once. */
export const PANEL_ROWS = 16;

/** The keys, as the bottom border names them. */
const KEYS_WORDS = "↑↓ row · PgUp/PgDn page · Esc closes";

/**
 * What a key did to the panel: it scrolled (redraw), closed it (remove it),
 * asks the engine for a page of the output (send an `output` line for it; the
 * view may have moved too, so redraw), or did nothing.
 */
export type PanelResult =
  | "scrolled"
  | "closed"
  | { kind: "request-page"; page: number }
  | "ignored";

/** Whether two keys are the same key (the same name or text, the same modifiers). */
function sameKey(a: Key, b: Key): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === "key" && b.kind === "key") {
    return a.name === b.name && !!a.ctrl === !!b.ctrl && !!a.alt === !!b.alt;
  }
  return a.kind !== "key" && b.kind !== "key" && a.text === b.text;
}

/** Text made into the panel's lines: controls dropped, tabs expanded, no empty line after a final newline. */
function linesOf(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n").map((line) => expandTabs(withoutControls(line)));
  if (text.endsWith("\n")) lines.pop();
  return lines;
}

/** A panel showing one view, scrolled by keys. */
export class Panel {
  /** The view's id, which a page request names. */
  readonly id: string;
  readonly title: string;
  readonly #opener: Key;
  readonly #rows: number;
  /** Every page held so far, joined: a page may end in the middle of a line. */
  #text: string;
  #lines: string[];
  /** The last page held, and how many there are (1 and 1 for a view that is not paged). */
  #page: number;
  readonly #pages: number;
  /** The first line in view. */
  #top = 0;
  /** The page asked for and not yet come, if any. */
  #requested: number | undefined;
  /** Rows the person scrolled past what was held, moved once the next page comes. */
  #owed = 0;

  /**
   * A panel for `view`, opened with `opener` (that key closes it again).
   * `rows` is the most rows of text shown, 16 unless the terminal has fewer.
   */
  constructor(view: ViewLine, opener: Key, options: { rows?: number } = {}) {
    this.id = view.id;
    this.title = view.title;
    this.#opener = opener;
    this.#rows = Math.max(1, Math.min(PANEL_ROWS, options.rows ?? PANEL_ROWS));
    this.#text = view.text;
    this.#lines = linesOf(view.text);
    this.#page = view.page ?? 1;
    this.#pages = Math.max(this.#page, view.pages ?? 1);
  }

  /** The first line in view (0-based). */
  get top(): number {
    return this.#top;
  }

  /** How many lines the panel holds so far. */
  get lineCount(): number {
    return this.#lines.length;
  }

  /** Whether the engine has pages of this output the panel does not hold yet. */
  get morePages(): boolean {
    return this.#page < this.#pages;
  }

  /**
   * The next page of the output arrived. A view of another id, or a page
   * other than the next one (a repeat, say), is ignored. Any scroll the
   * person asked for past the old end is finished now.
   */
  addPage(view: ViewLine): void {
    if (view.id !== this.id || view.page !== this.#page + 1) return;
    this.#page = view.page;
    this.#text += view.text;
    this.#lines = linesOf(this.#text);
    if (this.#requested !== undefined && this.#requested <= this.#page) this.#requested = undefined;
    const owed = this.#owed;
    this.#owed = 0;
    if (owed > 0) this.#top = Math.min(this.#lastTop(), this.#top + owed);
  }

  /** What `key` does: scroll, close, ask for the next page, or nothing. */
  key(key: Key): PanelResult {
    if (isNamed(key, "escape") || sameKey(key, this.#opener)) return "closed";
    if (isNamed(key, "up")) return this.#back(1);
    if (isNamed(key, "pageup")) return this.#back(this.#rows);
    if (isNamed(key, "down")) return this.#forward(1);
    if (isNamed(key, "pagedown")) return this.#forward(this.#rows);
    return "ignored";
  }

  #lastTop(): number {
    return Math.max(0, this.#lines.length - this.#rows);
  }

  #back(rows: number): PanelResult {
    this.#owed = 0;
    const top = Math.max(0, this.#top - rows);
    if (top === this.#top) return "ignored";
    this.#top = top;
    return "scrolled";
  }

  #forward(rows: number): PanelResult {
    const wanted = this.#top + rows;
    const top = Math.min(this.#lastTop(), wanted);
    const moved = top !== this.#top;
    this.#top = top;
    if (wanted > top && this.morePages) {
      this.#owed = wanted - top;
      if (this.#requested === undefined) {
        this.#requested = this.#page + 1;
        return { kind: "request-page", page: this.#requested };
      }
    }
    return moved ? "scrolled" : "ignored";
  }

  /**
   * The panel's rows for a terminal `width` columns wide: the top border with
   * the title (and where the view is, when it does not all fit), the lines in
   * view, and the bottom border with the keys. Every row is exactly `width`
   * columns; with colour off they are plain text.
   */
  render(width: number, paint: Paint): string[] {
    if (width < 6) return [];
    const inner = width - 4;
    const border = (text: string) => paint.fg("quiet", text);
    const bodyRows = this.morePages
      ? this.#rows
      : Math.max(1, Math.min(this.#rows, this.#lines.length));
    const shown = this.#lines.slice(this.#top, this.#top + bodyRows);

    const rows: string[] = [this.#topBorder(width, paint)];
    for (let i = 0; i < bodyRows; i++) {
      const line = shown[i];
      const text = line === undefined
        ? i === 0 && this.#lines.length === 0 && !this.morePages
          ? paint.fg("quiet", padToColumns("(empty)", inner))
          : " ".repeat(inner)
        : padToColumns(line, inner);
      rows.push(`${border("│ ")}${text}${border(" │")}`);
    }
    const keys = cutToColumns(KEYS_WORDS, width - 6);
    const fill = "─".repeat(Math.max(0, width - 5 - columns(keys)));
    rows.push(border(`╰─ ${keys} ${fill}╯`));
    return rows;
  }

  /** `╭─ title ───── 17–32 of 120 ─╮`; the position only when the view does not all fit. */
  #topBorder(width: number, paint: Paint): string {
    const all = this.#lines.length;
    const fits = !this.morePages && all <= this.#rows;
    const last = Math.min(all, this.#top + this.#rows);
    const position = fits ? "" : ` ${this.#top + 1}–${last} of ${all}${this.morePages ? "+" : ""} `;
    // The title gives way first; the position stays when there is room for it.
    const room = width - 5 - columns(position);
    const title = room >= 2 ? cutToColumns(this.title, room - 2) : "";
    const titled = title ? ` ${title} ` : "";
    const shownPosition = columns(titled) + columns(position) <= width - 4 ? position : "";
    const fill = "─".repeat(Math.max(0, width - 4 - columns(titled) - columns(shownPosition)));
    const q = (text: string) => paint.fg("quiet", text);
    return `${q("╭─")}${paint.fg("bright", titled)}${q(fill)}${q(shownPosition)}${q("─╮")}`;
  }
}
