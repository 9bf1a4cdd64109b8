/**
 * The readers added after the probe corpus's eighth batch (credentials in program code), each on
 * lines written for this test with traps beside them: positional arguments of more clients'
 * constructors and login calls and the wrappers languages put around a literal, `user:password`
 * handed to a base64 encoder or to a pair option, libcurl's password options, keys written as
 * bytes, URLs joined from literals or left to a format's arguments, a name quoted inside a string,
 * Elixir's module attributes, Scala's `->` pairs, Go's `[]byte("…")`; on the precision side:
 * PostgreSQL's stored digests, values that are names, tables of bytes, fake passwords in tests.
 */
import { assertEquals } from "../support/assert.ts";
import { scanText } from "../../src/secrets/scanner.ts";
import { rng, Values } from "./corpus_values.ts";

const v = new Values(rng(8808));
const AN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const secret = () => v.mixed(AN, 32);
const password = () => `Copper%${v.mixed(AN, 5)}${v.int(10, 99)}`;
const bytes = (n: number) => Array.from({ length: n }, () => "0x" + v.hex(2)).join(", ");

/** The values found in `text` read as the file `path`. */
function found(path: string, text: string): string[] {
  return scanText(text, { path, personal: false }).map((f) => text.slice(f.start, f.end));
}

Deno.test("positional passwords of more clients; a variable or a call in the slot is not one", () => {
  const a = password(), b = password(), c = password(), d = password(), e = password();
  const f = password(), g = password(), h = password();
  const c_ = [
    `if (!mysql_real_connect(h, "10.1.2.3", "billing", "${a}", "billing", 0, NULL, 0)) return 1;`,
    "mysql_real_connect(h, host, user, pass, db, 0, NULL, 0);",
  ].join("\n") + "\n";
  assertEquals(found("conn.c", c_), [a]);
  const groovy = [
    `def db = groovy.sql.Sql.newInstance(jdbcUrl, "billing", "${b}", driver)`,
    "def db2 = Sql.newInstance(jdbcUrl, cfg.user, cfg.password, driver)",
  ].join("\n") + "\n";
  assertEquals(found("Migrate.groovy", groovy), [b]);
  const java = [
    `var cred = MongoCredential.createScramSha256Credential("billing", "admin", "${c}".toCharArray());`,
    'var env = MongoCredential.createCredential("billing", "admin", System.getenv("MONGO_PW").toCharArray());',
  ].join("\n") + "\n";
  assertEquals(found("Mongo.java", java), [c]);
  assertEquals(
    found(
      "Routes.scala",
      `val creds = BasicHttpCredentials("billing", "${d}")\nval other = BasicHttpCredentials(user, pass)\n`,
    ),
    [d],
  );
  assertEquals(
    found(
      "mail.rs",
      `let creds = Credentials::new("billing".to_owned(), "${e}".to_owned());\nlet env = Credentials::new(user, pass);\n`,
    ),
    [e],
  );
  assertEquals(
    found(
      "fetch.R",
      `r <- POST(url, body = x, authenticate("billing", "${f}", type = "basic"))\nr2 <- GET(url, authenticate(user, Sys.getenv("PW")))\n`,
    ),
    [f],
  );
  assertEquals(
    found(
      "fetch.pl",
      `$ua->credentials('billing.acme.io:443', 'Billing', 'bot', "${g}");\n$ua->credentials($netloc, $realm, $user, $pass);\n`,
    ),
    [g],
  );
  const ruby = [
    `Net::SMTP.start("mx.acme.io", 25, "acme.io", "bot", "${h}", :plain) { |s| s.finish }`,
    'Net::SMTP.start("mx.acme.io", 25, "acme.io", ENV["SMTP_USER"], ENV["SMTP_PASS"], :plain)',
  ].join("\n") + "\n";
  assertEquals(found("notify.rb", ruby), [h]);
});

Deno.test("any receiver's login: a chosen password is found, a test's fake one is not", () => {
  const a = password();
  const text = [
    `session.login("ops@acme.io", "${a}")`,
    'session.login("alice", "wrong-password")',
    'session.login("alice", "secret")',
    "session.login(user, pw)",
  ].join("\n") + "\n";
  assertEquals(found("smoke_test.py", text), [a]);
});

Deno.test("user:password given to a base64 encoder or a pair option; built from variables it is not", () => {
  const a = password(), b = password(), c = password(), d = password(), e = password();
  const text = [
    `const auth = "Basic " + btoa("billing:${a}");`,
    "const fromVars = btoa(`${user}:${pass}`);",
    "const decoded = Buffer.from(`${decodeURIComponent(u)}:${decodeURIComponent(p)}`);",
  ].join("\n") + "\n";
  assertEquals(found("auth.js", text), [a]);
  const go = [
    `token := base64.StdEncoding.EncodeToString([]byte("billing:${b}"))`,
    'other := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))',
  ].join("\n") + "\n";
  assertEquals(found("auth.go", go), [b]);
  assertEquals(
    found("auth.cs", `var h = Convert.ToBase64String(Encoding.ASCII.GetBytes("billing:${c}"));\n`),
    [c],
  );
  assertEquals(
    found(
      "upload.php",
      `curl_setopt($ch, CURLOPT_USERPWD, "billing:${d}");\ncurl_setopt($ch, CURLOPT_USERPWD, "$user:$pass");\n`,
    ),
    [d],
  );
  assertEquals(
    found(
      "client.ex",
      `Tesla.client([{Tesla.Middleware.BasicAuth, []}], auth: {:basic, "billing:${e}"})\nReq.get!(url, auth: {:basic, "#{user}:#{pass}"})\n`,
    ),
    [e],
  );
});

Deno.test("libcurl's password options take a literal; a variable is not one", () => {
  const a = password(), b = password();
  const text = [
    `curl_easy_setopt(h, CURLOPT_PROXYPASSWORD, "${a}");`,
    `curl_easy_setopt(h, CURLOPT_KEYPASSWD, "${b}");`,
    "curl_easy_setopt(h, CURLOPT_PASSWORD, cfg->password);",
  ].join("\n") + "\n";
  assertEquals(found("net.c", text), [a, b]);
});

Deno.test("a key written as bytes under a key's name; a table, a public key and a pattern are not", () => {
  const key = bytes(32);
  const wrapped = bytes(16);
  const text = [
    `static const unsigned char hmac_secret[32] = { ${key} };`,
    `static const uint8_t lookup_table[16] = { ${bytes(16)} };`,
    `static const uint8_t ed25519_public_key[32] = { ${bytes(32)} };`,
    `static const uint8_t padding_key[16] = { ${
      Array.from({ length: 16 }, () => "0x00").join(", ")
    } };`,
  ].join("\n") + "\n";
  assertEquals(found("keys.c", text), [key]);
  const java = `private static final byte[] SIGNING_KEY = new byte[] {\n    ${
    wrapped.split(", ").map((b) => `(byte) ${b}`).join(", ")
  }\n};\n`;
  assertEquals(found("Keys.java", java).length, 1);
});

Deno.test("a URL joined from literals, or left to a format's arguments", () => {
  const a = v.mixed(AN, 18), b = v.mixed(AN, 18), c = v.mixed(AN, 18), d = v.mixed(AN, 18);
  assertEquals(
    found("sync.php", `$url = 'sftp://mirror:' . '${a}' . '@files.acme.io/in';\n`),
    [a],
  );
  assertEquals(
    found("sync.lua", `local url = "amqp://relay:" .. "${b}" .. "@mq.acme.io"\n`),
    [b],
  );
  const go = [
    `dsn := fmt.Sprintf("postgres://%s:%s@%s/billing", "billing", "${c}", host)`,
    'env := fmt.Sprintf("postgres://%s:%s@%s/billing", user, os.Getenv("PGPASSWORD"), host)',
  ].join("\n") + "\n";
  assertEquals(found("dsn.go", go), [c]);
  assertEquals(
    found("dsn.py", `url = "redis://{}:{}@cache:6379/0".format("default", "${d}")\n`),
    [d],
  );
  // A joined URL whose password part is a variable is not a literal.
  assertEquals(found("sync2.php", "$url = 'sftp://mirror:' . $pw . '@files.acme.io';\n"), []);
});

Deno.test("a URL with its user left to a template and its password written in", () => {
  const a = v.mixed(AN, 20);
  const text = [
    `engine = create_engine(f"mysql+pymysql://{user}:${a}@db.acme.io/billing")`,
    'other = create_engine(f"mysql+pymysql://{user}:{password}@db.acme.io/billing")',
  ].join("\n") + "\n";
  assertEquals(found("db.py", text), [a]);
});

Deno.test("names quoted inside strings, module attributes, Scala pairs and Go bytes", () => {
  const a = secret(), b = secret(), c = password(), d = secret(), e = password();
  assertEquals(
    found(
      "Generated.cs",
      `const string Json = "{\\"apiKey\\":\\"${a}\\",\\"region\\":\\"eu\\"}";\nconst string Empty = "{\\"apiKey\\":\\"\\"}";\n`,
    ),
    [a],
  );
  assertEquals(
    found(
      "webhook.ex",
      `  @signing_secret "${b}"\n  @secret_env System.get_env("SIGNING_SECRET")\n`,
    ),
    [b],
  );
  assertEquals(
    found(
      "Conf.scala",
      `val conf = Map("db.user" -> "billing", "db.password" -> "${c}", "db.password.env" -> sys.env("PW"))\n`,
    ),
    [c],
  );
  assertEquals(
    found("sign.go", `var signingSecret = []byte("${d}")\nvar fromEnv = []byte(os.Getenv("S"))\n`),
    [d],
  );
  assertEquals(
    found(
      "Config.h",
      `#define BILLING_PASSWORD @"${e}"\n#define PASSWORD_KEY @"billing.password"\n`,
    ),
    [e],
  );
});

Deno.test("stored digests and values that are names are not passwords", () => {
  const sql = [
    `ALTER ROLE billing PASSWORD 'md5${v.hex(32)}';`,
    `ALTER ROLE audit PASSWORD 'SCRAM-SHA-256$4096:${v.mixed(AN, 22)}==$${v.mixed(AN, 43)}=:${
      v.mixed(AN, 43)
    }=';`,
  ].join("\n") + "\n";
  assertEquals(found("roles.sql", sql), []);
  const code = [
    'private const val KEY_PASSWORD = "key_password"',
    "environment { credentialsVariable = 'BILLING_API_TOKEN' }",
  ].join("\n") + "\n";
  assertEquals(found("Prefs.kt", code), []);
});

Deno.test("a key given after its endpoint; a file's checksum or a repository's commit is not one", () => {
  const a = secret(), b = v.mixed(AN + "-_", 44);
  const text = [
    `client := billing.NewClient("https://api.billing.acme.io/v2", "${a}")`,
    `  EU('https://eu.billing.acme.io', '${b}', 30),`,
    `fetch("https://dl.acme.io/tools/cli-1.4.2.tar.gz", "${v.hex(64)}")`,
    `pin("https://git.acme.io/platform/cli.git", "${v.hex(40)}")`,
    'NewClient("http://localhost:8080", "dev-key")',
  ].join("\n") + "\n";
  assertEquals(found("clients.go", text), [a, b]);
});

Deno.test("a typed tuple given a literal one: the element at the password's place", () => {
  const a = password();
  const text = [
    `private static readonly (string Host, string User, string Password) Billing = ("db01", "billing", "${a}");`,
    "var (string User, string Password) fromConfig = (cfg.User, cfg.Password);",
  ].join("\n") + "\n";
  assertEquals(found("Defaults.cs", text), [a]);
});

Deno.test("a connect or login call given a user and a chosen password; labels and variables are not", () => {
  const a = password(), b = password(), c = password(), d = password();
  const text = [
    `conn = cx_Oracle.connect("scott", "${a}", "db01/orcl")`,
    `dialer := gomail.NewDialer("smtp.acme.io", 587, "alerts", "${b}")`,
    `creds = pika.PlainCredentials("relay", "${c}")`,
    `$link = oci_connect('scott', '${d}', 'db01/orcl');`,
    'conn = cx_Oracle.connect("scott", os.environ["ORACLE_PW"], "db01/orcl")',
    'button.connect("clicked", "on_Clicked2")',
    'ws.connect("wss://push.acme.io/v1", "Protocol-v2")',
    'session.login("alice", "wrong-password")',
  ].join("\n") + "\n";
  assertEquals(found("calls.txt", text), [a, b, c, d]);
});
