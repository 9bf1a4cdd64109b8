/**
 * The readers added after the probe corpus's fifth batch, each on realistic lines written for this
 * test with traps beside them: fallbacks after environment lookups, `pass` beside a user, XML
 * elements with attributes or a `<Value>` child, triple-quoted values, Wi-Fi pre-shared keys,
 * passwords given by position or to a hashing function, a string that is a whole `Bearer` value;
 * and on the precision side: password hashes, Maven's and Sealed Secrets' ciphertexts, phone
 * numbers that are not cards, North American numbers of the wrong length.
 */
import { assertEquals } from "../support/assert.ts";
import { scanText } from "../../src/secrets/scanner.ts";
import { rng, Values } from "./corpus_values.ts";

const v = new Values(rng(5505));
const AN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const secret = () => v.mixed(AN, 32);
const password = () => `Otter%${v.mixed(AN, 7)}${v.int(10, 99)}`;

/** The values found in `text` read as the file `path`. */
function found(path: string, text: string, personal = false): string[] {
  return scanText(text, { path, personal }).map((f) => text.slice(f.start, f.end));
}

Deno.test("a literal fallback after an environment lookup named like a secret", () => {
  const a = secret(), b = secret(), c = secret(), d = secret(), e = secret();
  assertEquals(
    found(
      "config.rs",
      [
        `let t = env::var("API_TOKEN").unwrap_or("${a}".into());`,
        `let s = env::var("SIGNING_SECRET").unwrap_or_else(|_| "${b}".to_string());`,
        `let p = env::var("SMTP_PASSWORD").expect("SMTP_PASSWORD must be set");`,
        `let l = env::var("LOG_FORMAT").unwrap_or("json-lines-with-colour".into());`,
      ].join("\n") + "\n",
    ),
    [a, b],
  );
  assertEquals(
    found(
      "settings.py",
      `API_TOKEN = os.getenv("API_TOKEN") or "${c}"\nKEY = os.getenv("SECRET_KEY") or "dev"\n`,
    ),
    [c],
  );
  assertEquals(
    found(
      "client.js",
      [
        `const token = process.env.API_TOKEN || "${d}";`,
        `const secret = process.env.WEBHOOK_SECRET ?? "${e}";`,
        `const empty = process.env.API_TOKEN || "";`,
        `const region = process.env.AWS_REGION || "eu-central-1";`,
      ].join("\n") + "\n",
    ),
    [d, e],
  );
});

Deno.test("`pass` beside a user is a password; a verdict or a flag is not", () => {
  const a = password(), b = password();
  assertEquals(
    found(
      "profiles.yml",
      `dev:\n  type: postgres\n  user: dbt\n  pass: ${a}\n  dbname: ledger\n`,
    ),
    [a],
  );
  assertEquals(
    found(
      "mailer.js",
      `const t = nodemailer.createTransport({ auth: { user: "alerts", pass: "${b}" } });\n`,
    ),
    [b],
  );
  assertEquals(found("results.yml", "suite: ledger\npass: 412\nfail: 0\n"), []);
  assertEquals(found("report.yml", "check: lint\nresult:\n  pass: everything-green\n"), []);
});

Deno.test("XML: an element with attributes, a `<Value>` child, and Maven's ciphertext", () => {
  const a = password(), b = password();
  const b64 = btoa(a);
  assertEquals(
    found(
      "sitemanager.xml",
      `<Server>\n  <User>deploy</User>\n  <Pass encoding="base64">${b64}</Pass>\n</Server>\n`,
    ),
    [b64],
  );
  assertEquals(
    found(
      "unattend.xml",
      `<AdministratorPassword>\n  <Value>${b}</Value>\n  <PlainText>true</PlainText>\n</AdministratorPassword>\n`,
    ),
    [b],
  );
  assertEquals(
    found(
      "settings.xml",
      `<server>\n  <id>nexus</id>\n  <password>{${
        v.mixed(AN + "+/", 43)
      }=}</password>\n</server>\n`,
    ),
    [],
  );
});

Deno.test("triple-quoted values, Wi-Fi keys, and a URL's password", () => {
  const a = password(), b = password(), c = password(), d = password();
  assertEquals(found("grafana.ini", `[database]\npassword = """${a}"""\n`), [a]);
  assertEquals(
    found("wpa_supplicant.conf", `network={\n    ssid="office"\n    psk="${b}"\n}\n`),
    [b],
  );
  assertEquals(
    found("office.nmconnection", `[wifi-security]\nkey-mgmt=wpa-psk\npsk=${c}\n`),
    [c],
  );
  assertEquals(
    found(
      "main.yml",
      `- get_url:\n    url: https://nexus.acme-corp.io/app.jar\n    url_password: ${d}\n    password_url: https://vault.acme-corp.io/ui/login-page\n`,
    ),
    [d],
  );
});

Deno.test("passwords by position: Perl DBI, sbt, Java and .NET helpers; variables are not", () => {
  const a = password(), b = password(), c = password(), d = password();
  assertEquals(
    found(
      "DB.pm",
      `my $dbh = DBI->connect("dbi:Pg:dbname=ledger", "ledger", "${a}", { RaiseError => 1 });\n` +
        `my $env = DBI->connect($dsn, $user, $ENV{DB_PASSWORD});\n`,
    ),
    [a],
  );
  assertEquals(
    found(
      "credentials.sbt",
      `credentials += Credentials("Nexus", "nexus.acme-corp.io", "deploy", "${b}")\n` +
        `credentials += Credentials(Path.userHome / ".sbt" / ".credentials")\n`,
    ),
    [b],
  );
  assertEquals(
    found(
      "Client.java",
      `var creds = new UsernamePasswordCredentials("svc", "${c}");\n` +
        `var auth = new PasswordAuthentication("svc", "${d}".toCharArray());\n` +
        `var env = new UsernamePasswordCredentials(user, System.getenv("PW"));\n`,
    ),
    [c, d],
  );
  const e = password();
  assertEquals(
    found(
      "Startup.cs",
      `var r = ConnectionMultiplexer.Connect("cache.internal:6380,password=${e},ssl=True");\n` +
        `var s = ConnectionMultiplexer.Connect(config.GetConnectionString("Cache"));\n`,
    ),
    [e],
  );
});

Deno.test("a literal handed to a password-hashing function; an input variable is not", () => {
  const a = password(), b = password(), c = password();
  assertEquals(
    found(
      "db.pp",
      `  password => postgresql::postgresql_password('ledger', '${a}'),\n  password => $wiki_password,\n`,
    ),
    [a],
  );
  assertEquals(
    found(
      "seed.py",
      `admin.password = make_password("${b}")\nuser.password = make_password(form.cleaned_data["pw"])\n`,
    ),
    [b],
  );
  assertEquals(
    found(
      "seed.php",
      `$hash = password_hash('${c}', PASSWORD_DEFAULT);\n$h = password_hash($input, PASSWORD_DEFAULT);\n`,
    ),
    [c],
  );
});

Deno.test("redis-server's option, Objective-C strings and a whole `Bearer` string", () => {
  const a = password(), b = secret(), c = secret();
  assertEquals(
    found(
      "compose.yml",
      `    command: redis-server --requirepass ${a}\n    command: redis-server --requirepass "$REDIS_PASSWORD"\n`,
    ),
    [a],
  );
  assertEquals(
    found(
      "APIClient.m",
      `static NSString * const kAPISecret = @"${b}";\n` +
        `[request setValue:@"Bearer ${c}" forHTTPHeaderField:@"Authorization"];\n` +
        `[request setValue:[NSString stringWithFormat:@"Bearer %@", token] forHTTPHeaderField:@"Authorization"];\n` +
        `static NSString *const kPasswordLabel = @"Password";\n`,
    ),
    [b, c],
  );
});

Deno.test("provider URLs: a Telegram bot's API URL, a Google Chat webhook as one finding", () => {
  const bot = `${v.int(100000000, 999999999)}:AA${v.mixed(AN + "_-", 33)}`;
  const chat = `https://chat.googleapis.com/v1/spaces/AAAA${
    v.mixed(AN, 7)
  }/messages?key=AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI&token=${v.mixed(AN, 43)}%3D`;
  assertEquals(
    found(
      "notify.sh",
      `curl -s "https://api.telegram.org/bot${bot}/sendMessage" -d text=done\n` +
        `curl -s "https://api.telegram.org/bot\${TELEGRAM_TOKEN}/sendMessage"\n` +
        `curl -d '{"text":"done"}' '${chat}'\n`,
    ),
    [bot, chat],
  );
});

Deno.test("stored hashes and tools' ciphertexts under a password's name are not reported", () => {
  const b64 = (n: number) => v.mixed(AN + "+/", n);
  const text = [
    `c.ServerApp.password = "argon2:$argon2id$v=19$m=10240,t=10,p=8$${b64(22)}$${b64(43)}"`,
    `c.NotebookApp.password = "sha1:${v.hex(12)}:${v.hex(40)}"`,
    `ADMIN_PASSWORD = "pbkdf2_sha256$600000$${v.mixed(AN, 22)}$${b64(43)}="`,
    `hashed_password = "pbkdf2:sha256:600000$${v.mixed(AN, 16)}$${v.hex(64)}"`,
    `ldap_password = "{SSHA}${b64(32)}"`,
  ].join("\n") + "\n";
  assertEquals(found("jupyter_server_config.py", text), []);
  assertEquals(
    found(
      "sealed.yaml",
      `kind: SealedSecret\nspec:\n  encryptedData:\n    password: AgB${b64(500)}==\n`,
    ),
    [],
  );
});

Deno.test("personal: `+` starts a phone number, not a card; +1 numbers have ten digits", () => {
  const card = v.card();
  const phone = `+4915${v.int(1, 9)}${v.digits(8)}`;
  const grouped = card.replace(/\D/g, "").replace(/(\d{4})(?=\d)/g, "$1 ");
  const text = `{ "mobile": "${phone}" }\n` +
    `{ "mobile": "+1 555 0123" }\n` +
    `"client_id": "625347416085-2313jr4d0zkes1wza469tk1lcrrkoar9.apps.googleusercontent.com"\n` +
    `card: ${grouped}\n`;
  assertEquals(found("contacts.json", text, true), [phone, grouped]);
});

Deno.test("a phone number whose last eight digits hold three different digits is found; filler is not", () => {
  const text = [
    `{ "name": "Fatima", "mobile": "+4915251211122" }`,
    `{ "name": "Sven", "mobile": "+49 30 41100584" }`,
    `{ "name": "Filler", "mobile": "+44 20 1212 1212" }`,
    `{ "name": "Zeros", "mobile": "+49 30 00000000" }`,
    `office: (212) 311-1131`,
    `fax: (212) 212-1212`,
  ].join("\n") + "\n";
  assertEquals(found("contacts.json", text, true).filter((s) => /\d{3}/.test(s)), [
    "+4915251211122",
    "+49 30 41100584",
    "(212) 311-1131",
  ]);
});
