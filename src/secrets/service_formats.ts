/**
 * Secrets in the own formats of network services and servers, which name the value by the
 * format's syntax rather than by a word like `password`: IPsec's `: PSK "…"`, SNMP communities and
 * `createUser`'s two pass phrases (and the same given to the SNMP tools' `-c`, `-A`, `-X`), Jetty's realm files (`user: password, role`), Caddy's
 * `dns provider token`, a Source game server's login token, LDIF's base64 `userPassword::`,
 * OpenVPN's static key block and inline `<auth-user-pass>`, Envoy's `inline_string` under a secret, and base64 `user:password`
 * handed to something named an authorization. Each reads one format, entered through keywords of its own.
 */
import type { Candidate, Rule, RuleContext } from "./types.ts";
import { headerCandidate, PRIORITY, regexRule, spanOf } from "./regex_rule.ts";
import {
  isPasswordHash,
  isPlaceholder,
  isTemplateReference,
  isWellKnownPassword,
} from "./allowlist.ts";
import { classCount, shannonEntropy } from "./entropy.ts";
import { acceptValue, classifyName } from "./generic.ts";

/** The communities every SNMP agent ships with: known to anyone, not a secret. */
const DEFAULT_COMMUNITIES = new Set(["public", "private"]);

/** A password written into a service's file: not a stand-in, a variable or a tutorial's example. */
function servicePassword(value: string): boolean {
  return value.length >= 6 && !/^[$%{<]/.test(value) && !isPlaceholder(value) &&
    !isTemplateReference(value) && !isWellKnownPassword(value) && !isPasswordHash(value) &&
    shannonEntropy(value) >= 2.2;
}

/**
 * strongSwan's and Libreswan's `ipsec.secrets`: `selectors : PSK "…"`, `carol : EAP "…"`
 * (also XAUTH and NTLM), and the passphrase after a private key's file
 * (`: RSA moon.key "…"`, likewise ECDSA and P12). The file's name alone is not read.
 */
const ipsecSecretRule: Rule = regexRule({
  kind: "password",
  pattern:
    /:[ \t]*(?:(?:PSK|EAP|XAUTH|NTLM)|(?:RSA|ECDSA|P12|PKCS8|BLISS)[ \t]+[^\s"']+)[ \t]+(["']?)([^\s"']+)\1(?=[ \t]*(?:#|\n|$))/gd,
  group: 2,
  keywords: ["PSK", "EAP", "XAUTH", "NTLM", "RSA", "ECDSA", "P12", "PKCS8"],
  priority: PRIORITY.header,
  validate: (v) => servicePassword(v),
});

/**
 * net-snmp's tools on a command line: `snmpwalk -v2c -c COMMUNITY`, and SNMPv3's `-A` (the
 * authentication pass phrase) and `-X` (the privacy one). `public` and `private` are defaults.
 */
const snmpToolRule: Rule = {
  id: "snmp-tool-options",
  category: "credential",
  keywords: ["snmp"],
  find(text: string): Candidate[] {
    const out: Candidate[] = [];
    const command =
      /\bsnmp(?:walk|bulkwalk|get|getnext|bulkget|set|trap|inform|table|delta|df|status|netstat|test|usm|vacm)\b[^\n|;&]*/g;
    const option = /[ \t]-[cAX][ \t]*(["']?)([^\s"']+)\1(?=\s|$)/dg;
    let m: RegExpExecArray | null;
    while ((m = command.exec(text)) !== null) {
      option.lastIndex = 0;
      let o: RegExpExecArray | null;
      while ((o = option.exec(m[0])) !== null) {
        const value = o[2];
        if (DEFAULT_COMMUNITIES.has(value.toLowerCase()) || !servicePassword(value)) continue;
        const [start, end] = spanOf(o, 2);
        out.push(headerCandidate("password", m.index + start, m.index + end));
      }
    }
    return out;
  },
};

/**
 * OpenVPN's credentials written into the profile, `<auth-user-pass>` with the user on the first
 * line and the password on the second.
 */
const openvpnInlineAuthRule: Rule = regexRule({
  kind: "password",
  pattern:
    /<auth-user-pass>[ \t]*\r?\n[ \t]*[^\s<]+[ \t]*\r?\n[ \t]*([^\s<]+)[ \t]*\r?\n[ \t]*<\/auth-user-pass>/gd,
  group: 1,
  anchors: ["<auth-user-pass>"],
  priority: PRIORITY.header,
  validate: (v) => servicePassword(v),
});

/** The communities every SNMP agent ships with: known to anyone, not a secret. */

/**
 * net-snmp's `snmpd.conf`: the community of `rocommunity`/`rwcommunity` (and `com2sec`'s last
 * field), and the authentication and privacy pass phrases of `createUser name SHA "…" AES "…"`.
 */
const snmpRule: Rule = {
  id: "snmp-secrets",
  category: "credential",
  keywords: ["community", "com2sec", "createUser"],
  find(text: string): Candidate[] {
    const out: Candidate[] = [];
    const community =
      /^[ \t]*(?:r[ow]community6?[ \t]+|com2sec6?[ \t]+(?:-Cn[ \t]+\S+[ \t]+)?\S+[ \t]+\S+[ \t]+)(["']?)([^\s"'#]+)\1/gdm;
    let m: RegExpExecArray | null;
    while ((m = community.exec(text)) !== null) {
      const value = m[2];
      if (DEFAULT_COMMUNITIES.has(value.toLowerCase()) || !servicePassword(value)) continue;
      out.push(headerCandidate("password", ...spanOf(m, 2)));
    }
    const user =
      /^[ \t]*createUser[ \t]+(?:-e[ \t]+\S+[ \t]+)?\S+[ \t]+(?:MD5|SHA\S*)[ \t]+(["']?)([^\s"']+)\1(?:[ \t]+(?:DES|AES\S*)[ \t]+(["']?)([^\s"']+)\3)?/gdm;
    while ((m = user.exec(text)) !== null) {
      for (const group of [2, 4]) {
        const value = m[group];
        if (value === undefined || !servicePassword(value)) continue;
        out.push(headerCandidate("password", ...spanOf(m, group)));
      }
    }
    return out;
  },
};

/**
 * Jetty's `HashLoginService` realm file (Rundeck's `realm.properties`, Jetty's own): one user a
 * line, `name: password, role, role`. `MD5:` and `CRYPT:` values are hashes; `OBF:` is only
 * obfuscated and is reported. Read only in `.properties` files, and only lines of exactly that
 * shape (a plain name, a value, then a list of role names).
 */
const realmFileRule: Rule = {
  id: "jetty-realm",
  category: "credential",
  keywords: [","],
  find(text: string, context: RuleContext): Candidate[] {
    if (context.extension !== ".properties") return [];
    const out: Candidate[] = [];
    const line =
      /^[ \t]*[\w@-]+[ \t]*[:=][ \t]*([^\s,]+)[ \t]*,[ \t]*[\w-]+(?:[ \t]*,[ \t]*[\w-]+)*[ \t]*$/gdm;
    let m: RegExpExecArray | null;
    while ((m = line.exec(text)) !== null) {
      const value = m[1];
      if (!servicePassword(value) || classCount(value) < 2) continue;
      out.push(headerCandidate("password", ...spanOf(m, 1)));
    }
    return out;
  },
};

/**
 * Caddy's `dns PROVIDER TOKEN` inside a `tls` block: the DNS provider's API token written in the
 * Caddyfile (`{env.CF_API_TOKEN}` is a placeholder and is not read).
 */
const caddyDnsRule: Rule = regexRule({
  kind: "generic-secret",
  pattern: /^[ \t]*dns[ \t]+[a-z][a-z0-9_]*[ \t]+([A-Za-z0-9_\-.+/=]{20,})[ \t]*$/gdm,
  group: 1,
  keywords: ["dns "],
  priority: PRIORITY.header,
  validate: (v) => servicePassword(v) && classCount(v) >= 2 && shannonEntropy(v) >= 3.5,
});

/** A Source game server's `sv_setsteamaccount`: the server's Steam login token (32 hex). */
const steamAccountRule: Rule = regexRule({
  kind: "generic-secret",
  pattern: /\bsv_setsteamaccount[ \t]+"?([0-9A-Fa-f]{32})"?(?![0-9A-Fa-f])/gd,
  group: 1,
  keywords: ["sv_setsteamaccount"],
  priority: PRIORITY.header,
  validate: (v) => !isPlaceholder(v),
});

/** Base64 text when it decodes to printable ASCII, else null. */
function decodedText(value: string): string | null {
  if (value.length % 4 !== 0) return null;
  let decoded: string;
  try {
    decoded = atob(value);
  } catch {
    return null;
  }
  return /^[\x20-\x7e]+$/.test(decoded) ? decoded : null;
}

/**
 * LDIF's `userPassword:: …`: two colons mean the value is base64. A decoded `{SSHA}…` is a hash
 * and is not reported; anything else is the password itself.
 */
const ldifPasswordRule: Rule = regexRule({
  kind: "password",
  pattern: /^userPassword::[ \t]*([A-Za-z0-9+/]+={0,2})[ \t]*$/gdmi,
  group: 1,
  keywords: ["userPassword::", "userpassword::"],
  priority: PRIORITY.header,
  validate: (v) => {
    const decoded = decodedText(v);
    return decoded !== null && !isPasswordHash(decoded) && servicePassword(decoded);
  },
});

/**
 * base64 of `user:password` given to something named an authorization (fastlane's
 * `git_basic_authorization("…")`, a JSON `"authorization": "…"`): decoded, it is HTTP basic auth.
 */
const base64AuthorizationRule: Rule = regexRule({
  kind: "basic-auth",
  pattern: /[Aa]uthorization["']?[ \t]*(?:\(|:|=>?|,)[ \t]*["']([A-Za-z0-9+/]{12,}={0,2})["']/gd,
  group: 1,
  keywords: ["uthorization"],
  priority: PRIORITY.header,
  validate: (v) => {
    const decoded = decodedText(v);
    const colon = decoded?.indexOf(":") ?? -1;
    return decoded !== null && colon > 0 && servicePassword(decoded.slice(colon + 1));
  },
});

/** OpenVPN's static key (`tls-auth`, `tls-crypt`, `secret`): 2048 bits of hex between markers. */
const openvpnStaticKeyRule: Rule = regexRule({
  kind: "private-key",
  pattern:
    /-----BEGIN OpenVPN Static key V1-----\s*(?:[0-9a-f]{32}\s+){8,}-----END OpenVPN Static key V1-----/g,
  anchors: ["-----BEGIN OpenVPN Static key V1-----"],
  priority: PRIORITY.header,
});

/** The key of the nearest line above `at` indented less than `indent` (YAML's parent), if any. */
function yamlParent(text: string, at: number, indent: number): string | undefined {
  let end = text.lastIndexOf("\n", at - 1);
  for (let n = 0; n < 12 && end > 0; n++) {
    const start = text.lastIndexOf("\n", end - 1) + 1;
    const line = text.slice(start, end);
    end = start - 1;
    const lead = /^[ \t]*/.exec(line)![0].length;
    if (line.trim() === "" || lead >= indent) continue;
    return /^[ \t]*-?[ \t]*["']?([\w.-]+)["']?[ \t]*:[ \t]*$/.exec(line)?.[1];
  }
  return undefined;
}

/**
 * Envoy's data source written inline, `inline_string: "…"` (or `inline_bytes`), whose parent
 * names what it holds: `generic_secret:` then `secret:` holds a secret; `filename:` siblings and
 * certificate chains are not read.
 */
const inlineDataSourceRule: Rule = {
  id: "inline-data-source",
  category: "credential",
  keywords: ["inline_string", "inline_bytes"],
  find(text: string, context: RuleContext): Candidate[] {
    const out: Candidate[] = [];
    const entry = /^([ \t]*)inline_(?:string|bytes):[ \t]*(["']?)([^\s"'|>][^\s"']*)\2[ \t]*$/gdm;
    let m: RegExpExecArray | null;
    while ((m = entry.exec(text)) !== null) {
      const parent = yamlParent(text, m.index, m[1].length);
      if (parent === undefined || classifyName(parent) === null) continue;
      const options = { quoted: m[2] !== "", literalFile: true, thorough: context.thorough };
      if (!acceptValue(m[3], "secret", options)) continue;
      out.push(headerCandidate("generic-secret", ...spanOf(m, 3)));
    }
    return out;
  },
};

/** The rules of this file. */
export const SERVICE_FORMAT_RULES: Rule[] = [
  ipsecSecretRule,
  snmpToolRule,
  openvpnInlineAuthRule,
  snmpRule,
  realmFileRule,
  caddyDnsRule,
  steamAccountRule,
  ldifPasswordRule,
  base64AuthorizationRule,
  openvpnStaticKeyRule,
  inlineDataSourceRule,
];
