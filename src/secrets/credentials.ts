/**
 * Credential rules with a recognisable shape: a vendor prefix, a fixed
 * length, a structure (JWT, connection string, URL userinfo). Each is a pure
 * rule; the scanner runs only those whose keyword occurs in the text.
 */
import type { Candidate, Rule, RuleContext } from "./types.ts";
import { credentialCandidate, PRIORITY, regexRule } from "./regex_rule.ts";
import { isPlaceholder, isTemplateReference, isWellKnownPassword } from "./allowlist.ts";
import { CODE_LITERAL_RULES } from "./code_literals.ts";
import { COMMAND_RULES } from "./commands.ts";
import { classCount, shannonEntropy } from "./entropy.ts";
import { privateKeyRule } from "./private_key.ts";
import { PROVIDER_RULES } from "./providers.ts";
import { SERVICE_FORMAT_RULES } from "./service_formats.ts";
import { CLIENT_FORMAT_RULES } from "./client_formats.ts";
import { toldPasswordRule } from "./prose.ts";
import { isWordIdentifier } from "./lookalikes.ts";

import { randomPart } from "./providers.ts";

const notPlaceholder = (value: string) => !isPlaceholder(value);

/** AWS access key ids, and a 40-character secret that follows one closely without a name. */
const awsAccessKeyRule: Rule = (() => {
  const idRule = regexRule({
    kind: "aws-access-key-id",
    pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}(?![A-Za-z0-9])/g,
    keywords: ["AKIA", "ASIA", "ABIA", "ACCA"],
    visible: 4,
    validate: (v) => randomPart(v, 4, 2.5),
  });
  const nearbySecret = /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{40}(?![A-Za-z0-9+/=])/g;
  return {
    ...idRule,
    find(text: string, context: RuleContext): Candidate[] {
      const ids = idRule.find(text, context);
      const out = [...ids];
      for (const id of ids) {
        const windowEnd = Math.min(text.length, id.end + 400);
        nearbySecret.lastIndex = id.end;
        let match: RegExpExecArray | null;
        while ((match = nearbySecret.exec(text)) !== null && match.index < windowEnd) {
          const value = match[0];
          if (classCount(value) >= 3 && shannonEntropy(value) >= 4 && !isPlaceholder(value)) {
            out.push(
              credentialCandidate(
                "aws-secret-access-key",
                match.index,
                match.index + value.length,
                PRIORITY.structured,
              ),
            );
            break;
          }
        }
      }
      return out;
    },
  };
})();

const URL_DB_SCHEMES =
  /^(?:postgres|postgresql|mysql|mariadb|mongodb|mongodb\+srv|redis|rediss|amqp|amqps|mssql|sqlserver|oracle|cockroachdb|clickhouse|couchdb|neo4j|neo4j\+s|bolt|cassandra|jdbc:[a-z]+|memcached|influxdb)$/i;

const EXAMPLE_HOST = /(?:^|\.)(?:example\.(?:com|org|net)|example|test|invalid)$/i;

/** Module-level so that V8 keeps it compiled across scans (a literal in a function is a new object). */
const URL_USERINFO =
  /([a-zA-Z][a-zA-Z0-9+.:-]{1,30}):\/\/(\$?\{[\w.]*\}|[^\s:@/"'<>{}\\]{0,128}):([^\s@/"'<>\\]{1,256})@([^\s/"'<>:?#\\]+)/yd;

/** An ASCII letter. */
function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** A character of a URL's scheme: `[a-zA-Z0-9+.:-]` (`:` for `jdbc:mysql`). */
function isSchemeChar(c: number): boolean {
  return isLetter(c) || (c >= 48 && c <= 58) || c === 43 || c === 45 || c === 46;
}

/**
 * Where the authority after `://` stops: at an `@` (userinfo follows; most URLs have none), or at
 * the first character that ends it. -1 when neither comes within a few hundred characters.
 */
function authorityStop(text: string, from: number): number {
  const limit = Math.min(text.length, from + 400);
  for (let i = from; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 64) return i; // @
    // whitespace, / " ' < > \ # ?
    if (
      c <= 32 || c === 47 || c === 34 || c === 39 || c === 60 || c === 62 || c === 92 || c === 35 ||
      c === 63
    ) {
      return i;
    }
  }
  return -1;
}

/**
 * A URL built by joining literals in code, the password a literal of its own between the user's
 * and the host's: C's adjacent strings (`"ftp://u:" "…" "@host"`), `+` (Java, C++, JavaScript,
 * C#), `.` (PHP, Perl), `..` (Lua), `&` (Visual Basic); a wrapper such as `std::string("…")`.
 * Read from the quote that closes `scheme://user:`.
 */
const JOINED_PASSWORD =
  /(["'])[ \t]*(?:\+|\.\.?|&)?[ \t]*(?:std::string\(|String\()?(["'])([^"'\s@/\\]{4,128})\2\)?[ \t]*(?:\+|\.\.?|&)?[ \t]*["']@/yd;

/**
 * The arguments after a format string whose URL leaves user and password to them
 * (`"amqp://%s:%s@%s"`, `"…//{}:{}@{}"`): Java's `String.format(…, "u", "…", host)`, Go's
 * `fmt.Sprintf`, Rust's `format!`, Python's `%` and `.format(…)`. Read from the string's close.
 */
const FORMAT_ARGUMENTS =
  /[^"'`\n]*(["'`])[ \t]*(?:,|%[ \t]*\(|\.format\()[ \t]*(["'`])[^"'`\n]*\2[ \t]*,[ \t]*(["'`])([^"'`\n]{4,128})\3/yd;

/**
 * A credential given with its endpoint as a call's first two literals: an API client's
 * `New("https://api.…", "…")`, an enum member's `EU("https://…", "…")`. Read from the quote that
 * closes the URL; the key ends the argument list or is followed by more.
 */
const KEY_AFTER_ENDPOINT = /(["'])[ \t]*,[ \t]*(["'])([A-Za-z0-9_\-+/=.]{20,200})\2[ \t]*[,)]/yd;

/**
 * The key given after the URL literal at `schemeStart` (opened by `quote`), if the URL names an
 * API and the key is random enough. A URL of a file or a repository is followed by its checksum or
 * commit, not a key.
 */
function keyAfterEndpoint(text: string, schemeStart: number, quote: string): Candidate | null {
  const lineEnd = text.indexOf("\n", schemeStart);
  const close = text.indexOf(quote, schemeStart);
  if (close === -1 || (lineEnd !== -1 && close > lineEnd)) return null;
  // The literal after the URL first: most URLs are not followed by one, and that test is the cheapest.
  KEY_AFTER_ENDPOINT.lastIndex = close;
  const m = KEY_AFTER_ENDPOINT.exec(text);
  if (!m || m[1] !== quote) return null;
  const url = text.slice(schemeStart, close);
  if (
    /\s/.test(url) ||
    /\/[^/?#]*\.[A-Za-z][\w]{0,5}(?:[?#].*)?$/.test(url.slice(url.indexOf("://") + 3))
  ) {
    return null;
  }
  const value = m[3];
  const hex = /^[0-9a-f]+$/i.test(value);
  if (
    isPlaceholder(value) || isTemplateReference(value) || /^[0-9a-f]{64}$/i.test(value) ||
    (!hex && classCount(value) < 3) || shannonEntropy(value) < (hex ? 3.3 : 4)
  ) return null;
  const [start, end] = m.indices![3]!;
  return {
    kind: "generic-secret",
    category: "credential",
    start,
    end,
    priority: PRIORITY.generic,
    visible: 0,
  };
}

/** A format string's slot for an argument: `%s`, `{}`, `{0}` (a named `{user}` interpolates). */
const SLOT = /^(?:%s|\{\d?\})$/;

/** `scheme://user:password@host`: the password is the value. */
const urlCredentialRule: Rule = {
  id: "url-credentials",
  category: "credential",
  find(text: string): Candidate[] {
    const out: Candidate[] = [];
    // Find each "://" and match from the start of its scheme (one regex run per URL, not per letter).
    const pattern = URL_USERINFO;
    for (let at = text.indexOf("://"); at !== -1; at = text.indexOf("://", at + 3)) {
      const stop = authorityStop(text, at + 3);
      if (stop === -1) continue;
      let start = at;
      while (start > 0 && at - start < 31 && isSchemeChar(text.charCodeAt(start - 1))) start--;
      while (start < at && !isLetter(text.charCodeAt(start))) start++;
      if (at - start < 2) continue;
      // An endpoint's literal, which a key may follow as the next argument.
      const opener = text[start - 1];
      if ((opener === '"' || opener === "'") && text[stop] !== "@") {
        const key = keyAfterEndpoint(text, start, opener);
        if (key) out.push(key);
      }
      if (text[stop] !== "@") {
        // `scheme://user:` then the string closes: the password may be the next literal.
        const quote = text[stop];
        if ((quote === '"' || quote === "'") && text[stop - 1] === ":" && stop - at > 4) {
          JOINED_PASSWORD.lastIndex = stop;
          const joined = JOINED_PASSWORD.exec(text);
          if (joined && joined[1] === quote && !isPlaceholder(joined[3])) {
            const [valueStart, valueEnd] = joined.indices![3]!;
            out.push(
              credentialCandidate("url-credentials", valueStart, valueEnd, PRIORITY.structured),
            );
          }
        }
        continue;
      }
      pattern.lastIndex = start;
      const match = pattern.exec(text);
      if (!match) continue;
      const [, scheme, user, password, host] = match;
      if (SLOT.test(user) && SLOT.test(password)) {
        // Both left to a format's arguments: the password is the second one, if a literal.
        FORMAT_ARGUMENTS.lastIndex = match.indices![4]![1];
        const args = FORMAT_ARGUMENTS.exec(text);
        if (args && !isPlaceholder(args[4]) && !isTemplateReference(args[4])) {
          const [valueStart, valueEnd] = args.indices![4]!;
          out.push(
            credentialCandidate(
              URL_DB_SCHEMES.test(scheme) ? "database-connection-string" : "url-credentials",
              valueStart,
              valueEnd,
              PRIORITY.structured,
            ),
          );
        }
        continue;
      }
      if (password === user) continue; // guest:guest, postgres:postgres: a default, not a secret
      // An anonymous login takes any password by convention (an address, a word): nothing secret.
      if (/^(?:anonymous|ftp)$/i.test(user)) continue;
      if (isPlaceholder(password) || isTemplateReference(password) || EXAMPLE_HOST.test(host)) {
        continue;
      }
      if (/^\$|^%[A-Za-z_]/.test(password)) continue;
      // `host:1433;databaseName=…;password=…@…`: a port and then `;` begin SQL Server's property
      // list, so the "user" is a host and the `@` belongs to a property's value.
      if (/^\d{1,5};/.test(password)) continue;
      const [valueStart, valueEnd] = match.indices![3]!;
      out.push(
        credentialCandidate(
          URL_DB_SCHEMES.test(scheme) ? "database-connection-string" : "url-credentials",
          valueStart,
          valueEnd,
          PRIORITY.structured,
        ),
      );
    }
    return out;
  },
};

/** A base64url part that decodes to a JSON object naming neither `alg` nor `typ`. */
function isJsonWithoutAlg(part: string): boolean {
  try {
    const padded = part.replace(/-/g, "+").replace(/_/g, "/");
    const json = JSON.parse(atob(padded + "=".repeat((4 - (padded.length % 4)) % 4)));
    return typeof json !== "object" || json === null ||
      (json.alg === undefined && json.typ === undefined);
  } catch {
    return false;
  }
}

function azureSasContext(text: string, start: number): boolean {
  const before = text.slice(Math.max(0, start - 600), start);
  const token = before.slice(
    Math.max(before.lastIndexOf(" "), before.lastIndexOf("\n"), before.lastIndexOf('"')) + 1,
  );
  return /(?:^|[?&;=])sv=\d{4}-\d{2}-\d{2}/.test(token) || /[?&](?:se|sp|spr|srt|ss)=/.test(token);
}

/** Whether base64 text decodes to a PEM block of a private key (its header is enough). */
function base64PemIsPrivateKey(value: string): boolean {
  try {
    const head = atob(value.slice(0, 80));
    return /^-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----/.test(head);
  } catch {
    return false;
  }
}

export const CREDENTIAL_RULES: Rule[] = [
  awsAccessKeyRule,
  regexRule({
    kind: "gcp-api-key",
    pattern: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g,
    anchors: ["AIza"],
    visible: 4,
    validate: (v) => randomPart(v, 4),
  }),
  regexRule({
    kind: "azure-connection-string",
    pattern: /(?:AccountKey|SharedAccessKey|SharedSecretValue)\s*=\s*([A-Za-z0-9+/]{30,}={0,2})/gd,
    group: 1,
    anchors: ["AccountKey", "SharedAccessKey", "SharedSecretValue"],
    validate: (v) => randomPart(v, 0, 3.5),
  }),
  regexRule({
    kind: "azure-sas-token",
    pattern: /(?<=[?&;])sig=([A-Za-z0-9%+/]{30,}(?:%3D|%3d|=){0,2})/gd,
    group: 1,
    anchors: ["sig="],
    validate: (v, text, start) => randomPart(v, 0, 3.5) && azureSasContext(text, start),
  }),
  regexRule({
    kind: "github-pat",
    pattern: /(?<![A-Za-z0-9_])ghp_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g,
    anchors: ["ghp_"],
    visible: 4,
    validate: (v) => randomPart(v, 4),
  }),
  regexRule({
    kind: "github-fine-grained-pat",
    pattern: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}(?![A-Za-z0-9])/g,
    anchors: ["github_pat_"],
    visible: 11,
    validate: (v) => randomPart(v, 11),
  }),
  regexRule({
    kind: "github-oauth-token",
    pattern: /(?<![A-Za-z0-9_])gho_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g,
    anchors: ["gho_"],
    visible: 4,
    validate: (v) => randomPart(v, 4),
  }),
  regexRule({
    kind: "github-app-token",
    pattern: /(?<![A-Za-z0-9_])(?:ghu|ghs|ghr)_[A-Za-z0-9]{36,76}(?![A-Za-z0-9])/g,
    anchors: ["ghu_", "ghs_", "ghr_"],
    visible: 4,
    validate: (v) => randomPart(v, 4),
  }),
  regexRule({
    kind: "gitlab-token",
    pattern:
      /(?<![A-Za-z0-9_-])(?:(?:glpat|gldt|glrt|glptt|glcbt|glft|glsoat|gloas|glimt|glagent|glffct|glwt)-[A-Za-z0-9_-]{20,}(?:\.[A-Za-z0-9_-]+)*|GR1348941[A-Za-z0-9_-]{20,})/g,
    anchors: [
      ...[
        "glpat",
        "gldt",
        "glrt",
        "glptt",
        "glcbt",
        "glft",
        "glsoat",
        "gloas",
        "glimt",
        "glagent",
        "glffct",
        "glwt",
      ]
        .map((p) => p + "-"),
      "GR1348941",
    ],
    visible: 6,
    validate: (v) => randomPart(v, v.indexOf("-") + 1),
  }),
  regexRule({
    kind: "slack-token",
    pattern:
      /(?<![A-Za-z0-9])(?:xox[abposre]-[0-9A-Za-z-]{20,}|xoxe\.xox[bp]-\d-[A-Za-z0-9-]{20,}|xapp-\d-[A-Z0-9]+-\d+-[A-Za-z0-9]{20,})/g,
    anchors: ["xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "xoxe-", "xoxe.", "xapp-"],
    visible: 5,
    validate: (v) => randomPart(v, 5),
  }),
  regexRule({
    kind: "slack-webhook",
    pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{20,}/g,
    anchors: ["https://hooks.slack.com/"],
    visible: "https://hooks.slack.com/".length,
    validate: (v) => randomPart(v, v.indexOf("/", 24) + 1),
  }),
  regexRule({
    kind: "stripe-key",
    pattern: /(?<![A-Za-z0-9])(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{20,247}(?![A-Za-z0-9])/g,
    anchors: ["sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_"],
    visible: 8,
    validate: (v) => randomPart(v, 8),
  }),
  regexRule({
    kind: "stripe-webhook-secret",
    pattern: /(?<![A-Za-z0-9])whsec_[A-Za-z0-9+/]{32,}(?![A-Za-z0-9])/g,
    anchors: ["whsec_"],
    visible: 6,
    validate: (v) => randomPart(v, 6),
  }),
  regexRule({
    kind: "twilio-api-key",
    pattern: /(?<![A-Za-z0-9])SK[0-9a-fA-F]{32}(?![A-Za-z0-9])/g,
    anchors: ["SK"],
    visible: 2,
    validate: (v) => randomPart(v, 2, 3),
  }),
  regexRule({
    kind: "sendgrid-api-key",
    pattern: /(?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g,
    anchors: ["SG."],
    visible: 3,
    validate: (v) => randomPart(v, 3),
  }),
  regexRule({
    kind: "anthropic-api-key",
    pattern: /(?<![A-Za-z0-9_-])sk-ant-[a-z]+\d*-[A-Za-z0-9_-]{32,}(?![A-Za-z0-9_-])/g,
    anchors: ["sk-ant-"],
    visible: 7,
    validate: (v) => randomPart(v, 13),
  }),
  regexRule({
    kind: "openai-api-key",
    pattern:
      /(?<![A-Za-z0-9_-])sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|[A-Za-z0-9_-]{16,}T3BlbkFJ[A-Za-z0-9_-]{16,})(?![A-Za-z0-9_-])/g,
    anchors: ["sk-"],
    visible: 3,
    validate: (v) => randomPart(v, 3),
  }),
  regexRule({
    kind: "huggingface-token",
    pattern: /(?<![A-Za-z0-9_])(?:hf_|api_org_)[A-Za-z0-9]{30,40}(?![A-Za-z0-9_])/g,
    anchors: ["hf_", "api_org_"],
    visible: 3,
    validate: (v) => randomPart(v, 3, 3.5) && classCount(v.slice(3)) >= 2,
  }),
  regexRule({
    kind: "npm-token",
    pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g,
    anchors: ["npm_"],
    visible: 4,
    validate: (v) => randomPart(v, 4),
  }),
  regexRule({
    kind: "npm-token",
    // .npmrc: `//registry/:_authToken=…` or `_auth=…` at the start of a line.
    pattern: /(?<=^|:)(?:_authToken|_auth|_password)\s*=\s*["']?([^\s"'$]{8,})/gmd,
    group: 1,
    anchors: ["_authToken", "_auth", "_password"],
    validate: notPlaceholder,
  }),
  regexRule({
    kind: "pypi-token",
    // Real tokens start pypi-AgE (a macaroon); a long random tail after pypi- is taken too.
    pattern: /(?<![A-Za-z0-9_-])pypi-[A-Za-z0-9_-]{50,}(?![A-Za-z0-9_-])/g,
    anchors: ["pypi-"],
    visible: 5,
    validate: (v) => randomPart(v, 5) && (v.startsWith("pypi-AgE") || classCount(v.slice(5)) >= 3),
  }),
  privateKeyRule,
  regexRule({
    // A PEM private key stored as base64 (a kubeconfig's `client-key-data`, a Secret's `tls.key`,
    // a CI variable): the base64 of "-----BEGIN" starts `LS0tLS1CRUdJTi`.
    kind: "private-key",
    pattern: /(?<![A-Za-z0-9+/])LS0tLS1CRUdJTi[A-Za-z0-9+/]{60,}={0,2}/g,
    anchors: ["LS0tLS1CRUdJTi"],
    validate: (v) => base64PemIsPrivateKey(v),
  }),
  regexRule({
    kind: "jwt",
    pattern:
      /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}(?![A-Za-z0-9_-])/g,
    anchors: ["eyJ"],
    visible: 3,
    // A header that decodes to JSON must name an algorithm; one that does not decode is still
    // taken (eyJ is what `{"` encodes to, and three dotted parts of that length are a token).
    validate: (v) => !isPlaceholder(v) && !isJsonWithoutAlg(v.slice(0, v.indexOf("."))),
  }),
  urlCredentialRule,
  regexRule({
    kind: "bearer-token",
    pattern:
      /\b(?:Authorization|authorization|AUTHORIZATION|X-Api-Key|x-api-key|X-API-Key)["']?\s*[:=]\s*["']?(?:(?:Bearer|bearer|Token|token)\s+)?([A-Za-z0-9._~+/-]{16,}=*)/gd,
    group: 1,
    anchors: [
      "Authorization",
      "authorization",
      "AUTHORIZATION",
      "X-Api-Key",
      "x-api-key",
      "X-API-Key",
    ],
    priority: PRIORITY.header,
    // A name in code (`authorization = approvedAuthorization`, `withAuthorizationPrefix(token)`)
    // is made of words; a token is not.
    validate: (v) =>
      !isPlaceholder(v) && shannonEntropy(v) >= 3 && !/^Basic$/i.test(v) && !isWordIdentifier(v),
  }),
  regexRule({
    // A string that is a whole Authorization value, wherever the header is named: Objective-C's
    // `[request setValue:@"Bearer …" forHTTPHeaderField:@"Authorization"]`, a call's argument,
    // a list of headers. The token must look generated (three kinds of character).
    kind: "bearer-token",
    pattern: /(?<=["'`])Bearer[ \t]+([A-Za-z0-9._~+/-]{20,}=*)(?=["'`])/gd,
    group: 1,
    anchors: ["Bearer "],
    priority: PRIORITY.header,
    validate: (v) => !isPlaceholder(v) && classCount(v) >= 3 && shannonEntropy(v) >= 3.5,
  }),
  regexRule({
    kind: "basic-auth",
    pattern:
      // `Authorization: Basic …` in a request, `= "Basic …"` in code, and `Authorization "Basic …"`
      // with only a space in server configuration (nginx's proxy_set_header, Apache's RequestHeader),
      // and a header set by a call, `header("Authorization", "Basic …")`.
      /\b(?:Authorization|authorization)["']?(?:\s*[:=,]\s*|\s+)["']?Basic\s+([A-Za-z0-9+/]{8,}={0,2})/gd,
    group: 1,
    anchors: ["Authorization", "authorization"],
    priority: PRIORITY.header + 1,
    validate: (v) => {
      try {
        const decoded = atob(v);
        const colon = decoded.indexOf(":");
        return colon > 0 && !isPlaceholder(decoded.slice(colon + 1));
      } catch {
        return false;
      }
    },
  }),
  regexRule({
    // `docker login -u x -p …`, `mysql -u root -p…`: -p is a password only beside a login.
    kind: "password",
    pattern: /(?<=\s)-p[ \t]?["']?([^\s"'$;|&]{6,})/gd,
    group: 1,
    anchors: ["-p"],
    priority: PRIORITY.header,
    validate: (v, text, start) => {
      const lineStart = text.lastIndexOf("\n", start) + 1;
      const line = text.slice(lineStart, start);
      // MySQL's clients take the password joined to `-p`; `-p dbname` prompts, then names the
      // database.
      const mysqlClient = /\bmysql(?:dump|admin|import|check|show)?\b/.test(line);
      if (
        mysqlClient && !/\bsshpass\b|\blogin\b/.test(line) && text[start - 1] !== "p" &&
        !/^-p["']$/.test(text.slice(start - 3, start))
      ) return false;
      return /\b(?:login|mysql|mysqldump|mysqladmin|sshpass)\b|\s-u\s?\S/.test(line) &&
        !/^\d+(?::\d+)*$/.test(v) &&
        !isPlaceholder(v) && shannonEntropy(v) >= 2;
    },
  }),
  ...PROVIDER_RULES,
  ...COMMAND_RULES,
  ...CODE_LITERAL_RULES,
  ...SERVICE_FORMAT_RULES,
  ...CLIENT_FORMAT_RULES,
  toldPasswordRule,
  regexRule({
    // Basic-auth helpers given the user and password as literals: `HTTPBasicAuth("u", "…")`,
    // `basic_auth("u", "…")`, `withBasicAuth('u', '…')`, requests' `auth=("u", "…")`, Faraday's
    // `request :authorization, :basic, "u", "…"`, reqwest's `.basic_auth("u", Some("…"))`.
    kind: "basic-auth",
    pattern:
      /(?:[Bb]asic_?[Aa]uth(?:enticate)?\w*[ \t]*\(|:basic[ \t]*,|(?:\b|basic_|http_)auth[ \t]*=[ \t]*\()[ \t]*(["'])[^"'\n]*\1[ \t]*,[ \t]*(?:Some\([ \t]*)?(["'])([^"'\n]{4,})\2/gd,
    group: 3,
    keywords: ["asicAuth", "asic_auth", "asic_Auth", ":basic", "auth=(", "auth = ("],
    priority: PRIORITY.header,
    validate: (v) =>
      !isPlaceholder(v) && !isTemplateReference(v) && !isWellKnownPassword(v) &&
      shannonEntropy(v) >= 2,
  }),
  regexRule({
    // Oracle's thin driver puts the user and password before the host: `…:thin:user/password@host`.
    kind: "database-connection-string",
    pattern: /jdbc:oracle:(?:thin|oci8?):[A-Za-z0-9_$#.]+\/([^@\s"'`/]{4,})@/gd,
    group: 1,
    anchors: ["jdbc:oracle:"],
    priority: PRIORITY.structured,
    validate: (v) => !isPlaceholder(v) && !isTemplateReference(v) && !isWellKnownPassword(v),
  }),
  regexRule({
    // Bundler keeps a private gem server's credentials under the host's name:
    // `BUNDLE_GEMS__CONTRIBSYS__COM=user:password` (in the environment or `.bundle/config`).
    kind: "password",
    pattern:
      /BUNDLE_(?:[A-Z0-9-]+__)+[A-Z0-9]+["']?[ \t]*[:=][ \t]*["']?[^\s"':$]+:([^\s"'$]{4,})/gd,
    group: 1,
    anchors: ["BUNDLE_"],
    priority: PRIORITY.structured,
    validate: (v) => !isPlaceholder(v) && !isTemplateReference(v),
  }),
  regexRule({
    // Go's MySQL driver names a server without a scheme: `user:password@tcp(db:3306)/name`.
    kind: "database-connection-string",
    pattern: /(?<=["'`\s=(]|^)[A-Za-z0-9_.-]+:([^\s:@"'`/]{4,})@(?:tcp|tcp6|unix|udp)\(/gmd,
    group: 1,
    keywords: ["@tcp(", "@tcp6(", "@unix(", "@udp("],
    priority: PRIORITY.structured,
    validate: (v) => !isPlaceholder(v) && !isTemplateReference(v) && !v.startsWith("$"),
  }),
  regexRule({
    // The user and password in one option with another separator: `lftp -u user,password` and
    // Samba's `smbclient -U user%password` (also rpcclient, smbmap, mount.cifs' username=).
    kind: "password",
    pattern: /(?<=\s)(?:-u|-U|--user)(?:\s+|=)["']?[^\s,%:"'`$]+[,%]([^\s"'`]{4,})/gd,
    group: 1,
    anchors: ["-u", "--user", "-U"],
    priority: PRIORITY.header,
    validate: (v, text, start) => {
      if (isPlaceholder(v) || isTemplateReference(v) || v.startsWith("$")) return false;
      const lineStart = text.lastIndexOf("\n", start) + 1;
      const line = text.slice(lineStart, start);
      const separator = text[start - 1];
      return separator === ","
        ? /\blftp\b/.test(line)
        : /\b(?:smbclient|rpcclient|smbmap|smbcacls|net|winexe|crackmapexec|nxc)\b/.test(line);
    },
  }),
  regexRule({
    // curl's config file (`.curlrc`, `curl -K`): long options without dashes, one a line,
    // `user = "name:password"`, `proxy-user "name:password"`. Anchored on the option's three
    // spellings, so the rule costs nothing where no such line is.
    kind: "basic-auth",
    pattern:
      /(?<=^[ \t]*(?:--)?(?:proxy-)?)user(?:=|[ ]=[ \t]*|[ ](?="))"?[^\s:"'`$]+:([^\s"'`]{4,})"?[ \t]*\r?$/gmd,
    group: 1,
    anchors: ["user=", "user =", 'user "'],
    priority: PRIORITY.header,
    validate: (v) => !isPlaceholder(v) && !isTemplateReference(v) && !v.startsWith("$"),
  }),
  regexRule({
    // Postfix's `sasl_passwd` (and other relay maps): `[smtp.host]:587 name:password`, one
    // relay a line, the whole line nothing else.
    kind: "password",
    pattern: /(?<=^\[[\w.-]+)\]:\d{2,5}[ \t]+[^\s:]+:([^\s:]{4,})[ \t]*\r?$/gmd,
    group: 1,
    anchors: ["]:"],
    priority: PRIORITY.header,
    validate: (v) => !isPlaceholder(v) && !isTemplateReference(v) && !v.startsWith("$"),
  }),
  regexRule({
    // PgBouncer's `auth_file`: `"name" "password"` alone on a line. A stored hash
    // (`md5…`, `SCRAM-SHA-256$…`) is what the file should hold, and is not reported.
    kind: "password",
    pattern: /(?<=^"[\w.@-]+)" "([^"\s]{4,})"[ \t]*\r?$/gmd,
    group: 1,
    anchors: ['" "'],
    priority: PRIORITY.header,
    validate: (v) =>
      !/^md5[0-9a-f]{32}$|^SCRAM-SHA-256\$/.test(v) && !isPlaceholder(v) &&
      !isTemplateReference(v) && !v.startsWith("$"),
  }),
  regexRule({
    // Consul's and Nomad's gossip key, `encrypt = "…"`: base64 of 16 or 32 random bytes.
    kind: "generic-secret",
    pattern: /^[ \t]*"?encrypt"?[ \t]*[=:][ \t]*"([A-Za-z0-9+/]{22}==|[A-Za-z0-9+/]{43}=)"/gmd,
    group: 1,
    keywords: ["encrypt"],
    priority: PRIORITY.header,
  }),
  regexRule({
    // A Terraform state keeps what `random_password` generated in its `result`, in the clear.
    kind: "password",
    pattern:
      /"type":[ \t]*"random_password"(?:(?!"type":)[\s\S]){0,4000}?"result":[ \t]*"([^"\n]+)"/gd,
    group: 1,
    keywords: ["random_password"],
    priority: PRIORITY.header,
    validate: (v) => !isPlaceholder(v) && !isTemplateReference(v),
  }),
  regexRule({
    kind: "basic-auth",
    // curl also takes the option run together with its value: `-uadmin:pw`.
    pattern: /(?<=^|\s)(?:-u|--user)(?:\s+|=|(?=[^\s-]))["']?[^\s:"'`$]+:([^\s"'`]{4,})/gmd,
    group: 1,
    anchors: ["-u", "--user"],
    priority: PRIORITY.header,
    validate: (v, text, start) => {
      if (isPlaceholder(v) || isTemplateReference(v) || v.startsWith("$")) return false;
      // The run-together form only on a curl command line (other tools' -u flags take no pair).
      const lineStart = text.lastIndexOf("\n", start) + 1;
      const option = text.slice(lineStart, start).search(/(?:^|\s)(?:-u|--user)\S*$/);
      const runTogether = option !== -1 &&
        /^\s?-u[^\s=]/.test(text.slice(lineStart + option, start));
      return !runTogether || /\bcurl\b/.test(text.slice(lineStart, start));
    },
  }),
];
