/**
 * What only looks like a secret: placeholders and documented examples,
 * template variables, references to where the real value lives, hashes and
 * ids. Each check is a pure predicate on a candidate value; the rules call
 * the ones that apply to them (a git SHA is never a GitHub token, but it can
 * sit where a generic `secret = …` value would).
 */
import { hasSequentialRun, isRepetitive } from "./entropy.ts";
import { isCommonPassword } from "./common_passwords.ts";
import { isLocator, isRelativeFilePath, isValueLookalike } from "./lookalikes.ts";

/** Values published in vendors' documentation as examples. */
const DOCUMENTED_EXAMPLES = new Set([
  "AKIAIOSFODNN7EXAMPLE",
  "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
  "pk_test_TYooMQauvdEDq54NiTphI7jx",
  // The first accounts of every local Hardhat and Anvil node, printed at start-up and in their docs.
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  // Their default recovery phrase.
  "test test test test test test test test test test test junk",
  // jwt.io's default token
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
]);

const PLACEHOLDER_WORDS = [
  "example",
  "xxxx",
  "****",
  "your_",
  "your-",
  "yourkey",
  "yourtoken",
  "yoursecret",
  "yourpassword",
  "placeholder",
  "changeme",
  "change_me",
  "change-me",
  "replace_me",
  "replaceme",
  "replace-me",
  "dummy",
  "redacted",
  "sample",
  "insert_",
  "insert-",
  "todo",
  "fixme",
  "notreal",
  "not_real",
  "not-a-real",
  "secret_here",
  "key_here",
  "token_here",
  "here>",
  "...",
  "\u2026",
];

/** Words that, as the whole value, are a stand-in rather than a secret. */
const PLACEHOLDER_VALUES = new Set([
  "password",
  "passwd",
  "pw",
  "pwd",
  "pass",
  "secret",
  "token",
  "apikey",
  "api_key",
  "api-key",
  "key",
  "null",
  "none",
  "nil",
  "true",
  "false",
  "undefined",
  "empty",
  "test",
  "testing",
  "admin",
  "root",
  "user",
  "username",
  "default",
  "string",
  "required",
  "optional",
  "hidden",
  "masked",
  "value",
  "secret123",
  "password123",
  "mysecretpassword",
  "supersecret",
  // GitHub's stand-in password when the token is the user part of a URL (`https://TOKEN:x-oauth-basic@…`).
  "x-oauth-basic",
]);

/**
 * Passwords every tutorial and test fixture uses (`P@ssw0rd1!`, `hunter2`, `changeit`): the stem
 * before any trailing digits and punctuation. Anyone guesses them first, so they are examples,
 * not leaked secrets.
 */
const WELL_KNOWN_STEMS = new Set([
  "password",
  "passw0rd",
  "p@ssw0rd",
  "p@ssword",
  "pa55word",
  "pa55w0rd",
  "pa$$word",
  "pa$$w0rd",
  "hunter",
  "letmein",
  "qwerty",
  "qwertyuiop",
  "asdfgh",
  "secret",
  "s3cr3t",
  "s3cret",
  "topsecret",
  "supersecret",
  "mysecret",
  "admin",
  "administrator",
  "changeit",
  "welcome",
  "iloveyou",
  "trustno",
  "opensesame",
  "test",
  "tester",
  "demo",
  "foobar",
  "guest",
  "anonymous",
  "abc",
  "correcthorsebatterystaple",
  // Oracle's demo schema, `scott/tiger`, in every JDBC tutorial.
  "tiger",
]);

/** A well-known example password, with or without trailing digits and punctuation. */
export function isWellKnownPassword(value: string): boolean {
  const stem = value.toLowerCase().replace(/[0-9!@#$%^&*.?_-]+$/, "");
  if (stem === "") return /^\d{4,}$/.test(value) && hasSequentialRun(value, 4);
  return WELL_KNOWN_STEMS.has(stem) || isCommonPassword(value);
}

function isDocumentedExample(value: string): boolean {
  return DOCUMENTED_EXAMPLES.has(value);
}

/** A template or variable reference: `${VAR}`, `{{ x }}`, `$(cmd)`, `<%= x %>`, `%VAR%`, `$VAR`. */
export function isTemplateReference(value: string): boolean {
  // Each marker with what follows it in a real template (a name, a space, the closing half), so
  // that a random secret holding `${`, `{{` or `{%` by chance (a WordPress salt) is not taken for
  // one: `{{` counts at the start (an unquoted value is cut at the space inside) or when closed.
  return /\$\{[A-Za-z_][\w.]*(?:[:}?=+(\[-]|$)|\$\{\d+[:}]|^\{\{|\{\{.*\}\}|\}\}$|\$\([A-Za-z_ ]|<%.*%>|^<%|\{%.*%\}|^\{%|^%[A-Za-z_][\w.]*%$|^%env\([\w:.-]+\)%$|^<<[\w.-]+>>$|<[A-Za-z][\w-]{1,40}>|^\$[A-Za-z_][A-Za-z0-9_]*$|^@@?[A-Za-z_][A-Za-z0-9_.]*@@?$|\{[A-Za-z_][\w.]*(?:\[[\w'"]+\])?\}|^#\{/
    .test(value);
}

/**
 * Words a made-up value is built from in fixtures and docs: `fake-password-for-tests`,
 * `test_api_key_123`, `my-dev-secret`. A value made only of these (and digits) says what it stands
 * for instead of being it.
 */
export const STAND_IN_WORDS = new Set([
  "fake",
  "dummy",
  "mock",
  "test",
  "tests",
  "testing",
  "example",
  "sample",
  "placeholder",
  "demo",
  "dev",
  "local",
  "my",
  "your",
  "the",
  "a",
  "for",
  "not",
  "real",
  "some",
  "here",
  "value",
  "foo",
  "bar",
  "baz",
  "api",
  "key",
  "token",
  "secret",
  "password",
  "pass",
  "pw",
  "auth",
  "access",
  "client",
  "private",
  "user",
  "admin",
  // Words a test uses for the value it expects to be refused or replaced (`wrong-password`,
  // `new_secret`, `invalid-token-123`), and words docs pad a sample with (`SuperSecretToken`,
  // `personal-access-token123`).
  "wrong",
  "incorrect",
  "invalid",
  "bad",
  "correct",
  "valid",
  "good",
  "new",
  "old",
  "other",
  "another",
  "super",
  "personal",
]);

/** The stand-in words of two or more letters, by their first two letters. */
const STAND_IN_BY_START = new Map<string, string[]>();
for (const word of STAND_IN_WORDS) {
  if (word.length < 2) continue;
  const start = word.slice(0, 2);
  STAND_IN_BY_START.set(start, [...(STAND_IN_BY_START.get(start) ?? []), word]);
}

const SPLIT_ENDS = new Uint8Array(65);

/**
 * Whether a run of letters is stand-in words written together (`mypersonalaccesstoken`, a
 * camel-case `SuperSecretToken` lower-cased): split by trying, at each place a split can reach, the
 * words that start with the next two letters. Most runs start with no stand-in word and are
 * refused at once (every value a secret-like name is given passes through here).
 */
function joinedStandInWords(run: string): boolean {
  if (run.length < 4 || run.length > 64) return false;
  const first = STAND_IN_BY_START.get(run.slice(0, 2));
  if (first === undefined || !first.some((word) => run.startsWith(word))) return false;
  // ends[i]: the first i letters split into stand-in words (one array, reused: the scan never nests).
  const ends = SPLIT_ENDS.fill(0, 0, run.length + 1);
  ends[0] = 1;
  for (let i = 0; i < run.length - 1; i++) {
    if (ends[i] === 0) continue;
    for (const word of STAND_IN_BY_START.get(run.slice(i, i + 2)) ?? []) {
      if (run.startsWith(word, i)) ends[i + word.length] = 1;
    }
  }
  return ends[run.length] === 1;
}

/**
 * A value of two or more stand-in words, with digits at most between them. Words are split at runs
 * of `-`, `_`, `.` and white space and where letters (a–z) meet digits; a run of digits alone is no
 * word. Read word by word so that a random value, whose first word is no stand-in, is refused there
 * (every value a secret-like name is given passes through here).
 */
export function madeOfStandInWords(lower: string): boolean {
  let named = 0;
  let start = 0;
  while (start < lower.length) {
    if (isWordSeparator(lower, start)) {
      start++;
      continue;
    }
    let end = start + 1;
    let digitsOnly = isDigit(lower.charCodeAt(start));
    while (end < lower.length && !isWordSeparator(lower, end)) {
      const previous = lower.charCodeAt(end - 1);
      const code = lower.charCodeAt(end);
      if (
        (isLowerLetter(previous) && isDigit(code)) || (isDigit(previous) && isLowerLetter(code))
      ) {
        break;
      }
      if (!isDigit(code)) digitsOnly = false;
      end++;
    }
    if (!digitsOnly) {
      const word = lower.slice(start, end);
      if (STAND_IN_WORDS.has(word)) named++;
      else if (joinedStandInWords(word)) named += 2;
      else return false;
    }
    start = end;
  }
  return named >= 2;
}

const isDigit = (code: number) => code >= 48 && code <= 57;
const isLowerLetter = (code: number) => code >= 97 && code <= 122;

/** `-`, `_`, `.` or white space (as a regular expression's `\s` reads it). */
function isWordSeparator(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code === 45 || code === 95 || code === 46) return true;
  return (code <= 32 || code >= 0xa0) && /\s/.test(text[at]);
}

/**
 * Tokens published on purpose: Stripe's publishable keys, Mapbox's public `pk.` tokens, Mailgun's
 * `pubkey-`, an OpenSSH public key line. A client ships them to every browser or peer.
 */
export function isPublicToken(value: string): boolean {
  return /^(?:pk_(?:live|test)_|pk\.eyJ|pubkey-|ssh-(?:rsa|ed25519|dss) |ecdsa-sha2-)/.test(value);
}

/** A value that only stands in for a secret: examples, `xxxx`, `<your-key>`, `changeme`, a template. */
export function isPlaceholder(value: string, templates = true): boolean {
  if (isDocumentedExample(value) || isValueLookalike(value)) return true;
  // A code span's closing backtick read with the value (`` `user:password` `` in a comment).
  if (value.length > 1 && value.endsWith("`")) return isPlaceholder(value.slice(0, -1), templates);
  const lower = value.toLowerCase();
  if (PLACEHOLDER_VALUES.has(lower) || isWellKnownPassword(value)) return true;
  // In a long mixed-case token a word can turn up by chance (`…yRitodO6…`): there it must stand
  // apart from the letters around it to count.
  const tokenLike = value.length >= 20 && /[A-Z]/.test(value) && /[a-z]/.test(value) &&
    /\d/.test(value);
  const edge = (i: number) => i < 0 || i >= value.length || !/[A-Za-z0-9]/.test(value[i]);
  for (const word of PLACEHOLDER_WORDS) {
    for (let at = lower.indexOf(word); at !== -1; at = lower.indexOf(word, at + 1)) {
      if (!tokenLike || !/[a-z0-9]/i.test(word)) return true;
      if (edge(at - 1) || edge(at + word.length)) return true;
    }
  }
  if (madeOfStandInWords(lower)) return true;
  if (/^<[^>]*>$|^\[[^\]]*\]$/.test(value)) return true;
  // A word between dollar signs is the mask a tool exports in place of a secret (AWX's and
  // Ansible Tower's `$encrypted$`).
  if (/^\$[A-Za-z_]+\$$/.test(value)) return true;
  if (templates && isTemplateReference(value)) return true;
  // A prefix and one character repeated (`sk-xxxxxxxx`); a short tail after a dash is a password's
  // last part (`THdMvlQEQs-7`), not a stand-in body.
  const core = value.replace(/^[a-z]+[_-]/i, "");
  if ((core.length >= 4 && isRepetitive(core)) || isRepetitive(value)) return true;
  if (hasSequentialRun(value, 10)) return true;
  return false;
}

/** A subresource-integrity string as lockfiles hold them: `sha512-…`. */
export function isIntegrityString(value: string): boolean {
  return /^(?:sha1|sha256|sha384|sha512)-[A-Za-z0-9+/]+=*$/.test(value);
}

/** A data URL of an image or font: long, random-looking, and public. */
export function isDataUrl(value: string): boolean {
  return /^data:[a-z]+\/[a-z0-9.+-]+;base64,/i.test(value);
}

/**
 * A value that names where the secret lives instead of holding it: an
 * environment lookup, a secret manager path, a function call, a file path.
 */
export function isReference(value: string): boolean {
  if (
    /^(?:process\.env|os\.environ|os\.getenv|env\(|ENV\[|System\.getenv|Deno\.env|import\.meta\.env|getenv\(|secrets\.|vault:|arn:aws:|projects\/[^/]+\/secrets\/|ssm:|file:|keyring:|op:\/\/)/
      .test(value)
  ) return true;
  // Google Secret Manager's resource name behind a tool's prefix (`gcp:secretmanager:projects/…`).
  if (
    value.includes(":projects/") && /^[a-z][\w:+-]*:projects\/[^/\s]+\/secrets\/[^/\s]+/.test(value)
  ) return true;
  if (isLocator(value)) return true;
  // Vercel's `@name`: the name of a secret stored with the platform, not its value.
  if (/^@[a-z0-9][a-z0-9_-]*$/.test(value)) return true;
  // An id and the file it is loaded from, systemd's `LoadCredential=db-password:/etc/…`.
  if (/^[\w.@-]+:\/(?!\/)[\w.@%+=,~\/-]*$/.test(value) && /\/[\w.-]+\/[\w.-]/.test(value)) {
    return true;
  }
  // A path: characters file names are made of (a WordPress salt starting with `/` is not one).
  // A segment of twenty or more letters and digits of both cases is base64, not a file's name
  // (an AWS secret or a WireGuard key may start with `/`).
  if (
    /^(?:\/|\.\/|\.\.\/|~\/)[\w.@%+=:,~\/-]*$/.test(value) &&
    !value.split("/").some((part) =>
      part.length >= 20 && /[A-Z]/.test(part) && /[a-z]/.test(part) && /\d/.test(part)
    )
  ) return true;
  if (/\.(?:pem|key|crt|cer|p12|pfx|json|ya?ml|txt|env|cfg|conf|ini|toml)$/i.test(value)) {
    return true;
  }
  return isRelativeFilePath(value);
}

/**
 * A value a tool stored encrypted, useless without the tool's own key: Jenkins' `{AQAAAB…}` and
 * Pulumi's `v1:…:…` (its `secure:` values and its stack's `encryptionsalt`).
 */
export function isToolCiphertext(value: string): boolean {
  return /^\{AQAAAB[A-Za-z0-9+/]{16,}={0,2}\}$/.test(value) ||
    /^v1:[A-Za-z0-9+/]{8,}={0,2}:/.test(value) ||
    // Windows' DPAPI blob (NuGet's `Password`, .NET's protected data): its version and provider
    // GUID encode to the same 32 characters.
    /^AQAAANCMnd8BFdERjHoAwE\/Cl\+sBAAAA[A-Za-z0-9+/]{40,}={0,2}$/.test(value) ||
    // The same blob in hex, as PowerShell's `ConvertFrom-SecureString` writes it.
    /^01000000d08c9ddf0115d1118c7a00c04fc297eb01000000[0-9a-f]{40,}$/i.test(value) ||
    isOpenPgpMessage(value);
}

/**
 * An OpenPGP message in base64 without its armour (Renovate's `encrypted:` values, a password
 * encrypted with `gpg` and pasted into a config): its first packet is a public-key-encrypted session
 * key, tag 1 (`0x84`/`0x85` in the old packet format, `0xC1` in the new one), whose first bytes
 * encode to `hQ`, `hI` or `wc`, followed by version 3 or 6.
 */
function isOpenPgpMessage(value: string): boolean {
  if (value.length < 100 || !/^(?:hQ|hI|wc)[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
  let head: string;
  try {
    head = atob(value.slice(0, 8));
  } catch {
    return false;
  }
  const tag = head.charCodeAt(0);
  // The version follows the length: one byte in the old format's 0x84, two in 0x85; in the new
  // format one byte below 192, two from 192 to 223.
  const lengthBytes = tag === 0x84 ? 1 : tag === 0x85 ? 2 : head.charCodeAt(1) < 192 ? 1 : 2;
  const version = head.charCodeAt(1 + lengthBytes);
  return (tag === 0x84 || tag === 0x85 || tag === 0xc1) && (version === 3 || version === 6);
}

/**
 * A password stored hashed, in the formats password hashers write: the modular crypt format
 * (`$2b$…`, `$6$…`, `$apr1$…`, `$argon2id$…`, `$scrypt$…`), Jupyter's `argon2:$argon2id$…` and
 * legacy `sha1:salt:hex`, Django's `pbkdf2_sha256$…`, Werkzeug's `pbkdf2:sha256:…$salt$hex` and
 * `scrypt:…$salt$hex`, LDAP's `{SSHA}…`, and Jetty's `MD5:…`. A hash does not give the password back.
 */
export function isPasswordHash(value: string): boolean {
  return /^(?:argon2:)?\$(?:argon2(?:id|i|d)|2[abxy]?|1|5|6|7|y|gy|apr1|scrypt|pbkdf2(?:-sha\d+)?)\$[^\s$]+\$/
    .test(value) ||
    /^sha1:[0-9a-f]{8,}:[0-9a-f]{40}$/.test(value) ||
    /^(?:pbkdf2_sha(?:1|256)|bcrypt_sha256|argon2|scrypt)\$[^\s$]+\$/.test(value) ||
    /^(?:pbkdf2:sha\d+(?::\d+)?|scrypt:\d+:\d+:\d+)\$[^\s$]+\$[0-9a-f]{32,}$/.test(value) ||
    /^\{(?:SSHA|SHA|SSHA256|SSHA512|SHA256|SHA512|SMD5|MD5|CRYPT|PBKDF2(?:-SHA\d+)?)\}\S{8,}$/i
      .test(value) ||
    // Tomcat's `digest.sh` output for a CredentialHandler: `salt$iterations$hash` in hex.
    /^[0-9a-f]{16,}\$\d{1,7}\$[0-9a-f]{32,}$/.test(value) ||
    // Jetty's and Rundeck's realm files: `MD5:hex`, `CRYPT:…` (but `OBF:` is reversible).
    /^(?:MD5:[0-9a-f]{32}|CRYPT:[A-Za-z0-9./$]{13,})$/.test(value) ||
    // PostgreSQL's stored forms, which `PASSWORD '…'` accepts as they are: `md5` and the hex
    // digest of password and user name, or a SCRAM verifier.
    /^md5[0-9a-f]{32}$/.test(value) || /^SCRAM-SHA-256\$\d+:/.test(value) ||
    // MySQL's `mysql_native_password` digest (`*` and 40 hex digits), and SQL Server's stored
    // hash (`0x0100…`/`0x0200…`, the version, a salt and the digest), which `HASHED` accepts.
    /^\*[0-9A-F]{40}$/.test(value) || /^0x0[12]00[0-9A-F]{48,}$/i.test(value);
}

/**
 * Maven's encrypted settings value, `{…}` around base64 as the whole text of an element (the text
 * of `<password>` in `settings.xml` after `mvn --encrypt-password`).
 */
export function isBracedCiphertext(value: string): boolean {
  return /^\{[A-Za-z0-9+/]{16,}={0,2}\}$/.test(value);
}
