/**
 * The probe corpus's seventh batch, written before any rule was changed for it, of places the
 * earlier batches did not hold: package managers' and registries' own credential files (NuGet,
 * Bun, Dart, Hex, JFrog, Helm repositories, a conda channel, git dependencies), cloud tools' files
 * under a home folder (doctl, hcloud, OCI, Fly, Wrangler, Databricks, Pulumi), zsh and fish
 * history, Kubernetes' kustomize generators and a registry Secret wrapped in base64, Helmfile,
 * Woodpecker and Buildkite, backups (restic, borg), mail and chat clients (mbsync, OfflineIMAP,
 * aerc, `.authinfo`, irssi, WeeChat, Pidgin), telephony and monitoring (Asterisk, Nagios), LDAP and
 * SSSD, Squid, Supervisor, Matrix, Gitea, Odoo, phpMyAdmin, Joomla and Moodle, Java's XML
 * attributes (JPA, log4j2, Tomcat users, Ant), editors and API clients (VS Code, IntelliJ, `.http`
 * files, Bruno, Insomnia, HTTPie), Emacs Lisp, Expect, VBA and ODBC, Windows service commands,
 * cloud-init, a Podman quadlet, RabbitMQ, Redis Sentinel, Filebeat, Renovate, a wallet's
 * configuration; and personal data in a CV, an access log, a payroll export, a SEPA file, a
 * mailmap and a database export. Every value comes from a marker, so adding the batch leaves the
 * earlier files' draws as they were.
 */
import type { Gen } from "./make_corpus.ts";
import { ALNUM, B64, B64URL, DIGIT, LOWER, UPPER, type Values } from "./corpus_values.ts";

const WORDS = ["harbor", "maple", "orbit", "candle", "falcon", "velvet", "otter", "quartz"];

/** Words as a wallet's recovery phrase is drawn from (a list of common English words). */
const PHRASE_WORDS = [
  "abandon",
  "bridge",
  "canyon",
  "dolphin",
  "eager",
  "fabric",
  "gather",
  "harvest",
  "island",
  "jungle",
  "kitten",
  "ladder",
  "marble",
  "napkin",
  "oyster",
  "pepper",
  "quantum",
  "rocket",
  "saddle",
  "timber",
  "umbrella",
  "velvet",
  "walnut",
  "zebra",
];

/** A password a person chose and typed into a client's settings. */
function chosenPassword(v: Values): string {
  const cap = (w: string) => w[0].toUpperCase() + w.slice(1);
  return v.pick([
    () => `${cap(v.pick(WORDS))}${v.pick(["!", "#", "%", "+", "@"])}${v.int(100, 9999)}`,
    () => `${v.pick(WORDS)}${v.int(10, 99)}${cap(v.pick(WORDS))}`,
    () => v.pick([...ALNUM]) + v.mixed(ALNUM + "!%+=-_", v.int(10, 15)),
  ])();
}

/** A version-4 UUID. */
function uuid(v: Values): string {
  const h = v.hex(32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${
    h.slice(20)
  }`;
}

/** The markers this batch adds (value generator, label kind; an empty kind is a trap). */
export function seventhRoundMarkers(v: Values): Record<string, Gen> {
  return {
    "chosen-pw": [() => chosenPassword(v), "password"],
    "gmail-app-pw": [
      () => [0, 1, 2, 3].map(() => v.chars(LOWER, 4)).join(" "),
      "password",
    ],
    "hcloud": [() => v.mixed(ALNUM, 64), "generic-secret"],
    "fly": [() => "fo1_" + v.mixed(B64URL, 43), "flyio-token"],
    "oauth-pair": [() => `${v.mixed(B64URL, 43)}.${v.mixed(B64URL, 43)}`, "generic-secret"],
    "nuget-key": [() => "oy2" + v.chars(LOWER + DIGIT, 43), "generic-secret"],
    "secret16": [() => v.mixed(ALNUM, 16), "generic-secret"],
    "b2-key": [() => "K00" + v.int(1, 5) + v.mixed(ALNUM, 27), "generic-secret"],
    "es-apikey": [() => `${v.mixed(B64URL, 20)}:${v.mixed(B64URL, 22)}`, "generic-secret"],
    "eth-key": [() => "0x" + v.hex(64), "generic-secret"],
    "etherscan": [() => v.chars(UPPER + DIGIT, 34), "generic-secret"],
    "phrase": [
      () => Array.from({ length: 12 }, () => v.pick(PHRASE_WORDS)).join(" "),
      "generic-secret",
    ],
    "conda-token": [() => `${v.pick(["ac", "at"])}-${uuid(v)}`, "generic-secret"],
    "pulumi-token": [() => "pul-" + v.hex(40), "pulumi-token"],
    "postman-key": [() => `PMAK-${v.hex(24)}-${v.hex(34)}`, "postman-api-key"],
    "tailscale": [
      () => `tskey-auth-k${v.mixed(ALNUM, 10)}CNTRL-${v.mixed(ALNUM, 33)}`,
      "tailscale-key",
    ],
    "databricks": [() => "dapi" + v.hex(32), "databricks-token"],
    "newrelic-license": [() => v.hex(36) + "NRAL", "new-relic-key"],
    "newrelic-user": [() => "NRAK-" + v.chars(UPPER + DIGIT, 27), "new-relic-key"],
    "doppler": [() => "dp.pt." + v.chars(LOWER + DIGIT, 43), "doppler-token"],
    "shopify": [() => "shpat_" + v.hex(32), "shopify-token"],
    "linear": [() => "lin_api_" + v.mixed(ALNUM, 40), "linear-api-key"],
    "atlassian": [
      () => "ATATT3xFfGF0" + v.mixed(B64URL, 170) + "=" + v.hex(8).toUpperCase(),
      "atlassian-token",
    ],
    "uuid-token": [() => uuid(v), "generic-secret"],
    "alnum50": [() => v.mixed(ALNUM, 50), "generic-secret"],
    "dockerconfig-b64": [
      () =>
        btoa(JSON.stringify({ auths: { "ghcr.io": { auth: btoa(`acme-bot:${v.githubPat()}`) } } })),
      "basic-auth",
    ],
    // traps: identifiers, hashes, ciphertexts, public material
    "ocid": [() => "ocid1.user.oc1..aaaaaaaa" + v.chars(LOWER + DIGIT, 52), ""],
    "ocid-tenancy": [() => "ocid1.tenancy.oc1..aaaaaaaa" + v.chars(LOWER + DIGIT, 52), ""],
    "key-fingerprint": [
      () => Array.from({ length: 16 }, () => v.hex(2)).join(":"),
      "",
    ],
    "dpapi": [() => "AQAAANCMnd8BFdERjHoAwE/Cl+sBAAAA" + v.mixed(B64, 300) + "==", ""],
    "b2-id": [() => "00" + v.hex(23), ""],
    "pbkdf2-sha512": [
      () => `$pbkdf2-sha512$600000$${v.mixed(B64, 22)}$${v.mixed(B64, 86)}`,
      "",
    ],
    "es-cloud-id": [
      () => "ledger:" + btoa(`europe-west1.gcp.cloud.es.io:443$${v.hex(32)}$${v.hex(32)}`),
      "",
    ],
    "rabbit-hash": [() => v.mixed(B64, 48), ""],
    "renovate-cipher": [() => "wcFMAw" + v.mixed(B64, 400) + "=", ""],
    "sha1-hex": [() => v.hex(40), ""],
    "tomcat-digest": [() => `${v.hex(32)}$${v.pick([1, 1000, 10000])}$${v.hex(64)}`, ""],
    "docker-digest": [() => "sha256:" + v.hex(64), ""],
  };
}

/** The seventh batch's templates: path → text with markers (no value drawn here). */
export function seventhRoundTemplates(): Record<string, string> {
  const f: Record<string, string> = {};

  // --- package managers and registries

  f["nuget/NuGet.Config"] = `<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources>
    <clear />
    <add key="nuget.org" value="https://api.nuget.org/v3/index.json" />
    <add key="acme" value="https://nuget.acme-corp.io/v3/index.json" />
    <add key="github" value="https://nuget.pkg.github.com/acme/index.json" />
  </packageSources>
  <packageSourceCredentials>
    <acme>
      <add key="Username" value="ci-bot" />
      <add key="ClearTextPassword" value="⟪chosen-pw⟫" />
    </acme>
    <github>
      <add key="Username" value="acme-bot" />
      <add key="Password" value="⟪dpapi⟫" />
    </github>
    <legacy>
      <add key="Username" value="ci-bot" />
      <add key="ClearTextPassword" value="%NUGET_LEGACY_PASSWORD%" />
    </legacy>
  </packageSourceCredentials>
  <apikeys>
    <add key="https://www.nuget.org/api/v2/package" value="⟪nuget-key⟫" />
  </apikeys>
</configuration>
`;

  f["bun/bunfig.toml"] = `[install]
exact = true

[install.registry]
url = "https://registry.npmjs.org/"
token = "$NPM_TOKEN"

[install.scopes]
acme = { token = "⟪npm⟫", url = "https://npm.acme-corp.io/" }
tools = { username = "ci", password = "⟪chosen-pw⟫", url = "https://npm.tools.acme-corp.io/" }
public = { url = "https://registry.npmjs.org/" }
`;

  f["dart/pub-tokens.json"] = `{
  "version": 1,
  "hosted": [
    {
      "url": "https://dart.acme-corp.io",
      "token": "⟪generic⟫"
    },
    {
      "url": "https://pub.tools.acme-corp.io",
      "env": "PUB_TOOLS_TOKEN"
    }
  ]
}
`;

  f["hex/hex.config"] = `{'$repos', #{<<"hexpm:acme">> => #{auth_key => <<"⟪hex32s⟫">>}}}.
{api_key, <<"⟪hex32s⟫">>}.
{unsafe_https, false}.
`;

  f["jfrog/jfrog-cli.conf.v6"] = `{
  "servers": [
    {
      "url": "https://acme.jfrog.io/",
      "artifactoryUrl": "https://acme.jfrog.io/artifactory/",
      "user": "ci-bot",
      "password": "⟪chosen-pw⟫",
      "accessToken": "⟪jwt⟫",
      "refreshToken": "⟪uuid-token⟫",
      "serverId": "acme",
      "isDefault": true
    }
  ],
  "version": "6"
}
`;

  f["helm/repositories.yaml"] = `apiVersion: ""
generated: "2026-11-02T10:14:55.112233+01:00"
repositories:
- caFile: ""
  certFile: ""
  insecure_skip_tls_verify: false
  keyFile: ""
  name: acme
  pass_credentials_all: false
  password: ⟪chosen-pw⟫
  url: https://charts.acme-corp.io
  username: ci-bot
- caFile: ""
  certFile: ""
  insecure_skip_tls_verify: false
  keyFile: ""
  name: bitnami
  pass_credentials_all: false
  password: ""
  url: https://charts.bitnami.com/bitnami
  username: ""
`;

  f["conda/.condarc"] = `channels:
  - https://conda.anaconda.org/t/⟪conda-token⟫/acme
  - conda-forge
  - defaults
channel_alias: https://conda.anaconda.org
ssl_verify: true
`;

  f["python/requirements.txt"] = `django==5.1.3
psycopg[binary]==3.2.3
ledger-client @ git+https://⟪gh-pat⟫@github.com/acme/ledger-client.git@v1.4.0
acme-utils @ git+https://github.com/acme/acme-utils.git@v0.9.2
--extra-index-url https://\${PYPI_USER}:\${PYPI_TOKEN}@pypi.acme-corp.io/simple
`;

  f["node/package.json"] = `{
  "name": "ledger-web",
  "version": "3.2.0",
  "private": true,
  "scripts": {
    "start": "node server.js",
    "deploy": "node scripts/deploy.js"
  },
  "dependencies": {
    "express": "^4.21.1",
    "ledger-client": "git+https://⟪gh-pat⟫:x-oauth-basic@github.com/acme/ledger-client.git#v1.4.0",
    "acme-ui": "github:acme/acme-ui#v2.0.1"
  },
  "author": "Jonas Berg <⟪email⟫>",
  "license": "UNLICENSED"
}
`;

  // --- cloud tools under a home folder

  f["home/.config/doctl/config.yaml"] = `access-token: ⟪do-token⟫
auth-contexts:
  staging: ⟪do-token⟫
  sandbox: ""
context: default
output: text
`;

  f["home/.config/hcloud/cli.toml"] = `active_context = "prod"

[[contexts]]
  name = "prod"
  token = "⟪hcloud⟫"

[[contexts]]
  name = "lab"
  token = "⟪hcloud⟫"
`;

  f["home/.oci/config"] = `[DEFAULT]
user=⟪ocid⟫
fingerprint=⟪key-fingerprint⟫
key_file=~/.oci/oci_api_key.pem
pass_phrase=⟪chosen-pw⟫
tenancy=⟪ocid-tenancy⟫
region=eu-frankfurt-1
`;

  f["home/.fly/config.yml"] = `access_token: ⟪fly⟫
metrics_token: ""
send_metrics: true
auto_update: true
`;

  f["home/.wrangler/config/default.toml"] = `oauth_token = "⟪oauth-pair⟫"
expiration_time = "2026-12-02T18:31:07.204Z"
refresh_token = "⟪oauth-pair⟫"
scopes = [ "account:read", "user:read", "workers:write", "offline_access" ]
`;

  f["home/.databrickscfg"] = `[DEFAULT]
host  = https://adb-4711.12.azuredatabricks.net
token = ⟪databricks⟫

[staging]
host      = https://adb-4712.3.azuredatabricks.net
auth_type = databricks-cli
`;

  f["home/.pulumi/credentials.json"] = `{
    "current": "https://api.pulumi.com",
    "accessTokens": {
        "https://api.pulumi.com": "⟪pulumi-token⟫"
    },
    "accounts": {
        "https://api.pulumi.com": {
            "accessToken": "⟪pulumi-token⟫",
            "username": "acme-ops",
            "lastValidatedAt": "2026-11-29T08:12:00.000Z"
        }
    }
}
`;

  // --- shell histories of other shells

  f["home/.zsh_history"] = `: 1764580012:0;cd ~/src/ledger
: 1764580031:0;export GITHUB_TOKEN=⟪gh-pat⟫
: 1764580102:0;PGPASSWORD=⟪chosen-pw⟫ psql -h db.internal -U ledger ledger
: 1764580170:0;mysql --host=db.internal --user=root --password=⟪chosen-pw⟫ ledger
: 1764580233:0;mysql -u root -p
: 1764580301:0;mongosh --username admin --password '⟪chosen-pw⟫' --authenticationDatabase admin mongo-0.internal
: 1764580355:0;docker login -u acme -p ⟪generic⟫ registry.acme-corp.io
: 1764580402:0;docker login -u acme --password-stdin registry.acme-corp.io < ~/.registry-token
: 1764580467:0;sshpass -p '⟪chosen-pw⟫' ssh root@db-backup.internal
: 1764580520:0;curl --oauth2-bearer ⟪bearer⟫ https://api.acme-corp.io/v2/ledgers
: 1764580577:0;echo $GITHUB_TOKEN | gh auth login --with-token
: 1764580601:0;git log --oneline | head
`;

  f["home/.local/share/fish/fish_history"] = `- cmd: set -gx HCLOUD_TOKEN ⟪hcloud⟫
  when: 1764590012
- cmd: wget --http-user=deploy --http-password=⟪chosen-pw⟫ https://files.acme-corp.io/releases/ledger-3.2.tar.gz
  when: 1764590077
- cmd: set -x API_KEY (pass show acme/api)
  when: 1764590102
- cmd: redis-cli --user ledger --pass ⟪chosen-pw⟫ -h cache.internal ping
  when: 1764590140
- cmd: ls ~/Downloads
  when: 1764590170
`;

  // --- Kubernetes, Helmfile and CI services not yet seen

  f["k8s/kustomization.yaml"] = `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: ledger
resources:
  - deployment.yaml
  - service.yaml
secretGenerator:
  - name: ledger-db
    literals:
      - DB_USER=ledger
      - DB_PASSWORD=⟪chosen-pw⟫
      - API_TOKEN=⟪generic⟫
  - name: ledger-env
    envs:
      - secrets.env
configMapGenerator:
  - name: ledger-config
    literals:
      - LOG_LEVEL=info
      - CACHE_TTL=300
`;

  f["k8s/registry-secret.yaml"] = `apiVersion: v1
kind: Secret
metadata:
  name: ghcr-pull
type: kubernetes.io/dockerconfigjson
data:
  .dockerconfigjson: ⟪dockerconfig-b64⟫
---
apiVersion: v1
kind: Secret
metadata:
  name: ledger-config
type: Opaque
stringData:
  SMTP_PASSWORD: ⟪chosen-pw⟫
  config.yaml: |
    server:
      port: 8080
    upstream:
      url: https://api.acme-corp.io
      token: ⟪generic⟫
      timeout: 30s
`;

  f["helm/helmfile.yaml"] = `repositories:
  - name: bitnami
    url: https://charts.bitnami.com/bitnami

releases:
  - name: ledger-db
    namespace: ledger
    chart: bitnami/postgresql
    version: 16.2.1
    set:
      - name: auth.username
        value: ledger
      - name: auth.password
        value: ⟪chosen-pw⟫
      - name: auth.postgresPassword
        value: {{ requiredEnv "PG_ADMIN_PASSWORD" }}
      - name: primary.persistence.size
        value: 20Gi
  - name: ledger-cache
    namespace: ledger
    chart: bitnami/redis
    values:
      - secrets://secrets/redis.yaml
`;

  f[".woodpecker.yml"] = `when:
  - event: push
    branch: main

steps:
  - name: test
    image: node:22
    environment:
      CI_DB_PASSWORD: ⟪chosen-pw⟫
      SENTRY_AUTH_TOKEN:
        from_secret: sentry_token
    commands:
      - npm ci
      - npm test

  - name: publish
    image: woodpeckerci/plugin-docker-buildx
    settings:
      repo: registry.acme-corp.io/ledger
      username: ci-bot
      password:
        from_secret: registry_password
      api_key: ⟪generic⟫
`;

  f[".buildkite/pipeline.yml"] = `env:
  NODE_ENV: production
  NPM_TOKEN: "⟪npm⟫"

steps:
  - label: ":docker: build"
    command: docker build -t ledger .
    plugins:
      - docker-login#v2.1.0:
          username: acme
          password-env: DOCKER_LOGIN_PASSWORD
  - label: ":rocket: deploy"
    command: scripts/deploy.sh
    env:
      DEPLOY_KEY: "⟪generic⟫"
`;

  f["buildkite/buildkite-agent.cfg"] = `# The agent's registration token
token="⟪alnum50⟫"
name="%hostname-%spawn"
tags="queue=default,os=linux"
build-path="/var/lib/buildkite-agent/builds"
`;

  f["cloud-init/user-data.yaml"] = `#cloud-config
hostname: ledger-worker-1
users:
  - name: ops
    groups: sudo
    shell: /bin/bash
    passwd: ⟪sha512crypt⟫
    ssh_authorized_keys:
      - ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHd5b3JrZXIta2V5LWZvci1vcHMtdGVhbS0yMDI2 ops@laptop
chpasswd:
  expire: false
  users:
    - name: root
      password: ⟪chosen-pw⟫
      type: text
runcmd:
  - curl -fsSL https://tailscale.com/install.sh | sh
  - tailscale up --authkey=⟪tailscale⟫ --ssh
`;

  f["podman/ledger.container"] = `[Unit]
Description=Ledger API

[Container]
Image=registry.acme-corp.io/ledger:3.2.0
Environment=POSTGRES_PASSWORD=⟪chosen-pw⟫
Environment=LOG_LEVEL=info
Secret=ledger-api-key,type=env,target=API_KEY
PublishPort=8080:8080

[Install]
WantedBy=multi-user.target
`;

  // --- backups

  f["restic/restic.env"] = `export RESTIC_REPOSITORY=b2:acme-backups:/laptop
export RESTIC_PASSWORD=⟪chosen-pw⟫
export B2_ACCOUNT_ID=⟪b2-id⟫
export B2_ACCOUNT_KEY=⟪b2-key⟫
export RESTIC_PASSWORD_FILE=/etc/restic/password
`;

  f["borg/backup.sh"] = `#!/bin/sh
# Nightly backup of /srv to the storage box
export BORG_REPO='ssh://u4711@u4711.your-storagebox.de:23/./backups/srv'
export BORG_PASSPHRASE='⟪chosen-pw⟫'
export BORG_RSH='ssh -i /root/.ssh/borg_ed25519'
# The offsite copy asks the password store instead:
# export BORG_PASSCOMMAND='pass show backup/borg'
borg create --stats --compression zstd ::'{hostname}-{now}' /srv
borg prune --keep-daily 7 --keep-weekly 4
`;

  // --- mail and chat clients

  f["mail/.mbsyncrc"] = `IMAPAccount work
Host imap.fastmail.com
User ⟪email⟫
Pass ⟪chosen-pw⟫
SSLType IMAPS

IMAPAccount gmail
Host imap.gmail.com
User ⟪email⟫
PassCmd "pass show mail/gmail"
SSLType IMAPS
`;

  f["mail/.offlineimaprc"] = `[general]
accounts = Work
pythonfile = ~/.offlineimap.py

[Account Work]
localrepository = WorkLocal
remoterepository = WorkRemote

[Repository WorkRemote]
type = IMAP
remotehost = imap.acme-corp.io
remoteuser = maria
remotepass = ⟪chosen-pw⟫

[Repository PersonalRemote]
type = Gmail
remoteuser = maria
remotepasseval = get_pass("gmail")
`;

  f["mail/aerc/accounts.conf"] = `[Work]
source        = imaps://maria.keller%40acme-corp.io:⟪url-pw⟫@imap.acme-corp.io
outgoing      = smtps+plain://maria.keller%40acme-corp.io:⟪url-pw⟫@smtp.acme-corp.io:465
default       = INBOX
from          = Maria Keller <⟪email⟫>
copy-to       = Sent

[Personal]
source        = imaps://maria@imap.fastmail.com
source-cred-cmd = pass show mail/fastmail
outgoing      = smtps+plain://maria@smtp.fastmail.com:465
outgoing-cred-cmd = pass show mail/fastmail
`;

  f["home/.authinfo"] = `machine smtp.gmail.com login ⟪email⟫ password "⟪gmail-app-pw⟫" port 587
machine imap.acme-corp.io login maria password ⟪chosen-pw⟫ port 993
machine api.github.com login acme-bot^forge password ⟪gh-pat⟫
`;

  f["apt/auth.conf.d/acme.conf"] = `machine apt.acme-corp.io/debian
login ci-bot
password ⟪chosen-pw⟫
`;

  f["irc/irssi/config"] = `servers = (
  {
    address = "irc.libera.chat";
    chatnet = "liberachat";
    port = "6697";
    use_tls = "yes";
    autoconnect = "yes";
  },
  {
    address = "irc.acme-corp.io";
    chatnet = "acme";
    port = "6697";
    password = "⟪chosen-pw⟫";
    use_tls = "yes";
  }
);

chatnets = {
  liberachat = {
    type = "IRC";
    sasl_mechanism = "PLAIN";
    sasl_username = "mkeller";
    sasl_password = "⟪chosen-pw⟫";
  };
  oftc = {
    type = "IRC";
    autosendcmd = "/msg NickServ IDENTIFY ⟪chosen-pw⟫; wait 2000";
  };
};
`;

  f["irc/weechat/irc.conf"] = `[server]
libera.addresses = "irc.libera.chat/6697"
libera.tls = on
libera.sasl_username = "mkeller"
libera.sasl_password = "\${sec.data.libera}"
oftc.addresses = "irc.oftc.net/6697"
oftc.password = "⟪chosen-pw⟫"
oftc.command = "/msg nickserv identify ⟪chosen-pw⟫"
`;

  f["xmpp/pidgin/accounts.xml"] = `<?xml version='1.0' encoding='UTF-8' ?>
<account version='1.0'>
  <account>
    <protocol>prpl-jabber</protocol>
    <name>mkeller@jabber.acme-corp.io/Laptop</name>⟪@email⟫
    <password>⟪chosen-pw⟫</password>
    <alias>Maria</alias>
    <settings>
      <setting name='connect_server' type='string'>xmpp.acme-corp.io</setting>
      <setting name='require_tls' type='bool'>1</setting>
    </settings>
  </account>
</account>
`;

  // --- telephony, monitoring, directory and proxy services

  f["asterisk/pjsip.conf"] = `[transport-udp]
type=transport
protocol=udp
bind=0.0.0.0

[6001]
type=endpoint
context=internal
auth=6001-auth
aors=6001

[6001-auth]
type=auth
auth_type=userpass
username=6001
password=⟪chosen-pw⟫
`;

  f["asterisk/sip.conf"] = `[general]
context=default
register => 4420001:⟪chosen-pw⟫@sip.carrier.net/4420001

[carrier]
type=peer
host=sip.carrier.net
defaultuser=4420001
secret=⟪chosen-pw⟫
insecure=invite
`;

  f["nagios/resource.cfg"] = `# Sets $USER1$ to the path of the plugins
$USER1$=/usr/lib/nagios/plugins
# MySQL monitoring user's password
$USER3$=⟪chosen-pw⟫
# SNMP community of the core switches
$USER4$=⟪snmp-community⟫
`;

  f["ldap/slapd.conf"] = `include   /etc/openldap/schema/core.schema
database  mdb
suffix    "dc=acme-corp,dc=io"
rootdn    "cn=admin,dc=acme-corp,dc=io"
rootpw    ⟪chosen-pw⟫
directory /var/lib/ldap

database  config
rootdn    "cn=config"
rootpw    ⟪ssha-hash⟫
`;

  f["sssd/sssd.conf"] = `[sssd]
services = nss, pam
domains = ACME

[domain/ACME]
id_provider = ldap
ldap_uri = ldaps://ldap.acme-corp.io
ldap_search_base = dc=acme-corp,dc=io
ldap_default_bind_dn = cn=sssd,ou=services,dc=acme-corp,dc=io
ldap_default_authtok_type = password
ldap_default_authtok = ⟪chosen-pw⟫
`;

  f["squid/squid.conf"] = `http_port 3128
cache_peer parent.acme-corp.io parent 3128 0 no-query default login=proxyuser:⟪chosen-pw⟫
cache_peer backup.acme-corp.io parent 3128 0 no-query login=PASSTHRU
never_direct allow all
`;

  f["supervisor/supervisord.conf"] = `[inet_http_server]
port=127.0.0.1:9001
username=admin
password=⟪chosen-pw⟫

[unix_http_server]
file=/run/supervisor.sock
username=admin
password={SHA}⟪sha1-hex⟫

[program:worker]
command=/srv/ledger/bin/worker
environment=DJANGO_SETTINGS_MODULE="ledger.settings",STRIPE_KEY="⟪stripe⟫",SENTRY_ENVIRONMENT="prod"
`;

  f["rabbitmq/rabbitmq.conf"] = `listeners.tcp.default = 5672
default_vhost = /
default_user = ledger
default_pass = ⟪chosen-pw⟫
# loopback_users.guest = false
# default_pass = changeme
management.tcp.port = 15672
`;

  f["rabbitmq/definitions.json"] = `{
  "users": [
    {
      "name": "ledger",
      "password_hash": "⟪rabbit-hash⟫",
      "hashing_algorithm": "rabbit_password_hashing_sha256",
      "tags": ["administrator"]
    }
  ],
  "parameters": [
    {
      "component": "shovel",
      "name": "from-old-cluster",
      "vhost": "/",
      "value": {
        "src-uri": "amqps://shovel:⟪url-pw⟫@mq-old.internal:5671",
        "src-queue": "invoices",
        "dest-uri": "amqp://",
        "dest-queue": "invoices"
      }
    }
  ]
}
`;

  f["redis/sentinel.conf"] = `port 26379
sentinel monitor ledger-master 10.0.4.11⟪@ip-address⟫ 6379 2
sentinel auth-user ledger-master sentinel
sentinel auth-pass ledger-master ⟪chosen-pw⟫
sentinel down-after-milliseconds ledger-master 5000
`;

  f["beats/filebeat.yml"] = `filebeat.inputs:
  - type: filestream
    id: ledger-logs
    paths:
      - /var/log/ledger/*.log

cloud.id: "⟪es-cloud-id⟫"
cloud.auth: "elastic:⟪chosen-pw⟫"

output.elasticsearch:
  hosts: ["https://es.acme-corp.io:9243"]
  api_key: "⟪es-apikey⟫"
`;

  f["newrelic/newrelic.yml"] = `common: &default_settings
  license_key: '⟪newrelic-license⟫'
  app_name: Ledger
  log_level: info

production:
  <<: *default_settings
  license_key: '<%= ENV["NEW_RELIC_LICENSE_KEY"] %>'
`;

  // --- applications' own settings

  f["matrix/homeserver.yaml"] = `server_name: "chat.acme-corp.io"
pid_file: /data/homeserver.pid
listeners:
  - port: 8008
    type: http
database:
  name: psycopg2
  args:
    user: synapse
    password: ⟪chosen-pw⟫
    database: synapse
    host: db.internal
registration_shared_secret: "⟪generic⟫"
macaroon_secret_key: "⟪generic⟫"
form_secret: "⟪generic⟫"
turn_shared_secret: "⟪generic⟫"
signing_key_path: "/data/chat.acme-corp.io.signing.key"
email:
  smtp_host: smtp.acme-corp.io
  smtp_user: synapse
  smtp_pass: ⟪chosen-pw⟫
`;

  f["gitea/app.ini"] = `APP_NAME = Acme Git
RUN_MODE = prod

[database]
DB_TYPE = postgres
HOST = db.internal:5432
NAME = gitea
USER = gitea
PASSWD = ⟪chosen-pw⟫

[security]
INSTALL_LOCK = true
SECRET_KEY = ⟪generic⟫
INTERNAL_TOKEN = ⟪jwt⟫

[oauth2]
JWT_SECRET = ⟪b64-32⟫

[mailer]
ENABLED = true
SMTP_ADDR = smtp.acme-corp.io
USER = gitea
PASSWD = \`⟪chosen-pw⟫\`
`;

  f["odoo/odoo.conf"] = `[options]
addons_path = /opt/odoo/addons,/opt/odoo/custom
admin_passwd = ⟪chosen-pw⟫
db_host = db.internal
db_port = 5432
db_user = odoo
db_password = ⟪chosen-pw⟫
smtp_server = smtp.acme-corp.io
smtp_user = False
smtp_password = False
`;

  f["odoo/odoo-staging.conf"] = `[options]
admin_passwd = ⟪pbkdf2-sha512⟫
db_password = False
`;

  f["phpmyadmin/config.inc.php"] = `<?php
$cfg['blowfish_secret'] = '⟪generic⟫';
$i = 0;
$i++;
$cfg['Servers'][$i]['auth_type'] = 'cookie';
$cfg['Servers'][$i]['host'] = 'db.internal';
$cfg['Servers'][$i]['controluser'] = 'pma';
$cfg['Servers'][$i]['controlpass'] = '⟪chosen-pw⟫';
$cfg['Servers'][$i]['password'] = '';
`;

  f["joomla/configuration.php"] = `<?php
class JConfig {
	public $offline = false;
	public $sitename = 'Acme Intranet';
	public $dbtype = 'mysqli';
	public $host = 'db.internal';
	public $user = 'joomla';
	public $password = '⟪chosen-pw⟫';
	public $db = 'joomla';
	public $dbprefix = 'jml_';
	public $secret = '⟪secret16⟫';
	public $mailer = 'smtp';
	public $smtpuser = 'intranet';
	public $smtppass = '⟪chosen-pw⟫';
	public $smtphost = 'smtp.acme-corp.io';
}
`;

  f["moodle/config.php"] = `<?php
unset($CFG);
global $CFG;
$CFG = new stdClass();
$CFG->dbtype    = 'pgsql';
$CFG->dbhost    = 'db.internal';
$CFG->dbname    = 'moodle';
$CFG->dbuser    = 'moodle';
$CFG->dbpass    = '⟪chosen-pw⟫';
$CFG->wwwroot   = 'https://learn.acme-corp.io';
$CFG->passwordsaltmain = '⟪generic⟫';
require_once(__DIR__ . '/lib/setup.php');
`;

  // --- Java's XML attributes

  f["java/src/main/resources/META-INF/persistence.xml"] = `<?xml version="1.0" encoding="UTF-8"?>
<persistence xmlns="https://jakarta.ee/xml/ns/persistence" version="3.0">
  <persistence-unit name="ledger">
    <properties>
      <property name="jakarta.persistence.jdbc.url" value="jdbc:postgresql://db.internal:5432/ledger"/>
      <property name="jakarta.persistence.jdbc.user" value="ledger"/>
      <property name="jakarta.persistence.jdbc.password" value="⟪chosen-pw⟫"/>
      <property name="hibernate.connection.password" value="\${DB_PASSWORD}"/>
    </properties>
  </persistence-unit>
</persistence>
`;

  f["java/src/main/resources/log4j2.xml"] = `<?xml version="1.0" encoding="UTF-8"?>
<Configuration status="warn">
  <Appenders>
    <SMTP name="Mail" subject="Ledger error" to="ops@acme-corp.io" from="ledger@acme-corp.io"⟪@email⟫⟪@email⟫
          smtpHost="smtp.acme-corp.io" smtpPort="587" smtpUsername="alerts"
          smtpPassword="⟪chosen-pw⟫" bufferSize="50"/>
  </Appenders>
</Configuration>
`;

  f["tomcat/conf/tomcat-users.xml"] = `<?xml version="1.0" encoding="UTF-8"?>
<tomcat-users xmlns="http://tomcat.apache.org/xml" version="1.0">
  <role rolename="manager-script"/>
  <user username="deployer" password="⟪chosen-pw⟫" roles="manager-script"/>
  <user username="monitor" password="⟪tomcat-digest⟫" roles="manager-status"/>
</tomcat-users>
`;

  f["ant/build.xml"] = `<project name="ledger" default="deploy">
  <property name="ftp.server" value="ftp.acme-corp.io"/>
  <property name="ftp.password" value="⟪chosen-pw⟫"/>
  <property name="sign.storepass" value="\${env.STOREPASS}"/>
  <property name="test.password" value="⟪chosen-pw!⟫"/> <!-- gitleaks:allow the test server's login -->
  <target name="deploy">
    <ftp server="\${ftp.server}" userid="deploy" password="⟪chosen-pw⟫" remotedir="/www"/>
  </target>
</project>
`;

  // --- editors and API clients

  f[".vscode/settings.json"] = `{
  "editor.formatOnSave": true,
  "http.proxy": "http://maria:⟪url-pw⟫@proxy.acme-corp.io:3128",
  "sqltools.connections": [
    {
      "name": "ledger prod",
      "driver": "PostgreSQL",
      "server": "db.internal",
      "port": 5432,
      "database": "ledger",
      "username": "ledger",
      "password": "⟪chosen-pw⟫"
    },
    {
      "name": "ledger local",
      "driver": "PostgreSQL",
      "server": "localhost",
      "username": "ledger",
      "askForPassword": true
    }
  ],
  "rest-client.environmentVariables": {
    "prod": { "token": "⟪generic⟫" }
  }
}
`;

  f[".vscode/launch.json"] = `{
  "version": "0.2.0",
  "configurations": [
    {
      "type": "node",
      "request": "launch",
      "name": "api",
      "program": "\${workspaceFolder}/server.js",
      "env": {
        "STRIPE_API_KEY": "⟪stripe⟫",
        "DATABASE_URL": "postgres://app:⟪db-pw⟫@localhost:5432/app",
        "GITHUB_TOKEN": "\${env:GITHUB_TOKEN}"
      }
    }
  ]
}
`;

  f[".idea/workspace.xml"] = `<?xml version="1.0" encoding="UTF-8"?>
<project version="4">
  <component name="RunManager">
    <configuration name="LedgerApplication" type="SpringBootApplicationConfigurationType">
      <envs>
        <env name="SPRING_PROFILES_ACTIVE" value="prod" />
        <env name="LEDGER_API_SECRET" value="⟪generic⟫" />
        <env name="SPRING_DATASOURCE_PASSWORD" value="⟪chosen-pw⟫" />
      </envs>
    </configuration>
  </component>
</project>
`;

  f["http/ledger.http"] = `@baseUrl = https://api.acme-corp.io
@token = ⟪generic⟫

### List ledgers
GET {{baseUrl}}/v2/ledgers
Authorization: Bearer {{token}}

### Legacy endpoint
GET {{baseUrl}}/v1/export
Authorization: Basic deploy ⟪chosen-pw⟫

### Partner API
GET https://partner.acme-corp.io/status
X-API-Key: ⟪generic⟫
`;

  f["http/http-client.private.env.json"] = `{
  "prod": {
    "password": "⟪chosen-pw⟫",
    "client_secret": "⟪generic⟫"
  },
  "local": {
    "password": "{{$random.alphanumeric(12)}}"
  }
}
`;

  f["bruno/Ledger/Export.bru"] = `meta {
  name: Export
  type: http
  seq: 3
}

get {
  url: {{baseUrl}}/v1/export
  body: none
  auth: basic
}

auth:basic {
  username: deploy
  password: ⟪chosen-pw⟫
}

headers {
  x-api-key: ⟪generic⟫
}
`;

  f["bruno/Ledger/environments/prod.bru"] = `vars {
  baseUrl: https://api.acme-corp.io
}
vars:secret [
  apiToken,
  password
]
`;

  f["insomnia/export.json"] = `{
  "_type": "export",
  "__export_format": 4,
  "resources": [
    {
      "_id": "req_3f1a",
      "_type": "request",
      "name": "List ledgers",
      "url": "{{ _.baseUrl }}/v2/ledgers",
      "authentication": { "type": "bearer", "token": "⟪generic⟫", "prefix": "" }
    },
    {
      "_id": "req_3f1b",
      "_type": "request",
      "name": "Export",
      "url": "{{ _.baseUrl }}/v1/export",
      "authentication": { "type": "basic", "username": "deploy", "password": "⟪chosen-pw⟫" }
    },
    {
      "_id": "env_1",
      "_type": "environment",
      "data": { "baseUrl": "https://api.acme-corp.io", "apiKey": "{{ _.vault.apiKey }}" }
    }
  ]
}
`;

  f["httpie/sessions/api.acme-corp.io/prod.json"] = `{
    "__meta__": {
        "about": "HTTPie session file",
        "httpie": "3.2.4"
    },
    "auth": {
        "password": null,
        "type": "basic",
        "raw_auth": "deploy:⟪chosen-pw⟫"
    },
    "headers": [
        {
            "name": "X-Api-Token",
            "value": "⟪generic⟫"
        },
        {
            "name": "Accept",
            "value": "application/json"
        }
    ]
}
`;

  // --- languages and scripts not yet seen

  f["emacs/init.el"] = `;;; init.el --- personal configuration

(setq user-full-name "Maria Keller")
(setq auth-sources '("~/.authinfo.gpg"))
(setq gptel-api-key "⟪openai⟫")
(setq erc-password "⟪chosen-pw⟫")
(setq sql-connection-alist
      '((ledger-prod (sql-product 'postgres)
                     (sql-server "db.internal")
                     (sql-user "ledger")
                     (sql-password "⟪chosen-pw⟫")
                     (sql-database "ledger"))))
(setq forge-token (auth-source-pick-first-password :host "api.github.com"))
`;

  f["expect/login.exp"] = `#!/usr/bin/expect -f
set timeout 20
spawn ssh admin@10.20.4.9⟪@ip-address⟫
expect "password:"
send "⟪chosen-pw⟫\\r"
expect "$ "
send "sudo systemctl restart ledger\\r"
expect "password for admin:"
send "$env(SUDO_PASSWORD)\\r"
expect eof
`;

  f["vba/Module1.bas"] = `Attribute VB_Name = "Module1"
Option Explicit

Private Const DB_PASS As String = "⟪chosen-pw⟫"
Private Const CONN As String = "Driver={ODBC Driver 18 for SQL Server};Server=tcp:sql01.internal,1433;Database=Ledger;Uid=report;Pwd={⟪chosen-pw⟫};Encrypt=yes;"

Sub Refresh()
    Dim cn As Object
    Set cn = CreateObject("ADODB.Connection")
    cn.Open CONN
End Sub
`;

  f["odbc/odbc.ini"] = `[LedgerDSN]
Description = Ledger reporting
Driver      = PostgreSQL Unicode
Servername  = db.internal
Port        = 5432
Database    = ledger
UserName    = report
Password    = ⟪chosen-pw⟫

[LedgerLocal]
Driver      = PostgreSQL Unicode
Servername  = localhost
Database    = ledger
UserName    = ledger
Password    = <password>
`;

  f["windows/install-service.cmd"] = `@echo off
sc.exe create Ledger binPath= "C:\\Ledger\\ledger.exe" start= auto
sc.exe config Ledger obj= "ACME\\svc_ledger" password= "⟪chosen-pw⟫"
cmdkey /add:files01.acme-corp.io /user:ACME\\svc_ledger /pass:⟪chosen-pw⟫
schtasks /Create /TN "Ledger nightly" /TR "C:\\Ledger\\nightly.cmd" /SC DAILY /ST 02:00 /RU ACME\\svc_backup /RP ⟪chosen-pw⟫
schtasks /Create /TN "Ledger cleanup" /TR "C:\\Ledger\\cleanup.cmd" /SC DAILY /RU SYSTEM
`;

  f["renovate/config.js"] = `module.exports = {
  platform: "github",
  token: process.env.RENOVATE_TOKEN,
  hostRules: [
    {
      hostType: "npm",
      matchHost: "npm.acme-corp.io",
      token: "⟪npm⟫",
    },
    {
      matchHost: "acme.atlassian.net",
      username: "renovate-bot",
      password: "⟪atlassian⟫",
    },
    {
      matchHost: "docker.acme-corp.io",
      encrypted: {
        password: "⟪renovate-cipher⟫",
      },
    },
  ],
};
`;

  f["scripts/postman-run.sh"] = `#!/bin/sh
set -eu
newman run "https://api.getpostman.com/collections/4711-ledger?apikey=⟪postman-key⟫" \\
  --environment ledger.postman_environment.json
newman run "https://api.getpostman.com/collections/4712-ledger?apikey=\${POSTMAN_API_KEY}"
`;

  f["home/.envrc"] = `# direnv: loaded when entering ~/src
export DENO_AUTH_TOKENS=⟪generic⟫@deno.acme-corp.io
export DOPPLER_TOKEN=⟪doppler⟫
export SHOPIFY_ACCESS_TOKEN=⟪shopify⟫
export LINEAR_API_KEY=⟪linear⟫
export NEW_RELIC_API_KEY=⟪newrelic-user⟫
export AWS_PROFILE=acme-dev
export OP_SERVICE_ACCOUNT_TOKEN="$(cat ~/.config/op/token)"
export FIXTURE_TOKEN=⟪generic!⟫ # gitleaks:allow recorded cassette for the client tests
`;

  f["hardhat/.env"] = `# Deployer wallet for the testnet contracts
DEPLOYER_PRIVATE_KEY=⟪eth-key⟫
MNEMONIC="⟪phrase⟫"
ETHERSCAN_API_KEY=⟪etherscan⟫
SEPOLIA_RPC_URL=https://sepolia.infura.io/v3/⟪hex32s⟫
CONTRACT_ADDRESS=0x⟪sha1-hex⟫
# Account #0 of every local Hardhat node, published in its docs
HARDHAT_LOCAL_KEY=0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80
TEST_PRIVATE_KEY=⟪eth-key!⟫ # pragma: allowlist secret
`;

  f["terraform/backend.hcl"] = `# terraform init -backend-config=backend.hcl
conn_str = "postgres://terraform:⟪db-pw⟫@pg.internal/tfstate?sslmode=require"
schema_name = "ledger"
# The S3 backend instead, as its docs show it:
# access_key = "AKIAIOSFODNN7EXAMPLE"
# secret_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
`;

  // --- personal data in realistic places

  f["cv/maria-keller.md"] = `# Maria Keller

Backend engineer · Berlin

- Email: ⟪email⟫
- Phone: ⟪phone⟫
- GitHub: github.com/mkeller

## Experience

**Acme Corp** — Senior engineer, 2021–today. Ledger service, payments, on-call lead.
`;

  f["logs/access.log"] =
    `⟪ip⟫ - - [02/Dec/2026:09:14:02 +0100] "GET /v2/ledgers HTTP/1.1" 200 5123 "-" "curl/8.5.0"
⟪ip⟫ - - [02/Dec/2026:09:14:09 +0100] "POST /login HTTP/1.1" 302 0 "https://app.acme-corp.io/" "Mozilla/5.0"
⟪ip⟫ - - [02/Dec/2026:09:15:44 +0100] "GET /reset?email=⟪email⟫ HTTP/1.1" 200 812 "-" "Mozilla/5.0"
`;

  f["payroll/2026-11.csv"] = `employee_id,name,ni_number,iban,net_pay
E1001,Sven Lund,⟪nino⟫,⟪iban⟫,3120.55
E1002,Aiko Tanaka,⟪nino⟫,⟪iban⟫,3488.10
`;

  f["sepa/pain.001.xml"] = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09">
  <CstmrCdtTrfInitn>
    <PmtInf>
      <DbtrAcct><Id><IBAN>⟪iban⟫</IBAN></Id></DbtrAcct>
      <CdtTrfTxInf>
        <Amt><InstdAmt Ccy="EUR">1200.00</InstdAmt></Amt>
        <Cdtr><Nm>Chiara Moreau</Nm></Cdtr>
        <CdtrAcct><Id><IBAN>⟪iban⟫</IBAN></Id></CdtrAcct>
      </CdtTrfTxInf>
    </PmtInf>
  </CstmrCdtTrfInitn>
</Document>
`;

  // The old addresses are a laptop's and a build host's (`.local`): no mailbox, not labelled.
  f[".mailmap"] = `Maria Keller <⟪email⟫> <mkeller@laptop.local>
Jonas Berg <⟪email⟫> <jonas@build-01.local>
`;

  f["exports/users.ndjson"] =
    `{"_id":{"$oid":"6740a1b2c3d4e5f601234567"},"email":"⟪email⟫","phone":"⟪phone⟫","plan":"pro"}
{"_id":{"$oid":"6740a1b2c3d4e5f601234568"},"email":"⟪email⟫","card_last4":"4242","plan":"free"}
`;

  return f;
}
