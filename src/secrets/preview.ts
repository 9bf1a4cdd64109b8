/**
 * Masked previews. A preview says what was found and where it starts, never
 * what it is: at most the public prefix a vendor puts on every token (`ghp_`,
 * `sk_live_`), the last four digits of a card (as receipts print them), the
 * top-level domain of an email, and the value's length.
 */
export function maskedPreview(kind: string, value: string, visible: number): string {
  const length = value.length;
  if (kind === "email") {
    const tld = value.slice(value.lastIndexOf("."));
    return `${value[0]}***@***${tld}`;
  }
  if (kind === "credit-card") {
    const digits = value.replace(/\D/g, "");
    return `****${digits.slice(-4)}`;
  }
  if (kind === "iban") return `${value.slice(0, 2)}****[${value.replace(/ /g, "").length}]`;
  // Never show more than a third of a value, whatever the rule says.
  const shown = Math.min(visible, Math.floor(length / 3));
  return `${value.slice(0, shown)}****[${length}]`;
}
