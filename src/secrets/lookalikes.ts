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
    /^\{\d*\}$/.test(value);
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
    isSopsCiphertext(value) || isWrappedPasswordHash(value);
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
