/**
 * Fake-but-valid-looking values for the labelled corpus: the right prefix,
 * length, alphabet and check digits, from a seeded generator so the corpus
 * is the same on every run. None of them is a real credential or a real
 * person's data. Check digits are computed here from the published formulas,
 * independently of the scanner's validators.
 */

/** The corpus's seeded generator (one home for the tests' seeded draws). */
export { seededRandom as rng } from "../support/random.ts";

/** The alphabets the corpus draws values from (one home for every corpus file). */
export const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
export const LOWER = "abcdefghijklmnopqrstuvwxyz";
export const DIGIT = "0123456789";
export const ALNUM = UPPER + LOWER + DIGIT;
export const B64 = ALNUM + "+/";
export const B64URL = ALNUM + "-_";
export const HEX = "0123456789abcdef";
/** Crockford's base32, the alphabet of a ULID. */
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * Verhoeff's tables (the dihedral group D5 and its position permutation), written out here apart
 * from the scanner's own so a corpus's ids do not depend on the code they test.
 */
const VERHOEFF_D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const VERHOEFF_P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

/** Whether a string of digits passes Verhoeff's check (its last digit the check digit). */
export function verhoeffPasses(digits: string): boolean {
  let c = 0;
  const reversed = [...digits].reverse();
  for (let i = 0; i < reversed.length; i++) {
    c = VERHOEFF_D[c][VERHOEFF_P[i % 8][Number(reversed[i])]];
  }
  return c === 0;
}

export class Values {
  constructor(private readonly random: () => number) {}

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)];
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.random() * (hi - lo + 1));
  }

  chars(alphabet: string, n: number): string {
    let s = "";
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(this.random() * alphabet.length)];
    return s;
  }

  /** Random characters with at least one upper, lower and digit (as generated tokens have). */
  mixed(alphabet: string, n: number): string {
    for (;;) {
      const s = this.chars(alphabet, n);
      if (/[A-Z]/.test(s) && /[a-z]/.test(s) && /[0-9]/.test(s)) return s;
    }
  }

  digits(n: number): string {
    return this.chars(DIGIT, n);
  }

  hex(n: number): string {
    return this.chars(HEX, n);
  }

  /** A version 4 UUID, as every language's library writes one. */
  uuid(): string {
    const h = this.hex(32);
    const variant = this.pick(["8", "9", "a", "b"]);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${
      h.slice(20)
    }`;
  }

  /** A ULID of this decade: a time part starting 01H or 01J, then Crockford's base32. */
  ulid(): string {
    return "01" + this.pick(["H", "J"]) + this.chars(CROCKFORD, 23);
  }

  base64Lines(bytes: number, width = 64): string[] {
    const body = this.mixed(B64, Math.ceil(bytes * 4 / 3));
    const lines: string[] = [];
    for (let i = 0; i < body.length; i += width) lines.push(body.slice(i, i + width));
    return lines;
  }

  // --- credentials -------------------------------------------------------

  awsAccessKeyId(): string {
    return "AKIA" + this.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16);
  }
  awsSecret(): string {
    return this.mixed(B64, 40);
  }
  gcpApiKey(): string {
    return "AIza" + this.mixed(B64URL, 35);
  }
  azureAccountKey(): string {
    return this.mixed(B64, 86) + "==";
  }
  azureSasSig(): string {
    return this.mixed(ALNUM, 20) + "%2B" + this.mixed(ALNUM, 20) + "%3D";
  }
  githubPat(): string {
    return "ghp_" + this.mixed(ALNUM, 36);
  }
  githubFineGrained(): string {
    return "github_pat_" + this.mixed(ALNUM, 22) + "_" + this.mixed(ALNUM, 59);
  }
  githubOauth(): string {
    return "gho_" + this.mixed(ALNUM, 36);
  }
  githubApp(): string {
    return this.pick(["ghs_", "ghu_"]) + this.mixed(ALNUM, 36);
  }
  gitlab(): string {
    return "glpat-" + this.mixed(B64URL, 20);
  }
  slackBot(): string {
    return `xoxb-${this.digits(12)}-${this.digits(13)}-${this.mixed(ALNUM, 24)}`;
  }
  slackUser(): string {
    return `xoxp-${this.digits(11)}-${this.digits(11)}-${this.digits(13)}-${this.hex(32)}`;
  }
  slackWebhook(): string {
    return `https://hooks.slack.com/services/T${this.chars(UPPER + DIGIT, 8)}/B${
      this.chars(UPPER + DIGIT, 10)
    }/${this.mixed(ALNUM, 24)}`;
  }
  stripeSecret(): string {
    return this.pick(["sk_live_", "rk_live_"]) + this.mixed(ALNUM, this.pick([24, 34, 99]));
  }
  stripeWebhook(): string {
    return "whsec_" + this.mixed(ALNUM, 32);
  }
  twilioApiKey(): string {
    return "SK" + this.hex(32);
  }
  twilioAuthToken(): string {
    return this.hex(32);
  }
  sendgrid(): string {
    return `SG.${this.mixed(B64URL, 22)}.${this.mixed(B64URL, 43)}`;
  }
  openai(): string {
    return this.pick([
      () => "sk-proj-" + this.mixed(B64URL, 74) + "T3BlbkFJ" + this.mixed(B64URL, 74),
      () => "sk-" + this.mixed(ALNUM, 20) + "T3BlbkFJ" + this.mixed(ALNUM, 20),
    ])();
  }
  anthropic(): string {
    return "sk-ant-api03-" + this.mixed(B64URL, 93) + "AA";
  }
  huggingface(): string {
    for (;;) {
      const s = this.chars(UPPER + LOWER, 34);
      if (/[A-Z]/.test(s) && /[a-z]/.test(s)) return "hf_" + s;
    }
  }
  npm(): string {
    return "npm_" + this.mixed(ALNUM, 36);
  }
  pypi(): string {
    return "pypi-AgEIcHlwaS5vcmc" + this.mixed(B64URL, 140);
  }
  pem(label = "RSA PRIVATE KEY", bytes = 1190): string {
    return [`-----BEGIN ${label}-----`, ...this.base64Lines(bytes), `-----END ${label}-----`].join(
      "\n",
    );
  }
  opensshKey(): string {
    const lines = this.base64Lines(380, 70);
    lines[0] = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW" +
      lines[0].slice(70);
    return ["-----BEGIN OPENSSH PRIVATE KEY-----", ...lines, "-----END OPENSSH PRIVATE KEY-----"]
      .join("\n");
  }
  pgpKey(): string {
    return [
      "-----BEGIN PGP PRIVATE KEY BLOCK-----",
      "",
      ...this.base64Lines(900),
      "=" + this.chars(B64, 4),
      "-----END PGP PRIVATE KEY BLOCK-----",
    ].join("\n");
  }
  /** A PKCS#8 key as a JSON string (newlines escaped), as in a GCP service-account file. */
  pemJsonEscaped(): string {
    return this.pem("PRIVATE KEY", 1210).replace(/\n/g, "\\n") + "\\n";
  }
  jwt(): string {
    const b64url = (s: string) =>
      btoa(s).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
    const header = b64url(
      JSON.stringify({ alg: this.pick(["HS256", "RS256", "ES256"]), typ: "JWT" }),
    );
    const payload = b64url(JSON.stringify({
      sub: this.hex(12),
      iat: 1_760_000_000 + this.int(0, 9_999_999),
      scope: this.pick(["read:all", "admin", "deploy"]),
    }));
    return `${header}.${payload}.${this.mixed(B64URL, 43)}`;
  }
  password(): string {
    return this.mixed(ALNUM + "!%^*-_+=~", this.int(14, 22));
  }
  urlPassword(): string {
    return this.mixed(ALNUM, this.int(14, 24));
  }
  genericSecret(): string {
    return this.pick([
      () => this.mixed(ALNUM, 32),
      () => this.hex(40),
      () => this.mixed(B64URL, 48),
    ])();
  }

  // --- personal data -------------------------------------------------------

  email(): string {
    const first = this.pick([
      "maria",
      "jonas",
      "aiko",
      "li",
      "fatima",
      "olu",
      "sven",
      "chiara",
      "raj",
      "elena",
    ]);
    const last = this.pick([
      "keller",
      "okafor",
      "tanaka",
      "moreau",
      "silva",
      "novak",
      "haddad",
      "lindqvist",
    ]);
    const domain = this.pick([
      "gmail.com",
      "outlook.com",
      "proton.me",
      "acme-corp.io",
      "fastmail.fm",
      "web.de",
    ]);
    return `${first}${this.pick([".", "_", ""])}${last}${
      this.pick(["", String(this.int(1, 99))])
    }@${domain}`;
  }
  phone(): string {
    return this.pick([
      () => `+1 ${this.int(201, 989)} ${this.int(201, 989)} ${this.digits(4)}`,
      () => `+44 20 ${this.int(3000, 8999)} ${this.digits(4)}`,
      () => `+49 30 ${this.digits(8)}`,
      () => `+33 6 ${this.digits(2)} ${this.digits(2)} ${this.digits(2)} ${this.digits(2)}`,
      () => `(${this.int(201, 989)}) ${this.int(201, 989)}-${this.digits(4)}`,
    ])();
  }
  iban(country = this.pick(["DE", "GB", "FR", "NL", "ES"])): string {
    const bban = {
      DE: () => this.digits(18),
      GB: () => this.chars(UPPER, 4) + this.digits(14),
      FR: () => this.digits(23),
      NL: () => this.chars(UPPER, 4) + this.digits(10),
      ES: () => this.digits(20),
    }[country]!();
    const numeric = (bban + country + "00").replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
    let r = 0;
    for (const d of numeric) r = (r * 10 + Number(d)) % 97;
    const check = String(98 - r).padStart(2, "0");
    const compact = country + check + bban;
    return this.random() < 0.5 ? compact : compact.replace(/(.{4})/g, "$1 ").trim();
  }
  luhnComplete(prefix: string, length: number): string {
    let body = prefix + this.digits(length - prefix.length - 1);
    let sum = 0;
    for (let i = 0; i < body.length; i++) {
      let d = Number(body[body.length - 1 - i]);
      if (i % 2 === 0) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
    }
    body += String((10 - (sum % 10)) % 10);
    return body;
  }
  card(): string {
    const [prefix, length] = this.pick(
      [["4", 16], ["51", 16], ["55", 16], ["2221", 16], ["37", 15], ["6011", 16]] as const,
    );
    const n = this.luhnComplete(prefix, length);
    const style = this.pick(["plain", "spaced", "dashed"]);
    if (style === "plain" || length === 15) return n;
    return n.replace(/(\d{4})(?=\d)/g, style === "spaced" ? "$1 " : "$1-");
  }
  ssn(): string {
    return `${String(this.int(1, 665)).padStart(3, "0")}-${
      String(this.int(1, 99)).padStart(2, "0")
    }-${String(this.int(1, 9999)).padStart(4, "0")}`;
  }
  nino(): string {
    return `${this.pick(["AB", "CE", "JG", "PR", "SW", "HK"])} ${this.digits(2)} ${
      this.digits(2)
    } ${this.digits(2)} ${this.pick(["A", "B", "C", "D"])}`;
  }
  dni(): string {
    const n = this.int(10_000_000, 99_999_999);
    return `${n}${"TRWAGMYFPDXBNJZSQVHLCKE"[n % 23]}`;
  }
  bsn(): string {
    for (;;) {
      const d = this.digits(8);
      let sum = 0;
      for (let i = 0; i < 8; i++) sum += (9 - i) * Number(d[i]);
      const last = sum % 11;
      if (last <= 9 && d[0] !== "0") return d + String(last);
    }
  }
  personnummer(): string {
    const yy = String(this.int(50, 99));
    const mm = String(this.int(1, 12)).padStart(2, "0");
    const dd = String(this.int(1, 28)).padStart(2, "0");
    const nine = `${yy}${mm}${dd}${this.digits(3)}`;
    let sum = 0;
    for (let i = 0; i < 9; i++) {
      let d = Number(nine[i]) * (i % 2 === 0 ? 2 : 1);
      if (d > 9) d -= 9;
      sum += d;
    }
    return `${nine.slice(0, 6)}-${nine.slice(6)}${(10 - (sum % 10)) % 10}`;
  }
  nir(): string {
    const body = `${this.pick(["1", "2"])}${this.digits(2)}${
      String(this.int(1, 12)).padStart(2, "0")
    }${String(this.int(1, 95)).padStart(2, "0")}${this.digits(3)}${this.digits(3)}`;
    let r = 0;
    for (const d of body) r = (r * 10 + Number(d)) % 97;
    const key = String(97 - r).padStart(2, "0");
    return `${body[0]} ${body.slice(1, 3)} ${body.slice(3, 5)} ${body.slice(5, 7)} ${
      body.slice(7, 10)
    } ${body.slice(10, 13)} ${key}`;
  }
  aadhaar(): string {
    const inv = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9];
    const body = String(this.int(2, 9)) + this.digits(10);
    let c = 0;
    const rev = body.split("").reverse();
    for (let i = 0; i < rev.length; i++) {
      c = VERHOEFF_D[c][VERHOEFF_P[(i + 1) % 8][Number(rev[i])]];
    }
    const full = body + String(inv[c]);
    return `${full.slice(0, 4)} ${full.slice(4, 8)} ${full.slice(8)}`;
  }
  sin(): string {
    return this.luhnComplete(String(this.int(1, 7)), 9).replace(
      /(\d{3})(\d{3})(\d{3})/,
      "$1-$2-$3",
    );
  }
  ipv4(): string {
    return this.pick([
      () =>
        `${this.pick([34, 52, 81, 91, 104, 145, 185])}.${this.int(0, 255)}.${this.int(0, 255)}.${
          this.int(1, 254)
        }`,
      () => `10.${this.int(0, 255)}.${this.int(0, 255)}.${this.int(1, 254)}`,
      () => `192.168.${this.int(0, 255)}.${this.int(1, 254)}`,
    ])();
  }
  ipv6(): string {
    return `2a02:${this.hex(4)}:${this.hex(3)}:${this.hex(2)}::${this.hex(3)}`.replace(
      /:0+([0-9a-f])/g,
      ":$1",
    );
  }
}
