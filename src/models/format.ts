/** Numbers as `wisp models` prints them: 65,536 tokens, 5.35 GB, 274.3 MB. Pure. */

export function formatCount(n: number): string {
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function trimmed(value: number, digits: number): string {
  // Only zeros after a decimal point go: 300 stays 300, 1.50 becomes 1.5.
  const text = value.toFixed(digits);
  return text.includes(".") ? text.replace(/\.?0+$/, "") : text;
}

/** Decimal units, as Ollama and the Finder report sizes. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${trimmed(bytes / 1e9, 2)} GB`;
  if (bytes >= 1e6) return `${trimmed(bytes / 1e6, 1)} MB`;
  if (bytes >= 1e3) return `${trimmed(bytes / 1e3, 0)} KB`;
  return `${Math.round(bytes)} B`;
}
