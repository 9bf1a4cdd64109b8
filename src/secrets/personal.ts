/**
 * Personal data (with --personal): email addresses, phone numbers, IBANs,
 * payment cards, national identity numbers and IP addresses. Wherever the
 * format has a check digit it is verified, which is what keeps order numbers,
 * dates and version strings out.
 */
import type { Candidate, Rule, RuleContext } from "./types.ts";
import { regexRule } from "./regex_rule.ts";
import {
  aadhaarValid,
  bsnValid,
  cardNetwork,
  ibanValid,
  isExampleIban,
  isTestCard,
  ninoValid,
  nirValid,
  personnummerValid,
  sinValid,
  spanishIdValid,
  ssnValid,
} from "./checksums.ts";
import {
  isFictionalNumber,
  notAMailbox,
  phoneWordStandsAlone,
  underProductCodeName,
  underRecordIdName,
} from "./personal_lookalikes.ts";

const P = { card: 27, iban: 27, nationalId: 26, email: 24, ip: 22, phone: 20 };

// Reserved names and private-use ones (`.internal`, `.lan`, `home.arpa`) reach no mailbox:
// `root@db-backup.internal` is a login on a host.
const EXAMPLE_DOMAIN =
  /(?:^|\.)(?:example\.(?:com|org|net|edu)|example|test|invalid|localhost|local|internal|lan|intranet|localdomain|home\.arpa)$/i;
const FILE_TLDS =
  /^(?:png|jpe?g|gif|svg|webp|ico|bmp|js|mjs|cjs|ts|tsx|jsx|css|scss|less|map|json|txt|md|html?|py|rb|lock|ya?ml|toml|xml|zip|gz|tgz|exe|dll|so|dylib|wasm|pdf|csv|log|sh|pem|key)$/i;

/**
 * Whether the `:` at `colon` introduces an address rather than a URL's `user:password@`: after
 * `mailto:` (iCalendar's `ORGANIZER;CN=…:mailto:`), or after a vCard's `EMAIL` property
 * (`EMAIL;TYPE=work:`), which starts its line. An event's `UID:…@host` is an id, not an address.
 */
function addressAfterColon(text: string, colon: number): boolean {
  const lineStart = text.lastIndexOf("\n", colon - 1) + 1;
  const before = text.slice(Math.max(lineStart, colon - 200), colon);
  return /(?:^|[\s<"'(:])mailto$/i.test(before) ||
    (lineStart >= colon - 200 && /^(?:item\d+\.)?EMAIL(?:;[^:\n]*)?$/i.test(before));
}

function emailAllowed(email: string, text: string, start: number, end: number): boolean {
  const at = email.lastIndexOf("@");
  const local = email.slice(0, at).toLowerCase();
  const domain = email.slice(at + 1);
  if (EXAMPLE_DOMAIN.test(domain)) return false;
  if (FILE_TLDS.test(domain.slice(domain.lastIndexOf(".") + 1))) return false;
  if (
    /^(?:no-?reply|do-?not-?reply|git|user|username|name|email|someone|foo|bar|test)$/.test(local)
  ) return false;
  if (text[start - 1] === "/") return false; // URL userinfo
  if (text[start - 1] === ":" && !addressAfterColon(text, start - 1)) return false; // user:pw@host
  if (text[end] === ":" && /^[\w.-]+\//.test(text.slice(end + 1, end + 64))) return false; // git@host:org/repo
  return true;
}

/**
 * Not a made-up number: at least `minDistinct` different digits, no run like 98765432. A card's
 * sixteen digits need four; a phone number's last eight need three, since one real number in a
 * hundred and fifty has only three (`+49 152 51211122`), while filler (`0000 0000`, `1212 1212`)
 * has one or two.
 */
function plausibleDigits(digits: string, minDistinct = 4): boolean {
  if (new Set(digits).size < minDistinct) return false;
  let up = 1;
  let down = 1;
  for (let i = 1; i < digits.length; i++) {
    const step = digits.charCodeAt(i) - digits.charCodeAt(i - 1);
    up = step === 1 ? up + 1 : 1;
    down = step === -1 ? down + 1 : 1;
    if (up >= 7 || down >= 7) return false;
  }
  return true;
}

function digitsOf(value: string): string {
  return value.replace(/\D/g, "");
}

function consistentSeparators(value: string): boolean {
  const seps = new Set(value.replace(/\d/g, ""));
  return seps.size <= 1;
}

/**
 * Whether a card number's separators group it as cards are printed: fours (`4111 1111 1111 1111`,
 * a 19-digit number's last group shorter) or American Express' and Diners' 4-6-5 and 4-6-4. An id
 * like `625347416085-2313` (a Google OAuth client id's start) is not grouped so.
 */
function cardGrouping(value: string): boolean {
  const groups = value.split(/[ -]/).map((g) => g.length);
  if (groups.length === 1) return true;
  if (groups.length === 3 && groups[0] === 4 && groups[1] === 6) return groups[2] >= 4;
  return groups.every((n, i) => i === groups.length - 1 ? n >= 1 && n <= 4 : n === 4);
}

/** IPv4 addresses that identify nobody: unspecified, loopback, link-local, broadcast, masks, docs ranges. */
function ipv4Personal(ip: string): boolean {
  const o = ip.split(".").map(Number);
  if (o[0] === 0 || o[0] === 127 || o[0] >= 224 || o[0] === 255) return false;
  if (o[0] === 169 && o[1] === 254) return false;
  // Four single digits (1.2.3.4, a section 3.1.1.1, the resolvers 1.1.1.1 and 8.8.8.8): not a person.
  if (o.every((n) => n < 10)) return false;
  if (
    (o[0] === 192 && o[1] === 0 && o[2] === 2) || (o[0] === 198 && o[1] === 51 && o[2] === 100) ||
    (o[0] === 203 && o[1] === 0 && o[2] === 113)
  ) return false;
  return true;
}

/** A full IPv6 address (not loopback, unspecified, link-local or the documentation prefix). */
function ipv6Personal(value: string): boolean {
  const lower = value.toLowerCase();
  const halves = lower.split("::");
  if (halves.length > 2) return false;
  const groups = halves.flatMap((h) => (h === "" ? [] : h.split(":")));
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return false;
  if (halves.length === 1 ? groups.length !== 8 : groups.length > 7) return false;
  if (groups.length < 3) return false;
  // Every group of one or two digits (`00:1A:2B::4D:5E`) is a MAC address or a time, not an address.
  if (groups.every((g) => g.length <= 2)) return false;
  if (
    lower.startsWith("fe80:") || lower.startsWith("2001:db8:") || lower.startsWith("2001:0db8:")
  ) return false;
  return true;
}

function versionContext(text: string, start: number): boolean {
  const before = text.slice(Math.max(0, start - 24), start);
  // A product token's version (`Chrome/120.0.0.0` in a user agent) or a value under a version's
  // name (`"app_version": "3.12.200.45"`, `AssemblyVersion("2.14.120.0")`, `<FileVersion>`,
  // Gradle's `versionName "4.21.173.26"`, `Bump version to 3.40.229.1`).
  if (/(?:^|[\s("';,])[A-Za-z][\w.-]*\/$/.test(before)) return true;
  if (
    /version\w*["']?\s*(?:[:=(>]\s*["']?|(?:\s+(?:to|from|is|was|now))?\s+["']?)$/i.test(before)
  ) {
    return true;
  }
  if (!/(?:\bv|version[ :=]*|ver\.? ?|@|\bnode[ -]?|python[ -]?)$/i.test(before)) return false;
  // `user:password@10.0.3.7` is a URL's host, not `package@1.2.3.4`: a password comes before it;
  // so is the host of a remote login, `ssh admin@10.20.4.9`.
  if (!before.endsWith("@")) return true;
  const line = text.slice(Math.max(0, text.lastIndexOf("\n", start - 1) + 1, start - 200), start);
  return !/:[^\s@/:]*@$/.test(line) &&
    !/\b(?:ssh|scp|sftp|rsync|mosh|telnet|ssh-copy-id)\b[^\n]*?[ \t][\w.-]+@$/.test(line);
}

/** Whether `keywords` occur in the `span` characters before `start` on its line. */
function keywordBefore(text: string, start: number, keywords: RegExp, span = 40): boolean {
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  return keywords.test(text.slice(Math.max(lineStart, start - span), start));
}

/**
 * A number written with North America's country code (`+1`, `001`) has ten digits after it, and
 * 555-0100 to 555-0199 are fiction's; other countries' numbers pass.
 */
function plausibleNanp(v: string): boolean {
  // Country code 1 is North America's alone, so `+1` written run together with the rest
  // (`+14155550123`) is read by the same rule as `+1 415…`: ten digits follow, or it is no phone
  // number (`+15550142`, a count with a sign).
  const m = /^(?:\+|00)1/.exec(v.trim());
  if (!m) return true;
  const national = digitsOf(v.trim().slice(m[0].length));
  return national.length === 10 && !/^\d{3}55501\d\d$/.test(national);
}

/**
 * Whether a unit follows the number ending at `end` (`+15550142 bytes`, `+1555014200 ns`): a signed
 * count or a difference, not a phone number.
 */
function isQuantity(text: string, end: number): boolean {
  return /^ ?(?:[kMGT]i?B|bytes?|[mnµu]?s|secs?|px|pt|%|rows?|records?|lines?|items?|files?|ops|hits)(?![A-Za-z])/
    .test(text.slice(end, end + 10));
}

/** A CSV or TSV header cell that names a phone number column (`phone`, `mobile_number`, `Tel.`). */
const PHONE_COLUMN =
  /^(?:[\w.]*[_ .-])?(?:phone|telephone|t\u00e9l\u00e9phone|t\u00e9l|mobile|mobil|m\u00f3vil|movil|portable|cell|cellulare|celular|tel|telefon|telefone|telefono|tel\u00e9fono|fax|handy|gsm)(?:[_ .-][\w.]*)?\.?$/i;

/** Split one CSV line into cells with their offsets, honouring double quotes. */
function csvCells(
  line: string,
  offset: number,
  delimiter: string,
): { start: number; value: string }[] {
  const cells: { start: number; value: string }[] = [];
  let i = 0;
  while (i <= line.length) {
    const quoted = line[i] === '"';
    const from = quoted ? i + 1 : i;
    let to = quoted ? line.indexOf('"', from) : line.indexOf(delimiter, i);
    if (to === -1) to = line.length;
    cells.push({ start: offset + from, value: line.slice(from, to) });
    const next = line.indexOf(delimiter, to);
    if (next === -1) break;
    i = next + 1;
  }
  return cells;
}

/**
 * A phone number in a CSV or TSV column named for one, in the national form that has no `+` or
 * North American layout (`0151 29384756`, `07700 918273`): the header says what the digits are.
 */
const phoneColumnRule: Rule = {
  id: "phone-column",
  category: "personal",
  // Every CSV or TSV line holds its delimiter: the file's extension decides.
  keywords: [",", "\t"],
  find(text: string, context: RuleContext): Candidate[] {
    if (context.extension !== ".csv" && context.extension !== ".tsv") return [];
    const delimiter = context.extension === ".tsv" ? "\t" : ",";
    let lineEnd = text.indexOf("\n");
    if (lineEnd === -1) return [];
    const header = csvCells(text.slice(0, lineEnd).replace(/\r$/, ""), 0, delimiter);
    const columns = header.map((c) => PHONE_COLUMN.test(c.value.trim()));
    if (!columns.includes(true)) return [];
    const out: Candidate[] = [];
    for (let start = lineEnd + 1; start < text.length; start = lineEnd + 1) {
      lineEnd = text.indexOf("\n", start);
      if (lineEnd === -1) lineEnd = text.length;
      const cells = csvCells(text.slice(start, lineEnd).replace(/\r$/, ""), start, delimiter);
      for (let k = 0; k < cells.length && k < columns.length; k++) {
        if (!columns[k]) continue;
        const value = cells[k].value.trim();
        if (!/^(?:\+|00)?\(?\d[\d ()./-]{5,20}\d$/.test(value)) continue;
        const n = digitsOf(value).length;
        if (n < 8 || n > 15 || !plausibleDigits(digitsOf(value).slice(-8), 3)) continue;
        if (!plausibleNanp(value) || isFictionalNumber(value)) continue;
        const at = cells[k].start + cells[k].value.indexOf(value);
        out.push({
          kind: "phone",
          category: "personal",
          start: at,
          end: at + value.length,
          priority: P.phone - 1,
          visible: 0,
        });
      }
    }
    return out;
  },
};

/**
 * The letters and digits of an address, of any script in common use (RFC 6531's addresses:
 * `jürgen.müller@gmx.de`, `info@bücherstube.at`, `用户@例子.中国`): Latin with its accents, Greek,
 * Cyrillic, Hebrew, Arabic, the Indic scripts, Thai, kana, CJK and Hangul. Ranges rather than
 * `\p{L}`: a Unicode-aware pattern ran the rule 2.5 times slower over the same text.
 */
const ADDRESS_LETTERS =
  "\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02AF\\u0370-\\u03FF\\u0400-\\u052F\\u0590-\\u06FF\\u0900-\\u0DFF\\u0E00-\\u0E7F\\u1E00-\\u1FFF\\u3040-\\u30FF\\u3400-\\u4DBF\\u4E00-\\u9FFF\\uAC00-\\uD7AF";
/** Combining accents, which follow a letter written decomposed (`e` + `\u0301`). */
const ADDRESS_MARKS = "\\u0300-\\u036F";
const EMAIL_PATTERN = (() => {
  const l = `A-Za-z0-9${ADDRESS_LETTERS}`;
  const lm = `${l}${ADDRESS_MARKS}`;
  const label = `[${l}](?:[${lm}-]{0,62}[${lm}])?`;
  const tld = `[A-Za-z${ADDRESS_LETTERS}][A-Za-z${ADDRESS_LETTERS}${ADDRESS_MARKS}]{1,23}`;
  return new RegExp(
    `(?<![${l}._%+-])[${l}][${lm}._%+-]{0,63}@${label}(?:\\.${label})*\\.${tld}(?![${lm}-])`,
    "g",
  );
})();

export const PERSONAL_RULES: Rule[] = [
  phoneColumnRule,
  regexRule({
    kind: "email",
    category: "personal",
    pattern: EMAIL_PATTERN,
    keywords: ["@"],
    priority: P.email,
    validate: (v, text, start, end) =>
      emailAllowed(v, text, start, end) && !notAMailbox(v, text, start, end),
  }),
  regexRule({
    kind: "email",
    category: "personal",
    // An address written into a URL, its `@` (and a `+`) percent-encoded:
    // `GET /unsubscribe?email=maria.keller%2Bnews%40gmail.com` in an access log.
    pattern:
      /(?<![A-Za-z0-9._%+-])[A-Za-z0-9](?:[A-Za-z0-9._-]|%2[Bb]){0,63}%40[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}(?![A-Za-z0-9-])/g,
    keywords: ["%40"],
    priority: P.email,
    validate: (v, text, start, end) => {
      const decoded = v.replace("%40", "@").replace(/%2B/gi, "+");
      return emailAllowed(decoded, text, start, end) && !notAMailbox(decoded, text, start, end);
    },
  }),
  regexRule({
    kind: "credit-card",
    category: "personal",
    // After `+` the digits are an international phone number (`+4915…`), never a card.
    pattern: /(?<![\d.+])(?:\d[ -]?){12,18}\d(?!\d|-\d|\.\d)/g,
    priority: P.card,
    validate: (v, text, start) => {
      const d = digitsOf(v);
      // Six zeros in a row is how issuers write test numbers (4007000000027), not real cards.
      return consistentSeparators(v) && cardGrouping(v) && cardNetwork(d) !== null &&
        !isTestCard(d) &&
        !/0{6}/.test(d) &&
        plausibleDigits(d) && !underProductCodeName(text, start) && !underRecordIdName(text, start);
    },
  }),
  regexRule({
    kind: "iban",
    category: "personal",
    pattern:
      /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?(?![A-Za-z0-9])/g,
    priority: P.iban,
    validate: (v) => ibanValid(v) && !isExampleIban(v),
  }),
  regexRule({
    kind: "us-ssn",
    category: "personal",
    pattern: /(?<![\d-])\d{3}-\d{2}-\d{4}(?![\d-])/g,
    priority: P.nationalId,
    validate: (v) => ssnValid(v),
  }),
  regexRule({
    kind: "us-ssn",
    category: "personal",
    pattern: /(?:ssn|SSN|social security(?: number)?)[^\n\d]{0,20}(\d{9})(?!\d)/gd,
    group: 1,
    priority: P.nationalId,
    validate: (v) => ssnValid(v),
  }),
  regexRule({
    kind: "uk-nino",
    category: "personal",
    pattern:
      /(?<![A-Za-z0-9])[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![A-Za-z0-9])/g,
    priority: P.nationalId,
    validate: (v) => ninoValid(v),
  }),
  regexRule({
    kind: "es-dni",
    category: "personal",
    pattern: /(?<![A-Za-z0-9])(?:\d{8}|[XYZ]\d{7})-?[A-Z](?![A-Za-z0-9])/g,
    priority: P.nationalId,
    validate: (v) => spanishIdValid(v),
  }),
  regexRule({
    kind: "nl-bsn",
    category: "personal",
    pattern: /(?:bsn|BSN|burgerservicenummer)[^\n\d]{0,20}(\d{9}|\d{4}\.\d{2}\.\d{3})(?!\d)/gd,
    group: 1,
    priority: P.nationalId,
    validate: (v) => bsnValid(digitsOf(v)),
  }),
  regexRule({
    kind: "se-personnummer",
    category: "personal",
    pattern: /(?<![\d-])(?:19|20)?\d{6}[-+]\d{4}(?![\d-])/g,
    priority: P.nationalId,
    validate: (v) => personnummerValid(v),
  }),
  regexRule({
    kind: "fr-nir",
    category: "personal",
    pattern:
      /(?<![\d])[12] ?\d{2} ?(?:0[1-9]|1[0-2]|[2-9]\d) ?(?:\d{2}|2A|2B) ?\d{3} ?\d{3} ?\d{2}(?!\d)/g,
    priority: P.nationalId,
    validate: (v) => nirValid(v),
  }),
  regexRule({
    kind: "in-aadhaar",
    category: "personal",
    // Three groups and no more: the first twelve digits of a card printed in fours are no Aadhaar.
    pattern: /(?<![\d-]|\d[ -])[2-9]\d{3}[ -]\d{4}[ -]\d{4}(?![\d-]|[ -]\d)/g,
    priority: P.nationalId,
    validate: (v) => aadhaarValid(v) && consistentSeparators(v),
  }),
  regexRule({
    kind: "ca-sin",
    category: "personal",
    pattern: /(?<![\d-]|\d[ -])\d{3}[ -]\d{3}[ -]\d{3}(?![\d-]|[ -]\d)/g,
    priority: P.nationalId,
    validate: (v, text, start) =>
      sinValid(v) && consistentSeparators(v) &&
      // The name as a word: `Business Number` and `Processing` hold the letters `sin`.
      keywordBefore(text, start, /(?<![A-Za-z])(?:sin|nas)(?![A-Za-z])|social insurance/i),
  }),
  regexRule({
    kind: "ip-address",
    category: "personal",
    pattern:
      /(?<![\d.])(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}(?!\d|\.\d)/g,
    keywords: ["."],
    priority: P.ip,
    validate: (v, text, start) => ipv4Personal(v) && !versionContext(text, start),
  }),
  regexRule({
    kind: "ip-address",
    category: "personal",
    pattern: /(?<![A-Za-z0-9:])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?![A-Za-z0-9:])/g,
    keywords: [":"],
    priority: P.ip,
    validate: (v) => ipv6Personal(v),
  }),
  regexRule({
    kind: "phone",
    category: "personal",
    pattern: /(?<![\w+])\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,6}(?![\w-])/g,
    keywords: ["+"],
    priority: P.phone,
    validate: (v, text, start) => {
      const n = digitsOf(v).length;
      return n >= 8 && n <= 15 && plausibleDigits(digitsOf(v).slice(-8), 3) && plausibleNanp(v) &&
        !isFictionalNumber(v) && !isQuantity(text, start + v.length);
    },
  }),
  regexRule({
    kind: "phone",
    category: "personal",
    pattern: /(?<![\w-])(?:\([2-9]\d{2}\) ?|[2-9]\d{2}[ .-])\d{3}[ .-]\d{4}(?![\w-])/g,
    priority: P.phone,
    // 555-0100..0199 are fiction's numbers.
    validate: (v) =>
      !/^\(?\d{3}\)?[ .-]?555[ .-]?01\d\d$/.test(v) && plausibleDigits(digitsOf(v), 3),
  }),
  regexRule({
    kind: "phone",
    category: "personal",
    pattern:
      /(?:tel|phone|mobile|cell|fax|telefon|telephone|t\u00e9l\u00e9phone|t\u00e9l|m\u00f3vil|movil|mobil|portable|celular|handy|gsm|contact)(?:[^\n\d+(]|\((?!\d)){0,20}((?:\+|00)?\(?\d[\d ()./-]{6,18}\d)(?!\d)/gdi,
    group: 1,
    priority: P.phone - 1,
    validate: (v, text, start) => {
      const n = digitsOf(v).length;
      return n >= 8 && n <= 15 && !/^\d{4}-\d{2}-\d{2}/.test(v) &&
        plausibleDigits(digitsOf(v).slice(-8), 3) && plausibleNanp(v) && !isFictionalNumber(v) &&
        phoneWordStandsAlone(text, start);
    },
  }),
];
