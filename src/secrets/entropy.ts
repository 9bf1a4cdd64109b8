/**
 * Measures of how random a string looks. Shannon entropy (bits per
 * character) separates generated tokens from words and identifiers; the
 * character-class count separates `Sup3r-Secret` from `userPassword`.
 */

/** Shannon entropy of the characters of `value`, in bits per character. */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<number, number>();
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

interface CharClasses {
  lower: boolean;
  upper: boolean;
  digit: boolean;
  symbol: boolean;
}

function charClasses(value: string): CharClasses {
  return {
    lower: /[a-z]/.test(value),
    upper: /[A-Z]/.test(value),
    digit: /[0-9]/.test(value),
    symbol: /[^A-Za-z0-9]/.test(value),
  };
}

/** How many of lower, upper, digit and symbol occur in `value`. */
export function classCount(value: string): number {
  const c = charClasses(value);
  return Number(c.lower) + Number(c.upper) + Number(c.digit) + Number(c.symbol);
}

const ALPHABETS = [
  "abcdefghijklmnopqrstuvwxyz",
  "0123456789",
  "qwertyuiop",
  "asdfghjkl",
  "zxcvbnm",
];

/** A run of `length` characters that walks an alphabet or keyboard row (`abcdefgh`, `12345678`). */
export function hasSequentialRun(value: string, length = 8): boolean {
  const lower = value.toLowerCase();
  for (const alphabet of ALPHABETS) {
    for (let i = 0; i + length <= alphabet.length; i++) {
      if (lower.includes(alphabet.slice(i, i + length))) return true;
    }
  }
  return false;
}

/** The same character repeated: `aaaaaaaa`, `00000000`. */
export function isRepetitive(value: string): boolean {
  return value.length > 0 && /^(.)\1*$/s.test(value);
}
