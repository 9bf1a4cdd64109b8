/**
 * The readers added after the probe corpus's sixth batch, each on realistic lines written for this
 * test with traps beside them: services' own formats (IPsec, SNMP, Jetty realm files, Caddy,
 * LDIF, OpenVPN, Envoy), a password told in a sentence, base64 `user:password` under an
 * authorization name, more code languages, a short chosen shared secret, a credential that says
 * its type; and on the precision side: default communities, realm hashes, an export's mask, an
 * object written into a string, and email addresses after a colon.
 */
import { assertEquals } from "../support/assert.ts";
import { scanText } from "../../src/secrets/scanner.ts";
import { rng, Values } from "./corpus_values.ts";

const v = new Values(rng(6606));
const AN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";
const secret = () => v.mixed(AN, 32);
const password = () => `Quartz#${v.mixed(AN, 6)}${v.int(10, 99)}`;

/** The values found in `text` read as the file `path`. */
function found(path: string, text: string, personal = false): string[] {
  return scanText(text, { path, personal }).map((f) => text.slice(f.start, f.end));
}

Deno.test("IPsec secrets: PSK and EAP values, not a key file's name", () => {
  const a = password(), b = password();
  assertEquals(
    found(
      "ipsec.secrets",
      `: RSA moonKey.pem\ngw.example.net %any : PSK "${a}"\ndave : EAP ${b}\n: PSK "%(PSK)s"\n`,
    ),
    [a, b],
  );
});

Deno.test("SNMP: a chosen community and createUser's pass phrases, not public or private", () => {
  const a = `lantern${v.mixed(AN, 8)}`, b = password(), c = password(), d = `ops${v.mixed(AN, 9)}`;
  assertEquals(
    found(
      "snmpd.conf",
      [
        "rocommunity public 127.0.0.1",
        "rwcommunity private localhost",
        `rocommunity ${a} 10.0.0.0/8`,
        `com2sec readonly default ${d}`,
        `createUser monitor SHA "${b}" AES "${c}"`,
        "syslocation Rack 4",
      ].join("\n") + "\n",
    ),
    [a, d, b, c],
  );
});

Deno.test("a realm file's password before its roles; MD5 and CRYPT values are hashes", () => {
  const a = password();
  const text = [
    `admin: MD5:${v.chars(HEX, 32)},user,admin`,
    `ops:${a},user,architect`,
    "guest: CRYPT:adpexzg3FUZAk,user",
  ].join("\n") + "\n";
  assertEquals(found("realm.properties", text), [a]);
  // Elsewhere a comma list after `=` is a setting, not a user.
  assertEquals(found("application.properties", "cors.methods=GET,POST,PUT\nroles=a1b2,c3\n"), []);
});

Deno.test("Caddy's DNS provider token, not its environment placeholder", () => {
  const a = v.mixed(AN + "_-", 40);
  assertEquals(
    found(
      "Caddyfile",
      `a.example.org {\n  tls {\n    dns cloudflare ${a}\n  }\n}\nb.example.org {\n  tls {\n    dns cloudflare {env.CF_API_TOKEN}\n  }\n}\n`,
    ),
    [a],
  );
});

Deno.test("a game server's Steam login token", () => {
  const a = v.chars(HEX, 32).toUpperCase();
  assertEquals(found("server.cfg", `hostname "LAN"\nsv_setsteamaccount ${a}\nsv_password ""\n`), [
    a,
  ]);
});

Deno.test("LDIF's base64 userPassword is decoded: a password is reported, a hash is not", () => {
  const plain = password();
  const a = btoa(plain);
  const hashed = btoa(`{SSHA}${v.mixed(AN, 32)}`);
  assertEquals(
    found(
      "users.ldif",
      `dn: cn=a,dc=x\nuserPassword:: ${a}\n\ndn: cn=b,dc=x\nuserPassword:: ${hashed}\n`,
    ),
    [a],
  );
});

Deno.test("OpenVPN's static key block, and a private key inline in a profile", () => {
  const lines = Array.from({ length: 16 }, () => v.chars(HEX, 32));
  const key = `-----BEGIN OpenVPN Static key V1-----\n${
    lines.join("\n")
  }\n-----END OpenVPN Static key V1-----`;
  assertEquals(found("client.ovpn", `client\n<tls-auth>\n${key}\n</tls-auth>\n`), [key]);
});

Deno.test("Envoy's inline_string under a secret, not under a certificate's file", () => {
  const a = secret();
  const text = [
    "secrets:",
    "  - name: hmac",
    "    generic_secret:",
    "      secret:",
    `        inline_string: "${a}"`,
    "  - name: banner",
    "    validation_context:",
    "      match_subject_alt_names:",
    `        inline_string: "spiffe-trust-domain-example-org-v2"`,
  ].join("\n") + "\n";
  assertEquals(found("envoy.yaml", text), [a]);
});

Deno.test("a password told in a sentence, not a sentence about passwords", () => {
  const a = password(), b = password();
  const text = [
    `{"text": "staging db pw is ${a} until friday"}`,
    `Hi, the new password was \`${b}\`.`,
    "The password is in the vault.",
    "Your password is required to continue.",
    "the pw is hunter2",
    "password is https://vault.internal/ui/ledger",
  ].join("\n") + "\n";
  assertEquals(found("export.json", text), [a, b]);
});

Deno.test("base64 user:password under an authorization name", () => {
  const a = btoa(`deploy:${password()}`);
  assertEquals(
    found(
      "Matchfile",
      `git_url("https://github.com/acme/certs")\ngit_basic_authorization("${a}")\n` +
        `git_basic_authorization(ENV["MATCH_GIT_AUTH"])\n`,
    ),
    [a],
  );
});

Deno.test("declarations in Zig, Elixir, Nim, Crystal, Julia and Gradle's Kotlin DSL", () => {
  const a = secret(), b = password(), c = secret(), d = password(), e = secret(), f = password();
  assertEquals(found("secrets.zig", `pub const api_key: []const u8 = "${a}";\n`), [a]);
  assertEquals(
    found(
      "runtime.exs",
      `config :app, Repo,\n  password: System.get_env("DB_PASSWORD") || "${b}",\n  pool_size: 10\n`,
    ),
    [b],
  );
  assertEquals(found("config.nim", `const apiToken = "${c}"\nlet x = getEnv("HOME")\n`), [c]);
  assertEquals(found("app.cr", `API_SECRET = ENV.fetch("API_SECRET", "${e}")\n`), [e]);
  assertEquals(
    found("build.gradle.kts", `storePassword = "${d}"\nkeyPassword = System.getenv("KP")\n`),
    [d],
  );
  assertEquals(found("db.jl", `const DB_PASSWORD = "${f}"\nsecret = get(ENV, "S", "")\n`), [f]);
});

Deno.test("a short shared secret a person chose; a short plain word is not one", () => {
  const a = password();
  assertEquals(
    found(
      "clients.conf",
      `client a {\n  secret = testing123\n}\nclient b {\n  secret = ${a}\n}\nclient c {\n  secret = office\n}\n`,
    ),
    [a],
  );
});

Deno.test("a credential that says its type; hashes in a string and export masks are not", () => {
  const a = password();
  const text = [
    `{ "type": "password", "value": "${a}", "temporary": false }`,
    `{ "type": "password", "secretData": "{\\"value\\":\\"${v.mixed(AN, 43)}=\\",\\"salt\\":\\"${
      v.mixed(AN, 22)
    }==\\"}" }`,
    `{ "inputs": { "username": "deploy", "password": "$encrypted$" } }`,
  ].join("\n") + "\n";
  assertEquals(found("realm-export.json", text), [a]);
});

Deno.test("emails after mailto: and a vCard's EMAIL; not a URL's user:password@ or an event id", () => {
  const text = [
    "EMAIL;TYPE=work:aiko.tanaka@acme-corp.io",
    "ORGANIZER;CN=Maria Keller:mailto:maria.keller@acme-corp.io",
    "UID:20261204T090000Z-4711@acme-corp.io",
    "url: amqp://svc:sven.berg@acme-corp.io/vhost",
  ].join("\n") + "\n";
  const emails = scanText(text, { path: "a.ics", personal: true })
    .filter((f) => f.kind === "email").map((f) => text.slice(f.start, f.end));
  assertEquals(emails, ["aiko.tanaka@acme-corp.io", "maria.keller@acme-corp.io"]);
});

Deno.test("SNMP tools' community and v3 pass phrases on a command line", () => {
  const a = `ops${v.mixed(AN, 9)}`, b = password(), c = password();
  const text = [
    `snmpwalk -v2c -c ${a} 10.1.2.3 system`,
    "snmpget -v2c -c public localhost sysUpTime.0",
    `snmpwalk -v3 -l authPriv -u monitor -a SHA -A '${b}' -x AES -X "${c}" core-sw1`,
    'snmpwalk -v3 -u monitor -A "$SNMP_AUTH" core-sw1',
  ].join("\n") + "\n";
  assertEquals(found("history.sh", text), [a, b, c]);
});

Deno.test("IPsec: a private key file's passphrase; OpenVPN: an inline auth-user-pass", () => {
  const a = password(), b = password();
  assertEquals(found("ipsec.secrets", `: RSA moon.key "${a}"\n: RSA sun.key\n`), [a]);
  assertEquals(
    found(
      "client.ovpn",
      `remote vpn.example.net 1194\n<auth-user-pass>\nkiosk\n${b}\n</auth-user-pass>\n`,
    ),
    [b],
  );
});
