/**
 * The second corpus (probe_corpus.ts), written after the rules were tuned on the first: every
 * labelled value is found and no trap is reported, over twelve fresh draws of the values. The
 * failure message lists every miss and false alarm with its file and line.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { generateProbe } from "./probe_corpus.ts";
import { expected, type Found, score, wispFindings } from "./corpus_eval.ts";
import type { Label } from "./make_corpus.ts";

function scoreProbe(personal: boolean, seeds: number[]) {
  const want: Record<string, Label[]> = {};
  const found: Record<string, Found[]> = {};
  for (const seed of seeds) {
    const corpus = generateProbe(seed);
    for (const [path, text] of Object.entries(corpus.files)) {
      want[`${seed}/${path}`] = expected(corpus.labels[path], personal);
      found[`${seed}/${path}`] = wispFindings(path, text, personal);
    }
  }
  return score(want, found);
}

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

Deno.test("the probe corpus spans the kinds of file real repositories hold", () => {
  const { files, labels } = generateProbe(1);
  const paths = Object.keys(files);
  for (
    const suffix of [
      "settings.py",
      ".env",
      "wp-config.php",
      "appsettings.Production.json",
      "Web.config",
      "application.yml",
      ".tfvars",
      "secret.yaml",
      "deploy.yml",
      ".npmrc",
      "credentials.toml",
      "gradle.properties",
      "auth.json",
      "main.go",
      "lib.rs",
      ".kt",
      ".swift",
      ".java",
      ".cs",
      ".ts",
      ".rb",
      ".ps1",
      ".sh",
      ".bash_history",
      ".ipynb",
      ".sql",
      ".log",
      "Dockerfile",
      ".patch",
      "redis.conf",
      "haproxy.cfg",
      "Jenkinsfile",
      "Vagrantfile",
      ".my.cnf",
      "pip.conf",
      ".s3cfg",
      "hosts.yml",
      "prod.secret.exs",
      "application.conf",
      "LocalSettings.php",
      "secrets.xml",
      "Info.plist",
      "hibernate.cfg.xml",
      "pom.xml",
      "config.h",
      "Makefile",
      "netlify.toml",
      "serverless.yml",
      "sys.config",
      ".travis.yml",
      "server.hcl",
      "consul.hcl",
      "erp.conf",
      "sasl_passwd",
      "dovecot-sql.conf.ext",
      "env.php",
      ".service",
      ".ini",
      ".reg",
      ".bat",
      ".har",
      ".curlrc",
      ".wgetrc",
      ".tfstate",
      "template.yaml",
      "Pulumi.prod.yaml",
      "app.json",
      "vercel.json",
      "config.xml",
      ".muttrc",
      ".msmtprc",
      ".fetchmailrc",
      "client.properties",
      "wg0.conf",
      "userlist.txt",
      ".smbcredentials",
      "rclone.conf",
      ".scala",
      ".clj",
      ".hs",
      ".lua",
      ".R",
      ".dart",
      ".netrc",
      ".pgpass",
      ".git-credentials",
      ".docker/config.json",
      ".kube/config",
      ".aws/config",
      "configmap.yaml",
      "secrets.enc.yaml",
      "inventory.ini",
      "tasks/main.yml",
      "attributes/default.rb",
      ".pp",
      ".sls",
      "azure-pipelines.yml",
      "bitbucket-pipelines.yml",
      ".drone.yml",
      ".m",
      "application.properties",
      "database.yml",
      "docker-compose.yml",
      "auth.toml",
      ".pypirc",
      "Gemfile",
      "settings.xml",
      "build.gradle",
      ".sbt",
      ".PublishSettings",
      "airflow.cfg",
      "profiles.yml",
      "grafana.ini",
      "alertmanager.yml",
      "kibana.yml",
      "fluent-bit.conf",
      "telegraf.conf",
      "wpa_supplicant.conf",
      ".nmconnection",
      "sitemanager.xml",
      "unattend.xml",
      ".pm",
      "customers.csv",
      "contacts.json",
      "config/database.php",
      "parameters.yml",
      "runtime.exs",
      ".nim",
      ".zig",
      ".cr",
      ".jl",
      "build.gradle.kts",
      "local.properties",
      ".xcconfig",
      "Matchfile",
      "server.properties",
      "server.cfg",
      "DefaultEngine.ini",
      "mosquitto.conf",
      "secrets.yaml",
      ".ovpn",
      "ipsec.secrets",
      "snmpd.conf",
      "clients.conf",
      "fstab",
      ".ldif",
      "realm-export.json",
      "prometheus.yml",
      "loki.yaml",
      "vector.toml",
      "fluent.conf",
      "Caddyfile",
      "envoy.yaml",
      ".nomad.hcl",
      ".pkr.hcl",
      "data_bags/ledger/db.json",
      "realm.properties",
      ".eml",
      "slack/export/ops/2026-11-30.json",
      "runbooks/failover.md",
      ".vcf",
      ".ics",
    ]
  ) assert(paths.some((p) => p.endsWith(suffix)), `the probe corpus has no ${suffix} file`);
  const credentials = Object.values(labels).flat().filter((l) => !l.personal);
  assert(credentials.length >= 380, `only ${credentials.length} credentials in one draw`);
  // Files that are traps only: an encrypted vault, docs with examples, fixtures with fake values.
  for (
    const path of [
      "ansible/group_vars/vault.yml",
      "travis/.travis.yml",
      "docs/CONFIGURING.md",
      "test/fixtures/users.json",
      "jenkins/credentials.xml",
      "sops/secrets.enc.yaml",
      "traefik/dynamic.yml",
      "mosquitto/passwd",
      "chef/data_bags/ledger/api.json",
    ]
  ) {
    assertEquals(labels[path], [], `${path} holds traps only`);
  }
});

Deno.test("credentials in the probe corpus: every value found, no trap reported (12 draws)", () => {
  const s = scoreProbe(false, SEEDS);
  assertEquals({ misses: s.misses, falseAlarms: s.falseAlarms }, { misses: [], falseAlarms: [] });
  assert(s.truePositives >= 12 * 380);
});

Deno.test("with personal data, the probe corpus is found whole too (12 draws)", () => {
  const s = scoreProbe(true, SEEDS);
  assertEquals({ misses: s.misses, falseAlarms: s.falseAlarms }, { misses: [], falseAlarms: [] });
});
