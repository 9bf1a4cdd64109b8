/**
 * Credentials written into program code in shapes no `name = value` reader sees: a `user:password`
 * literal handed to a base64 encoder to build a basic-auth header, or to a client option that takes
 * the pair as one string (libcurl's `CURLOPT_USERPWD`, Elixir's `{:basic, "u:p"}`); libcurl's
 * password options; and a key written as a list of bytes under a key's name.
 */
import type { Rule } from "./types.ts";
import { PRIORITY, regexRule } from "./regex_rule.ts";
import {
  isPasswordHash,
  isPlaceholder,
  isTemplateReference,
  isWellKnownPassword,
} from "./allowlist.ts";
import { shannonEntropy } from "./entropy.ts";

/**
 * A password written as a literal: not a stand-in, a reference, a published example or a hash, and
 * nothing interpolated (`${…}`, `#{…}`, `{{…}}`, `$name`), however deep its expression.
 */
function literalPassword(value: string): boolean {
  return value.length >= 4 && !/\$\{|#\{|\{\{|^\$/.test(value) && !isPlaceholder(value) &&
    !isTemplateReference(value) &&
    !isWellKnownPassword(value) && !isPasswordHash(value) && shannonEntropy(value) >= 2;
}

/**
 * `"user:password"` as the literal a base64 encoder is given, the way code builds a basic-auth
 * header: JavaScript's `btoa("u:p")` and `Buffer.from("u:p")`, Java's and Go's
 * `encodeToString("u:p".getBytes())` / `EncodeToString([]byte("u:p"))`, Python's
 * `b64encode(b"u:p")`, Ruby's `encode64`, PHP's `base64_encode`, .NET's
 * `ToBase64String(Encoding.UTF8.GetBytes("u:p"))`. One call may wrap the literal (`GetBytes(`,
 * `[]byte(`). The user part has no space and no colon; the value is the password.
 */
const encodedPairRule = regexRule({
  kind: "basic-auth",
  pattern:
    /(?:\bbtoa|\bBuffer\.from|[Ee]ncodeToString|\bb64encode|\b(?:strict_)?encode64|\bbase64_encode|\bToBase64String)[ \t]*\([ \t]*(?:(?:[\w.]+|\[\]byte)\([ \t]*)?b?(["'`])[^"'`\s:]{1,64}:([^"'`\s]{4,128})\1/gd,
  group: 2,
  keywords: [
    "btoa(",
    "Buffer.from(",
    "ncodeToString(",
    "b64encode(",
    "encode64(",
    "base64_encode(",
    "ToBase64String(",
  ],
  priority: PRIORITY.header,
  validate: (v) => literalPassword(v),
});

/**
 * `"user:password"` as one argument where a client takes the pair so: libcurl's
 * `CURLOPT_USERPWD` / `CURLOPT_PROXYUSERPWD` (C, PHP's `curl_setopt`) and Elixir's Req and Tesla
 * `auth: {:basic, "u:p"}`.
 */
const pairArgumentRule = regexRule({
  kind: "basic-auth",
  pattern:
    /(?:\{[ \t]*:basic[ \t]*,|\bCURLOPT_(?:PROXY)?USERPWD[ \t]*,)[ \t]*(["'])[^"'\s:]{1,64}:([^"'\s]{4,128})\1/gd,
  group: 2,
  keywords: [":basic", "USERPWD"],
  priority: PRIORITY.header,
  validate: (v) => literalPassword(v),
});

/** libcurl's password options given a literal: `CURLOPT_PASSWORD`, `CURLOPT_PROXYPASSWORD`, `CURLOPT_KEYPASSWD`. */
const curlPasswordRule = regexRule({
  kind: "password",
  pattern: /\bCURLOPT_(?:PROXY)?(?:PASSWORD|KEYPASSWD)[ \t]*,[ \t]*(["'])([^"'\n]{4,128})\1/gd,
  group: 2,
  keywords: ["CURLOPT_"],
  priority: PRIORITY.header,
  validate: (v) => literalPassword(v),
});

/** A name that says it holds a secret key (not a public key or a table). */
const KEY_NAME = /(?:key|secret|token|salt|psk|passw)/i;
const PUBLIC_NAME = /public|pubkey|pub_key/i;

/**
 * A key written as a list of bytes under a key's name, in the declarations of C and C++
 * (`static const uint8_t aes_key[] = { 0x4f, … }`), Java and C# (`byte[] KEY = { (byte) 0x4f, … }`,
 * `new byte[] { … }`), Go (`[]byte{0x4f, …}`), Rust (`[u8; 32] = [0x4f, …]`) and Dart. Sixteen
 * bytes or more, which may wrap over lines; the bytes must not repeat a pattern.
 */
const byteArrayKeyRule = regexRule({
  kind: "generic-secret",
  pattern:
    /\b([A-Za-z_]\w*)[^=\n;]{0,40}=(?:[^{[\n;=]|\[\]){0,40}[{[][ \t\r\n]*((?:(?:\(byte\)[ \t]*)?0x[0-9a-fA-F]{2}[ \t]*,[ \t\r\n]*){15,}(?:\(byte\)[ \t]*)?0x[0-9a-fA-F]{2})/gd,
  group: 2,
  keywords: ["uint8_t", "unsigned char", "byte[]", "Byte[]", "[]byte{", "[u8;", "Uint8List"],
  priority: PRIORITY.generic,
  validate: (v, text, start) => {
    // The declaration's name is on the line of the `=` before the bytes.
    const equals = text.lastIndexOf("=", start);
    const head = text.slice(text.lastIndexOf("\n", equals - 1) + 1, equals);
    const names = head.match(/[A-Za-z_]\w*/g) ?? [];
    if (!names.some((n) => KEY_NAME.test(n)) || PUBLIC_NAME.test(head)) return false;
    const digits = v.replace(/\(byte\)|0x/g, "").replace(/[^0-9a-fA-F]/g, "");
    return shannonEntropy(digits.toLowerCase()) >= 3;
  },
});

/** The rules of this file, in the order the scanner tries them. */
export const CODE_LITERAL_RULES: Rule[] = [
  encodedPairRule,
  pairArgumentRule,
  curlPasswordRule,
  byteArrayKeyRule,
];
