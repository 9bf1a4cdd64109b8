/**
 * The probe corpus's ninth batch, written before any rule was changed for it: the places the last
 * measurement still missed, taken as classes, and kinds of file the earlier batches did not hold.
 * Positional calls of mail, directory, FTP and SSH libraries in Java and other languages;
 * PowerShell's secure strings and credential objects; SQL Server's, Oracle's, MySQL's and
 * Snowflake's statements that set a password; tuple and destructuring assignments in five
 * languages; `user/password@db` logins of Oracle's tools; `user,password` and `user%password`
 * options; a default after an environment lookup in a template (`${VAR:-…}`, `${VAR:…}`); Gradle's
 * Groovy `signingConfigs`; `--from-literal` and other command-line secrets of cluster and cloud
 * tools; shell history, crontabs, systemd units, notebooks, NuGet feeds, kubeconfigs, Helm values.
 * The traps beside them read the value from the environment, a vault or a prompt, hold a stored
 * hash, a placeholder, a bind variable or a template, or name a field. Every value comes from a
 * marker, so adding the batch leaves the earlier files' draws as they were.
 */
import type { Gen } from "./make_corpus.ts";
import { ALNUM, type Values } from "./corpus_values.ts";

const WORDS = ["harbor", "maple", "orbit", "candle", "falcon", "velvet", "otter", "quartz"];

const cap = (w: string) => w[0].toUpperCase() + w.slice(1);

/**
 * A password typed into a script: letters, digits and one of `!+._-`, so the same value reads the
 * same inside any language's quotes, in a `user,password` or `user%password` option and after a
 * `user/` in an Oracle login.
 */
function scriptPassword(v: Values): string {
  return v.pick([
    () => `${cap(v.pick(WORDS))}${v.pick(["!", "+", "."])}${v.int(100, 9999)}`,
    () => `${v.pick(WORDS)}-${v.pick(WORDS)}-${v.int(10, 99)}`,
    () => `${cap(v.pick(WORDS))}${v.int(1990, 2030)}${v.pick(["!", "+"])}`,
    () => v.pick([...ALNUM]) + v.mixed(ALNUM + "!+._-", v.int(10, 15)),
  ])();
}

/** An Oracle password written without quotes: a letter, then letters, digits, `_` and `#`. */
function oraclePassword(v: Values): string {
  return `${cap(v.pick(WORDS))}${v.int(10, 9999)}${v.pick(["_", "#"])}${v.pick(WORDS)}`;
}

/** The markers this batch adds (value generator, label kind; an empty kind is a trap). */
export function ninthRoundMarkers(v: Values): Record<string, Gen> {
  return {
    "script-pw": [() => scriptPassword(v), "password"],
    "ora-pw": [() => oraclePassword(v), "password"],
    "script-pw-b64": [() => btoa(scriptPassword(v)), "password"],
    "vault-token": [() => "hvs." + v.mixed(ALNUM + "_-", 91), "vault-token"],
    // traps: a DPAPI-protected string (PowerShell's ConvertFrom-SecureString output), Oracle's
    // stored verifier
    "dpapi-blob": [() => "01000000d08c9ddf0115d1118c7a00c04fc297eb01000000" + v.hex(180), ""],
    "ora-verifier": [() => "S:" + v.hex(60).toUpperCase() + ";T:" + v.hex(160).toUpperCase(), ""],
  };
}

/** The ninth batch's templates: path → text with markers (no value drawn here). */
export function ninthRoundTemplates(): Record<string, string> {
  const f: Record<string, string> = {};

  f["billing-java/src/main/java/com/acme/billing/mail/InvoiceMailer.java"] =
    `package com.acme.billing.mail;

import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.MimeMessage;
import java.util.Properties;

public final class InvoiceMailer {
    private final Session session;

    InvoiceMailer() {
        Properties props = new Properties();
        props.put("mail.smtp.host", "smtp.acme-billing.io");
        props.put("mail.smtp.auth", "true");
        this.session = Session.getInstance(props);
    }

    void send(MimeMessage msg) throws Exception {
        Transport.send(msg, "invoices@acme-billing.io", "⟪script-pw⟫");⟪@email⟫
    }

    void sendWithTransport(MimeMessage msg) throws Exception {
        Transport transport = session.getTransport("smtp");
        transport.connect("smtp.acme-billing.io", 587, "invoices", "⟪script-pw⟫");
        transport.sendMessage(msg, msg.getAllRecipients());
        transport.close();
    }

    void sendFromConfig(MimeMessage msg, MailConfig cfg) throws Exception {
        Transport.send(msg, cfg.user(), cfg.password());
        Transport.send(msg, "invoices", System.getenv("SMTP_PASSWORD"));
        Transport.send(msg, msg.getAllRecipients());
    }
}
`;

  f["billing-java/src/main/java/com/acme/billing/directory/DirectoryClient.java"] =
    `package com.acme.billing.directory;

import com.jcraft.jsch.JSch;
import com.jcraft.jsch.Session;
import java.util.Hashtable;
import javax.naming.Context;
import javax.naming.directory.DirContext;
import javax.naming.directory.InitialDirContext;
import org.apache.commons.net.ftp.FTPClient;
import org.apache.hc.client5.http.auth.UsernamePasswordCredentials;

final class DirectoryClient {
    DirContext bind() throws Exception {
        Hashtable<String, String> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "com.sun.jndi.ldap.LdapCtxFactory");
        env.put(Context.PROVIDER_URL, "ldaps://ldap.acme-billing.io:636");
        env.put(Context.SECURITY_PRINCIPAL, "cn=billing,ou=services,dc=acme,dc=io");
        env.put(Context.SECURITY_CREDENTIALS, "⟪script-pw⟫");
        return new InitialDirContext(env);
    }

    DirContext bindFromVault(VaultClient vault) throws Exception {
        Hashtable<String, String> env = new Hashtable<>();
        env.put(Context.SECURITY_CREDENTIALS, vault.read("ldap/billing"));
        return new InitialDirContext(env);
    }

    Session ssh() throws Exception {
        Session s = new JSch().getSession("deploy", "batch01.acme-billing.io", 22);
        s.setPassword("⟪script-pw⟫");
        return s;
    }

    void upload() throws Exception {
        FTPClient ftp = new FTPClient();
        ftp.connect("ftp.acme-billing.io");
        ftp.login("statements", "⟪script-pw⟫");
        ftp.login("anonymous", "");
    }

    UsernamePasswordCredentials proxy() {
        return new UsernamePasswordCredentials("billing-proxy", "⟪script-pw⟫".toCharArray());
    }
}
`;

  f["ops/windows/Provision-Billing.ps1"] = `#Requires -Modules SqlServer
param([string]$Server = "sql01.acme-billing.local")

$plain = ConvertTo-SecureString "⟪script-pw⟫" -AsPlainText -Force
$svc = New-Object System.Management.Automation.PSCredential ("ACME\\svc_billing", $plain)
$admin = New-Object System.Management.Automation.PSCredential("ACME\\sql_admin", (ConvertTo-SecureString -String "⟪script-pw⟫" -AsPlainText -Force))
$backup = [pscredential]::new("backup", (ConvertTo-SecureString -AsPlainText -Force -String '⟪script-pw⟫'))

# Traps: read, prompted or decrypted, never written here.
$fromEnv = ConvertTo-SecureString $env:BILLING_SVC_PASSWORD -AsPlainText -Force
$prompted = Read-Host -Prompt "Password" -AsSecureString
$stored = ConvertTo-SecureString "⟪dpapi-blob⟫"
$interactive = Get-Credential -UserName "ACME\\sql_admin" -Message "SQL admin"

Invoke-Sqlcmd -ServerInstance $Server -Username "billing_etl" -Password "⟪script-pw⟫" -Query "SELECT 1"
Invoke-Sqlcmd -ServerInstance $Server -Username "billing_etl" -Password $env:ETL_PASSWORD -Query "SELECT 1"
net use \\\\files01\\statements /user:ACME\\svc_billing ⟪script-pw⟫ /persistent:no
net use \\\\files01\\archive /user:ACME\\svc_billing * /persistent:no
New-LocalUser -Name "kiosk" -Password (ConvertTo-SecureString "⟪script-pw⟫" -AsPlainText -Force) -PasswordNeverExpires
`;

  f["db/mssql/020_linked_servers.sql"] = `-- Linked servers and logins for the billing warehouse.
EXEC master.dbo.sp_addlinkedserver @server = N'LEGACY', @srvproduct = N'', @provider = N'SQLNCLI', @datasrc = N'legacy01';
EXEC master.dbo.sp_addlinkedsrvlogin @rmtsrvname = N'LEGACY', @useself = N'False', @locallogin = NULL, @rmtuser = N'billing_link', @rmtpassword = N'⟪script-pw⟫';
EXEC sp_addlinkedsrvlogin 'ARCHIVE', 'false', NULL, 'archive_reader', '⟪script-pw⟫';
EXEC sp_addlinkedsrvlogin @rmtsrvname = N'REPORTS', @useself = N'True';
GO
CREATE LOGIN billing_etl WITH PASSWORD = N'⟪script-pw⟫' MUST_CHANGE, CHECK_EXPIRATION = ON;
ALTER LOGIN sa WITH PASSWORD = '⟪script-pw⟫';
CREATE LOGIN billing_hashed WITH PASSWORD = 0x0200⟪hex64⟫ HASHED;
CREATE LOGIN [ACME\\billing_ops] FROM WINDOWS;
CREATE MASTER KEY ENCRYPTION BY PASSWORD = '⟪script-pw⟫';
CREATE DATABASE SCOPED CREDENTIAL BlobCred WITH IDENTITY = 'SHARED ACCESS SIGNATURE', SECRET = '⟪generic⟫';
CREATE LOGIN billing_tmpl WITH PASSWORD = '$(BILLING_TMPL_PASSWORD)';
GO
`;

  f["db/oracle/create_billing_schema.sql"] =
    `-- Run as SYSDBA: sqlplus / as sysdba @create_billing_schema.sql
CREATE USER billing IDENTIFIED BY ⟪ora-pw⟫ DEFAULT TABLESPACE billing_data QUOTA UNLIMITED ON billing_data;
CREATE USER billing_ro IDENTIFIED BY "⟪ora-pw⟫";
ALTER USER billing_batch IDENTIFIED BY ⟪ora-pw⟫ ACCOUNT UNLOCK;
CREATE DATABASE LINK legacy_link CONNECT TO legacy_reader IDENTIFIED BY ⟪ora-pw⟫ USING 'LEGACYDB';
-- Traps
CREATE USER billing_ext IDENTIFIED EXTERNALLY;
CREATE USER billing_glob IDENTIFIED GLOBALLY AS 'CN=billing,OU=apps,DC=acme,DC=io';
ALTER USER billing_copy IDENTIFIED BY VALUES '⟪ora-verifier⟫';
ALTER USER billing_app IDENTIFIED BY &app_password;
ALTER USER billing_tmp IDENTIFIED BY :new_password;
GRANT CONNECT, RESOURCE TO billing;
`;

  f["db/mysql/grants.sql"] = `-- Legacy grants, MySQL 5.7
GRANT SELECT, INSERT ON billing.* TO 'billing_app'@'10.0.%' IDENTIFIED BY '⟪script-pw⟫';
SET PASSWORD FOR 'reporting'@'%' = PASSWORD('⟪script-pw⟫');
SET PASSWORD FOR 'backup'@'localhost' = '⟪script-pw⟫';
CREATE USER IF NOT EXISTS 'metrics'@'%' IDENTIFIED WITH caching_sha2_password BY '⟪script-pw⟫';
CHANGE MASTER TO MASTER_HOST='db01', MASTER_USER='repl', MASTER_PASSWORD='⟪script-pw⟫', MASTER_AUTO_POSITION=1;
-- Traps
GRANT SELECT ON billing.* TO 'auditor'@'%' IDENTIFIED BY PASSWORD '⟪mysql-native-hash⟫';
CREATE USER 'ci'@'%' IDENTIFIED BY '\${CI_DB_PASSWORD}';
SET PASSWORD FOR 'reporting'@'%' = PASSWORD(@new_password);
`;

  f["db/snowflake/roles.sql"] = `USE ROLE SECURITYADMIN;
CREATE USER IF NOT EXISTS LOADER PASSWORD = '⟪script-pw⟫' DEFAULT_ROLE = LOADER_ROLE MUST_CHANGE_PASSWORD = FALSE;
ALTER USER DBT_RUNNER SET PASSWORD = '⟪script-pw⟫';
CREATE USER IF NOT EXISTS FIVETRAN RSA_PUBLIC_KEY = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA⟪hex64⟫' DEFAULT_ROLE = INGEST;
ALTER USER LOOKER SET PASSWORD = '{{ var("looker_password") }}';
-- PostgreSQL side of the pipeline
ALTER ROLE billing_ingest WITH LOGIN PASSWORD '⟪script-pw⟫' VALID UNTIL '2027-01-01';
ALTER ROLE billing_view PASSWORD :'view_password';
`;

  f["scripts/seed_accounts.py"] = `"""Seed the staging database with the service accounts."""
import os

import psycopg

admin_user, admin_password = "billing_admin", "⟪script-pw⟫"
api_token, api_url = "⟪generic⟫", "https://api.acme-billing.io/v2"
smtp_user, smtp_pass = (
    "invoices@acme-billing.io",⟪@email⟫
    "⟪script-pw⟫",
)
db_user, db_password = os.environ["DB_USER"], os.environ["DB_PASSWORD"]
user, password = line.strip().split(":", 1) if (line := os.environ.get("SEED_PAIR")) else ("", "")
label, password_field = "Admin", "password"


def connect():
    return psycopg.connect(host="db.staging", user=admin_user, password=admin_password)
`;

  f["web/src/seed/accounts.ts"] = `import { createClient } from "./client";

const [adminUser, adminPassword] = ["billing-admin", "⟪script-pw⟫"];
let [apiKey, apiBase] = ["⟪generic⟫", "https://api.acme-billing.io"];
const { user: relayUser, password: relayPassword } = { user: "relay", password: "⟪script-pw⟫" };

// Traps: read from the environment or a form.
const [envUser, envPassword] = [process.env.SEED_USER, process.env.SEED_PASSWORD];
const [formUser, formPassword] = [form.get("user"), form.get("password")];
const [labelUser, labelPassword] = ["User name", "Password"];

export const client = createClient(adminUser, adminPassword, apiKey, apiBase, relayUser, relayPassword);
`;

  f["tools/seed/main.go"] = `package main

import (
	"database/sql"
	"fmt"
	"os"
)

func main() {
	user, pass := "billing_admin", "⟪script-pw⟫"
	var apiKey, region = "⟪generic⟫", "eu-west-1"
	envUser, envPass := os.Getenv("DB_USER"), os.Getenv("DB_PASSWORD")
	label, hint := "Password", "at least 12 characters"
	dsn := fmt.Sprintf("host=db.staging user=%s password=%s", user, pass)
	db, _ := sql.Open("postgres", dsn)
	_ = db
	fmt.Println(apiKey, region, envUser, envPass, label, hint)
}
`;

  f["tools/seed/seed.rb"] = `require "pg"

user, password = "billing_admin", "⟪script-pw⟫"
token, endpoint = ENV.fetch("BILLING_TOKEN"), "https://api.acme-billing.io"
conn = PG.connect(host: "db.staging", user: user, password: password)
`;

  f["tools/seed/seed.pl"] = `use strict;
use DBI;

my ($user, $pass) = ('billing_admin', '⟪script-pw⟫');
my ($env_user, $env_pass) = ($ENV{DB_USER}, $ENV{DB_PASS});
my $dbh = DBI->connect("dbi:Pg:dbname=billing;host=db.staging", $user, $pass);
`;

  f["tools/seed/src/main.rs"] = `use std::env;

fn main() {
    let (user, password) = ("billing_admin", "⟪script-pw⟫");
    let (env_user, env_password) = (env::var("DB_USER").unwrap(), env::var("DB_PASSWORD").unwrap());
    println!("{user} {password} {env_user} {env_password}");
}
`;

  f["ops/oracle/nightly_export.sh"] = `#!/bin/bash
set -euo pipefail
export ORACLE_SID=BILLING
expdp system/⟪ora-pw⟫@BILLING schemas=billing directory=DATA_PUMP_DIR dumpfile=billing_%U.dmp
sqlplus -s billing/⟪ora-pw⟫@//db01.acme-billing.local:1521/BILLING @/opt/billing/sql/purge.sql
rman target sys/⟪ora-pw⟫@BILLING cmdfile=/opt/billing/rman/backup.rman
# Traps: wallet, OS authentication and variables.
sqlplus -s /@BILLING_WALLET @/opt/billing/sql/report.sql
sqlplus -s / as sysdba @/opt/billing/sql/stats.sql
sqlplus -s "billing/\${BILLING_DB_PASSWORD}@BILLING" @/opt/billing/sql/report.sql
`;

  f["billing-java/src/main/resources/application-legacy.properties"] =
    `spring.datasource.url=jdbc:oracle:thin:billing/⟪ora-pw⟫@db01.acme-billing.local:1521/BILLING
spring.datasource.hikari.maximum-pool-size=8
legacy.reports.url=jdbc:sqlserver://sql01.acme-billing.local:1433;databaseName=reports;user=reports_ro;password=⟪script-pw⟫;encrypt=true
archive.url=jdbc:oracle:thin:@//db02.acme-billing.local:1521/ARCHIVE
archive.username=archive_ro
archive.password=\${ARCHIVE_PASSWORD}
`;

  f["ops/mirror/sync_statements.sh"] = `#!/bin/sh
# Push the day's statements to the bank's drop box and the file share.
lftp -u statements,⟪script-pw⟫ -e "mirror -R /srv/statements /in; quit" sftp://drop.bank.example
smbclient //files01/statements -U 'ACME/svc_billing%⟪script-pw⟫' -c 'put statements.zip'
mount -t cifs //files01/archive /mnt/archive -o username=svc_billing,password=⟪script-pw⟫,vers=3.0
# Traps
lftp -u statements -e "mirror -R /srv/statements /in; quit" sftp://drop.bank.example
smbclient //files01/statements -A /etc/billing/smb.credentials -c 'ls'
mount -t cifs //files01/archive /mnt/archive -o credentials=/etc/billing/smb.credentials,vers=3.0
`;

  f["deploy/docker-compose.yml"] = `services:
  db:
    image: postgres:16
    environment:
      POSTGRES_USER: billing
      POSTGRES_PASSWORD: \${POSTGRES_PASSWORD:-⟪script-pw⟫}
  cache:
    image: redis:7
    command: redis-server --requirepass "\${REDIS_PASSWORD:-⟪script-pw⟫}"
  api:
    image: registry.acme-billing.io/billing/api:1.42.0
    environment:
      DATABASE_PASSWORD: \${DATABASE_PASSWORD:?set DATABASE_PASSWORD}
      API_TOKEN: \${API_TOKEN}
      SESSION_SECRET: \${SESSION_SECRET:-changeme}
`;

  f["billing-java/src/main/resources/application.yml"] = `spring:
  datasource:
    url: jdbc:postgresql://db.internal:5432/billing
    username: billing
    password: \${DB_PASSWORD:⟪script-pw⟫}
  mail:
    host: smtp.acme-billing.io
    password: \${SMTP_PASSWORD:}
  rabbitmq:
    password: \${RABBIT_PASSWORD}
billing:
  api-key: \${BILLING_API_KEY:⟪generic⟫}
  signing-secret: \${SIGNING_SECRET:\${FALLBACK_SECRET}}
`;

  f["android/app/build.gradle"] = `android {
    namespace "io.acme.billing"
    compileSdk 34

    signingConfigs {
        release {
            storeFile file("billing-release.jks")
            storePassword "⟪script-pw⟫"
            keyAlias "billing"
            keyPassword '⟪script-pw⟫'
        }
        ci {
            storeFile file(System.getenv("KEYSTORE_PATH") ?: "ci.jks")
            storePassword System.getenv("KEYSTORE_PASSWORD")
            keyAlias "ci"
            keyPassword project.findProperty("ciKeyPassword")
        }
    }
}
`;

  f["ops/k8s/create-secrets.sh"] = `#!/usr/bin/env bash
set -euo pipefail
kubectl -n billing create secret generic billing-db \\
  --from-literal=username=billing \\
  --from-literal=password='⟪script-pw⟫'
kubectl -n billing create secret generic billing-api --from-literal=API_TOKEN=⟪generic⟫
kubectl -n billing create secret docker-registry regcred --docker-server=registry.acme-billing.io --docker-username=ci --docker-password=⟪script-pw⟫
helm repo add acme https://charts.acme-billing.io --username ci --password '⟪script-pw⟫'
az login --service-principal -u 6f1c2a9e-0b7d-4c11-9a55-3e2f8d0c4b17 -p ⟪generic⟫ --tenant acme-billing.onmicrosoft.com
oc login https://api.ocp.acme-billing.io:6443 -u deployer -p '⟪script-pw⟫'
# Traps
kubectl -n billing create secret generic billing-db --from-literal=password="$DB_PASSWORD"
kubectl -n billing create secret generic billing-tls --from-file=tls.key=./tls.key
helm repo add acme https://charts.acme-billing.io --username ci --password-stdin < /run/secrets/helm
oc login --token="$(cat /var/run/secrets/kubernetes.io/serviceaccount/token)"
`;

  f["home/ops/.bash_history"] = `cd /srv/billing
mysql -h db01 -u root -p'⟪script-pw⟫' billing < migrations/041.sql
mysql -h db01 -u root -p billing
sshpass -p '⟪script-pw⟫' ssh deploy@batch01.acme-billing.local
sshpass -e ssh deploy@batch01.acme-billing.local
export BILLING_API_TOKEN=⟪generic⟫
export BILLING_API_TOKEN="$(vault kv get -field=token secret/billing)"
redis-cli -h cache01 -a '⟪script-pw⟫' --no-auth-warning info keyspace
PGPASSWORD='⟪script-pw⟫' psql -h db01 -U billing -c 'select 1'
mongosh "mongodb://admin:⟪url-pw⟫@mongo01:27017/admin"
sqlcmd -S sql01 -U sa -P '⟪script-pw⟫' -Q "SELECT @@VERSION"
keytool -importkeystore -srckeystore billing.p12 -srcstoretype PKCS12 -srcstorepass ⟪script-pw⟫ -destkeystore billing.jks -deststorepass ⟪script-pw⟫
openssl pkcs12 -export -in billing.crt -inkey billing.key -out billing.p12 -passout pass:⟪script-pw⟫
openssl pkcs12 -export -in billing.crt -inkey billing.key -out billing.p12 -passout env:P12_PASS
htpasswd -b -B /etc/nginx/.htpasswd grafana ⟪script-pw⟫
mosquitto_pub -h mqtt01 -u meter -P '⟪script-pw⟫' -t billing/meter -m ping
wget --user=statements --password='⟪script-pw⟫' https://drop.bank.example/out/today.csv
docker login registry.acme-billing.io -u ci -p ⟪script-pw⟫
history | grep password
`;

  f["ops/cron/billing.crontab"] = `SHELL=/bin/bash
MAILTO=ops@acme-billing.io⟪@email⟫
# m h dom mon dow command
15 2 * * * PGPASSWORD='⟪script-pw⟫' pg_dump -h db01 -U billing billing | gzip > /backup/billing.sql.gz
30 2 * * * mysqldump --user=reporting --password=⟪script-pw⟫ reports > /backup/reports.sql
45 2 * * * RSYNC_PASSWORD=⟪script-pw⟫ rsync -a /backup/ rsync://backup@nas01/billing/
0 3 * * * . /etc/billing/backup.env && pg_dump -h db01 -U billing billing > /backup/nightly.sql
`;

  f["ops/systemd/billing-worker.service"] = `[Unit]
Description=Billing worker
After=network-online.target

[Service]
User=billing
Environment="BILLING_DB_PASSWORD=⟪script-pw⟫"
Environment=BILLING_QUEUE_URL=amqp://billing:⟪url-pw⟫@mq01.acme-billing.local:5672/billing
Environment="BILLING_LOG_LEVEL=info" "BILLING_API_KEY=⟪generic⟫"
EnvironmentFile=/etc/billing/worker.env
LoadCredential=db-password:/etc/billing/credentials/db-password
ExecStart=/opt/billing/bin/worker --config /etc/billing/worker.toml
`;

  f["notebooks/churn_analysis.ipynb"] = `{
 "cells": [
  {
   "cell_type": "code",
   "execution_count": 1,
   "metadata": {},
   "outputs": [],
   "source": [
    "import os\\n",
    "import snowflake.connector\\n",
    "from openai import OpenAI\\n",
    "\\n",
    "client = OpenAI(api_key=\\"⟪openai⟫\\")\\n",
    "conn = snowflake.connector.connect(user=\\"ANALYST\\", password=\\"⟪script-pw⟫\\", account=\\"acme-billing\\")\\n",
    "hf_token = \\"⟪hf⟫\\"\\n"
   ]
  },
  {
   "cell_type": "code",
   "execution_count": 2,
   "metadata": {},
   "outputs": [],
   "source": [
    "from getpass import getpass\\n",
    "password = getpass(\\"Snowflake password: \\")\\n",
    "api_key = os.environ[\\"OPENAI_API_KEY\\"]\\n"
   ]
  }
 ],
 "metadata": {
  "kernelspec": { "display_name": "Python 3", "language": "python", "name": "python3" }
 },
 "nbformat": 4,
 "nbformat_minor": 5
}
`;

  f["billing-dotnet/NuGet.Config"] = `<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources>
    <add key="nuget.org" value="https://api.nuget.org/v3/index.json" />
    <add key="acme" value="https://pkgs.acme-billing.io/nuget/v3/index.json" />
    <add key="github" value="https://nuget.pkg.github.com/acme-billing/index.json" />
  </packageSources>
  <packageSourceCredentials>
    <acme>
      <add key="Username" value="ci" />
      <add key="ClearTextPassword" value="⟪script-pw⟫" />
    </acme>
    <github>
      <add key="Username" value="acme-ci" />
      <add key="ClearTextPassword" value="⟪gh-pat⟫" />
    </github>
    <legacy>
      <add key="Username" value="ci" />
      <add key="Password" value="⟪dpapi-blob⟫" />
    </legacy>
    <env>
      <add key="Username" value="ci" />
      <add key="ClearTextPassword" value="%NUGET_FEED_PASSWORD%" />
    </env>
  </packageSourceCredentials>
</configuration>
`;

  f["deploy/kubeconfig-billing.yaml"] = `apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM⟪hex64⟫
    server: https://k8s.acme-billing.io:6443
  name: billing
users:
- name: billing-deployer
  user:
    token: ⟪jwt⟫
- name: billing-basic
  user:
    username: admin
    password: ⟪script-pw⟫
- name: billing-exec
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: aws
      args: ["eks", "get-token", "--cluster-name", "billing"]
contexts:
- context:
    cluster: billing
    user: billing-deployer
  name: billing
current-context: billing
`;

  f["deploy/helm/billing/values-prod.yaml"] = `postgresql:
  auth:
    username: billing
    postgresPassword: "⟪script-pw⟫"
    password: "⟪script-pw⟫"
    existingSecret: ""
    secretKeys:
      adminPasswordKey: postgres-password
      userPasswordKey: password
redis:
  auth:
    enabled: true
    password: ⟪script-pw⟫
    existingSecretPasswordKey: redis-password
rabbitmq:
  auth:
    username: billing
    password: "{{ .Values.global.rabbitPassword }}"
    erlangCookie: ⟪generic⟫
vault:
  token: ⟪vault-token⟫
  tokenPath: /var/run/secrets/vault/token
`;

  f["infra/providers.tf"] = `terraform {
  required_providers {
    mysql = { source = "petoju/mysql", version = "~> 3.0" }
    vault = { source = "hashicorp/vault", version = "~> 4.0" }
  }
}

provider "mysql" {
  endpoint = "db01.acme-billing.local:3306"
  username = "terraform"
  password = "⟪script-pw⟫"
}

provider "vault" {
  address = "https://vault.acme-billing.io:8200"
  token   = "⟪vault-token⟫"
}

provider "postgresql" {
  host     = "db02.acme-billing.local"
  username = "terraform"
  password = var.pg_password
}

resource "mysql_user" "reporting" {
  user               = "reporting"
  host               = "%"
  plaintext_password = "⟪script-pw⟫"
}

resource "random_password" "api" {
  length  = 32
  special = false
}
`;

  f["ops/ansible/inventory/billing.ini"] = `[billing_db]
db01.acme-billing.local ansible_user=deploy ansible_ssh_pass=⟪script-pw⟫ ansible_become_pass=⟪script-pw⟫
db02.acme-billing.local ansible_user=deploy ansible_ssh_pass="{{ vault_db02_ssh_pass }}"

[billing_win]
win01.acme-billing.local ansible_user=ACME\\svc_deploy ansible_password='⟪script-pw⟫' ansible_connection=winrm

[billing_db:vars]
ansible_python_interpreter=/usr/bin/python3
ansible_become_password="{{ lookup('env', 'BECOME_PASSWORD') }}"
`;

  f["config/mqtt/bridge.conf"] = `# Bridge from the meters' broker to the billing broker.
connection billing-bridge
address mqtt01.acme-billing.local:8883
remote_username meter-bridge
remote_password ⟪script-pw⟫
topic billing/# out 1
bridge_cafile /etc/mosquitto/ca.crt
`;

  f["config/celery_settings.py"] = `import os

broker_url = "amqp://billing:⟪url-pw⟫@mq01.acme-billing.local:5672/billing"
result_backend = "rediss://:⟪url-pw⟫@cache01.acme-billing.local:6380/0?ssl_cert_reqs=required"
mqtt_url = "mqtts://meter:⟪url-pw⟫@mqtt01.acme-billing.local:8883"
fallback_broker = os.environ.get("BROKER_URL", "amqp://guest:guest@localhost:5672//")
docs_url = "amqp://user:password@host:5672/vhost"
`;

  f["billing-dotnet/src/Billing.Api/appsettings.Development.json"] = `{
  "ConnectionStrings": {
    "Billing": "Server=localhost,1433;Database=Billing;User Id=sa;Password=⟪script-pw⟫;TrustServerCertificate=True",
    "Cache": "cache01.acme-billing.local:6380,password=⟪script-pw⟫,ssl=True,abortConnect=False",
    "Queue": "Endpoint=sb://acme-billing.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=⟪azure-sb-key⟫",
    "Reports": "Server=sql01;Database=Reports;Integrated Security=True"
  },
  "Smtp": {
    "Host": "smtp.acme-billing.io",
    "UserName": "invoices",
    "Password": "⟪script-pw⟫"
  },
  "Ldap": {
    "BindDn": "cn=billing,ou=services,dc=acme,dc=io",
    "BindCredentials": "⟪script-pw⟫"
  },
  "Jwt": {
    "Issuer": "https://auth.acme-billing.io",
    "SigningKey": "⟪generic⟫",
    "PublicKeyPath": "keys/jwt.pub"
  }
}
`;

  f["billing-web/.env.example"] = `# Copy to .env and fill in.
DATABASE_URL=postgres://billing:<password>@localhost:5432/billing
STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx
SMTP_PASSWORD=
SESSION_SECRET=change-me-to-a-long-random-string
API_TOKEN=your-api-token-here
`;

  f["billing-web/.env"] = `DATABASE_URL=postgres://billing:⟪db-pw⟫@db.staging:5432/billing
STRIPE_SECRET_KEY=⟪stripe⟫
SMTP_PASSWORD=⟪script-pw⟫
SESSION_SECRET=⟪generic⟫
API_TOKEN=⟪generic⟫
`;

  return f;
}
