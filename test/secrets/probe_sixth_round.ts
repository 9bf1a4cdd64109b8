/**
 * The probe corpus's sixth batch, written before any rule was changed for it: PHP, Elixir and
 * Symfony settings not yet seen, Nim, Zig, Crystal and Julia source, mobile build and release
 * files (Gradle's Kotlin DSL, `local.properties`, xcconfig, fastlane), game and chat servers,
 * network services (OpenVPN, IPsec, SNMP, RADIUS, Samba mounts, LDIF), identity and observability
 * exports (Keycloak, Prometheus, Loki, Vector, Fluentd), proxies and schedulers (Caddy, HAProxy
 * userlists, Envoy, Nomad, Packer), data bags, job exports, a mail message, a chat export, a
 * notebook with outputs, a runbook, and contacts in vCard and iCalendar. Every value comes from a
 * marker, so adding the batch leaves the earlier files' draws as they were.
 */
import type { Gen } from "./make_corpus.ts";
import { ALNUM, B64, B64URL, LOWER, type Values } from "./corpus_values.ts";

const WORDS = ["harbor", "maple", "orbit", "candle", "falcon", "velvet", "otter", "quartz"];

/** A short password a person typed, as game and device configs hold them. */
function typedPassword(v: Values): string {
  const cap = (w: string) => w[0].toUpperCase() + w.slice(1);
  return v.pick([
    () => `${cap(v.pick(WORDS))}${v.int(100, 9999)}${v.pick(["!", "#", "%", "+"])}`,
    () => `${v.pick(WORDS)}.${v.pick(WORDS)}.${v.int(10, 99)}`,
    () => v.mixed(ALNUM, v.int(10, 16)),
  ])();
}

/** OpenVPN's static key: 16 lines of 32 hex digits between its own markers. */
function openvpnStaticKey(v: Values): string {
  const lines = Array.from({ length: 16 }, () => v.hex(32));
  return `-----BEGIN OpenVPN Static key V1-----\n${
    lines.join("\n")
  }\n-----END OpenVPN Static key V1-----`;
}

/** The markers this batch adds (value generator, label kind; an empty kind is a trap). */
export function sixthRoundMarkers(v: Values): Record<string, Gen> {
  return {
    "typed-pw": [() => typedPassword(v), "password"],
    "typed-pw-b64": [() => btoa(typedPassword(v)), "password"],
    "ovpn-static": [() => openvpnStaticKey(v), "private-key"],
    "cf-token": [() => v.mixed(B64URL, 40), "generic-secret"],
    "dd-api": [() => v.hex(32), "generic-secret"],
    "snmp-community": [() => `${v.pick(WORDS)}${v.mixed(ALNUM, 8)}`, "password"],
    "keycloak-secret": [() => v.mixed(ALNUM, 32), "generic-secret"],
    "steam-key": [() => v.hex(32).toUpperCase(), "generic-secret"],
    "hex40-secret": [() => v.hex(40), "generic-secret"],
    "hex64-secret": [() => v.hex(64), "generic-secret"],
    "bearer-token": [() => v.mixed(ALNUM, 40), "bearer-token"],
    "apple-asp": [() => [0, 1, 2, 3].map(() => v.chars(LOWER, 4)).join("-"), "password"],
    "pkcs8-indented": [
      () => v.pem("PRIVATE KEY", 1210).replace(/\n/g, "\n            "),
      "private-key",
    ],
    // traps: hashed or encrypted by their tool
    "ssha-hash": [() => `{SSHA}${v.mixed(B64, 32)}`, ""],
    "sha512crypt": [() => `$6$${v.mixed(ALNUM, 16)}$${v.mixed(ALNUM + "./", 86)}`, ""],
    "mosquitto-hash": [() => `$7$101$${v.mixed(B64, 16)}$${v.mixed(B64, 86)}==`, ""],
    "pbkdf2-b64": [() => v.mixed(B64, 43) + "=", ""],
    "bcrypt-2a": [() => "$2a$14$" + v.mixed(ALNUM + "./", 53), ""],
    "chef-cipher": [() => v.mixed(B64, 64) + "\\n" + v.mixed(B64, 20) + "==\\n", ""],
    "md5-realm": [() => "MD5:" + v.hex(32), ""],
  };
}

/** The sixth batch's templates: path → text with markers (no value drawn here). */
export function sixthRoundTemplates(): Record<string, string> {
  const f: Record<string, string> = {};

  // --- PHP, Symfony and Elixir settings of kinds not yet seen

  f["laravel/config/database.php"] = `<?php

return [
    'default' => env('DB_CONNECTION', 'mysql'),
    'connections' => [
        'mysql' => [
            'driver' => 'mysql',
            'host' => env('DB_HOST', '127.0.0.1'),
            'database' => env('DB_DATABASE', 'forge'),
            'username' => env('DB_USERNAME', 'forge'),
            'password' => env('DB_PASSWORD', ''),
        ],
        'reporting' => [
            'driver' => 'pgsql',
            'host' => 'reports.internal',
            'username' => 'reporter',
            'password' => '⟪human-pw⟫',
        ],
    ],
    'redis' => [
        'default' => [
            'host' => env('REDIS_HOST', '127.0.0.1'),
            'password' => env('REDIS_PASSWORD', '⟪typed-pw⟫'),
        ],
    ],
];
`;

  f["symfony/app/config/parameters.yml"] = `parameters:
    database_host: db.internal
    database_user: ledger
    database_password: ⟪human-pw⟫
    mailer_transport: smtp
    mailer_user: ~
    mailer_password: ~
    secret: ⟪hex40-secret⟫
    env(STRIPE_SECRET): '%env(STRIPE_SECRET)%'
`;

  f["elixir/config/runtime.exs"] = `import Config

config :ledger, Ledger.Repo,
  username: "ledger",
  password: System.get_env("DB_PASSWORD") || "⟪typed-pw⟫",
  hostname: "db.internal"

config :ledger, LedgerWeb.Endpoint,
  secret_key_base: "⟪hex128⟫",
  live_view: [signing_salt: "⟪b64-32⟫"]

config :ex_aws,
  access_key_id: [{:system, "AWS_ACCESS_KEY_ID"}, :instance_role],
  secret_access_key: "⟪aws-secret⟫"
`;

  // --- languages not yet seen

  f["nim/src/config.nim"] = `import os

const
  apiBase = "https://api.acme-corp.io"
  apiToken = "⟪generic⟫"

let dbPassword = getEnv("DB_PASSWORD", "⟪typed-pw⟫")
let placeholderKey = "<your-api-key>"
let fixtureToken = "⟪generic!⟫" # gitleaks:allow
`;

  f["zig/src/secrets.zig"] = `const std = @import("std");

pub const api_key: []const u8 = "⟪generic⟫";
const db_password = "⟪human-pw⟫";
const example_token = "xxxxxxxxxxxxxxxxxxxxxxxx";
`;

  f["crystal/src/app.cr"] = `require "db"

DB_URL = "postgres://ledger:⟪db-pw⟫@db.internal/ledger"
API_SECRET = ENV.fetch("API_SECRET", "⟪generic⟫")
STRIPE_KEY = ENV["STRIPE_KEY"]
`;

  f["julia/src/warehouse.jl"] = `using LibPQ, HTTP

const API_TOKEN = "⟪generic⟫"
conn = LibPQ.Connection("host=db.internal dbname=dw user=analyst password=⟪typed-pw⟫")
headers = ["Authorization" => "Bearer ⟪bearer-token⟫"]
secret = get(ENV, "WAREHOUSE_SECRET", "")
`;

  // --- mobile build and release files

  f["android/app/build.gradle.kts"] = `android {
    signingConfigs {
        create("release") {
            storeFile = file("release.keystore")
            storePassword = "⟪typed-pw⟫"
            keyAlias = "ledger"
            keyPassword = "⟪typed-pw⟫"
        }
        create("ci") {
            storePassword = System.getenv("KEYSTORE_PASSWORD")
            keyPassword = providers.gradleProperty("KEY_PASSWORD").get()
        }
    }
    defaultConfig {
        buildConfigField("String", "MAPS_API_KEY", "\\"⟪gcp-key⟫\\"")
    }
}
`;

  f["android/local.properties"] = `sdk.dir=/Users/dev/Library/Android/sdk
MAPS_API_KEY=⟪gcp-key⟫
RELEASE_STORE_PASSWORD=⟪typed-pw⟫
sentry.auth.token=⟪hex64-secret⟫
`;

  f["ios/Config/Release.xcconfig"] = `PRODUCT_BUNDLE_IDENTIFIER = io.acme.ledger
API_BASE_URL = https:/$()/api.acme-corp.io
API_KEY = ⟪generic⟫
SEGMENT_WRITE_KEY = ⟪cf-token⟫
SENTRY_DSN = $(SENTRY_DSN)
`;

  f["fastlane/Matchfile"] = `git_url("https://github.com/acme/certificates")
storage_mode("git")
type("appstore")
git_basic_authorization("⟪basic-b64⟫")
`;

  f["fastlane/.env.default"] = `FASTLANE_USER=release@acme-corp.io⟪@email⟫
FASTLANE_PASSWORD=⟪human-pw⟫
MATCH_PASSWORD=⟪typed-pw⟫
FASTLANE_APPLE_APPLICATION_SPECIFIC_PASSWORD=⟪apple-asp⟫
SLACK_URL=⟪slack-webhook⟫
`;

  // --- game and chat servers

  f["minecraft/server.properties"] = `enable-rcon=true
rcon.port=25575
rcon.password=⟪typed-pw⟫
level-name=world
motd=A Minecraft Server
server-ip=
`;

  f["csgo/cfg/server.cfg"] = `hostname "ACME LAN"
rcon_password "⟪typed-pw⟫"
sv_password ""
sv_setsteamaccount ⟪steam-key⟫
`;

  f["unreal/Config/DefaultEngine.ini"] = `[OnlineSubsystemSteam]
bEnabled=true
SteamDevAppId=480

[/Script/AcmeGame.BackendSettings]
ServerApiKey=⟪generic⟫
AdminPassword=⟪typed-pw⟫
`;

  f["mosquitto/mosquitto.conf"] = `listener 1883
allow_anonymous false
password_file /etc/mosquitto/passwd

connection cloud-bridge
address broker.acme-corp.io:8883
remote_username edge-07
remote_password ⟪typed-pw⟫
`;

  f["mosquitto/passwd"] = `edge-07:⟪mosquitto-hash⟫
sensor:⟪mosquitto-hash⟫
`;

  f["homeassistant/secrets.yaml"] = `# Use this file to store secrets like usernames and passwords.
http_password: ⟪typed-pw⟫
mqtt_password: "⟪human-pw⟫"
latitude: 52.52
demo_password: ⟪typed-pw!⟫  # pragma: allowlist secret
openweathermap_key: ⟪dd-api⟫
`;

  // --- network services

  f["openvpn/client.ovpn"] = `client
dev tun
remote vpn.acme-corp.io 1194
auth-user-pass auth.txt
<ca>
-----BEGIN CERTIFICATE-----
MIIBszCCAVmgAwIBAgIUXn0YQmJ1c2VzIGFyZSBub3QgcmVhbDAKBggqhkjOPQQD
-----END CERTIFICATE-----
</ca>
<key>
⟪ec⟫
</key>
key-direction 1
<tls-auth>
⟪ovpn-static⟫
</tls-auth>
`;

  f["ipsec/ipsec.secrets"] = `# /etc/ipsec.secrets
: RSA moonKey.pem
vpn.acme-corp.io %any : PSK "⟪human-pw⟫"
carol : EAP "⟪typed-pw⟫"
`;

  f["snmp/snmpd.conf"] = `sysLocation    Server Room
rocommunity public 127.0.0.1
rocommunity ⟪snmp-community⟫ 10.0.0.0/8⟪@ip-address⟫
createUser monitor SHA "⟪typed-pw⟫" AES "⟪typed-pw⟫"
`;

  f["freeradius/clients.conf"] = `client localhost {
    ipaddr = 127.0.0.1
    secret = testing123
}
client office-ap {
    ipaddr = 10.20.0.0/16⟪@ip-address⟫
    secret = ⟪typed-pw⟫
    shortname = office
}
`;

  f["etc/fstab"] = `UUID=3f1c2a44-7e0b-4c1e-9d7a-0b1f9e2d4c5a / ext4 defaults 0 1
//nas.acme.lan/backup /mnt/backup cifs username=backup,password=⟪typed-pw⟫,uid=1000 0 0
//nas.acme.lan/media /mnt/media cifs credentials=/etc/samba/media.cred,uid=1000 0 0
`;

  f["ldap/users.ldif"] = `dn: uid=jdoe,ou=people,dc=acme,dc=io
objectClass: inetOrgPerson
uid: jdoe
mail: ⟪email⟫
userPassword: ⟪ssha-hash⟫

dn: cn=replicator,dc=acme,dc=io
objectClass: simpleSecurityObject
userPassword: ⟪human-pw⟫

dn: cn=backup,dc=acme,dc=io
userPassword:: ⟪typed-pw-b64⟫
`;

  // --- identity and observability

  f["keycloak/realm-export.json"] = `{
  "realm": "ledger",
  "clients": [
    {
      "clientId": "ledger-api",
      "publicClient": false,
      "secret": "⟪keycloak-secret⟫"
    },
    { "clientId": "ledger-web", "publicClient": true, "secret": "**********" }
  ],
  "users": [
    {
      "username": "admin",
      "credentials": [
        { "type": "password", "value": "⟪human-pw⟫", "temporary": false }
      ]
    },
    {
      "username": "ops",
      "credentials": [
        {
          "type": "password",
          "secretData": "{\\"value\\":\\"⟪pbkdf2-b64⟫\\",\\"salt\\":\\"⟪pbkdf2-b64⟫\\"}",
          "credentialData": "{\\"hashIterations\\":27500,\\"algorithm\\":\\"pbkdf2-sha256\\"}"
        }
      ]
    }
  ],
  "smtpServer": { "host": "smtp.acme-corp.io", "user": "keycloak", "password": "⟪typed-pw⟫" }
}
`;

  f["prometheus/prometheus.yml"] = `remote_write:
  - url: https://prometheus-prod.grafana.net/api/prom/push
    basic_auth:
      username: 412345
      password: ⟪generic⟫
  - url: https://metrics.internal/write
    basic_auth:
      username: prom
      password_file: /etc/prometheus/remote.pw
scrape_configs:
  - job_name: api
    authorization:
      credentials: ⟪generic⟫
`;

  f["loki/loki.yaml"] = `storage_config:
  aws:
    s3: s3://eu-west-1/acme-loki
    access_key_id: ⟪aws-id⟫
    secret_access_key: ⟪aws-secret⟫
  azure:
    account_name: acmelogs
    account_key: \${AZURE_ACCOUNT_KEY}
`;

  f["vector/vector.toml"] = `[sinks.datadog]
type = "datadog_logs"
inputs = ["app"]
default_api_key = "⟪dd-api⟫"

[sinks.es]
type = "elasticsearch"
auth.strategy = "basic"
auth.user = "vector"
auth.password = "⟪human-pw⟫"

[sinks.backup]
type = "aws_s3"
auth.access_key_id = "\${AWS_ACCESS_KEY_ID}"
`;

  f["fluentd/fluent.conf"] = `<match app.**>
  @type elasticsearch
  host es.internal
  user fluentd
  password ⟪typed-pw⟫
</match>
<match audit.**>
  @type forward
  <security>
    self_hostname agent-07
    shared_key ⟪generic⟫
  </security>
  <server>
    host aggregator.internal
    password "#{ENV['FLUENT_PW']}"
  </server>
</match>
`;

  // --- proxies, service mesh, schedulers and image builders

  f["caddy/Caddyfile"] = `admin.acme-corp.io {
    basicauth /* {
        admin ⟪bcrypt-2a⟫
    }
    tls {
        dns cloudflare ⟪cf-token⟫
    }
}
api.acme-corp.io {
    tls {
        dns cloudflare {env.CF_API_TOKEN}
    }
}
`;

  f["haproxy/users.cfg"] = `userlist ops
    user admin insecure-password ⟪typed-pw⟫
    user viewer password ⟪sha512crypt⟫
`;

  f["envoy/envoy.yaml"] = `static_resources:
  secrets:
    - name: hmac
      generic_secret:
        secret:
          inline_string: "⟪generic⟫"
    - name: server_cert
      tls_certificate:
        private_key:
          inline_string: |
            ⟪pkcs8-indented⟫
        certificate_chain:
          filename: /etc/envoy/cert.pem
`;

  f["nomad/ledger.nomad.hcl"] = `job "ledger" {
  group "api" {
    task "server" {
      driver = "docker"
      env {
        DB_PASSWORD = "⟪human-pw⟫"
        LOG_LEVEL   = "info"
      }
      template {
        data        = <<EOH
API_KEY={{ with secret "kv/ledger" }}{{ .Data.data.api_key }}{{ end }}
EOH
        destination = "secrets/api.env"
        env         = true
      }
    }
  }
}
`;

  f["packer/windows.pkr.hcl"] = `variable "admin_password" {
  type      = string
  default   = "⟪human-pw⟫"
  sensitive = true
}

source "amazon-ebs" "win" {
  communicator   = "winrm"
  winrm_username = "Administrator"
  winrm_password = var.admin_password
  ssh_password   = "⟪typed-pw⟫"
}
`;

  // --- data bags, job exports, messages and documents

  f["chef/data_bags/ledger/db.json"] = `{
  "id": "db",
  "user": "ledger",
  "password": "⟪human-pw⟫",
  "replication_key": "⟪b64-32⟫"
}
`;

  f["chef/data_bags/ledger/api.json"] = `{
  "id": "api",
  "token": {
    "encrypted_data": "⟪chef-cipher⟫",
    "iv": "⟪pbkdf2-b64⟫",
    "version": 3,
    "cipher": "aes-256-gcm"
  }
}
`;

  f["awx/export.json"] = `{
  "credentials": [
    {
      "name": "prod db",
      "credential_type": { "kind": "ssh" },
      "inputs": { "username": "deploy", "password": "$encrypted$" }
    },
    {
      "name": "vault",
      "inputs": { "vault_password": "⟪human-pw⟫" }
    }
  ]
}
`;

  f["rundeck/realm.properties"] = `admin:⟪md5-realm⟫,user,admin
ops:⟪typed-pw⟫,user,architect
`;

  f["mail/incident-4711.eml"] = `From: Sven Lund <⟪email⟫>
To: ops@acme-corp.io⟪@email⟫
Subject: temporary access to the reporting DB
Date: Mon, 30 Nov 2026 09:12:44 +0100
Content-Type: text/plain; charset=utf-8

Hi,

until the rotation on Friday you can use:

  user: reporting
  password: ⟪human-pw⟫

Call me at ⟪phone⟫ if it does not work.
`;

  f["slack/export/ops/2026-11-30.json"] = `[
  {
    "type": "message",
    "user": "U04ABCDEF",
    "text": "can someone check the bot? it uses ⟪slack-bot⟫ right now",
    "ts": "1764494400.000100"
  },
  {
    "type": "message",
    "user": "U04GHIJKL",
    "text": "staging db pw is ⟪human-pw⟫ until friday",
    "ts": "1764494460.000200"
  },
  {
    "type": "message",
    "user": "U04ABCDEF",
    "text": "don't paste secrets here, use <https://vault.acme-corp.io|vault>",
    "ts": "1764494520.000300"
  }
]
`;

  f["notebooks/debug.ipynb"] = `{
 "cells": [
  {
   "cell_type": "code",
   "execution_count": 3,
   "metadata": {},
   "outputs": [
    {
     "name": "stdout",
     "output_type": "stream",
     "text": [
      "DATABASE_URL=postgresql://etl:⟪db-pw⟫@dw.internal/dw\\n",
      "OPENAI_API_KEY=⟪openai⟫\\n"
     ]
    }
   ],
   "source": ["!env | grep -E 'DATABASE|OPENAI'"]
  }
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 5
}
`;

  f["docs/runbooks/failover.md"] = `# Failover runbook

1. Stop writes:

   \`\`\`sh
   export PGPASSWORD='⟪human-pw⟫'
   psql -h db-replica.internal -U admin -c "select pg_promote();"
   \`\`\`

2. Point the app at the replica: \`mysql -u root -p'⟪typed-pw⟫' -h legacy.internal\`

3. Do not reuse \`PGPASSWORD=<password>\` from older pages; ask #ops.
`;

  f["contacts/team.vcf"] = `BEGIN:VCARD
VERSION:3.0
FN:Aiko Tanaka
EMAIL;TYPE=work:⟪email⟫
TEL;TYPE=cell:⟪phone⟫
END:VCARD
BEGIN:VCARD
VERSION:4.0
FN:Olu Adeyemi
EMAIL:⟪email⟫
TEL;VALUE=uri;TYPE=voice:tel:⟪phone-e164⟫
END:VCARD
`;

  f["calendar/offsite.ics"] = `BEGIN:VCALENDAR
VERSION:2.0
BEGIN:VEVENT
UID:20261204T090000Z-4711@acme-corp.io
SUMMARY:Offsite planning
ORGANIZER;CN=Maria Keller:mailto:⟪email⟫
ATTENDEE;CN=Jonas Berg;ROLE=REQ-PARTICIPANT:mailto:⟪email⟫
LOCATION:Dial-in ⟪phone⟫
END:VEVENT
END:VCALENDAR
`;

  return f;
}
