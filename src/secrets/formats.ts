/**
 * Readers for file formats whose layout, not a name, says where the secret is: a `.netrc` (tokens
 * in `machine … login … password …` pairs, on one line or many), a `.pgpass` (five colon-separated
 * fields, the last a password), a Kubernetes `Secret` manifest (every value under `data:` and
 * `stringData:`), and a Dockerfile's `ENV NAME value` (the old form without `=`). Each recognises
 * its format from the text itself, so a file is read right whatever it is called.
 */
import type { Candidate, Rule, RuleContext } from "./types.ts";
import { PRIORITY } from "./regex_rule.ts";
import { isPlaceholder, isTemplateReference } from "./allowlist.ts";
import { acceptValue, classifyName } from "./generic.ts";
import { classCount, shannonEntropy } from "./entropy.ts";

/** A password a format holds in a fixed place: not a stand-in, not a reference, a little random. */
function plausiblePassword(value: string): boolean {
  return value.length >= 6 && value.length <= 1024 && !isPlaceholder(value) &&
    !isTemplateReference(value) && !value.startsWith("$") && shannonEntropy(value) >= 2;
}

function candidate(kind: string, start: number, value: string, priority: number): Candidate {
  return {
    kind,
    category: "credential",
    start,
    end: start + value.length,
    priority,
    visible: 0,
  };
}

/** netrc keywords that take one value; `default` takes none; `macdef` starts a macro body. */
const NETRC_PAIRS = new Set(["machine", "login", "password", "passwd", "account", "port"]);
const NETRC_START = /^(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]*(?:machine|default)[ \t\n]/;

/** `.netrc` / `_netrc`: the value after each `password` token, wherever the line breaks fall. */
const netrcRule: Rule = {
  id: "netrc",
  category: "credential",
  keywords: ["machine", "default"],
  find(text: string): Candidate[] {
    if (!NETRC_START.test(text)) return [];
    const out: Candidate[] = [];
    const token = /"(?:[^"\\\n]|\\.)*"|[^\s"]+/g;
    let login: string | undefined;
    let match: RegExpExecArray | null;
    while ((match = token.exec(text)) !== null) {
      const word = match[0];
      if (word.startsWith("#")) {
        // A comment runs to the end of its line.
        const eol = text.indexOf("\n", match.index);
        token.lastIndex = eol === -1 ? text.length : eol;
        continue;
      }
      if (word === "macdef") {
        // A macro's body runs to the next blank line.
        const end = text.indexOf("\n\n", match.index);
        token.lastIndex = end === -1 ? text.length : end;
        continue;
      }
      if (word === "machine" || word === "default") login = undefined;
      if (!NETRC_PAIRS.has(word)) continue;
      const next = token.exec(text);
      if (!next) break;
      const quoted = next[0].startsWith('"');
      const value = quoted ? next[0].slice(1, -1) : next[0];
      if (word === "login") login = value;
      if (
        (word === "password" || word === "passwd") && value !== login && plausiblePassword(value)
      ) {
        out.push(candidate("password", next.index + (quoted ? 1 : 0), value, PRIORITY.structured));
      }
    }
    return out;
  },
};

const PGPASS_LINE =
  /^((?:[^:\\\s]|\\.)+):(\d+|\*):((?:[^:\\\s]|\\.)+):((?:[^:\\\s]|\\.)+):(\S[^\n]*)$/;
/^((?:[^:\\\n]|\\.)*):(\d+|\*):((?:[^:\\\n]|\\.)*):((?:[^:\\\n]|\\.)*):([^\n]+)$/;

/**
 * `.pgpass` (`host:port:database:user:password`): a text is one when every line that is not blank
 * or a comment has those five fields with a port (or `*`) in the second.
 */
const pgpassRule: Rule = {
  id: "pgpass",
  category: "credential",
  keywords: [":"],
  find(text: string): Candidate[] {
    // Cheap refusal first: the first significant line must already have the shape.
    const first = /^[ \t]*([^#\s][^\n]*)$/m.exec(text);
    if (!first || !PGPASS_LINE.test(first[1].replace(/\r$/, ""))) return [];
    const out: Candidate[] = [];
    let offset = 0;
    for (const raw of text.split("\n")) {
      const line = raw.replace(/\r$/, "");
      const start = offset;
      offset += raw.length + 1;
      if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
      const m = PGPASS_LINE.exec(line);
      if (!m) return []; // not a pgpass file after all
      const [, , , , user, password] = m;
      if (password === "*" || password === user || !plausiblePassword(password)) continue;
      out.push(
        candidate("password", start + line.length - password.length, password, PRIORITY.structured),
      );
    }
    return out;
  },
};

/** A base64 value decoded, or null when it is not base64 of text. */
function decoded(value: string): string | null {
  try {
    const text = atob(value);
    return /^[\t\n\r\x20-\x7e]*$/.test(text) ? text : null;
  } catch {
    return null;
  }
}

/**
 * Whether a Secret's entry, when it is itself a small file, holds a credential (null when it is not
 * a file): a registry's `.dockerconfigjson` (`{"auths": {"host": {"auth": "…"}}}`), a JSON key file,
 * or a `.env` or YAML file of `name: value` lines. Each named value inside is judged as it would be
 * in its own file.
 */
function fileHoldsCredential(value: string): boolean | null {
  if (value.startsWith("{") && value.trimEnd().endsWith("}")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      return null;
    }
    return jsonHoldsCredential(parsed, 0);
  }
  if (!value.trimEnd().includes("\n")) return null;
  for (const line of value.split("\n")) {
    const m =
      /^[ \t]*(?:export[ \t]+)?([A-Za-z_][\w.-]*)[ \t]*[:=][ \t]*["']?([^\s"']+)["']?[ \t]*$/.exec(
        line,
      );
    if (m && namedCredential(m[1], m[2])) return true;
  }
  return false;
}

/** A JSON value with a string under a secret-like name, at any depth (eight levels at most). */
function jsonHoldsCredential(node: unknown, depth: number): boolean {
  if (depth > 8 || node === null || typeof node !== "object") return false;
  for (const [name, child] of Object.entries(node)) {
    if (
      typeof child === "string"
        ? namedCredential(name, child)
        : jsonHoldsCredential(child, depth + 1)
    ) {
      return true;
    }
  }
  return false;
}

/** A value under a name that classifies as a secret, and that passes as one. */
function namedCredential(name: string, value: string): boolean {
  const cls = classifyName(name);
  return cls !== null &&
    acceptValue(value, cls, { quoted: true, literalFile: true, thorough: false });
}

/**
 * Whether a Secret's entry holds a credential: its key names one (and the value is not a stand-in),
 * or the value itself is one (a URL with a password, a long random string). A Secret also carries
 * host names, ports and user names, which are not reported.
 */
function secretEntry(key: string, value: string): boolean {
  // An entry that is a whole file is judged by what its names hold (or a URL's password in it),
  // not as one random string. A key in PEM is left to the checks below.
  const file = value.includes("-----BEGIN") ? null : fileHoldsCredential(value);
  if (file === true) return true;
  if (file === false && !/:\/\/[^\s:@/]*:[^\s@/]+@/.test(value)) return false;
  if (isPlaceholder(value) || isTemplateReference(value) || value.length < 4) return false;
  if (/:\/\/[^\s:@/]*:[^\s@/]+@/.test(value)) return true;
  const cls = classifyName(key);
  if (cls) return acceptValue(value, cls, { quoted: true, literalFile: true, thorough: false });
  return value.length >= 16 && !/\s/.test(value) && shannonEntropy(value) >= 3.5 &&
    classCount(value) >= 3;
}

/**
 * A Kubernetes `Secret`: the values under `data:` (decoded from base64) and `stringData:` that
 * are credentials by their key or by their look.
 */
const kubernetesSecretRule: Rule = {
  id: "kubernetes-secret",
  category: "credential",
  keywords: ["Secret"],
  find(text: string): Candidate[] {
    const out: Candidate[] = [];
    let docStart = 0;
    for (const doc of text.split(/^---[^\n]*$/m)) {
      const base = text.indexOf(doc, docStart);
      docStart = base + doc.length;
      if (!/^kind:[ \t]*["']?Secret["']?[ \t]*$/m.test(doc)) continue;
      const block = /^(data|stringData):[ \t]*\n((?:[ \t]+[^\n]*\n?|[ \t]*\n)*)/gm;
      let m: RegExpExecArray | null;
      while ((m = block.exec(doc)) !== null) {
        const encoded = m[1] === "data";
        const bodyStart = base + m.index + m[0].length - m[2].length;
        const entry = /^[ \t]+([A-Za-z0-9_.-]+):[ \t]*["']?([^\s"'#][^\s"']*)["']?[ \t]*$/gm;
        let e: RegExpExecArray | null;
        while ((e = entry.exec(m[2])) !== null) {
          const value = e[2];
          if (value === "|" || value === ">" || isTemplateReference(value)) continue;
          const plain = encoded ? decoded(value) : value;
          if (plain === null || !secretEntry(e[1], plain)) continue;
          const at = bodyStart + e.index + e[0].indexOf(value, e[1].length + 1);
          out.push(candidate("kubernetes-secret", at, value, PRIORITY.structured));
        }
      }
    }
    return out;
  },
};

const DOCKERFILE_FROM = /^[ \t]*FROM[ \t]+\S/m;
const DOCKER_ENV =
  /^[ \t]*(?:ENV|ARG)[ \t]+([A-Za-z_][A-Za-z0-9_.-]*)[ \t]+([^\s=][^\n]*?)[ \t]*$/gm;

/** A Dockerfile's `ENV NAME value` (no `=`): the whole rest of the line is the value. */
const dockerfileEnvRule: Rule = {
  id: "dockerfile-env",
  category: "credential",
  keywords: ["ENV", "ARG"],
  find(text: string, context: RuleContext): Candidate[] {
    if (!DOCKERFILE_FROM.test(text)) return [];
    const out: Candidate[] = [];
    const env = DOCKER_ENV;
    env.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = env.exec(text)) !== null) {
      const [, name, raw] = m;
      const cls = classifyName(name);
      if (!cls) continue;
      const quoted = /^(["']).*\1$/.test(raw);
      const value = quoted ? raw.slice(1, -1) : raw;
      if (
        !acceptValue(value, cls, { quoted, literalFile: true, thorough: context.thorough })
      ) continue;
      const at = m.index + m[0].lastIndexOf(raw) + (quoted ? 1 : 0);
      out.push(
        candidate(cls === "password" ? "password" : "generic-secret", at, value, PRIORITY.generic),
      );
    }
    return out;
  },
};

/**
 * A `.key` file that holds one random string and nothing else: Rails' `config/master.key` and
 * `config/credentials/production.key` (32 hex digits), and the raw symmetric keys other tools keep
 * the same way. (A `.key` file in PEM is the private-key rule's.)
 */
const rawKeyFileRule: Rule = {
  id: "raw-key-file",
  category: "credential",
  find(text: string, context: RuleContext): Candidate[] {
    if (context.extension !== ".key" || text.length > 4096) return [];
    const m = /^\s*([A-Za-z0-9+/_-]{16,}={0,2})\s*$/.exec(text);
    if (!m) return [];
    const value = m[1];
    const random = /^[0-9a-f]{32,}$/i.test(value) ||
      (classCount(value) >= 3 && shannonEntropy(value) >= 3.5);
    if (!random || isPlaceholder(value)) return [];
    return [candidate("generic-secret", text.indexOf(value), value, PRIORITY.structured)];
  },
};

/** The format readers, in the order the scanner runs them. */
export const FORMAT_RULES: Rule[] = [
  netrcRule,
  pgpassRule,
  kubernetesSecretRule,
  dockerfileEnvRule,
  rawKeyFileRule,
];
