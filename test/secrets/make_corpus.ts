/**
 * Writes the labelled corpus under test/fixtures/secrets/corpus/ and its
 * labels (labels.json): realistic files of every kind the scanner knows, with
 * traps (placeholders, documented examples, hashes, ids, references) that it
 * must not report. Deterministic: the same seed gives the same files.
 *
 *   deno run -A test/secrets/make_corpus.ts
 *
 * Template markers: ⟪name⟫ inserts a generated value and labels its line with
 * the marker's kind; ⟪name!⟫ inserts one without a label (a value where
 * nothing should be reported, such as a placeholder beside a real value); ⟪@kind⟫ only
 * labels its line (for a value laid out by hand).
 */
import { dirname, join } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { rng, Values } from "./corpus_values.ts";

export interface Label {
  line: number;
  kind: string;
  personal?: boolean;
}
export type Labels = Record<string, Label[]>;

export const CORPUS_DIR = fromFileUrl(new URL("../fixtures/secrets/corpus/", import.meta.url));
export const LABELS_PATH = fromFileUrl(new URL("../fixtures/secrets/labels.json", import.meta.url));

const PERSONAL = new Set([
  "email",
  "phone",
  "iban",
  "credit-card",
  "us-ssn",
  "uk-nino",
  "es-dni",
  "nl-bsn",
  "se-personnummer",
  "fr-nir",
  "in-aadhaar",
  "ca-sin",
  "ip-address",
]);

export type Gen = [() => string, string];

export function markers(v: Values): Record<string, Gen> {
  return {
    "aws-id": [() => v.awsAccessKeyId(), "aws-access-key-id"],
    "aws-secret": [() => v.awsSecret(), "aws-secret-access-key"],
    "gcp-key": [() => v.gcpApiKey(), "gcp-api-key"],
    "gcp-sa": [() => v.pemJsonEscaped(), "gcp-service-account"],
    "azure-key": [() => v.azureAccountKey(), "azure-connection-string"],
    "azure-sb-key": [
      () => v.mixed("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 43) + "=",
      "azure-connection-string",
    ],
    "azure-sig": [() => v.azureSasSig(), "azure-sas-token"],
    "gh-pat": [() => v.githubPat(), "github-pat"],
    "gh-fine": [() => v.githubFineGrained(), "github-fine-grained-pat"],
    "gh-oauth": [() => v.githubOauth(), "github-oauth-token"],
    "gh-app": [() => v.githubApp(), "github-app-token"],
    "gitlab": [() => v.gitlab(), "gitlab-token"],
    "slack-bot": [() => v.slackBot(), "slack-token"],
    "slack-user": [() => v.slackUser(), "slack-token"],
    "slack-webhook": [() => v.slackWebhook(), "slack-webhook"],
    "stripe": [() => v.stripeSecret(), "stripe-key"],
    "stripe-webhook": [() => v.stripeWebhook(), "stripe-webhook-secret"],
    "twilio-key": [() => v.twilioApiKey(), "twilio-api-key"],
    "twilio-token": [() => v.twilioAuthToken(), "twilio-auth-token"],
    "sendgrid": [() => v.sendgrid(), "sendgrid-api-key"],
    "openai": [() => v.openai(), "openai-api-key"],
    "anthropic": [() => v.anthropic(), "anthropic-api-key"],
    "hf": [() => v.huggingface(), "huggingface-token"],
    "npm": [() => v.npm(), "npm-token"],
    "npm-legacy": [() => uuidFrom(v), "npm-token"],
    "pypi": [() => v.pypi(), "pypi-token"],
    "rsa": [() => v.pem("RSA PRIVATE KEY"), "private-key"],
    "pkcs8": [() => v.pem("PRIVATE KEY", 1210), "private-key"],
    "ec": [() => v.pem("EC PRIVATE KEY", 121), "private-key"],
    "openssh": [() => v.opensshKey(), "openssh-private-key"],
    "pgp": [() => v.pgpKey(), "pgp-private-key"],
    "jwt": [() => v.jwt(), "jwt"],
    "password": [() => v.password(), "password"],
    "db-pw": [() => v.urlPassword(), "database-connection-string"],
    "url-pw": [() => v.urlPassword(), "url-credentials"],
    "basic-pw": [() => v.urlPassword(), "basic-auth"],
    "generic": [() => v.genericSecret(), "generic-secret"],
    "hex128": [() => v.hex(128), "generic-secret"],
    "bearer": [
      () => v.mixed("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 40),
      "bearer-token",
    ],
    // personal data
    "email": [() => v.email(), "email"],
    "phone": [() => v.phone(), "phone"],
    "iban": [() => v.iban(), "iban"],
    "card": [() => v.card(), "credit-card"],
    "ssn": [() => v.ssn(), "us-ssn"],
    "nino": [() => v.nino(), "uk-nino"],
    "dni": [() => v.dni(), "es-dni"],
    "bsn": [() => v.bsn(), "nl-bsn"],
    "pnr": [() => v.personnummer(), "se-personnummer"],
    "nir": [() => v.nir(), "fr-nir"],
    "aadhaar": [() => v.aadhaar(), "in-aadhaar"],
    "sin": [() => v.sin(), "ca-sin"],
    "ip": [() => v.ipv4(), "ip-address"],
    "ip6": [() => v.ipv6(), "ip-address"],
    // unlabelled raw material for traps
    "hex32": [() => v.hex(32), ""],
    "hex40": [() => v.hex(40), ""],
    "hex64": [() => v.hex(64), ""],
    "uuid": [() => uuidFrom(v), ""],
    "b64img": [
      () =>
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk" +
        v.mixed("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 300) + "=",
      "",
    ],
    "integrity": [
      () =>
        "sha512-" +
        v.mixed("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 86) + "==",
      "",
    ],
    "alnum24": [
      () => v.mixed("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 24),
      "",
    ],
    "digits21": [() => v.digits(21), ""],
    "order16": [() => nonLuhn(v), ""],
  };
}

function uuidFrom(v: Values): string {
  const h = v.hex(32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${
    h.slice(20)
  }`;
}

/** A 16-digit order number that fails Luhn (so it is not a card). */
function nonLuhn(v: Values): string {
  const card = v.luhnComplete("4", 16);
  return card.slice(0, 15) + String((Number(card[15]) + 1) % 10);
}

/** Expand a template: replace markers, record labels by line. */
export function expand(
  template: string,
  gens: Record<string, Gen>,
): { text: string; labels: Label[] } {
  const labels: Label[] = [];
  let text = "";
  let line = 1;
  const re = /⟪(@?[a-z0-9-]+)(!?)⟫/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(template)) !== null) {
    const before = template.slice(last, m.index);
    line += before.split("\n").length - 1;
    text += before;
    if (m[1].startsWith("@")) {
      // ⟪@kind⟫ labels its line and inserts nothing (for values laid out by hand).
      const kind = m[1].slice(1);
      labels.push({ line, kind, ...(PERSONAL.has(kind) ? { personal: true } : {}) });
      last = m.index + m[0].length;
      continue;
    }
    const gen = gens[m[1]];
    if (!gen) throw new Error(`unknown marker ${m[1]}`);
    const value = gen[0]();
    if (m[2] !== "!" && gen[1] !== "") {
      labels.push({ line, kind: gen[1], ...(PERSONAL.has(gen[1]) ? { personal: true } : {}) });
    }
    text += value;
    line += value.split("\n").length - 1;
    last = m.index + m[0].length;
  }
  text += template.slice(last);
  return { text, labels };
}

/** A unified diff whose hunk counts are computed from its lines. */
function diffFile(
  path: string,
  hunks: { oldStart: number; newStart: number; lines: string[] }[],
  isNew = false,
): string {
  const out = [`diff --git a/${path} b/${path}`];
  if (isNew) out.push("new file mode 100644", "index 0000000..9c3e1f2", "--- /dev/null");
  else out.push("index 3b18e51..a9f0c2d 100644", `--- a/${path}`);
  out.push(`+++ b/${path}`);
  for (const h of hunks) {
    const lines = h.lines.flatMap((l) =>
      l.split("\n").map((part, i) => (i === 0 ? part : l[0] + part))
    );
    const oldCount = lines.filter((l) => l[0] !== "+").length;
    const newCount = lines.filter((l) => l[0] !== "-").length;
    out.push(`@@ -${h.oldStart},${oldCount} +${h.newStart},${newCount} @@`);
    out.push(...lines);
  }
  return out.join("\n");
}

export function corpusTemplates(v: Values): Record<string, string> {
  const files: Record<string, string> = {};

  files["app/.env"] = `# Billing service, production settings (loaded by systemd EnvironmentFile)
NODE_ENV=production
PORT=8080
LOG_LEVEL=info
DATABASE_URL=postgres://billing:⟪db-pw⟫@db.internal.acme-corp.io:5432/billing
REDIS_URL=redis://:⟪db-pw⟫@cache.internal:6379/0
AWS_ACCESS_KEY_ID=⟪aws-id⟫
AWS_SECRET_ACCESS_KEY=⟪aws-secret⟫
AWS_REGION=eu-west-1
STRIPE_SECRET_KEY=⟪stripe⟫
STRIPE_PUBLISHABLE_KEY=pk_live_⟪alnum24⟫
STRIPE_WEBHOOK_SECRET=⟪stripe-webhook⟫
SENDGRID_API_KEY=⟪sendgrid⟫
OPENAI_API_KEY=⟪openai⟫
TWILIO_ACCOUNT_SID=AC⟪hex32⟫
TWILIO_AUTH_TOKEN=⟪twilio-token⟫
SESSION_SECRET=⟪generic⟫
ADMIN_PASSWORD=⟪password⟫
SMTP_PASSWORD=
CACHE_KEY_PREFIX=billing:v2
TOKEN_TTL_SECONDS=3600
RELEASE_SHA=⟪hex40⟫
FEATURE_FLAGS=checkout_v2,fast_refunds
`;

  files["app/.env.example"] = `# Copy to .env and fill in. Never commit the real values.
DATABASE_URL=postgres://user:password@localhost:5432/app
AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE
AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY
STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx
STRIPE_TEST_KEY=sk_test_4eC39HqLyjWDarjtT1zdp7dc
OPENAI_API_KEY=<your-openai-key>
GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
SLACK_BOT_TOKEN=xoxb-your-bot-token
SESSION_SECRET=changeme
ADMIN_PASSWORD=\${ADMIN_PASSWORD}
SENDGRID_API_KEY=SG.XXXXXXXXXXXXXXXXXXXXXX.XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX
JWT_SECRET=your-jwt-secret-here
`;

  files["deploy/k8s/secrets.yaml"] = `apiVersion: v1
kind: Secret
metadata:
  name: billing-secrets
  namespace: payments
type: Opaque
stringData:
  DB_PASSWORD: "⟪password⟫"
  GITLAB_TOKEN: ⟪gitlab⟫
  SLACK_BOT_TOKEN: ⟪slack-bot⟫
  HF_TOKEN: ⟪hf⟫
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: billing
  annotations:
    checksum/config: ⟪hex64⟫
spec:
  replicas: 3
  template:
    spec:
      containers:
        - name: api
          image: registry.acme-corp.io/billing@sha256:⟪hex64⟫
          env:
            - name: DB_PASSWORD
              valueFrom:
                secretKeyRef:
                  name: billing-secrets
                  key: DB_PASSWORD
            - name: REQUEST_ID_HEADER
              value: x-request-id
            - name: SESSION_TOKEN_LIFETIME
              value: "3600"
`;

  files["deploy/helm/values.yaml"] = `image:
  repository: registry.acme-corp.io/billing
  tag: "2.14.1"
postgresql:
  auth:
    username: billing
    password: "{{ .Values.global.dbPassword }}"
    existingSecret: billing-db
redis:
  password: ⟪password⟫
ingress:
  annotations:
    nginx.ingress.kubernetes.io/auth-secret: basic-auth
oauth:
  clientId: billing-web
  clientSecret: ⟪generic⟫
  tokenUrl: https://login.acme-corp.io/oauth2/token
`;

  files["ci/release.yml"] = `name: release
on:
  push:
    tags: ["v*"]
jobs:
  publish:
    runs-on: ubuntu-latest
    env:
      NPM_TOKEN: \${{ secrets.NPM_TOKEN }}
      PYPI_TOKEN: \${{ secrets.PYPI_TOKEN }}
    steps:
      - uses: actions/checkout@v4
      - run: echo "//registry.npmjs.org/:_authToken=\${NPM_TOKEN}" > ~/.npmrc
      - run: |
          curl -sS -H "Authorization: Bearer ⟪gh-fine⟫" https://api.github.com/repos/acme/billing/releases
      - run: twine upload --username __token__ --password ⟪pypi⟫ dist/*
      - name: notify
        run: curl -X POST -d '{"text":"released"}' ⟪slack-webhook⟫
`;

  files["config/settings.json"] = `{
  "service": "notifications",
  "twilio": {
    "accountSid": "AC⟪hex32⟫",
    "apiKey": "⟪twilio-key⟫",
    "apiSecret": "⟪generic⟫"
  },
  "sendgrid": { "apiKey": "⟪sendgrid⟫", "from": "billing@acme-corp.io"⟪@email⟫ },
  "anthropic": { "apiKey": "⟪anthropic⟫", "model": "claude-sonnet" },
  "build": { "commit": "⟪hex40⟫", "id": "⟪uuid⟫" },
  "dependencies": { "left-pad": { "version": "1.3.0", "integrity": "⟪integrity⟫" } },
  "logo": "data:image/png;base64,⟪b64img⟫",
  "apiKeyHeader": "X-Api-Key",
  "passwordPolicy": { "minLength": 12, "requireSymbols": true },
  "webhook": { "url": "https://hooks.acme-corp.io/notify", "secret": "⟪generic⟫" }
}
`;

  files["config/service-account.json"] = `{
  "type": "service_account",
  "project_id": "acme-billing-prod",
  "private_key_id": "⟪hex40⟫",
  "private_key": "⟪gcp-sa⟫",
  "client_email": "billing-exporter@acme-billing-prod.iam.gserviceaccount.com",⟪@email⟫
  "client_id": "⟪digits21⟫",
  "auth_uri": "https://accounts.google.com/o/oauth2/auth",
  "token_uri": "https://oauth2.googleapis.com/token",
  "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
  "universe_domain": "googleapis.com"
}
`;

  files["src/payments.py"] = `"""Stripe and OpenAI glue for the billing worker."""
import os

import psycopg2
import stripe

stripe.api_key = "⟪stripe⟫"
OPENAI_KEY = os.environ["OPENAI_API_KEY"]
password = os.getenv("DB_PASSWORD")
HF_TOKEN = "⟪hf⟫"
ANTHROPIC_API_KEY = "⟪anthropic⟫"

# The SHA of the vendored release, not a secret.
VENDORED_COMMIT = "⟪hex40⟫"
token_type = "bearer"
max_tokens = 4096
secret_name = "billing/prod/db"


def connect():
    return psycopg2.connect(host="db.internal", user="billing", password="⟪password⟫")


def fetch(session, token=None):
    headers = {"Authorization": f"Bearer {token}"}
    return session.get("https://api.acme-corp.io/v1/invoices", headers=headers)


def check(password, password_hash):
    return hash_password(password) == password_hash
`;

  files["src/client.ts"] = `import { Octokit } from "@octokit/rest";

const GITHUB_TOKEN = "⟪gh-pat⟫";
const octokit = new Octokit({ auth: process.env.GITHUB_TOKEN });

export const firebaseConfig = {
  apiKey: "⟪gcp-key⟫",
  authDomain: "acme-billing.firebaseapp.com",
  projectId: "acme-billing",
};

const serviceJwt = "⟪jwt⟫";
// jwt.io's sample token, used in the parser's tests:
const sample =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";

export async function login(form: HTMLFormElement) {
  const password = form.password.value;
  const passwordField = document.querySelector("#password");
  const token = await getToken();
  return { password, passwordField, token };
}

const npmToken = "⟪npm⟫";
const oauthToken = "⟪gh-oauth⟫";
const installationToken = "⟪gh-app⟫";
export { octokit, sample, serviceJwt };
`;

  files["src/Config.java"] = `package io.acmecorp.billing;

public final class Config {
    static final String DB_USER = "billing";
    static final String DB_PASSWORD = "⟪password⟫";
    static final String JDBC_URL = "jdbc:postgresql://db.internal:5432/billing?user=billing&password=⟪password⟫";
    static final String API_KEY_HEADER = "X-Api-Key";
    static final int TOKEN_LENGTH = 32;

    String password() {
        return System.getenv("DB_PASSWORD");
    }
}
`;

  files["src/application.properties"] = `spring.application.name=billing
spring.datasource.url=jdbc:mysql://db.internal:3306/billing
spring.datasource.username=billing
spring.datasource.password=⟪password⟫
jwt.secret=⟪generic⟫
jwt.expiration=86400
management.endpoints.web.exposure.include=health,info
`;

  files["scripts/deploy.sh"] = `#!/usr/bin/env bash
set -euo pipefail

export GITHUB_TOKEN=⟪gh-pat⟫
export VAULT_TOKEN="$(vault login -token-only -method=github)"
export DOCKER_PASSWORD='⟪password⟫'

docker login -u deploy -p "$DOCKER_PASSWORD" registry.acme-corp.io
curl -fsS -u deploy:⟪basic-pw⟫ https://artifacts.acme-corp.io/upload -T dist/billing.tgz
git clone https://oauth2:⟪gitlab⟫@gitlab.acme-corp.io/platform/infra.git
mysql --host=db.internal --user=root --password=⟪password⟫ billing < dump.sql
pip install --index-url https://ci:⟪url-pw⟫@pypi.acme-corp.io/simple billing-tools==2.14.1
curl -H "Authorization: Bearer $API_TOKEN" https://api.acme-corp.io/deploy
curl -H "X-Api-Key: ⟪bearer⟫" https://status.acme-corp.io/api/v1/incidents
ssh-keygen -t ed25519 -f ~/.ssh/id_ed25519 -N ""
echo "sha256: ⟪hex64⟫  release.tar.gz"
`;

  files["infra/main.tf"] = `provider "aws" {
  region     = "eu-west-1"
  access_key = "⟪aws-id⟫"
  secret_key = "⟪aws-secret⟫"
}

variable "db_password" {
  type      = string
  sensitive = true
}

resource "aws_db_instance" "billing" {
  engine              = "postgres"
  username            = "billing"
  password            = "⟪password⟫"
  skip_final_snapshot = true
}

resource "aws_db_instance" "reports" {
  engine   = "postgres"
  username = "reports"
  password = var.db_password
}

locals {
  storage_connection = "DefaultEndpointsProtocol=https;AccountName=acmebilling;AccountKey=⟪azure-key⟫;EndpointSuffix=core.windows.net"
  servicebus         = "Endpoint=sb://acme-billing.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=⟪azure-sb-key⟫"
  export_url         = "https://acmebilling.blob.core.windows.net/exports?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2027-01-01T00:00:00Z&st=2026-01-01T00:00:00Z&spr=https&sig=⟪azure-sig⟫"
  admin_password     = random_password.admin.result
}
`;

  files["config/database.yml"] = `default: &default
  adapter: postgresql
  pool: <%= ENV.fetch("RAILS_MAX_THREADS") { 5 } %>

production:
  <<: *default
  url: <%= ENV["DATABASE_URL"] %>
  password: <%= ENV.fetch("DB_PASSWORD") %>
  secret_key_base: ⟪hex128⟫
`;

  files["docker-compose.yml"] = `services:
  db:
    image: postgres:16
    environment:
      POSTGRES_USER: billing
      POSTGRES_PASSWORD: ⟪password⟫
  app:
    build: .
    environment:
      - MONGO_URL=mongodb+srv://app:⟪db-pw⟫@cluster0.x1y2z.mongodb.net/prod
      - HUGGING_FACE_HUB_TOKEN=⟪hf⟫
      - SECRET_KEY=\${SECRET_KEY:-dev}
      - AMQP_URL=amqp://guest:guest@rabbitmq:5672/
`;

  files["config/.npmrc"] = `@acme:registry=https://npm.pkg.github.com
//npm.pkg.github.com/:_authToken=\${GITHUB_TOKEN}
//registry.npmjs.org/:_authToken=⟪npm⟫
//registry.acme-corp.io/:_authToken=⟪npm-legacy⟫
always-auth=true
`;

  files["config/.pypirc"] = `[distutils]
index-servers = pypi

[pypi]
username = __token__
password = ⟪pypi⟫
`;

  files["config/settings.xml"] = `<settings>
  <servers>
    <server>
      <id>acme-releases</id>
      <username>deploy</username>
      <password>⟪password⟫</password>
    </server>
    <server>
      <id>acme-snapshots</id>
      <username>deploy</username>
      <password>\${env.MAVEN_PASSWORD}</password>
    </server>
  </servers>
</settings>
`;

  files["keys/id_rsa"] = "⟪rsa⟫\n";
  files["keys/id_ed25519"] = "⟪openssh⟫\n";
  files["keys/release-signing.asc"] = "⟪pgp⟫\n";
  files["keys/server.pem"] = `-----BEGIN CERTIFICATE-----
${v.base64Lines(700).join("\n")}
-----END CERTIFICATE-----
⟪ec⟫
`;
  files["keys/id_rsa.pub"] = `ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ${
    v.mixed("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 360)
  } deploy@build-01
`;
  files["keys/public.pem"] = `-----BEGIN PUBLIC KEY-----
${v.base64Lines(294).join("\n")}
-----END PUBLIC KEY-----
`;

  files["docs/README.md"] = `# Billing service

## Configuration

Set your keys in \`.env\` (see \`.env.example\`):

\`\`\`sh
export OPENAI_API_KEY=sk-...
export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE
export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY
export DATABASE_URL=postgres://user:pass@localhost/billing
\`\`\`

A key file looks like this:

\`\`\`
-----BEGIN RSA PRIVATE KEY-----
...
-----END RSA PRIVATE KEY-----
\`\`\`

In CI the token comes from the secret store: \`password: \${{ secrets.DB_PASSWORD }}\`.
Test payments use the card 4242 4242 4242 4242 and the IBAN DE89 3704 0044 0532 0130 00.
Write to support@example.com or call 555-0142. The staging host is 192.0.2.10.
Tokens look like \`ghp_<36 characters>\` or \`xoxb-<numbers>-<letters>\`.
Requires node v20.11.1 and Python 3.12; tested on 10.15.7 and 203.0.113.7.

## Troubleshooting

If the upload fails with 401, check the token. Last time the log showed:

    upload: using token ⟪gh-pat⟫ for acme/billing
    upload: 401 Bad credentials

Rotate it in the settings afterwards.
`;

  files["changes/add-mailer.diff"] = diffFile("mailer/config.py", [{
    oldStart: 1,
    newStart: 1,
    lines: [
      " import os",
      " ",
      `-SENDGRID_API_KEY = "⟪sendgrid⟫"`,
      `+SENDGRID_API_KEY = os.environ["SENDGRID_API_KEY"]`,
      ` FROM_ADDRESS = "billing@acme-corp.io"`,
      ` RETRIES = 3`,
      `+SLACK_TOKEN = "⟪slack-user⟫"`,
      `+MAILGUN_API_KEY = "⟪generic⟫"`,
    ],
  }]) + "\n" + diffFile("mailer/keys/deploy_key", [{
    oldStart: 0,
    newStart: 1,
    lines: ["+⟪@openssh-private-key⟫" + v.opensshKey()],
  }], true) + "\n" + diffFile("mailer/README.md", [{
    oldStart: 10,
    newStart: 10,
    lines: [
      " Configure the mailer with environment variables.",
      "-Old webhook: ⟪slack-webhook⟫",
      "+The webhook URL lives in the vault under mailer/slack.",
      " ",
    ],
  }]) + "\n";

  files["notebooks/churn.ipynb"] = JSON.stringify(
    {
      cells: [
        {
          cell_type: "code",
          execution_count: 1,
          metadata: {},
          outputs: [],
          source: [
            "import openai\n",
            "import pandas as pd\n",
            'openai.api_key = "⟪openai⟫"\n',
            'hf_token = "⟪hf⟫"\n',
            "df = pd.read_csv('customers.csv')",
          ],
        },
        {
          cell_type: "code",
          execution_count: 2,
          metadata: {},
          outputs: [
            {
              data: {
                "image/png": "⟪b64img⟫",
                "text/plain": ["<Figure size 640x480 with 1 Axes>"],
              },
              metadata: {},
              output_type: "display_data",
            },
            {
              name: "stdout",
              output_type: "stream",
              text: ["top churn risk: ⟪email⟫ (score 0.91)\n", "second: ⟪email⟫ (score 0.88)\n"],
            },
          ],
          source: ["df.sort_values('risk').head(2)"],
        },
      ],
      metadata: { kernelspec: { display_name: "Python 3", language: "python", name: "python3" } },
      nbformat: 4,
      nbformat_minor: 5,
    },
    null,
    1,
  ) + "\n";

  const rows: string[] = [];
  for (let i = 0; i < 8; i++) {
    rows.push(
      `${1000 + i},⟪email⟫,⟪phone⟫,⟪iban⟫,⟪card⟫,⟪ip⟫,2026-0${1 + (i % 9)}-1${i},⟪order16⟫`,
    );
  }
  files["data/customers.csv"] = `id,email,phone,iban,card,signup_ip,created_at,order_ref
${rows.join("\n")}
1008,user@example.com,555-0100,GB00WEST00000000000000,4111 1111 1111 1111,127.0.0.1,2026-02-02,⟪order16⟫
`;

  files["data/service_accounts.csv"] = `name,owner,api_token,password,created
billing-bot,⟪email⟫,⟪generic⟫,⟪password⟫,2026-03-02
reports-bot,⟪email⟫,⟪generic⟫,"⟪password⟫",2026-04-11
legacy-bot,ops@acme-corp.io⟪@email⟫,,changeme,2025-12-01
`;

  files["data/hr_export.tsv"] = `employee\tcountry\tnational_id\tbank
E-201\tUS\t⟪ssn⟫\t⟪iban⟫
E-202\tGB\t⟪nino⟫\t⟪iban⟫
E-203\tES\t⟪dni⟫\t⟪iban⟫
E-204\tNL\tBSN ⟪bsn⟫\t⟪iban⟫
E-205\tSE\t⟪pnr⟫\t⟪iban⟫
E-206\tFR\t⟪nir⟫\t⟪iban⟫
E-207\tIN\t⟪aadhaar⟫\t-
E-208\tCA\tSIN ⟪sin⟫\t-
E-209\tUS\t000-12-3456\t-
E-210\tUS\t123-45-6789\t-
`;

  files["logs/crash.log"] =
    `2026-11-28T09:14:02.311Z INFO  billing 2.14.1 starting on node v20.11.1 (pid 4121)
2026-11-28T09:14:02.950Z INFO  listening on 0.0.0.0:8080
2026-11-28T09:15:40.118Z WARN  slow request from ⟪ip⟫ user=⟪email⟫ took 2314 ms
2026-11-28T09:15:41.002Z ERROR request failed: headers={"Authorization":"Bearer ⟪jwt⟫","X-Request-Id":"⟪uuid⟫"}
2026-11-28T09:15:41.003Z ERROR connect ECONNREFUSED ⟪ip⟫:5432 (postgresql://billing:⟪db-pw⟫@db-replica.internal:5432/billing)
    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)
2026-11-28T09:15:42.470Z INFO  retrying from ⟪ip6⟫ in 500 ms (attempt 2 of 5)
2026-11-28T09:15:43.001Z INFO  customer callback requested: ⟪phone⟫
2026-11-28T09:16:00.000Z INFO  health ok build=⟪hex40⟫ checksum=⟪hex64⟫
`;

  return files;
}

export function generateCorpus(seed = 20261130): { files: Record<string, string>; labels: Labels } {
  const v = new Values(rng(seed));
  const gens = markers(v);
  const templates = corpusTemplates(v);
  const files: Record<string, string> = {};
  const labels: Labels = {};
  for (const [path, template] of Object.entries(templates)) {
    const { text, labels: found } = expand(template, gens);
    files[path] = text;
    labels[path] = found;
  }
  return { files, labels };
}

if (import.meta.main) {
  const { files, labels } = generateCorpus();
  await Deno.remove(CORPUS_DIR, { recursive: true }).catch(() => {});
  for (const [path, text] of Object.entries(files)) {
    const full = join(CORPUS_DIR, path);
    await Deno.mkdir(dirname(full), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
  await Deno.writeTextFile(LABELS_PATH, JSON.stringify(labels, null, 1) + "\n");
  const total = Object.values(labels).flat();
  console.log(
    `${Object.keys(files).length} files, ${
      total.filter((l) => !l.personal).length
    } credential labels, ${total.filter((l) => l.personal).length} personal labels`,
  );
}
