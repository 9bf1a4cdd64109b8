/**
 * A small incremental parser for server-sent events (the WHATWG event-stream
 * format), as OpenAI-compatible servers stream chat completions: lines end in
 * \n, \r\n or a lone \r (and a \r\n may be split between two reads); `data:`
 * lines accumulate, a blank line dispatches, `:` lines are comments. Text is
 * decoded with a streaming decoder, so a character split between reads
 * arrives whole. An event larger than the bound fails closed.
 */

export interface SseEvent {
  /** The `event:` field; "message" when none was given. */
  event: string;
  data: string;
  id?: string;
}

export class SseTooLarge extends Error {
  constructor(limit: number) {
    super(`an event was larger than ${limit} bytes`);
    this.name = "SseTooLarge";
  }
}

export const DEFAULT_MAX_EVENT_CHARS = 16 * 1024 * 1024;

export class SseParser {
  #line = "";
  #data: string[] = [];
  #dataChars = 0;
  #event = "";
  #id: string | undefined;
  #afterCR = false;

  constructor(private readonly maxEventChars = DEFAULT_MAX_EVENT_CHARS) {}

  /** Feed decoded text; returns the events it completed. */
  push(text: string): SseEvent[] {
    const events: SseEvent[] = [];
    let start = 0;
    if (this.#afterCR) {
      // The \n of a \r\n split across reads: the line already ended.
      this.#afterCR = false;
      if (text.charCodeAt(0) === 10) start = 1;
    }
    const breaks = /[\r\n]/g;
    breaks.lastIndex = start;
    for (let match = breaks.exec(text); match !== null; match = breaks.exec(text)) {
      const i = match.index;
      this.#endLine(
        this.#line === "" ? text.slice(start, i) : this.#line + text.slice(start, i),
        events,
      );
      this.#line = "";
      if (text.charCodeAt(i) === 13) {
        if (i + 1 === text.length) this.#afterCR = true;
        else if (text.charCodeAt(i + 1) === 10) breaks.lastIndex = i + 2;
      }
      start = breaks.lastIndex;
    }
    this.#line += text.slice(start);
    if (this.#line.length + this.#dataChars > this.maxEventChars) {
      throw new SseTooLarge(this.maxEventChars);
    }
    return events;
  }

  /** The end of the stream: a final line without its blank line is dispatched only if complete. */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    if (this.#line !== "") this.#endLine(this.#line, events);
    this.#line = "";
    // A stream that ends without the blank line drops the partial event, as browsers do.
    this.#data = [];
    this.#dataChars = 0;
    this.#event = "";
    return events;
  }

  #endLine(line: string, events: SseEvent[]): void {
    if (line === "") {
      if (this.#data.length > 0) {
        events.push({
          event: this.#event || "message",
          data: this.#data.join("\n"),
          ...(this.#id !== undefined ? { id: this.#id } : {}),
        });
      }
      this.#data = [];
      this.#dataChars = 0;
      this.#event = "";
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "data":
        this.#data.push(value);
        this.#dataChars += value.length + 1;
        if (this.#dataChars > this.maxEventChars) throw new SseTooLarge(this.maxEventChars);
        break;
      case "event":
        this.#event = value;
        break;
      case "id":
        if (!value.includes("\0")) this.#id = value;
        break;
      default:
        // retry and unknown fields are ignored.
    }
  }
}

/** The events of a byte stream, in order. Throws what the stream throws, and SseTooLarge. */
export async function* sseEvents(
  body: ReadableStream<Uint8Array>,
  maxEventChars = DEFAULT_MAX_EVENT_CHARS,
): AsyncGenerator<SseEvent> {
  const parser = new SseParser(maxEventChars);
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let ended = false;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const event of parser.push(decoder.decode(value, { stream: true }))) yield event;
    }
    ended = true;
    for (const event of parser.push(decoder.decode())) yield event;
    for (const event of parser.end()) yield event;
  } finally {
    // A consumer that stops early (at [DONE], on an error) releases the connection.
    if (!ended) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
