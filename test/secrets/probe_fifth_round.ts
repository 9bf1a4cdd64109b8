/**
 * The probe corpus's fifth batch, written before any rule was changed for it: credential files of
 * clients and package managers, cluster and pipeline configuration, configuration management
 * (Ansible, Chef, Puppet, Salt), observability stacks, data tools, network and desktop clients'
 * files, more languages, and exports that hold personal data. Every value comes from a marker (none
 * is drawn while the templates are written), so adding this batch leaves the earlier files' draws
 * as they were.
 */
import type { Gen } from "./make_corpus.ts";
import { ALNUM, B64, B64URL, type Values } from "./corpus_values.ts";

const BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

function uuid(v: Values): string {
  const h = v.hex(32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${
    h.slice(20)
  }`;
}

/** The markers this batch adds (value generator, label kind; an empty kind is a trap). */
export function fifthRoundMarkers(v: Values): Record<string, Gen> {
  return {
    "discord-webhook": [
      () => `https://discord.com/api/webhooks/${v.digits(18)}/${v.mixed(B64URL, 68)}`,
      "discord-webhook",
    ],
    "telegram": [
      () => `${v.int(100000000, 8999999999)}:AA${v.mixed(B64URL, 33)}`,
      "telegram-bot-token",
    ],
    "teams-webhook": [
      () =>
        `https://acmecorp.webhook.office.com/webhookb2/${uuid(v)}@${uuid(v)}/IncomingWebhook/${
          v.hex(32)
        }/${uuid(v)}`,
      "microsoft-teams-webhook",
    ],
    "gchat-webhook": [
      () =>
        `https://chat.googleapis.com/v1/spaces/AAAA${
          v.mixed(B64URL, 7)
        }/messages?key=AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI&token=${v.mixed(B64URL, 43)}%3D`,
      "google-chat-webhook",
    ],
    "fernet": [() => v.mixed(B64URL, 43) + "=", "generic-secret"],
    "hex48s": [() => v.hex(48), "generic-secret"],
    "influx-token": [() => v.mixed(B64URL, 86) + "==", "generic-secret"],
    "grafana-sa": [() => `glsa_${v.mixed(ALNUM, 32)}_${v.hex(8)}`, "grafana-token"],
    "do-token": [() => `dop_v1_${v.hex(64)}`, "digitalocean-token"],
    "age-key": [() => `AGE-SECRET-KEY-1${v.chars(BECH32.toUpperCase(), 58)}`, "age-secret-key"],
    "openssh-4": [
      () =>
        v.pick([
          "-----BEGIN OPENSSH PRIVATE KEY-----",
        ]) + "\n    b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW" +
        "\n    " + v.base64Lines(300, 70).join("\n    ") +
        "\n    -----END OPENSSH PRIVATE KEY-----",
      "openssh-private-key",
    ],
    // personal data in other spellings
    "phone-e164": [() => `+4915${v.int(1, 9)}${v.digits(8)}`, "phone"],
    "phone-dash": [() => `+1-${v.int(201, 989)}-${v.int(201, 989)}-${v.digits(4)}`, "phone"],
    "phone-dots": [() => `${v.int(201, 989)}.${v.int(201, 989)}.${v.digits(4)}`, "phone"],
    // traps: stored encrypted or hashed by their tool, or public halves
    "argon2-hash": [
      () => `argon2:$argon2id$v=19$m=10240,t=10,p=8$${v.mixed(B64, 22)}$${v.mixed(B64, 43)}`,
      "",
    ],
    "apr1-hash": [() => `$apr1$${v.mixed(ALNUM, 8)}$${v.mixed(ALNUM + "./", 22)}`, ""],
    "sops-cipher": [
      () =>
        `ENC[AES256_GCM,data:${v.mixed(B64, 24)}=,iv:${v.mixed(B64, 43)}=,tag:${
          v.mixed(B64, 22)
        }==,type:str]`,
      "",
    ],
    "eyaml-cipher": [
      () =>
        `ENC[PKCS7,MIIBiQYJKoZIhvcNAQcDoIIBejCCAXYCAQAxggEhMIIBHQIBADAFMAACAQEw${
          v.mixed(B64, 300)
        }]`,
      "",
    ],
    "maven-cipher": [() => `{${v.mixed(B64, 43)}=}`, ""],
    "sealed-cipher": [() => `AgB${v.mixed(B64, 500)}==`, ""],
    "age-recipient": [() => `age1${v.chars(BECH32, 58)}`, ""],
  };
}

/** The fifth batch's templates: path → text with markers (no value drawn here). */
export function fifthRoundTemplates(): Record<string, string> {
  const f: Record<string, string> = {};

  // --- clients' own credential files

  f["home/.netrc"] = `machine api.heroku.com
  login ops@acme-corp.io⟪@email⟫
  password ⟪generic⟫
machine git.acme-corp.io login deploy password ⟪human-pw⟫
machine ftp.gnu.org login anonymous password anonymous@
default login guest password guest
`;

  f["home/.pgpass"] = `# hostname:port:database:username:password
db.internal:5432:ledger:ledger:⟪human-pw⟫
*:*:*:replicator:⟪password⟫
localhost:5432:*:postgres:postgres
`;

  f["home/.git-credentials"] = `https://acme-bot:⟪gh-pat⟫@github.com
https://oauth2:⟪gitlab⟫@gitlab.acme-corp.io
https://deploy:⟪url-pw⟫@bitbucket.org
`;

  f["home/.docker/config.json"] = `{
  "auths": {
    "registry.acme-corp.io": { "auth": "⟪basic-b64⟫" },
    "https://index.docker.io/v1/": { "auth": "⟪basic-b64⟫" },
    "acme.azurecr.io": {
      "auth": "MDAwMDAwMDAtMDAwMC0wMDAwLTAwMDAtMDAwMDAwMDAwMDAwOg==",
      "identitytoken": "⟪jwt⟫"
    },
    "ghcr.io": {}
  },
  "credsStore": "desktop"
}
`;

  f["home/.kube/config"] = `apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority-data: ⟪b64-public⟫
    server: https://prod.k8s.acme-corp.io
  name: prod
current-context: prod-admin
users:
- name: admin
  user:
    username: admin
    password: ⟪human-pw⟫
- name: oidc
  user:
    auth-provider:
      name: oidc
      config:
        client-id: kubernetes
        client-secret: ⟪generic⟫
        id-token: ⟪jwt⟫
        refresh-token: ⟪generic⟫
        idp-issuer-url: https://login.acme-corp.io
- name: eks
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: aws
      args: ["eks", "get-token", "--cluster-name", "prod"]
      env:
      - name: AWS_PROFILE
        value: prod
`;

  f["home/.aws/config"] = `[default]
region = eu-central-1
output = json

[profile legacy]
aws_access_key_id = ⟪aws-id⟫
aws_secret_access_key = ⟪aws-secret⟫

[profile sso]
sso_session = acme
sso_account_id = 123456789012
sso_role_name = Admin

[profile tool]
credential_process = /usr/local/bin/aws-vault exec tool --json
`;

  // --- clusters

  f["k8s/configmap.yaml"] = `apiVersion: v1
kind: ConfigMap
metadata:
  name: ledger-config
data:
  LOG_LEVEL: info
  application.properties: |
    spring.datasource.url=jdbc:postgresql://db.internal:5432/ledger
    spring.datasource.username=ledger
    spring.datasource.password=⟪human-pw⟫
    app.feature.checkout=true
  settings.json: |
    { "apiKey": "⟪generic⟫", "timeoutMs": 3000 }
`;

  f["argocd/repo-secret.yaml"] = `apiVersion: v1
kind: Secret
metadata:
  name: private-repo
  labels:
    argocd.argoproj.io/secret-type: repository
stringData:
  type: git
  url: https://git.acme-corp.io/platform/deploy.git
  username: argocd
  password: ⟪gitlab⟫
  sshPrivateKey: |
    ⟪openssh-4⟫
---
apiVersion: bitnami.com/v1alpha1
kind: SealedSecret
metadata:
  name: ledger
spec:
  encryptedData:
    password: ⟪sealed-cipher⟫
`;

  f["sops/secrets.enc.yaml"] = `db_password: ⟪sops-cipher⟫
api_token: ⟪sops-cipher⟫
sops:
    age:
        - recipient: ⟪age-recipient⟫
    lastmodified: "2026-11-02T10:11:12Z"
    mac: ⟪sops-cipher⟫
    version: 3.9.0
`;

  f["sops/keys.txt"] = `# created: 2026-11-02T10:11:12Z
# public key: ⟪age-recipient⟫
⟪age-key⟫
`;

  // --- configuration management

  f["ansible/inventory.ini"] = `[web]
web1.acme-corp.io ansible_host=10.0.4.11⟪@ip-address⟫ ansible_user=deploy ansible_password=⟪human-pw⟫
web2.acme-corp.io ansible_host=10.0.4.12⟪@ip-address⟫ ansible_user=deploy ansible_password="{{ vault_web_password }}"

[db:vars]
ansible_become_pass=⟪human-pw⟫
ansible_ssh_private_key_file=~/.ssh/deploy_ed25519

[windows:vars]
ansible_connection=winrm
ansible_winrm_password=⟪human-pw⟫
`;

  f["ansible/roles/db/tasks/main.yml"] = `- name: create the app user
  community.postgresql.postgresql_user:
    name: ledger
    password: "⟪human-pw⟫"
    login_password: "{{ pg_admin_password }}"

- name: fetch the release
  ansible.builtin.get_url:
    url: https://nexus.acme-corp.io/repo/ledger.jar
    url_username: deploy
    url_password: ⟪human-pw⟫
    dest: /opt/ledger/ledger.jar

- name: set the root password
  mysql_user: name=root password=⟪human-pw⟫ host=localhost
`;

  f["chef/attributes/default.rb"] = `default['ledger']['db']['user'] = 'ledger'
default['ledger']['db']['password'] = '⟪human-pw⟫'
default['ledger']['api_key'] = '⟪generic⟫'
default['ledger']['password_min_length'] = 12
`;

  f["chef/.chef/config.rb"] = `node_name 'deploy'
client_key '/home/deploy/.chef/deploy.pem'
chef_server_url 'https://chef.acme-corp.io/organizations/acme'
knife[:aws_access_key_id] = '⟪aws-id⟫'
knife[:aws_secret_access_key] = '⟪aws-secret⟫'
knife[:vault_mode] = 'client'
`;

  f["puppet/manifests/db.pp"] = `class { 'postgresql::server':
  postgres_password => '⟪human-pw⟫',
}

postgresql::server::db { 'ledger':
  user     => 'ledger',
  password => postgresql::postgresql_password('ledger', '⟪human-pw⟫'),
}

mysql::db { 'wiki':
  user     => 'wiki',
  password => $wiki_password,
}
`;

  f["puppet/data/common.yaml"] = `profile::ledger::api_token: '⟪generic⟫'
profile::ledger::db_password: ⟪human-pw⟫
profile::ledger::smtp_password: >
    ⟪eyaml-cipher⟫
profile::ledger::password_min_length: 12
`;

  f["salt/pillar/ledger.sls"] = `{% set db_password = '⟪human-pw⟫' %}
ledger:
  db:
    password: {{ db_password }}
  api:
    token: ⟪generic⟫
  smtp_password: {{ salt['vault'].read_secret('secret/ledger')['smtp'] }}
`;

  // --- pipelines

  f["azure-pipelines.yml"] = `trigger: [main]
variables:
  - group: ledger-prod
  - name: buildConfiguration
    value: Release
  - name: registryPassword
    value: ⟪human-pw⟫
  - name: sonarToken
    value: $(SONAR_TOKEN)
steps:
  - script: docker login -u acme -p $(registryPassword) acme.azurecr.io
  - task: AzureCLI@2
    env:
      ARM_CLIENT_SECRET: ⟪generic⟫
`;

  f["bitbucket-pipelines.yml"] = `pipelines:
  default:
    - step:
        script:
          - pipe: atlassian/aws-s3-deploy:1.1.0
            variables:
              AWS_ACCESS_KEY_ID: ⟪aws-id⟫
              AWS_SECRET_ACCESS_KEY: ⟪aws-secret⟫
              S3_BUCKET: acme-releases
          - pipe: atlassian/slack-notify:2.0.0
            variables:
              WEBHOOK_URL: ⟪slack-webhook⟫
          - curl -u deploy:$BB_APP_PASSWORD https://api.bitbucket.org/2.0/repositories
`;

  f[".drone.yml"] = `kind: pipeline
name: default
steps:
- name: publish
  image: plugins/docker
  settings:
    username: acmebot
    password:
      from_secret: docker_password
    repo: acme/ledger
- name: notify
  image: plugins/webhook
  settings:
    urls: ⟪discord-webhook⟫
    token: ⟪generic⟫
`;

  // --- source

  f["src/store.go"] = `package store

import (
	"os"

	"github.com/go-redis/redis/v8"
	"github.com/go-sql-driver/mysql"
)

const (
	defaultUser = "ledger"
	apiKey      = "⟪generic⟫"
	tokenHeader = "X-Api-Token"
)

var rdb = redis.NewClient(&redis.Options{
	Addr:     "cache.internal:6379",
	Password: "⟪human-pw⟫",
	DB:       0,
})

var cfg = mysql.Config{
	User:   "ledger",
	Passwd: "⟪human-pw⟫",
	Net:    "tcp",
	Addr:   "db.internal:3306",
}

var mongoURI = "mongodb+srv://ledger:⟪db-pw⟫@cluster0.x7k2p.mongodb.net/?retryWrites=true&w=majority"
var fromEnv = os.Getenv("REDIS_PASSWORD")
`;

  f["src/config.rs"] = `use std::env;

pub fn database_url() -> String {
    env::var("DATABASE_URL")
        .unwrap_or_else(|_| "postgres://ledger:⟪db-pw⟫@db.internal/ledger".to_string())
}

pub fn api_token() -> String {
    env::var("API_TOKEN").unwrap_or("⟪generic⟫".into())
}

pub fn smtp_password() -> String {
    env::var("SMTP_PASSWORD").expect("SMTP_PASSWORD must be set")
}

const JWT_SECRET: &[u8] = b"⟪generic⟫";
`;

  f["ios/Ledger/APIClient.m"] = `#import "APIClient.h"

static NSString * const kAPISecret = @"⟪generic⟫";
static NSString *const kPasswordLabel = @"Password";

@implementation APIClient

- (void)authorize:(NSMutableURLRequest *)request {
    [request setValue:@"Bearer ⟪bearer⟫" forHTTPHeaderField:@"Authorization"];
    [request setValue:self.token forHTTPHeaderField:@"X-Token"];
}

@end
`;

  f["src/Startup.cs"] = `public void ConfigureServices(IServiceCollection services)
{
    services.AddDbContext<LedgerContext>(o =>
        o.UseNpgsql("Host=db.internal;Database=ledger;Username=ledger;Password=⟪human-pw⟫"));
    var conn = new SqlConnection("Server=sql01;Database=crm;User Id=crm;Password=⟪human-pw⟫;");
    var redis = ConnectionMultiplexer.Connect("cache.internal:6380,password=⟪password⟫,ssl=True");
    var smtp = new SmtpClient("smtp.acme-corp.io") { Credentials = new NetworkCredential("mailer", "⟪human-pw⟫") };
    var fromConfig = new SqlConnection(Configuration.GetConnectionString("Crm"));
}
`;

  f["src/client.js"] = `const axios = require("axios");
const Redis = require("ioredis");
const nodemailer = require("nodemailer");

const SERVICE_TOKEN = "⟪jwt⟫";
axios.defaults.headers.common["Authorization"] = \`Bearer \${SERVICE_TOKEN}\`;

const redis = new Redis({ host: "cache.internal", port: 6379, password: "⟪human-pw⟫" });
const mailer = nodemailer.createTransport({
  host: "smtp.acme-corp.io",
  auth: { user: "alerts", pass: "⟪human-pw⟫" },
});
const mongoose = require("mongoose");
mongoose.connect("mongodb+srv://ledger:⟪db-pw⟫@cluster0.x7k2p.mongodb.net/ledger?retryWrites=true");
const fromEnv = new Redis({ password: process.env.REDIS_PASSWORD });
`;

  f["perl/lib/Ledger/DB.pm"] = `package Ledger::DB;
use DBI;

my $dbh = DBI->connect("dbi:Pg:dbname=ledger;host=db.internal", "ledger", "⟪human-pw⟫", { RaiseError => 1 });
my %config = (
    api_key  => '⟪generic⟫',
    password => $ENV{LEDGER_PASSWORD},
);
1;
`;

  f["jupyter/jupyter_server_config.py"] = `c = get_config()  # noqa
c.ServerApp.ip = "0.0.0.0"
c.ServerApp.token = "⟪hex48s⟫"
c.ServerApp.password = "⟪argon2-hash⟫"
c.IdentityProvider.token = ""
`;

  f["scripts/notify.sh"] = `#!/bin/bash
DISCORD_WEBHOOK="⟪discord-webhook⟫"
curl -H "Content-Type: application/json" -d '{"content":"deployed"}' "$DISCORD_WEBHOOK"
curl -s "https://api.telegram.org/bot⟪telegram⟫/sendMessage" -d chat_id=-1001234 -d text=deployed
curl -H 'Content-Type: application/json' -d '{"text":"deployed"}' '⟪gchat-webhook⟫'
curl -X POST -H 'Content-Type: application/json' -d '{"text":"deployed"}' ⟪teams-webhook⟫
curl -s "https://api.telegram.org/bot\${TELEGRAM_TOKEN}/sendMessage" -d text=done
`;

  // --- frameworks and build tools

  f["spring/application.properties"] =
    `spring.datasource.url=jdbc:postgresql://\${DB_HOST:localhost}:5432/ledger
spring.datasource.username=\${DB_USER:ledger}
spring.datasource.password=\${DB_PASSWORD:⟪human-pw⟫}
spring.mail.password=\${MAIL_PASSWORD}
app.jwt.secret=\${JWT_SECRET:⟪generic⟫}
app.cache.password=\${CACHE_PASSWORD:}
spring.security.oauth2.client.registration.github.client-secret=⟪generic⟫
`;

  f["rails/config/database.yml"] = `default: &default
  adapter: postgresql
  username: ledger
  password: <%= ENV["DATABASE_PASSWORD"] %>

production:
  <<: *default
  password: ⟪human-pw⟫
  url: postgres://ledger:⟪db-pw⟫@db.internal/ledger
`;

  f["compose/docker-compose.yml"] = `services:
  api:
    env_file:
      - .env
      - ./config/api.env
    environment:
      - DB_PASSWORD=\${DB_PASSWORD:-⟪human-pw⟫}
      - REDIS_URL=redis://:\${REDIS_PASSWORD}@redis:6379
      - SMTP_URL=smtp://mailer:⟪url-pw⟫@smtp.acme-corp.io:587
  redis:
    image: redis:7
    command: redis-server --requirepass ⟪human-pw⟫
  rabbit:
    image: rabbitmq:3
    environment:
      RABBITMQ_DEFAULT_USER: ledger
      RABBITMQ_DEFAULT_PASS: ⟪human-pw⟫
`;

  f["compose/config/api.env"] = `# read by compose's env_file
AMQP_URL=amqps://ledger:⟪db-pw⟫@rabbit.internal:5671/ledger?heartbeat=30
MONGO_URL=mongodb://ledger:⟪db-pw⟫@mongo-0:27017,mongo-1:27017/ledger?authSource=admin&replicaSet=rs0
CACHE_URL=redis://default:⟪db-pw⟫@cache.internal:6379/2
PAYMENT_WEBHOOK_SECRET=⟪stripe-webhook⟫
`;

  f["poetry/auth.toml"] = `[http-basic.acme]
username = "deploy"
password = "⟪human-pw⟫"

[pypi-token]
pypi = "⟪pypi⟫"
`;

  f["pypi/.pypirc"] = `[distutils]
index-servers =
    pypi
    internal

[pypi]
username = __token__
password = ⟪pypi⟫

[internal]
repository = https://pypi.acme-corp.io/
username = deploy
password = ⟪human-pw⟫
`;

  f["ruby/Gemfile"] = `source "https://rubygems.org"

source "https://deploy:⟪url-pw⟫@gems.acme-corp.io/" do
  gem "acme-ledger"
end

source "https://#{ENV['GEM_TOKEN']}@gems.contribsys.com/" do
  gem "sidekiq-pro"
end
`;

  f["maven/settings.xml"] = `<settings>
  <servers>
    <server>
      <id>nexus-releases</id>
      <username>deploy</username>
      <password>⟪human-pw⟫</password>
    </server>
    <server>
      <id>nexus-env</id>
      <username>\${env.NEXUS_USER}</username>
      <password>\${env.NEXUS_PASSWORD}</password>
    </server>
    <server>
      <id>encrypted</id>
      <password>⟪maven-cipher⟫</password>
    </server>
    <server>
      <id>ssh-repo</id>
      <privateKey>\${user.home}/.ssh/id_rsa</privateKey>
      <passphrase>⟪human-pw⟫</passphrase>
    </server>
  </servers>
  <proxies>
    <proxy>
      <host>proxy.internal</host>
      <username>svc_proxy</username>
      <password>⟪human-pw⟫</password>
    </proxy>
  </proxies>
</settings>
`;

  f["gradle/build.gradle"] = `repositories {
    maven {
        url "https://nexus.acme-corp.io/repository/maven-releases/"
        credentials {
            username "deploy"
            password "⟪human-pw⟫"
        }
    }
    maven {
        url "https://maven.pkg.github.com/acme/ledger"
        credentials {
            username = project.findProperty("gpr.user") ?: System.getenv("USERNAME")
            password = project.findProperty("gpr.key") ?: System.getenv("TOKEN")
        }
    }
}
`;

  f["sbt/credentials.sbt"] =
    `credentials += Credentials("Sonatype Nexus Repository Manager", "nexus.acme-corp.io", "deploy", "⟪human-pw⟫")
credentials += Credentials(Path.userHome / ".sbt" / ".credentials")
`;

  f["azure/ledger-prod.PublishSettings"] = `<publishData>
  <publishProfile profileName="ledger-prod - Web Deploy" publishMethod="MSDeploy" publishUrl="ledger-prod.scm.azurewebsites.net:443" msdeploySite="ledger-prod" userName="$ledger-prod" userPWD="⟪generic⟫" destinationAppUrl="https://ledger-prod.azurewebsites.net" />
  <publishProfile profileName="ledger-prod - FTP" publishMethod="FTP" publishUrl="ftps://waws-prod.ftp.azurewebsites.windows.net/site/wwwroot" ftpPassiveMode="True" userName="ledger-prod\\$ledger-prod" userPWD="⟪generic⟫" />
</publishData>
`;

  f["do/main.tf"] = `provider "digitalocean" {
  token = "⟪do-token⟫"
}

provider "postgresql" {
  host     = "db.internal"
  username = "ledger"
  password = var.pg_password
}
`;

  // --- data and observability tools

  f["airflow/airflow.cfg"] = `[core]
executor = CeleryExecutor
fernet_key = ⟪fernet⟫

[database]
sql_alchemy_conn = postgresql+psycopg2://airflow:⟪db-pw⟫@pg.internal/airflow

[webserver]
secret_key = ⟪hex32s⟫

[celery]
broker_url = redis://:⟪db-pw⟫@redis.internal:6379/0
result_backend = db+postgresql://airflow:⟪db-pw⟫@pg.internal/airflow

[smtp]
smtp_password = ⟪human-pw⟫
`;

  f["dbt/profiles.yml"] = `ledger:
  target: prod
  outputs:
    prod:
      type: snowflake
      account: acme-eu1
      user: dbt
      password: "{{ env_var('DBT_PASSWORD') }}"
    dev:
      type: postgres
      host: localhost
      user: dbt
      pass: ⟪human-pw⟫
      dbname: ledger
`;

  f["grafana/grafana.ini"] = `[security]
admin_user = admin
admin_password = ⟪human-pw⟫
secret_key = ⟪generic⟫

[database]
type = postgres
password = """⟪human-pw⟫"""

[auth.generic_oauth]
client_secret = ⟪generic⟫

[smtp]
password = $__env{SMTP_PASSWORD}
`;

  f["grafana/provisioning/datasources/ledger.yaml"] = `apiVersion: 1
datasources:
  - name: Prometheus
    type: prometheus
    url: https://prom.acme-corp.io
    basicAuth: true
    basicAuthUser: grafana
    secureJsonData:
      basicAuthPassword: ⟪human-pw⟫
  - name: Loki
    type: loki
    jsonData:
      httpHeaderName1: Authorization
    secureJsonData:
      httpHeaderValue1: "Bearer ⟪grafana-sa⟫"
`;

  f["alertmanager/alertmanager.yml"] = `global:
  smtp_smarthost: smtp.acme-corp.io:587
  smtp_auth_username: alerts@acme-corp.io⟪@email⟫
  smtp_auth_password: ⟪human-pw⟫
  slack_api_url: ⟪slack-webhook⟫
receivers:
  - name: pager
    pagerduty_configs:
      - routing_key: ⟪hex32s⟫
  - name: ops
    webhook_configs:
      - url: https://hooks.acme-corp.io/alert
        http_config:
          bearer_token: ⟪generic⟫
          basic_auth:
            username: am
            password_file: /etc/alertmanager/pw
`;

  f["logstash/pipeline/ledger.conf"] = `input { beats { port => 5044 } }
output {
  elasticsearch {
    hosts => ["https://es.internal:9200"]
    user => "logstash_writer"
    password => "⟪human-pw⟫"
    api_key => "\${ES_API_KEY}"
  }
}
`;

  f["kibana/kibana.yml"] = `server.host: 0.0.0.0
elasticsearch.username: kibana_system
elasticsearch.password: ⟪human-pw⟫
xpack.encryptedSavedObjects.encryptionKey: ⟪generic⟫
xpack.security.encryptionKey: "⟪generic⟫"
`;

  f["fluent-bit/fluent-bit.conf"] = `[OUTPUT]
    Name        http
    Match       *
    Host        logs.acme-corp.io
    HTTP_User   ledger
    HTTP_Passwd ⟪human-pw⟫

[OUTPUT]
    Name        es
    Match       audit.*
    Cloud_Auth  elastic:⟪human-pw⟫
`;

  f["telegraf/telegraf.conf"] = `[[outputs.influxdb_v2]]
  urls = ["https://influx.acme-corp.io"]
  token = "⟪influx-token⟫"
  organization = "acme"
  bucket = "ledger"

[[inputs.postgresql]]
  address = "host=db.internal user=telegraf password=⟪password⟫ sslmode=require"
`;

  // --- network and desktop clients

  f["network/wpa_supplicant.conf"] = `ctrl_interface=/run/wpa_supplicant
network={
    ssid="acme-guest"
    psk="⟪human-pw⟫"
}
network={
    ssid="acme-corp"
    key_mgmt=WPA-EAP
    identity="svc_kiosk"
    password="⟪human-pw⟫"
}
`;

  f["network/office.nmconnection"] = `[connection]
id=acme-office
type=wifi

[wifi]
ssid=acme-office

[wifi-security]
key-mgmt=wpa-psk
psk=⟪human-pw⟫
`;

  f["filezilla/sitemanager.xml"] = `<?xml version="1.0" encoding="UTF-8"?>
<FileZilla3 version="3.66.1">
  <Servers>
    <Server>
      <Host>ftp.acme-corp.io</Host>
      <Port>21</Port>
      <Protocol>0</Protocol>
      <User>deploy</User>
      <Pass encoding="base64">⟪pw-b64⟫</Pass>
    </Server>
  </Servers>
</FileZilla3>
`;

  f["windows/unattend.xml"] = `<unattend xmlns="urn:schemas-microsoft-com:unattend">
  <settings pass="oobeSystem">
    <component name="Microsoft-Windows-Shell-Setup">
      <UserAccounts>
        <AdministratorPassword>
          <Value>⟪human-pw⟫</Value>
          <PlainText>true</PlainText>
        </AdministratorPassword>
      </UserAccounts>
      <AutoLogon>
        <Username>kiosk</Username>
        <Password>
          <Value>⟪human-pw⟫</Value>
          <PlainText>true</PlainText>
        </Password>
      </AutoLogon>
    </component>
  </settings>
</unattend>
`;

  f["traefik/dynamic.yml"] = `http:
  middlewares:
    dashboard-auth:
      basicAuth:
        users:
          - "admin:⟪apr1-hash⟫"
`;

  // --- personal data in exports, and docs that mix real and example values

  f["exports/customers.csv"] = `id,first_name,last_name,email,phone,country,order_ref
1001,Maria,Keller,⟪email⟫,⟪phone-e164⟫,DE,⟪order16⟫
1002,Jonas,Berg,⟪email⟫,⟪phone-dash⟫,US,⟪order16⟫
1003,Aiko,Tanaka,⟪email⟫,⟪phone-dots⟫,US,⟪order16⟫
1004,Test,User,test.user@example.com,+1 555 0100,US,0000000000000000
`;

  f["exports/contacts.json"] = `[
  { "name": "Fatima Haddad", "email": "⟪email⟫", "mobile": "⟪phone-e164⟫", "tags": ["vip"] },
  { "name": "Sven Lund", "email": "⟪email⟫", "mobile": "⟪phone⟫", "tags": [] },
  { "name": "Support", "email": "support@example.org", "mobile": "+1 555 0123", "tags": [] }
]
`;

  f["docs/DEPLOY.md"] = `# Deploying the ledger

The staging database is reachable with:

    psql "postgresql://ledger:⟪db-pw⟫@staging-db.acme-corp.io/ledger"

On your own machine use the example from \`.env.example\`:

    DATABASE_URL=postgresql://ledger:password@localhost/ledger

The release bot's token (rotate it after the migration): \`⟪gh-pat⟫\`

Tokens look like \`ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\`; AWS's documented pair is
\`AKIAIOSFODNN7EXAMPLE\` / \`wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\`.

| variable | value |
| --- | --- |
| \`API_KEY\` | \`your-api-key\` |
| \`SLACK_WEBHOOK\` | \`https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX\` |
| \`STRIPE_KEY\` | \`⟪stripe⟫\` |
`;

  return f;
}
