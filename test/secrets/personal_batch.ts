/**
 * A blind batch for personal data: thirty-six files of the kinds repositories and logs hold
 * (a CRM export, a support ticket, web servers' logs, a Django fixture, a SQL dump, a mailmap,
 * CODEOWNERS and AUTHORS files, package.json, a Kubernetes manifest, address books of five
 * countries, a Stripe webhook, an application log, an email thread, test fixtures, a payroll
 * export, a KYC record, a SEPA transfer, a payment gateway's debug log, code and style sheets,
 * release notes), with real personal values planted in them and look-alikes beside them. It was
 * written, with every expectation in it, before wisp was run on it.
 *
 * What is expected follows what docs/secrets.md promises: email addresses of every shape (plus
 * addressing, subdomains, addresses written in other scripts), phone numbers with `+` in any
 * country's layout, national layouts after a word that names a phone or in a phone column, valid
 * IBANs, cards of every network that pass Luhn, the national ids the scanner lists, and IP
 * addresses, private ones included. Left out, as promised: example and private-use domains,
 * no-reply and `git@host:` addresses, images' `@2x` names, loopback, link-local and documentation
 * addresses, documented test cards, example IBANs and SSNs, fiction's phone numbers. Look-alikes of
 * other kinds: versions, build numbers, OIDs, timestamps, UUIDs, hashes, order numbers, numbers
 * failing their check digit, decorators, npm scopes, CSS at-rules, message ids, coordinates and
 * durations.
 *
 * Every value is drawn fresh for each seed. A planted value is listed in `expected` with its path;
 * every occurrence of it in its file must be found, and any finding that overlaps none is a false
 * alarm.
 */
import { LOWER, rng, UPPER, Values, verhoeffPasses } from "./corpus_values.ts";

/** One real personal value the batch holds, in the file at `path`. */
export interface PlantedPersonal {
  path: string;
  value: string;
  /** The kind of value, for the report (the scanner's kind names where it has one). */
  kind: string;
}

export interface PersonalBatch {
  files: Record<string, string>;
  expected: PlantedPersonal[];
}

/** ISO 13616 lengths for the countries drawn here (written out from the registry, not imported). */
const IBAN_FORMATS: Record<string, { length: number; letters: number }> = {
  DE: { length: 22, letters: 0 },
  FR: { length: 27, letters: 0 },
  GB: { length: 22, letters: 4 },
  IE: { length: 22, letters: 4 },
  ES: { length: 24, letters: 0 },
  IT: { length: 27, letters: 1 },
  NL: { length: 18, letters: 4 },
  BE: { length: 16, letters: 0 },
  AT: { length: 20, letters: 0 },
  CH: { length: 21, letters: 0 },
  PL: { length: 28, letters: 0 },
  SE: { length: 24, letters: 0 },
  PT: { length: 25, letters: 0 },
  NO: { length: 15, letters: 0 },
  DK: { length: 18, letters: 0 },
};

/** Draws of personal values, each computed from its published rule (the tests draw from it too). */
export class People {
  constructor(readonly v: Values) {}

  first(): string {
    return this.v.pick([
      "maria",
      "jonas",
      "aiko",
      "wei",
      "fatima",
      "olusegun",
      "sven",
      "chiara",
      "rajesh",
      "elena",
      "thomas",
      "ines",
      "pieter",
      "camille",
      "diego",
      "hannah",
    ]);
  }
  last(): string {
    return this.v.pick([
      "keller",
      "okafor",
      "tanaka",
      "moreau",
      "silva",
      "novak",
      "haddad",
      "lindqvist",
      "brennan",
      "schulz",
      "garcia",
      "van-dijk",
      "rossi",
      "kowalski",
      "dubois",
      "iyer",
    ]);
  }
  cap(s: string): string {
    return s[0].toUpperCase() + s.slice(1);
  }
  name(): string {
    return `${this.cap(this.first())} ${this.cap(this.last())}`;
  }

  /** A real address, of one of many shapes. */
  email(shape?: string): string {
    const f = this.first();
    const l = this.last();
    const s = shape ??
      this.v.pick(["plain", "plus", "subdomain", "digits", "underscore", "corp", "long-tld"]);
    switch (s) {
      case "plus":
        return `${f}.${l}+${this.v.pick(["invoices", "github", "shop", "news", "2fa"])}@${
          this.v.pick(["gmail.com", "fastmail.com", "proton.me"])
        }`;
      case "subdomain":
        return `${f[0]}.${l}@${
          this.v.pick([
            "mail.uni-heidelberg.de",
            "eng.acme-corp.co.uk",
            "students.ubc.ca",
            "cs.ox.ac.uk",
            "mx.tecnologia.com.mx",
          ])
        }`;
      case "digits":
        return `${f}${l}${this.v.int(1, 99)}@${
          this.v.pick(["yahoo.co.jp", "outlook.com", "web.de", "hotmail.fr"])
        }`;
      case "underscore":
        return `${f}_${l}@${this.v.pick(["gmx.net", "orange.fr", "libero.it", "wp.pl"])}`;
      case "corp":
        return `${f}.${l}@${
          this.v.pick(["acme-corp.io", "globex.com", "initech.de", "umbrella.fr"])
        }`;
      case "long-tld":
        return `${f}@${l}.${this.v.pick(["photography", "consulting", "berlin", "studio"])}`;
      case "upper":
        return `${this.cap(f)}.${this.cap(l)}@${this.v.pick(["Contoso.com", "Fabrikam.NET"])}`;
      case "idn-local":
        return `${
          this.v.pick(["jürgen.müller", "josé.garcía", "françoise.lefèvre", "zoë.brennan"])
        }@${this.v.pick(["gmx.de", "correo.es", "laposte.net", "posteo.de"])}`;
      case "idn-domain":
        return `${f}@${this.v.pick(["müller-bäckerei.de", "bücherstube.at", "café-olé.fr"])}`;
      case "idn-script":
        return this.v.pick(["用户", "山田太郎", "иван.петров"]) +
          `@${this.v.pick(["例子.中国", "пример.рф", "メール.日本"])}`;
      default:
        return `${f}.${l}@${this.v.pick(["gmail.com", "outlook.com", "icloud.com", "proton.me"])}`;
    }
  }

  /** Eight digits whose last eight are no filler. */
  private tail(n: number): string {
    for (;;) {
      const d = this.v.digits(n);
      if (new Set(d).size >= Math.min(4, n - 1)) return d;
    }
  }

  /** A North American number's ten digits: area and exchange 2xx-9xx, no 555, no N11. */
  nanp(): [string, string, string] {
    const part = () => {
      for (;;) {
        const x = String(this.v.int(201, 989));
        if (x !== "555" && !x.endsWith("11")) return x;
      }
    };
    return [part(), part(), this.tail(4)];
  }

  /** A phone number written with its country code. */
  intl(country?: string): string {
    const c = country ??
      this.v.pick(["DE", "FR", "ES", "GB", "US", "IT", "NL", "IN", "JP", "BR", "AU"]);
    const t = (n: number) => this.tail(n);
    switch (c) {
      case "DE":
        return this.v.pick([
          () => `+49 ${this.v.pick(["151", "160", "171", "176"])} ${t(8)}`,
          () => `+49 30 ${t(8)}`,
          () => `+49 (0)89 ${t(7)}`,
          () => `+49${this.v.pick(["151", "172"])}${t(8)}`,
        ])();
      case "FR":
        return this.v.pick([
          () => `+33 6 ${t(2)} ${t(2)} ${t(2)} ${t(2)}`,
          () => `+33 1 ${t(2)} ${t(2)} ${t(2)} ${t(2)}`,
          () => `+33${this.v.pick(["6", "7"])}${t(8)}`,
        ])();
      case "ES":
        return `+34 ${this.v.pick(["6", "7"])}${t(2)} ${t(3)} ${t(3)}`;
      case "GB":
        return this.v.pick([
          () => `+44 7${this.v.int(400, 699)} ${t(6)}`,
          () => `+44 20 3${t(3)} ${t(4)}`,
          () => `+447${this.v.int(400, 699)}${t(6)}`,
        ])();
      case "US": {
        const [a, b, n] = this.nanp();
        return this.v.pick([
          `+1 ${a}-${b}-${n}`,
          `+1 (${a}) ${b}-${n}`,
          `+1${a}${b}${n}`,
          `+1.${a}.${b}.${n}`,
        ]);
      }
      case "IT":
        return `+39 3${this.v.int(20, 49)} ${t(3)} ${t(4)}`;
      case "NL":
        return `+31 6 ${t(8)}`;
      case "IN":
        return `+91 ${this.v.int(70, 99)}${t(3)} ${t(5)}`;
      case "JP":
        return `+81 90-${t(4)}-${t(4)}`;
      case "BR":
        return `+55 11 9${t(4)}-${t(4)}`;
      default:
        return `+61 4${t(2)} ${t(3)} ${t(3)}`;
    }
  }

  /** A number in its country's national layout (no country code). */
  national(country: string): string {
    const t = (n: number) => this.tail(n);
    switch (country) {
      case "DE":
        return this.v.pick([`0151 ${t(8)}`, `030 ${t(8)}`, `0171/${t(7)}`, `(089) ${t(7)}`]);
      case "FR":
        return `0${this.v.pick(["6", "1", "7", "4"])} ${t(2)} ${t(2)} ${t(2)} ${t(2)}`;
      case "ES":
        return `${this.v.pick(["6", "9"])}${t(2)} ${t(2)} ${t(2)} ${t(2)}`;
      case "GB":
        return this.v.pick([`07${this.v.int(400, 699)} ${t(6)}`, `020 3${t(3)} ${t(4)}`]);
      case "IT":
        return `3${this.v.int(20, 49)} ${t(3)} ${t(4)}`;
      default: {
        const [a, b, n] = this.nanp();
        return this.v.pick([`(${a}) ${b}-${n}`, `${a}-${b}-${n}`, `${a}.${b}.${n}`]);
      }
    }
  }

  /** A valid IBAN of `country`, compact or in groups of four. */
  iban(country?: string, spaced?: boolean): string {
    const cc = country ?? this.v.pick(Object.keys(IBAN_FORMATS));
    const { length, letters } = IBAN_FORMATS[cc];
    let bban = this.v.chars(UPPER, letters) + this.tail(length - 4 - letters);
    // A bank code and an account number hold no run of ten zeros.
    bban = bban.replace(/0{6,}/g, (z) => "7".repeat(z.length));
    const check = String(98 - mod97(bban + cc + "00")).padStart(2, "0");
    const compact = cc + check + bban;
    const groups = spaced ?? this.v.int(0, 1) === 1;
    return groups ? compact.replace(/(.{4})/g, "$1 ").trim() : compact;
  }

  /** An IBAN-shaped string whose check digits are wrong. */
  badIban(country?: string): string {
    const good = this.iban(country, false);
    const wrong = String((Number(good.slice(2, 4)) + this.v.int(1, 40)) % 97 + 2).padStart(2, "0");
    return good.slice(0, 2) + (wrong === good.slice(2, 4) ? "01" : wrong) + good.slice(4);
  }

  luhn(prefix: string, length: number): string {
    for (;;) {
      const body = prefix + this.v.digits(length - prefix.length - 1);
      for (let d = 0; d <= 9; d++) {
        const n = body + d;
        if (luhnSum(n) % 10 === 0 && new Set(n).size >= 5 && !/0{5}/.test(n)) return n;
      }
    }
  }

  /** A card number of a real network, as it is printed. */
  card(brand?: string, style?: string): string {
    const b = brand ??
      this.v.pick(["visa", "mastercard", "mc2", "amex", "discover", "jcb", "diners", "unionpay"]);
    const [prefix, length] = {
      visa: ["4", 16],
      mastercard: [String(this.v.int(51, 55)), 16],
      mc2: [String(this.v.int(2221, 2720)), 16],
      amex: [this.v.pick(["34", "37"]), 15],
      discover: [this.v.pick(["6011", "65"]), 16],
      jcb: [String(this.v.int(3528, 3589)), 16],
      diners: [this.v.pick(["36", "38"]), 14],
      unionpay: ["62" + this.v.int(0, 1), 16],
    }[b] as [string, number];
    const n = this.luhn(prefix, length);
    const s = style ?? this.v.pick(["plain", "spaced", "dashed"]);
    if (s === "plain") return n;
    const sep = s === "spaced" ? " " : "-";
    if (length === 15) return `${n.slice(0, 4)}${sep}${n.slice(4, 10)}${sep}${n.slice(10)}`;
    if (length === 14) return `${n.slice(0, 4)}${sep}${n.slice(4, 10)}${sep}${n.slice(10)}`;
    return n.replace(/(\d{4})(?=\d)/g, `$1${sep}`);
  }

  /** Sixteen digits that fail Luhn (an order or reference number). */
  notACard(): string {
    for (;;) {
      const n = String(this.v.int(4, 5)) + this.v.digits(15);
      if (luhnSum(n) % 10 !== 0) return n;
    }
  }

  ssn(): string {
    for (;;) {
      const area = this.v.int(1, 899);
      if (area === 666) continue;
      return `${String(area).padStart(3, "0")}-${String(this.v.int(1, 99)).padStart(2, "0")}-${
        String(this.v.int(1, 9999)).padStart(4, "0")
      }`;
    }
  }

  nino(compact = false): string {
    for (;;) {
      const a = this.v.pick([..."ABCEGHJKLMNOPRSTWXYZ"]);
      const b = this.v.pick([..."ABCEGHJKLMNPRSTWXYZ"]);
      if (["BG", "GB", "NK", "KN", "TN", "NT", "ZZ"].includes(a + b)) continue;
      const d = this.v.digits(6);
      const s = this.v.pick(["A", "B", "C", "D"]);
      return compact
        ? `${a}${b}${d}${s}`
        : `${a}${b} ${d.slice(0, 2)} ${d.slice(2, 4)} ${d.slice(4)} ${s}`;
    }
  }

  dni(): string {
    const n = this.v.int(10_000_000, 99_999_999);
    return `${n}${"TRWAGMYFPDXBNJZSQVHLCKE"[n % 23]}`;
  }

  nie(): string {
    const lead = this.v.int(0, 2);
    const n = this.v.int(1_000_000, 9_999_999);
    return `${"XYZ"[lead]}${n}${"TRWAGMYFPDXBNJZSQVHLCKE"[Number(`${lead}${n}`) % 23]}`;
  }

  bsn(): string {
    for (;;) {
      const d = String(this.v.int(1, 9)) + this.v.digits(7);
      let sum = 0;
      for (let i = 0; i < 8; i++) sum += (9 - i) * Number(d[i]);
      const last = sum % 11;
      if (last <= 9) return d + last;
    }
  }

  personnummer(): string {
    const yy = String(this.v.int(40, 99));
    const mm = String(this.v.int(1, 12)).padStart(2, "0");
    const dd = String(this.v.int(1, 28)).padStart(2, "0");
    const nine = `${yy}${mm}${dd}${this.v.digits(3)}`;
    let check = 0;
    while (luhnSum(nine + check) % 10 !== 0) check++;
    return `${this.v.pick(["19", ""])}${nine.slice(0, 6)}-${nine.slice(6)}${check}`;
  }

  nir(): string {
    const body = `${this.v.int(1, 2)}${this.v.digits(2)}${
      String(this.v.int(1, 12)).padStart(2, "0")
    }${String(this.v.int(1, 95)).padStart(2, "0")}${this.v.digits(6)}`;
    let r = 0;
    for (const d of body) r = (r * 10 + Number(d)) % 97;
    const key = String(97 - r).padStart(2, "0");
    return `${body[0]} ${body.slice(1, 3)} ${body.slice(3, 5)} ${body.slice(5, 7)} ${
      body.slice(7, 10)
    } ${body.slice(10)} ${key}`;
  }

  aadhaar(): string {
    for (;;) {
      const n = String(this.v.int(2, 9)) + this.v.digits(11);
      if (verhoeffPasses(n)) return `${n.slice(0, 4)} ${n.slice(4, 8)} ${n.slice(8)}`;
    }
  }

  sin(): string {
    const n = this.luhn(String(this.v.pick([1, 2, 3, 4, 5, 6, 7, 9])), 9);
    return `${n.slice(0, 3)} ${n.slice(3, 6)} ${n.slice(6)}`;
  }

  /** A public IPv4 address (none of the reserved or documentation blocks). */
  ipv4(): string {
    const first = this.v.pick([
      24,
      31,
      37,
      46,
      62,
      77,
      81,
      85,
      91,
      93,
      104,
      109,
      134,
      146,
      176,
      185,
      212,
      217,
    ]);
    return `${first}.${this.v.int(0, 255)}.${this.v.int(0, 255)}.${this.v.int(1, 254)}`;
  }

  /** A private IPv4 address: reported, as the docs promise. */
  privateIpv4(): string {
    return this.v.pick([
      () => `10.${this.v.int(0, 255)}.${this.v.int(0, 255)}.${this.v.int(2, 254)}`,
      () => `172.${this.v.int(16, 31)}.${this.v.int(0, 255)}.${this.v.int(2, 254)}`,
      () => `192.168.${this.v.int(0, 255)}.${this.v.int(2, 254)}`,
    ])();
  }

  /** A public IPv6 address, compressed or written out. */
  ipv6(): string {
    const g = () => this.v.hex(4).replace(/^0+(?=.)/, "");
    return this.v.pick([
      () => `2a02:${g()}:${g()}:${g()}::${g()}`,
      () => `2001:4860:${g()}:${g()}::${g()}`,
      () => `2600:1f18:${g()}:${g()}:${g()}:${g()}:${g()}:${g()}`,
      () => `2a01:4f8:${g()}:${g()}::1`,
    ])();
  }
}

function mod97(alnum: string): number {
  let r = 0;
  for (const ch of alnum) {
    const piece = /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of piece) r = (r * 10 + Number(d)) % 97;
  }
  return r;
}

function luhnSum(n: string): number {
  let sum = 0;
  for (let i = 0; i < n.length; i++) {
    let d = Number(n[n.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum;
}

/** The batch for one seed. */
export function personalBatch(seed: number): PersonalBatch {
  const v = new Values(rng(seed * 104729 + 61));
  const p = new People(v);
  const files: Record<string, string> = {};
  const expected: PlantedPersonal[] = [];
  /** Plants a real value in `path` and returns it for the text. */
  const real = (path: string, kind: string, value: string): string => {
    if (!expected.some((e) => e.path === path && e.value === value)) {
      expected.push({ path, value, kind });
    }
    return value;
  };
  const date = () =>
    `20${v.int(19, 26)}-${String(v.int(1, 12)).padStart(2, "0")}-${
      String(v.int(1, 28)).padStart(2, "0")
    }`;
  const time = () =>
    `${String(v.int(0, 23)).padStart(2, "0")}:${String(v.int(0, 59)).padStart(2, "0")}:${
      String(v.int(0, 59)).padStart(2, "0")
    }`;
  const epoch = () => v.int(1_600_000_000, 1_790_000_000);
  const sha = () => v.hex(40);
  const uuid = () => v.uuid();
  const chrome = () => `Chrome/${v.int(110, 131)}.0.0.0`;
  const ua = () =>
    v.pick([
      `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) ${chrome()} Safari/537.36`,
      `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.${
        v.int(1, 6)
      } Safari/605.1.15`,
      `Mozilla/5.0 (X11; Linux x86_64; rv:${v.int(115, 133)}.0) Gecko/20100101 Firefox/${
        v.int(115, 133)
      }.0`,
      `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) ${chrome()} Mobile Safari/537.36`,
      `curl/8.${v.int(1, 11)}.${v.int(0, 3)}`,
      `python-requests/2.${v.int(25, 32)}.${v.int(0, 3)}`,
    ]);

  // --- 1. a CRM export --------------------------------------------------------------------------
  {
    const path = "exports/crm_contacts_2026-11.csv";
    const rows = [
      "id,first_name,last_name,email,phone,company,country,created_at,lead_score,last_ip",
    ];
    for (let i = 0; i < 8; i++) {
      const country = v.pick(["DE", "FR", "ES", "GB", "US", "IT"]);
      const f = p.cap(p.first());
      const l = p.cap(p.last());
      const email = real(path, "email", p.email());
      const phone = real(
        path,
        "phone",
        v.int(0, 1) ? p.national(country) : p.intl(country),
      );
      const ip = real(path, "ip-address", p.ipv4());
      const company = v.pick([
        "Globex GmbH",
        "Initech SARL",
        "Umbrella S.L.",
        "Hooli Ltd",
        '"Acme, Inc."',
      ]);
      rows.push(
        `${
          10400 + i * v.int(1, 9)
        },${f},${l},${email},${phone},${company},${country},${date()}T${time()}Z,${
          v.int(0, 100)
        },${ip}`,
      );
    }
    rows.push(
      `10999,Test,User,test.user@example.com,+1 555 0100,QA,US,${date()}T${time()}Z,0,127.0.0.1`,
    );
    files[path] = rows.join("\n") + "\n";
  }

  // --- 2. a support ticket ------------------------------------------------------------------------
  {
    const path = "support/tickets/48213.json";
    const email = real(path, "email", p.email("plus"));
    const phone = real(path, "phone", p.intl("GB"));
    const card = real(path, "credit-card", p.card(undefined, "spaced"));
    const iban = real(path, "iban", p.iban(undefined, true));
    const ip = real(path, "ip-address", p.ipv4());
    files[path] = JSON.stringify(
      {
        ticket: {
          id: v.int(40000, 99999),
          external_id: uuid(),
          created_at: `${date()}T${time()}Z`,
          subject: "Charged twice for order #" + v.int(100000, 999999),
          description:
            `Hi, I was charged twice on my card ${card} for the same order. Please refund to my account ${iban}. You can reach me on ${phone}. Thanks!`,
          requester: { name: p.name(), email, locale: "en-GB", time_zone: "Europe/London" },
          via: { channel: "web", source: { rel: null } },
          metadata: {
            system: { client: ua(), ip_address: ip, latitude: 51.5074, longitude: -0.1278 },
          },
          tags: ["billing", "refund", "priority-p2"],
          satisfaction_rating: { score: "unoffered" },
          brand_id: v.int(360000000000, 369999999999),
          sla: { policy: "P2", breach_at: `${date()}T${time()}Z` },
        },
      },
      null,
      2,
    ) + "\n";
  }

  // --- 3. an nginx access log ---------------------------------------------------------------------
  {
    const path = "logs/nginx/access.log";
    const lines: string[] = [];
    for (let i = 0; i < 10; i++) {
      const client = real(
        path,
        "ip-address",
        v.pick([() => p.ipv4(), () => p.ipv4(), () => p.ipv6(), () => p.privateIpv4()])(),
      );
      const req = v.pick([
        `GET /static/img/logo@2x.png HTTP/1.1`,
        `GET /api/v2/orders/${v.int(100000, 999999)}?include=items HTTP/2.0`,
        `POST /graphql HTTP/2.0`,
        `GET /assets/app.${v.hex(8)}.js HTTP/1.1`,
        `GET /health HTTP/1.1`,
        `GET /releases/download/v1.${v.int(2, 9)}.${v.int(0, 9)}.${
          v.int(0, 9)
        }/cli.tar.gz HTTP/1.1`,
      ]);
      lines.push(
        `${client} - - [${
          String(v.int(1, 28)).padStart(2, "0")
        }/Nov/2026:${time()} +0000] "${req}" ${v.pick([200, 200, 304, 404, 499])} ${
          v.int(0, 90000)
        } "${
          v.pick(["-", "https://www.google.com/", "https://acme-corp.io/checkout"])
        }" "${ua()}" rt=${v.int(0, 2)}.${v.digits(3)} uct="0.${v.digits(3)}" upstream=127.0.0.1:${
          v.int(3000, 9000)
        }`,
      );
    }
    files[path] = lines.join("\n") + "\n";
  }

  // --- 4. an Apache error log and sshd's auth log ---------------------------------------------
  {
    const path = "logs/apache2/error.log";
    const lines: string[] = [];
    for (let i = 0; i < 5; i++) {
      const client = real(path, "ip-address", p.ipv4());
      lines.push(
        `[Tue Nov ${v.int(10, 28)} ${time()}.${v.digits(6)} 2026] [php:error] [pid ${
          v.int(1000, 65000)
        }:tid ${v.int(100000000000, 999999999999)}] [client ${client}:${
          v.int(1024, 65535)
        }] PHP Fatal error:  Uncaught TypeError: count(): Argument #1 must be of type Countable in /var/www/html/wp-content/plugins/forms/v4.2.1.3/render.php:${
          v.int(10, 900)
        }`,
      );
    }
    lines.push(
      `[Tue Nov 11 ${time()}.${
        v.digits(6)
      } 2026] [mpm_event:notice] [pid 1021:tid 140245] AH00489: Apache/2.4.58 (Ubuntu) OpenSSL/3.0.13 configured -- resuming normal operations`,
    );
    files[path] = lines.join("\n") + "\n";

    const auth = "logs/auth.log";
    const a: string[] = [];
    for (let i = 0; i < 4; i++) {
      const ip = real(auth, "ip-address", v.pick([() => p.ipv4(), () => p.ipv6()])());
      a.push(
        `Nov ${v.int(10, 28)} ${time()} web-01 sshd[${v.int(1000, 60000)}]: ${
          v.pick([
            `Failed password for invalid user admin from ${ip} port ${v.int(1024, 65535)} ssh2`,
            `Accepted publickey for deploy from ${ip} port ${
              v.int(1024, 65535)
            } ssh2: ED25519 SHA256:${v.mixed(UPPER + LOWER + "0123456789+/", 43)}`,
            `Connection closed by authenticating user root ${ip} port ${
              v.int(1024, 65535)
            } [preauth]`,
          ])
        }`,
      );
    }
    a.push(
      `Nov 28 ${time()} web-01 sshd[1022]: Server listening on 0.0.0.0 port 22.`,
      `Nov 28 ${time()} web-01 sshd[1022]: Server listening on :: port 22.`,
      `Nov 28 ${time()} web-01 sudo: deploy : TTY=pts/0 ; PWD=/home/deploy ; USER=root ; COMMAND=/usr/bin/systemctl restart app`,
    );
    files[auth] = a.join("\n") + "\n";
  }

  // --- 5. a Django fixture ----------------------------------------------------------------------
  {
    const path = "app/accounts/fixtures/staff.json";
    const entries = [];
    for (let i = 1; i <= 3; i++) {
      entries.push({
        model: "accounts.user",
        pk: i,
        fields: {
          password: `pbkdf2_sha256$720000$${v.chars(UPPER + LOWER, 22)}$${
            v.mixed(UPPER + LOWER + "0123456789+/", 43)
          }=`,
          last_login: `${date()}T${time()}.${v.digits(6)}Z`,
          is_superuser: i === 1,
          username: p.first() + i,
          first_name: p.cap(p.first()),
          last_name: p.cap(p.last()),
          email: real(path, "email", p.email(v.pick(["corp", "plain", "subdomain"]))),
          phone_number: real(path, "phone", p.intl()),
          date_joined: `${date()}T${time()}Z`,
          last_login_ip: real(path, "ip-address", p.ipv4()),
          groups: [],
          user_permissions: [],
        },
      });
    }
    entries.push({
      model: "accounts.user",
      pk: 99,
      fields: {
        username: "ci-bot",
        email: "ci-bot@users.noreply.github.com",
        phone_number: "",
        last_login_ip: "127.0.0.1",
        date_joined: `${date()}T${time()}Z`,
      },
    });
    files[path] = JSON.stringify(entries, null, 2) + "\n";
  }

  // --- 6. a MySQL dump of a users table -----------------------------------------------------------
  {
    const path = "db/backups/shop_2026-11-30.sql";
    const rows: string[] = [];
    for (let i = 1; i <= 6; i++) {
      const email = real(path, "email", p.email());
      const [a, b, n] = p.nanp();
      const phone = real(path, "phone", v.pick([`(${a}) ${b}-${n}`, `${a}-${b}-${n}`, p.intl()]));
      const ip = real(path, "ip-address", p.ipv4());
      rows.push(
        `(${i},'${email}','$2y$10$${
          v.mixed(UPPER + LOWER + "0123456789./", 53)
        }','${phone}','${ip}','${date()} ${time()}',${v.int(0, 1)},${v.int(1, 500)}.${
          v.digits(2)
        })`,
      );
    }
    const ssn = real(path, "us-ssn", p.ssn());
    const card = real(path, "credit-card", p.card(undefined, "plain"));
    files[path] = `-- MySQL dump 10.13  Distrib 8.0.36, for Linux (x86_64)
--
-- Host: 127.0.0.1    Database: shop
-- ------------------------------------------------------
-- Server version\t8.0.36-0ubuntu0.22.04.1

/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
/*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE */;
/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;

DROP TABLE IF EXISTS \`users\`;
CREATE TABLE \`users\` (
  \`id\` int unsigned NOT NULL AUTO_INCREMENT,
  \`email\` varchar(191) NOT NULL,
  \`password\` varchar(255) NOT NULL,
  \`phone\` varchar(32) DEFAULT NULL,
  \`last_ip\` varchar(45) DEFAULT NULL,
  \`created_at\` timestamp NULL DEFAULT NULL,
  \`verified\` tinyint(1) NOT NULL DEFAULT '0',
  \`balance\` decimal(10,2) NOT NULL DEFAULT '0.00',
  PRIMARY KEY (\`id\`),
  UNIQUE KEY \`users_email_unique\` (\`email\`)
) ENGINE=InnoDB AUTO_INCREMENT=${
      v.int(1000, 9000)
    } DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

LOCK TABLES \`users\` WRITE;
INSERT INTO \`users\` VALUES ${rows.join(",")};
UNLOCK TABLES;

DROP TABLE IF EXISTS \`legacy_payments\`;
INSERT INTO \`legacy_payments\` (id, order_no, card_number, holder_ssn, amount) VALUES (1,'${p.notACard()}','${card}','${ssn}',${
      v.int(10, 900)
    }.${v.digits(2)});

/*!40103 SET TIME_ZONE=@OLD_TIME_ZONE */;
-- Dump completed on ${date()} ${time()}
`;
  }

  // --- 7. .mailmap, CODEOWNERS, AUTHORS ---------------------------------------------------------
  {
    const mm = ".mailmap";
    const lines: string[] = [];
    for (let i = 0; i < 4; i++) {
      const name = p.name();
      const now = real(mm, "email", p.email(v.pick(["corp", "plain", "digits"])));
      const old = real(mm, "email", p.email(v.pick(["subdomain", "underscore"])));
      lines.push(`${name} <${now}> <${old}>`);
    }
    lines.push(
      `${p.name()} <${
        real(mm, "email", p.email("plain"))
      }> <${p.first()}@${p.first()}-laptop.local>`,
      `dependabot[bot] <${v.int(10000000, 99999999)}+dependabot[bot]@users.noreply.github.com>`,
      `${p.name()} <${v.int(1000000, 9999999)}+${p.first()}@users.noreply.github.com>`,
    );
    files[mm] = lines.join("\n") + "\n";

    const co = ".github/CODEOWNERS";
    files[co] = `# Each line is a file pattern followed by one or more owners.
*                       @acme/platform-team
/docs/                  @acme/docs ${real(co, "email", p.email("corp"))}
/src/payments/          @${p.first()}-${p.last()} @acme/payments
*.tf                    @acme/infra
/.github/workflows/     @acme/platform-team @${p.first()}${v.int(1, 99)}
/packages/@acme/ui/     @acme/frontend
`;

    const au = "AUTHORS";
    const al = [
      "# This is the list of significant contributors.",
      "#",
      "# Names should be added as:",
      "#   Name <email address>",
      "",
    ];
    for (let i = 0; i < 5; i++) {
      al.push(`${p.name()} <${real(au, "email", p.email())}>`);
    }
    al.push(`${p.name()} <${real(au, "email", p.email("idn-local"))}>`);
    al.push(`Acme Corporation <opensource@example.com>`);
    files[au] = al.join("\n") + "\n";
  }

  // --- 8. package.json --------------------------------------------------------------------------
  {
    const path = "package.json";
    const author = real(path, "email", p.email("long-tld"));
    const c1 = real(path, "email", p.email("plus"));
    const c2 = real(path, "email", p.email("idn-domain"));
    files[path] = `{
  "name": "@acme/checkout-widget",
  "version": "4.${v.int(0, 20)}.${v.int(0, 30)}",
  "description": "Embeddable checkout for acme shops",
  "author": "${p.name()} <${author}> (https://${p.last()}.dev)",
  "contributors": [
    { "name": "${p.name()}", "email": "${c1}" },
    "${p.name()} <${c2}>"
  ],
  "repository": { "type": "git", "url": "git+ssh://git@github.com/acme/checkout-widget.git" },
  "bugs": { "url": "https://github.com/acme/checkout-widget/issues" },
  "engines": { "node": ">=18.17.0 <23", "npm": ">=9" },
  "scripts": {
    "build": "tsc -p . && vite build",
    "release": "npx semantic-release@24.2.0"
  },
  "dependencies": {
    "@stripe/stripe-js": "^4.${v.int(0, 9)}.0",
    "@types/node": "^20.${v.int(10, 17)}.${v.int(0, 9)}",
    "lodash": "~4.17.21",
    "react": "npm:@preact/compat@^17.1.2",
    "ua-parser-js": "1.0.${v.int(30, 39)}"
  },
  "devDependencies": { "@babel/core": "7.${v.int(20, 26)}.${v.int(0, 9)}", "typescript": "5.6.3" },
  "packageManager": "pnpm@9.${v.int(0, 15)}.${v.int(0, 9)}+sha512.${v.hex(64)}"
}
`;
  }

  // --- 9. a Kubernetes manifest -------------------------------------------------------------------
  {
    const path = "deploy/k8s/api-service.yaml";
    const cluster = real(path, "ip-address", `10.96.${v.int(0, 255)}.${v.int(2, 254)}`);
    const lb = real(path, "ip-address", p.ipv4());
    files[path] = `apiVersion: v1
kind: Service
metadata:
  name: api
  namespace: shop
  labels:
    app.kubernetes.io/name: api
    app.kubernetes.io/version: "3.${v.int(0, 9)}.${v.int(0, 20)}"
  annotations:
    prometheus.io/port: "9102"
    service.beta.kubernetes.io/aws-load-balancer-type: nlb
spec:
  type: LoadBalancer
  clusterIP: ${cluster}
  loadBalancerIP: ${lb}
  loadBalancerSourceRanges:
    - 203.0.113.0/24
    - 198.51.100.0/24
  ports:
    - name: https
      port: 443
      targetPort: 8443
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 3
  template:
    spec:
      containers:
        - name: api
          image: ghcr.io/acme/api@sha256:${v.hex(64)}
          args: ["--listen=0.0.0.0:8443", "--metrics=127.0.0.1:9102"]
          resources:
            requests: { cpu: 250m, memory: 256Mi }
          livenessProbe:
            httpGet: { path: /healthz, port: 8443 }
            initialDelaySeconds: 10
          env:
            - name: OTEL_EXPORTER_OTLP_ENDPOINT
              value: http://169.254.169.254:4317
            - name: BUILD_ID
              value: "${v.int(20240101, 20261231)}.${v.int(1, 9)}"
`;
  }

  // --- 10. address books (vCard) of five countries ------------------------------------------------
  {
    const de = "contacts/de.vcf";
    const fr = "contacts/fr.vcf";
    const es = "contacts/es.vcf";
    const uk = "contacts/uk.vcf";
    const us = "contacts/us.vcf";
    const card = (
      path: string,
      country: string,
      extra: string[],
    ) =>
      [
        "BEGIN:VCARD",
        "VERSION:3.0",
        `N:${p.cap(p.last())};${p.cap(p.first())};;;`,
        `FN:${p.name()}`,
        `EMAIL;TYPE=INTERNET,HOME:${real(path, "email", p.email())}`,
        `TEL;TYPE=CELL:${real(path, "phone", p.national(country))}`,
        `TEL;TYPE=WORK,VOICE:${real(path, "phone", p.intl(country))}`,
        `UID:${uuid()}`,
        `REV:${date().replace(/-/g, "")}T${time().replace(/:/g, "")}Z`,
        ...extra,
        "END:VCARD",
      ].join("\r\n");
    files[de] = [
      card(de, "DE", [
        `ADR;TYPE=HOME:;;Lindenstraße ${v.int(1, 120)};Berlin;;${v.int(10115, 14199)};Germany`,
        `NOTE:Konto ${real(de, "iban", p.iban("DE", true))}`,
        `BDAY:19${v.int(50, 99)}-0${v.int(1, 9)}-1${v.int(0, 9)}`,
      ]),
      card(de, "DE", [
        `item1.EMAIL;TYPE=INTERNET:${real(de, "email", p.email("idn-local"))}`,
        `X-ABLabel:Telefon privat`,
      ]),
    ].join("\r\n") + "\r\n";
    files[fr] = [
      card(fr, "FR", [
        `ADR;TYPE=WORK:;;${v.int(1, 99)} rue de Rivoli;Paris;;750${v.int(10, 20)};France`,
        `NOTE:NIR ${real(fr, "fr-nir", p.nir())}`,
      ]),
      card(fr, "FR", [
        `X-SOCIALPROFILE;TYPE=linkedin:https://www.linkedin.com/in/${p.first()}-${p.last()}`,
      ]),
    ].join("\r\n") + "\r\n";
    files[es] = [
      card(es, "ES", [
        `NOTE:DNI ${real(es, "es-dni", p.dni())} / IBAN ${real(es, "iban", p.iban("ES", true))}`,
        `GEO:geo:40.4168,-3.7038`,
      ]),
      card(es, "ES", [`NOTE:NIE ${real(es, "es-dni", p.nie())}`]),
    ].join("\r\n") + "\r\n";
    files[uk] = [
      card(uk, "GB", [
        `NOTE:NI number ${real(uk, "uk-nino", p.nino())}`,
        `ADR;TYPE=HOME:;;${v.int(1, 200)} Baker Street;London;;NW1 6XE;United Kingdom`,
      ]),
      card(uk, "GB", [`NOTE:Drama number for the pilot: 020 7946 0${v.digits(3)}`]),
    ].join("\r\n") + "\r\n";
    files[us] = [
      card(us, "US", [
        `NOTE:SSN ${real(us, "us-ssn", p.ssn())}`,
        `ADR;TYPE=HOME:;;${v.int(100, 9999)} Market St;San Francisco;CA;94103;USA`,
      ]),
      card(us, "US", [`TEL;TYPE=FAX:(${v.int(201, 989)}) 555-01${v.digits(2)}`]),
    ].join("\r\n") + "\r\n";
  }

  // --- 11. a Stripe webhook payload ----------------------------------------------------------------
  {
    const path = "webhooks/fixtures/charge.succeeded.json";
    const email = real(path, "email", p.email());
    const phone = real(path, "phone", p.intl(v.pick(["US", "DE", "FR"])));
    const ip = real(path, "ip-address", p.ipv4());
    files[path] = JSON.stringify(
      {
        id: `evt_3${v.mixed(UPPER + LOWER + "0123456789", 23)}`,
        object: "event",
        api_version: "2024-06-20",
        created: epoch(),
        data: {
          object: {
            id: `ch_3${v.mixed(UPPER + LOWER + "0123456789", 23)}`,
            object: "charge",
            amount: v.int(500, 99999),
            amount_captured: v.int(500, 99999),
            billing_details: {
              address: {
                city: "Austin",
                country: "US",
                line1: `${v.int(1, 999)} Congress Ave`,
                postal_code: "78701",
                state: "TX",
              },
              email,
              name: p.name(),
              phone,
            },
            created: epoch(),
            currency: "usd",
            payment_method_details: {
              card: {
                brand: "visa",
                checks: { address_line1_check: "pass", cvc_check: "pass" },
                country: "US",
                exp_month: v.int(1, 12),
                exp_year: v.int(2027, 2032),
                fingerprint: v.chars(UPPER + LOWER, 16),
                funding: "credit",
                last4: v.digits(4),
                network: "visa",
                network_transaction_id: String(v.int(1, 2)) + v.digits(14),
              },
              type: "card",
            },
            receipt_number: `${v.int(1000, 9999)}-${v.int(1000, 9999)}`,
            receipt_url: `https://pay.stripe.com/receipts/payment/${
              v.mixed(UPPER + LOWER + "0123456789", 60)
            }`,
            mandate: { customer_acceptance: { online: { ip_address: ip, user_agent: ua() } } },
          },
        },
        livemode: true,
        pending_webhooks: 1,
        request: {
          id: `req_${v.mixed(UPPER + LOWER + "0123456789", 14)}`,
          idempotency_key: uuid(),
        },
        type: "charge.succeeded",
      },
      null,
      2,
    ) + "\n";
  }

  // --- 12. an application log (Rails and JSON lines) -----------------------------------------------
  {
    const path = "log/production.log";
    const lines: string[] = [];
    for (let i = 0; i < 5; i++) {
      const ip = real(path, "ip-address", v.pick([() => p.ipv4(), () => p.ipv6()])());
      lines.push(
        `I, [${date()}T${time()}.${v.digits(6)} #${
          v.int(1000, 9999)
        }]  INFO -- : [${uuid()}] Started ${
          v.pick(["GET", "POST"])
        } "/account/settings" for ${ip} at ${date()} ${time()} +0100`,
        `I, [${date()}T${time()}.${v.digits(6)} #${
          v.int(1000, 9999)
        }]  INFO -- : [${uuid()}] Completed 200 OK in ${v.int(5, 900)}ms (Views: ${v.int(1, 99)}.${
          v.digits(1)
        }ms | ActiveRecord: ${v.int(1, 99)}.${v.digits(1)}ms | Allocations: ${v.int(1000, 90000)})`,
      );
    }
    const email = real(path, "email", p.email());
    lines.push(
      JSON.stringify({
        ts: `${date()}T${time()}.${v.digits(3)}Z`,
        level: "warn",
        msg: "password reset requested",
        user_email: email,
        remote_addr: real(path, "ip-address", p.ipv4()),
        request_id: uuid(),
        trace_id: v.hex(32),
        span_id: v.hex(16),
        duration_ms: v.int(1, 900),
        version: `2.${v.int(0, 20)}.${v.int(0, 9)}`,
        build: `${v.int(20240101, 20261231)}.${v.int(1, 9)}`,
        commit: sha(),
      }),
      `W, [${date()}T${time()}.${
        v.digits(6)
      } #1021]  WARN -- : Rack::Attack throttled 0.0.0.0/0 after ${
        v.int(100, 999)
      } requests in 60s; heap=${v.int(100, 900)}MB gc=+${v.int(10, 99)}ms`,
    );
    files[path] = lines.join("\n") + "\n";
  }

  // --- 13. an email thread (.eml headers) ------------------------------------------------------------
  {
    const path = "support/inbox/refund-thread.eml";
    const from = real(path, "email", p.email());
    const to = real(path, "email", p.email("corp"));
    const cc = real(path, "email", p.email("subdomain"));
    const relay = real(path, "ip-address", p.ipv4());
    const origin = real(path, "ip-address", p.ipv4());
    const mobile = real(path, "phone", p.intl("GB"));
    const landline = real(path, "phone", p.national("DE"));
    const gmailHop = real(
      path,
      "ip-address",
      `2002:a05:${v.hex(4)}:${v.hex(4)}:b0:${v.hex(3)}:${v.hex(4)}:${v.hex(4)}`,
    );
    const msgId = `<CA+${v.mixed(UPPER + LOWER + "0123456789", 40)}@mail.gmail.com>`;
    const parentId = `<${v.hex(12)}.${v.int(1000, 9999)}.${epoch()}@acme-corp.io>`;
    files[path] = `Delivered-To: ${to}
Received: by ${gmailHop} with SMTP id ${v.chars(LOWER + "0123456789", 10)}csp${
      v.int(100000, 999999)
    }ltb;
        Tue, 1 Dec 2026 10:14:${v.int(10, 59)} -0800 (PST)
Received: from mail-sor-f41.google.com (mail-sor-f41.google.com. [${relay}])
        by mx.google.com with SMTPS id ${v.chars(LOWER + "0123456789", 12)}
        for <${to}>;
        Tue, 1 Dec 2026 10:14:${v.int(10, 59)} -0800 (PST)
Received-SPF: pass (google.com: domain of ${from} designates ${relay} as permitted sender) client-ip=${relay};
Authentication-Results: mx.google.com;
       dkim=pass header.i=@gmail.com header.s=20230601 header.b=${v.chars(UPPER + LOWER, 8)};
       spf=pass smtp.mailfrom=${from}
X-Originating-IP: [${origin}]
Return-Path: <${from}>
From: "${p.name()}" <${from}>
To: Acme Billing <${to}>
Cc: ${cc}
Subject: Re: Refund for order ${v.int(100000, 999999)}
Date: Tue, 1 Dec 2026 10:14:05 -0800
Message-ID: ${msgId}
In-Reply-To: ${parentId}
References: <${v.hex(16)}@eu-west-1.amazonses.com> ${parentId}
MIME-Version: 1.0
X-Mailer: Apple Mail (2.3826.${v.int(100, 600)}.${v.int(1, 99)})
Content-Type: multipart/alternative; boundary="Apple-Mail=_${uuid().toUpperCase()}"

--Apple-Mail=_BOUNDARY
Content-Type: text/plain; charset=utf-8
Content-ID: <part1.${v.hex(8)}.${v.hex(8)}@acme-corp.io>

Hi, any news on the refund? Best call me on my mobile.

--
${p.name()}
Mob: ${mobile}
Tel.: ${landline}

On Mon, 30 Nov 2026 at 16:02, Acme Billing <${to}> wrote:
> Thanks, we have opened case ${v.int(100000, 999999)}. Please do not reply to noreply@acme-corp.io.
`;
  }

  // --- 14. test fixtures of fake users (documented samples: nothing to report) ------------------------
  {
    const path = "tests/fixtures/users.yml";
    files[path] = `# Fake users for the signup tests. Only documented sample values here.
alice:
  email: alice@example.com
  phone: "(555) 555-01${v.digits(2)}"
  card: "4242 4242 4242 4242"
  iban: DE89 3704 0044 0532 0130 00
  ssn: 123-45-6789
  ip: 192.0.2.${v.int(1, 254)}
bob:
  email: bob+signup@example.org
  phone: "+44 20 7946 0${v.digits(3)}"
  card: "5555-5555-5555-4444"
  iban: GB82WEST12345698765432
  nino: QQ 12 34 56 C
  ip: 2001:db8::${v.hex(3)}
carol:
  email: carol@localhost
  phone: "+1-555-01${v.digits(2)}"
  card: "378282246310005"
  ip: 198.51.100.${v.int(1, 254)}
invalid_inputs:
  card_failing_luhn: "${p.notACard().replace(/(\d{4})(?=\d)/g, "$1 ")}"
  iban_bad_checksum: ${p.badIban("DE")}
  iban_bad_checksum_fr: ${p.badIban("FR")}
  email_without_tld: dave@intranet
  ssn_itin_range: 9${v.int(10, 99)}-${v.int(70, 88)}-${v.digits(4)}
`;
    const spec = "src/app/signup.component.ts";
    files[spec] = `import { Component, Input } from '@angular/core';
import { FormBuilder, Validators } from '@angular/forms';
import type { Request } from '@types/express';

@Component({
  selector: 'app-signup',
  templateUrl: './signup.component.html',
  styleUrls: ['./signup.component.scss'],
})
export class SignupComponent {
  @Input() prefill?: string;
  readonly placeholder = 'you@example.com';
  readonly form = this.fb.group({
    email: ['', [Validators.required, Validators.email, Validators.pattern(/^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/)]],
    phone: ['', Validators.pattern(/^\\+?[1-9]\\d{7,14}$/)],
  });
  readonly retina = 'assets/hero@2x.png';
  readonly avatar = 'assets/avatar@3x.webp';
  constructor(private fb: FormBuilder) {}
  mailto(user: { email: string }) {
    return \`mailto:\${user.email}\`;
  }
}
`;
    const css = "src/styles/main.scss";
    files[css] = `@use 'sass:math';
@import url('https://fonts.googleapis.com/css2?family=Inter:wght@400;600&display=swap');
@font-face { font-family: Inter; src: url('/fonts/inter@1.2.woff2') format('woff2'); }
.hero { background-image: image-set('/img/hero@1x.webp' 1x, '/img/hero@2x.webp' 2x); }
@media (min-width: 768px) and (max-width: 1024px) { .grid { gap: 1.5rem; } }
@supports (display: grid) { .grid { display: grid; } }
@keyframes spin { from { transform: rotate(0deg); } to { transform: rotate(360deg); } }
`;
    const py = "app/models.py";
    files[py] = `from dataclasses import dataclass, field
from functools import cached_property

from pydantic import EmailStr


@dataclass(frozen=True)
class Contact:
    name: str
    email: EmailStr
    phone: str | None = None
    tags: list[str] = field(default_factory=list)

    @cached_property
    def domain(self) -> str:
        return self.email.split("@")[1]

    @staticmethod
    def example() -> "Contact":
        return Contact("Jane", "jane.doe@example.net", "+1 555 0123")


@app.get("/users/{user_id}")
async def get_user(user_id: int): ...
`;
  }

  // --- 15. release notes and a changelog: versions, builds, OIDs, durations ------------------------
  {
    const path = "docs/CHANGELOG.md";
    files[path] = `# Changelog

## 4.${v.int(0, 9)}.${v.int(0, 9)} (${date()})

- Windows builds are now signed; tested on 10.0.${v.int(19041, 22631)}.${
      v.int(1000, 4999)
    } and Server 2022.
- The agent reports version 1.2.3.4 in its handshake (was 1.2.3.3); assembly version ${
      v.int(2, 9)
    }.${v.int(10, 40)}.${v.int(100, 250)}.0.
- Bumped \`@types/node\` to ^20.${v.int(10, 17)}.0 and \`lodash\` to >=4.17.21 <5.
- Certificate checks accept the extended key usage 1.3.6.1.5.5.7.3.${
      v.int(1, 9)
    } and policy 2.23.140.1.2.${v.int(1, 3)}.
- p99 latency ${v.pick(["+", "-"])}${v.int(10, 99)} ms; startup ${v.int(1, 3)}.${
      v.digits(2)
    }s (was ${v.int(3, 5)}.${v.digits(2)}s).
- Retry back-off is now PT${v.int(1, 9)}M${v.int(10, 59)}S (was 1h30m); cache TTL 86400s.
- Store locator defaults to ${v.int(40, 55)}.${v.digits(4)}, ${v.int(2, 13)}.${v.digits(4)}.
- Fixed crash on build ${v.int(20240101, 20261231)}.${v.int(1, 9)} (commit ${
      sha().slice(0, 12)
    }), order ${p.notACard()} in the test shop.
- Chrome ${v.int(110, 131)}.0.${v.int(6000, 6999)}.${v.int(10, 200)} and ${chrome()} are supported.
- Thanks to ${p.name()} (@${p.first()}${v.int(1, 99)}) for the report.
`;
  }

  // --- 16. a payroll export: national ids and IBANs --------------------------------------------------
  {
    const path = "hr/payroll_2026-11.csv";
    const rows = ["employee_id;name;country;national_id;iban;gross;cost_center;pay_date"];
    const ids: [string, string][] = [
      ["US", real(path, "us-ssn", p.ssn())],
      ["GB", real(path, "uk-nino", p.nino(v.int(0, 1) === 1))],
      ["ES", real(path, "es-dni", p.dni())],
      ["FR", real(path, "fr-nir", p.nir())],
      ["SE", real(path, "se-personnummer", p.personnummer())],
      ["GB", real(path, "uk-nino", p.nino())],
    ];
    for (const [country, id] of ids) {
      const iban = real(
        path,
        "iban",
        p.iban(country === "US" ? "IE" : country === "SE" ? "SE" : country),
      );
      rows.push(
        `E${v.int(10000, 99999)};${p.name()};${country};${id};${iban};${v.int(2000, 9000)}.${
          v.digits(2)
        };CC-${v.int(100, 999)};${date()}`,
      );
    }
    files[path] = rows.join("\n") + "\n";
  }

  // --- 17. a KYC record from India and a Dutch/Canadian onboarding note ------------------------------
  {
    const path = "kyc/records/IN-2026-11-0042.json";
    files[path] = JSON.stringify(
      {
        reference_id: `KYC${v.int(100000000, 999999999)}`,
        customer: {
          name: p.name(),
          aadhaar_number: real(path, "in-aadhaar", p.aadhaar()),
          aadhaar_masked: `XXXX XXXX ${v.digits(4)}`,
          mobile: real(path, "phone", p.intl("IN")),
          email: real(path, "email", p.email("digits")),
          pincode: String(v.int(110001, 855126)),
        },
        verified_at: `${date()}T${time()}+05:30`,
        agent_ip: real(path, "ip-address", p.ipv4()),
        otp_reference: v.int(100000, 999999),
        app_version: `3.${v.int(10, 40)}.${v.int(100, 250)}.${v.int(10, 99)}`,
      },
      null,
      2,
    ) + "\n";

    const note = "onboarding/notes.md";
    files[note] = `# Onboarding notes

- Netherlands hire: BSN ${real(note, "nl-bsn", p.bsn())}, start ${date()}.
- Canada hire: SIN ${real(note, "ca-sin", p.sin())}; payroll via the Toronto office.
- Canadian supplier invoice: Business Number ${v.digits(3)} ${v.digits(3)} ${
      v.digits(3)
    } RT0001, GST included.
- Sweden hire: personnummer ${real(note, "se-personnummer", p.personnummer())}.
- Processing batch ${v.digits(3)}-${v.digits(3)}-${v.digits(3)} closed at ${time()}.
- Badge office: call ${real(note, "phone", p.intl("NL"))} before ${v.int(8, 11)}:00.
`;
  }

  // --- 18. a SEPA transfer file -------------------------------------------------------------------------
  {
    const path = "payments/sepa/pain.001-2026-11-30.xml";
    const tx: string[] = [];
    for (const country of ["DE", "FR", "NL", "IT", "AT", "BE"]) {
      const iban = real(path, "iban", p.iban(country, false));
      tx.push(`      <CdtTrfTxInf>
        <PmtId><EndToEndId>E2E-${v.int(100000, 999999)}-${v.int(1, 99)}</EndToEndId></PmtId>
        <Amt><InstdAmt Ccy="EUR">${v.int(10, 9000)}.${v.digits(2)}</InstdAmt></Amt>
        <CdtrAgt><FinInstnId><BICFI>${v.chars(UPPER, 4)}${country}${
        v.chars(UPPER, 2)
      }XXX</BICFI></FinInstnId></CdtrAgt>
        <Cdtr><Nm>${p.name()}</Nm></Cdtr>
        <CdtrAcct><Id><IBAN>${iban}</IBAN></Id></CdtrAcct>
        <RmtInf><Ustrd>Invoice ${v.int(2026000, 2026999)}</Ustrd></RmtInf>
      </CdtTrfTxInf>`);
    }
    files[path] = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09">
  <CstmrCdtTrfInitn>
    <GrpHdr>
      <MsgId>MSG-${date()}-${v.int(1000, 9999)}</MsgId>
      <CreDtTm>${date()}T${time()}</CreDtTm>
      <NbOfTxs>6</NbOfTxs>
      <CtrlSum>${v.int(1000, 50000)}.${v.digits(2)}</CtrlSum>
    </GrpHdr>
    <PmtInf>
      <DbtrAcct><Id><IBAN>${real(path, "iban", p.iban("DE", false))}</IBAN></Id></DbtrAcct>
${tx.join("\n")}
    </PmtInf>
  </CstmrCdtTrfInitn>
</Document>
`;
  }

  // --- 19. a payment gateway's debug log: cards of every network, and numbers that are not cards -------
  {
    const path = "logs/gateway-debug.log";
    const lines: string[] = [];
    for (
      const brand of ["visa", "mastercard", "mc2", "amex", "discover", "jcb", "diners", "unionpay"]
    ) {
      const pan = real(path, "credit-card", p.card(brand));
      lines.push(
        `${date()} ${time()},${v.digits(3)} DEBUG [gw-${
          v.int(1, 9)
        }] authorize order=${p.notACard()} pan=${pan} exp=${
          String(v.int(1, 12)).padStart(2, "0")
        }/${v.int(27, 32)} amount=${v.int(1, 900)}.${v.digits(2)} EUR stan=${v.digits(6)} rrn=${
          v.digits(12)
        } auth=${v.digits(6)} masked=${v.digits(6)}******${v.digits(4)} terminal=T${
          v.digits(7)
        } ts=${epoch()}${v.digits(3)}`,
      );
    }
    lines.push(
      `${date()} ${time()},${v.digits(3)} INFO  [gw-1] settlement batch ${v.digits(16)} (${
        v.int(10, 99)
      } items), checksum ${v.hex(32)}`,
    );
    files[path] = lines.join("\n") + "\n";
  }

  // --- 20. an incident write-up ---------------------------------------------------------------------------
  {
    const path = "docs/postmortems/2026-11-28-login-spike.md";
    const attacker = real(path, "ip-address", p.ipv4());
    const v6 = real(path, "ip-address", p.ipv6());
    const victim = real(path, "email", p.email("plus"));
    files[path] = `# 2026-11-28: login spike

**Impact:** ${v.int(2, 40)}% of logins failed for ${
      v.int(10, 50)
    } minutes (${time()}–${time()} UTC).

Requests came mostly from ${attacker} and ${v6}, with the user agent \`${ua()}\`.
The first account locked was ${victim}; support called them back.

Timeline (UTC):

| time | event |
| ---- | ----- |
| ${time()} | alert \`auth_5xx_rate > 0.05\` fired (runbook 3.1.4.2) |
| ${time()} | rolled back to build ${v.int(20240101, 20261231)}.${v.int(1, 9)} / ${
      sha().slice(0, 7)
    } |
| ${time()} | blocked at the edge; loopback health checks on 127.0.0.1:8080 and ::1 unaffected |

Follow-ups: trace ${v.hex(32)}, request ${uuid()}, see ticket OPS-${v.int(1000, 9999)}.
The metadata endpoint 169.254.169.254 and the resolver 8.8.8.8 were reachable throughout; node
10.0.${v.int(0, 9)} (our version tag, not an address) shipped the fix.
`;
  }

  // --- 21. an Ansible inventory and ssh config: logins are not mailboxes -------------------------------
  {
    const path = "infra/inventory.ini";
    const web1 = real(path, "ip-address", p.ipv4());
    const web2 = real(path, "ip-address", p.privateIpv4());
    files[path] = `[web]
web1 ansible_host=${web1} ansible_user=deploy
web2 ansible_host=${web2} ansible_user=deploy

[web:vars]
ansible_ssh_common_args='-o ProxyCommand="ssh -W %h:%p -q deploy@bastion.acme-corp.io"'
ntp_servers=["0.pool.ntp.org", "1.pool.ntp.org"]
app_version=5.${v.int(0, 9)}.${v.int(0, 9)}
admin_contact=${real(path, "email", p.email("corp"))}
`;
  }

  // --- 22. a mailing-list archive in another script ----------------------------------------------------
  {
    const path = "docs/i18n/contributors.txt";
    files[path] = `Translators (${date()}):
  ja: ${p.name()} <${real(path, "email", p.email("idn-script"))}>
  de: ${p.name()} <${real(path, "email", p.email("idn-domain"))}>
  fr: ${p.name()} <${real(path, "email", p.email("idn-local"))}>
  es: ${p.name()} <${real(path, "email", p.email("upper"))}>
Glossary build ${v.int(100, 999)}.${v.int(10, 99)}, strings ${v.int(1000, 9999)}, updated ${date()}.
`;
  }

  // --- 23. a German customer list (TSV) with national numbers ---------------------------------------------
  {
    const path = "exports/kunden.tsv";
    const rows = ["kundennr\tname\ttelefon\tmobil\temail\tplz\tort"];
    for (let i = 0; i < 4; i++) {
      rows.push(
        [
          `K-${v.int(100000, 999999)}`,
          p.name(),
          real(path, "phone", p.national("DE")),
          real(path, "phone", p.national("DE")),
          real(path, "email", p.email(v.pick(["plain", "underscore", "digits"]))),
          String(v.int(10115, 99998)),
          v.pick(["Berlin", "München", "Köln", "Hamburg"]),
        ].join("\t"),
      );
    }
    files[path] = rows.join("\n") + "\n";
  }

  // --- 24. Spanish and French contact pages -----------------------------------------------------------
  {
    const path = "site/content/contacto.es.md";
    files[path] = `---
title: Contacto
date: ${date()}
---

Atención al cliente de lunes a viernes, de 9:00 a 18:00.

- Teléfono: ${real(path, "phone", p.national("ES"))}
- Móvil: ${real(path, "phone", p.intl("ES"))}
- Correo: ${real(path, "email", p.email("idn-local"))}
- Horario de verano: 8:00–15:00 (GMT+2)
`;
    const fr = "site/content/contact.fr.md";
    files[fr] = `---
title: Contact
date: ${date()}
---

Notre équipe vous répond du lundi au vendredi.

- Tél. : ${real(fr, "phone", p.national("FR"))}
- Portable : ${real(fr, "phone", p.intl("FR"))}
- Courriel : ${real(fr, "email", p.email("underscore"))}
- SIRET ${v.digits(3)} ${v.digits(3)} ${v.digits(3)} ${v.digits(5)} — capital de ${
      v.int(10, 99)
    } 000 €
`;
  }

  return { files, expected };
}
