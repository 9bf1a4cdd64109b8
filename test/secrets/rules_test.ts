/**
 * Each rule on its own: a generated value in a typical line is found with the
 * right kind, span and location; each trap next to it is not.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { scanText } from "../../src/secrets/index.ts";
import { rng, Values } from "./corpus_values.ts";

const v = new Values(rng(7));

function kindsIn(
  text: string,
  options: { personal?: boolean; thorough?: boolean; path?: string } = {},
): string[] {
  return scanText(text, options).map((f) => f.kind);
}

/** The one finding in `line` has `kind` and spans exactly `value`. */
function assertFinds(
  line: string,
  value: string,
  kind: string,
  options: { personal?: boolean; path?: string } = {},
) {
  const found = scanText(line, options);
  assertEquals(found.map((f) => f.kind), [kind], `${kind} in: ${line.slice(0, 120)}`);
  assertEquals(line.slice(found[0].start, found[0].end), value, `${kind} span`);
  assert(!found[0].preview.includes(value), "the preview never holds the value");
}

function assertClean(
  line: string,
  options: { personal?: boolean; thorough?: boolean; path?: string } = {},
) {
  assertEquals(kindsIn(line, options), [], `nothing in: ${line.slice(0, 120)}`);
}

Deno.test("vendor tokens are found by prefix, length and alphabet", () => {
  const cases: [string, () => string][] = [
    ["aws-access-key-id", () => v.awsAccessKeyId()],
    ["gcp-api-key", () => v.gcpApiKey()],
    ["github-pat", () => v.githubPat()],
    ["github-fine-grained-pat", () => v.githubFineGrained()],
    ["github-oauth-token", () => v.githubOauth()],
    ["github-app-token", () => v.githubApp()],
    ["gitlab-token", () => v.gitlab()],
    ["slack-token", () => v.slackBot()],
    ["slack-token", () => v.slackUser()],
    ["slack-webhook", () => v.slackWebhook()],
    ["stripe-key", () => v.stripeSecret()],
    ["stripe-webhook-secret", () => v.stripeWebhook()],
    ["twilio-api-key", () => v.twilioApiKey()],
    ["sendgrid-api-key", () => v.sendgrid()],
    ["openai-api-key", () => v.openai()],
    ["anthropic-api-key", () => v.anthropic()],
    ["huggingface-token", () => v.huggingface()],
    ["npm-token", () => v.npm()],
    ["pypi-token", () => v.pypi()],
    ["jwt", () => v.jwt()],
  ];
  for (const [kind, make] of cases) {
    const value = make();
    assertFinds(`  value = ${JSON.stringify(value)}  # deploy`, value, kind);
    assertFinds(`${value}`, value, kind);
  }
});

Deno.test("placeholders and documented examples are not reported", () => {
  for (
    const line of [
      "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE",
      "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
      "STRIPE=sk_test_4eC39HqLyjWDarjtT1zdp7dc",
      "API_KEY=<your-api-key>",
      "API_KEY=your-api-key-here",
      "SECRET_KEY=changeme",
      "password: ${DB_PASSWORD}",
      "password: {{ .Values.password }}",
      "token: ${{ secrets.GITHUB_TOKEN }}",
      'password = os.environ["DB_PASSWORD"]',
      "password = getpass()",
      "const password = form.password.value;",
      "DATABASE_URL=postgres://user:password@localhost/db",
      "AMQP=amqp://guest:guest@rabbit:5672/",
      "jwt = eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
      "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
      `STRIPE_PUBLISHABLE_KEY=pk_live_${
        v.mixed("abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789", 24)
      }`,
    ]
  ) assertClean(line);
});

Deno.test("hashes, ids, integrity strings and images beside secret-like names are not reported", () => {
  for (
    const line of [
      `commit_sha = "${v.hex(40)}"`,
      `token_sha256: ${v.hex(64)}`,
      `password_hash = "${v.hex(64)}"`,
      `"integrity": "sha512-${
        v.mixed("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 86)
      }=="`,
      `request_id: ${crypto.randomUUID()}`,
      `api_key_id: ${crypto.randomUUID()}`,
      `"logo": "data:image/png;base64,iVBORw0KGgo${
        v.mixed("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 200)
      }"`,
      "max_tokens = 4096",
      "token_type = bearer",
      "secret_name = billing/prod/db",
      "SMTP_PASSWORD=",
      "  - name: DB_PASSWORD",
      "    key: DB_PASSWORD",
    ]
  ) assertClean(line);
});

Deno.test("generic secrets: the name decides whether to look, the value whether to report", () => {
  const secret = v.mixed("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 32);
  const pw = v.password();
  assertFinds(`SESSION_SECRET=${secret}`, secret, "generic-secret");
  assertFinds(`  "client_secret": "${secret}",`, secret, "generic-secret");
  assertFinds(`apiKey: '${secret}'`, secret, "generic-secret", { path: "a.ts" });
  assertFinds(`DB_PASSWORD=${pw}`, pw, "password");
  assertFinds(`mysql --password=${pw} db`, pw, "password");
  assertFinds(`<password>${pw}</password>`, pw, "password");
  assertFinds(`spring.datasource.password=${pw}`, pw, "password");
  // The hex digest of a secret-like name is a secret (a hash would be named so).
  const hex = v.hex(64);
  assertFinds(`SECRET_KEY = "${hex}"`, hex, "generic-secret");
  // Unquoted values in code are expressions.
  assertClean("password = userPassword", { path: "a.py" });
  assertClean("api_key = settings.API_KEY", { path: "a.py" });
  // AWS and Twilio names pin the kind.
  const aws = v.awsSecret();
  assertFinds(`AWS_SECRET_ACCESS_KEY=${aws}`, aws, "aws-secret-access-key");
  const twilio = v.twilioAuthToken();
  assertFinds(`TWILIO_AUTH_TOKEN=${twilio}`, twilio, "twilio-auth-token");
});

Deno.test("structured credentials: URLs, connection strings, SAS, headers, private keys", () => {
  const pw = v.urlPassword();
  assertFinds(`postgres://app:${pw}@db.internal:5432/app`, pw, "database-connection-string");
  assertFinds(`https://deploy:${pw}@git.acme-corp.io/x.git`, pw, "url-credentials");
  assertFinds(`curl -u deploy:${pw} https://x.acme-corp.io`, pw, "basic-auth");
  const key = v.azureAccountKey();
  assertFinds(
    `DefaultEndpointsProtocol=https;AccountName=a;AccountKey=${key};EndpointSuffix=core.windows.net`,
    key,
    "azure-connection-string",
  );
  const sig = v.azureSasSig();
  assertFinds(
    `https://a.blob.core.windows.net/c?sv=2022-11-02&sp=r&se=2027-01-01&sig=${sig}`,
    sig,
    "azure-sas-token",
  );
  const bearer = v.mixed("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 40);
  assertFinds(`Authorization: Bearer ${bearer}`, bearer, "bearer-token");
  const pem = v.pem("RSA PRIVATE KEY");
  assertFinds(`key:\n${pem}\n`, pem, "private-key");
  const ssh = v.opensshKey();
  assertFinds(ssh, ssh, "openssh-private-key");
  const pgp = v.pgpKey();
  assertFinds(pgp, pgp, "pgp-private-key");
  const sa = `{"type": "service_account", "private_key": "${v.pemJsonEscaped()}"}`;
  assertEquals(kindsIn(sa), ["gcp-service-account"]);
  assertClean(
    `-----BEGIN PUBLIC KEY-----\n${v.base64Lines(294).join("\n")}\n-----END PUBLIC KEY-----`,
  );
  assertClean(
    `-----BEGIN CERTIFICATE-----\n${v.base64Lines(700).join("\n")}\n-----END CERTIFICATE-----`,
  );
});

Deno.test("a finding is located by 1-based line and column, and its offsets slice the value", () => {
  const token = v.githubPat();
  const text = `first\n\n  export GITHUB_TOKEN=${token}\n`;
  const [f] = scanText(text, { path: "x.sh" });
  assertEquals([f.line, f.column, f.path], [3, 23, "x.sh"]);
  assertEquals(text.slice(f.start, f.end), token);
  assertEquals(f.preview, "ghp_****[40]");
});

Deno.test("personal data only with personal, each with its check", () => {
  const email = v.email();
  assertEquals(kindsIn(`contact ${email}`), []);
  assertFinds(`contact ${email}`, email, "email", { personal: true });
  const card = v.card();
  assertFinds(`card: ${card}`, card, "credit-card", { personal: true });
  const iban = v.iban("DE");
  assertFinds(`IBAN ${iban}`, iban, "iban", { personal: true });
  const ssn = v.ssn();
  assertFinds(`ssn ${ssn}`, ssn, "us-ssn", { personal: true });
  for (
    const trap of [
      "mail support@example.com",
      "git@github.com:acme/billing.git",
      "logo@2x.png",
      "order 4111111111111112",
      "card 4242 4242 4242 4242",
      "IBAN DE89 3704 0044 0532 0130 00",
      "on 2026-11-30 at 10:00:00",
      "version 10.15.7.2",
      "listening on 127.0.0.1:8080 and 0.0.0.0",
      "docs use 192.0.2.10",
      "ssn 123-45-6789",
      "call 555-0142",
      "std::vector<int> v; a::b::c",
    ]
  ) assertClean(trap, { personal: true });
  const ip = "81.2.69.160";
  assertFinds(`from ${ip}:443`, ip, "ip-address", { personal: true });
});

Deno.test("thorough mode adds nameless high-entropy strings and implies personal data", () => {
  const random = v.mixed("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 44);
  assertEquals(kindsIn(`blob ${random} end`), []);
  assertEquals(kindsIn(`blob ${random} end`, { thorough: true }), ["high-entropy-string"]);
  assertEquals(kindsIn(`sha ${v.hex(64)} end`, { thorough: true }), []);
  assertEquals(kindsIn(`mail ${v.email()}`, { thorough: true }), ["email"]);
});

Deno.test("overlaps: the specific rule wins over the generic one, and nothing is reported twice", () => {
  const token = v.githubPat();
  const found = scanText(`GITHUB_TOKEN="${token}"\nAuthorization: Bearer ${token}\n`);
  assertEquals(found.map((f) => f.kind), ["github-pat", "github-pat"]);
});

Deno.test("lines from real code that once raised false alarms stay quiet", () => {
  for (
    const [line, path] of [
      ["      authInfo: options?.authInfo,", "a.js"],
      ["    client_secret: z.ZodOptional<z.ZodString>;", "types.d.ts"],
      ["  credentials: CredentialsType;", "fetch.js.flow"],
      ['  "license": "BSD-3-Clause",', "package.json"],
      ['export const RELATED_TASK_META_KEY = "io.modelcontextprotocol/related-task";', "types.js"],
      ['const TOKEN_STRINGS = "[A-Za-z0-9._~+/-]+=*";', "index.js"],
      ["--- PASS: TestErrorHandling (0.00s)", "go.log"],
      ['  return { kind: cls === "password" ? "password" : "generic-secret" };', "x.ts"],
      ['    anchors: ["AccountKey", "SharedAccessKey", "SharedSecretValue"],', "x.ts"],
      ['    password: "peanuts",', "error.test.ts"],
      ["see `curl -u user:password` in the docs", "README.md"],
    ] as const
  ) assertClean(line, { path });
  for (
    const line of [
      'expect(parse("+15555555555")).toBe(true)',
      '["Visa (13)", "4007000000027"]',
      'mac "00:1A:2B::4D:5E"',
      "RFC 7231 sec 3.1.1.1",
      'phone("+1234567890")',
    ]
  ) assertClean(line, { personal: true });
});

Deno.test("values found away from their operator: .NET config, .netrc, UUID keys under key names", () => {
  const secret = v.mixed("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 24);
  assertFinds(`<add key="ApiKey" value="${secret}" />`, secret, "generic-secret", {
    path: "app.config",
  });
  assertFinds(`machine api.acme.io login deploy password ${secret}`, secret, "password", {
    path: ".netrc",
  });
  const uuid = crypto.randomUUID();
  assertFinds(`HEROKU_API_KEY=${uuid}`, uuid, "generic-secret");
  assertClean(`<add key="Environment" value="production" />`);
  assertClean(`"request_id": "${crypto.randomUUID()}"`);
});
