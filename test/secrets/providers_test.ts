/**
 * Every provider format the scanner knows by its mark: a value of each is built here at run time
 * (a prefix joined to random characters of the documented alphabet and length, never a real key),
 * set in a line of config, and must be found whole with its kind. Beside each, the same shape
 * filled with a stand-in (`xxxx…`, a counting run) must not be.
 */
import { assertEquals } from "../support/assert.ts";
import { scanText } from "../../src/secrets/scanner.ts";
import { rng, Values } from "./corpus_values.ts";

const v = new Values(rng(8128));
const AN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const UP = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const LOW = "abcdefghijklmnopqrstuvwxyz0123456789";
const URL = AN + "_-";
const B64 = AN + "+/";
const an = (n: number) => v.mixed(AN, n);
const up = (n: number) => v.chars(UP, n - 2) + "7Q";
const low = (n: number) => v.chars(LOW, n - 2) + "k9";
const hex = (n: number) => v.hex(n - 2) + "a7";
const url = (n: number) => v.mixed(URL, n);
const b64 = (n: number) => v.mixed(B64, n);
const join = (...parts: string[]) => parts.join("");

/** kind, and a value of that kind built from its documented parts. */
const CASES: [string, () => string][] = [
  [
    "onepassword-secret-key",
    () => join("A3-", up(6), "-", up(11), "-", up(5), "-", up(5), "-", up(5)),
  ],
  ["onepassword-service-token", () => join("ops_", "eyJ", b64(260))],
  ["adobe-client-secret", () => join("p8e-", an(32))],
  ["alibaba-access-key-id", () => join("LT", "AI", an(20))],
  ["artifactory-token", () => join("AK", "Cp", an(69))],
  ["atlassian-api-token", () => join("ATATT3", url(186))],
  ["clickhouse-api-secret", () => join("4b1d", an(38))],
  ["clojars-token", () => join("CLOJARS_", an(60))],
  ["cloudflare-origin-ca-key", () => join("v1.0-", hex(24), "-", hex(146))],
  ["doppler-token", () => join("dp.pt.", an(43))],
  ["duffel-token", () => join("duffel_live_", url(43))],
  ["dynatrace-token", () => join("dt0c01.", up(24), ".", an(64))],
  ["easypost-token", () => join("EZ", "AK", an(54))],
  ["facebook-access-token", () => join("EAA", "C", an(120))],
  ["square-token", () => join("EAAA", url(60))],
  [
    "flutterwave-secret-key",
    () => join("FLWSECK", "-", v.chars("abcdefgh0123456789", 30), "a1", "-X"),
  ],
  ["flyio-token", () => join("fo1_", url(43))],
  ["frameio-token", () => join("fio-u-", url(64))],
  ["grafana-token", () => join("glc_", b64(80))],
  ["harness-token", () => join("pat.", url(22), ".", an(24), ".", an(20))],
  ["heroku-api-key", () => join("HRKU-AA", url(58))],
  ["infracost-token", () => join("ico-", an(32))],
  ["intra42-client-secret", () => join("s-s4t2ud-", hex(64))],
  ["mapbox-secret-token", () => join("sk.", "eyJ", url(60), ".", url(22))],
  ["new-relic-key", () => join("NR", "AK-", up(27))],
  ["notion-token", () => join("ntn_", v.digits(11), an(35))],
  ["octopus-deploy-key", () => join("API-", up(26))],
  ["openshift-token", () => join("sha256~", url(43))],
  ["aws-bedrock-api-key", () => join("ABSK", "QmVkcm9ja0FQSUtleS", b64(132), "=")],
  ["sonar-token", () => join("sq", "u_", hex(40))],
  ["contentful-token", () => join("CFPAT-", url(43))],
  ["defined-networking-token", () => join("dnkey-", low(26), "-", low(52))],
  [
    "plaid-access-token",
    () => join("access-production-", hex(8), "-", hex(4), "-", hex(4), "-", hex(4), "-", hex(12)),
  ],
  ["perplexity-api-key", () => join("pplx-", an(48))],
  ["planetscale-token", () => join("pscale_tkn_", an(43))],
  ["prefect-api-key", () => join("pnu_", an(36))],
  ["pulumi-token", () => join("pul-", hex(40))],
  ["readme-api-key", () => join("rdme_", low(70))],
  ["rubygems-token", () => join("rubygems_", hex(48))],
  ["scalingo-token", () => join("tk-us-", url(48))],
  ["brevo-api-key", () => join("xkey", "sib-", hex(64), "-", an(16))],
  ["sentry-token", () => join("sntryu_", hex(64))],
  ["settlemint-token", () => join("sm_pat_", an(16))],
  ["shippo-token", () => join("shippo_live_", hex(40))],
  ["sourcegraph-token", () => join("sgp_", hex(16), "_", hex(40))],
  ["stripe-key", () => join("sk", "_prod_", an(40))],
  ["typeform-token", () => join("tfp_", url(59))],
  ["yandex-api-key", () => join("AQVN", url(36))],
  ["dropbox-token", () => join("sl.", url(135))],
  ["azure-ad-client-secret", () => join(an(3), "8Q~", url(34))],
  ["terraform-cloud-token", () => join(an(14), ".atlasv1.", url(67))],
  ["maxmind-license-key", () => join(an(6), "_", an(29), "_mmk")],
  ["mailchimp-api-key", () => join(hex(32), "-us", "14")],
  ["telegram-bot-token", () => join(v.digits(10), ":AA", url(33))],
  ["twitter-bearer-token", () => join("A".repeat(22), an(90))],
  ["microsoft-teams-webhook", () =>
    join(
      "https://corp.webhook.office.com/webhookb2/",
      `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}@${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${
        hex(12)
      }`,
      `/IncomingWebhook/${hex(32)}/${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`,
    )],
];

Deno.test("each provider format is found whole with its kind, in config, code and a log line", () => {
  for (const [kind, make] of CASES) {
    const value = make();
    for (
      const [path, text] of [
        ["deploy.env", `SERVICE_CREDENTIAL=${value}\n`],
        ["client.py", `client = Client(${JSON.stringify(value)})\n`],
        ["job.log", `12:01:07 retrying with ${value} after 401\n`],
      ]
    ) {
      const found = scanText(text, { path }).map((f) => [f.kind, text.slice(f.start, f.end)]);
      assertEquals(found, [[kind, value]], `${kind} in ${path}`);
    }
  }
});

Deno.test("a stand-in of the same shape is not reported", () => {
  for (const [kind, make] of CASES) {
    const value = make();
    // Keep the mark (the first characters) and the separators; fill the rest with one character.
    const flat = value.slice(0, 8) + value.slice(8).replace(/[A-Za-z0-9]/g, "x");
    const text = `SERVICE_CREDENTIAL=${flat}\n`;
    const found = scanText(text, { path: "example.env" }).filter((f) => f.kind === kind);
    assertEquals(found.length, 0, `${kind}: ${flat}`);
  }
});

/** Short prefixes looked for only where the vendor or tool is named: kind, value, a line naming it. */
const NAMED: [string, () => string, (value: string) => string][] = [
  ["airtable-token", () => join("pat", an(14), ".", hex(64)), (x) => `AIRTABLE_PAT=${x}\n`],
  [
    "mailgun-api-key",
    () => join("key-", hex(32)),
    (x) => `12:01:07 mailgun send failed for key ${x}\n`,
  ],
  ["crates-io-token", () => join("cio", an(32)), (x) => `[registry]\ntoken = "${x}"\n`],
];

Deno.test("short prefixes are found where their vendor is named, and not elsewhere", () => {
  for (const [kind, make, line] of NAMED) {
    const value = make();
    const text = line(value);
    const found = scanText(text, { path: "deploy.env" }).map((
      f,
    ) => [f.kind, text.slice(f.start, f.end)]);
    assertEquals(found.filter(([k]) => k === kind), [[kind, value]], kind);
    const bare = `12:01:07 retrying with ${value} after 401\n`;
    assertEquals(scanText(bare, { path: "job.log" }).filter((f) => f.kind === kind), [], kind);
  }
});
