/**
 * Passwords anyone would try first, recognised by how they are made rather than listed one by one:
 * a word from the top of the leaked-password lists or the tutorials written in leetspeak
 * (`p4ssw0rd`, `P@$$w0rd`), two such words run together (`MyP@ssw0rd`, `s3cr3tp4ss`), a season or
 * month and a year (`Summer2024!`, the password sprayers' first guess), a walk over the keyboard
 * (`1q2w3e4r`, `!QAZ2wsx`), and devices' and images' factory defaults (`raspberry`, `calvin`,
 * `toor`). In a file they are examples; if one is real, no finding would make it safe. Each may be
 * followed by digits and punctuation.
 */

/**
 * Words at the top of the common-password lists, the defaults devices and images ship with, and
 * the parts the tutorials' passwords are built from.
 */
const COMMON_WORDS = new Set([
  // the tutorials' and fixtures' words
  "password",
  "passwd",
  "pass",
  "word",
  "secret",
  "admin",
  "root",
  "user",
  "test",
  "demo",
  "guest",
  "change",
  "me",
  "my",
  "super",
  "letmein",
  "welcome",
  "hello",
  "qwerty",
  "default",
  "master",
  "manager",
  "login",
  // the top of the leaked-password lists
  "monkey",
  "dragon",
  "sunshine",
  "princess",
  "football",
  "baseball",
  "shadow",
  "michael",
  "jesus",
  "superman",
  "batman",
  "starwars",
  "pokemon",
  "freedom",
  "whatever",
  "trustno",
  "iloveyou",
  "love",
  "charlie",
  "jordan",
  "mustang",
  "flower",
  "access",
  "ninja",
  "cheese",
  "killer",
  "aa",
  // the xkcd comic's example
  "troubador",
  "troubadour",
  // factory defaults of devices and images
  "toor",
  "raspberry",
  "alpine",
  "calvin",
  "ubnt",
  "vagrant",
  "minio",
  "cisco",
]);

/** Leetspeak back to letters, as the tutorials write their passwords. */
const LEET: Record<string, string> = {
  "4": "a",
  "@": "a",
  "3": "e",
  "1": "i",
  "!": "i",
  "0": "o",
  "$": "s",
  "5": "s",
  "7": "t",
  "+": "t",
};

/** Whether `text` is one common word, or two or three run together. */
function madeOfCommonWords(text: string, parts = 0): boolean {
  if (text === "") return parts > 0;
  if (parts === 3) return false;
  for (let end = text.length; end >= 2; end--) {
    if (COMMON_WORDS.has(text.slice(0, end)) && madeOfCommonWords(text.slice(end), parts + 1)) {
      return true;
    }
  }
  return false;
}

const SEASON_OR_MONTH =
  /^(?:spring|summer|autumn|fall|winter|january|february|march|april|may|june|july|august|september|october|november|december)[-_.]?(?:19|20)?\d\d[!@#$%^&*.?]*$/i;

/** The keyboard's rows, columns and the zigzags between two rows, as walks are typed. */
const KEYBOARD_LINES = [
  "1234567890",
  "qwertyuiop",
  "asdfghjkl",
  "zxcvbnm",
  "1qaz",
  "2wsx",
  "3edc",
  "4rfv",
  "5tgb",
  "6yhn",
  "7ujm",
  "1q2w3e4r5t6y7u8i9o0p",
  "qawsedrftgyhujikolp",
  "azsxdcfvgbhnjmk",
];

/** Shifted digits back to digits (`!QAZ` is typed on the keys of `1qaz`). */
const SHIFTED: Record<string, string> = {
  "!": "1",
  "@": "2",
  "#": "3",
  "$": "4",
  "%": "5",
  "^": "6",
  "&": "7",
  "*": "8",
  "(": "9",
  ")": "0",
};

/** Whether `text` is made of runs of three or more keys along a keyboard line, either way. */
function keyboardWalk(text: string): boolean {
  if (text === "") return true;
  // Every run starts with its first three keys, which lie along the line too (backwards for a run
  // typed backwards): when they do not, no run starts here. Most values end at this test.
  const head = text.slice(0, 3);
  const headReversed = [...head].reverse().join("");
  if (!KEYBOARD_LINES.some((line) => line.includes(head) || line.includes(headReversed))) {
    return false;
  }
  for (let end = text.length; end >= 3; end--) {
    const run = text.slice(0, end);
    const reversed = [...run].reverse().join("");
    if (
      KEYBOARD_LINES.some((line) => line.includes(run) || line.includes(reversed)) &&
      keyboardWalk(text.slice(end))
    ) {
      return true;
    }
  }
  return false;
}

/** Whether `value` is a password anyone would try first (see the module's comment). */
export function isCommonPassword(value: string): boolean {
  if (value.length > 24) return false;
  const lower = value.toLowerCase();
  if (SEASON_OR_MONTH.test(lower)) return true;
  const walk = [...lower].map((c) => SHIFTED[c] ?? c).join("");
  if (walk.length >= 6 && keyboardWalk(walk)) return true;
  // The word before any trailing digits and punctuation, read back from leetspeak.
  const stem = lower.replace(/[0-9!@#$%^&*.?_-]+$/, "");
  const letters = [...stem].map((c) => LEET[c] ?? c).join("");
  return /^[a-z]+$/.test(letters) && madeOfCommonWords(letters);
}
