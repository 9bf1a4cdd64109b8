/**
 * The readers added after the probe corpus's ninth batch, each on lines written for this test with
 * traps beside them: tuple and destructuring assignments, SQL that sets a password (SQL Server's
 * `N'…'` and procedures, MySQL's `SET PASSWORD`, Oracle's unquoted `IDENTIFIED BY`), Oracle's
 * `user/password@db` logins, JavaMail's and JNDI's calls, PowerShell's secure strings and
 * `-Password "…"`, a tool option's `${VAR:-default}`, MQTT and IPMI clients' `-P`; on the precision
 * side: MySQL's `-p` before a database name, stored hashes, DPAPI blobs in hex, a credential's id
 * and file.
 */
import { assertEquals } from "../support/assert.ts";
import { scanText } from "../../src/secrets/scanner.ts";
import { rng, Values } from "./corpus_values.ts";

const v = new Values(rng(9909));
const AN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const secret = () => v.mixed(AN, 32);
const password = () => `Lantern+${v.mixed(AN, 5)}${v.int(10, 99)}`;
/** A password Oracle takes unquoted: a letter, then letters, digits and `_`. */
const oracle = () => `Tundra${v.int(100, 999)}_${v.mixed(AN, 4)}`;

/** The values found in `text` read as the file `path`. */
function found(path: string, text: string): string[] {
  return scanText(text, { path, personal: false }).map((f) => text.slice(f.start, f.end));
}

Deno.test("tuple and destructuring assignments: the literal at the name's place, in any order", () => {
  const a = password(), b = secret(), c = password(), d = password(), e = password();
  const f = password(), g = password();
  const py = [
    `password, login = "${a}", "reports"`,
    `region, api_secret = ("eu-central-1", "${b}")`,
    "user, password = os.environ['U'], os.environ['P']",
    "user, password = pair.split(':', 1)",
    'caption, password_field = "Sign in", "password"',
  ].join("\n") + "\n";
  assertEquals(found("jobs.py", py), [a, b]);
  assertEquals(
    found(
      "seed.mjs",
      `const [login, passwd] = ["reports", "${c}"];\nconst [u, p] = [argv.u, argv.p];\n`,
    ),
    [c],
  );
  assertEquals(
    found(
      "seed.go",
      `\tlogin, password := "reports", "${d}"\n\tu, password2 := os.Getenv("U"), os.Getenv("P")\n`,
    ),
    [d],
  );
  assertEquals(
    found("seed2.pl", `my ($user, $pass) = ("reports", "${e}");\nmy ($user2, $pass2) = @ARGV;\n`),
    [e],
  );
  assertEquals(found("seed.rs", `let (user, password) = ("reports", "${f}");\n`), [f]);
  assertEquals(found("Seed.cs", `var (user, password) = ("reports", "${g}");\n`), [g]);
  // A keyword argument after a positional one is not a list of names.
  assertEquals(found("call.py", "connect(host, password=cfg.password)\n"), []);
});

Deno.test("SQL: N'…', SET PASSWORD, Oracle's unquoted IDENTIFIED BY; hashes and variables are not passwords", () => {
  const a = password(), b = password(), c = password(), d = oracle(), e = oracle();
  const mssql = [
    `ALTER LOGIN reports WITH PASSWORD = N'${a}' OLD_PASSWORD = N'${b}';`,
    `CREATE LOGIN hashed WITH PASSWORD = 0x0200${v.hex(136)} HASHED;`,
    "CREATE LOGIN tmpl WITH PASSWORD = '$(REPORTS_PASSWORD)';",
  ].join("\n") + "\n";
  assertEquals(found("logins.sql", mssql), [a, b]);
  const mysql = [
    `SET PASSWORD FOR 'reports'@'%' = PASSWORD('${c}');`,
    `GRANT USAGE ON *.* TO 'legacy'@'%' IDENTIFIED BY PASSWORD '*${v.hex(40).toUpperCase()}';`,
    "SET PASSWORD FOR 'reports'@'%' = PASSWORD(@pw);",
  ].join("\n") + "\n";
  assertEquals(found("mysql.sql", mysql), [c]);
  const ora = [
    `CREATE USER reports IDENTIFIED BY ${d} QUOTA 10M ON users;`,
    `CREATE PUBLIC DATABASE LINK hr_link CONNECT TO hr_reader IDENTIFIED BY ${e} USING 'HR';`,
    "CREATE USER ops_ext IDENTIFIED EXTERNALLY;",
    `ALTER USER copy IDENTIFIED BY VALUES 'S:${v.hex(60).toUpperCase()}';`,
    "ALTER USER scripted IDENTIFIED BY &pw;",
  ].join("\n") + "\n";
  assertEquals(found("users.sql", ora), [d, e]);
});

Deno.test("SQL Server's procedures take a password by place or by name", () => {
  const a = password(), b = password(), c = password();
  const text = [
    `EXEC sp_addlinkedsrvlogin 'HR', 'false', NULL, 'hr_reader', '${a}';`,
    `EXEC sp_addlinkedsrvlogin @rmtsrvname = N'FIN', @useself = N'False', @rmtuser = N'fin', @rmtpassword = N'${b}';`,
    `EXEC sp_addlogin 'reports', '${c}', 'Reports';`,
    "EXEC sp_addlinkedsrvlogin @rmtsrvname = N'OPS', @useself = N'True';",
  ].join("\n") + "\n";
  assertEquals(found("links.sql", text), [a, b, c]);
});

Deno.test("Oracle's user/password@db logins; a wallet, OS authentication and a variable are not", () => {
  const a = oracle(), b = oracle(), c = oracle(), d = oracle();
  const text = [
    `sqlplus -L reports/${a}@//db02:1521/HR @weekly.sql`,
    `impdp system/${b}@HR directory=DP dumpfile=hr.dmp`,
    `sqlldr userid=loader/${c} control=load.ctl`,
    "sqlplus -s /@HR_WALLET @weekly.sql",
    "sqlplus / as sysdba",
    'sqlplus -s "reports/${REPORTS_PW}@HR"',
  ].join("\n") + "\n";
  assertEquals(found("weekly.sh", text), [a, b, c]);
  assertEquals(found("weekly.sql", `CONNECT reports/${d}@HR\nCONNECT / AS SYSDBA\n`), [d]);
});

Deno.test("JavaMail's and JNDI's credentials; values from elsewhere are not", () => {
  const a = password(), b = password(), c = password();
  const text = [
    `Transport.send(message, "alerts@acme.io", "${a}");`,
    "Transport.send(message, cfg.user(), cfg.password());",
    `imapStore.connect("imap.acme.io", 993, "alerts", "${b}");`,
    `ctx.put(Context.SECURITY_CREDENTIALS, "${c}");`,
    'ctx.put(Context.SECURITY_CREDENTIALS, vault.read("ldap"));',
    'ctx.put(Context.SECURITY_AUTHENTICATION, "simple");',
  ].join("\n") + "\n";
  assertEquals(found("Alerts.java", text), [a, b, c]);
});

Deno.test("PowerShell: a secure string's literal in any order, -Password; encrypted and read ones are not", () => {
  const a = password(), b = password(), c = password(), d = password();
  const text = [
    `$s = ConvertTo-SecureString -Force -AsPlainText -String "${a}"`,
    `$t = '${b}' | ConvertTo-SecureString -AsPlainText -Force`,
    `$u = [System.Net.NetworkCredential]::new("reports", "${c}")`,
    `Invoke-Sqlcmd -ServerInstance db02 -Username reports -Password '${d}' -Query "SELECT 1"`,
    `$e = ConvertTo-SecureString "01000000d08c9ddf0115d1118c7a00c04fc297eb01000000${v.hex(120)}"`,
    "$f = ConvertTo-SecureString $env:REPORTS_PW -AsPlainText -Force",
    "Invoke-Sqlcmd -ServerInstance db02 -Username reports -Password $pw",
  ].join("\n") + "\n";
  assertEquals(found("Report.ps1", text), [a, b, c, d]);
});

Deno.test("a tool's options: a variable's default, MQTT and IPMI clients; MySQL's -p then a name prompts", () => {
  const a = password(), b = password(), c = password(), d = password();
  const text = [
    `command: redis-server --requirepass "\${CACHE_PW:-${a}}" --appendonly yes`,
    `mosquitto_sub -h broker -u meter --pw '${b}' -t 'meters/#'`,
    `ipmitool -I lanplus -H 10.9.0.4 -U admin -P ${c} power status`,
    `mysql -u reports -p'${d}' hr`,
    "mysql -u reports -p hr_archive",
    'command: redis-server --requirepass "${CACHE_PW:?set it}"',
  ].join("\n") + "\n";
  assertEquals(found("ops.yml", text), [a, b, c, d]);
});

Deno.test("names and values of other shapes: a dotted password, Erlang's cookie; a credential's file is not one", () => {
  const a = `Ab3${v.mixed(AN, 4)}.${v.mixed(AN, 3)}Z9q`,
    b = v.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 20);
  const text = [
    `RSYNC_PASSWORD=${a}`,
    `RABBITMQ_ERLANG_COOKIE=${b}`,
    "LoadCredential=reports-password:/etc/reports/credentials/password",
    "DB_PASSWORD=config.db.password",
  ].join("\n") + "\n";
  assertEquals(found("reports.env", text), [a, b]);
});
