/**
 * Text shaped like personal data that identifies nobody, each told apart by the class it belongs
 * to: SSH logins and algorithm names written `name@host`, no-reply addresses, numbers that
 * numbering plans reserve for fiction, and product codes
 * (EAN, GTIN, UPC, ISBN) under a name or column that says so. Pure predicates over the text around
 * a candidate; `personal.ts` calls them from its rules' checks.
 */

/**
 * Commands and ssh_config directives whose argument is a login at a host (`ssh deploy@bastion`,
 * `ProxyJump deploy@bastion`, `rsync -a deploy@web1:/var/log`): an account on a machine, not a
 * mailbox. Only options, numbers, paths and an option's `host:port` or `%h` argument (`ssh -W
 * %h:%p -q deploy@bastion` in a ProxyCommand) may stand between the command and the login.
 */
const LOGIN_COMMAND =
  /(?:^|[\s`'"(;|&$])(?:ssh|scp|sftp|rsync|mosh|autossh|ssh-copy-id|sshfs|ProxyJump|-J)(?:\s+(?:-[\w-]+(?:=\S*)?|\d+|\S*[/~.%:]\S*))*\s+$/i;

/**
 * Algorithm and extension names of the SSH protocol, written `name@domain` (RFC 4251, section 6):
 * `sk-ssh-ed25519@openssh.com`, `chacha20-poly1305@openssh.com`, `curve25519-sha256@libssh.org`.
 */
const SSH_ALGORITHM_NAME =
  /^(?:[a-z0-9]+-)*(?:ssh|ecdsa|ed25519|ed448|rsa|dss|hmac|sha\d*|aes\d+|chacha20|poly1305|curve25519|curve448|sntrup\d+x25519|mlkem\d+x25519|umac|zlib|cert|gcm|ctr|etm)[a-z0-9-]*@(?:openssh\.com|libssh\.org)$/i;

/**
 * Whether the address-shaped `value` at `start`…`end` is not a person's mailbox: an SSH algorithm
 * name, a no-reply address (a `noreply` host such as `users.noreply.github.com`), or a login in an
 * SSH, scp or rsync command (`user@host:/path`, or after the command on its line).
 */
export function notAMailbox(value: string, text: string, start: number, end: number): boolean {
  if (SSH_ALGORITHM_NAME.test(value)) return true;
  if (isMessageId(text, start)) return true;
  const domain = value.slice(value.lastIndexOf("@") + 1).toLowerCase();
  if (/(?:^|\.)(?:no-?reply|do-?not-?reply)\./.test(domain)) return true;
  // scp's and rsync's `user@host:/path` (a git remote's `git@host:org/repo` is told apart already).
  if (/^:(?:\/|~|\.\/)/.test(text.slice(end, end + 3))) return true;
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  return start - lineStart <= 400 && LOGIN_COMMAND.test(text.slice(lineStart, start));
}

/** Mail headers whose value is a message's or a part's id, written `local@host` (RFC 5322 3.6.4). */
const MESSAGE_ID_HEADER =
  /^(?:(?:resent-|original-|x-(?:[\w]+-)*)?message-id|in-reply-to|references|content-id)$/i;

/** A key that names a message id in data (`"message_id": "<…@…>"`, `messageId=`). */
const MESSAGE_ID_KEY = /(?:message|msg)[_-]?id["']?\s*[:=]\s*["']?<?$/i;

/**
 * Whether the address-shaped text at `start` is a message id rather than a mailbox: the value of
 * a `Message-ID`, `In-Reply-To`, `References` or `Content-ID` header (also on the header's folded
 * continuation lines), or of a key named for a message id. Mail servers make these ids from a
 * random part and their own host name, so they look like addresses and belong to nobody.
 */
export function isMessageId(text: string, start: number): boolean {
  let lineStart = text.lastIndexOf("\n", start - 1) + 1;
  if (MESSAGE_ID_KEY.test(text.slice(Math.max(lineStart, start - 40), start))) return true;
  // A folded header continues on lines that start with white space: its name is further up.
  for (let i = 0; i < 20 && (text[lineStart] === " " || text[lineStart] === "\t"); i++) {
    if (lineStart === 0) return false;
    lineStart = text.lastIndexOf("\n", lineStart - 2) + 1;
  }
  const colon = text.indexOf(":", lineStart);
  if (colon === -1 || colon > start || colon - lineStart > 40) return false;
  return MESSAGE_ID_HEADER.test(text.slice(lineStart, colon));
}

/**
 * UK numbers Ofcom keeps for drama and documentation, national significant number (no leading 0)
 * and the length of the reserved block's fixed part.
 */
const UK_FICTION_PREFIXES = [
  "2079460", // London 020 7946 0xxx
  "1134960",
  "1144960",
  "1154960",
  "1164960",
  "1174960",
  "1184960",
  "1214960",
  "1314960",
  "1414960",
  "1514960",
  "1614960",
  "1914980",
  "2896496", // Belfast 028 9649 6xxx
  "2920180", // Cardiff 029 2018 0xxx
  "1632960",
  "7700900", // mobile 07700 900xxx
  "8081570",
  "9098790",
  "3069990",
];

/**
 * Whether a phone number lies in a range a numbering plan reserves for fiction and examples:
 * Ofcom's drama numbers for the UK (`+44 20 7946 0958`, `07700 900123`), and North America's
 * 555-0100 to 555-0199 in any layout.
 */
export function isFictionalNumber(value: string): boolean {
  const digits = value.replace(/\D/g, "");
  // North America's 555-0100 to 555-0199, however the number is written (`(415) 555-0142`,
  // `+1 415 555 0142`, `1-415-555-0142`): ten digits, or eleven after the country code 1.
  const trimmed = value.trim();
  const nanp = /^(?:\+|00)?1[^\d]/.test(trimmed) || /^1\d{10}$/.test(digits)
    ? digits.replace(/^(?:00)?1/, "")
    : /^\+/.test(trimmed)
    ? ""
    : digits;
  if (nanp.length === 10 && /^\d{3}55501\d\d$/.test(nanp)) return true;
  let national: string | null = null;
  if (/^\s*(?:\+|00)44/.test(value)) national = digits.slice(digits.startsWith("00") ? 4 : 2);
  else if (/^\s*0[1-9]/.test(value) && digits.length === 11) national = digits.slice(1);
  if (national === null || national.length !== 10) return false;
  return UK_FICTION_PREFIXES.some((prefix) => national!.startsWith(prefix));
}

const PRODUCT_CODE_NAME = /^(?:ean(?:13|8)?|gtin(?:8|12|13|14)?|upc|isbn(?:13|10)?|barcode|jan)$/i;

/**
 * Words that say a number is a record's own id (`settlement batch 4…`, `Order #5…`,
 * `tracking no. 3…`): a card number is never named so, while such ids pass Luhn one time in ten.
 */
const RECORD_ID_WORD =
  /(?:^|[^A-Za-z])(?:order|batch|invoice|tracking|shipment|parcel|consignment|booking|confirmation|receipt|ticket|case|serial|settlement|transaction|txn|reference|ref)(?:[\s_-]*(?:no\.?|nr\.?|number|num|id|#))?[\s#:=.'"]*$/i;

/** Whether the number at `start` follows a word that names it as a record's id, on its line. */
export function underRecordIdName(text: string, start: number): boolean {
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  return RECORD_ID_WORD.test(text.slice(Math.max(lineStart, start - 32), start));
}

/**
 * Whether the number at `start` is a product code by its name: after a key such as `ean`,
 * `gtin`, `upc`, `isbn` or `barcode` on its line, or in a column of a delimited file whose header
 * is such a name. An EAN-13 can pass a card's Luhn check and prefix by chance.
 */
export function underProductCodeName(text: string, start: number): boolean {
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const before = text.slice(Math.max(lineStart, start - 48), start);
  const keyed = /([A-Za-z0-9_]+)["']?\s*[:=]\s*["']?$/.exec(before);
  if (keyed && PRODUCT_CODE_NAME.test(keyed[1].replace(/^.*_/, ""))) return true;
  // A delimited file: the value's column, named by the first line.
  const headerEnd = text.indexOf("\n");
  if (lineStart === 0 || headerEnd === -1 || headerEnd > 4096) return false;
  const header = text.slice(0, headerEnd);
  for (const separator of [",", ";", "\t", "|"]) {
    if (!header.includes(separator)) continue;
    const column = text.slice(lineStart, start).split(separator).length - 1;
    const name = header.split(separator)[column]?.trim().replace(/^["']|["']$/g, "");
    if (name && PRODUCT_CODE_NAME.test(name.replace(/^.*[_ ]/, ""))) return true;
  }
  return false;
}

/** The words that introduce a phone number, longest first so that `telephone` is one word. */
const PHONE_WORD =
  /telephone|t\u00e9l\u00e9phone|tel\u00e9fono|telefono|telefone|telefon|t\u00e9l|phone|mobile|m\u00f3vil|movil|mobil|portable|cellulare|celular|contact|handy|cell|tel|fax|gsm/gi;

/** What may follow a phone word inside the same word: `phoneNumber`, `Telefonnummer`, `cellphone`. */
const PHONE_WORD_ENDINGS = new Set([
  "",
  "s",
  "e",
  "es",
  "no",
  "nr",
  "num",
  "number",
  "numbers",
  "nummer",
  "phone",
  "phones",
  "telefon",
]);

/**
 * Whether a phone word before `start` (within the 48 characters the rule looks back over) stands as
 * a word of its own or a part of a compound name (`tel`, `phone_number`, `homePhone`, `cellphone`),
 * rather than inside another word (`Hotel`, `Telemetry`, `Intel`).
 */
export function phoneWordStandsAlone(text: string, start: number): boolean {
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const before = text.slice(Math.max(lineStart, start - 48), start);
  for (const m of before.matchAll(PHONE_WORD)) {
    const at = m.index!;
    const left = before[at - 1] ?? "";
    const camel = /[a-z]/.test(left) && /[A-Z]/.test(m[0][0]);
    if (/\p{L}/u.test(left) && !camel) continue;
    const rest = /^\p{L}*/u.exec(before.slice(at + m[0].length))![0];
    // A camel-case name's next word (`mobileNumber`) or a run-on ending (`telefonnummer`).
    const ending = /^[A-Z]/.test(rest) ? rest.replace(/(?<=.)[A-Z].*$/, "") : rest;
    if (PHONE_WORD_ENDINGS.has(ending.toLowerCase())) return true;
  }
  return false;
}
