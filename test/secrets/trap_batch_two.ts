/**
 * The second trap batch: about thirty files of the kinds a project keeps — docs, CI, templates,
 * scripts, schemas, logs, bundles, locales, manifests, fixtures — holding about 150 look-alikes of
 * kinds the first batch (trap_batch.ts) has few of, and, beside them in files of the same kinds,
 * about thirty real credentials, so that precision cannot be had by reporting nothing. It was
 * written, with every expectation in it, before wisp was run on it.
 *
 * The look-alikes: placeholders in many styles (`<your-token>`, `YOUR_API_KEY_HERE`, `xxxx…`,
 * `****`, `REDACTED`, `[FILTERED]`, `changeme`), references a tool fills in later (`${{ secrets.X
 * }}`, `%(pw)s`, `{{ .Values.x }}`, `$(cat file)`, `op://vault/item/field`, `vault:secret/data/x`,
 * ARNs, Key Vault and Secret Manager references), providers' documented example keys, test values
 * that say they are test values, password policy text and its regular expressions, translations
 * and UI labels of the word "password", form field names, schema columns, CLI help, environment
 * variable names with no value, digests and ids (etags, checksums, commit SHAs, trace, span,
 * request and session ids, UUIDs, ULIDs, test vectors), `data:` URLs, minified code, public keys,
 * sample JWTs from documentation, and numbers that are not phone numbers (versions with build
 * metadata, build ids, timestamps, port lists, prices, ISBNs, coordinates, byte offsets). Values
 * marked as allowed inline, in comment syntaxes of several languages, are look-alikes too: the
 * goal is no finding on them at all.
 *
 * A real value is listed in `expected` with its path; a finding that overlaps one is a true
 * positive, any other finding is a false alarm. Personal values (`personal: true`) are expected
 * only when personal data is scanned.
 */
import { ALNUM, B64, B64URL, DIGIT, LOWER, rng, UPPER, Values } from "./corpus_values.ts";

/** One real value the batch holds, in the file at `path`. */
export interface Planted {
  path: string;
  value: string;
  /** Personal data: expected only when personal data is scanned. */
  personal?: boolean;
}

/** The batch for one seed: its files (path → text) and the real values planted in them. */
export interface TrapBatchTwo {
  files: Record<string, string>;
  expected: Planted[];
}

/** Crockford's base32 alphabet, as ULIDs use it. */

/** The second trap batch for one seed. */
export function trapBatchTwo(seed: number): TrapBatchTwo {
  const v = new Values(rng(seed * 7919 + 17));
  const expected: Planted[] = [];
  const files: Record<string, string> = {};
  /** Plants a real value in `path` and returns it for the text. */
  const real = (path: string, value: string, personal = false): string => {
    expected.push(personal ? { path, value, personal } : { path, value });
    return value;
  };
  const hex = (n: number) => v.hex(n);
  const b64 = (n: number) => v.mixed(B64, n);
  const uuid = () => v.uuid();
  const ulid = () => v.ulid();
  // A password a person chose: a word of their own, digits and a symbol, not a common stem.
  const chosen = () =>
    `${v.pick(["Tamarind", "Orchard", "Glacier", "Bramble", "Kestrel", "Juniper"])}${
      v.pick(["#", "!", "%", "&", "*"])
    }${v.mixed(ALNUM, 5)}${v.int(10, 99)}`;
  const random = (n: number) => v.mixed(ALNUM, n);
  const b64url = (s: string) => btoa(s).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");

  // --- 1. getting-started docs: placeholders in many styles ---------------------------------

  files["docs/getting-started.md"] = `# Getting started

Create an API token under **Settings → Tokens**, then put it in your shell:

\`\`\`sh
export ACME_API_TOKEN=<your-token>
export ACME_API_KEY=YOUR_API_KEY_HERE
export ACME_SECRET=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
export ACME_PASSWORD='********'
export ACME_CLIENT_SECRET=REDACTED
export ACME_DB_PASSWORD=changeme
export ACME_WEBHOOK_SECRET="<paste the signing secret here>"
export ACME_REFRESH_TOKEN=[your refresh token]
\`\`\`

Or in \`acme.toml\`:

\`\`\`toml
[auth]
token = "REPLACE_ME"
api_key = "${"${ACME_API_KEY}"}"
password = "..."
secret = "<secret>"
client_secret = "your-client-secret-goes-here"
\`\`\`

Then check it works: \`curl -H "Authorization: Bearer $ACME_API_TOKEN" https://api.acme.example/v1/me\`
or, with a header placeholder, \`Authorization: Token {token}\`.
`;

  // --- 2. a CI workflow: references, plus one value pasted in -------------------------------

  const slackHook = real(
    ".github/workflows/deploy.yml",
    `https://hooks.slack.com/services/T${v.chars(UPPER + DIGIT, 8)}/B${
      v.chars(UPPER + DIGIT, 10)
    }/${random(24)}`,
  );
  files[".github/workflows/deploy.yml"] = `name: deploy
on:
  push:
    branches: [main]
env:
  REGISTRY: ghcr.io
  REGISTRY_PASSWORD: \${{ secrets.REGISTRY_PASSWORD }}
  NPM_TOKEN: \${{ secrets.NPM_TOKEN }}
  SLACK_WEBHOOK_URL: ${slackHook}
jobs:
  deploy:
    runs-on: ubuntu-latest
    permissions:
      id-token: write
      contents: read
    steps:
      - uses: actions/checkout@${hex(40)} # v4.1.7
      - uses: docker/login-action@${hex(40)} # v3.3.0
        with:
          registry: \${{ env.REGISTRY }}
          username: \${{ github.actor }}
          password: \${{ secrets.GITHUB_TOKEN }}
      - uses: aws-actions/configure-aws-credentials@${hex(40)}
        with:
          role-to-assume: arn:aws:iam::123456789012:role/deploy
          aws-region: eu-west-1
      - run: echo "//registry.npmjs.org/:_authToken=\${NPM_TOKEN}" > ~/.npmrc
      - run: ./scripts/deploy.sh --token "\${{ steps.auth.outputs.token }}" --api-key "$API_KEY"
        env:
          API_KEY: \${{ vars.PUBLIC_API_KEY_NAME }}
`;

  // --- 3. Python database code: format placeholders, hex digests, one chosen password -------

  const adminPw = real("app/db.py", chosen());
  files["app/db.py"] = `import hashlib
import os

import psycopg

DSN = "host=%(host)s port=%(port)s dbname=%(db)s user=%(user)s password=%(pw)s"
DSN_NEW = "postgresql://{user}:{password}@{host}:{port}/{db}"
FIXTURE_SHA = "${hex(40)}"
SCHEMA_CHECKSUM = "${hex(64)}"
etag = "${hex(32)}"
sha = "${hex(40)}"
digest = hashlib.sha256(b"payload").hexdigest()
EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

# The bootstrap admin, created once on an empty database.
ADMIN_PASSWORD = "${adminPw}"


def connect():
    password = os.environ["DB_PASSWORD"]
    return psycopg.connect(DSN % {"host": "db", "port": 5432, "db": "app", "user": "app", "pw": password})


def find_user(cur, email):
    cur.execute("SELECT id, password_hash FROM users WHERE email = %s", (email,))
    return cur.fetchone()


def check(stored_hash: str, password: str) -> bool:
    return hashlib.sha256(password.encode()).hexdigest() == stored_hash
`;

  // --- 4. a Helm chart: templates and values ------------------------------------------------

  files["charts/api/templates/secret.yaml"] = `apiVersion: v1
kind: Secret
metadata:
  name: {{ include "api.fullname" . }}
type: Opaque
data:
  password: {{ .Values.db.password | b64enc | quote }}
  api-key: {{ required "apiKey is required" .Values.apiKey | b64enc }}
stringData:
  token: "{{ .Values.token }}"
  secret: {{ default (randAlphaNum 32) .Values.secret | quote }}
  {{- if .Values.redis.enabled }}
  redis-password: {{ .Values.redis.auth.password | quote }}
  {{- end }}
`;
  files["charts/api/values.yaml"] = `db:
  host: postgres
  user: api
  # Leave empty and set existingSecret to use a Secret you manage.
  password: ""
  existingSecret: api-db-credentials
  existingSecretPasswordKey: password
apiKey: ""
token: ~
secret: null
redis:
  enabled: true
  auth:
    password: <set-in-values-prod>
    existingSecret: ""
`;
  const redisPw = real("charts/api/values-prod.yaml", random(28));
  files["charts/api/values-prod.yaml"] = `db:
  existingSecret: api-db-prod
redis:
  auth:
    password: ${redisPw}
`;

  // --- 5. a bootstrap script: commands that fetch secrets, and one key pasted in ------------

  const ddKey = real("scripts/bootstrap.sh", hex(32));
  files["scripts/bootstrap.sh"] = `#!/usr/bin/env bash
set -euo pipefail

DB_PASSWORD=$(cat /run/secrets/db_password)
CI_TOKEN=$(vault kv get -field=token secret/ci)
export GITHUB_TOKEN="$(gh auth token)"
API_KEY=\${API_KEY:?set API_KEY first}
ADMIN_PASSWORD="\${1:-}"
STRIPE_SECRET_KEY="$(op read "op://Production/Stripe/secret key")"
SESSION_SECRET=\`openssl rand -hex 32\`
JWT_SECRET=$(head -c 32 /dev/urandom | base64)
RELEASE_SHA=$(git rev-parse HEAD)
IMAGE_DIGEST=sha256:${hex(64)}

export DATADOG_API_KEY=${ddKey}

echo "bootstrapping with token \${CI_TOKEN:0:4}…"
`;

  // --- 6. secret references of several managers ---------------------------------------------

  const sessionSecret = real("config/secrets.tpl.env", random(40));
  files["config/secrets.tpl.env"] =
    `# Resolved at start-up by the secrets sidecar; nothing here is a value.
DB_PASSWORD=op://Production/Postgres/password
STRIPE_SECRET_KEY=vault:secret/data/stripe#secret_key
SENDGRID_API_KEY=arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/sendgrid-Ab12Cd
GCP_API_KEY=projects/acme-prod/secrets/maps-api-key/versions/latest
AZURE_STORAGE_KEY=@Microsoft.KeyVault(SecretUri=https://acme-kv.vault.azure.net/secrets/storage-key/)
REDIS_PASSWORD=sm://acme-prod/redis-password
SMTP_PASSWORD=doppler://acme/prd/SMTP_PASSWORD
SLACK_TOKEN=ssm:/acme/prod/slack-token
GITHUB_TOKEN=gcp:secretmanager:projects/acme/secrets/gh-token
API_TOKEN=ref+vault://secret/data/api#token
# This one was added by hand during the incident and never moved to the store:
SESSION_SECRET=${sessionSecret}
`;

  // --- 7. providers' documented example keys ------------------------------------------------

  files["docs/providers.md"] = `# Configuring providers

Values below are the providers' own documentation examples; they do not work.

| provider | setting | example |
| -------- | ------- | ------- |
| AWS | \`aws_access_key_id\` | \`AKIAIOSFODNN7EXAMPLE\` |
| AWS | \`aws_secret_access_key\` | \`wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\` |
| Stripe | \`STRIPE_SECRET_KEY\` | \`sk_test_4eC39HqLyjWDarjtT1zdp7dc\` |
| Twilio | \`TWILIO_ACCOUNT_SID\` | \`ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX\` |
| Twilio | \`TWILIO_AUTH_TOKEN\` | \`your_auth_token\` |
| GitHub | \`GITHUB_TOKEN\` | \`ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\` |
| Slack | \`SLACK_BOT_TOKEN\` | \`xoxb-your-bot-token\` |
| OpenAI | \`OPENAI_API_KEY\` | \`sk-...\` |
| Google | \`GOOGLE_API_KEY\` | \`AIza...\` |
| SendGrid | \`SENDGRID_API_KEY\` | \`SG.xxxxxxxx.yyyyyyyy\` |

\`\`\`ini
[default]
aws_access_key_id = AKIAIOSFODNN7EXAMPLE
aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY
\`\`\`
`;

  // --- 8. tests whose fixtures say what they are --------------------------------------------

  files["tests/test_client.py"] = `import pytest

from acme.client import Client

FAKE_GITHUB_TOKEN = "ghp_" + "0" * 36
TEST_API_KEY = "test-api-key-not-real"
DUMMY_PASSWORD = "dummy-password"
MOCK_SECRET = "mock_secret_value"
EXAMPLE_TOKEN = "example-token-123"
INVALID_TOKEN = "invalid"


@pytest.fixture
def client():
    return Client(api_key="fake-key", password="not-a-real-password", token="test_token")


def test_rejects_wrong_password(client):
    with pytest.raises(PermissionError):
        client.login("alice", password="wrong-password")


def test_masks_token(client):
    assert client.masked("abcd1234efgh5678") == "abcd************"
`;

  // --- 9. password policy code --------------------------------------------------------------

  files["web/src/validation/passwordPolicy.ts"] = `export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_AGE_DAYS = 90;
export const passwordPattern =
  /^(?=.*[a-z])(?=.*[A-Z])(?=.*\\d)(?=.*[!@#$%^&*()_+\\-=\\[\\]{};':"\\\\|,.<>\\/?]).{12,128}$/;
export const PASSWORD_REGEX = "^(?=.*[A-Za-z])(?=.*\\\\d)[A-Za-z\\\\d@$!%*#?&]{8,}$";
export const tokenFormat = /^acme_[A-Za-z0-9]{40}$/;
export const passwordRules = {
  password: "min:12|max:128|mixedCase|numbers|symbols|uncompromised",
  password_confirmation: "same:password",
};

export const passwordMessages = {
  tooShort: "Password must be at least 12 characters long.",
  noDigit: "Password must contain at least one digit (0-9).",
  reused: "Your new password cannot be one of your last 5 passwords.",
  weak: "This password is too common, e.g. Password123!",
};
`;

  // --- 10. translations of "password" -------------------------------------------------------

  files["web/src/locales/fr.json"] = `{
  "login": {
    "password": "Mot de passe",
    "forgot_password": "Mot de passe oublié ?",
    "api_key": "Clé d'API",
    "secret": "Secret",
    "token_expired": "Votre jeton a expiré, reconnectez-vous.",
    "password_hint": "Au moins 12 caractères, dont un chiffre"
  }
}
`;
  files["web/src/locales/ja.yml"] = `ja:
  login:
    password: パスワード
    password_confirmation: パスワード（確認）
    api_token: APIトークン
    secret_key: シークレットキー
`;
  files["locale/es/LC_MESSAGES/app.po"] = `msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "Password"
msgstr "Contraseña"

msgid "API token"
msgstr "Token de API"

msgid "Your password was changed"
msgstr "Tu contraseña se ha cambiado"

msgid "password"
msgstr "contraseña"
`;

  // --- 11. a login form ---------------------------------------------------------------------

  files["web/src/components/LoginForm.tsx"] = `import { useState } from "react";

export function LoginForm({ onSubmit }: { onSubmit: (u: string, p: string) => void }) {
  const [password, setPassword] = useState("");
  const [apiKey, setApiKey] = useState<string | null>(null);
  const passwordLabel = "Password";
  const tokenPlaceholder = "Paste your token";
  return (
    <form onSubmit={() => onSubmit("", password)}>
      <label htmlFor="password">{passwordLabel}</label>
      <input id="password" type="password" name="password" placeholder="••••••••"
        autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      <input name="api_key" placeholder={tokenPlaceholder} value={apiKey ?? ""} />
      <button aria-label="Show password" data-testid="toggle-password">Show</button>
      <input type="hidden" name="secret_question" value="first-pet" />
    </form>
  );
}
`;

  // --- 12. an SQL schema, and one password in a migration -----------------------------------

  const migrationPw = real("db/migrations/0001_roles.sql", chosen());
  files["db/schema.sql"] = `CREATE TABLE users (
  id            BIGSERIAL PRIMARY KEY,
  email         TEXT NOT NULL UNIQUE,
  password_hash VARCHAR(255) NOT NULL,
  password_salt CHAR(32),
  api_token_digest CHAR(64),
  secret        TEXT,
  reset_token   VARCHAR(64) DEFAULT NULL,
  otp_secret    BYTEA
);

CREATE INDEX users_reset_token ON users (reset_token);
COMMENT ON COLUMN users.password_hash IS 'bcrypt, cost 12';
`;
  files["db/migrations/0001_roles.sql"] = `-- Roles for the reporting replica.
CREATE ROLE reporting LOGIN PASSWORD '${migrationPw}';
CREATE ROLE readonly NOLOGIN;
ALTER ROLE app PASSWORD NULL;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO readonly;
`;

  // --- 13. build metadata: digests and ids --------------------------------------------------

  files["ops/artifacts.json"] = `{
  "build_id": "${ulid()}",
  "commit": "${hex(40)}",
  "tree": "${hex(40)}",
  "image": {
    "digest": "sha256:${hex(64)}",
    "etag": "\\"${hex(32)}\\"",
    "checksum": "${hex(64)}",
    "md5": "${hex(32)}",
    "crc32c": "${b64(6)}=="
  },
  "request_id": "${uuid()}",
  "trace_id": "${hex(32)}",
  "span_id": "${hex(16)}",
  "session_id": "${hex(32)}",
  "upload_id": "${v.mixed(B64URL, 64)}",
  "object_version": "${v.mixed(ALNUM + "._", 32)}",
  "integrity": "sha384-${b64(64)}",
  "key_id": "${uuid()}",
  "kid": "${v.mixed(B64URL, 43)}",
  "fingerprint": "SHA256:${b64(43)}",
  "nonce": "${hex(24)}"
}
`;

  // --- 14. an ini file where a bare hex value IS a password, beside hex that is not --------

  const hexPw = real("config/deploy.ini", hex(32));
  files["config/deploy.ini"] = `[artifact]
url = https://artifacts.acme.example/releases/api-4.2.1.tar.gz
checksum = ${hex(64)}
sha = ${hex(40)}
md5 = ${hex(32)}
etag = ${hex(32)}

[database]
host = db.internal
user = deploy
password = ${hexPw}
`;

  // --- 15. a log: masked values, ids, and one token that slipped through --------------------

  const leakedBearer = real("logs/api.log", v.mixed(B64URL, 48));
  files["logs/api.log"] = [
    `2026-11-02T08:14:03.117Z INFO  request_id=${uuid()} trace_id=${hex(32)} span_id=${
      hex(16)
    } method=POST path=/v1/login status=200`,
    `2026-11-02T08:14:03.120Z DEBUG params={"user":"alice","password":"[FILTERED]","remember":true}`,
    `2026-11-02T08:14:03.121Z DEBUG headers={"authorization":"Bearer [REDACTED]","x-api-key":"***"}`,
    `2026-11-02T08:14:04.002Z INFO  session_id=${hex(32)} sid=${v.mixed(B64URL, 32)} created`,
    `2026-11-02T08:14:05.310Z INFO  token=<masked> password=******** secret=<hidden>`,
    `2026-11-02T08:14:05.311Z WARN  api_key=sk_...${random(4)} rejected (revoked)`,
    `2026-11-02T08:14:06.400Z INFO  X-Request-Id: ${random(20)} correlation=${ulid()}`,
    `2026-11-02T08:14:06.902Z INFO  cache key=${hex(40)} hit=true etag=W/"${hex(16)}"`,
    `2026-11-02T08:14:07.001Z ERROR upstream 401 for Authorization: Bearer ${leakedBearer}`,
    `2026-11-02T08:14:07.050Z INFO  job ${uuid()} done in 831ms (build ${v.int(1000, 9999)})`,
    "",
  ].join("\n");

  // --- 16. a minified bundle: identifiers and alphabets, and one key built in ---------------

  const bundledKey = real(
    "web/dist/vendor.min.js",
    "sk_live_" + random(v.pick([24, 34])),
  );
  files["web/dist/vendor.min.js"] =
    `!function(e,t){"use strict";var n="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=",r="password",o="token",i=function(e){return e.apiKey||e.token||""},a={password:"",secret:null,apiKey:void 0},s=function(e){return e.replace(/[^A-Za-z0-9]/g,"")};t.auth={field:r,tokenField:o,getKey:i,defaults:a,clean:s,sep:"0123456789abcdef"}}(this,window);` +
    `var c={headers:{Authorization:"Bearer "+t.token},password:t.password,key:"${bundledKey}"};` +
    `var u="${v.mixed(ALNUM + "_$", 60)}".split("");` +
    `//# sourceMappingURL=vendor.min.js.map\n`;

  // --- 17. data URLs in CSS and mail templates ----------------------------------------------

  files["web/src/styles/icons.css"] = `.icon-key {
  background-image: url("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQ${b64(180)}=");
}
.icon-lock {
  background: url(data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmci${
    b64(120)
  });
}
@font-face {
  font-family: "Secret Sans";
  src: url("data:font/woff2;base64,d09GMgABAAAA${b64(240)}") format("woff2");
}
`;
  files["emails/password-reset.html"] = `<!doctype html>
<html><body>
<img alt="logo" src="data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ${b64(200)}==">
<p>Someone asked to reset the password for {{ user.email }}.</p>
<p><a href="{{ reset_url }}?token={{ reset_token }}">Choose a new password</a></p>
<p>Your one-time code: {{ otp }}</p>
</body></html>
`;

  // --- 18. public keys and certificates; one private key ------------------------------------

  files["certs/api.acme.example.crt"] = [
    "-----BEGIN CERTIFICATE-----",
    ...v.base64Lines(800).map((l, i) => i === 0 ? "MII" + l.slice(3) : l),
    "-----END CERTIFICATE-----",
    "",
  ].join("\n");
  files["certs/jwt-public.pem"] = [
    "-----BEGIN PUBLIC KEY-----",
    ...v.base64Lines(294).map((l, i) =>
      i === 0 ? "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA" + l.slice(44) : l
    ),
    "-----END PUBLIC KEY-----",
    "",
  ].join("\n");
  files["certs/deploy_ed25519.pub"] = `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${b64(43)} deploy@ci\n`;
  files["certs/recipients.txt"] = `# age recipients for the backup archive
age1${v.chars("023456789acdefghjklmnpqrstuvwxyz", 58)}
age1${v.chars("023456789acdefghjklmnpqrstuvwxyz", 58)}
`;
  const ecKey = real("certs/server.key", v.pem("EC PRIVATE KEY", 121));
  files["certs/server.key"] = ecKey + "\n";

  // --- 19. JWT docs: sample tokens; a real one in an env file -------------------------------

  const sampleSig = v.mixed(B64URL, 43);
  files["docs/auth/jwt.md"] = `# Tokens

A token is three parts joined by dots. The smallest valid HS256 token has an empty payload:

    eyJhbGciOiJIUzI1NiJ9.e30.${sampleSig}

The header \`{"alg":"HS256","typ":"JWT"}\` encodes as \`eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9\`. An
unsigned token (\`alg: none\`) ends with a dot and is always rejected:

    ${b64url('{"alg":"none"}')}.${b64url('{"sub":"test"}')}.

Send it as \`Authorization: Bearer <jwt>\`.
`;
  const serviceJwt = real(
    "supabase/.env.local",
    `${b64url('{"alg":"HS256","typ":"JWT"}')}.${
      b64url(
        `{"iss":"supabase","ref":"${v.chars(LOWER, 20)}","role":"service_role","iat":${
          1_700_000_000 + v.int(0, 9_999_999)
        },"exp":${2_000_000_000 + v.int(0, 9_999_999)}}`,
      )
    }.${v.mixed(B64URL, 43)}`,
  );
  files["supabase/.env.local"] = `SUPABASE_URL=https://${v.chars(LOWER, 20)}.supabase.co
SUPABASE_SERVICE_ROLE_KEY=${serviceJwt}
`;

  // --- 20. an example env file: names only --------------------------------------------------

  files[".env.example"] = `# Copy to .env and fill in.
DATABASE_URL=
STRIPE_SECRET_KEY=
JWT_SECRET=
# AWS_SECRET_ACCESS_KEY=your-secret-here
SMTP_PASSWORD=<smtp password>
REDIS_PASSWORD=
SENTRY_DSN=
GITHUB_CLIENT_SECRET=# from the OAuth app page
OPENAI_API_KEY=sk-your-key
ENCRYPTION_KEY=generate-with-openssl-rand-hex-32
`;

  // --- 21. CLI help and flag definitions ----------------------------------------------------

  files["cmd/acmectl/help.txt"] = `Usage: acmectl login [flags]

Flags:
  -u, --username string   account name (env ACME_USER)
  -p, --password string   account password (env ACME_PASSWORD); prefer --password-stdin
      --password-stdin    read the password from standard input
      --token TOKEN       an API token instead of a password
      --api-key=<key>     a project API key
      --secret-file PATH  read the client secret from PATH

Examples:
  acmectl login -u alice --password-stdin < ~/.acme-pass
  acmectl login --token "$ACME_TOKEN"
  acmectl login --api-key=<key>
`;
  files["cmd/acmectl/flags.go"] = `package main

import "flag"

var (
	username = flag.String("username", "", "account name")
	password = flag.String("password", "", "account password (or ACME_PASSWORD)")
	apiKey   = flag.String("api-key", "", "project API key")
	tokenEnv = flag.String("token-env", "ACME_TOKEN", "variable that holds the token")
	secretFile = flag.String("secret-file", "/etc/acme/client-secret", "client secret file")
)
`;

  // --- 22. Kubernetes manifests: references, and one literal --------------------------------

  const k8sToken = real("k8s/worker.yaml", random(36));
  files["k8s/api.yaml"] = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  template:
    spec:
      containers:
        - name: api
          image: ghcr.io/acme/api@sha256:${hex(64)}
          env:
            - name: DB_PASSWORD
              valueFrom:
                secretKeyRef:
                  name: api-db
                  key: password
            - name: API_TOKEN_FILE
              value: /var/run/secrets/api/token
            - name: JWT_SECRET
              valueFrom: { secretKeyRef: { name: api-jwt, key: secret } }
          envFrom:
            - secretRef:
                name: api-env
`;
  files["k8s/worker.yaml"] = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: worker
spec:
  template:
    spec:
      containers:
        - name: worker
          image: ghcr.io/acme/worker:4.2.1
          env:
            - name: QUEUE_URL
              value: amqp://rabbit:5672
            - name: API_TOKEN
              value: "${k8sToken}"
`;

  // --- 23. Terraform: references, and a default --------------------------------------------

  const tfPw = real("terraform/variables.tf", chosen());
  files["terraform/main.tf"] = `resource "random_password" "db" {
  length  = 32
  special = true
}

resource "aws_db_instance" "main" {
  identifier        = "main"
  username          = "app"
  password          = random_password.db.result
  kms_key_id        = "arn:aws:kms:eu-west-1:123456789012:key/${uuid()}"
  master_user_secret_kms_key_id = aws_kms_key.db.key_id
}

data "aws_secretsmanager_secret_version" "api" {
  secret_id = "prod/api-token"
}

locals {
  api_token = data.aws_secretsmanager_secret_version.api.secret_string
  password  = var.admin_password
}
`;
  files["terraform/variables.tf"] = `variable "db_password" {
  type      = string
  sensitive = true
}

variable "admin_password" {
  type    = string
  default = "${tfPw}"
}
`;

  // --- 24. PHP and Symfony config: env lookups, and one literal -----------------------------

  const phpPw = real("config/mail.php", chosen());
  files["config/database.php"] = `<?php
return [
    'mysql' => [
        'host' => env('DB_HOST', '127.0.0.1'),
        'password' => env('DB_PASSWORD', ''),
        'key' => env('APP_KEY'),
        'secret' => getenv('APP_SECRET') ?: 'changeme',
        'token' => $_ENV['API_TOKEN'] ?? null,
    ],
];
`;
  files["config/packages/security.yaml"] = `framework:
  secret: '%env(APP_SECRET)%'
security:
  password_hashers:
    Symfony\\Component\\Security\\Core\\User\\PasswordAuthenticatedUserInterface: 'auto'
parameters:
  mailer_password: '%env(resolve:MAILER_PASSWORD)%'
  api_token: '%env(file:API_TOKEN_FILE)%'
`;
  files["config/mail.php"] = `<?php
return [
    'smtp' => [
        'host' => 'smtp.acme.example',
        'username' => 'notifications',
        'password' => '${phpPw}',
    ],
];
`;

  // --- 25. numbers that are not phone numbers, and a contact sheet that has some ------------

  const phone = real("docs/contacts.md", `+49 30 ${v.int(2000, 8999)} ${v.int(1000, 9999)}`, true);
  const email = real(
    "docs/contacts.md",
    `${v.pick(["jonas.weber", "aiko.tanaka", "fatima.haddad"])}@${
      v.pick(["acme-corp.io", "ledgerly.de"])
    }`,
    true,
  );
  files["docs/release-notes.md"] = `# 4.2.1+15550142 (build 20241117.3)

- Version \`1.15.5501+42\`, previously \`1.15.5500+7\`; schema v2024.11.17.
- Listens on ports 8080,8443,15672,5432 by default; metrics on :9102.
- Cache timestamps are milliseconds: 1731834000123 (was seconds, 1731834000).
- Price tiers: $1,299.00 / €1.199,00 / £15,550.14 per year.
- Reference: ISBN 978-0-13-468599-1, ISBN-10 0-13-468599-7.
- Default map centre 52.520008, 13.404954 (zoom +12); time zone +0530.
- The index grew by +15550142 bytes; offset +0x7f3a12; delta +1555014200 ns.
- Issue #15550142 fixed; order ID 4000-1234-5678-9010 no longer shown in logs.
- Tracking: run 9876543210, job 20241117153045.
`;
  files["docs/contacts.md"] = `# On call

| who | phone | mail |
| --- | ----- | ---- |
| Network | ${phone} | ${email} |
| Fiction | +1 555-0142 | ops@example.com |
`;

  // --- 26. test vectors in Go ---------------------------------------------------------------

  const hmacKey = real("internal/webhook/verify.go", random(32));
  files["internal/crypto/vectors_test.go"] = `package crypto

// Published test vectors: keys and digests, not secrets.
var sha256Vectors = []struct{ in, want string }{
	{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	{"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
}

var hmacVectors = []struct{ key, data, want string }{
	{key: "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", data: "4869205468657265", want: "${hex(64)}"},
	{key: "4a656665", data: "7768617420646f2079612077616e7420666f72206e6f7468696e673f", want: "${
    hex(64)
  }"},
}

const testSecret = "test-secret" // the fixture signs with this
`;
  files["internal/webhook/verify.go"] = `package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
)

var signingSecret = []byte("${hmacKey}")

func Valid(body, sig []byte) bool {
	m := hmac.New(sha256.New, signingSecret)
	m.Write(body)
	return hmac.Equal(m.Sum(nil), sig)
}
`;

  // --- 27. request files: variables, and one key in the clear -------------------------------

  const httpKey = real("api/orders.http", random(40));
  files["api/collection.postman.json"] = `{
  "info": { "_postman_id": "${uuid()}", "name": "Acme API" },
  "auth": {
    "type": "bearer",
    "bearer": [{ "key": "token", "value": "{{accessToken}}", "type": "string" }]
  },
  "variable": [
    { "key": "baseUrl", "value": "https://api.acme.example" },
    { "key": "apiKey", "value": "<<API_KEY>>" },
    { "key": "password", "value": "{{password}}" },
    { "key": "clientSecret", "value": "" }
  ]
}
`;
  files["api/orders.http"] = `@baseUrl = https://api.acme.example
@token = {{$dotenv ACME_TOKEN}}

### list orders
GET {{baseUrl}}/v1/orders
Authorization: Bearer {{token}}

### create an order (staging key pasted while debugging)
POST {{baseUrl}}/v1/orders
X-Api-Key: ${httpKey}
Content-Type: application/json
`;

  // --- 28. Ansible: vault references and an encrypted block; one plain password -------------

  const smtpPw = real("ansible/group_vars/mail.yml", chosen());
  const vaultLines = Array.from({ length: 6 }, () => "          " + hex(80)).join("\n");
  files["ansible/group_vars/all.yml"] = `db_password: "{{ vault_db_password }}"
api_token: "{{ lookup('env', 'API_TOKEN') }}"
admin_password: "{{ lookup('community.hashi_vault.hashi_vault', 'secret=secret/data/admin:password') }}"
registry_password: !vault |
          $ANSIBLE_VAULT;1.1;AES256
${vaultLines}
`;
  files["ansible/group_vars/mail.yml"] = `smtp_host: smtp.acme.example
smtp_user: notifications
smtp_password: ${smtpPw}
`;

  // --- 29. compose and Spring: references, and literals -------------------------------------

  const pgPw = real("deploy/compose.prod.yml", random(24));
  files["deploy/compose.prod.yml"] = `services:
  db:
    image: postgres:16
    environment:
      POSTGRES_PASSWORD_FILE: /run/secrets/db_password
      MYSQL_ROOT_PASSWORD: \${MYSQL_ROOT_PASSWORD}
      REPLICA_PASSWORD: \${REPLICA_PASSWORD:?must be set}
    secrets:
      - db_password
  cache:
    image: redis:7
    command: ["redis-server", "--requirepass", "$\${REDIS_PASSWORD}"]
  analytics:
    image: postgres:16
    environment:
      POSTGRES_PASSWORD: ${pgPw}
secrets:
  db_password:
    file: ./secrets/db_password.txt
`;
  const springPw = real("src/main/resources/application-prod.properties", random(20));
  files["src/main/resources/application-prod.properties"] =
    `spring.datasource.url=jdbc:postgresql://db:5432/app
spring.datasource.username=app
spring.datasource.password=\${DB_PASSWORD}
server.ssl.key-store-password=\${KEYSTORE_PASSWORD:}
spring.security.oauth2.client.registration.acme.client-secret=
jasypt.encryptor.password=\${JASYPT_PASSWORD}
app.legacy.password=ENC(${b64(44)})
spring.mail.password=${springPw}
management.endpoints.web.exposure.include=health,info
`;

  // --- 30. a README with URLs that only look like credentials -------------------------------

  files["README.md"] = `# acme-api

[![build](https://img.shields.io/github/actions/workflow/status/acme/api/ci.yml?branch=main)](https://github.com/acme/api/actions)
![avatar](https://www.gravatar.com/avatar/${hex(32)}?s=64)

Clone with a token: \`git clone https://<token>@github.com/acme/api.git\`, or
\`git clone https://x-access-token:\${GITHUB_TOKEN}@github.com/acme/api.git\` in CI.

Connection strings have the form \`postgres://USER:PASSWORD@HOST:5432/DB\`, e.g.
\`postgres://app:app@localhost:5432/app\` for the local stack, or
\`https://username:password@proxy.example.com:3128\` for a proxy.

The commit that introduced the current schema is ${hex(40)}; the release tag points at
${hex(7)}.
`;

  // --- 31. CI scripts: stdin logins, and one password on the command line -------------------

  const dockerPw = real("ci/publish.sh", random(22));
  files["ci/publish.sh"] = `#!/bin/sh
set -eu
echo "$DOCKER_PASSWORD" | docker login -u "$DOCKER_USER" --password-stdin
printf '%s' "$CI_JOB_TOKEN" | docker login -u gitlab-ci-token --password-stdin "$CI_REGISTRY"
helm registry login ghcr.io --username acme --password "$(cat "$GHCR_TOKEN_FILE")"
docker login -u deploy -p ${dockerPw} registry.acme.example
`;

  // --- 32. ids in API payloads, and an Azure AD client secret -------------------------------

  const azureSecret = real(
    "config/azure-ad.json",
    `${v.mixed(ALNUM, 3)}8Q~${v.mixed(ALNUM + "_-.", 34)}`,
  );
  files["fixtures/api/customers.json"] = `{
  "data": [
    { "id": "cus_${random(14)}", "object": "customer", "created": 1731834000, "livemode": false },
    { "id": "${ulid()}", "tenant_id": "${uuid()}", "client_id": "${uuid()}" }
  ],
  "request_id": "req_${random(14)}",
  "idempotency_key": "${uuid()}",
  "next_cursor": "${v.mixed(B64URL, 40)}"
}
`;
  files["config/azure-ad.json"] = `{
  "tenantId": "${uuid()}",
  "clientId": "${uuid()}",
  "clientSecret": "${azureSecret}",
  "authority": "https://login.microsoftonline.com/common"
}
`;

  // --- 33. values marked as allowed inline, in several languages' comments ------------------

  files["tests/fixtures/allowed.sql"] = `-- seed for the e2e suite
CREATE ROLE e2e LOGIN PASSWORD '${chosen()}'; -- wisp:allow e2e role, torn down after the run
INSERT INTO api_keys (name, key) VALUES ('e2e', '${random(40)}'); -- gitleaks:allow
`;
  files["tests/fixtures/allowed.ini"] = `[e2e]
; wisp:allow-next-line fixture only
password = ${chosen()}
token = ${random(32)} ; pragma: allowlist secret
`;
  files["tests/fixtures/allowed.xml"] = `<settings>
  <!-- wisp:allow-next-line: the sandbox account -->
  <password>${chosen()}</password>
  <apiKey>${random(32)}</apiKey> <!-- gitleaks:allow -->
</settings>
`;
  files["tests/fixtures/allowed.tpl"] = `{{/* gitleaks:allow test key */}} API_KEY=${random(32)}
REM wisp:allow
set ADMIN_PASSWORD=${chosen()} & REM wisp:allow sandbox
`;

  return { files, expected };
}
