/**
 * Quoting a word for a POSIX shell line, the one way wisp does it: single
 * quotes, with each `'` written as `'\''`. Pure.
 */

/** Characters that need no quoting in any POSIX shell (nor zsh, nor fish). */
const BARE_WORD = /^[\w@%+=:,./-]+$/;

/** A word as the shell reads it, always single-quoted: `it's` → `'it'\''s'`. */
export function quoteWord(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A word as the shell reads it, quoted only when it needs it (an empty word is `''`). */
export function shellQuote(word: string): string {
  return word !== "" && BARE_WORD.test(word) ? word : quoteWord(word);
}
