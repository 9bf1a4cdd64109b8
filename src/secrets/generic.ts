/**
 * Generic secrets: a value assigned to a secret-like name (`DB_PASSWORD=…`,
 * `"client_secret": "…"`, `api_key: …`, `--token=…`, `<password>…</password>`).
 * The name decides whether to look; the value decides whether to report:
 * long and random enough, not a placeholder, not a reference to where the
 * secret lives, not a code expression.
 */
import type { Candidate, Rule, RuleContext } from "./types.ts";
import { PRIORITY } from "./regex_rule.ts";
import {
  isBracedCiphertext,
  isDataUrl,
  isIntegrityString,
  isPasswordHash,
  isPlaceholder,
  isPublicToken,
  isReference,
  isTemplateReference,
  isToolCiphertext,
} from "./allowlist.ts";
import { classCount, shannonEntropy } from "./entropy.ts";
import {
  hasStructuredRepeats,
  insideResourceName,
  isAlphabet,
  isCommandLine,
  isEncodedText,
  isProse,
  isSigningKeyId,
  isSopsCiphertext,
  isWordIdentifier,
  isWrappedPasswordHash,
} from "./lookalikes.ts";
import { listItems } from "./code_lists.ts";

export type NameClass = "password" | "secret" | null;

const EXCLUDED_TOKENS = new Set([
  "hash",
  "hashed",
  "sha",
  "sha1",
  "sha256",
  "sha512",
  "md5",
  "digest",
  "checksum",
  "fingerprint",
  "commit",
  "integrity",
  "etag",
  "public",
  "publishable",
  "pub",
  "url",
  "uri",
  "endpoint",
  "path",
  "file",
  "filename",
  "dir",
  "name",
  "type",
  "id",
  "ids",
  "length",
  "len",
  "size",
  "count",
  "max",
  "min",
  "limit",
  "timeout",
  "expiry",
  "expires",
  "expiration",
  "expire",
  "ttl",
  "format",
  "prefix",
  "suffix",
  "header",
  "field",
  "param",
  "policy",
  "mode",
  "enabled",
  "enable",
  "disabled",
  "required",
  "rotation",
  "version",
  "tokenizer",
  "tokens",
  "primary",
  "foreign",
  "sort",
  "cache",
  "partition",
  "idempotency",
  "keyword",
  "keywords",
  "hint",
  "label",
  "placeholder",
  "description",
  "regex",
  "pattern",
  "validator",
  "reset",
  "forgot",
  "env",
  "var",
  "ref",
  "arn",
  "store",
  "manager",
  "provider",
  "strength",
  "location",
  "source",
  "kind",
  "class",
  "schema",
  "algorithm",
  // Dovecot's `default_pass_scheme = SHA512-CRYPT`: a scheme names how passwords are hashed.
  "scheme",
  "alg",
  "usage",
  "usages",
  "scope",
  "scopes",
  "audience",
  "issuer",
  "template",
  "store",
  "vault",
  "lookup",
  "map",
  "list",
  "keys",
  "secrets",
  "passwords",
  "command",
  "cmd",
  "prompt",
  "input",
  "label",
  "text",
  "msg",
  "message",
  "error",
  // A flag that reads the secret from somewhere (`--password-stdin`), and tokens that page, track
  // or cancel work (`pageToken`, `progressToken`, `CancellationToken`), which grant nothing.
  "stdin",
  "page",
  "next",
  "continuation",
  "cancellation",
  "progress",
  "cursor",
  "ok",
  "valid",
  "validate",
  "check",
  "verify",
  "verified",
  "changed",
  "updated",
  "created",
  "last",
  "at",
  "on",
  "is",
  "has",
  "use",
  "uses",
  "show",
  "hide",
  "visible",
  "toggle",
  "button",
  "icon",
  "color",
  "colour",
  "style",
  "width",
  "height",
  "bypass",
  "compass",
  "passport",
  "passthrough",
  "pass_through",
  "monkey",
  "turkey",
  "hotkey",
  "keyboard",
  "keypress",
  "keydown",
  "keyup",
  "keystore",
  "keychain",
  "keyring",
  "keypair",
  "kid",
  "mapping",
  "index",
  "domain",
  "host",
  "hostname",
  "server",
  "user",
  "username",
  "login",
  "email",
  "method",
  "realm",
  "region",
]);

const PASSWORD_TOKENS = new Set([
  "password",
  "passwd",
  "pwd",
  "pass",
  "passphrase",
  "pw",
  "passcode",
  // A Wi-Fi network's pre-shared key (wpa_supplicant, NetworkManager, hostapd's `wpa_psk`).
  "psk",
  // SSSD's `ldap_default_authtok`: the bind password ("authentication token").
  "authtok",
]);
const SECRET_TOKENS = new Set([
  "secret",
  "token",
  "apikey",
  "accesskey",
  "authkey",
  "privatekey",
  "credential",
  "credentials",
  "auth",
  "authtoken",
  "accesstoken",
  "refreshtoken",
  "sas",
  "bearer",
  "signingkey",
  "encryptionkey",
  "masterkey",
  "clientsecret",
  "secretkey",
  "sessionkey",
  "webhooksecret",
  "licensekey",
  // WordPress' `NONCE_SALT` and friends, `HASHIDS_SALT`: a salt kept secret keys the hashes.
  "salt",
]);

/** Words run together end with a secret word: `PGPASSWORD`, `dbpasswd`, `apitoken`, `clientsecret`. */
const PASSWORD_SUFFIX = /^[a-z0-9]{2,}(?:password|passwd|passphrase)$/;
/**
 * The short words `pass`, `pw` and `pwd` run together after a word that says whose password it is:
 * OpenLDAP's `rootpw`, phpMyAdmin's `controlpass`, Joomla's `smtppass`, Moodle's `dbpass`,
 * OfflineIMAP's `remotepass`. Only after such a word: `bypass` and `compass` end the same way.
 */
const OWNER_PASSWORD =
  /^(?:root|admin|db|sql|mysql|pg|user|smtp|mail|imap|pop3?|ftp|sftp|ldap|bind|proxy|sasl|control|remote|local|master|store|key|redis|rpc|web|http|sudo|vnc|ssh|wifi|wpa|default|server|client|auth|api|app|service|svc)(?:pass|pw|pwd)$/;
const SECRET_SUFFIX = /^[a-z0-9]{2,}(?:secret|token|apikey|salt|salt(?:main|alt\d{0,2}))$/;

/** Split `AWS_SECRET_ACCESS_KEY`, `apiKey`, `x-api-key`, `db.password` into lower-case words. */
function nameTokens(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase().split(/[^a-z0-9]+/).filter((t) =>
    t !== ""
  );
}

/** Whether a name holds a password, another secret, or neither. */
const nameClassCache = new Map<string, NameClass>();

/** Whether a name holds a password, another secret, or neither (cached: names recur). */
export function classifyName(name: string): NameClass {
  let cls = nameClassCache.get(name);
  if (cls === undefined) {
    cls = classifyNameUncached(name);
    if (nameClassCache.size > 50_000) nameClassCache.clear();
    nameClassCache.set(name, cls);
  }
  return cls;
}

/**
 * Words that say what a secret belongs to when they come first (`EMAIL_HOST_PASSWORD`,
 * `USER_PASSWORD`, `KEYSTORE_PASSWORD`, `VAULT_TOKEN`: the last word names the thing, and it is a
 * secret) but an attribute of it when they come after (`password_host`, `token_user`,
 * `secret_store`). They exclude a name only after its last secret word.
 */
const OWNER_TOKENS = new Set([
  "host",
  "hostname",
  "server",
  "user",
  "username",
  "login",
  "email",
  "domain",
  "realm",
  "region",
  "cache",
  "vault",
  "store",
  "keystore",
  "keychain",
  "keyring",
  // NuGet's `ClearTextPassword`: text before the secret word says how it is stored.
  "text",
  // Drupal's `hash_salt`: the salt hashes are keyed with (but `password_hash` is a hash).
  "hash",
  // Ansible's `url_password`, a proxy's `endpoint_secret`: the password for the URL (but
  // `password_url` is where the password is entered).
  "url",
  "uri",
  "endpoint",
  // Terraform's `TF_VAR_db_password`, `ENV_API_TOKEN`: a prefix that says how the value is passed
  // (but `password_var` and `token_env` name a variable that holds it).
  "var",
  "env",
]);

/**
 * Whether `token` is a word that makes a name hold a secret (`password`, `apitoken`). A bare `key`
 * is not one here: `host_key` and `cache_key` name public or harmless values.
 */
function secretWord(token: string): boolean {
  return PASSWORD_TOKENS.has(token) || PASSWORD_SUFFIX.test(token) || SECRET_TOKENS.has(token) ||
    SECRET_SUFFIX.test(token) || OWNER_PASSWORD.test(token);
}

function classifyNameUncached(name: string): NameClass {
  const tokens = nameTokens(name);
  if (tokens.length === 0) return null;
  let lastSecretWord = -1;
  for (let i = 0; i < tokens.length; i++) if (secretWord(tokens[i])) lastSecretWord = i;
  // A closing key pair (`ServerApiKey`, `client_secret_key`) is a secret word too, so the owner
  // words before it (`server`, `host`) say whose key it is.
  if (lastSecretWord === -1 && keyPairAt(tokens, tokens.length - 2)) {
    lastSecretWord = tokens.length - 1;
  }
  if (
    tokens.some((t, i) => EXCLUDED_TOKENS.has(t) && (!OWNER_TOKENS.has(t) || i > lastSecretWord))
  ) return null;
  // `PASS:` and `pwd:` alone are a test runner's verdict and a working directory.
  if (tokens.length === 1 && (tokens[0] === "pass" || tokens[0] === "pwd" || tokens[0] === "pw")) {
    return null;
  }
  if (
    tokens.some((t) => PASSWORD_TOKENS.has(t) || PASSWORD_SUFFIX.test(t) || OWNER_PASSWORD.test(t))
  ) {
    // `adminPasswordKey`, `password_key`: the key a password is stored under (a Helm chart's
    // `existingSecretPasswordKey: postgres-password`), judged as any other secret-like name.
    return tokens.length >= 2 && tokens[tokens.length - 1] === "key" ? "secret" : "password";
  }
  if (tokens.some((t) => SECRET_TOKENS.has(t) || SECRET_SUFFIX.test(t))) return "secret";
  // `api_key`, `STRIPE_KEY`, `privateKey`: "key" after another word (but not `key` alone).
  const last = tokens[tokens.length - 1];
  if (last === "key" && tokens.length >= 2) return "secret";
  for (let i = 0; i + 1 < tokens.length; i++) if (keyPairAt(tokens, i)) return "secret";
  // Erlang's distribution cookie, which lets a node join a cluster: `RABBITMQ_ERLANG_COOKIE`,
  // a Helm chart's `erlangCookie`, an Elixir release's `RELEASE_COOKIE`. Judged as a password:
  // RabbitMQ writes twenty capital letters, one kind of character a secret's bar would refuse.
  if (last === "cookie" && /^(?:erlang|release)$/.test(tokens[tokens.length - 2] ?? "")) {
    return "password";
  }
  return null;
}

/** Words before `key` that make a secret key: `api_key`, `privateKey`, `signing-key`. */
const KEY_PAIR_WORDS = new Set([
  "api",
  "access",
  "auth",
  "private",
  "secret",
  "signing",
  "encryption",
  "master",
  "client",
]);

/** Whether tokens `i` and `i + 1` are such a pair. */
function keyPairAt(tokens: string[], i: number): boolean {
  return i >= 0 && tokens[i + 1] === "key" && KEY_PAIR_WORDS.has(tokens[i]);
}

/** The kind a name and value make: a few names pin a vendor. */
export function kindFor(
  name: string,
  cls: Exclude<NameClass, null>,
  value: string,
): { kind: string; priority: number } {
  const tokens = nameTokens(name);
  if (tokens.includes("aws") && tokens.includes("secret") && /^[A-Za-z0-9/+]{40}$/.test(value)) {
    return { kind: "aws-secret-access-key", priority: PRIORITY.structured };
  }
  if (tokens.includes("twilio") && /^[0-9a-f]{32}$/.test(value)) {
    return { kind: "twilio-auth-token", priority: PRIORITY.structured };
  }
  return { kind: cls === "password" ? "password" : "generic-secret", priority: PRIORITY.generic };
}

const CODE_EXTENSIONS = new Set([
  ".flow",
  ".mts",
  ".cts",
  ".py",
  ".js",
  ".mjs",
  ".cjs",
  ".ts",
  ".tsx",
  ".jsx",
  ".go",
  ".java",
  ".kt",
  ".rb",
  ".cs",
  ".php",
  ".rs",
  ".swift",
  ".scala",
  ".c",
  ".h",
  ".cpp",
  ".hpp",
  ".m",
  ".dart",
  ".lua",
  ".tf",
  ".hcl",
  ".groovy",
  ".ipynb",
  // Gradle's Kotlin DSL, Elixir, Zig, Nim, Crystal and Julia
  ".kts",
  ".ex",
  ".exs",
  ".zig",
  ".nim",
  ".cr",
  ".jl",
  // Visual Basic: VB.NET, VBA modules and VBScript
  ".vb",
  ".bas",
  ".vbs",
]);

/** A value that is code, not a literal: a call, an index, a member chain, a bare identifier. */
function looksLikeExpression(value: string, literalFile: boolean, yaml: boolean): boolean {
  // `@` starts a decorator or an instance variable in code; in an env or properties file it is
  // the first character of a literal (Maven's `@name@` filter is a template, caught elsewhere).
  if (/[()[\]{}]/.test(value) || value[0] === "$" || (value[0] === "@" && !literalFile)) {
    return true;
  }
  // YAML anchors and aliases (`*default`), where a plain value cannot start with `&` or `*`, and a
  // splat in code; in a shell line or an env file `*u45Z…` is a literal like any other.
  if ((yaml || !literalFile) && /^[&*][A-Za-z_][\w.-]*$/.test(value)) return true;
  // YAML tags (`!Ref`, Home Assistant's `!env_var NAME`), printf and batch variables (`%s`, `%VAR%`).
  // A tag is words of letters; a password may start with `!` too, and then it has digits
  // (`!J6kJ46DGSlaJO_9r`).
  if (/^!!?[A-Za-z]+(?:[_.-][A-Za-z]+)*$|^%[sd]$|^%\w+%$|^%\(\w+\)[sd]$/.test(value)) return true;
  // Member chains, optional chaining, generics: `config.db.password`, `opts?.authInfo`, `z.infer<T`.
  // (In a file of literals a part mixing upper case, lower case and digits, `xy.o7q37DNN`, is a
  // password with a dot in it, not a member's name.)
  if (
    (/^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+$/.test(value) &&
      !(literalFile &&
        value.split(".").some((part) =>
          /[a-z]/.test(part) && /[A-Z]/.test(part) && /\d/.test(part)
        ))) ||
    /\?\.|[<>]|=>/.test(value)
  ) {
    return true;
  }
  if (!literalFile && /^[A-Za-z_][A-Za-z0-9_]*$/.test(value) && !/\d/.test(value)) return true;
  // Comparisons and logic in code (`e.token||process.env.GITHUB_TOKEN`, `this.method===`).
  if (!literalFile && /[=!]==|\|\||&&/.test(value)) return true;
  return false;
}

export interface ValueThresholds {
  minLength: number;
  minEntropy: number;
}

export function thresholds(cls: Exclude<NameClass, null>, thorough: boolean): ValueThresholds {
  if (cls === "password") {
    return thorough ? { minLength: 4, minEntropy: 1.5 } : { minLength: 6, minEntropy: 2 };
  }
  return thorough ? { minLength: 8, minEntropy: 2.5 } : { minLength: 12, minEntropy: 3 };
}

/**
 * A long string dense with every kind of character, as generators make them (a WordPress salt,
 * Django's generated key): a template mark or a character class inside it (`${E…`, `$(B`,
 * `[K-K…]`) is there by chance. Templates hold spaces or repeat their letters, and measure lower.
 */
function denseRandom(value: string): boolean {
  return value.length >= 40 && !/\s/.test(value) && classCount(value) === 4 &&
    shannonEntropy(value) >= 4.8;
}

/** Whether `value`, assigned to a name of class `cls`, should be reported. */
export function acceptValue(
  value: string,
  cls: Exclude<NameClass, null>,
  options: {
    quoted: boolean;
    literalFile: boolean;
    thorough: boolean;
    /** Whether the file may be YAML (a `.yml`/`.yaml` file or one of unknown kind); default yes. */
    yaml?: boolean;
  },
): boolean {
  // A secret's bars are for generated strings; one a person chose mixes three kinds of character
  // and is shorter and plainer (a RADIUS client's `secret = Harbor9373+`): a short one is judged
  // as a password.
  const chosen = cls === "secret" && value.length >= 8 && value.length < 24 &&
    classCount(value) >= 3;
  const { minLength, minEntropy } = thresholds(chosen ? "password" : cls, options.thorough);
  if (value.length < minLength || value.length > 1024) return false;
  if (/\s/.test(value) && !options.thorough) return false;
  if (isPlaceholder(value, false) || isReference(value)) return false;
  // An object written into a string (`"{\"value\":…,\"salt\":…}"`, Keycloak's stored hashes):
  // its own fields are named, and judged by their names, not as one secret.
  if (/^\{\\?"[\w.-]+\\?"[ \t]*:/.test(value)) return false;
  // Template marks and character classes (`[A-Za-z0-9._~+/-]+=*` describes tokens; it is not
  // one), unless found by chance in dense random text (measured only then: most values hold
  // neither).
  if (isTemplateReference(value) && !denseRandom(value)) return false;
  if (
    /\[[^\]]*(?:[a-z]-[a-z]|[A-Z]-[A-Z]|[0-9]-[0-9])[^\]]*\]|\\[dws]/.test(value) &&
    !denseRandom(value)
  ) {
    return false;
  }
  if (isIntegrityString(value) || isDataUrl(value) || isPublicToken(value)) return false;
  if (isToolCiphertext(value) || isPasswordHash(value)) return false;
  if (/^https?:\/\//i.test(value)) return false;
  if (/^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}$/.test(value)) return false; // a host name
  if (/^[0-9.,_-]+$/.test(value)) return false;
  // A name as the value, a field's key or a variable's (`PREF_PASSWORD = "pref_password"`,
  // Jenkins' `passwordVariable: 'DB_PASS'`): words joined by `_` in one case, one of them a
  // secret's word.
  if (/^(?:[a-z]+(?:_[a-z]+)+|[A-Z]+(?:_[A-Z]+)+)$/.test(value) && SECRET_WORD_IN.test(value)) {
    return false;
  }
  if (!options.quoted && looksLikeExpression(value, options.literalFile, options.yaml ?? true)) {
    return false;
  }
  // Random hex carries at most 4 bits a character, and a short draw often measures under 3: a
  // hex string of 16 or more under a secret's name is judged by a lower bar.
  const hexBar = value.length >= 16 && /^[0-9a-f]+$/i.test(value)
    ? Math.min(minEntropy, 2.5)
    : minEntropy;
  if (shannonEntropy(value) < hexBar) return false;
  // A version range (`>=9.15.1 <12`, `^2.4 || ~3.1`) under a package whose name holds `auth`.
  if (/^[<>=^~]/.test(value) && /^[\s\d.<>=^~*x|-]+$/.test(value)) return false;
  // One word in capitals, a constant or the name usage text gives an argument (`PASSWORD`,
  // `COMMUNITY`, `'AUTHORIZED' | 'REDIRECT'`). Sixteen capitals or more run together are no word:
  // RabbitMQ's Erlang cookie is twenty random ones.
  if (/^[A-Z]{1,15}$/.test(value)) return false;
  // The same in camel case, a property's or a method's name (`_callApiKey`, `approvedAuthorization`):
  // each capital opens a word of lower-case letters.
  if (
    /^_?[a-z]+(?:[A-Z][a-z]+)+$|^(?:[A-Z][a-z]+){2,}$/.test(value) && SECRET_WORD_IN.test(value)
  ) {
    return false;
  }
  // Words for people (a sentence, a label in another script) or a command that prints the value.
  if (isProse(value) || isCommandLine(value)) return false;
  // Words joined by dashes (`billing-db`, `basic-auth`) name a secret; they are not one.
  if (cls === "secret" && /^[a-z]+(?:[-_./:][a-z]+)*$/.test(value)) return false;
  // One lower-case word (`peanuts`, `different`) is a test fixture more often than a password.
  if (cls === "password" && !options.thorough && classCount(value) < 2 && value.length < 12) {
    return false;
  }
  // A long lower-case word run (`correcthorse`) is a secret only in a password slot.
  if (
    cls === "secret" && classCount(value) < 2 && !/^[0-9a-f]+$/i.test(value) && !options.thorough
  ) return false;
  return true;
}

/** A secret's word anywhere in a value (for values that are names). */
const SECRET_WORD_IN = /pass|pwd|secret|token|key|auth|credential/i;

/** A character of a name: letters, digits, `_`, `.`, `-` (by code, as this runs for every keyword hit). */
function isNameChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) ||
    code === 95 || code === 46 || code === 45;
}
const KEYWORD =
  /pass|pwd|secret|token|key|auth|credential|sas|bearer|license|salt|psk|erlang_?cookie|release_cookie/gi;
const LITERAL_EXTENSIONS = new Set([
  ".env",
  ".ini",
  ".properties",
  ".cfg",
  ".conf",
  ".yaml",
  ".yml",
  ".toml",
  ".npmrc",
  ".netrc",
  ".pypirc",
  "",
]);

/** Extensions of files that may be YAML, where a plain value starting with `*` is an alias. */
const YAML_OR_UNKNOWN = new Set([".yml", ".yaml", ""]);

/** Files of `name = value` lines, where a lone `pass` is a password and not a verdict. */
const INI_EXTENSIONS = new Set([".conf", ".ini", ".cfg"]);

interface Assignment {
  name: string;
  /** The name's class where the place decides it (`Pwd=` inside a connection string). */
  cls?: Exclude<NameClass, null>;
  nameStart: number;
  valueStart: number;
  value: string;
  quoted: boolean;
  literal: boolean;
}

/** Read the value that follows an assignment operator at `i`, on the same line. */
function readValue(
  text: string,
  i: number,
  lineEnd: number,
): { start: number; value: string; quoted: boolean } | null {
  while (i < lineEnd && (text[i] === " " || text[i] === "\t")) i++;
  // Erlang's binary string, `<<"…">>` (a Hex config's `auth_key => <<"…">>`).
  if (text[i] === "<" && text[i + 1] === "<" && text[i + 2] === '"') i += 2;
  // Go's conversion to bytes, `[]byte("…")`.
  if (text.startsWith('[]byte("', i)) i += 7;
  // A string prefix: Python's `b"…"`, Objective-C's and C#'s `@"…"`.
  if (
    i < lineEnd && /[brfuBRFU@]/.test(text[i]) && (text[i + 1] === '"' || text[i + 1] === "'")
  ) {
    i++;
  }
  // A triple-quoted string on one line: Grafana's ini (`password = """…"""` keeps `#` and `;`),
  // TOML's and Python's `"""…"""` and `'''…'''`.
  const triple = text.slice(i, i + 3);
  if (triple === '"""' || triple === "'''") {
    const close = text.indexOf(triple, i + 3);
    if (close !== -1 && close <= lineEnd && close > i + 3) {
      return { start: i + 3, value: text.slice(i + 3, close), quoted: true };
    }
  }
  // A string inside a JSON string (a notebook cell's source): \"value\"
  if (text[i] === "\\" && text[i + 1] === '"') {
    const close = text.indexOf('\\"', i + 2);
    if (close === -1 || close > lineEnd) return null;
    return { start: i + 2, value: text.slice(i + 2, close), quoted: true };
  }
  const quote = text[i];
  if (quote === '"' || quote === "'" || quote === "`") {
    let j = i + 1;
    while (j < lineEnd && text[j] !== quote) {
      if (text[j] === "\\") j++;
      j++;
    }
    if (j >= lineEnd) return null;
    return { start: i + 1, value: text.slice(i + 1, j), quoted: true };
  }
  let j = i;
  while (j < lineEnd && !/[\s,;)}\]>"'`]/.test(text[j])) j++;
  if (j === i) return null;
  return { start: i, value: text.slice(i, j), quoted: false };
}

/** An ODBC value in braces, `{…}` (a `}` inside is written `}}`), read as a quoted one. */
function bracedValue(
  text: string,
  i: number,
  lineEnd: number,
): { start: number; value: string; quoted: boolean } | null {
  let j = i + 1;
  while (j < lineEnd && (text[j] !== "}" || text[j + 1] === "}")) j += text[j] === "}" ? 2 : 1;
  if (j >= lineEnd) return null;
  return { start: i + 1, value: text.slice(i + 1, j), quoted: true };
}

/** The value read from `at` to the end of its line, as a literal assignment to `name`. */
function valueOnItsLine(
  text: string,
  name: string,
  nameStart: number,
  at: number,
): Assignment | null {
  let lineEnd = text.indexOf("\n", at);
  if (lineEnd === -1) lineEnd = text.length;
  const read = readValue(text, at, lineEnd);
  if (!read) return null;
  return {
    name,
    nameStart,
    valueStart: read.start,
    value: read.value,
    quoted: read.quoted,
    literal: true,
  };
}

/**
 * A name whose value sits on a following line: a Kubernetes env entry (`- name: API_TOKEN` then
 * `value: …`) or a Terraform variable (`variable "api_token" {` then `default = …`).
 */
/** A value that is an XML element's text, from `start` to the `close` tag after it. */
function elementText(
  text: string,
  nameStart: number,
  nameEnd: number,
  start: number,
  close: string,
): Assignment {
  return {
    name: text.slice(nameStart, nameEnd),
    nameStart,
    valueStart: start,
    value: text.slice(start, text.indexOf(close, start)),
    quoted: true,
    literal: true,
  };
}

function valueElsewhere(text: string, nameStart: number, nameEnd: number): Assignment | null {
  const lineStart = text.lastIndexOf("\n", nameStart - 1) + 1;
  const prefix = text.slice(lineStart, nameStart);
  const quote = text[nameStart - 1];
  // A typed tuple given a literal one, C#'s `(string User, string Password) Login = ("ops", "…")`:
  // the literal at the name's place.
  if (quote === " " && (text[nameEnd] === ")" || text[nameEnd] === ",")) {
    const open = prefix.lastIndexOf("(");
    const declared = /^[ \t]*(?:,[^()\n]*)?\)[ \t]*\w+[ \t]*=[ \t]*\(/.exec(
      text.slice(nameEnd, nameEnd + 200),
    );
    if (open !== -1 && declared && !prefix.includes(")", open)) {
      const place = prefix.slice(open).split(",").length - 1;
      const literal = new RegExp(
        `^(?:[ \\t]*(?:"[^"\\n]*"|[^,()"\\n]*)[ \\t]*,){${place}}[ \\t]*(?=")`,
      ).exec(text.slice(nameEnd + declared[0].length, nameEnd + declared[0].length + 300));
      if (literal) {
        const found = valueOnItsLine(
          text,
          text.slice(nameStart, nameEnd),
          nameStart,
          nameEnd + declared[0].length + literal[0].length,
        );
        return found && { ...found, literal: false };
      }
    }
  }
  // .NET config: <add key="ApiKey" value="…" />
  if (
    (quote === '"' || quote === "'") && text[nameEnd] === quote &&
    /\b(?:key|name)=["']$/.test(prefix)
  ) {
    const m = /^["'][ \t]+value=(?=["'])/.exec(text.slice(nameEnd, nameEnd + 40));
    if (m) {
      // The look-ahead leaves a quote at the value's start, so it reads as quoted.
      return valueOnItsLine(text, text.slice(nameStart, nameEnd), nameStart, nameEnd + m[0].length);
    }
  }
  // A JSON list of name/value pairs (Postman environments, CloudFormation parameters, AWS task
  // definitions): { "key": "apiKey", "value": "…" } on one line; and a credential that says its
  // type (Keycloak's and other identity exports' `{ "type": "password", "value": "…" }`).
  if (
    quote === '"' && text[nameEnd] === '"' &&
    /"(?:key|name|Name|Key|ParameterKey|type)"[ \t]*:[ \t]*"$/.test(prefix)
  ) {
    // The value may sit on the next line, as pretty-printed JSON lays the pair out (HTTPie's
    // sessions, HAR files written by tools that indent).
    const m = /^"[ \t]*,[ \t]*(?:\r?\n[ \t]*)?"(?:value|Value|ParameterValue)"[ \t]*:[ \t]*(?=")/
      .exec(text.slice(nameEnd, nameEnd + 200));
    if (!m) return null;
    return valueOnItsLine(text, text.slice(nameStart, nameEnd), nameStart, nameEnd + m[0].length);
  }
  // An XML element named by an attribute: Android's `<string name="api_key">…</string>`,
  // Hibernate's `<property name="hibernate.connection.password">…</property>`.
  if (
    (quote === '"' || quote === "'") && text[nameEnd] === quote &&
    /\b(?:key|name)=["']$/.test(prefix)
  ) {
    const m = /^["'][^<>\n]*?>(?=[^<\n]+<\/)/.exec(text.slice(nameEnd, nameEnd + 200));
    return m ? elementText(text, nameStart, nameEnd, nameEnd + m[0].length, "</") : null;
  }
  // A property list: `<key>ClientSecret</key>` then `<string>…</string>` on the next line.
  if (quote === ">" && /<key>$/.test(prefix)) {
    const m = /^<\/key>[ \t]*\n?[ \t]*<string>(?=[^<\n]+<\/string>)/.exec(
      text.slice(nameEnd, nameEnd + 200),
    );
    return m ? elementText(text, nameStart, nameEnd, nameEnd + m[0].length, "</string>") : null;
  }
  // A name and its value as sibling elements: Jenkins' job parameters, `<name>DEPLOY_TOKEN</name>`
  // then `<defaultValue>…</defaultValue>` (or `<value>`) on the next line.
  if (quote === ">" && /<name>$/.test(prefix)) {
    const m = /^<\/name>[ \t]*\n?[ \t]*<(defaultValue|value)>(?=[^<\n]+<\/\1>)/.exec(
      text.slice(nameEnd, nameEnd + 200),
    );
    return m ? elementText(text, nameStart, nameEnd, nameEnd + m[0].length, "</") : null;
  }
  // A Lisp keyword and its string, Clojure's `{:password "…"}`, and a definition,
  // `(def webhook-secret "…")`, `(setq api-token "…")`.
  if (
    (quote === ":" && /(?:^|[\s{(\[,])$/.test(prefix.slice(0, -1))) ||
    (quote === " " &&
      /\((?:def|defonce|defvar|defparameter|defconst|setq|setf)[ \t]+$/.test(prefix))
  ) {
    const m = /^[ \t]+(?=")/.exec(text.slice(nameEnd, nameEnd + 20));
    return m
      ? valueOnItsLine(text, text.slice(nameStart, nameEnd), nameStart, nameEnd + m[0].length)
      : null;
  }
  // A Lisp list of a name and its string, an Emacs alist's `(sql-password "…")`: the string and
  // then the list's close, so a call with more arguments is not read.
  if (quote === "(") {
    const m = /^[ \t]+(?="[^"\n]*"[ \t]*\))/.exec(text.slice(nameEnd, nameEnd + 20));
    return m
      ? valueOnItsLine(text, text.slice(nameStart, nameEnd), nameStart, nameEnd + m[0].length)
      : null;
  }
  // An Erlang tuple in a sys.config: `{db_password, "…"}`, `{api_secret, <<"…">>}`.
  if (quote === "{") {
    const m = /^[ \t]*,[ \t]*(?:<<)?(?=")/.exec(text.slice(nameEnd, nameEnd + 20));
    return m
      ? valueOnItsLine(text, text.slice(nameStart, nameEnd), nameStart, nameEnd + m[0].length)
      : null;
  }
  // An Elixir module attribute, `@api_secret "…"`, on a line of its own.
  if (quote === "@" && /^[ \t]*@$/.test(prefix)) {
    const m = /^[ \t]+(?=")/.exec(text.slice(nameEnd, nameEnd + 20));
    return m
      ? valueOnItsLine(text, text.slice(nameStart, nameEnd), nameStart, nameEnd + m[0].length)
      : null;
  }
  // C's `#define API_TOKEN "…"`, Objective-C's `#define API_TOKEN @"…"`.
  if (quote === " " && /^[ \t]*#[ \t]*define[ \t]+$/.test(prefix)) {
    const m = /^[ \t]+(?=@?")/.exec(text.slice(nameEnd, nameEnd + 20));
    return m
      ? valueOnItsLine(text, text.slice(nameStart, nameEnd), nameStart, nameEnd + m[0].length)
      : null;
  }
  // .netrc: machine host login user password secret
  if (
    quote === " " &&
    // (also a line written into a string, `RUN echo "machine … password …" > ~/.netrc`)
    // (an anonymous login's password is by convention an address, not a secret)
    (/(?:^|["'])(?:machine|default)\s.*\blogin\s+(?!(?:anonymous|ftp)\s)\S+\s+$/.test(prefix) ||
      // fetchmail's `poll host … user "name" password "…"`
      /^[ \t]*(?:poll\b.*\b)?user(?:name)?[ \t]+"[^"\n]+"[ \t]+$/.test(prefix)) &&
    /^password$/i.test(text.slice(nameStart, nameEnd))
  ) {
    return valueOnItsLine(text, "password", nameStart, nameEnd);
  }
  if (!/^[ \t]*-?[ \t]*name:[ \t]*["']?$|^[ \t]*variable[ \t]+"$/.test(prefix)) return null;
  const window = text.slice(nameEnd, nameEnd + 400);
  const m = /^[^\n]*\n(?:[^\n]*\n){0,2}?[ \t]*(?:value|default)[ \t]*[:=][ \t]*/.exec(window);
  if (!m) return null;
  return valueOnItsLine(text, text.slice(nameStart, nameEnd), nameStart, nameEnd + m[0].length);
}

/**
 * The assignment whose name contains the keyword at `at`, if there is one. The name's span is
 * left in `span` (when given) either way: every keyword inside the same name gives the same answer.
 */
function assignmentAt(
  text: string,
  at: number,
  extension: string,
  span?: { start: number; end: number },
): Assignment | null {
  let nameStart = at;
  while (nameStart > 0 && isNameChar(text.charCodeAt(nameStart - 1))) nameStart--;
  let nameEnd = at;
  while (nameEnd < text.length && isNameChar(text.charCodeAt(nameEnd))) nameEnd++;
  if (span) {
    span.start = nameStart;
    span.end = nameEnd;
  }
  // `$PASSWORD` and `${TOKEN}` use a variable; they do not assign one. PHP and Perl assign with
  // the sigil (`$db_password = '…';`), which a quoted value after `=` tells apart.
  let before = text[nameStart - 1];
  if (before === "{" && text[nameStart - 2] === "$") return null;
  if (before === "$") {
    // A quoted literal, without interpolation (`"{$prefix}_x"`, `"$base/key"` build a value).
    const assigned = /^[ \t]*=[ \t]*(["'])([^"'\n]*)\1/.exec(text.slice(nameEnd, nameEnd + 1100));
    if (!assigned || /\$[A-Za-z_{]|\{\$/.test(assigned[2])) {
      // Perl's `my ($user, $pass) = ("…", "…")`.
      return listNeighbour(text, nameStart, nameEnd)
        ? tupleOfSecretName(text, nameStart, nameEnd)
        : null;
    }
    before = " "; // judged as a name that starts the assignment
  }
  // Most keyword hits sit in names that are not secret-like (`keys`, `tokenizer`, `authInfo`):
  // the class is cached per name, so this check is cheap and spares all the rest.
  // `Pwd=` and `PW=` alone are a working directory in a shell, but a password after `;` in an
  // ODBC or ADO.NET connection string (`Uid=app;Pwd=…`).
  // In an ini-style file, `pass = …` is a password too (rclone, sftp and mail clients' configs).
  // Every case below names `pwd`, `pw` or `pass`: a longer name skips them all (most hits).
  const nameLength = nameEnd - nameStart;
  const shortPassword = nameLength <= 4 && (
    (before === ";" && /^(?:pwd|pw|pass)$/i.test(text.slice(nameStart, nameEnd))) ||
    (nameEnd - nameStart === 4 && text.slice(nameStart, nameEnd) === "pass" &&
      /^[ \t]*=[^=]/.test(text.slice(nameEnd, nameEnd + 8)) &&
      (INI_EXTENSIONS.has(extension) || userBefore(text, nameStart))) ||
    // An ini file's `Pwd=` (ODBC's word, kept by Windows programs' settings), never a shell's.
    (INI_EXTENSIONS.has(extension) && /^(?:pwd|pass)$/i.test(text.slice(nameStart, nameEnd)) &&
      /^[ \t]*=[^=]/.test(text.slice(nameEnd, nameEnd + 8))) ||
    // A `pass` key or element beside a user one: nodemailer's `auth: { user, pass }`, dbt's
    // profiles (`user:` then `pass:`), FileZilla's `<User>` then `<Pass>`.
    (nameEnd - nameStart === 4 && /^pass$/i.test(text.slice(nameStart, nameEnd)) &&
      (keyedColon(text, nameEnd) || before === "<") && userKeyNear(text, nameStart))
  );
  // A bare `Key` under a parent that says whose key it is: .NET's `"Jwt": { "Key": "…" }`, YAML's
  // `jwt:` then `  key: …`, `api: { key: … }`.
  const keyOfParent = !shortPassword && nameEnd - nameStart === 3 &&
    /^key$/i.test(text.slice(nameStart, nameEnd)) && keyedColon(text, nameEnd) &&
    parentIsKeyed(text, nameStart);
  // `process.env.API_TOKEN || "…"`: the name read takes in the lookup's dots.
  // (`process.env.` is 12 characters: a name no longer than that is no lookup.)
  const lookup = nameLength > 12
    ? /^(?:process\.env|import\.meta\.env)\./.exec(text.slice(nameStart, nameEnd))
    : null;
  if (lookup && CODE_EXTENSIONS.has(extension)) {
    return environmentDefault(text, nameStart + lookup[0].length, nameEnd, false);
  }
  // `user, password = "…", "…"`: a name in a list of names assigned a list of values. Asked only
  // of a secret-like name (most hits are not) or a short password word.
  const nameClass = classifyName(text.slice(nameStart, nameEnd));
  const shortWord = nameLength <= 4 && (text.charCodeAt(nameStart) | 32) === 112; // "p…"
  if ((nameClass !== null || shortWord) && listNeighbour(text, nameStart, nameEnd)) {
    const element = tupleOfSecretName(text, nameStart, nameEnd);
    if (element) return element;
  }
  if (nameClass === null && !shortPassword && !keyOfParent) return null;
  let i = nameEnd;
  // Most keyword hits are not assignments: look for the operator before anything else.
  let probe = i;
  // A name quoted inside a string in code, JSON written into a literal (generated settings
  // classes): `\"clientSecret\":\"…\"`. (In a data file such a string is a stored object, as
  // Keycloak's hashed credentials, whose fields are not secrets of the file.)
  const escapedName = before === '"' && text[nameStart - 2] === "\\" && text[nameEnd] === "\\" &&
    text[nameEnd + 1] === '"' && CODE_EXTENSIONS.has(extension);
  if (escapedName) probe += 2;
  else if (
    text[probe] === '"' || text[probe] === "'" || text[probe] === "]" || text[probe] === ">"
  ) {
    probe++;
  }
  // PHP's and Python's subscript, `$settings['hash_salt'] = …`: the quote, then the bracket.
  if (text[probe] === "]" && (text[probe - 1] === '"' || text[probe - 1] === "'")) probe++;
  while (text[probe] === " " || text[probe] === "\t") probe++;
  const next = text[probe];
  const quotedName = (before === '"' || before === "'") && text[nameEnd] === before;
  // Scala's pair, `"password" -> "…"`, in a `Map(…)`.
  const arrowPair = quotedName && next === "-" && text[probe + 1] === ">";
  // A constant as the key a map or a settings object is given, JNDI's
  // `env.put(Context.SECURITY_CREDENTIALS, "…")`, `props.setProperty(SMTP_PASSWORD, "…")`.
  const constantKey = next === "," && before === "(" && CODE_EXTENSIONS.has(extension) &&
    /^(?:\w+\.)*[A-Z][A-Z0-9_]+$/.test(text.slice(nameStart, nameEnd)) &&
    /\.(?:put|setProperty|set|add|Add|put[A-Z]\w*)\($/.test(
      text.slice(Math.max(0, nameStart - 24), nameStart),
    );
  if (quotedName && CODE_EXTENSIONS.has(extension)) {
    const fallback = environmentDefault(text, nameStart, nameEnd, quotedName);
    if (fallback) return fallback;
  }
  if (next === "(" && probe === nameEnd && CODE_EXTENSIONS.has(extension)) {
    return setterCall(text, nameStart, nameEnd);
  }
  // Visual Basic declares a type between the name and `=`: `Const DB_PASS As String = "…"`,
  // `Dim apiKey As String = "…"`.
  if (next === "A" && probe > nameEnd) {
    const typed = /^[ \t]+As[ \t]+(?:New[ \t]+)?[\w.]+[ \t]*=[ \t]*(?=")/.exec(
      text.slice(nameEnd, nameEnd + 80),
    );
    if (typed) {
      const found = valueOnItsLine(
        text,
        text.slice(nameStart, nameEnd),
        nameStart,
        nameEnd + typed[0].length,
      );
      return found && { ...found, literal: false };
    }
  }
  if (
    next !== "=" && next !== ":" && next !== "?" && text[nameStart] !== "-" && before !== "<" &&
    !(next === "," && (quotedName || constantKey)) && !arrowPair
  ) {
    if (
      (before === " " || before === "\t" || before === "\n" || before === undefined) &&
      next !== undefined && !/[\s=:(){}[\],;<>#]/.test(next) && probe > nameEnd &&
      !CODE_EXTENSIONS.has(extension) && !PROSE_EXTENSIONS.has(extension)
    ) {
      const directive = directiveValue(text, nameStart, nameEnd);
      if (directive) return directive;
    }
    return before === " " || before === '"' || before === "'" || before === ">" || before === "{" ||
        before === ":" || before === "\n" || before === "(" || before === "@"
      ? valueElsewhere(text, nameStart, nameEnd)
      : null;
  }
  let lineEnd = text.indexOf("\n", nameEnd);
  if (lineEnd === -1) lineEnd = text.length;
  const name = text.slice(nameStart, nameEnd);
  // XML: <password>value</password>, <Pass encoding="base64">value</Pass>
  if (before === "<" && (text[i] === ">" || text[i] === " ")) {
    if (text[i] === " ") {
      const attributes = /^ [^<>\n]*?(?<!\/)>/.exec(text.slice(i, lineEnd));
      if (!attributes) return null;
      i += attributes[0].length - 1;
    }
    const close = text.indexOf(`</${name}>`, i + 1);
    if (close === -1 || close > lineEnd) {
      // The value in a child element on the next line: Windows' unattend files,
      // `<AdministratorPassword>` then `<Value>…</Value>`.
      const child = /^>[ \t]*\r?\n[ \t]*<(Value|value)>(?=[^<\n]+<\/\1>)/.exec(
        text.slice(i, i + 200),
      );
      return child ? elementText(text, nameStart, nameEnd, i + child[0].length, "</") : null;
    }
    const value = text.slice(i + 1, close).trim();
    // Maven's `mvn --encrypt-password` output, `{…}`, is useless without its master key.
    if (isBracedCiphertext(value)) return null;
    return {
      name,
      ...(shortPassword ? { cls: "password" as const } : {}),
      nameStart,
      valueStart: text.indexOf(value, i + 1),
      value,
      quoted: true,
      literal: true,
    };
  }
  if ((before === '"' || before === "'") && text[i] === before) i++;
  else if (escapedName) i += 2;
  if (text[i] === "]") i++;
  const spaceStart = i;
  while (i < lineEnd && (text[i] === " " || text[i] === "\t")) i++;
  const spaced = i > spaceStart;
  let literal = LITERAL_EXTENSIONS.has(extension);
  const op = text.slice(i, i + 2);
  if (op === ":=" || op === "=>" || op === "?=" || (op === "->" && arrowPair)) i += 2;
  else if (
    text[i] === "=" &&
    // `==` and `=~` compare in code; `KEY==x` in an env or properties file assigns "=x".
    ((text[i + 1] !== "=" && text[i + 1] !== "~") || (!spaced && !CODE_EXTENSIONS.has(extension)) ||
      (!spaced && (before === "&" || before === "?" || before === ";")) || // a URL's query, a DSN
      (!spaced && before === "," && insideQuotes(text, nameStart))) // "host:6380,password=…"
  ) {
    i++;
    // `NAME=value` without spaces is the env/ini/shell form, whose values are literals.
    if (!spaced) literal = literal || !CODE_EXTENSIONS.has(extension);
  } else if (text[i] === ":" && text[i + 1] !== ":" && !(quotedName && spaced)) {
    // (`"a" ? "password" : "other"` is a ternary; a JSON or YAML key has no space before `:`)
    i++;
    if (!CODE_EXTENSIONS.has(extension)) literal = true;
    else {
      // A declared type between the name and `=`: `secret_key: str = "…"` (Python),
      // `const API_TOKEN: &str = "…"` (Rust), `val apiSecret: String = "…"` (Kotlin, Swift, TS).
      const typed = TYPE_ANNOTATION.exec(text.slice(i, Math.min(lineEnd, i + 80)));
      if (typed) i += typed[0].length;
    }
  } else if (
    spaced && (name.startsWith("--") ||
      // A single-dash long option given a quoted literal, PowerShell's `-Password "…"`, Go's flags.
      (name.startsWith("-") && (text[i] === '"' || text[i] === "'") &&
        !CODE_EXTENSIONS.has(extension) && !PROSE_EXTENSIONS.has(extension)))
  ) {
    i = spaceStart; // `--password value`
    literal = true;
  } else if (
    text[i] === "," && (constantKey || (quotedName &&
      /\([ \t]*$/.test(text.slice(Math.max(0, nameStart - 40), nameStart - 1))))
  ) {
    i++; // define('DB_PASSWORD', '…'), os.environ.setdefault("API_KEY", "…")
    const read = readValue(text, i, lineEnd);
    if (!read || !read.quoted) return null;
    return {
      name,
      nameStart,
      valueStart: read.start,
      value: read.value,
      quoted: true,
      literal: false,
    };
  } else return quotedName && text[i] === "," ? valueElsewhere(text, nameStart, nameEnd) : null;
  // An object that describes the variable and gives its value, Heroku's app.json:
  // `"API_KEY": { "description": "…", "value": "…" }`.
  if (quotedName && /^[ \t]*\{/.test(text.slice(i, i + 8))) {
    const m = /^[ \t]*\{[^{}\n]*?"value"[ \t]*:[ \t]*(?=")/.exec(text.slice(i, lineEnd));
    if (!m) return null;
    i += m[0].length;
  }
  // ODBC quotes a value in braces when it holds `;` or spaces: `Uid=app;Pwd={…};`.
  const read = before === ";" && text[i] === "{"
    ? bracedValue(text, i, lineEnd)
    : readValue(text, i, lineEnd);
  if (!read) return null;
  // In code an unquoted value is an expression (a variable, a call, a type); a literal secret in
  // code is a string and is quoted.
  // A `key=value` pair inside a string (a URL's query, a connection string) is a literal again.
  const inString = before === "&" || before === "?" || before === ";" ||
    ((before === '"' || before === "'") && text[nameEnd] === "=");
  // A libpq or ODBC keyword string in code: "host=db user=app password=…"
  // and StackExchange.Redis' "host:6380,password=…,ssl=True"
  const keywordString = !read.quoted && CODE_EXTENSIONS.has(extension) && !inString &&
    (before === " " || before === ",") && text[nameEnd] === "=" && insideQuotes(text, nameStart);
  if (!read.quoted && CODE_EXTENSIONS.has(extension) && !inString && !keywordString) return null;
  // Inside a string every value is a literal: `Password=@CMC…;` in a connection string in code,
  // `password=ab.Cd_9` in a keyword string (not a member access).
  if (inString || keywordString) literal = true;
  // `credentials: CredentialsType;` is a type annotation (a `;` after a YAML value is rare).
  if (!read.quoted && text[i - 1] === ":" && text[read.start + read.value.length] === ";") {
    return null;
  }
  return {
    name,
    ...(shortPassword
      ? { cls: "password" as const }
      : keyOfParent
      ? { cls: "secret" as const }
      : {}),
    nameStart,
    valueStart: read.start,
    value: read.value,
    // A keyword string's value is text inside a literal, however it is spelled.
    quoted: read.quoted || keywordString,
    literal,
  };
}

/** Whether a comma stands next to the name (skipping a sigil, spaces and a closing bracket). */
function listNeighbour(text: string, nameStart: number, nameEnd: number): boolean {
  let k = nameEnd;
  while (text[k] === " " || text[k] === "\t") k++;
  if (text[k] === ",") return true;
  let p = nameStart - 1;
  if (text[p] === "$" || text[p] === "@") p--;
  while (text[p] === " " || text[p] === "\t") p--;
  return text[p] === ",";
}

/** The tuple element of a secret-like name or of a short password word beside a user. */
function tupleOfSecretName(text: string, nameStart: number, nameEnd: number): Assignment | null {
  const name = text.slice(nameStart, nameEnd);
  if (classifyName(name) === null && !SHORT_PASSWORD.test(name)) return null;
  const element = tupleElement(text, nameStart, nameEnd);
  // A short word is a password only beside a user's name (tupleElement says so with `cls`).
  return element && (element.cls || classifyName(name) !== null) ? element : null;
}

/** What may precede a name in a list of assigned names: a declaration, a bracket, names. */
const TUPLE_HEAD =
  /^[ \t]*(?:(?:const|let|var|my|our|local|val|auto)[ \t]+)?[[(]?[ \t]*((?:[$@]?[A-Za-z_]\w*[ \t]*,[ \t]*)*)[$@]?$/;
/** What may follow it: more names, a closing bracket, the operator. */
const TUPLE_TAIL =
  /^((?:[ \t]*,[ \t]*[$@]?[A-Za-z_]\w*)*)[ \t]*[\])]?[ \t]*(?::=|=)(?![=>~])[ \t]*/;
/** A string literal as a whole list item. */
const ITEM_LITERAL = /^(\s*)(["'`])([^"'`\n]*)\2\s*$/;
/** The short password words a list makes a password when a user is assigned beside them. */
const SHORT_PASSWORD = /^(?:pass|pw|pwd)$/i;
const USER_NAME = /^(?:user|username|user_name|login|usr|uid|account)$/i;

/**
 * The value a tuple or destructuring assignment gives the name at its place: Python's and Ruby's
 * `user, password = "…", "…"`, Go's `user, pass := …`, JavaScript's `const [user, pass] = […]`,
 * Perl's `my ($user, $pass) = (…)`, Rust's `let (user, password) = (…)`, in any order. The value is
 * the literal at the same place of the list on the right, which must have as many items.
 */
function tupleElement(text: string, nameStart: number, nameEnd: number): Assignment | null {
  const lineStart = text.lastIndexOf("\n", nameStart - 1) + 1;
  const head = TUPLE_HEAD.exec(text.slice(lineStart, nameStart));
  if (!head) return null;
  const tail = TUPLE_TAIL.exec(text.slice(nameEnd, nameEnd + 200));
  if (!tail) return null;
  const namesBefore = head[1].split(",").length - 1;
  const namesAfter = tail[1].split(",").length - 1;
  if (namesBefore + namesAfter === 0) return null;
  let open = nameEnd + tail[0].length;
  const bracketed = text[open] === "(" || text[open] === "[";
  if (bracketed) open++;
  const items = listItems(text, open, !bracketed);
  // A trailing comma leaves an empty last item (`(\n  "a",\n  "b",\n)`).
  if (items.length > 0 && items[items.length - 1].raw.trim() === "") items.pop();
  if (items.length !== namesBefore + namesAfter + 1) return null;
  const item = items[namesBefore];
  const literal = ITEM_LITERAL.exec(item.raw);
  if (!literal || (literal[2] === "`" && literal[3].includes("${"))) return null;
  const name = text.slice(nameStart, nameEnd);
  const names = (head[1] + tail[1]).split(",").map((n) => n.trim().replace(/^[$@]/, ""));
  const shortPassword = SHORT_PASSWORD.test(name) && names.some((n) => USER_NAME.test(n));
  return {
    name,
    ...(shortPassword ? { cls: "password" as const } : {}),
    nameStart,
    valueStart: item.start + literal[1].length + 1,
    value: literal[3],
    quoted: true,
    literal: false,
  };
}

/** An environment variable looked up by its quoted name, up to the opening quote. */
const ENV_LOOKUP =
  /(?:env::var|[Gg]et_?[Ee]nv|environ\.get|ENV\.fetch|GetEnvironmentVariable|Deno\.env\.get)[ \t]*\([ \t]*["']$/;

/**
 * What writes a literal fallback after a lookup: Rust's `.unwrap_or("…")` and
 * `.unwrap_or_else(|_| "…")`, Scala's and Java's `.getOrElse("…")` / `.orElse("…")`, and the
 * operators `||`, `??`, `?:` and Python's `or`.
 */
const ENV_FALLBACK =
  /^[ \t]*(?:\.unwrap_or(?:_else)?\([ \t]*(?:\|_\|[ \t]*)?|\.(?:getOrElse|orElse)\([ \t]*|(?:\|\||\?\?|\?:|or\b)[ \t]*)(?=["'`])/;

/**
 * The fallback literal written after an environment lookup named like a secret:
 * `env::var("API_TOKEN").unwrap_or("…")`, `os.getenv("API_TOKEN") or "…"`,
 * `process.env.API_TOKEN || "…"`. The fallback is what runs when the variable is not set, so it
 * is a value written into the source like any assignment's.
 */
function environmentDefault(
  text: string,
  nameStart: number,
  nameEnd: number,
  quotedName: boolean,
): Assignment | null {
  let after = nameEnd;
  if (quotedName) {
    if (!ENV_LOOKUP.test(text.slice(Math.max(0, nameStart - 40), nameStart))) return null;
    after++; // the closing quote
    while (text[after] === " " || text[after] === "\t") after++;
    if (text[after] !== ")") return null;
    after++;
  }
  const m = ENV_FALLBACK.exec(text.slice(after, after + 40));
  if (!m) return null;
  const found = valueOnItsLine(
    text,
    text.slice(nameStart, nameEnd),
    nameStart,
    after + m[0].length,
  );
  return found && found.quoted ? { ...found, literal: false } : null;
}

/** Files of prose, where `password reset` is a sentence and not a directive. */
const PROSE_EXTENSIONS = new Set([".md", ".markdown", ".rst", ".txt", ".adoc", ".html", ".htm"]);

/**
 * Where a config line sets a header, the header's name is the name: nginx's
 * `proxy_set_header X-Api-Key …;`, Apache's `RequestHeader set X-Token "…"`, curl's `header`.
 */
const HEADER_DIRECTIVE =
  /(?:^|[ \t])(?:proxy_set_header|add_header|more_set_headers|RequestHeader[ \t]+(?:set|add|append|merge)|Header[ \t]+(?:always[ \t]+)?(?:set|add|append|merge))[ \t]+$/;

/**
 * A directive written `name value` with no operator, as servers' and mail tools' configs do
 * (Apache's `AuthLDAPBindPassword "…"`, msmtp's `password …`, Postfix's and Dovecot's lines): the
 * name first on its line, or a header's name after a directive that sets one; the value the last
 * field on the line (a `;` may close it). A line with more fields is a sentence or a command.
 */
function directiveValue(text: string, nameStart: number, nameEnd: number): Assignment | null {
  const lineStart = text.lastIndexOf("\n", nameStart - 1) + 1;
  const prefix = text.slice(lineStart, nameStart);
  if (!/^[ \t]*$/.test(prefix) && !HEADER_DIRECTIVE.test(prefix)) return null;
  // The secret word comes last (`AuthLDAPBindPassword`, `X-Api-Key`): in `AuthLDAPURL` and
  // `AuthLDAPBindDN`, `Auth` names the module the directive belongs to.
  const tokens = nameTokens(text.slice(nameStart, nameEnd));
  const last = tokens[tokens.length - 1];
  if (!last || !(secretWord(last) || (last === "key" && tokens.length >= 2))) return null;
  let lineEnd = text.indexOf("\n", nameEnd);
  if (lineEnd === -1) lineEnd = text.length;
  const read = readValue(text, nameEnd, lineEnd);
  if (!read) return null;
  const rest = text.slice(read.start + read.value.length + (read.quoted ? 1 : 0), lineEnd);
  if (!/^[ \t]*;?[ \t]*\r?$/.test(rest)) return null;
  return {
    name: text.slice(nameStart, nameEnd),
    nameStart,
    valueStart: read.start,
    value: read.value,
    quoted: read.quoted,
    literal: true,
  };
}

/**
 * A setter given one string literal, `ds.setPassword("…")`, `withApiKey("…")`, or a builder's
 * `.password("…")`: the call assigns the value as surely as `=` would. Other calls with a secret
 * word (`hashPassword("…")`, `getSecret("db/prod")`) take a name or an input, not the secret.
 */
function setterCall(text: string, nameStart: number, nameEnd: number): Assignment | null {
  const name = text.slice(nameStart, nameEnd);
  const method = name.slice(name.lastIndexOf(".") + 1);
  const tokens = nameTokens(method);
  // A method call, `client.password("…")` or Lua's `red:auth("…")`.
  const methodCall = name.includes(".") || text[nameStart - 1] === ":";
  const setter = tokens[0] === "set" || tokens[0] === "with" ||
    (methodCall && tokens.every(secretWord));
  if (!setter || tokens.length === 0) return null;
  let lineEnd = text.indexOf("\n", nameEnd);
  if (lineEnd === -1) lineEnd = text.length;
  const read = readValue(text, nameEnd + 1, lineEnd);
  if (!read || !read.quoted) return null;
  // One argument only: `setPassword(user, "…")` is not this shape. Java hands a password over as
  // characters or bytes (`withPassword("…".toCharArray())`), Rust as an owned string.
  if (
    !/^[ \t]*(?:\.(?:toCharArray|getBytes|to_string|to_owned|into)\([^()\n]*\)[ \t]*)?\)/.test(
      text.slice(read.start + read.value.length + 1, lineEnd),
    )
  ) return null;
  return {
    name: method,
    // `red:auth("…")`, `client.auth("…")`: one argument to `auth` is Redis' AUTH password.
    ...(method.toLowerCase() === "auth" ? { cls: "password" as const } : {}),
    nameStart,
    valueStart: read.start,
    value: read.value,
    quoted: true,
    literal: false,
  };
}

/**
 * A type after `name:` and then `=`, as typed languages declare a constant or a field (Zig's and
 * Go's slice types start with `[]`: `api_key: []const u8 = "…"`).
 */
const TYPE_ANNOTATION = /^[ \t]*(?:\[\][ \t]*)?[&A-Za-z_][\w&'<>[\], .|?*]*?[ \t]*=(?![=>~])/;

/** Parent names under which a bare `key` is a secret key. */
const KEYED_PARENTS = new Set([
  "jwt",
  "jws",
  "jwe",
  "signing",
  "encryption",
  "hmac",
  "cipher",
  "crypto",
  "secret",
  "secrets",
  "token",
  "api",
  "license",
  "master",
  "private",
  // Magento's `'crypt' => ['key' => …]`
  "crypt",
]);

/** A JSON or YAML key's colon after the name (`"Key":`, `key:`), not `key=` of a call's argument. */
function keyedColon(text: string, nameEnd: number): boolean {
  let i = nameEnd;
  if (text[i] === '"' || text[i] === "'") i++;
  while (text[i] === " " || text[i] === "\t") i++;
  return text[i] === ":" || (text[i] === "=" && text[i + 1] === ">");
}

/**
 * Whether the object holding the name at `nameStart` is named by a word of KEYED_PARENTS: the
 * object opened earlier on the same line (`"Jwt": { "Key"`), or the nearest shallower line above
 * (YAML's `jwt:`, a JSON object spread over lines).
 */
function parentIsKeyed(text: string, nameStart: number): boolean {
  const parent = parentName(text, nameStart);
  return parent !== undefined && nameTokens(parent).some((t) => KEYED_PARENTS.has(t));
}

/**
 * The name of the object holding the name at `nameStart`: the object opened earlier on the same
 * line (`"Jwt": { "Key"`), or the nearest shallower line above (YAML's `jwt:`, a JSON object spread
 * over lines, PHP's `'crypt' => [`).
 */
function parentName(text: string, nameStart: number): string | undefined {
  const lineStart = text.lastIndexOf("\n", nameStart - 1) + 1;
  // The object opened last on the line, and the name before its brace (only the last 80
  // characters are looked at: a name and a brace are near).
  const prefix = text.slice(Math.max(lineStart, nameStart - 80), nameStart);
  const brace = prefix.lastIndexOf("{");
  const sameLine = brace !== -1 && prefix.indexOf("}", brace) === -1
    ? /["']?([\w.-]+)["']?[ \t]*:[ \t]*$/.exec(prefix.slice(Math.max(0, brace - 40), brace))
    : null;
  let parent = sameLine?.[1];
  if (!parent) {
    const indent = /^[ \t]*/.exec(text.slice(lineStart, nameStart))![0].length;
    let end = lineStart - 1;
    for (let n = 0; n < 12 && end > 0 && !parent; n++) {
      const start = text.lastIndexOf("\n", end - 1) + 1;
      const line = text.slice(start, end);
      end = start - 1;
      const lead = /^[ \t]*/.exec(line)![0].length;
      if (line.trim() === "" || lead >= indent) continue;
      // YAML's `jwt:`, JSON's `"Jwt": {`, PHP's `'crypt' => [`
      const m = /^[ \t]*-?[ \t]*["']?([\w.-]+)["']?[ \t]*(?::|=>)[ \t]*[{[]?[ \t]*$/.exec(line);
      if (!m) return undefined;
      parent = m[1];
    }
  }
  return parent;
}

/**
 * A user key or element on the same line before `nameStart` or on one of the three lines above
 * (`user: dbt`, `{ user: "alerts", `, `<User>deploy</User>`).
 */
function userKeyNear(text: string, nameStart: number): boolean {
  let from = text.lastIndexOf("\n", nameStart - 1);
  for (let n = 0; n < 3 && from > 0; n++) from = text.lastIndexOf("\n", from - 1);
  return /(?:^|[\s{,<])["']?(?:user|username|login|uid)(?:>|["']?[ \t]*[:=])/im.test(
    text.slice(Math.max(0, from + 1), nameStart),
  );
}

/** `user=… pass=…` on one line (a log, a query string): `pass` beside a user is a password. */
function userBefore(text: string, nameStart: number): boolean {
  const lineStart = text.lastIndexOf("\n", nameStart - 1) + 1;
  return /(?:^|[\s&?;,])(?:user|username|login|uid)=\S+[\s&;,]+$/i.test(
    text.slice(Math.max(lineStart, nameStart - 120), nameStart),
  );
}

/** Whether `at` sits inside a quoted string that opened earlier on its line. */
function insideQuotes(text: string, at: number): boolean {
  let open: string | null = null;
  for (let i = text.lastIndexOf("\n", at - 1) + 1; i < at; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (open === null && (c === '"' || c === "'")) open = c;
    else if (c === open) open = null;
  }
  return open !== null;
}

const KEYWORDS = [
  "pass",
  "pwd",
  "secret",
  "token",
  "key",
  "auth",
  "credential",
  "sas",
  "bearer",
  "license",
  "salt",
  "psk",
  // Erlang's distribution cookie (RabbitMQ's, CouchDB's, an Elixir release's): "cookie" alone
  // names a browser's, and is everywhere in web code.
  "erlang_cookie",
  "erlangcookie",
  "release_cookie",
];

/**
 * Whether the same file hands the variable to a front-end build, `VITE_PUSHER_APP_KEY="${PUSHER_APP_KEY}"`
 * (Vite, Next.js, Create React App, Expo, Nuxt, Gatsby, Laravel Mix): such a value is compiled into
 * pages every visitor downloads, so the project treats it as public (a Pusher or Algolia search key).
 */
function exposedToBrowsers(text: string, name: string): boolean {
  if (!/^[A-Z][A-Z0-9_]*$/.test(name) || !text.includes("{" + name + "}")) return false;
  return new RegExp(
    `^[ \\t]*(?:export[ \\t]+)?(?:VITE|NEXT_PUBLIC|REACT_APP|EXPO_PUBLIC|NUXT_PUBLIC|GATSBY|MIX)_[A-Z0-9_]*[ \\t]*=[ \\t]*["']?\\$\\{${name}\\}["']?[ \\t]*$`,
    "m",
  ).test(text);
}

/** An HTTP authentication scheme written before a token: `Bearer `, `Token `, `Basic `. */
const AUTH_SCHEME = /^(?:Bearer|bearer|Token|token|Basic|basic)[ \t]+(?=\S+$)/;

/** Candidates from the assignments around keyword hits (offsets sorted ascending). */
function candidatesAt(text: string, offsets: Iterable<number>, context: RuleContext): Candidate[] {
  const out: Candidate[] = [];
  let lastNameStart = -1;
  let skipUntil = 0;
  // The name examined last: a second keyword in it (`secret_token`) would give the same answer.
  const name = { start: -1, end: -1 };
  for (const offset of offsets) {
    if (offset < skipUntil) continue;
    if (offset >= name.start && offset < name.end) continue;
    const found = assignmentAt(text, offset, context.extension, name);
    if (!found) {
      // `tokens {`, `secrets:`: a block whose every entry is a secret (Consul's ACL tokens).
      // Each block word starts with its keyword, so the hit is at the name's start (not so in
      // `max_tokens`, which filler code repeats).
      const length = name.end - name.start;
      if (
        offset === name.start && length >= 6 && length <= 11 &&
        (text.charCodeAt(name.end - 1) | 32) === 115 && // "s"
        SECRET_BLOCK.test(text.slice(name.start, name.end))
      ) {
        const entries = secretBlockEntries(text, name.start, name.end, context.extension);
        for (const entry of entries) {
          const candidate = judged(text, entry, entry.cls ?? "secret", context);
          if (candidate) out.push(candidate);
        }
      }
      continue;
    }
    if (found.nameStart === lastNameStart) continue;
    lastNameStart = found.nameStart;
    skipUntil = found.valueStart;
    const cls = found.cls ?? classifyName(found.name);
    if (!cls) continue;
    const candidate = judged(text, found, cls, context);
    if (candidate) out.push(candidate);
  }
  return out;
}

/** The names of blocks that hold only secrets. */
const SECRET_BLOCK = /^(?:tokens|secrets|passwords|credentials)$/i;

/**
 * The entries of a block opened by a plural secret word, `tokens {` (HCL) or `"secrets": {` or
 * YAML's `passwords:` with nothing after it: each `name = value` / `name: value` line indented
 * deeper than the opener, up to the block's end. Entries named like metadata (`name`, `type`,
 * `id`, `path`) and list items are left out: a list of secrets' names is not secrets.
 */
function secretBlockEntries(
  text: string,
  nameStart: number,
  nameEnd: number,
  extension: string,
): Assignment[] {
  let lineEnd = text.indexOf("\n", nameEnd);
  if (lineEnd === -1) return [];
  if (!/^["']?[ \t]*(?:=[ \t]*)?(?::[ \t]*)?\{?[ \t]*\r?$/.test(text.slice(nameEnd, lineEnd))) {
    return [];
  }
  const lineStart = text.lastIndexOf("\n", nameStart - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart, nameStart))![0].length;
  const out: Assignment[] = [];
  for (let n = 0; n < 40; n++) {
    const start = lineEnd + 1;
    if (start >= text.length) break;
    lineEnd = text.indexOf("\n", start);
    if (lineEnd === -1) lineEnd = text.length;
    const line = text.slice(start, lineEnd);
    if (line.trim() === "") continue;
    const m = /^([ \t]*)["']?([A-Za-z_][\w.-]*)["']?[ \t]*[=:][ \t]*/.exec(line);
    if (/^[ \t]*/.exec(line)![0].length <= indent || !m) break;
    const entry = nameTokens(m[2]);
    if (entry.some((t) => EXCLUDED_TOKENS.has(t) && !OWNER_TOKENS.has(t))) continue;
    const read = readValue(text, start + m[0].length, lineEnd);
    if (!read) continue;
    out.push({
      name: m[2],
      ...(classifyName(m[2]) === "password" ? { cls: "password" as const } : {}),
      nameStart: start + m[1].length,
      valueStart: read.start,
      value: read.value,
      quoted: read.quoted,
      // In code an unquoted entry is a name or a type (`parameters: RequestParameters`).
      literal: !CODE_EXTENSIONS.has(extension),
    });
  }
  return out;
}

/** The candidate an assignment makes when its value passes as a secret of class `cls`. */
function judged(
  text: string,
  found: Assignment,
  cls: Exclude<NameClass, null>,
  context: RuleContext,
): Candidate | null {
  // `${DB_PASSWORD:s3cret}` (Spring) and `${DB_PASSWORD:-s3cret}` (shell, compose): the default
  // after the variable is a literal written into the file, and is judged as the value.
  const fallback = defaultOfReference(found.value) ??
    (found.quoted ? null : blockScalarValue(text, found.nameStart, found.valueStart, found.value));
  // `token = "Bearer …"`: the scheme word is written with the token, and is not part of it.
  const scheme = fallback ? null : AUTH_SCHEME.exec(found.value);
  const value = fallback
    ? fallback.value
    : scheme
    ? found.value.slice(scheme[0].length)
    : found.value;
  const valueStart = found.valueStart +
    (fallback ? fallback.offset : scheme ? scheme[0].length : 0);
  if (
    !acceptValue(value, cls, {
      quoted: found.quoted,
      literalFile: found.literal,
      thorough: context.thorough,
      yaml: YAML_OR_UNKNOWN.has(context.extension),
    })
  ) {
    return null;
  }
  if (exposedToBrowsers(text, found.name) || namesASection(text, value)) return null;
  if (namesItself(found.name, value) || joinedWithCode(text, found, context)) return null;
  if (badgeQuery(text, found.nameStart)) return null;
  // git's `user.signingKey` names a public key; `…:secret:…` inside an ARN assigns nothing.
  if (isSigningKeyId(found.name, value) || insideResourceName(text, found.nameStart)) return null;
  // Bitnami's SealedSecret keeps each value encrypted to the cluster's key under `encryptedData:`.
  if (
    YAML_OR_UNKNOWN.has(context.extension) && value.length >= 200 &&
    parentName(text, found.nameStart) === "encryptedData"
  ) return null;
  const { kind, priority } = kindFor(found.name, cls, value);
  return {
    kind,
    category: "credential",
    start: valueStart,
    end: valueStart + value.length,
    priority,
    visible: 0,
  };
}

/**
 * Whether the name at `nameStart` is a query parameter of an image's address (a coverage badge's
 * `badge.svg?token=…` in a README): the token shown to every reader only draws the image.
 */
function badgeQuery(text: string, nameStart: number): boolean {
  if (text[nameStart - 1] !== "?" && text[nameStart - 1] !== "&") return false;
  const lineStart = text.lastIndexOf("\n", nameStart - 1) + 1;
  const url = /https?:\/\/\S*$/.exec(text.slice(lineStart, nameStart - 1));
  return url !== null && /(?:\.(?:svg|png|gif)|\/badge)(?:\?[^?]*)?$/i.test(url[0]);
}

/**
 * Whether the value is its own name again, as code and type declarations write it:
 * `this.accessToken = accessToken`, `accessToken: AccessToken;`, `password: Password`.
 */
function namesItself(name: string, value: string): boolean {
  if (!/^[A-Za-z_$][\w$]*$/.test(value)) return false;
  const flat = (s: string) => s.replace(/[^A-Za-z0-9]/g, "").toLowerCase();
  const last = name.slice(name.lastIndexOf(".") + 1);
  return flat(value) === flat(last);
}

/**
 * Whether a quoted literal in code is joined with a variable or a call by `+`
 * (`finalKey = "__Secure-" + key`, `token = prefix + "-v2"`): a piece of a value built at run
 * time. A URL's password joined from literals alone is read by its own rule.
 */
function joinedWithCode(text: string, found: Assignment, context: RuleContext): boolean {
  if (!found.quoted || !CODE_EXTENSIONS.has(context.extension)) return false;
  const after = text.slice(
    found.valueStart + found.value.length + 1,
    found.valueStart + found.value.length + 40,
  );
  if (/^[ \t]*\+[ \t]*[A-Za-z_$(]/.test(after)) return true;
  const before = text.slice(Math.max(0, found.valueStart - 40), found.valueStart - 1);
  return /[A-Za-z0-9_$)\]][ \t]*\+[ \t]*$/.test(before);
}

/**
 * Whether `value` is the name of a section of the same ini-style file, `[value]` alone on its line:
 * Asterisk's `auth=6001-auth` points at the section `[6001-auth]`, where the password is.
 */
function namesASection(text: string, value: string): boolean {
  const at = text.indexOf("[" + value + "]");
  return at !== -1 && (at === 0 || text[at - 1] === "\n");
}

/**
 * The default written into a variable reference, `${NAME:default}`, `${NAME:-default}`,
 * `${NAME-default}` or `${NAME:=default}`, with its offset in the value; null for anything else
 * (`${NAME:?message}` is an error message, `${NAME:+alt}` an alternative, not a default).
 */
export function defaultOfReference(value: string): { offset: number; value: string } | null {
  // The value as read may stop before the closing brace.
  const m = /^\$\{([A-Za-z_][A-Za-z0-9_.-]*?)(:-|:=|-|:)([^?+{}][^{}]*)(\}?)$/.exec(value);
  if (!m) return null;
  // `${env:NAME}`, `${config:…}`, `${input:…}`: an editor's or a tool's lookup in a namespace
  // (VS Code's launch and task files), whose part after the colon is a name, not a default.
  if (m[2] === ":" && REFERENCE_NAMESPACES.has(m[1])) return null;
  return { offset: value.length - m[4].length - m[3].length, value: m[3] };
}

/** Namespaces of `${namespace:name}` lookups (VS Code, Ansible's and other tools' own). */
const REFERENCE_NAMESPACES = new Set([
  "env",
  "config",
  "input",
  "command",
  "secret",
  "secrets",
  "vault",
  "file",
  "workspaceFolder",
]);

/**
 * The value of a YAML block scalar of one line (`password: |` with the value alone on the next,
 * deeper line), with its offset from the indicator; null otherwise. A block of several lines is a
 * certificate or a script, which other rules read.
 */
function blockScalarValue(
  text: string,
  nameStart: number,
  indicatorStart: number,
  indicator: string,
): { offset: number; value: string } | null {
  if (!/^[|>][-+]?[1-9]?$/.test(indicator)) return null;
  const lineStart = text.lastIndexOf("\n", nameStart - 1) + 1;
  const indent = nameStart - lineStart - (text.slice(lineStart, nameStart).trimStart().length);
  const next = text.indexOf("\n", indicatorStart);
  if (next === -1) return null;
  const m = /^([ \t]*)(\S[^\n]*?)[ \t]*(?:\n|$)([ \t]*)(\S?)/.exec(
    text.slice(next + 1, next + 1100),
  );
  if (!m || m[1].length <= indent) return null;
  // One line only: what follows is back at the name's depth, or the text ends.
  if (m[4] !== "" && m[3].length > indent) return null;
  return { offset: next + 1 + m[1].length - indicatorStart, value: m[2] };
}

function* keywordOffsets(text: string): Generator<number> {
  // One shared object: V8 compiles a regular expression to machine code only after it has
  // run a few times, so a fresh object per scan would run interpreted. (The scan never nests.)
  const keyword = KEYWORD;
  keyword.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = keyword.exec(text)) !== null) yield match.index;
}

export const genericRule: Rule = {
  id: "generic-secret",
  category: "credential",
  keywordsFolded: KEYWORDS,
  // The scanner finds the keywords in its one pass and calls findAt; find is for direct use.
  find(text: string, context: RuleContext): Candidate[] {
    return candidatesAt(text, keywordOffsets(text), context);
  },
  findAt(text: string, offsets: number[], context: RuleContext): Candidate[] {
    return candidatesAt(text, offsets, context);
  },
};

const LONG_TOKEN = /(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_-]{32,}={0,2}(?![A-Za-z0-9+/_=-])/g;

/**
 * Base64 of a file by its magic number, as notebooks, HTML and bundles embed them: images (PNG,
 * JPEG, GIF, WebP), a WebAssembly module, gzip, zip, PDF and WOFF fonts.
 */
const IMAGE_BASE64 = /^(?:iVBORw0KGgo|\/9j\/|R0lGOD|UklGR|AGFzbQ|H4sI|UEsDB|JVBERi0|d09GR|d09GMg)/;

/**
 * Long random strings that are public: inside a certificate or public key block, an SSH public
 * key, an embedded image, or a part of a documented example token.
 */
function isPublicMaterial(text: string, start: number, value: string): boolean {
  if (IMAGE_BASE64.test(value)) return true;
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  if (
    /(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com)\s+$/.test(
      text.slice(lineStart, start),
    )
  ) {
    return true;
  }
  const begin = text.lastIndexOf("-----BEGIN ", start);
  if (begin !== -1 && start - begin < 64 * 1024 && text.indexOf("-----END ", begin) > start) {
    const label = text.slice(begin, text.indexOf("-----", begin + 11));
    if (!label.includes("PRIVATE")) return true;
  }
  let tokenStart = start;
  while (tokenStart > 0 && /[A-Za-z0-9._-]/.test(text[tokenStart - 1])) tokenStart--;
  let tokenEnd = start + value.length;
  while (tokenEnd < text.length && /[A-Za-z0-9._-]/.test(text[tokenEnd])) tokenEnd++;
  // A part of a JWT (`eyJ…` header, then payload and signature): the JWT rule judges the whole,
  // and leaves out the samples documentation shows (an empty payload, `e30`).
  if (text.startsWith("eyJ", tokenStart) && text.slice(tokenStart, tokenEnd).includes(".")) {
    return true;
  }
  return isPlaceholder(text.slice(tokenStart, tokenEnd));
}

/**
 * Whether the string at `start` is given to a name that says what it is, and that is not a secret:
 * `"upload_id": "…"`, `next_cursor=…`, `"kid": "…"`, `fingerprint: SHA256:…`, `etag`, `checksum`,
 * `sha256base64.parse("…")`, `ENC(…)` (jasypt's ciphertext). A nameless string is what thorough
 * mode looks for; a string whose name rules it out is not nameless.
 */
function namedNotSecret(text: string, start: number): boolean {
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const before = text.slice(Math.max(lineStart, start - 80), start);
  if (/\bENC\($/.test(before)) return true;
  const m = /([A-Za-z_$][\w$.-]*)["']?[ \t]*(?:[:=]|\()[ \t]*["'`]?(?:[A-Za-z0-9]{2,8}:)?$/.exec(
    before,
  );
  if (!m) return false;
  // A digest's name run together with more (`sha256base64.parse(…)`, `md5sum`).
  if (/^(?:sha\d*|md5|crc\d*|blake\d*)/i.test(m[1])) return true;
  if (namesNotSecret(m[1])) return true;
  // A secret's own name (`password: AgB…` in a SealedSecret): the name rule has judged the value,
  // with thorough mode's thresholds, and what it left out was left out for a reason.
  if (classifyName(m[1]) !== null) return true;
  // A call's argument is named by what the call's result is assigned to
  // (`var publicKey = Convert.FromBase64String("…")`).
  const target = /([A-Za-z_$][\w$]*)[ \t]*=[ \t]*(?:new[ \t]+)?[\w$.]+\([ \t]*["'`]?$/.exec(before);
  return target !== null && namesNotSecret(target[1]);
}

/** Whether a name says its value is an id, a digest or public, not a secret. */
function namesNotSecret(name: string): boolean {
  const tokens = nameTokens(name);
  if (tokens.some((t) => NOT_SECRET_NAMES.has(t))) return true;
  return classifyName(name) === null &&
    tokens.some((t) => EXCLUDED_TOKENS.has(t) && !OWNER_TOKENS.has(t));
}

/** Words that name an id, a digest or a position rather than a secret, beside `EXCLUDED_TOKENS`. */
const NOT_SECRET_NAMES = new Set([
  // Ciphertext and public material under their own names (Travis' `secure:`, a Chef data bag's
  // `encrypted_data` and `iv`, a kubeconfig's `certificate-authority-data`).
  "secure",
  "encrypted",
  "ciphertext",
  "iv",
  "mac",
  "certificate",
  "cert",
  "id",
  "kid",
  "jti",
  "nonce",
  "cursor",
  "etag",
  "sha",
  "sha1",
  "sha256",
  "sha384",
  "sha512",
  "md5",
  "digest",
  "checksum",
  "hash",
  "fingerprint",
  "integrity",
]);

/**
 * Whether the string at `start` fills its line and a line next to it is also one long base64 run:
 * a file encoded and wrapped (a WebAssembly module in a bundle), not a credential. A private key
 * wrapped so is found by its `BEGIN` line; a JWT has dots.
 */
function insideEncodedBlock(text: string, start: number, value: string): boolean {
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  let lineEnd = text.indexOf("\n", start);
  if (lineEnd === -1) lineEnd = text.length;
  const isRun = (line: string) => /^[ \t"'`]*[A-Za-z0-9+/]{60,}={0,2}[ \t"'`+,\\]*$/.test(line);
  if (value.length < 60 || !isRun(text.slice(lineStart, lineEnd))) return false;
  const prevStart = text.lastIndexOf("\n", lineStart - 2) + 1;
  const previous = lineStart > 0 ? text.slice(prevStart, lineStart - 1) : "";
  let nextEnd = text.indexOf("\n", lineEnd + 1);
  if (nextEnd === -1) nextEnd = text.length;
  const next = lineEnd < text.length ? text.slice(lineEnd + 1, nextEnd) : "";
  return isRun(previous) || isRun(next);
}

/**
 * Whether the string at `start` is in the fragment of a web address (`…/play?#code/MYGw…`, a
 * playground's compressed state): the part after `#` stays in the browser and is shared with the
 * link.
 */
function inUrlFragment(text: string, start: number): boolean {
  let i = start;
  while (i > 0 && start - i < 4096 && !/[\s"'<>()\[\]]/.test(text[i - 1])) i--;
  const run = text.slice(i, start);
  return /^https?:\/\//i.test(run) && run.includes("#");
}

/**
 * Whether the string between `start` and `end` is a piece of a larger value whose shape the rules
 * already know for a look-alike: a stored password hash (`$6$salt$hash`, `{SSHA}…`, SCRAM), a
 * tool's ciphertext (Jenkins' `{AQAAAB…}`, Pulumi's `v1:…`, sops' `ENC[…]`, Maven's `{…}`), a
 * public token (Mapbox's `pk.eyJ…`), or an object written into a string (Keycloak's
 * `{"value":…,"salt":…}`). The piece of a known look-alike is no secret of its own.
 */
function partOfKnownShape(text: string, start: number, end: number): boolean {
  let from = start;
  while (from > 0 && start - from < 4096 && !/[\s"'<>]/.test(text[from - 1])) from--;
  let to = end;
  while (to < text.length && to - end < 4096 && !/[\s"'<>]/.test(text[to])) to++;
  // The enclosing value, without a backslash before an escaped quote at its end.
  const whole = text.slice(from, to).replace(/\\$/, "");
  return isPasswordHash(whole) || isToolCiphertext(whole) || isBracedCiphertext(whole) ||
    isSopsCiphertext(whole) || isWrappedPasswordHash(whole) || isPublicToken(whole) ||
    /^ENC\[|^\{\\?"[\w.-]+\\?"[ \t]*:|^[\w.-]+:\$\w+\$|^\$\w+\$/.test(whole);
}

/** Thorough mode only: long random strings with no name at all. */
export const highEntropyRule: Rule = {
  id: "high-entropy-string",
  category: "credential",
  thoroughOnly: true,
  find(text: string): Candidate[] {
    const out: Candidate[] = [];
    const namedAway = new Set<string>();
    const token = LONG_TOKEN;
    token.lastIndex = 0;
    let match: RegExpExecArray | null;
    while ((match = token.exec(text)) !== null) {
      const value = match[0];
      if (
        /^[0-9a-f]+$/i.test(value) ||
        value.includes("/") && /^[A-Za-z0-9_./-]+$/.test(value) && /[a-z]{4}/.test(value)
      ) {
        continue; // hashes, and paths
      }
      if (classCount(value) < 3 || shannonEntropy(value) < 4.2 || isPlaceholder(value)) continue;
      if (isIntegrityString(value) || isDataUrl(value)) continue;
      const before = text.slice(Math.max(0, match.index - 7), match.index);
      if (/base64,$|sha\d+-$/.test(before)) continue;
      if (isPublicMaterial(text, match.index, value)) continue;
      // Names, packed tables and encoded text have the letters of a random string, not its make.
      if (
        isWordIdentifier(value) || hasStructuredRepeats(value) || isEncodedText(value) ||
        isAlphabet(value)
      ) continue;
      // A string split into its characters is a lookup table (`"…".split("")`).
      if (text.startsWith('".split("")', match.index + value.length)) continue;
      // A string is the same thing wherever it stands: a digest named once (`sha256…parse("…")`)
      // and then repeated as the expected result is still a digest.
      if (namedAway.has(value)) continue;
      if (namedNotSecret(text, match.index)) {
        namedAway.add(value);
        continue;
      }
      if (insideEncodedBlock(text, match.index, value) || inUrlFragment(text, match.index)) {
        continue;
      }
      if (partOfKnownShape(text, match.index, match.index + value.length)) continue;
      out.push({
        kind: "high-entropy-string",
        category: "credential",
        start: match.index,
        end: match.index + value.length,
        priority: PRIORITY.entropy,
        visible: 0,
      });
    }
    return out;
  },
};
