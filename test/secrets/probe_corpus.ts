/**
 * A second labelled corpus, written after the rules were tuned on the first: configuration of
 * many frameworks and tools, source in many languages, shell history, dumps, logs and patches,
 * each with traps beside the values (placeholders, references, hashes, public material, inline
 * allow comments, documented examples). It is generated in memory from a seed, never committed
 * as files, so every run can draw fresh values. Markers are those of `make_corpus.ts`, plus the
 * ones below for value shapes the first corpus does not have.
 */
import { expand, type Gen, type Label, type Labels, markers } from "./make_corpus.ts";
import { ALNUM, B64, B64URL, DIGIT, LOWER, rng, UPPER, Values } from "./corpus_values.ts";
import { fifthRoundMarkers, fifthRoundTemplates } from "./probe_fifth_round.ts";
import { sixthRoundMarkers, sixthRoundTemplates } from "./probe_sixth_round.ts";
import { seventhRoundMarkers, seventhRoundTemplates } from "./probe_seventh_round.ts";
import { eighthRoundMarkers, eighthRoundTemplates } from "./probe_eighth_round.ts";
import { ninthRoundMarkers, ninthRoundTemplates } from "./probe_ninth_round.ts";

const WORDS = [
  "harbor",
  "maple",
  "orbit",
  "candle",
  "falcon",
  "velvet",
  "otter",
  "quartz",
  "meadow",
  "copper",
  "tundra",
  "lantern",
];

/** A password a person chose: words, digits and a symbol, not a random string. */
function humanPassword(v: Values): string {
  const cap = (w: string) => w[0].toUpperCase() + w.slice(1);
  return v.pick([
    () =>
      `${cap(v.pick(WORDS))}${v.pick(["!", "#", "%", "+", "@"])}${cap(v.pick(WORDS))}${
        v.int(10, 9999)
      }`,
    () => `${v.pick(WORDS)}-${v.pick(WORDS)}-${v.pick(WORDS)}-${v.int(10, 99)}`,
    // A first character a person can write unquoted in YAML, ini and shell files alike (a leading
    // `*` is a YAML alias, `#` a comment, `!` a tag): the label must be the value the file holds.
    () => v.pick([...ALNUM]) + v.mixed(ALNUM + "#!@%*+", v.int(9, 13)),
    () => `${cap(v.pick(WORDS))}_${v.int(1990, 2030)}_${v.pick(WORDS)}`,
  ])();
}

/** A version-4 UUID from 32 hex digits. */
function uuidOf(h: string): string {
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${
    h.slice(20)
  }`;
}

function base64(text: string): string {
  return btoa(text);
}

/** The markers this corpus adds to those of the first one. */
function probeMarkers(v: Values): Record<string, Gen> {
  return {
    ...markers(v),
    "human-pw": [() => humanPassword(v), "password"],
    "basic-b64": [() => base64(`deploy:${humanPassword(v)}`), "basic-auth"],
    "pw-b64": [() => base64(humanPassword(v)), "password"],
    "sonar": [() => v.pick(["squ_", "sqp_", "sqa_"]) + v.hex(40), "sonar-token"],
    "bedrock": [() => "ABSKQmVkcm9ja0FQSUtleS" + v.mixed(B64, 110) + "=", "aws-bedrock-api-key"],
    "hf-org": [() => "api_org_" + v.chars(UPPER + LOWER, 34), "huggingface-token"],
    "airtable": [() => "pat" + v.mixed(ALNUM, 14) + "." + v.hex(64), "airtable-token"],
    "contentful": [() => "CFPAT-" + v.mixed(B64URL, 43), "contentful-token"],
    "mailgun": [() => "key-" + v.hex(32), "mailgun-api-key"],
    "crates": [() => "cio" + v.mixed(ALNUM, 32), "crates-io-token"],
    "gitlab-runner": [() => "glrt-" + v.mixed(B64URL, 20), "gitlab-token"],
    "slack-app": [
      () => `xapp-1-A${v.chars(UPPER + DIGIT, 10)}-${v.digits(13)}-${v.hex(64)}`,
      "slack-token",
    ],
    "openai-svc": [
      () => "sk-svcacct-" + v.mixed(B64URL, 74) + "T3BlbkFJ" + v.mixed(B64URL, 74),
      "openai-api-key",
    ],
    "anthropic-admin": [() => "sk-ant-admin01-" + v.mixed(B64URL, 93) + "AA", "anthropic-api-key"],
    "laravel": [() => "base64:" + base64(v.chars(ALNUM, 32)), "generic-secret"],
    "aws-session": [() => "FwoGZXIvYXdzE" + v.mixed(B64, 300), "generic-secret"],
    "pem-b64": [() => base64(v.pem("RSA PRIVATE KEY", 900) + "\n"), "private-key"],
    "gcloud-refresh": [() => "1//0" + v.mixed(B64URL, 99), "generic-secret"],
    "hex32s": [() => v.hex(32), "generic-secret"],
    "salt": [() => v.mixed(ALNUM + "!#$%&()*+,-./:;<=>?@[]^_{|}~", 64), "generic-secret"],
    "bcrypt": [() => "$2b$12$" + v.mixed(ALNUM + "./", 53), ""],
    "vault-cipher": [() => v.hex(80), ""],
    "b64-public": [() => v.mixed(B64, 400) + "==", ""],
    "b64-32": [() => v.mixed(B64, 43) + "=", "generic-secret"],
    // Stored encrypted or hashed by their tool: traps.
    "pulumi-salt": [
      () => `v1:${v.mixed(B64, 12)}=:v1:${v.mixed(B64, 16)}:${v.mixed(B64, 22)}==`,
      "",
    ],
    "pulumi-cipher": [() => `v1:${v.mixed(B64, 16)}:${v.mixed(B64, 40)}==`, ""],
    "jenkins-cipher": [() => `{AQAAABAAAAAQ${v.mixed(B64, 64)}=}`, ""],
    "md5-hash": [() => "md5" + v.hex(32), ""],
    "scram-hash": [
      () => `SCRAM-SHA-256$4096:${v.mixed(B64, 24)}$${v.mixed(B64, 43)}=:${v.mixed(B64, 43)}=`,
      "",
    ],
    "ya29": [() => "ya29." + v.mixed(B64URL, 120), "gcp-oauth-token"],
    "uuid-secret": [() => uuidOf(v.hex(32)), "generic-secret"],
  };
}

/** The templates: path → text with markers. */
export function probeTemplates(v: Values): Record<string, string> {
  const f: Record<string, string> = {};

  f["django/settings.py"] = `from pathlib import Path
import os

BASE_DIR = Path(__file__).resolve().parent.parent
SECRET_KEY = "django-insecure-⟪salt⟫"
DEBUG = False
ALLOWED_HOSTS = ["shop.acme-corp.io"]

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "shop",
        "USER": "shop",
        "PASSWORD": "⟪human-pw⟫",
        "HOST": "db.internal",
        "PORT": "5432",
    },
    "replica": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "shop",
        "USER": "shop_ro",
        "PASSWORD": os.environ.get("REPLICA_PASSWORD", ""),
        "HOST": "db-ro.internal",
    },
}
EMAIL_HOST = "smtp.mailgun.org"
EMAIL_HOST_USER = "postmaster@mg.acme-corp.io"⟪@email⟫
EMAIL_HOST_PASSWORD = "⟪human-pw⟫"
AUTH_PASSWORD_VALIDATORS = [{"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"}]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.Argon2PasswordHasher"]
CSRF_COOKIE_NAME = "csrftoken"
SESSION_COOKIE_AGE = 1209600
`;

  f["flask/config.py"] = `import os


class Config:
    SECRET_KEY = os.environ.get("SECRET_KEY") or "dev"
    SQLALCHEMY_DATABASE_URI = "mysql+pymysql://flask:⟪db-pw⟫@10.0.3.7⟪@ip-address⟫/flask"
    MAIL_PASSWORD = "⟪human-pw⟫"
    JWT_SECRET_KEY = "⟪generic⟫"


class TestConfig(Config):
    SECRET_KEY = "test"  # pragma: allowlist secret
    WTF_CSRF_ENABLED = False
    API_TOKEN = "⟪gh-pat!⟫"  # gitleaks:allow fixture for the client tests


app.secret_key = b"⟪hex32s⟫"
app.config["STRIPE_KEY"] = "⟪stripe⟫"
`;

  f["fastapi/settings.py"] = `from pydantic_settings import BaseSettings


class Settings(BaseSettings):
    app_name: str = "orders"
    secret_key: str = "⟪generic⟫"
    database_url: str = "postgresql+asyncpg://orders:⟪db-pw⟫@pg.internal/orders"
    access_token_expire_minutes: int = 30
    token_type: str = "bearer"
    password_field: str = "password"
    max_tokens: int = 4096
    openai_api_key: str = "⟪openai-svc⟫"
    redis_password: str | None = None
    token_url: str = "/auth/token"
`;

  f["rails/config/credentials.yml"] = `aws:
  access_key_id: ⟪aws-id⟫
  secret_access_key: ⟪aws-secret⟫
secret_key_base: ⟪hex128⟫
`;

  f["rails/.bundle/config"] = `---
BUNDLE_PATH: "vendor/bundle"
BUNDLE_ENTERPRISE__CONTRIBSYS__COM: "${v.hex(8)}:${v.hex(8)}"⟪@password⟫
BUNDLE_GEMS__ACME__IO: "\${GEMS_CREDENTIALS}"
`;

  f["laravel/.env"] = `APP_NAME=Storefront
APP_ENV=production
APP_KEY=⟪laravel⟫
APP_DEBUG=false
APP_URL=https://store.acme-corp.io

DB_CONNECTION=mysql
DB_HOST=127.0.0.1
DB_PORT=3306
DB_DATABASE=storefront
DB_USERNAME=storefront
DB_PASSWORD=⟪human-pw⟫

MAIL_MAILER=smtp
MAIL_USERNAME=null
MAIL_PASSWORD=null
MAILGUN_SECRET=⟪mailgun⟫
PUSHER_APP_KEY=${v.hex(20)}
PUSHER_APP_SECRET=⟪hex32s⟫
VITE_PUSHER_APP_KEY="\${PUSHER_APP_KEY}"
`;

  f["symfony/.env.local"] = `APP_ENV=prod
APP_SECRET=⟪hex32s⟫
DATABASE_URL="postgresql://app:⟪db-pw⟫@127.0.0.1:5432/app?serverVersion=16&charset=utf8"
MESSENGER_TRANSPORT_DSN=amqp://app:⟪db-pw⟫@rabbit.internal:5672/%2f/messages
MAILER_DSN=smtp://apikey:⟪sendgrid⟫@smtp.sendgrid.net:587
`;

  f["wordpress/wp-config.php"] = `<?php
define( 'DB_NAME', 'wordpress' );
define( 'DB_USER', 'wp_prod' );
define( 'DB_PASSWORD', '⟪human-pw⟫' );
define( 'DB_HOST', 'localhost' );
define( 'DB_CHARSET', 'utf8mb4' );

define( 'AUTH_KEY',         '⟪salt⟫' );
define( 'SECURE_AUTH_KEY',  '⟪salt⟫' );
define( 'LOGGED_IN_SALT',   '⟪salt⟫' );
define( 'NONCE_SALT',       'put your unique phrase here' );

$table_prefix = 'wp_';
define( 'WP_DEBUG', false );
`;

  f["laravel/config/services.php"] = `<?php

return [
    'mailgun' => [
        'domain' => env('MAILGUN_DOMAIN'),
        'secret' => env('MAILGUN_SECRET'),
    ],
    'stripe' => [
        'key' => env('STRIPE_KEY'),
        'secret' => '⟪stripe⟫',
    ],
    'legacy_erp' => [
        'username' => 'integration',
        'password' => '⟪human-pw⟫',
    ],
];
`;

  f["dotnet/appsettings.Production.json"] = `{
  "Logging": { "LogLevel": { "Default": "Information" } },
  "ConnectionStrings": {
    "Orders": "Server=tcp:orders.database.windows.net,1433;Initial Catalog=orders;User ID=orders_app;Password=⟪human-pw⟫;Encrypt=True;",
    "Cache": "cache.internal:6380,password=⟪password⟫,ssl=True,abortConnect=False",
    "Local": "Server=(localdb)\\\\mssqllocaldb;Database=orders;Trusted_Connection=True;"
  },
  "Jwt": { "Issuer": "orders", "Key": "⟪generic⟫" },
  "Redis": { "InstanceName": "orders", "Key": "orders:cart:v2" },
  "SendGrid": { "ApiKey": "⟪sendgrid⟫" },
  "AzureAd": { "ClientId": "⟪uuid⟫", "TenantId": "⟪uuid⟫" }
}
`;

  f["dotnet/Web.config"] = `<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <connectionStrings>
    <add name="Legacy" connectionString="Data Source=sql01;Initial Catalog=crm;User Id=crm;Password=⟪human-pw⟫;" providerName="System.Data.SqlClient" />
    <add name="Reports" connectionString="Driver={ODBC Driver 18 for SQL Server};Server=sql02;Uid=reports;Pwd={⟪password⟫};" />
  </connectionStrings>
  <appSettings>
    <add key="PaymentGatewaySecret" value="⟪generic⟫" />
    <add key="PasswordMinLength" value="12" />
    <add key="ApiKeyHeaderName" value="X-Api-Key" />
  </appSettings>
</configuration>
`;

  f["spring/application.yml"] = `spring:
  datasource:
    url: jdbc:sqlserver://sql.internal:1433;databaseName=ledger;user=ledger;password=⟪human-pw⟫;encrypt=true
    username: ledger
  rabbitmq:
    host: rabbit.internal
    username: ledger
    password: ⟪human-pw⟫
  mail:
    password: \${MAIL_PASSWORD}
app:
  oracle-url: jdbc:oracle:thin:ledger/⟪human-pw⟫@ora.internal:1521/LEDGER
  jwt:
    signing-key: ⟪generic⟫
  cache:
    key: ledger-v2-orders
  session:
    key: _ledger_session_id
  encryption:
    key: ⟪generic⟫
`;

  f["terraform/prod.tfvars"] = `region             = "eu-central-1"
db_username        = "ledger"
db_password        = "⟪human-pw⟫"
datadog_api_key    = "⟪hex32s⟫"
cloudflare_api_token = "⟪generic⟫"
instance_type      = "t3.large"
kms_key_id         = "arn:aws:kms:eu-central-1:123456789012:key/⟪uuid⟫"
`;

  f["k8s/secret.yaml"] = `apiVersion: v1
kind: Secret
metadata:
  name: ledger
type: Opaque
data:
  username: ${base64("ledger")}
  password: ⟪pw-b64⟫
  host: ${base64("db.internal")}
---
apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority-data: ⟪b64-public⟫
    server: https://k8s.internal:6443
  name: prod
users:
- name: ci
  user:
    client-certificate-data: ${
    base64(
      "-----BEGIN CERTIFICATE-----\n" + v.base64Lines(600).join("\n") +
        "\n-----END CERTIFICATE-----\n",
    )
  }
    client-key-data: ⟪pem-b64⟫
    token: ⟪generic⟫
`;

  f["ansible/group_vars/db.yml"] = `postgres_version: 16
ansible_user: deploy
ansible_become_pass: ⟪human-pw⟫
ansible_ssh_pass: ⟪human-pw⟫
replication_password: "{{ vault_replication_password }}"
backup_s3_secret: "⟪aws-secret⟫"
`;

  f["ansible/group_vars/vault.yml"] = `$ANSIBLE_VAULT;1.1;AES256
⟪vault-cipher⟫
⟪vault-cipher⟫
⟪vault-cipher⟫
`;

  f[".github/workflows/deploy.yml"] = `name: deploy
on: [push]
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: docker/login-action@v3
        with:
          registry: ghcr.io
          username: \${{ github.actor }}
          password: \${{ secrets.GITHUB_TOKEN }}
      - uses: some-org/deploy-action@v2
        with:
          api-token: ⟪gh-fine⟫
      - run: kubectl create secret generic ledger --from-literal=password=⟪human-pw⟫
      - run: echo "⟪gh-pat⟫" | docker login ghcr.io -u bot --password-stdin
`;

  f[".circleci/config.yml"] = `version: 2.1
jobs:
  build:
    docker:
      - image: cimg/node:20.11
        auth:
          username: acmebot
          password: ⟪human-pw⟫
    environment:
      SONAR_TOKEN: ⟪sonar⟫
      NODE_ENV: test
`;

  f[".gitlab-ci.yml"] = `variables:
  POSTGRES_PASSWORD: ⟪human-pw⟫
  RUNNER_TOKEN: ⟪gitlab-runner⟫
  DOCKER_AUTH_CONFIG: '{"auths":{"registry.acme-corp.io":{"auth":"⟪basic-b64⟫"}}}'
test:
  script:
    - npm ci
    - npm test
`;

  f["npm/.npmrc"] = `registry=https://registry.npmjs.org/
//nexus.acme-corp.io/repository/npm/:_auth=⟪basic-b64⟫
//nexus.acme-corp.io/repository/npm/:username=deploy
//nexus.acme-corp.io/repository/npm/:_password=⟪pw-b64⟫
//npm.pkg.github.com/:_authToken=\${NODE_AUTH_TOKEN}
`;

  f["yarn/.yarnrc.yml"] = `npmRegistryServer: "https://npm.acme-corp.io"
npmAuthToken: "⟪npm⟫"
npmAlwaysAuth: true
`;

  f["cargo/credentials.toml"] = `[registry]
token = "⟪crates⟫"

[registries.internal]
token = "Bearer ⟪generic⟫"

[registries.mirror]
token = "Bearer \${MIRROR_TOKEN}"
`;

  f["gem/credentials"] = `---
:rubygems_api_key: rubygems_${v.hex(48)}⟪@rubygems-token⟫
`;

  f["gradle/gradle.properties"] = `org.gradle.jvmargs=-Xmx2g
signing.keyId=24875D73
signing.password=⟪human-pw⟫
signing.secretKeyRingFile=/home/ci/.gnupg/secring.gpg
ossrhUsername=acme
ossrhPassword=⟪human-pw⟫
systemProp.https.proxyPassword=⟪human-pw⟫
`;

  f["composer/auth.json"] = `{
  "http-basic": {
    "repo.packagist.com": { "username": "token", "password": "⟪generic⟫" }
  },
  "github-oauth": { "github.com": "⟪gh-oauth⟫" },
  "gitlab-token": { "gitlab.acme-corp.io": "⟪gitlab⟫" }
}
`;

  f["aws/credentials"] = `[default]
aws_access_key_id = ⟪aws-id⟫
aws_secret_access_key = ⟪aws-secret⟫

[ci]
aws_access_key_id = ASIA${v.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)}⟪@aws-access-key-id⟫
aws_secret_access_key = ⟪aws-secret⟫
aws_session_token = ⟪aws-session⟫
`;

  f["gcloud/application_default_credentials.json"] = `{
  "account": "",
  "client_id": "${v.digits(12)}-${v.chars(LOWER + DIGIT, 32)}.apps.googleusercontent.com",
  "client_secret": "⟪generic⟫",
  "refresh_token": "⟪gcloud-refresh⟫",
  "type": "authorized_user",
  "universe_domain": "googleapis.com"
}
`;

  f["azure/servicebus.env"] = `AZURE_CLIENT_ID=⟪uuid⟫
AZURE_TENANT_ID=⟪uuid⟫
AZURE_CLIENT_SECRET=${v.mixed(ALNUM, 3)}8Q~${v.mixed(ALNUM + "_-.~", 31)}⟪@azure-ad-client-secret⟫
AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=ledgerprod;AccountKey=⟪azure-key⟫;EndpointSuffix=core.windows.net"
`;

  f["src/main.go"] = `package main

import (
	"database/sql"
	"os"
)

const stripeKey = "⟪stripe⟫"

var dsn = "ledger:⟪db-pw⟫@tcp(db.internal:3306)/ledger?parseTime=true"

type Config struct {
	APIToken string
	Password string
}

func load() Config {
	apiSecret := "⟪generic⟫"
	_ = apiSecret
	return Config{
		APIToken: os.Getenv("API_TOKEN"),
		Password: "⟪human-pw⟫",
	}
}

func open() (*sql.DB, error) { return sql.Open("mysql", dsn) }
`;

  f["src/lib.rs"] = `use reqwest::Client;

const API_TOKEN: &str = "⟪generic⟫";
static SENTRY_DSN: &str = "https://${v.hex(32)}@o12345.ingest.sentry.io/67890";

pub fn client() -> Client {
    let password: String = "⟪human-pw⟫".to_string();
    let token_len: usize = 32;
    Client::builder().build().unwrap()
}
`;

  f["src/Billing.kt"] = `package io.acmecorp.ledger

object Billing {
    private const val API_SECRET: String = "⟪generic⟫"
    val mapboxToken = "pk.${"eyJ" + v.mixed(B64URL, 60)}.${v.mixed(B64URL, 22)}"
    val passwordHint = R.string.password_hint
}
`;

  f["src/Keys.swift"] = `import Foundation

enum Keys {
    static let clientSecret: String = "⟪generic⟫"
    static let analyticsKey = "⟪hex32!⟫" // wisp:allow public write-only analytics key
    static let passwordResetPath = "/account/password/reset"
}
`;

  f["src/Repository.java"] = `package io.acmecorp.ledger;

import java.util.Properties;

class Repository {
    Properties props() {
        Properties p = new Properties();
        p.setProperty("user", "ledger");
        p.setProperty("password", "⟪human-pw⟫");
        return p;
    }

    void configure(DataSource ds) {
        ds.setUsername("ledger");
        ds.setPassword("⟪human-pw⟫");
        ds.setPasswordFile("/run/secrets/db");
        ds.setPassword(System.getenv("DB_PASSWORD"));
        form.setPasswordVisible(true);
        client.withToken("");
        user.setPassword(hashed);
    }
}
`;

  f["src/Mailer.cs"] = `using System.Net;

public class Mailer
{
    private const string ApiKey = "⟪sendgrid⟫";
    private readonly string _password = "⟪human-pw⟫";

    public NetworkCredential Credentials() =>
        new NetworkCredential("mailer", _password);
}
`;

  f["src/upload.ts"] = `import { S3Client } from "@aws-sdk/client-s3";

export const s3 = new S3Client({
  region: "eu-central-1",
  credentials: {
    accessKeyId: "⟪aws-id⟫",
    secretAccessKey: "⟪aws-secret⟫",
  },
});

const headers = { "x-api-key": "⟪generic⟫", "content-type": "application/json" };
const contentful = { space: "${v.chars(LOWER + DIGIT, 12)}", accessToken: "⟪contentful⟫" };
export const passwordPattern = /^(?=.*[A-Z]).{12,}$/;
`;

  f["src/legacy.rb"] = `class LegacyClient
  API_KEY = "⟪generic⟫"

  def initialize
    @conn = Faraday.new(url: "https://erp.acme-corp.io") do |f|
      f.request :authorization, :basic, "erp", "⟪human-pw⟫"
    end
    @token = ENV.fetch("ERP_TOKEN")
  end
end
`;

  f["src/erp_client.py"] = `import requests
from requests.auth import HTTPBasicAuth

ERP = "https://erp.acme-corp.io/api"


def orders():
    return requests.get(ERP + "/orders", auth=HTTPBasicAuth("erp", "⟪human-pw⟫"))


def stock():
    return requests.get(ERP + "/stock", auth=("erp", "⟪human-pw⟫"))


def health(user, password):
    return requests.get(ERP + "/health", auth=HTTPBasicAuth(user, password))


def sandbox():
    return requests.get(ERP + "/orders", auth=("demo", "demo"))
`;

  f["scripts/setup.ps1"] = `$ErrorActionPreference = "Stop"
$password = ConvertTo-SecureString "⟪human-pw⟫" -AsPlainText -Force
$cred = New-Object System.Management.Automation.PSCredential ("svc_deploy", $password)
$token = $env:DEPLOY_TOKEN
Invoke-RestMethod -Uri https://api.acme-corp.io -Headers @{ Authorization = "Bearer ⟪generic⟫" }
$securePrompt = Read-Host -AsSecureString "Password"
$fromVault = ConvertTo-SecureString $plainFromVault -AsPlainText -Force
`;

  f["scripts/bootstrap.sh"] = `#!/bin/sh
set -eu
export PGPASSWORD='⟪human-pw⟫'
psql -h db.internal -U ledger -c 'select 1'
redis-cli -h cache.internal -a ⟪password⟫ ping
openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:⟪human-pw⟫
keytool -importkeystore -srckeystore bundle.p12 -storepass changeit
htpasswd -b -c /etc/nginx/.htpasswd admin ⟪human-pw⟫
mongosh "mongodb://admin:⟪db-pw⟫@mongo-0.internal,mongo-1.internal/ledger?replicaSet=rs0"
curl -s -H "Authorization: Basic ⟪basic-b64⟫" https://nexus.acme-corp.io/service/rest/v1/status
sqlcmd -S sql.internal -U sa -P '⟪human-pw⟫' -Q "SELECT 1"
redis-cli -h cache.internal -a "$REDIS_PASSWORD" info
openssl rsa -in enc.key -out plain.key -passin env:KEY_PASSPHRASE
openssl pkcs12 -in bundle.p12 -nodes -passin pass:$P12_PASSWORD
htpasswd -c /etc/nginx/.htpasswd admin
aws configure set region eu-central-1
git config --global user.email ci@acme-corp.io⟪@email⟫
npm config set registry https://npm.acme-corp.io/
`;

  f["history/.bash_history"] = `ls -la
cd ledger
export OPENAI_API_KEY=⟪openai⟫
git remote set-url origin https://acme-bot:⟪gh-pat⟫@github.com/acme/ledger.git
mysql -uroot -p⟪human-pw⟫ ledger
aws configure set aws_secret_access_key ⟪aws-secret⟫
vault login ⟪@vault-token⟫hvs.${v.mixed(B64URL, 90)}
npm token list
history | grep token
`;

  f["notebooks/explore.ipynb"] = JSON.stringify(
    {
      cells: [
        {
          cell_type: "code",
          execution_count: 3,
          metadata: {},
          outputs: [{
            name: "stdout",
            output_type: "stream",
            text: ["connected with token ⟪hf-org⟫\n"],
          }],
          source: [
            "import os\n",
            'client = Client(api_key="⟪anthropic-admin⟫")\n',
            'AIRTABLE_TOKEN = "⟪airtable⟫"\n',
          ],
        },
      ],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5,
    },
    null,
    1,
  ) + "\n";

  f["db/dump.sql"] = `-- PostgreSQL database dump
CREATE ROLE reporting WITH LOGIN PASSWORD '⟪human-pw⟫';
ALTER USER ledger WITH PASSWORD '⟪human-pw⟫';
CREATE USER 'etl'@'%' IDENTIFIED BY '⟪human-pw⟫';
INSERT INTO users (id, email, password_hash) VALUES (1, 'maria@acme-corp.io'⟪@email⟫, '⟪bcrypt⟫');
INSERT INTO api_clients (id, name, client_secret) VALUES (7, 'erp', '⟪generic⟫');
INSERT INTO webhooks (id, url) VALUES (3, '⟪slack-webhook⟫');
INSERT INTO api_clients (id, name, client_secret) VALUES (8, 'sandbox', 'test_client_secret_1'), (9, 'ci', NULL);
ALTER TABLE users ADD COLUMN password_reset_token VARCHAR(64);
SELECT id FROM users WHERE password = 'hunter2';
CREATE USER 'readonly'@'%' IDENTIFIED BY '\${READONLY_PASSWORD}';
GRANT SELECT ON ledger.* TO 'readonly'@'%';
`;

  f["logs/gateway.log"] =
    `2026-11-30T10:01:12Z INFO request GET /v1/orders?access_token=⟪generic⟫&page=2 200
2026-11-30T10:01:13Z WARN retry POST /v1/charge key=${v.hex(8)} attempt=2
2026-11-30T10:01:14Z DEBUG outbound headers: Authorization: Basic ⟪basic-b64⟫
2026-11-30T10:01:15Z INFO bedrock client ready key=⟪bedrock⟫
2026-11-30T10:01:16Z ERROR smtp auth failed for user=mailer pass=⟪human-pw⟫
2026-11-30T10:01:17Z INFO token refreshed expires_in=3600 token_type=bearer
`;

  f["docker/Dockerfile"] = `FROM node:20-alpine
ARG NPM_TOKEN
ARG SENTRY_AUTH_TOKEN=⟪generic⟫
ENV DB_PASSWORD ⟪human-pw⟫
ENV PASSWORD_MIN_LENGTH=12
RUN echo "//registry.npmjs.org/:_authToken=\${NPM_TOKEN}" > .npmrc && npm ci
`;

  f["docker/compose.override.yml"] = `services:
  api:
    environment:
      SLACK_APP_TOKEN: ⟪slack-app⟫
      REDIS_URL: rediss://default:⟪db-pw⟫@cache.internal:6380
      JWT_SECRET: \${JWT_SECRET:?set JWT_SECRET}
  db:
    image: mysql:8
    environment:
      MYSQL_ROOT_PASSWORD: ⟪human-pw⟫
      MYSQL_PASSWORD_FILE: /run/secrets/mysql
`;

  f["ssh/config"] = `Host bastion
  HostName bastion.acme-corp.io
  User deploy
  IdentityFile ~/.ssh/id_ed25519
  ProxyCommand sshpass -p ⟪human-pw⟫ ssh -W %h:%p jump.acme-corp.io
`;

  f["postman/ledger.postman_environment.json"] = `{
  "name": "ledger prod",
  "values": [
    { "key": "baseUrl", "value": "https://api.acme-corp.io", "enabled": true },
    { "key": "Content-Type", "value": "application/json", "enabled": true },
    { "key": "tokenUrl", "value": "https://login.acme-corp.io/oauth2/token", "enabled": true },
    { "key": "apiKeyHeader", "value": "X-Api-Key", "enabled": true },
    { "key": "apiKey", "value": "⟪generic⟫", "type": "secret", "enabled": true },
    { "key": "password", "value": "⟪human-pw⟫", "enabled": true }
  ]
}
`;

  f["docs/CONFIGURING.md"] = `# Configuring the ledger

Set \`DB_PASSWORD=<your-password>\` and \`API_TOKEN=your-token-here\`, for example:

    export DB_PASSWORD=changeme
    export SONAR_TOKEN=squ_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
    curl -u admin:admin http://localhost:8080/api
    mysql -u root -ppassword

Contentful tokens start with \`CFPAT-\`; Mailgun keys look like \`key-0123456789abcdef0123456789abcdef\`.
The test suite logs in as \`alice\` with the password \`P@ssw0rd123!\`.
`;

  f["test/fixtures/users.json"] = `[
  { "username": "alice", "password": "hunter2" },
  { "username": "bob", "password": "Password123!" },
  { "username": "carol", "password": "test" },
  { "username": "dave", "password": "fake-password-for-tests" },
  { "username": "erin", "apiKey": "test_api_key_123" },
  { "username": "frank", "token": "dummy-token" }
]
`;

  f["changes/rotate.patch"] = `diff --git a/config/prod.env b/config/prod.env
index 4a1b2c3..5d6e7f8 100644
--- a/config/prod.env
+++ b/config/prod.env
@@ -1,4 +1,4 @@
 APP_ENV=production
-DB_PASSWORD=⟪human-pw⟫
+DB_PASSWORD=\${DB_PASSWORD}
-CONTENTFUL_TOKEN=⟪contentful⟫
+CONTENTFUL_TOKEN=\${CONTENTFUL_TOKEN}
 LOG_LEVEL=info
`;

  return { ...f, ...secondRound(v), ...thirdRound(v) };
}

/** Files written in a second round, after the first round's misses were fixed. */
function secondRound(v: Values): Record<string, string> {
  const f: Record<string, string> = {};

  f["nextjs/.env.production"] = `NEXTAUTH_URL=https://app.acme-corp.io
NEXTAUTH_SECRET=⟪generic⟫
SUPABASE_SERVICE_ROLE_KEY=⟪jwt⟫
NEXT_PUBLIC_SITE_NAME="Acme"
RESEND_API_KEY=re_${v.mixed(ALNUM, 8)}_${v.mixed(ALNUM, 24)}⟪@generic-secret⟫
`;

  f["gh/hosts.yml"] = `github.com:
    user: acme-bot
    oauth_token: ⟪gh-oauth⟫
    git_protocol: https
`;

  f["terraform/.terraformrc"] = `credentials "app.terraform.io" {
  token = "${v.mixed(ALNUM, 14)}.atlasv1.${v.mixed(B64URL, 67)}"⟪@terraform-cloud-token⟫
}
`;

  f["s3/.s3cfg"] = `[default]
access_key = ⟪aws-id⟫
secret_key = ⟪aws-secret⟫
gpg_passphrase = ⟪human-pw⟫
host_base = s3.amazonaws.com
use_https = True
`;

  f["mysql/.my.cnf"] = `[client]
user=backup
password=⟪human-pw⟫
host=db.internal
`;

  f["pip/pip.conf"] = `[global]
index-url = https://__token__:⟪pypi⟫@pypi.acme-corp.io/simple
timeout = 60
`;

  f["jenkins/Jenkinsfile"] = `pipeline {
  agent any
  environment {
    SONAR_HOST = 'https://sonar.acme-corp.io'
    DEPLOY_TOKEN = '⟪generic⟫'
    REGISTRY_CREDS = credentials('registry-creds')
  }
  stages {
    stage('push') {
      steps {
        withCredentials([usernamePassword(credentialsId: 'nexus', usernameVariable: 'U', passwordVariable: 'P')]) {
          sh 'curl -u $U:$P https://nexus.acme-corp.io/upload'
        }
      }
    }
  }
}
`;

  f["vagrant/Vagrantfile"] = `Vagrant.configure("2") do |config|
  config.vm.box = "ubuntu/jammy64"
  config.ssh.username = "vagrant"
  config.ssh.password = "⟪human-pw⟫"
end
`;

  f["redis/redis.conf"] = `bind 127.0.0.1
port 6379
requirepass ⟪human-pw⟫
masterauth ⟪human-pw⟫
# requirepass foobared
`;

  f["haproxy/haproxy.cfg"] = `listen stats
  bind *:8404
  stats enable
  stats uri /stats
  stats auth admin:⟪human-pw⟫
`;

  f["nextcloud/config.php"] = `<?php
$CONFIG = array (
  'passwordsalt' => '⟪generic⟫',
  'secret' => '⟪generic⟫',
  'dbtype' => 'pgsql',
  'dbuser' => 'nextcloud',
  'dbpassword' => '⟪human-pw⟫',
  'mail_smtppassword' => '⟪human-pw⟫',
);
`;

  f["mediawiki/LocalSettings.php"] = `<?php
$wgDBserver = "localhost";
$wgDBuser = "wiki";
$wgDBpassword = "⟪human-pw⟫";
$wgSecretKey = "⟪hex64⟫⟪@generic-secret⟫";
$wgUpgradeKey = "${v.hex(16)}";⟪@generic-secret⟫
`;

  f["elixir/config/prod.secret.exs"] = `import Config

config :shop, Shop.Repo,
  username: "shop",
  password: "⟪human-pw⟫",
  pool_size: 10

config :shop, ShopWeb.Endpoint,
  secret_key_base: "⟪generic⟫"
`;

  f["play/conf/application.conf"] = `play.http.secret.key = "⟪generic⟫"
db.default.url = "jdbc:postgresql://db.internal/shop"
db.default.password = "⟪human-pw⟫"
play.filters.hosts.allowed = ["."]
`;

  f["src/aws.py"] = `import boto3

s3 = boto3.client(
    "s3",
    aws_access_key_id="⟪aws-id⟫",
    aws_secret_access_key="⟪aws-secret⟫",
)
ses = boto3.client("ses", region_name="eu-west-1")
`;

  f["src/Db.java"] = `import java.sql.*;

class Db {
    Connection open() throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://db.internal/shop", "shop", "⟪human-pw⟫");
    }

    Connection openFromEnv() throws SQLException {
        return DriverManager.getConnection(url, user, System.getenv("DB_PASSWORD"));
    }
}
`;

  f["src/db.php"] = `<?php
$mysqli = new mysqli("localhost", "shop", "⟪human-pw⟫", "shop");
$pdo = new PDO("mysql:host=db.internal;dbname=shop", "shop", "⟪human-pw⟫");
$link = mysqli_connect("localhost", "shop", "⟪human-pw⟫", "shop");
$env = new PDO($dsn, $user, getenv("DB_PASSWORD"));
`;

  f["src/db.js"] = `const { Sequelize } = require("sequelize");

const sequelize = new Sequelize("shop", "shop", "⟪human-pw⟫", { host: "db.internal", dialect: "postgres" });
const fromEnv = new Sequelize(process.env.DB_URL);
`;

  f["src/mail.py"] = `import smtplib

with smtplib.SMTP_SSL("smtp.acme-corp.io", 465) as smtp:
    smtp.login("alerts@acme-corp.io"⟪@email⟫, "⟪human-pw⟫")
    smtp.login(user, password)
`;

  f["src/mail.go"] = `package mail

import "net/smtp"

var auth = smtp.PlainAuth("", "alerts@acme-corp.io"⟪@email⟫, "⟪human-pw⟫", "smtp.acme-corp.io")
var fromEnv = smtp.PlainAuth("", user, os.Getenv("SMTP_PASSWORD"), host)
`;

  f["scripts/run.sh"] = `#!/bin/sh
docker run -d -e POSTGRES_PASSWORD=⟪human-pw⟫ -e POSTGRES_USER=shop postgres:16
docker run -d -e "MYSQL_ROOT_PASSWORD=\$ROOT_PW" mysql:8
kubectl create secret docker-registry regcred --docker-server=ghcr.io --docker-username=bot --docker-password=⟪gh-pat⟫
helm install shop ./chart --set postgresql.auth.password=⟪human-pw⟫ --set image.tag=1.4.2
`;

  f["helm/bitnami-values.yaml"] = `auth:
  rootPassword: ⟪human-pw⟫
  replicationPassword: ⟪human-pw⟫
  existingSecret: ""
architecture: replication
metrics:
  enabled: true
`;

  f["sentry/sentry.properties"] = `defaults.org=acme
defaults.project=shop
auth.token=sntrys_${v.mixed(B64URL, 60)}⟪@sentry-token⟫
`;

  f["docs/SETUP.md"] = `## Local setup

1. Copy \`.env.example\` to \`.env\`.
2. Run \`docker run -e POSTGRES_PASSWORD=postgres postgres:16\`.
3. Log in with \`admin\` / \`admin\`.

    redis-cli -a <password> ping
    mysql -u root -p
    DriverManager.getConnection(url, "sa", "")
`;

  return f;
}

/** Files written in a third round, after the second round's misses were fixed. */
function thirdRound(v: Values): Record<string, string> {
  const f: Record<string, string> = {};

  f["android/app/src/main/res/values/secrets.xml"] = `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="app_name">Ledger</string>
    <string name="maps_api_key">⟪gcp-key⟫</string>
    <string name="backend_client_secret">⟪generic⟫</string>
    <string name="password_hint">At least 12 characters</string>
</resources>
`;

  f["ios/Ledger/Info.plist"] = `<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0">
<dict>
    <key>CFBundleName</key>
    <string>Ledger</string>
    <key>BackendClientSecret</key>
    <string>⟪generic⟫</string>
    <key>NSFaceIDUsageDescription</key>
    <string>Unlock your password vault</string>
</dict>
</plist>
`;

  f["java/hibernate.cfg.xml"] = `<hibernate-configuration>
  <session-factory>
    <property name="hibernate.connection.url">jdbc:postgresql://db.internal/ledger</property>
    <property name="hibernate.connection.username">ledger</property>
    <property name="hibernate.connection.password">⟪human-pw⟫</property>
    <property name="hibernate.dialect">org.hibernate.dialect.PostgreSQLDialect</property>
  </session-factory>
</hibernate-configuration>
`;

  f["tomcat/context.xml"] = `<Context>
  <Resource name="jdbc/ledger" auth="Container" type="javax.sql.DataSource"
            username="ledger" password="⟪human-pw⟫"
            url="jdbc:postgresql://db.internal/ledger"/>
</Context>
`;

  f["maven/pom.xml"] = `<project>
  <properties>
    <db.user>ledger</db.user>
    <db.password>⟪human-pw⟫</db.password>
    <sonar.login>⟪sonar⟫</sonar.login>
  </properties>
</project>
`;

  f["firmware/config.h"] = `#ifndef CONFIG_H
#define CONFIG_H
#define WIFI_SSID "acme-iot"
#define WIFI_PASSWORD "⟪human-pw⟫"
#define MQTT_TOKEN "⟪generic⟫"
#define TOKEN_BUFFER_SIZE 256
#endif
`;

  f["build/Makefile"] = `REGISTRY := registry.acme-corp.io
REGISTRY_PASSWORD := ⟪human-pw⟫
API_TOKEN ?= ⟪generic⟫

push:
\tdocker login -u ci -p $(REGISTRY_PASSWORD) $(REGISTRY)
`;

  f["netlify/netlify.toml"] = `[build]
  command = "npm run build"

[build.environment]
  NODE_VERSION = "20"
  CMS_API_TOKEN = "⟪generic⟫"
`;

  f["serverless/serverless.yml"] = `service: ledger-api
provider:
  name: aws
  environment:
    STRIPE_SECRET: ⟪stripe⟫
    DB_PASSWORD: \${ssm:/ledger/db-password}
    WEBHOOK_SIGNING_SECRET: ⟪generic⟫
`;

  f["erlang/sys.config"] = `[
  {ledger, [
    {db_host, "db.internal"},
    {db_password, "⟪human-pw⟫"},
    {api_secret, <<"⟪generic⟫">>}
  ]}
].
`;

  f["travis/.travis.yml"] = `language: node_js
env:
  global:
    - secure: "${v.mixed(B64, 340)}="
deploy:
  provider: npm
  api_key:
    secure: "${v.mixed(B64, 340)}="
`;

  f["scripts/provision.sh"] = `#!/bin/bash
echo '⟪human-pw⟫' | sudo -S apt-get update
echo "deploy:⟪human-pw⟫" | chpasswd
ldapsearch -x -H ldap://ldap.internal -D "cn=admin,dc=acme,dc=io" -w '⟪human-pw⟫' "(uid=deploy)"
rabbitmqctl add_user ledger ⟪human-pw⟫
echo "$SUDO_PASSWORD" | sudo -S systemctl restart ledger
ldapsearch -x -D "cn=admin,dc=acme,dc=io" -W "(uid=deploy)"
`;

  // --- fourth batch: servers' and tools' own config formats, infrastructure state, Windows,
  // captured traffic and more languages (written before any fix for them).

  f["vault/server.hcl"] = `storage "consul" {
  address = "127.0.0.1:8500"
  path    = "vault/"
  token   = "⟪uuid-secret⟫"
}

seal "awskms" {
  region     = "eu-central-1"
  access_key = "⟪aws-id⟫"
  secret_key = "⟪aws-secret⟫"
  kms_key_id = "⟪uuid⟫"
}

listener "tcp" {
  address       = "0.0.0.0:8200"
  tls_cert_file = "/etc/vault/tls/vault.crt"
  tls_key_file  = "/etc/vault/tls/vault.key"
}
`;

  f["consul/consul.hcl"] = `datacenter = "fra1"
data_dir   = "/opt/consul"
encrypt    = "⟪b64-32⟫"

acl {
  enabled        = true
  default_policy = "deny"
  tokens {
    initial_management = "⟪uuid-secret⟫"
    agent              = "⟪uuid-secret⟫"
  }
}

node_id = "⟪uuid⟫"
`;

  f["nginx/conf.d/erp.conf"] = `server {
    listen 443 ssl;
    server_name erp.acme-corp.io;
    ssl_certificate_key /etc/nginx/tls/erp.key;
    auth_basic "Restricted";
    auth_basic_user_file /etc/nginx/.htpasswd;

    location /upstream/ {
        proxy_pass https://erp-backend.internal/;
        proxy_set_header Authorization "Basic ⟪basic-b64⟫";
        proxy_set_header X-Api-Key ⟪generic⟫;
        proxy_set_header X-Request-Id $request_id;
    }
}
`;

  f["apache/sites-enabled/intranet.conf"] = `<VirtualHost *:443>
    ServerName intranet.acme-corp.io
    SSLCertificateKeyFile /etc/ssl/private/intranet.key
    <Location />
        AuthType Basic
        AuthBasicProvider ldap
        AuthLDAPURL "ldap://ldap.internal/ou=people,dc=acme,dc=io?uid"
        AuthLDAPBindDN "cn=apache,dc=acme,dc=io"
        AuthLDAPBindPassword "⟪human-pw⟫"
        Require valid-user
    </Location>
    RequestHeader set X-Backend-Token "⟪generic⟫"
    SSLPassPhraseDialog exec:/usr/local/bin/passphrase.sh
</VirtualHost>
`;

  f["postfix/sasl_passwd"] = `# relay credentials, postmap after editing
[smtp.sendgrid.net]:587 apikey:⟪sendgrid⟫
[smtp.mailgun.org]:587 postmaster@mg.acme-corp.io:⟪human-pw⟫⟪@email⟫
`;

  f["dovecot/dovecot-sql.conf.ext"] = `driver = pgsql
connect = host=db.internal dbname=mail user=dovecot password=⟪password⟫
default_pass_scheme = SHA512-CRYPT
password_query = SELECT username AS user, password FROM users WHERE username = '%n'
`;

  f["drupal/sites/default/settings.php"] = `<?php
$databases['default']['default'] = [
  'database' => 'drupal',
  'username' => 'drupal',
  'password' => '⟪human-pw⟫',
  'host' => 'db.internal',
  'driver' => 'mysql',
];
$settings['hash_salt'] = '⟪generic⟫';
$settings['config_sync_directory'] = '../config/sync';
$settings['file_private_path'] = '/var/private';
`;

  f["magento/app/etc/env.php"] = `<?php
return [
    'backend' => ['frontName' => 'admin_x7k2'],
    'crypt' => [
        'key' => '⟪hex32s⟫'
    ],
    'db' => [
        'connection' => [
            'default' => [
                'host' => 'db.internal',
                'dbname' => 'magento',
                'username' => 'magento',
                'password' => '⟪human-pw⟫',
                'active' => '1'
            ]
        ]
    ],
    'install' => ['date' => 'Tue, 14 May 2024 09:12:44 +0000'],
];
`;

  f["systemd/ledger.service"] = `[Unit]
Description=Ledger API
After=network-online.target

[Service]
User=ledger
EnvironmentFile=/etc/ledger/ledger.env
Environment="DATABASE_PASSWORD=⟪password⟫"
Environment=LEDGER_API_TOKEN=⟪generic⟫ LOG_LEVEL=info
Environment="JAVA_OPTS=-Xmx512m"
ExecStart=/opt/ledger/bin/ledger --port 8080
LoadCredential=tls-key:/etc/ledger/tls.key
`;

  f["cron/backup"] = `# m h dom mon dow user command
SHELL=/bin/sh
MAILTO=ops@acme-corp.io⟪@email⟫
15 3 * * * postgres PGPASSWORD='⟪human-pw⟫' pg_dump -h db.internal ledger | gzip > /backup/ledger.sql.gz
30 3 * * * root curl -fsS -H "X-Api-Key: ⟪generic⟫" https://hc.acme-corp.io/ping/backup
45 3 * * * root /usr/local/bin/rotate --keep 14
`;

  f["windows/app.ini"] = `[Database]
Server=SQL01\\LEDGER
Uid=ledger_app
Pwd=⟪human-pw⟫

[Smtp]
Host=smtp.acme-corp.io
Password=⟪password⟫

[Paths]
KeyFile=C:\\ProgramData\\Ledger\\signing.pfx
`;

  f["windows/proxy.reg"] = `Windows Registry Editor Version 5.00

[HKEY_LOCAL_MACHINE\\SOFTWARE\\Acme\\Ledger]
"ProxyServer"="proxy.internal:3128"
"ProxyUser"="svc_ledger"
"ProxyPassword"="⟪human-pw⟫"
"LicenseKey"="⟪generic⟫"
"InstallDir"="C:\\\\Program Files\\\\Ledger"
`;

  f["windows/deploy.bat"] = `@echo off
set DEPLOY_USER=svc_deploy
set DEPLOY_PASS=⟪human-pw⟫
net use \\\\files01\\releases /user:ACME\\svc_deploy ⟪human-pw⟫
set "API_TOKEN=⟪generic⟫"
set PASSWORD_PROMPT=Enter the password:
set /p ADMIN_PASS=Admin password:
`;

  f["har/checkout.har"] = `{
  "log": {
    "version": "1.2",
    "entries": [
      {
        "request": {
          "method": "POST",
          "url": "https://api.acme-corp.io/v2/checkout",
          "headers": [
            { "name": "Authorization", "value": "Bearer ⟪jwt⟫" },
            { "name": "X-Api-Key", "value": "⟪generic⟫" },
            { "name": "Accept", "value": "application/json" }
          ],
          "cookies": [{ "name": "theme", "value": "dark" }]
        },
        "response": { "status": 200, "headers": [{ "name": "ETag", "value": "W/\\"⟪hex32⟫\\"" }] }
      }
    ]
  }
}
`;

  f["curl/.curlrc"] = `# defaults for every curl call
user = "deploy:⟪human-pw⟫"
header = "Authorization: Bearer ⟪bearer⟫"
retry = 3
`;

  f["wget/.wgetrc"] = `http_user = deploy
http_password = ⟪human-pw⟫
ftp_password = ⟪password⟫
check_certificate = on
`;

  f["terraform/terraform.tfstate"] = `{
  "version": 4,
  "terraform_version": "1.7.5",
  "resources": [
    {
      "mode": "managed",
      "type": "aws_db_instance",
      "name": "ledger",
      "instances": [
        {
          "attributes": {
            "arn": "arn:aws:rds:eu-central-1:123456789012:db:ledger",
            "username": "ledger",
            "password": "⟪human-pw⟫",
            "master_user_secret": [],
            "kms_key_id": ""
          },
          "sensitive_attributes": [[{ "type": "get_attr", "value": "password" }]]
        }
      ]
    },
    {
      "mode": "managed",
      "type": "random_password",
      "name": "api",
      "instances": [{ "attributes": { "length": 32, "result": "⟪password⟫", "special": true } }]
    }
  ]
}
`;

  f["cloudformation/template.yaml"] = `AWSTemplateFormatVersion: "2010-09-09"
Parameters:
  DbPassword:
    Type: String
    NoEcho: true
Resources:
  LedgerDb:
    Type: AWS::RDS::DBInstance
    Properties:
      MasterUsername: ledger
      MasterUserPassword: ⟪human-pw⟫
  LedgerReplica:
    Type: AWS::RDS::DBInstance
    Properties:
      MasterUserPassword: !Ref DbPassword
  LedgerCache:
    Type: AWS::ElastiCache::ReplicationGroup
    Properties:
      AuthToken: '{{resolve:secretsmanager:ledger/cache:SecretString:token}}'
  Webhook:
    Type: AWS::Lambda::Function
    Properties:
      Environment:
        Variables:
          WEBHOOK_SECRET: ⟪generic⟫
`;

  f["pulumi/Pulumi.prod.yaml"] = `encryptionsalt: ⟪pulumi-salt⟫
config:
  aws:region: eu-central-1
  ledger:dbPassword:
    secure: ⟪pulumi-cipher⟫
  ledger:stripeKey: ⟪stripe⟫
  ledger:apiSigningSecret: ⟪generic⟫
`;

  f["heroku/app.json"] = `{
  "name": "ledger",
  "env": {
    "SECRET_KEY_BASE": { "description": "Rails secret", "generator": "secret" },
    "SENTRY_DSN": { "required": false },
    "PARTNER_API_KEY": { "description": "Partner API", "value": "⟪generic⟫" }
  },
  "addons": ["heroku-postgresql"]
}
`;

  f["vercel/vercel.json"] = `{
  "env": {
    "API_SECRET": "@ledger-api-secret",
    "UPSTREAM_TOKEN": "⟪generic⟫"
  },
  "build": { "env": { "NEXT_PUBLIC_SITE": "https://acme-corp.io" } }
}
`;

  f["jenkins/jobs/deploy/config.xml"] = `<?xml version='1.1' encoding='UTF-8'?>
<project>
  <properties>
    <hudson.model.ParametersDefinitionProperty>
      <parameterDefinitions>
        <hudson.model.StringParameterDefinition>
          <name>DEPLOY_TOKEN</name>
          <defaultValue>⟪generic⟫</defaultValue>
        </hudson.model.StringParameterDefinition>
        <hudson.model.StringParameterDefinition>
          <name>TARGET_ENV</name>
          <defaultValue>production</defaultValue>
        </hudson.model.StringParameterDefinition>
        <hudson.model.PasswordParameterDefinition>
          <name>DB_PASSWORD</name>
          <defaultValue>⟪jenkins-cipher⟫</defaultValue>
        </hudson.model.PasswordParameterDefinition>
      </parameterDefinitions>
    </hudson.model.ParametersDefinitionProperty>
  </properties>
</project>
`;

  f["jenkins/credentials.xml"] = `<?xml version='1.1' encoding='UTF-8'?>
<com.cloudbees.plugins.credentials.SystemCredentialsProvider plugin="credentials@1311">
  <domainCredentialsMap class="hudson.util.CopyOnWriteMap$Hash">
    <entry>
      <com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>
        <id>deploy</id>
        <username>deploy</username>
        <password>⟪jenkins-cipher⟫</password>
      </com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>
    </entry>
  </domainCredentialsMap>
</com.cloudbees.plugins.credentials.SystemCredentialsProvider>
`;

  f["mail/.muttrc"] = `set from = "ops@acme-corp.io"⟪@email⟫
set imap_user = "ops@acme-corp.io"⟪@email⟫
set imap_pass = "⟪human-pw⟫"
set smtp_url = "smtps://ops@acme-corp.io@smtp.acme-corp.io:465/"
set smtp_pass = "⟪human-pw⟫"
set header_cache = ~/.cache/mutt
`;

  f["mail/.msmtprc"] = `account default
host smtp.acme-corp.io
port 587
auth on
user alerts@acme-corp.io⟪@email⟫
password ⟪human-pw⟫
passwordeval "pass show mail/alerts"
`;

  f["mail/.fetchmailrc"] = `poll imap.acme-corp.io protocol IMAP
  user "archive" password "⟪human-pw⟫" is archive here
`;

  f["kafka/client.properties"] = `bootstrap.servers=kafka.internal:9093
security.protocol=SASL_SSL
sasl.mechanism=SCRAM-SHA-512
sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="ledger" password="⟪human-pw⟫";
ssl.truststore.location=/etc/kafka/truststore.jks
ssl.truststore.password=⟪password⟫
`;

  f["wireguard/wg0.conf"] = `[Interface]
Address = 10.8.0.2/24⟪@ip-address⟫
PrivateKey = ⟪b64-32⟫
DNS = 10.8.0.1⟪@ip-address⟫

[Peer]
PublicKey = ⟪b64-32!⟫
PresharedKey = ⟪b64-32⟫
Endpoint = vpn.acme-corp.io:51820
AllowedIPs = 10.8.0.0/24⟪@ip-address⟫
`;

  f["pgbouncer/userlist.txt"] = `"ledger" "⟪human-pw⟫"
"reporting" "⟪md5-hash⟫"
"admin" "⟪scram-hash⟫"
`;

  f["cifs/.smbcredentials"] = `username=svc_backup
password=⟪human-pw⟫
domain=ACME
`;

  f["rclone/rclone.conf"] = `[offsite]
type = s3
provider = Wasabi
secret_access_key = ⟪aws-secret⟫
endpoint = s3.eu-central-1.wasabisys.com

[drive]
type = drive
client_secret = ⟪generic⟫
token = {"access_token":"⟪ya29!⟫","token_type":"Bearer","expiry":"2026-01-02T10:00:00Z"}⟪@generic-secret⟫
`;

  f["src/Db.scala"] = `object Db {
  private val password = "⟪human-pw⟫"
  val xa = Transactor.fromDriverManager[IO](
    "org.postgresql.Driver", "jdbc:postgresql://db.internal/ledger", "ledger", "⟪human-pw⟫"
  )
  val passwordField = "password"
}
`;

  f["src/db.clj"] = `(ns ledger.db)

(def db-spec {:dbtype "postgresql"
              :dbname "ledger"
              :user "ledger"
              :password "⟪human-pw⟫"})

(def stripe-api-key "⟪stripe⟫")
(def webhook-secret "⟪generic⟫")
(def password-min-length 12)
`;

  f["src/Main.hs"] = `module Main where

apiToken :: Text
apiToken = "⟪generic⟫"

connect :: IO Connection
connect = connectPostgreSQL "host=db.internal dbname=ledger user=ledger password=⟪password⟫"
`;

  f["lua/init.lua"] = `local API_KEY = "⟪generic⟫"
local red = redis:new()
red:connect("cache.internal", 6379)
local ok, err = red:auth("⟪human-pw⟫")
local password_label = "Password"
`;

  f["r/etl.R"] = `library(DBI)
Sys.setenv(LEDGER_API_KEY = "⟪generic⟫")
con <- dbConnect(RPostgres::Postgres(), host = "db.internal", user = "etl",
                 password = "⟪human-pw⟫")
pw <- Sys.getenv("DB_PASSWORD")
`;

  f["flutter/lib/config.dart"] = `class Config {
  static const String apiBaseUrl = 'https://api.acme-corp.io';
  static const String apiKey = '⟪generic⟫';
  static const _signingSecret = '⟪generic⟫';
  final String passwordHint = 'At least 12 characters';
}
`;

  return f;
}

/** The probe corpus for one seed: files and their labels. */
export function generateProbe(seed: number): { files: Record<string, string>; labels: Labels } {
  const v = new Values(rng(seed));
  const gens = {
    ...probeMarkers(v),
    ...fifthRoundMarkers(v),
    ...sixthRoundMarkers(v),
    ...seventhRoundMarkers(v),
    ...eighthRoundMarkers(v),
    ...ninthRoundMarkers(v),
  };
  const files: Record<string, string> = {};
  const labels: Labels = {};
  // The fifth to ninth batches come last and draw only through markers, so earlier
  // files keep their values.
  const templates = {
    ...probeTemplates(v),
    ...fifthRoundTemplates(),
    ...sixthRoundTemplates(),
    ...seventhRoundTemplates(),
    ...eighthRoundTemplates(),
    ...ninthRoundTemplates(),
  };
  for (const [path, template] of Object.entries(templates)) {
    const { text, labels: found } = expand(template, gens);
    files[path] = text;
    labels[path] = found satisfies Label[];
  }
  return { files, labels };
}
