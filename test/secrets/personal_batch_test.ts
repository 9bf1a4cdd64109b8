/**
 * The personal-data batch (personal_batch.ts), written blind: over twelve draws every planted
 * personal value is found whole wherever it occurs in its file, and nothing else is reported, with
 * personal data and with `--thorough`. Without personal data none of the batch's personal values
 * may be reported.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { People, personalBatch } from "./personal_batch.ts";
import { PERSONAL_KINDS, scanText } from "../../src/secrets/scanner.ts";
import {
  isFictionalNumber,
  isMessageId,
  phoneWordStandsAlone,
  underRecordIdName,
} from "../../src/secrets/personal_lookalikes.ts";
import { rng, Values } from "./corpus_values.ts";

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/** Each occurrence of `value` in `text`, as spans. */
function occurrences(text: string, value: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + value.length)) {
    out.push({ start: at, end: at + value.length });
  }
  return out;
}

export interface PersonalScore {
  planted: number;
  found: number;
  findings: number;
  alarms: string[];
  missed: string[];
}

/** Planted occurrences found and missed, and personal findings on anything else, over `seeds`. */
export function scorePersonal(seeds: number[], thorough = false): PersonalScore {
  const score: PersonalScore = { planted: 0, found: 0, findings: 0, alarms: [], missed: [] };
  for (const seed of seeds) {
    const { files, expected } = personalBatch(seed);
    for (const [path, text] of Object.entries(files)) {
      const spans = expected.filter((e) => e.path === path).flatMap((e) => {
        const at = occurrences(text, e.value);
        assert(at.length > 0, `${path}: a planted value is not in its file`);
        return at.map((s) => ({
          ...s,
          kind: e.kind,
          covered: new Array<boolean>(s.end - s.start).fill(false),
        }));
      });
      for (const f of scanText(text, { path, personal: true, thorough })) {
        if (!PERSONAL_KINDS.includes(f.kind)) continue;
        score.findings++;
        const hit = spans.filter((s) => f.start < s.end && f.end > s.start);
        for (const s of hit) {
          for (let i = Math.max(f.start, s.start); i < Math.min(f.end, s.end); i++) {
            s.covered[i - s.start] = true;
          }
        }
        if (hit.length === 0) score.alarms.push(`${seed}/${path}:${f.line} ${f.kind}`);
      }
      for (const s of spans) {
        score.planted++;
        // Found means covered whole: a redaction that leaves part of the value shows that part.
        if (s.covered.every(Boolean)) score.found++;
        else {
          score.missed.push(
            `${seed}/${path}:${text.slice(0, s.start).split("\n").length} ${s.kind}`,
          );
        }
      }
    }
  }
  return score;
}

Deno.test("the personal batch spans the kinds of file and value its brief names", () => {
  const { files, expected } = personalBatch(1);
  const paths = Object.keys(files);
  assert(paths.length >= 25, `only ${paths.length} files`);
  for (
    const suffix of [
      ".csv",
      ".tsv",
      "48213.json",
      "access.log",
      "error.log",
      "auth.log",
      "staff.json",
      ".sql",
      ".mailmap",
      "CODEOWNERS",
      "AUTHORS",
      "package.json",
      "api-service.yaml",
      "de.vcf",
      "fr.vcf",
      "es.vcf",
      "uk.vcf",
      "us.vcf",
      "charge.succeeded.json",
      "production.log",
      ".eml",
      "users.yml",
      "pain.001-2026-11-30.xml",
      "gateway-debug.log",
    ]
  ) assert(paths.some((p) => p.endsWith(suffix)), `the batch has no ${suffix} file`);
  const kinds = new Set(expected.map((e) => e.kind));
  // Every kind of personal data the scanner reports is planted.
  for (const kind of PERSONAL_KINDS) assert(kinds.has(kind), `no planted ${kind}`);
});

Deno.test("the batch's values are drawn afresh for each seed", () => {
  const a = new Set(personalBatch(1).expected.map((e) => e.value));
  const b = personalBatch(2).expected.map((e) => e.value);
  assert(b.filter((x) => a.has(x)).length < b.length / 10, "draws repeat values");
});

Deno.test("with personal data: every planted value found, nothing else reported (12 draws)", () => {
  const { alarms, missed } = scorePersonal(SEEDS);
  assertEquals({ alarms, missed }, { alarms: [], missed: [] });
});

Deno.test("thorough mode: every planted value found, no personal finding on a look-alike (12 draws)", () => {
  const { alarms, missed } = scorePersonal(SEEDS, true);
  assertEquals({ alarms, missed }, { alarms: [], missed: [] });
});

Deno.test("without personal data, no personal value of the batch is reported", () => {
  for (const seed of SEEDS) {
    for (const [path, text] of Object.entries(personalBatch(seed).files)) {
      const kinds = scanText(text, { path }).map((f) => f.kind);
      assertEquals(kinds.filter((k) => PERSONAL_KINDS.includes(k)), [], `${seed}/${path}`);
    }
  }
});

// --- each mechanism on both sides: the look-alike left out, a real value of its shape found ---

const people = new People(new Values(rng(4242)));

/** The personal values `scanText` reports in `text` read as `path`. */
function personal(path: string, text: string): string[] {
  return scanText(text, { path, personal: true })
    .filter((f) => PERSONAL_KINDS.includes(f.kind))
    .map((f) => text.slice(f.start, f.end));
}

Deno.test("addresses in other scripts are found whole; punctuation around them is not taken", () => {
  for (const shape of ["idn-local", "idn-domain", "idn-script", "upper", "plus", "subdomain"]) {
    for (let i = 0; i < 20; i++) {
      const email = people.email(shape);
      assertEquals(personal("notes.txt", `Contact: “${email}”, or <${email}>.\n`), [email, email]);
    }
  }
  assertEquals(personal("a.md", "Logo: ![x](img/logo@2x.png) and ünïcödé@2x.webp\n"), []);
  assertEquals(personal("a.md", "Déjà vu @ café, l@s amig@s\n"), []);
});

Deno.test("a message id is not a mailbox: mail headers, folded lines and keys named for one", () => {
  const from = people.email();
  const eml = [
    `From: ${people.name()} <${from}>`,
    "Message-ID: <CA+Zx81fQk2Lm0a9Rt7@mail.gmail.com>",
    "In-Reply-To: <5f2c9a.1042.1733051234@acme-corp.io>",
    "References: <01000193a1b2c3d4-5e6f@email.amazonses.com>",
    "  <5f2c9a.1042.1733051234@acme-corp.io>",
    "Content-ID: <part1.8c1a2b3c.4d5e6f70@acme-corp.io>",
    "",
    `Reply to ${from} please.`,
    "",
  ].join("\n");
  assertEquals(personal("thread.eml", eml), [from, from]);
  assert(isMessageId('{"message_id": "<x1y2@mail.example.org>"}', 17));
  const line = `"reply_to": "${from}"`;
  assert(!isMessageId(line, line.indexOf(from)));
  assertEquals(
    personal("events.json", `{"messageId": "<ab12cd@mx.acme-corp.io>", "to": "${from}"}\n`),
    [from],
  );
});

Deno.test("a dotted quad after a product's name or under a version's name is a version", () => {
  const ip = people.ipv4();
  const text = [
    `${ip} - - "GET /api/clients/${ip}/ban HTTP/1.1" 200 "Mozilla/5.0 Chrome/120.0.0.0 Safari/537.36"`,
    `{"app_version": "3.12.200.45", "client_ip": "${ip}"}`,
    `[assembly: AssemblyVersion("2.14.120.0")]`,
    `<FileVersion>4.18.210.3</FileVersion> <Host>${ip}</Host>`,
    `Bump version to 3.40.229.1; the version is 2.31.117.4 on host ${ip}`,
    `versionName "4.21.173.26"`,
    `proxy_pass http://${ip}:8080/;`,
    "",
  ].join("\n");
  assertEquals(personal("mixed.log", text), [ip, ip, ip, ip, ip, ip]);
});

Deno.test("phone words of other languages name a number; the words inside others do not", () => {
  const fr = people.national("FR");
  const es = people.national("ES");
  const de = people.national("DE");
  const text = [
    `Tél. : ${fr}`,
    `Teléfono: ${es}`,
    `Móvil ${es}`,
    `Handy: ${de}`,
    `Portable : ${fr}`,
    `Mobil: ${de}`,
    "Hotel 0151 2938 4756, Telemetrie 0151 2938 4756",
    "",
  ].join("\n");
  assertEquals(personal("kontakt.md", text), [fr, es, es, de, fr, de]);
  assert(phoneWordStandsAlone("Tél. : ", 7) && phoneWordStandsAlone("Mobiltelefon ", 13));
  assert(!phoneWordStandsAlone("Hotel ", 6) && !phoneWordStandsAlone("importable ", 11));
  const tsv = `name\tmobil\tteléfono\nA\t${de}\t${es}\n`;
  assertEquals(personal("kunden.tsv", tsv), [de, es]);
});

Deno.test("North America's 555-0100 to 555-0199 are fiction's in every layout", () => {
  for (const v of ["(415) 555-0142", "415-555-0199", "+1 415 555 0100", "1-415-555-0123"]) {
    assert(isFictionalNumber(v), v);
  }
  for (const v of ["(415) 555-0242", "+44 415 555 0142", "+1 415 555 2671"]) {
    assert(!isFictionalNumber(v), v);
  }
  const [a, b, n] = people.nanp();
  const real = `(${a}) ${b}-${n}`;
  assertEquals(
    personal("contacts.vcf", `TEL;TYPE=FAX:(415) 555-0142\nTEL;TYPE=WORK:${real}\n`),
    [real],
  );
  assertEquals(personal("crm.csv", `name,phone\nA,415-555-0199\nB,${real}\n`), [real]);
});

Deno.test("a card-shaped number named as a record's id is not a card; one named as a card is", () => {
  const card = people.card("visa", "plain");
  assert(underRecordIdName(`settlement batch ${card}`, 17));
  assert(underRecordIdName(`"order_no": "${card}"`, 13) && underRecordIdName(`Order #${card}`, 7));
  assert(!underRecordIdName(`card ${card}`, 5) && !underRecordIdName(`pan=${card}`, 4));
  assertEquals(
    personal("gw.log", `batch ${card} closed\ntracking no. ${card}\npan=${card}\n`),
    [card],
  );
});

Deno.test("an id of three groups is not read inside a longer run of groups; its name is a word", () => {
  const aadhaar = people.aadhaar();
  const sin = people.sin();
  assertEquals(personal("kyc.md", `Aadhaar ${aadhaar}\nRef ${aadhaar} 4821\n`), [aadhaar]);
  assertEquals(
    personal(
      "notes.md",
      `SIN ${sin}\nBusiness Number ${sin} RT0001\nProcessing batch ${sin.replace(/ /g, "-")}\n`,
    ),
    [sin],
  );
});

Deno.test("a login in ssh's options (a ProxyCommand's -W %h:%p) is not an address", () => {
  const email = people.email("corp");
  const text = [
    `ansible_ssh_common_args='-o ProxyCommand="ssh -W %h:%p -q deploy@bastion.acme-corp.io"'`,
    `admin_contact=${email}`,
    "",
  ].join("\n");
  assertEquals(personal("inventory.ini", text), [email]);
});

Deno.test("an address percent-encoded into a URL is an address; an encoded example one is not", () => {
  const email = people.email("plus");
  const encoded = email.replace("@", "%40").replace("+", "%2B");
  const text = [
    `81.2.69.142 - - "GET /unsubscribe?email=${encoded}&list=news HTTP/1.1" 200`,
    `81.2.69.142 - - "GET /invite?to=someone%40example.com HTTP/1.1" 200`,
    "",
  ].join("\n");
  assertEquals(personal("access.log", text), ["81.2.69.142", encoded, "81.2.69.142"]);
});
