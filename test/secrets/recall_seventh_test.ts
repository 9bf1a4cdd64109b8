/**
 * The readers added after the probe corpus's seventh batch, each on realistic lines written for
 * this test with traps beside them: variables set by a command, IRC services' IDENTIFY, Expect's
 * answer to a password prompt, basic auth in the clear, Squid's and Asterisk's `user:password`,
 * Sentinel's `auth-pass`, OpenLDAP's root password, a Nagios macro named by its comment, isync's
 * `Pass`, `DENO_AUTH_TOKENS`, a recovery phrase, keys in a provider URL's path, Windows' credential
 * commands, NuGet keys, names that run an owner word into `pass`, Lisp and Visual Basic
 * declarations, Erlang binaries, pretty-printed name/value pairs, and a Secret whose entry is a
 * whole file; on the precision side: editors' `${env:…}` lookups, a value naming a section,
 * DPAPI and OpenPGP ciphertexts, Tomcat digests, GitHub's `x-oauth-basic`, the Hardhat nodes'
 * published keys, and private-use mail domains.
 */
import { assertEquals } from "../support/assert.ts";
import { scanText } from "../../src/secrets/scanner.ts";
import { rng, Values } from "./corpus_values.ts";

const v = new Values(rng(7707));
const AN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";
const secret = () => v.mixed(AN, 32);
const password = () => `Lantern#${v.mixed(AN, 6)}${v.int(10, 99)}`;

/** The values found in `text` read as the file `path`. */
function found(path: string, text: string, personal = false): string[] {
  return scanText(text, { path, personal }).map((f) => text.slice(f.start, f.end));
}

Deno.test("a variable set by a command: fish, csh, Apache and setx; not a command substitution", () => {
  const a = secret(), b = secret(), c = secret(), d = secret();
  const text = [
    `set -gx HCLOUD_TOKEN ${a}`,
    `- cmd: set -Ux OPENROUTER_API_KEY ${b}`,
    "set -x API_KEY (pass show acme/api)",
    `setenv GITLAB_TOKEN ${c}`,
    "setenv EDITOR vim",
    "set -gx SECRET_TOKEN $OTHER_TOKEN",
  ].join("\n") + "\n";
  assertEquals(found("config.fish", text), [a, b, c]);
  assertEquals(found("httpd.conf", `SetEnv PAYMENT_API_KEY "${d}"\nSetEnv APP_ENV prod\n`), [d]);
});

Deno.test("IRC services: IDENTIFY's password, with or without an account name", () => {
  const a = password(), b = password();
  const text = [
    `autosendcmd = "/msg NickServ IDENTIFY ${a}; wait 2000";`,
    `oftc.command = "/msg nickserv identify mkeller ${b}"`,
    'libera.command = "/msg nickserv identify ${sec.data.libera}"',
  ].join("\n") + "\n";
  assertEquals(found("irssi.conf", text), [a, b]);
});

Deno.test("Expect answers a password prompt; a variable sent is not a password", () => {
  const a = password();
  const text = [
    "spawn ssh admin@gateway",
    'expect "password:"',
    `send "${a}\\r"`,
    'expect "$ "',
    'send "uptime\\r"',
    'expect "Password for admin:"',
    'send "$env(SUDO_PASSWORD)\\r"',
  ].join("\n") + "\n";
  assertEquals(found("login.exp", text), [a]);
});

Deno.test("basic auth in the clear in a request file; base64 and variables are other shapes", () => {
  const a = password(), b = password();
  const text = [
    "GET https://api.acme-corp.io/v1/export",
    `Authorization: Basic deploy ${a}`,
    "",
    "GET https://api.acme-corp.io/v1/status",
    `Authorization: Basic deploy:${b}`,
    "",
    "GET https://api.acme-corp.io/v1/me",
    "Authorization: Basic {{user}} {{password}}",
  ].join("\n") + "\n";
  assertEquals(found("requests.http", text), [a, b]);
});

Deno.test("user:password in Squid's login= and Asterisk's register line", () => {
  const a = password(), b = password(), c = `Maple@${v.int(1000, 9999)}`;
  assertEquals(
    found(
      "squid.conf",
      `cache_peer up.example.net parent 3128 0 login=proxy:${a}\ncache_peer up2.example.net parent 3128 0 login=PASSTHRU\n`,
    ),
    [a],
  );
  assertEquals(
    found(
      "sip.conf",
      `register => 4420001:${b}@sip.carrier.net/4420001\nregister => 4420002:${c}@sip.carrier.net\nregister => 4420003@sip.carrier.net\n`,
    ),
    [b, c],
  );
});

Deno.test("Sentinel's auth-pass and OpenLDAP's rootpw; auth-user and hashes are not passwords", () => {
  const a = password(), b = password(), c = password();
  assertEquals(
    found(
      "sentinel.conf",
      `sentinel auth-user main sentinel\nsentinel auth-pass main ${a}\n`,
    ),
    [a],
  );
  assertEquals(
    found(
      "slapd.conf",
      `rootdn "cn=admin,dc=x"\nrootpw ${b}\nrootpw {SSHA}${v.mixed(AN, 32)}\n`,
    ),
    [b],
  );
  assertEquals(found("config.ldif", `dn: olcDatabase={1}mdb,cn=config\nolcRootPW: ${c}\n`), [c]);
});

Deno.test("a Nagios macro is a password when the comment above says so", () => {
  const a = password(), b = password();
  const text = [
    "# Path to the plugins",
    "$USER1$=/usr/lib/nagios/plugins",
    "# MySQL monitoring password",
    `$USER3$=${a}`,
    "# the monitoring user",
    "$USER5$=nagios_ro",
    `$USER6$=${b}`,
  ].join("\n") + "\n";
  assertEquals(found("resource.cfg", text), [a]);
});

Deno.test("isync's Pass under a User; PassCmd and a lone Pass line are not read", () => {
  const a = password();
  const text = [
    "IMAPAccount work",
    "Host imap.example.net",
    "User maria",
    `Pass ${a}`,
    "",
    "IMAPAccount gmail",
    "User maria",
    'PassCmd "pass show mail/gmail"',
  ].join("\n") + "\n";
  assertEquals(found(".mbsyncrc", text), [a]);
  assertEquals(found("notes.txt", `Results\nPass ${password()}\n`), []);
});

Deno.test("DENO_AUTH_TOKENS: a bearer token or a user's password before the host", () => {
  const a = secret(), b = password();
  assertEquals(found(".envrc", `export DENO_AUTH_TOKENS=${a}@deno.acme-corp.io\n`), [a]);
  assertEquals(found(".env", `DENO_AUTH_TOKENS=deploy:${b}@private.acme-corp.io\n`), [b]);
});

Deno.test("a wallet's recovery phrase; the local nodes' published phrase and key are examples", () => {
  const words = ["bridge", "canyon", "dolphin", "fabric", "gather", "harvest", "island", "marble"];
  const phrase = Array.from({ length: 12 }, () => v.pick(words)).join(" ");
  const text = [
    `MNEMONIC="${phrase}"`,
    'HARDHAT_MNEMONIC="test test test test test test test test test test test junk"',
    "HARDHAT_LOCAL_KEY=0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  ].join("\n") + "\n";
  assertEquals(found(".env", text), [phrase]);
});

Deno.test("keys in a provider URL's path: Anaconda channels, Infura and Alchemy endpoints", () => {
  const a = `ac-${v.chars(HEX, 8)}-${v.chars(HEX, 4)}-${v.chars(HEX, 4)}-${v.chars(HEX, 4)}-${
    v.chars(HEX, 12)
  }`;
  const b = v.chars(HEX, 32), c = v.mixed(AN + "_-", 32);
  const text = [
    `  - https://conda.anaconda.org/t/${a}/acme`,
    "  - https://conda.anaconda.org/t/<TOKEN>/acme",
    `RPC_URL=https://mainnet.infura.io/v3/${b}`,
    `ALCHEMY_URL=https://eth-mainnet.g.alchemy.com/v2/${c}`,
  ].join("\n") + "\n";
  assertEquals(found("settings.txt", text), [a, b, c]);
});

Deno.test("Windows' credential commands: cmdkey, schtasks and net user", () => {
  const a = password(), b = password(), c = password();
  const text = [
    `cmdkey /add:files01 /user:ACME\\svc /pass:${a}`,
    `schtasks /Create /TN nightly /TR C:\\n.cmd /SC DAILY /RU ACME\\svc /RP ${b}`,
    "schtasks /Create /TN cleanup /TR C:\\c.cmd /SC DAILY /RU SYSTEM",
    `net user backup ${c} /add`,
    "net user backup /delete",
  ].join("\n") + "\n";
  assertEquals(found("install.cmd", text), [a, b, c]);
});

Deno.test("NuGet.org API keys, and a DPAPI-encrypted NuGet password is not one", () => {
  const a = "oy2" + v.chars("abcdefghijklmnopqrstuvwxyz0123456789", 43);
  const text = [
    `<add key="https://www.nuget.org/api/v2/package" value="${a}" />`,
    `<add key="Password" value="AQAAANCMnd8BFdERjHoAwE/Cl+sBAAAA${v.mixed(AN + "+/", 200)}==" />`,
  ].join("\n") + "\n";
  assertEquals(found("NuGet.Config", text), [a]);
});

Deno.test("an owner word run into pass: dbpass, smtppass, controlpass, remotepass, authtok", () => {
  const a = password(), b = password(), c = password(), d = password(), e = password();
  assertEquals(
    found(
      "config.php",
      `<?php\n$CFG->dbpass = '${a}';\n$cfg['Servers'][$i]['controlpass'] = '${b}';\n`,
    ),
    [a, b],
  );
  assertEquals(found("configuration.php", `\tpublic $smtppass = '${c}';\n`), [c]);
  assertEquals(
    found(".offlineimaprc", `remotepass = ${d}\nremotepasseval = get_pass("x")\nbypass = 1\n`),
    [d],
  );
  assertEquals(
    found("sssd.conf", `ldap_default_authtok_type = password\nldap_default_authtok = ${e}\n`),
    [e],
  );
});

Deno.test("a Lisp list of a name and its string; a call with more arguments is not one", () => {
  const a = password();
  const text = [
    "(setq sql-connection-alist",
    `      '((prod (sql-user "ledger") (sql-password "${a}"))))`,
    '(read-passwd "Password: " t)',
  ].join("\n") + "\n";
  assertEquals(found("init.el", text), [a]);
});

Deno.test("Visual Basic declarations with a type; a call is not a literal", () => {
  const a = password(), b = secret();
  const text = [
    `Private Const DB_PASS As String = "${a}"`,
    `Dim apiToken As String = "${b}"`,
    'Dim password As String = GetSetting("Ledger", "Db", "Password")',
  ].join("\n") + "\n";
  assertEquals(found("Module1.bas", text), [a, b]);
});

Deno.test("an Erlang binary after a secret name; a name/value pair laid out over two lines", () => {
  const a = v.chars(HEX, 32), b = secret();
  assertEquals(
    found("hex.config", `{'$repos', #{<<"hexpm:acme">> => #{auth_key => <<"${a}">>}}}.\n`),
    [a],
  );
  const json =
    `{\n  "headers": [\n    {\n      "name": "X-Api-Token",\n      "value": "${b}"\n    },\n` +
    `    {\n      "name": "Accept",\n      "value": "application/json"\n    }\n  ]\n}\n`;
  assertEquals(found("session.json", json), [b]);
});

Deno.test("a Secret's entry that is a whole file: a registry's auths, an env file", () => {
  const auth = btoa(`bot:${password()}`);
  const docker = btoa(JSON.stringify({ auths: { "ghcr.io": { auth } } }));
  const env = btoa(`LOG_LEVEL=info\nAPI_TOKEN=${secret()}\n`);
  const plain = btoa(JSON.stringify({ auths: { "ghcr.io": {} }, credsStore: "desktop" }));
  const text = [
    "apiVersion: v1",
    "kind: Secret",
    "type: kubernetes.io/dockerconfigjson",
    "data:",
    `  .dockerconfigjson: ${docker}`,
    `  app.env: ${env}`,
    `  other.json: ${plain}`,
  ].join("\n") + "\n";
  assertEquals(found("secret.yaml", text), [docker, env]);
});

Deno.test("not defaults: an editor's ${env:NAME}; a value naming a section of the file", () => {
  const a = password();
  assertEquals(
    found(
      "launch.json",
      `{ "env": { "GITHUB_TOKEN": "\${env:GITHUB_TOKEN}", "DB_PASSWORD": "\${DB_PASSWORD:${a}}" } }\n`,
    ),
    [a],
  );
  assertEquals(
    found("pjsip.conf", `[6001]\ntype=endpoint\nauth=6001-auth\n\n[6001-auth]\ntype=auth\n`),
    [],
  );
});

Deno.test("stored encrypted or hashed: an OpenPGP message, a Tomcat digest; x-oauth-basic", () => {
  const pgp = "wcFMAw" + v.mixed(AN + "+/", 400) + "=";
  const digest = `${v.chars(HEX, 32)}$10000$${v.chars(HEX, 64)}`;
  const pat = "ghp_" + v.mixed(AN, 36);
  assertEquals(found("config.js", `encrypted: {\n  password: "${pgp}",\n},\n`), []);
  assertEquals(
    found("tomcat-users.xml", `<user username="m" password="${digest}" roles="x"/>\n`),
    [],
  );
  assertEquals(
    found("package.json", `"dep": "git+https://${pat}:x-oauth-basic@github.com/acme/dep.git"\n`),
    [pat],
  );
});

Deno.test("private-use mail domains are hosts; ssh's user@address keeps the address", () => {
  const text = [
    "sshpass -p x ssh root@db-backup.internal",
    "ssh admin@10.20.4.9 uptime",
    "npm i left-pad@1.3.0.1",
    "mail maria.keller@acme-corp.io",
  ].join("\n") + "\n";
  const personal = scanText(text, { path: "history", personal: true })
    .filter((f) => f.kind === "email" || f.kind === "ip-address")
    .map((f) => text.slice(f.start, f.end));
  assertEquals(personal, ["10.20.4.9", "maria.keller@acme-corp.io"]);
});

Deno.test("Terraform's TF_VAR_ prefix says how a password is passed, not what it is", () => {
  const a = password();
  assertEquals(
    found("env.sh", `export TF_VAR_db_password=${a}\nexport DB_PASSWORD_ENV=DB_PASS\n`),
    [a],
  );
});

Deno.test("a .netrc line written by a command into the file", () => {
  const a = secret();
  assertEquals(
    found(
      "Dockerfile",
      `FROM alpine\nRUN echo "machine github.com login bot password ${a}" > /root/.netrc\n`,
    ),
    [a],
  );
});

Deno.test("tools' password options: archivers, ssh-keygen, openssl -k, RDP, Wi-Fi, HTTPie", () => {
  const values = Array.from({ length: 10 }, () => password());
  const [a, b, c, d, e, f, g, h, i, j] = values;
  const text = [
    `7z a -p${a} backup.7z srv/`,
    `zip -P ${b} out.zip report.pdf`,
    `ssh-keygen -t ed25519 -N '${c}' -f deploy_key`,
    `openssl enc -aes-256-cbc -k ${d} -in a.tar -out a.enc`,
    `xfreerdp /u:admin /p:${e} /v:host01`,
    `rdesktop -u admin -p ${f} host02`,
    `nmcli dev wifi connect Office password ${g}`,
    `wpa_passphrase "Office 5G" ${h}`,
    `http -a deploy:${i} https://api.acme-corp.io/v1/me`,
    `unrar x -p${j} archive.rar`,
    "7z x -p backup.7z",
    "ssh-keygen -t ed25519 -N '' -f ci_key",
  ].join("\n") + "\n";
  assertEquals(found("history.sh", text), values);
});

Deno.test("ftp's user command in a here-document; basic-auth helpers given two literals", () => {
  const a = password(), b = password(), c = password();
  assertEquals(
    found(
      "upload.sh",
      `ftp -n files.acme-corp.io <<EOF\nuser deploy ${a}\nput build.zip\nbye\nEOF\n`,
    ),
    [a],
  );
  assertEquals(found("client.rb", `req.basic_auth "deploy", "${b}"\n`), [b]);
  assertEquals(
    found("client.py", `auth = HTTPBasicAuth("deploy", "${c}")\nauth2 = HTTPBasicAuth(user, pw)\n`),
    [c],
  );
});

Deno.test("rclone config create's pairs, judged by their keys", () => {
  const a = secret(), b = password();
  assertEquals(
    found(
      "setup.sh",
      `rclone config create b2 s3 provider Other access_key_id AKID secret_access_key ${a}\n` +
        `rclone config create box sftp host files.acme-corp.io user deploy pass ${b}\n`,
    ),
    [a, b],
  );
});

Deno.test("a Markdown table whose header names a secret column", () => {
  const a = password(), b = secret();
  const text = [
    "| service | user | password | notes |",
    "| --- | --- | --- | --- |",
    `| grafana | admin | \`${a}\` | rotate in May |`,
    "| kibana | elastic | see vault | |",
    "",
    "|name|api_token|",
    "|:--|:--|",
    `|ci|${b}|`,
  ].join("\n") + "\n";
  assertEquals(found("runbook.md", text), [a, b]);
});

Deno.test("values given to commands that store secrets, and cloud CLIs' secret options", () => {
  const a = secret(), b = password(), c = password(), d = secret();
  const text = [
    `echo -n "${a}" | npx wrangler secret put API_KEY`,
    `aws secretsmanager create-secret --name db --secret-string '${b}'`,
    `aws ssm put-parameter --name /app/log_level --value debug12345 --type String`,
    `az keyvault secret set --vault-name kv --name db --value "${c}"`,
    `gh secret set DEPLOY_TOKEN --body ${d}`,
    'printf "%s" "$TOKEN" | gh secret set DEPLOY_TOKEN',
  ].join("\n") + "\n";
  assertEquals(found("setup.sh", text), [a, b, c, d]);
});

Deno.test("a phone number in national form under a CSV column named for one", () => {
  const text = [
    "id,name,mobile,order_total,tel_office",
    '1,Maria Keller,0151 29384756,1200.50,"030 84729163"',
    "2,Jonas Berg,07700 918273,99.00,",
    "3,Aiko Tanaka,1234567890123456,10.00,000 00000000",
  ].join("\n") + "\n";
  const phones = scanText(text, { path: "customers.csv", personal: true })
    .filter((f) => f.kind === "phone").map((f) => text.slice(f.start, f.end));
  assertEquals(phones, ["0151 29384756", "030 84729163", "07700 918273"]);
  // Outside a table, the same digits need a word such as "Tel." before them.
  assertEquals(
    scanText("order 0151 29384756\n", { path: "notes.txt", personal: true }).length,
    0,
  );
});
