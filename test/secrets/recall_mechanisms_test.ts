/**
 * The mechanisms added for recall on files nobody tuned for, each on realistic lines written for
 * this test with traps beside them: typed constants, setters, name/value pairs, a key under a
 * keyed parent, CLI password options, SQL, basic-auth helpers, Bundler and Oracle credentials,
 * base64 PEM keys; and the precision side: stand-in words, public tokens, values a front-end
 * build exposes, random salts that hold a template marker by chance.
 */
import { assertEquals } from "../support/assert.ts";
import { scanText } from "../../src/secrets/scanner.ts";
import { rng, Values } from "./corpus_values.ts";

const v = new Values(rng(2215));
const AN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const secret = () => v.mixed(AN, 32);
const password = () => `Harbor#${v.mixed(AN, 6)}${v.int(10, 99)}`;

/** The values found in `text` read as the file `path`. */
function found(path: string, text: string): string[] {
  return scanText(text, { path }).map((f) => text.slice(f.start, f.end));
}

/** Each case: a file name, its text with the values it must yield (and nothing else). */
function check(path: string, make: (s: () => string, p: () => string) => [string, string[]]) {
  const [text, want] = make(secret, password);
  assertEquals(found(path, text), want, `${path}:\n${text}`);
}

Deno.test("a declared type between name and value: Python, Rust, Kotlin, Swift, TypeScript", () => {
  for (
    const [path, line] of [
      ["settings.py", 'secret_key: str = "$"'],
      ["lib.rs", 'const API_TOKEN: &str = "$";'],
      ["lib.rs", 'let password: String = "$".to_string();'],
      ["Billing.kt", 'private const val API_SECRET: String = "$"'],
      ["Keys.swift", 'static let clientSecret: String = "$"'],
      ["client.ts", 'const apiToken: string = "$";'],
    ]
  ) {
    check(path, (s) => {
      const value = s();
      return [`${line.replace("$", value)}\nmax_tokens: int = 4096\ntoken_type: str = "bearer"\n`, [
        value,
      ]];
    });
  }
});

Deno.test("a setter or builder given one literal; other calls with a secret word are not", () => {
  check("Repository.java", (_, p) => {
    const a = p(), b = p();
    return [
      [
        `ds.setPassword("${a}");`,
        `builder.password("${b}").build();`,
        `ds.setPasswordFile("/run/secrets/db");`,
        `ds.setPassword(System.getenv("DB_PASSWORD"));`,
        `form.setPasswordVisible(true);`,
        `client.withToken("");`,
        `boolean ok = checkPassword("${p()}");`,
        `String h = hashPassword("correct input");`,
      ].join("\n") + "\n",
      [a, b],
    ];
  });
});

Deno.test("name/value pairs in JSON lists (Postman, CloudFormation) are judged by the name", () => {
  check("env.postman_environment.json", (s, p) => {
    const a = s(), b = p();
    return [
      `{"values": [
  { "key": "baseUrl", "value": "https://api.acme-corp.io", "enabled": true },
  { "key": "apiKey", "value": "${a}", "enabled": true },
  { "key": "Content-Type", "value": "application/json" },
  { "ParameterKey": "DbPassword", "ParameterValue": "${b}" },
  { "key": "password", "value": "{{password}}" }
]}
`,
      [a, b],
    ];
  });
});

Deno.test("a bare key under a keyed parent: .NET's Jwt:Key, YAML's encryption.key; not a cache key", () => {
  check("appsettings.json", (s) => {
    const a = s(), b = s();
    return [
      `{
  "Jwt": { "Issuer": "orders", "Key": "${a}" },
  "Redis": { "InstanceName": "orders", "Key": "orders:cart:v2" },
  "Signing": {
    "Key": "${b}"
  }
}
`,
      [a, b],
    ];
  });
  check("application.yml", (s) => {
    const a = s();
    return [
      `app:
  cache:
    key: ledger-v2-orders
  session:
    key: _ledger_session_id
  encryption:
    key: ${a}
`,
      [a],
    ];
  });
});

Deno.test("password options of command-line tools, and the same words elsewhere", () => {
  check("bootstrap.sh", (_, p) => {
    const pw = [p(), p(), p(), p(), p(), p(), p()];
    return [
      [
        `redis-cli -h cache.internal -a ${pw[0]} ping`,
        `sqlcmd -S sql.internal -U sa -P '${pw[1]}' -Q "SELECT 1"`,
        `keytool -importkeystore -srckeystore a.p12 -srcstorepass ${pw[2]} -deststorepass changeit`,
        `openssl pkcs12 -export -in c.pem -inkey k.pem -out b.p12 -passout pass:${pw[3]}`,
        `htpasswd -b -c /etc/nginx/.htpasswd admin ${pw[4]}`,
        `htpasswd -nb admin '${pw[5]}'`,
        `aws configure set aws_secret_access_key ${pw[6]}`,
        `redis-cli -h cache.internal -a "$REDIS_PASSWORD" info`,
        `openssl rsa -in enc.key -passin env:KEY_PASSPHRASE`,
        `openssl pkcs12 -in b.p12 -passin pass:$P12_PASSWORD`,
        `htpasswd -c /etc/nginx/.htpasswd admin`,
        `aws configure set region eu-central-1`,
        `npm config set registry https://npm.acme-corp.io/`,
        `grep -a pattern file.log`,
      ].join("\n") + "\n",
      pw,
    ];
  });
  check("setup.ps1", (_, p) => {
    const a = p();
    return [
      `$pw = ConvertTo-SecureString "${a}" -AsPlainText -Force
$fromVault = ConvertTo-SecureString $plain -AsPlainText -Force
$prompted = Read-Host -AsSecureString "Password"
`,
      [a],
    ];
  });
});

Deno.test("SQL: PASSWORD and IDENTIFIED BY in user statements, INSERT rows by their columns", () => {
  check("dump.sql", (s, p) => {
    const a = p(), b = p(), c = p(), d = s(), e = s();
    return [
      `CREATE ROLE reporting WITH LOGIN PASSWORD '${a}';
ALTER USER ledger WITH PASSWORD '${b}';
CREATE USER 'etl'@'%' IDENTIFIED BY '${c}';
CREATE USER 'ro'@'%' IDENTIFIED BY '\${READONLY_PASSWORD}';
SELECT id FROM users WHERE password_hash IS NULL;
ALTER TABLE users ADD COLUMN password_reset_token VARCHAR(64);
INSERT INTO api_clients (id, name, client_secret) VALUES (7, 'erp', '${d}'), (8, 'ci', '${e}');
INSERT INTO api_clients (id, name, client_secret) VALUES (9, 'sandbox', 'test_client_secret_1');
INSERT INTO users (id, email, password_hash) VALUES (1, 'ops@acme-corp.io', '$2b$12$${
        v.mixed(AN, 53)
      }');
`,
      [a, b, c, d, e],
    ];
  });
});

Deno.test("basic-auth helpers given literals, and not given variables or a demo pair", () => {
  check("erp_client.py", (_, p) => {
    const a = p(), b = p();
    return [
      `requests.get(url, auth=HTTPBasicAuth("erp", "${a}"))
requests.get(url, auth=("erp", "${b}"))
requests.get(url, auth=HTTPBasicAuth(user, password))
requests.get(url, auth=("demo", "demo"))
`,
      [a, b],
    ];
  });
  check("legacy.rb", (_, p) => {
    const a = p();
    return [`f.request :authorization, :basic, "erp", "${a}"\n`, [a]];
  });
});

Deno.test("Bundler's per-host credentials, Oracle's thin URL, a PEM key kept as base64", () => {
  check("config", () => {
    const pw = v.hex(8);
    return [
      `BUNDLE_ENTERPRISE__CONTRIBSYS__COM: "${
        v.hex(8)
      }:${pw}"\nBUNDLE_GEMS__ACME__IO: "\${GEMS}"\n`,
      [pw],
    ];
  });
  check("application.yml", (_, p) => {
    const a = p();
    return [
      `oracle: jdbc:oracle:thin:ledger/${a}@ora.internal:1521/LEDGER\ndemo: jdbc:oracle:thin:scott/tiger@localhost:1521/XE\n`,
      [a],
    ];
  });
  check("kubeconfig", () => {
    const key = btoa(v.pem("RSA PRIVATE KEY", 600) + "\n");
    const cert = btoa(
      `-----BEGIN CERTIFICATE-----\n${v.base64Lines(400).join("\n")}\n-----END CERTIFICATE-----\n`,
    );
    return [`    client-certificate-data: ${cert}\n    client-key-data: ${key}\n`, [key]];
  });
});

Deno.test("precision: stand-in words, public tokens, front-end values, salts with template marks", () => {
  check("users.json", () => [
    `[{"password": "fake-password-for-tests"}, {"apiKey": "test_api_key_123"}, {"token": "my-dev-secret"}]\n`,
    [],
  ]);
  check("Billing.kt", () => [
    `val mapboxToken = "pk.eyJ${v.mixed(AN, 60)}.${v.mixed(AN, 22)}"\n`,
    [],
  ]);
  check(".env", (s) => {
    const a = s();
    return [
      `PUSHER_APP_KEY=${
        v.hex(20)
      }\nPUSHER_APP_SECRET=${a}\nVITE_PUSHER_APP_KEY="\${PUSHER_APP_KEY}"\n`,
      [a],
    ];
  });
  check("wp-config.php", () => {
    const salts = [
      "f46RMZe]4&LHdw<kib{>}JuPl0us[W2-em-;0:0L]|I:fxw9r)ZhTiWHPbVeDHfo",
      "h7sGoFOJsm?dW52I)Pp@{=lHxDQ{gwurR${e0<biqGxC*e.Y8RXNV}_$?Bii3b6N",
      "/@|MYBa{2C7&zaoNdc/~7n|oD+)S#yTHL=NkU9?4_,aTroOc&M#aV^/ebp1|DWO^",
      "baxO9yn5WaNv5xkOyq5yMMrqNywYRitodO6L34N5SFv4bPbL",
    ];
    return [
      salts.map((salt, i) => `define( 'AUTH_SALT_${i}', '${salt}' );`).join("\n") +
      "\ndefine( 'NONCE_SALT', 'put your unique phrase here' );\n",
      salts,
    ];
  });
});

Deno.test("directives that take a password after a space: redis, keepalived, HAProxy", () => {
  check("redis.conf", (_, p) => {
    const a = p(), b = p();
    return [
      `bind 127.0.0.1\nrequirepass ${a}\nmasterauth "${b}"\n# requirepass foobared\n`,
      [a, b],
    ];
  });
  check("haproxy.cfg", (_, p) => {
    const a = p(), b = p();
    return [
      `listen stats\n  stats auth admin:${a}\nuserlist ops\n  user deploy insecure-password ${b}\n  stats uri /stats\n`,
      [a, b],
    ];
  });
});

Deno.test("a password passed by position to a connect or login call; variables are not", () => {
  check("Db.java", (_, p) => {
    const a = p();
    return [
      `DriverManager.getConnection("jdbc:mysql://db/shop", "shop", "${a}");
DriverManager.getConnection(url, user, System.getenv("DB_PASSWORD"));
`,
      [a],
    ];
  });
  check("db.php", (_, p) => {
    const a = p(), b = p(), c = p();
    return [
      `$m = new mysqli("localhost", "shop", "${a}", "shop");
$pdo = new PDO("mysql:host=db;dbname=shop", "shop", '${b}');
$l = mysqli_connect("localhost", "shop", "${c}", "shop");
$e = new PDO($dsn, $user, getenv("DB_PASSWORD"));
`,
      [a, b, c],
    ];
  });
  check("mail.go", (_, p) => {
    const a = p();
    return [
      `var auth = smtp.PlainAuth("", "alerts@acme-corp.io", "${a}", "smtp.acme-corp.io")
var env = smtp.PlainAuth("", user, os.Getenv("SMTP_PASSWORD"), host)
`,
      [a],
    ];
  });
  check("mail.py", (_, p) => {
    const a = p();
    return [`smtp.login("alerts", "${a}")\nsmtp.login(user, password)\n`, [a]];
  });
  check("db.js", (_, p) => {
    const a = p();
    return [
      `const s = new Sequelize("shop", "shop", "${a}", { host: "db" });\nconst e = new Sequelize(process.env.DB_URL);\n`,
      [a],
    ];
  });
});

Deno.test("names ending in salt, a literal starting with @, short hex under a secret's name", () => {
  check("config.php", (s) => {
    const a = s();
    return [`  'passwordsalt' => '${a}',\n  'salt_rounds' => 12,\n`, [a]];
  });
  check("gradle.properties", () => {
    const a = `@pUF${v.mixed(AN, 9)}`;
    return [`ossrhPassword=${a}\nsigning.keyId=24875D73\n`, [a]];
  });
  check("LocalSettings.php", () => {
    const a = "222c02d8a17d848c";
    return [`$wgUpgradeKey = "${a}";\n$wgCacheEpoch = "20260101000000";\n`, [a]];
  });
});

Deno.test("XML elements named by an attribute, property lists, C defines, Erlang tuples", () => {
  check("secrets.xml", (s) => {
    const a = s();
    return [
      `<resources>
    <string name="backend_client_secret">${a}</string>
    <string name="password_hint">At least 12 characters</string>
    <property name="hibernate.connection.username">ledger</property>
</resources>
`,
      [a],
    ];
  });
  check("Info.plist", (s) => {
    const a = s();
    return [
      `<dict>
    <key>BackendClientSecret</key>
    <string>${a}</string>
    <key>NSFaceIDUsageDescription</key>
    <string>Unlock your password vault</string>
</dict>
`,
      [a],
    ];
  });
  check("config.h", (_, p) => {
    const a = p();
    return [`#define WIFI_PASSWORD "${a}"\n#define TOKEN_BUFFER_SIZE 256\n`, [a]];
  });
  check("sys.config", (s, p) => {
    const a = p(), b = s();
    return [
      `[{ledger, [{db_host, "db.internal"}, {db_password, "${a}"},\n  {api_secret, <<"${b}">>}]}].\n`,
      [a, b],
    ];
  });
});

Deno.test("a password echoed into sudo -S, chpasswd or --password-stdin; LDAP's -w; rabbitmqctl", () => {
  check("provision.sh", (_, p) => {
    const pw = [p(), p(), p(), p(), p()];
    return [
      [
        `echo '${pw[0]}' | sudo -S apt-get update`,
        `echo "deploy:${pw[1]}" | chpasswd`,
        `echo ${pw[2]} | docker login -u ci --password-stdin registry.acme-corp.io`,
        `ldapsearch -x -D "cn=admin,dc=acme,dc=io" -w '${pw[3]}' "(uid=deploy)"`,
        `rabbitmqctl add_user ledger ${pw[4]}`,
        `echo "$SUDO_PASSWORD" | sudo -S systemctl restart ledger`,
        `ldapsearch -x -D "cn=admin,dc=acme,dc=io" -W "(uid=deploy)"`,
        `echo "done" | tee -a install.log`,
      ].join("\n") + "\n",
      pw,
    ];
  });
});

Deno.test("values that looked like an alias, a template or a URL's userinfo by chance", () => {
  // A shell password may start with `*`; in YAML a plain `*name` is an alias.
  check("scripts/run.sh", () => {
    const value = "*" + v.mixed(AN, 11);
    return [`docker run -d -e POSTGRES_PASSWORD=${value} postgres:16\n`, [value]];
  });
  check("compose.yml", () => ["    password: *default_db_password\n", []]);
  // A random salt holding `{{` is a secret; a template opens and closes, or starts the value.
  check("wp-config.php", () => {
    const value = `pi|IG{{z.${v.mixed(AN, 20)}%${v.mixed(AN, 20)}|p^=m`;
    return [`define( 'SECURE_AUTH_KEY',  '${value}' );\n`, [value]];
  });
  check(
    "values.yaml",
    () => ['password: "{{ .Values.db.password }}"\napiKey: {{ .Values.key }}\n', []],
  );
  // A generated salt dense with every kind of character holds `${E…`, `$(B` or `[K-K…]` by chance.
  for (const mark of ["${EUcN75-", "$(BYjt)", "[K-KCMMy$}/~I[RU]"]) {
    check("wp-config.php", () => {
      const value = `${v.mixed(AN, 14)}!~${mark}%|${v.mixed(AN, 24)}^=`;
      return [`define( 'LOGGED_IN_SALT',   '${value}' );\n`, [value]];
    });
  }
  check(".env", () => ['DB_PASSWORD="${DB_PASSWORD_FROM_VAULT:?set it}"\n', []]);
  // Base64 may start with `/`; a path's segments are names.
  check("rclone.conf", () => {
    const value = "/" + v.mixed(AN, 30) + "+" + v.mixed(AN, 8);
    return [`secret_access_key = ${value}\nkey_file = /etc/rclone/keys/offsite_backup.key\n`, [
      value,
    ]];
  });
  // SQL Server's JDBC URL: `host:port;` then properties, one of them a password holding `@`.
  check("application.yml", () => {
    const value = `@F!${v.mixed(AN, 10)}`;
    return [
      `    url: jdbc:sqlserver://sql.internal:1433;databaseName=ledger;user=ledger;password=${value};encrypt=true\n`,
      [value],
    ];
  });
});
