/**
 * Paging of resource collections and long texts. Pure functions: each takes
 * the whole list (or text) and the page asked for, and returns the page with
 * its links, or an error sentence for a page past the last.
 */

/** Rows on a page of an ordinary collection. */
export const ROWS_PER_PAGE = 50;
/** Events on a page of an audit collection, unless &limit= says otherwise. */
const EVENTS_PER_PAGE = 100;
/** A text longer than this is served in pages of this many bytes. */
const TEXT_PAGE_BYTES = 16 * 1024;

export interface PageInfo {
  page: number;
  pages: number;
  total: number;
  next: string | null;
}

export type Paged<T> = { ok: true; rows: T[]; info: PageInfo } | { ok: false; error: string };

function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

function pageUri(base: string, page: number, limit?: number): string {
  const parts = [`page=${page}`];
  if (limit !== undefined) parts.push(`limit=${limit}`);
  return `${base}?${parts.join("&")}`;
}

function pastLast(page: number, pages: number): string {
  return `page ${page} is past the last page (${pages})`;
}

/** One page of rows. `keepLimit` puts &limit= into the links. */
export function pageOf<T>(
  rows: T[],
  page: number,
  size: number,
  base: string,
  keepLimit?: number,
): Paged<T> {
  const pages = pageCount(rows.length, size);
  if (page > pages) return { ok: false, error: pastLast(page, pages) };
  const start = (page - 1) * size;
  return {
    ok: true,
    rows: rows.slice(start, start + size),
    info: {
      page,
      pages,
      total: rows.length,
      next: page < pages ? pageUri(base, page + 1, keepLimit) : null,
    },
  };
}

export interface AuditPage<T> extends PageInfo {
  events: T[];
  limit: number;
  last: string;
}

/** A page of an audit collection: oldest first, `limit` a page, with the link to the newest page. */
export function auditPageOf<T>(
  events: T[],
  page: number,
  base: string,
  limit?: number,
): { ok: true; value: AuditPage<T> } | { ok: false; error: string } {
  const size = limit ?? EVENTS_PER_PAGE;
  const result = pageOf(events, page, size, base, limit);
  if (!result.ok) return result;
  return {
    ok: true,
    value: {
      events: result.rows,
      limit: size,
      ...result.info,
      last: pageUri(base, result.info.pages, limit),
    },
  };
}

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/** Move a byte offset forward to the start of a UTF-8 character. */
function charStart(bytes: Uint8Array, offset: number): number {
  let i = offset;
  while (i < bytes.length && isContinuation(bytes[i])) i++;
  return i;
}

export interface TextPage extends PageInfo {
  text: string;
}

/**
 * A page of a text. A text of at most TEXT_PAGE_BYTES is one page; a longer
 * one is cut every TEXT_PAGE_BYTES bytes (moved to a character start), and
 * each page after the first begins with a line naming it.
 */
export function textPageOf(
  bytes: Uint8Array,
  page: number,
  base: string,
  what: string,
  size = TEXT_PAGE_BYTES,
): { ok: true; value: TextPage } | { ok: false; error: string } {
  const pages = pageCount(bytes.length, size);
  if (page > pages) return { ok: false, error: pastLast(page, pages) };
  const start = charStart(bytes, (page - 1) * size);
  const end = charStart(bytes, Math.min(bytes.length, page * size));
  const body = new TextDecoder().decode(bytes.subarray(start, end));
  const text = page === 1 ? body : `[page ${page} of ${pages} of ${what}]\n${body}`;
  return {
    ok: true,
    value: {
      text,
      page,
      pages,
      total: bytes.length,
      next: page < pages ? pageUri(base, page + 1) : null,
    },
  };
}
