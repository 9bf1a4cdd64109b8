/**
 * Values shaped like credentials that are not secret, each recognised by the class it belongs to
 * rather than by one sample: keys a vendor publishes for its local emulators, documentation keys
 * marked in capitals (`…EXAMPLEKEY`), strings that repeat a shorter unit, format-string
 * placeholders (`%(password)s`), phrases that say they stand in for a value
 * (`fake_db_password_for_tests`), ciphertext written by sops, a hash wrapped in a hasher's name
 * (Django's `bcrypt_sha256$$2b$…`), relative file paths, an OpenPGP key id under git's
 * `signingkey`, and a word inside a resource name (`arn:…:secret:…`). Pure predicates; the rules
 * call them beside the checks of `allowlist.ts`.
 */

/**
 * Keys published for local development tools, the same on every machine: Azurite's and the Azure
 * Storage Emulator's account key for `devstoreaccount1`, and the Azure Cosmos DB emulator's key.
 */
const PUBLISHED_DEVELOPMENT_KEYS = new Set([
  "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
  "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==",
]);

/**
 * A marker word written in capitals inside a mixed-case token, as AWS marks every key in its
 * documentation (`AKIAI44QH8DHBEXAMPLE`, `…/h3yCo8nvbEXAMPLEKEY`). Seven fixed capitals do not turn
 * up in a random token by chance.
 */
const CAPITAL_MARKERS = /EXAMPLE|PLACEHOLDER|REDACTED|DUMMY|SAMPLE|NOTREAL|CHANGEME/;

/**
 * A string that repeats a shorter unit (`1234567890abcdef1234567890abcdef`, `abcabcabc`): typed to
 * fill a field, never generated.
 */
export function isPeriodic(value: string): boolean {
  const n = value.length;
  if (n < 8) return false;
  for (let period = 1; period <= n / 2; period++) {
    let i = period;
    while (i < n && value.charCodeAt(i) === value.charCodeAt(i - period)) i++;
    if (i === n) return true;
  }
  return false;
}

/**
 * A format string's placeholder standing where a value will be put: Python's `%(password)s` and
 * `%s`, `str.format`'s `{}` and `{0}`, .NET's `{0}`.
 */
export function isFormatPlaceholder(value: string): boolean {
  return /^%(?:\([A-Za-z_][\w.]*\))?[-#0 +]*\d*(?:\.\d+)?[sdrifgx]$/.test(value) ||
    /^\{\d*\}$/.test(value) ||
    // A reader that stops at `)` leaves `%(pw` of `password=%(pw)s` inside a longer string.
    /^%\([A-Za-z_][\w.]*$/.test(value);
}

/** Verbs that open an instruction written where the value goes (`generate-with-openssl-rand-hex-32`). */
const INSTRUCTION_VERBS = new Set([
  "generate",
  "replace",
  "insert",
  "put",
  "paste",
  "enter",
  "fill",
  "set",
  "add",
  "use",
  "change",
  "create",
  "copy",
  "get",
  "see",
  "run",
  "ask",
]);

/**
 * An instruction in place of a value: three or more lower-case words (digits allowed) joined by
 * `-`, `_` or spaces, the first a verb telling the reader what to put there
 * (`generate-with-openssl-rand-hex-32`, `replace_with_your_own`, `ask-ops-for-it`).
 */
export function isInstruction(value: string): boolean {
  if (!/^[a-z]+(?:[-_ ][a-z0-9]+){2,}$/.test(value)) return false;
  return INSTRUCTION_VERBS.has(value.slice(0, value.search(/[-_ ]/)));
}

/**
 * A validator's rule list written where a form's field is named (Laravel's
 * `password: "min:12|max:128|mixedCase"`, `password_confirmation: "same:password"`): rules joined
 * by `|`, or one rule whose argument is the name of another field.
 */
export function isValidationRules(value: string): boolean {
  if (!value.includes(":") && !value.includes("|")) return false;
  // Two plain words around a `|` could be a chosen password; a rule list has an argument or more parts.
  if (RULE_LIST.test(value)) return value.includes(":") || value.split("|").length >= 3;
  return ONE_RULE_ON_A_FIELD.test(value);
}

const RULE_LIST = /^[a-z][A-Za-z_]*(?::[\w.,@-]*)?(?:\|[a-z][A-Za-z_]*(?::[\w.,@-]*)?)+$/;
const ONE_RULE_ON_A_FIELD =
  /^(?:same|different|confirmed|required_with|required_if|gt|lt|gte|lte):[a-z_]+$/;

/**
 * A value padded to a token's length with one character repeated at its end
 * (`ghp_PersonalAccessToken01245678900000000`): written to fill the shape in documentation. Six
 * equal characters end a generated token once in billions; `A` and `=` are left out, since base64
 * of binary data ends in them.
 */
export function isPadded(value: string): boolean {
  const n = value.length;
  if (n < 20) return false;
  const last = value.charCodeAt(n - 1);
  if (last === 65 || last === 61) return false; // "A", "="
  for (let i = n - 6; i < n - 1; i++) if (value.charCodeAt(i) !== last) return false;
  return true;
}

/**
 * A locator of any scheme with no user or password in it (`sm://prod/redis-password`,
 * `doppler://acme/prd/SMTP_PASSWORD`, `ref+vault://secret/data/api#token`), and a URN
 * (`urn:ietf:params:oauth:token-type:jwt`): it names where a value lives or what it is.
 */
export function isLocator(value: string): boolean {
  if (!value.includes("://") && !/^urn:/i.test(value)) return false;
  // Web addresses are left to the rules that know which of them carry a key in their path.
  if (/^(?:https?|wss?):/i.test(value)) return false;
  return /^[a-z][a-z0-9+.-]{1,24}:\/\/[^\s@]+$/i.test(value) || /^urn:[a-z0-9-]+:\S+$/i.test(value);
}

/** A word in a value that only a sentence holds (a passphrase is chosen words, not these). */
const FUNCTION_WORDS = new Set([
  "the",
  "a",
  "an",
  "to",
  "of",
  "from",
  "in",
  "on",
  "with",
  "for",
  "and",
  "or",
  "is",
  "are",
  "be",
  "must",
  "should",
  "will",
  "can",
  "not",
  "your",
  "this",
  "that",
  "against",
  "de",
  "la",
  "le",
  "du",
  "des",
  "der",
  "die",
  "das",
  "und",
  "el",
  "los",
]);

/**
 * Text written for people where a value could stand: a sentence (`Exact match against string`,
 * `read the password from standard input`, `Mot de passe`), a phrase with a note in brackets, or a
 * value written in a script other than Latin (`パスワード`, a label in a translation file).
 * Generated secrets have no spaces and stay in ASCII; a passphrase is chosen words with none of
 * a sentence's small words.
 */
export function isProse(value: string): boolean {
  // CJK, kana, Hangul, full-width forms: a label, not a password typed on a Latin keyboard.
  if (/[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]/.test(value)) return true;
  // One word of letters with one outside ASCII (`Contraseña`, `Passwort`'s translations): a label.
  if (/[^\x20-\x7e]/.test(value) && /^\p{L}+$/u.test(value)) return true;
  if (!/\s/.test(value)) return false;
  const words = value.split(/\s+/).filter((w) => w !== "");
  if (words.length < 2) return false;
  if (/[^\x20-\x7e\s]/.test(value) && /^[\p{L}\s',.!?()-]+$/u.test(value)) return true;
  if (/\([\w ]+\)|[.!?:]$/.test(value)) return true;
  return words.some((w) => FUNCTION_WORDS.has(w.toLowerCase()));
}

/** Words that say a value is not the real one. */
const NOT_REAL_WORDS = new Set([
  "fake",
  "dummy",
  "mock",
  "bogus",
  "placeholder",
  "example",
  "sample",
  "test",
  "tests",
  "testing",
  "demo",
  "unused",
]);

/**
 * Three or more lower-case words joined by `_`, `-`, `.` or spaces, one of which says the value is
 * not real (`fake_db_password_for_tests`, `unused-smtp-password-placeholder`). A phrase describes
 * a value; a chosen passphrase holds none of these words, and a generated secret is not words.
 */
export function isStandInPhrase(value: string): boolean {
  if (!/^[a-z]+(?:[-_. ][a-z]+){2,}$/.test(value)) return false;
  return value.split(/[-_. ]/).some((word) => NOT_REAL_WORDS.has(word));
}

/** A value sops encrypted: `ENC[AES256_GCM,data:…,iv:…,tag:…,type:str]`. */
export function isSopsCiphertext(value: string): boolean {
  return /^ENC\[[A-Z0-9_]+,data:[A-Za-z0-9+/=]*,iv:/.test(value);
}

/**
 * A crypt-format hash behind a hasher's name, as Django stores `bcrypt_sha256$$2b$12$…` and
 * `bcrypt$$2b$…`: the name, a `$`, then a modular-crypt string (`$id$…$…`).
 */
export function isWrappedPasswordHash(value: string): boolean {
  return /^[a-z][a-z0-9_]*\$\$(?:2[abxy]?|1|5|6|y|argon2(?:id|i|d)|scrypt|pbkdf2[\w-]*)\$[^\s$]+\$/
    .test(value);
}

/**
 * A path relative to somewhere, ending in a file's name with its extension
 * (`uploads/2024/05/<uuid>.pdf`, `certs/prod/tls.key`): where something is, not a secret. A
 * segment of twenty or more letters and digits of both cases is base64 (an AWS secret holds `/`),
 * and base64's `+` and `=` do not occur in these paths.
 */
export function isRelativeFilePath(value: string): boolean {
  if (!/^[\w.@%-]+(?:\/[\w.@%-]+)+\.[a-z][a-z0-9]{0,4}$/.test(value)) return false;
  return !value.split("/").some((part) =>
    part.length >= 20 && /[A-Z]/.test(part) && /[a-z]/.test(part) && /\d/.test(part) &&
    !/[-_.]/.test(part)
  );
}

/**
 * Whether a candidate value is one of the look-alikes above that needs no name or context to be
 * told apart (the rules call this with their placeholder check).
 */
export function isValueLookalike(value: string): boolean {
  if (PUBLISHED_DEVELOPMENT_KEYS.has(value)) return true;
  if (value.length >= 16 && CAPITAL_MARKERS.test(value) && /[a-z]/.test(value)) return true;
  return isPeriodic(value) || isFormatPlaceholder(value) || isStandInPhrase(value) ||
    isSopsCiphertext(value) || isWrappedPasswordHash(value) || isInstruction(value) ||
    isValidationRules(value) || isPadded(value);
}

/**
 * An OpenPGP key id or fingerprint (8, 16 or 40 hex digits, as GnuPG prints them, optionally
 * `0x`) under a name that says it signs, as git's `user.signingKey` and Gradle's `signing.keyId`
 * hold them: it names a public key.
 */
export function isSigningKeyId(name: string, value: string): boolean {
  if (!/sign/i.test(name)) return false;
  return /^(?:0x)?(?:[0-9A-F]{8}|[0-9A-F]{16}|[0-9A-F]{40})$/.test(value);
}

/**
 * Whether the name starting at `nameStart` is a word inside a resource name such as an ARN
 * (`arn:aws:secretsmanager:…:secret:prod/db`) or a URN, rather than a key being assigned.
 */
export function insideResourceName(text: string, nameStart: number): boolean {
  let tokenStart = nameStart;
  while (
    tokenStart > 0 && nameStart - tokenStart < 256 && !/[\s"'=,([{]/.test(text[tokenStart - 1])
  ) {
    tokenStart--;
  }
  return tokenStart < nameStart && /^(?:arn|urn):[\w.-]*:/i.test(text.slice(tokenStart, nameStart));
}

/**
 * A name made of words (`_AbstractChatCompletionRunner_validateParams`,
 * `__wbg_queueMicrotask_78d584b53af520f5`, `MCP-2025-03-26-Authorization-metadata-discovery`):
 * at least two words of four or more letters (or one of ten), and with the numbers, short parts and a hash
 * suffix beside them, seven tenths of its characters. In a mixed-case random string the letters
 * that happen to spell such words cover far less (none of 20,000 draws of 32 to 64 characters
 * reached it).
 */
export function isWordIdentifier(value: string): boolean {
  let covered = 0;
  let words = 0;
  let longest = 0;
  for (const part of value.split(/[_\-/+.=]+/)) {
    if (/^[0-9a-f]{8,}$/.test(part) || /^(?:\d+|[A-Z]{2,5}|[a-z]{2,3})$/.test(part)) {
      covered += part.length;
      continue;
    }
    for (const piece of part.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? []) {
      if (
        piece.length >= 4 && /^[A-Z]?[a-z]+$/.test(piece) && /[aeiouy]/i.test(piece.slice(1)) &&
        !/[bcdfghjklmnpqrstvwxz]{4}/i.test(piece)
      ) {
        covered += piece.length;
        words++;
        longest = Math.max(longest, piece.length);
      }
    }
  }
  return (words >= 2 || longest >= 10) && covered >= 0.7 * value.length;
}

/**
 * An alphabet written out in some order (nanoid's `useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF…`,
 * a base64 table): forty-eight or more characters, none twice. Forty-eight random draws from 64
 * characters all differ about once in a hundred billion.
 */
export function isAlphabet(value: string): boolean {
  return value.length >= 48 && new Set(value).size === value.length;
}

/**
 * A command line where a value could be (`openssl rand -hex 32` in backticks): a program's name,
 * then words, one of them an option. What the command prints is the value, not the command.
 */
export function isCommandLine(value: string): boolean {
  return /^[a-z][\w.-]*\s(?:.*\s)?--?[A-Za-z][\w-]*(?:\s|=|$)/.test(value);
}

/**
 * A string whose characters repeat the one before far more often than chance allows
 * (`AfBgDgBBOrWrWBHHBCBICC…`, a packed table of ranges), or that one character dominates: an
 * encoding of structured data. In a random string over 62 or more characters a character follows
 * itself about once in 62 places.
 */
export function hasStructuredRepeats(value: string): boolean {
  let repeats = 0;
  const counts = new Map<string, number>();
  let most = 0;
  for (let i = 0; i < value.length; i++) {
    if (i > 0 && value[i] === value[i - 1]) repeats++;
    const n = (counts.get(value[i]) ?? 0) + 1;
    counts.set(value[i], n);
    if (n > most) most = n;
  }
  // Or one character is a fifth of it (`…BzqBBEBXhGhGyBhMhMB…`): in 32 or more random draws from
  // 62 characters that happens a few times in a hundred thousand.
  return repeats > 2 + value.length / 10 || most >= Math.max(7, value.length / 5);
}

/**
 * Base64 (or base64url) of text rather than of random bytes: decoded, it is printable and reads
 * as words or JSON (`VGhpcyBpcyBh…` is "This is a…", `eyJhbGciOi…` is `{"alg":…`). A key or a
 * token encodes bytes that are not.
 */
export function isEncodedText(value: string): boolean {
  const body = value.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/");
  if (body.length < 16 || !/^[A-Za-z0-9+/]+$/.test(body)) return false;
  let decoded: string;
  try {
    decoded = atob(body.slice(0, body.length - (body.length % 4)));
  } catch {
    return false;
  }
  if (!/^[\x20-\x7e\t\n\r]+$/.test(decoded)) return false;
  return /^\s*[{[]"?/.test(decoded) || / [A-Za-z]/.test(decoded) || /^[A-Za-z]+$/.test(decoded);
}
