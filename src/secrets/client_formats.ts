/**
 * Secrets in the own syntax of clients, shells and tools, where no `password =` names the value:
 * a variable set by a command (fish's `set -gx NAME value`, csh's `setenv`, Apache's `SetEnv`,
 * Windows' `setx`), a password sent to IRC services (`/msg NickServ IDENTIFY …`), an Expect script's
 * `send` after a password prompt, a REST client's `Authorization: Basic user password` written in
 * the clear, `user:password` in Squid's `login=` and Asterisk's `register =>`, Redis Sentinel's
 * `auth-pass`, a Nagios resource macro named by its comment, a `Pass` directive under a `User` one
 * (isync), Deno's `DENO_AUTH_TOKENS`, a wallet's recovery phrase, keys in the path of a provider's
 * URL (Anaconda's `/t/TOKEN/`, Infura's and Alchemy's endpoints), Windows' service and credential
 * commands (`cmdkey /pass:`, `schtasks /RP`, `net user <name> …`), and NuGet.org's API keys.
 * Each reads one syntax, entered through keywords or an anchor of its own.
 */
import type { Candidate, Rule, RuleContext } from "./types.ts";
import { headerCandidate, PRIORITY, regexRule, spanOf } from "./regex_rule.ts";
import {
  isPasswordHash,
  isPlaceholder,
  isReference,
  isTemplateReference,
  isWellKnownPassword,
} from "./allowlist.ts";
import { classCount, shannonEntropy } from "./entropy.ts";
import { acceptValue, classifyName, kindFor } from "./generic.ts";
import { toolOption } from "./commands.ts";

/** A password written by hand: not a stand-in, a variable, a reference, a hash or an example. */
function writtenPassword(value: string): boolean {
  return value.length >= 6 && !/^[$%{<]/.test(value) && !isPlaceholder(value) &&
    !isTemplateReference(value) && !isWellKnownPassword(value) && !isPasswordHash(value) &&
    !isReference(value) && shannonEntropy(value) >= 2.2;
}

/**
 * A variable set by a command rather than by `=`: fish's `set -gx NAME value` (also in its history
 * file, `- cmd: set …`), csh's `setenv NAME value`, Apache's `SetEnv NAME value` and Windows'
 * `setx NAME value`. The name decides, as for any assignment.
 */
const commandSetRule: Rule = {
  id: "command-set-variable",
  category: "credential",
  keywords: ["set -g", "set -U", "set -x", "set --", "setenv", "SetEnv", "setx "],
  find(text: string, context: RuleContext): Candidate[] {
    const out: Candidate[] = [];
    const line =
      /(?:^|[;&|]|^- cmd:)[ \t]*(?:set(?:[ \t]+-[A-Za-z]+|[ \t]+--(?:global|export|universal|local))+|setenv|SetEnv|setx)[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]+(["']?)([^\s"';]+)\2[ \t]*(?=$|[;#&|])/gdm;
    let m: RegExpExecArray | null;
    while ((m = line.exec(text)) !== null) {
      const cls = classifyName(m[1]);
      if (!cls) continue;
      const value = m[3];
      const options = { quoted: m[2] !== "", literalFile: true, thorough: context.thorough };
      if (!acceptValue(value, cls, options)) continue;
      const { kind } = kindFor(m[1], cls, value);
      out.push(headerCandidate(kind, ...spanOf(m, 3)));
    }
    return out;
  },
};

/**
 * A password sent to IRC services: `/msg NickServ IDENTIFY [account] password` (also `/ns`,
 * `/nickserv`, `PRIVMSG NickServ :IDENTIFY …`), as clients' auto-run commands hold it.
 */
const nickservRule: Rule = regexRule({
  kind: "password",
  pattern:
    /(?:\/msg[ \t]+NickServ|\/ns|\/nickserv|PRIVMSG[ \t]+NickServ[ \t]+:?)[ \t]+identify[ \t]+(?:[^\s;"']+[ \t]+)?([^\s;"']+)(?=[ \t]*(?:[;"']|$))/dgim,
  group: 1,
  keywords: ["NickServ", "nickserv", "Nickserv", "/ns "],
  priority: PRIORITY.header,
  validate: (v) => writtenPassword(v),
});

/**
 * An Expect script that answers a password prompt: `expect "…password:"` and, on the next line
 * that is not blank, `send "…\r"` (or `send -- "…"`).
 */
const expectSendRule: Rule = regexRule({
  kind: "password",
  pattern:
    /^[ \t]*expect[ \t]+(?:-[a-z]+[ \t]+)*"[^"\n]*(?:[Pp]assword|[Pp]assphrase|PASSWORD|PIN)[^"\n]*"[ \t]*\r?\n(?:[ \t]*\r?\n)*[ \t]*send[ \t]+(?:--[ \t]+)?"([^"\n\\$[]+)(?:\\r|\\n)*"/dgm,
  group: 1,
  keywords: ['expect "', "expect -"],
  priority: PRIORITY.header,
  validate: (v) => writtenPassword(v),
});

/**
 * `Authorization: Basic user password` or `Basic user:password` in the clear, as REST Client's and
 * IntelliJ's `.http` files accept it (they encode it themselves). Base64 is another rule's.
 */
const plainBasicAuthRule: Rule = regexRule({
  kind: "basic-auth",
  pattern: /^[ \t]*Authorization:[ \t]*Basic[ \t]+[^\s:]+(?:[ \t]+|:)([^\s{}]+)[ \t]*\r?$/dgim,
  group: 1,
  keywords: ["uthorization"],
  priority: PRIORITY.header,
  validate: (v) => writtenPassword(v),
});

/** `user:password` written into a value: Squid's `cache_peer … login=user:password`. */
const squidLoginRule: Rule = regexRule({
  kind: "password",
  pattern: /(?<=^[ \t]*cache_peer[ \t][^\n]*)[ \t]login=[^\s:]+:([^\s]+)/dgm,
  group: 1,
  keywords: ["login="],
  priority: PRIORITY.header,
  validate: (v) => writtenPassword(v),
});

/** Asterisk's `register => user:secret@provider/extension` (also `user:secret:authuser@…`). */
const sipRegisterRule: Rule = regexRule({
  kind: "password",
  pattern:
    /^[ \t]*register[ \t]*=>?[ \t]*(?:[a-z]+:\/\/)?[^\s:@/]+:([^\s/]+?)(?::[^\s:@/]+)?@[^\s@/]+(?=[/\s:]|$)/dgm,
  group: 1,
  keywords: ["register =", "register="],
  priority: PRIORITY.structured,
  validate: (v) => writtenPassword(v),
});

/** OpenLDAP's root password: `rootpw …` in `slapd.conf`, `olcRootPW: …` in its LDIF configuration. */
const ldapRootPasswordRule: Rule = regexRule({
  kind: "password",
  pattern: /^[ \t]*(?:rootpw[ \t]+|olcRootPW:[ \t]*)(["']?)([^\s"']+)\1[ \t]*\r?$/dgim,
  group: 2,
  keywords: ["rootpw", "olcRootPW", "olcRootPw"],
  priority: PRIORITY.header,
  validate: (v) => writtenPassword(v),
});

/** Redis Sentinel's `sentinel auth-pass MASTER password`. */
const sentinelAuthRule: Rule = regexRule({
  kind: "password",
  pattern: /^[ \t]*sentinel[ \t]+auth-pass[ \t]+\S+[ \t]+["']?([^\s"']+)/dgm,
  group: 1,
  keywords: ["auth-pass"],
  priority: PRIORITY.header,
  validate: (v) => writtenPassword(v),
});

/** Words a comment uses for the value below it. */
const SECRET_COMMENT = /\b(?:password|passwd|passphrase|secret|token|api[ _-]?key|community)\b/i;

/**
 * Nagios' and Icinga's resource file: `$USER3$=value`. The macros hold plug-in paths and user
 * names as well as passwords, so the comment line right above decides (`# MySQL password`).
 */
const resourceMacroRule: Rule = {
  id: "resource-macro",
  category: "credential",
  keywords: ["$USER"],
  find(text: string): Candidate[] {
    const out: Candidate[] = [];
    const macro = /^\$USER\d+\$[ \t]*=[ \t]*(["']?)([^\s"']+)\1[ \t]*$/dgm;
    let m: RegExpExecArray | null;
    while ((m = macro.exec(text)) !== null) {
      const lineStart = m.index;
      const above = text.slice(text.lastIndexOf("\n", lineStart - 2) + 1, lineStart - 1);
      if (!/^[ \t]*[#;]/.test(above) || !SECRET_COMMENT.test(above)) continue;
      if (!writtenPassword(m[2])) continue;
      out.push(headerCandidate("password", ...spanOf(m, 2)));
    }
    return out;
  },
};

/**
 * A `Pass value` directive with a `User value` one on the lines above, as isync's `.mbsyncrc` and
 * other mail and sync tools write their accounts. (`PassCmd` runs a command and is not read.)
 */
const userPassDirectiveRule: Rule = {
  id: "pass-directive",
  category: "credential",
  // At a line's start (the reader wants a `User` line above, so the text never starts with it).
  keywords: ["\nPass ", "\npass ", "\nPass\t", "\npass\t"],
  find(text: string): Candidate[] {
    const out: Candidate[] = [];
    const pass = /^[ \t]*[Pp]ass[ \t]+(?:"([^"\n]+)"|([^\s"]+))[ \t]*\r?$/dgm;
    let m: RegExpExecArray | null;
    while ((m = pass.exec(text)) !== null) {
      let from = m.index;
      for (let n = 0; n < 4 && from > 0; n++) from = text.lastIndexOf("\n", from - 2) + 1;
      if (!/^[ \t]*(?:user|username|login)[ \t]+\S/im.test(text.slice(from, m.index))) continue;
      const group = m[1] !== undefined ? 1 : 2;
      if (!writtenPassword(m[group])) continue;
      out.push(headerCandidate("password", ...spanOf(m, group)));
    }
    return out;
  },
};

/**
 * Deno's `DENO_AUTH_TOKENS=token@host;user:password@host`: each entry's part before its last `@`
 * is a bearer token or a basic-auth pair for that host.
 */
const denoAuthTokensRule: Rule = {
  id: "deno-auth-tokens",
  category: "credential",
  anchors: ["DENO_AUTH_TOKENS"],
  find(text: string): Candidate[] {
    const out: Candidate[] = [];
    for (let at = text.indexOf("DENO_AUTH_TOKENS"); at !== -1;) {
      const c = denoAuthTokensAt(text, at);
      if (c) out.push(c);
      at = text.indexOf("DENO_AUTH_TOKENS", at + 1);
    }
    return out;
  },
  matchAt: (text: string, position: number) => denoAuthTokensAt(text, position),
};

/** The first entry's secret of a `DENO_AUTH_TOKENS` assignment at `position`, if any. */
function denoAuthTokensAt(text: string, position: number): Candidate | null {
  const m = /^DENO_AUTH_TOKENS[ \t]*[=:][ \t]*["']?([^\s"';]+)@[A-Za-z0-9.-]+(?::\d+)?/.exec(
    text.slice(position, position + 400),
  );
  if (!m) return null;
  const entry = m[1];
  const secret = entry.includes(":") ? entry.slice(entry.indexOf(":") + 1) : entry;
  if (!writtenPassword(secret) || classCount(secret) < 2) return null;
  const start = position + m[0].indexOf(entry) + (entry.length - secret.length);
  return headerCandidate(
    entry.includes(":") ? "basic-auth" : "generic-secret",
    start,
    start + secret.length,
  );
}

/**
 * A wallet's recovery phrase under a name that says so (`MNEMONIC=`, `seed_phrase:`): twelve to
 * twenty-four lower-case words, which give the wallet's keys back.
 */
const recoveryPhraseRule: Rule = regexRule({
  kind: "generic-secret",
  pattern:
    /(?:mnemonic|seed[_-]?phrase|recovery[_-]?phrase|secret[_-]?phrase)["']?[ \t]*[:=][ \t]*["']?((?:[a-z]{3,8} ){11,23}[a-z]{3,8})(?=["'\s,;]|$)/dgi,
  group: 1,
  keywords: ["nemonic", "NEMONIC", "_phrase", "_PHRASE", "Phrase"],
  priority: PRIORITY.header,
  validate: (v) => {
    const words = v.split(" ");
    return [12, 15, 18, 21, 24].includes(words.length) && new Set(words).size >= 6 &&
      !isPlaceholder(v);
  },
});

/**
 * A key written into the path of a provider's URL: Anaconda's private channels
 * (`conda.anaconda.org/t/TOKEN/channel`), Infura's project endpoints (`….infura.io/v3/ID`) and
 * Alchemy's (`….alchemy.com/v2/KEY`).
 */
const urlPathKeyRule: Rule = regexRule({
  kind: "generic-secret",
  pattern:
    /(?:anaconda\.(?:org|com)(?:\/[\w.-]+)?\/t\/|infura\.io\/(?:v3|ws\/v3)\/|alchemy\.com\/v2\/)([A-Za-z0-9_-]{20,})(?=[/"'\s?#]|$)/dg,
  group: 1,
  keywords: ["anaconda", "infura", "alchemy"],
  priority: PRIORITY.structured,
  validate: (v) => !isPlaceholder(v) && !isTemplateReference(v) && shannonEntropy(v) >= 3,
});

/** NuGet.org's API keys: `oy2` and 43 lower-case letters and digits. */
const nugetKeyRule: Rule = regexRule({
  kind: "nuget-api-key",
  pattern: /(?<![A-Za-z0-9])oy2[a-z0-9]{43}(?![A-Za-z0-9])/g,
  anchors: ["oy2"],
  priority: PRIORITY.specific,
  visible: 3,
  validate: (v) => !isPlaceholder(v) && shannonEntropy(v.slice(3)) >= 3.5,
});

/**
 * `user NAME PASSWORD` as `ftp`'s own command, in a script that feeds ftp (a here-document after
 * `ftp -n`, or `quote USER`/`quote PASS`): within the few lines after the ftp command.
 */
const ftpUserRule: Rule = {
  id: "ftp-user-command",
  category: "credential",
  keywords: ["ftp -", "ftp <"],
  find(text: string): Candidate[] {
    const out: Candidate[] = [];
    const command = /\b(?:ftp|lftp|ncftp)[ \t]+(?:-[A-Za-z]+[ \t]+)*[^\n]*\n/g;
    let m: RegExpExecArray | null;
    while ((m = command.exec(text)) !== null) {
      const after = m.index + m[0].length;
      const block = text.slice(after, after + 400);
      const user =
        /^[ \t]*(?:user[ \t]+\S+[ \t]+|quote[ \t]+PASS[ \t]+)(["']?)([^\s"']+)\1[ \t]*\r?$/dim.exec(
          block,
        );
      if (!user || !writtenPassword(user[2]) || classCount(user[2]) < 2) continue;
      const [start, end] = spanOf(user, 2);
      out.push(headerCandidate("password", after + start, after + end));
    }
    return out;
  },
};

/**
 * A user and a password given to a basic-auth helper as two literals: Ruby's `req.basic_auth "u",
 * "p"` and HTTParty's `basic_auth`, Python's `HTTPBasicAuth("u", "p")` and `HTTPDigestAuth`.
 */
const basicAuthCallRule: Rule = regexRule({
  kind: "basic-auth",
  pattern:
    /\b(?:basic_auth|digest_auth|HTTPBasicAuth|HTTPDigestAuth|BasicAuth)[ \t]*\(?[ \t]*(["'])[^"'\n]+\1[ \t]*,[ \t]*(["'])([^"'\n]+)\2/dg,
  group: 3,
  keywords: ["basic_auth", "BasicAuth", "DigestAuth"],
  priority: PRIORITY.header,
  validate: (v) => writtenPassword(v),
});

/**
 * `rclone config create NAME TYPE key value …` (and `update`): the pairs after the remote's name,
 * each value judged by its key (`secret_access_key`, `pass`).
 */
const rcloneConfigRule: Rule = {
  id: "rclone-config-command",
  category: "credential",
  keywords: ["rclone"],
  find(text: string, context: RuleContext): Candidate[] {
    const out: Candidate[] = [];
    const command = /\brclone[ \t]+config[ \t]+(?:create|update)[ \t]+([^\n|;&]*)/g;
    let m: RegExpExecArray | null;
    while ((m = command.exec(text)) !== null) {
      const pair = /(?<=[ \t])([a-z_]+)[ \t]+(["']?)([^\s"'=]+)\2(?=[ \t]|$)/dg;
      const base = m.index + m[0].length - m[1].length;
      let p: RegExpExecArray | null;
      while ((p = pair.exec(" " + m[1])) !== null) {
        const name = p[1];
        const cls = name === "pass" ? "password" : classifyName(name);
        if (!cls) continue;
        if (
          !acceptValue(p[3], cls, { quoted: true, literalFile: true, thorough: context.thorough })
        ) {
          continue;
        }
        const [start, end] = spanOf(p, 3);
        out.push(headerCandidate(kindFor(name, cls, p[3]).kind, base + start - 1, base + end - 1));
      }
    }
    return out;
  },
};

/** A delimiter row of a Markdown table: `| --- | :---: |`. */
const MARKDOWN_DELIMITER = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*\r?$/;

/** The cells of a Markdown table row, with their offsets (`|` at the ends is optional). */
function markdownCells(line: string, offset: number): { start: number; value: string }[] {
  const cells: { start: number; value: string }[] = [];
  let from = line.trimStart().startsWith("|") ? line.indexOf("|") + 1 : 0;
  const last = line.trimEnd().endsWith("|") ? line.lastIndexOf("|") : line.length;
  while (from <= last) {
    let to = line.indexOf("|", from);
    if (to === -1 || to > last) to = last;
    const raw = line.slice(from, to);
    const lead = raw.length - raw.trimStart().length;
    let value = raw.trim();
    let start = offset + from + lead;
    // A value written as code, `` `…` ``.
    if (value.length > 2 && value.startsWith("`") && value.endsWith("`")) {
      value = value.slice(1, -1);
      start++;
    }
    cells.push({ start, value });
    if (to === last) break;
    from = to + 1;
  }
  return cells;
}

/**
 * A Markdown table (a runbook's or a wiki's accounts) whose header names a column like a secret:
 * each cell below is judged like a named value, as in a CSV file.
 */
const markdownTableRule: Rule = {
  id: "markdown-table-column",
  category: "credential",
  keywords: ["--|", "- |", "-:|", "-|-"],
  find(text: string, context: RuleContext): Candidate[] {
    const out: Candidate[] = [];
    const lines = text.split("\n");
    let offset = 0;
    const offsets = lines.map((line) => {
      const at = offset;
      offset += line.length + 1;
      return at;
    });
    for (let i = 1; i < lines.length; i++) {
      if (!lines[i].includes("-") || !MARKDOWN_DELIMITER.test(lines[i])) continue;
      if (!lines[i - 1].includes("|")) continue;
      const columns = markdownCells(lines[i - 1], offsets[i - 1]).map((c) => ({
        name: c.value,
        cls: c.value === "" ? null : classifyName(c.value),
      }));
      if (!columns.some((c) => c.cls)) continue;
      for (let r = i + 1; r < lines.length && lines[r].includes("|"); r++) {
        const cells = markdownCells(lines[r], offsets[r]);
        for (let k = 0; k < cells.length && k < columns.length; k++) {
          const { name, cls } = columns[k];
          const { value, start } = cells[k];
          const options = { quoted: true, literalFile: true, thorough: context.thorough };
          if (!cls || !acceptValue(value, cls, options)) continue;
          out.push(headerCandidate(kindFor(name, cls, value).kind, start, start + value.length));
        }
      }
    }
    return out;
  },
};

/** Commands that store what they are given as a secret. */
const SECRET_STORE_COMMAND = String
  .raw`(?:npx[ \t]+|bunx[ \t]+)?(?:wrangler[ \t]+(?:pages[ \t]+)?secret[ \t]+put|vercel[ \t]+env[ \t]+add|gh[ \t]+secret[ \t]+set|netlify[ \t]+env:set|firebase[ \t]+functions:secrets:set|(?:docker|podman)[ \t]+secret[ \t]+create)`;

/**
 * A value handed to a command that stores it as a secret: piped in (`echo "…" | wrangler secret
 * put NAME`, `printf … | docker secret create`), or as a here-string (`… <<< "…"`). Whatever such a
 * command stores is a secret, whatever it is called.
 */
const storedSecretRule: Rule = {
  id: "stored-secret-input",
  category: "credential",
  keywords: ["secret put", "secret set", "secret create", "env add", "env:set"],
  find(text: string): Candidate[] {
    const out: Candidate[] = [];
    const pattern = new RegExp(
      String
        .raw`(?:\b(?:echo|printf)[ \t]+(?:-n[ \t]+)?(?:"([^"\n$]+)"|'([^'\n]+)'|([^\s|'"$]+))[ \t]*\|[ \t]*${SECRET_STORE_COMMAND}|${SECRET_STORE_COMMAND}[^\n|;&<]*<<<[ \t]*(?:"([^"\n$]+)"|'([^'\n]+)'|([^\s'"$]+)))`,
      "dg",
    );
    let m: RegExpExecArray | null;
    while ((m = pattern.exec(text)) !== null) {
      const group = [1, 2, 3, 4, 5, 6].find((g) => m![g] !== undefined)!;
      const value = m[group];
      if (!writtenPassword(value) || classCount(value) < 2) continue;
      out.push(headerCandidate("generic-secret", ...spanOf(m, group)));
    }
    return out;
  },
};

/**
 * Cloud CLIs that store a value as a secret by an option: `aws secretsmanager create-secret
 * --secret-string …` (also `put-secret-value`, `update-secret`), `aws ssm put-parameter … --value …`
 * of a `SecureString`, `az keyvault secret set … --value …`.
 */
const cloudSecretOptionRule: Rule = {
  id: "cloud-secret-option",
  category: "credential",
  keywords: ["secretsmanager", "SecureString", "keyvault"],
  find(text: string): Candidate[] {
    const out: Candidate[] = [];
    const command =
      /\b(?:aws[ \t]+secretsmanager[ \t]+(?:create-secret|put-secret-value|update-secret)|aws[ \t]+ssm[ \t]+put-parameter|az[ \t]+keyvault[ \t]+secret[ \t]+set)\b[^\n]*/g;
    let m: RegExpExecArray | null;
    while ((m = command.exec(text)) !== null) {
      if (/put-parameter/.test(m[0]) && !/SecureString/.test(m[0])) continue;
      const option =
        /[ \t](?:--secret-string|--value)[ \t=]+(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']+))/d
          .exec(m[0]);
      if (!option) continue;
      const group = option[1] !== undefined ? 1 : option[2] !== undefined ? 2 : 3;
      const value = option[group];
      // A JSON document is read by the name rule, field by field.
      if (value.startsWith("{") || value.startsWith("file://") || !writtenPassword(value)) continue;
      const [start, end] = spanOf(option, group);
      out.push(headerCandidate("generic-secret", m.index + start, m.index + end));
    }
    return out;
  },
};

/** The rules of this file, in the order the scanner runs them. */
export const CLIENT_FORMAT_RULES: Rule[] = [
  commandSetRule,
  nickservRule,
  expectSendRule,
  plainBasicAuthRule,
  squidLoginRule,
  sipRegisterRule,
  sentinelAuthRule,
  ldapRootPasswordRule,
  resourceMacroRule,
  userPassDirectiveRule,
  denoAuthTokensRule,
  recoveryPhraseRule,
  urlPathKeyRule,
  nugetKeyRule,
  ftpUserRule,
  basicAuthCallRule,
  storedSecretRule,
  cloudSecretOptionRule,
  rcloneConfigRule,
  markdownTableRule,
  // Archivers: `7z a -p…`, `unrar x -p…` (run together), `zip -P …`
  toolOption(
    /\b(?:7z|7za|7zz|unrar|rar)\b/,
    ["7z ", "7za ", "7zz ", "rar "],
    /(?<=\s)-p["']?([^\s"'`|;&-][^\s"'`|;&]*)/dg,
  ),
  toolOption(/\bzip\b/, ["zip "], /(?<=\s)(?:-P|--password)[ \t]+["']?([^\s"'`|;&]+)/dg),
  // `ssh-keygen -N 'new passphrase'` and `-P 'old passphrase'`
  toolOption(/\bssh-keygen\b/, ["ssh-keygen"], /(?<=\s)-[NP][ \t]+["']?([^\s"'`|;&]+)/dg),
  // `openssl enc -k …` (the old form of `-pass pass:`)
  toolOption(/\bopenssl\b/, ["openssl"], /(?<=\s)-k[ \t]+["']?([^\s"'`|;&-][^\s"'`|;&]*)/dg),
  // Remote desktops: `xfreerdp /p:…`, `rdesktop -p …`
  toolOption(
    /\b(?:xfreerdp|wlfreerdp|sdl-freerdp)\b/,
    ["freerdp"],
    /(?<=\s)\/p:["']?([^\s"'`|;&]+)/dg,
  ),
  toolOption(/\brdesktop\b/, ["rdesktop"], /(?<=\s)-p[ \t]+["']?([^\s"'`|;&-][^\s"'`|;&]*)/dg),
  // Wi-Fi: `nmcli dev wifi connect <ssid> password …`, `wpa_passphrase <ssid> …`
  toolOption(
    /\bnmcli\b/,
    ["nmcli"],
    /(?<=\s)(?:password|wifi-sec\.psk)[ \t]+["']?([^\s"'`|;&]+)/dg,
  ),
  toolOption(
    /\bwpa_passphrase\b/,
    ["wpa_"],
    /(?<=\bwpa_passphrase[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\S+)[ \t]+)["']?([^\s"'`|;&<]+)/dg,
  ),
  // HTTPie: `http -a user:…` and `--auth user:…`
  toolOption(
    /\b(?:http|https|xh|xhs)\b/,
    ["http -a", "https -a", "--auth"],
    /(?<=\s)(?:-a|--auth)[ \t=]+["']?[^\s:"']+:([^\s"'`|;&]+)/dg,
  ),
  // `gh secret set <name> --body …` (`-b`): whatever is set as a secret is one.
  toolOption(
    /\bgh[ \t]+secret[ \t]+set\b/,
    ["secret set"],
    /(?<=\s)(?:--body|-b)[ \t=]+["']?([^\s"'`|;&]+)/dg,
  ),
  // Windows: `cmdkey /add:<host> /user:<name> /pass:…`
  toolOption(/\bcmdkey\b/i, ["cmdkey", "CMDKEY"], /(?<=\s)\/pass:["']?([^\s"'`|&]+)/dgi),
  // `schtasks /Create … /RU <account> /RP …` (and `/P` for the remote system's user)
  toolOption(
    /\bschtasks\b/i,
    ["schtasks", "SCHTASKS"],
    /(?<=\s)\/R?P[ \t]+["']?([^\s"'`|&/][^\s"'`|&]*)/dgi,
  ),
  // MQTT clients: `mosquitto_pub -u meter -P …` (`--pw`), and IPMI's `ipmitool -U admin -P …`
  toolOption(
    /\b(?:mosquitto_(?:pub|sub|rr)|ipmitool)\b/,
    ["mosquitto_", "ipmitool"],
    /(?<=\s)(?:-P|--pw)[ \t]+["']?([^\s"'`|;&]+)/dg,
  ),
  // `net user <name> … /add`
  toolOption(
    /\bnet[ \t]+user\b/i,
    ["net user", "NET USER", "Net User"],
    /(?<=\bnet[ \t]+user[ \t]+[^\s/]+[ \t]+)["']?([^\s"'`|&/*][^\s"'`|&]*)(?=[ \t]+\/)/dgi,
  ),
];
