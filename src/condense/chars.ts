/**
 * Character codes by name, for the readers' and the normalising layer's
 * tests of a line's characters (`first[i] === HASH`, `isDigit(c)`). Testing a
 * code rather than a one-character string keeps the hot loops on numbers;
 * the names keep them readable.
 */

export const TAB = 9;
export const SPACE = 32;
export const EXCLAMATION = 33;
export const DOUBLE_QUOTE = 34;
export const HASH = 35;
export const DOLLAR = 36;
export const PERCENT = 37;
export const AMPERSAND = 38;
export const APOSTROPHE = 39;
export const OPEN_PAREN = 40;
export const CLOSE_PAREN = 41;
export const ASTERISK = 42;
export const PLUS = 43;
export const COMMA = 44;
export const DASH = 45;
export const DOT = 46;
export const SLASH = 47;
export const DIGIT_0 = 48;
export const DIGIT_9 = 57;
export const COLON = 58;
export const SEMICOLON = 59;
export const LESS_THAN = 60;
export const EQUALS = 61;
export const GREATER_THAN = 62;
export const QUESTION_MARK = 63;
export const AT_SIGN = 64;
export const OPEN_BRACKET = 91;
export const BACKSLASH = 92;
export const CLOSE_BRACKET = 93;
export const CARET = 94;
export const UNDERSCORE = 95;
export const BACKTICK = 96;
export const OPEN_BRACE = 123;
export const PIPE = 124;
export const CLOSE_BRACE = 125;
export const TILDE = 126;

/** Letters: `UPPER_T` is "T", `LOWER_E` is "e". */
export const UPPER_A = 65;
export const UPPER_B = 66;
export const UPPER_C = 67;
export const UPPER_D = 68;
export const UPPER_E = 69;
export const UPPER_F = 70;
export const UPPER_G = 71;
export const UPPER_H = 72;
export const UPPER_I = 73;
export const UPPER_J = 74;
export const UPPER_K = 75;
export const UPPER_L = 76;
export const UPPER_M = 77;
export const UPPER_N = 78;
export const UPPER_O = 79;
export const UPPER_P = 80;
export const UPPER_Q = 81;
export const UPPER_R = 82;
export const UPPER_S = 83;
export const UPPER_T = 84;
export const UPPER_U = 85;
export const UPPER_V = 86;
export const UPPER_W = 87;
export const UPPER_X = 88;
export const UPPER_Y = 89;
const UPPER_Z = 90;
export const LOWER_A = 97;
export const LOWER_B = 98;
export const LOWER_C = 99;
export const LOWER_D = 100;
export const LOWER_E = 101;
export const LOWER_F = 102;
export const LOWER_G = 103;
export const LOWER_H = 104;
export const LOWER_I = 105;
export const LOWER_J = 106;
export const LOWER_K = 107;
export const LOWER_L = 108;
export const LOWER_M = 109;
export const LOWER_N = 110;
export const LOWER_O = 111;
export const LOWER_P = 112;
export const LOWER_Q = 113;
export const LOWER_R = 114;
export const LOWER_S = 115;
export const LOWER_T = 116;
export const LOWER_U = 117;
export const LOWER_V = 118;
export const LOWER_W = 119;
export const LOWER_X = 120;
export const LOWER_Y = 121;
const LOWER_Z = 122;

/** "0" to "9". */
export function isDigit(c: number): boolean {
  return c >= DIGIT_0 && c <= DIGIT_9;
}

/** "A" to "Z". */
export function isUpper(c: number): boolean {
  return c >= UPPER_A && c <= UPPER_Z;
}

/** "a" to "z". */
export function isLower(c: number): boolean {
  return c >= LOWER_A && c <= LOWER_Z;
}

/** The last ASCII code: a line whose first code is above it starts with a mark or a letter of another script. */
export const LAST_ASCII = 127;
export const LINE_FEED = 10;
export const CARRIAGE_RETURN = 13;
/** ESC, which starts a terminal escape sequence. */
export const ESCAPE = 0x1b;
/** U+FEFF at the very start of a text: a byte-order mark, not part of the output. */
export const BYTE_ORDER_MARK = 0xfeff;
export const LINE_SEPARATOR = 0x2028;
export const PARAGRAPH_SEPARATOR = 0x2029;

/** Marks test reporters print at the start of a line. */
export const HEAVY_X = 0x2716; // ✖
export const HEAVY_CHECK = 0x2714; // ✔
export const BLACK_CIRCLE = 0x25cf; // ●
export const BLACK_RIGHT_TRIANGLE = 0x25b6; // ▶
export const INFORMATION = 0x2139; // ℹ
export const SMALL_HYPHEN = 0xfe63; // ﹣
export const HORIZONTAL_LINE_EXTENSION = 0x23af; // ⎯
