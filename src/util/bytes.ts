/**
 * Sizes and counts as wisp writes them for people and models, and cutting
 * text by its UTF-8 length. Pure.
 */

const encoder = new TextEncoder();

/** The UTF-8 length of a text, in bytes. */
export function byteLength(text: string): number {
  return encoder.encode(text).length;
}

/** 2270 → "2,270". */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** A size for people and models: "812 bytes", "180 KiB", "3.4 MiB". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} byte${n === 1 ? "" : "s"}`;
  if (n < 1024 * 1024) return `${formatCount(Math.round(n / 1024))} KiB`;
  if (n < 1024 * 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MiB`;
  return `${(n / (1024 * 1024 * 1024)).toFixed(1).replace(/\.0$/, "")} GiB`;
}

/** Cut a string to at most `max` UTF-8 bytes without splitting a character. */
export function cutToBytes(text: string, max: number): string {
  if (max <= 0) return "";
  const bytes = encoder.encode(text);
  if (bytes.length <= max) return text;
  let end = max;
  // Step back over continuation bytes (10xxxxxx) so a character stays whole.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return new TextDecoder().decode(bytes.subarray(0, end));
}

function trimmed(value: number, digits: number): string {
  // Only zeros after a decimal point go: 300 stays 300, 1.50 becomes 1.5.
  const text = value.toFixed(digits);
  return text.includes(".") ? text.replace(/\.?0+$/, "") : text;
}

/** A size in decimal units, as Ollama, model hubs and the Finder report them: "5.35 GB", "300 KB". */
export function formatDecimalBytes(bytes: number): string {
  if (bytes >= 1e9) return `${trimmed(bytes / 1e9, 2)} GB`;
  if (bytes >= 1e6) return `${trimmed(bytes / 1e6, 1)} MB`;
  if (bytes >= 1e3) return `${trimmed(bytes / 1e3, 0)} KB`;
  return `${Math.round(bytes)} B`;
}

/** The parts joined into one array of `total` bytes (the sum of their lengths). */
export function concatBytes(parts: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
