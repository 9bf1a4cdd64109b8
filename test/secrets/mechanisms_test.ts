/**
 * Recall by mechanism, checked again on files written for this test in shapes the other tests do
 * not use: `_netrc` with tabs and `macdef`, a Windows `pgpass.conf`, percent-encoded git
 * credentials, a pretty-printed docker `config.json` with an identity token, URLs of more schemes,
 * curl's run-together `-uuser:pw`, `lftp -u user,pw` and `smbclient -U user%pw`, nginx's
 * `Authorization "Basic …"`, Dockerfile `ENV` with several pairs, compose build args, Django,
 * Rails and Spring settings in their other spellings (a name whose first word is `email`, `host`
 * or `user`; a `${VAR:default}` whose default is the password), `.envrc`, Rails' `master.key`.
 * Traps sit beside every secret: inline-allowed values, well-known example passwords in fixtures,
 * placeholders, references, documentation examples, the key a Helm chart stores a password under.
 * Values are generated at run time.
 */
import { assertEquals } from "../support/assert.ts";
import { scanText } from "../../src/secrets/scanner.ts";
import { classifyName, defaultOfReference } from "../../src/secrets/generic.ts";
import { rng, Values } from "./corpus_values.ts";

const v = new Values(rng(90210));
const pw = () => v.urlPassword();
const b64 = (s: string) => btoa(s);

/** `«value»` marks a secret; exactly the marked values must be found (any kind unless given). */
function check(path: string, template: string, kinds: Record<string, string> = {}) {
  const values: string[] = [];
  const text = template.replace(/«([^»]*)»/g, (_, value: string) => {
    values.push(value);
    return value;
  });
  const found = scanText(text, { path });
  assertEquals(
    found.map((f) => text.slice(f.start, f.end)),
    values,
    `${path}:\n${text}\nfound: ${found.map((f) => f.kind).join(", ")}`,
  );
  for (const f of found) {
    const value = text.slice(f.start, f.end);
    if (kinds[value]) assertEquals(f.kind, kinds[value], value);
  }
}

Deno.test("_netrc with tabs, password before login and a macro; pgpass.conf with escaped colons", () => {
  const [a, b] = [pw(), pw()];
  check(
    "_netrc",
    [
      `machine files.corp.io\tlogin\tbuilder\tpassword\t«${a}»`,
      `machine mirror2.corp.io password «${b}» login ops`,
      "macdef init",
      "cd /pub",
      "binary",
      "",
      "machine anon.corp.io login anonymous password anonymous",
      "",
    ].join("\n"),
  );
  const [c, d] = [pw(), pw()];
  check(
    "pgpass.conf",
    `db01.corp.local:5432:orders:orders_rw:«${c}»\n\\:\\:1:5432:*:admin:«${d}»\n*:*:*:replicator:*\n`,
  );
});

Deno.test("git credentials with encoded characters, docker and podman auth files pretty-printed", () => {
  const [a, b] = [`${pw()}%24x`, pw()];
  check(
    ".git-credentials",
    `https://build%40corp.io:«${a}»@git.corp.io\nhttps://ci-bot@github.com\nhttps://deploy:«${b}»@bitbucket.org\n`,
  );
  const auth = b64(`deploy:${pw()}`);
  const identity = v.jwt();
  check(
    ".docker/config.json",
    [
      "{",
      '  "auths": {',
      '    "https://index.docker.io/v1/": {',
      `      "auth": "«${auth}»"`,
      "    },",
      '    "quay.io": {',
      '      "auth": "",',
      `      "identitytoken": "«${identity}»"`,
      "    }",
      "  },",
      '  "credHelpers": {"gcr.io": "gcloud"}',
      "}",
      "",
    ].join("\n"),
  );
  const podman = b64(`bot:${pw()}`);
  check("containers/auth.json", `{"auths":{"registry.corp.io":{"auth":"«${podman}»"}}}\n`);
});

Deno.test("URLs of more schemes carry passwords; references, stand-ins and doc examples do not", () => {
  const p = Array.from({ length: 6 }, pw);
  check(
    "notes/endpoints.md",
    [
      `Primary: mongodb+srv://svc_orders:«${p[0]}»@cluster0.ab1cd.mongodb.net/orders`,
      `cache: rediss://default:«${p[1]}»@cache.corp.io:6380`,
      `drop: sftp://uploader:«${p[2]}»@sftp.corp.io/in`,
      `proxy socks5://u1:«${p[3]}»@10.1.2.3:1080`,
      `bus nats://app:«${p[4]}»@nats.corp.io:4222`,
      `pip install git+https://ci:«${p[5]}»@git.corp.io/lib.git`,
      "template: https://user:${DB_PASS}@db.corp.io",
      "docs: https://user:<password>@host.corp.io",
      "example: http://user:pass@example.com",
      "atlas: mongodb://<user>:<password>@cluster.example.net",
      "",
    ].join("\n"),
  );
});

Deno.test("passwords on command lines: curl's run-together -u, wget, lftp, smbclient, docker login", () => {
  const p = Array.from({ length: 8 }, pw);
  check(
    "scripts/deploy.sh",
    [
      "#!/bin/sh",
      `curl -sSf -u ci-bot:«${p[0]}» https://artifacts.corp.io/upload`,
      `curl -X POST -uadmin:«${p[1]}» https://jenkins.corp.io/build`,
      `curl --user "deployer:«${p[2]}»" -T pkg.tgz https://nexus.corp.io/`,
      'curl -u "$NEXUS_USER:$NEXUS_PASSWORD" https://nexus.corp.io',
      "curl -u admin: https://jenkins.corp.io",
      `wget --http-password=«${p[3]}» --http-user=dl https://dl.corp.io/a`,
      `wget --ftp-password «${p[4]}» ftp://ftp.corp.io/b`,
      "wget --ask-password https://dl.corp.io/c",
      `lftp -u backup,«${p[5]}» sftp://files.corp.io`,
      `smbclient //fs/share -U admin%«${p[6]}»`,
      `docker login -u deploy -p «${p[7]}» registry.corp.io`,
      "sort -u names.txt | uniq -c",
      "git push -u origin main:release",
      "ps -U root,daemon",
      "mysql -u root -p",
      "",
    ].join("\n"),
  );
  // Documentation of the same commands shows stand-ins, not credentials.
  check(
    "docs/setup.md",
    [
      "Set `DATABASE_URL=postgres://user:password@localhost:5432/app`.",
      "Run `curl -u username:password https://api.example.com`.",
      'Or `curl -u "$USER:$TOKEN" https://api.example.com`.',
      "```",
      "Authorization: Basic <base64>",
      "```",
      "",
    ].join("\n"),
  );
});

Deno.test("Authorization: Basic in server configuration, requests and code; built values are not", () => {
  const [a, b, c] = [b64(`svc:${pw()}`), b64(`api:${pw()}`), b64(`deploy:${pw()}`)];
  check(
    "nginx/site.conf",
    `location /api/ {\n  proxy_set_header Authorization "Basic «${a}»";\n}\n`,
    { [a]: "basic-auth" },
  );
  check("apache/vhost.conf", `RequestHeader set Authorization "Basic «${c}»"\n`);
  check(
    "src/client.js",
    `const headers = { Authorization: 'Basic ' + btoa(user + ':' + pass) };\nconst h2 = { 'Authorization': 'Basic «${b}»' };\n`,
  );
  const d = b64(`deploy:${pw()}`);
  check("http/me.http", `GET https://api.corp.io/v1/me\nAuthorization: Basic «${d}»\n`);
});

Deno.test("Dockerfile and compose: several pairs in one ENV, build args, URL passwords in ARGs", () => {
  const p = Array.from({ length: 3 }, pw);
  check(
    "Dockerfile",
    [
      "FROM python:3.12",
      `ENV APP_ENV=prod DB_PASSWORD=«${p[0]}» LOG=info`,
      `ENV MYSQL_ROOT_PASSWORD="«${p[1]}»" \\`,
      "    MYSQL_DATABASE=shop",
      `ARG PIP_INDEX_URL=https://pypi:«${p[2]}»@pypi.corp.io/simple`,
      "ARG SECRET_KEY=${SECRET_KEY}",
      "ENV API_KEY=<your-api-key>",
      "",
    ].join("\n"),
  );
  const [npm, gh, db, jwt] = [v.npm(), pw(), pw(), v.genericSecret()];
  check(
    "docker-compose.yml",
    [
      "services:",
      "  web:",
      "    build:",
      "      context: .",
      "      args:",
      `        - NPM_TOKEN=«${npm}»`,
      `        GH_PASS: «${gh}»`,
      "    environment:",
      `      DATABASE_URL: postgres://app:«${db}»@db:5432/app`,
      "      SECRET_KEY_BASE: ${SECRET_KEY_BASE}",
      "      SMTP_PASSWORD: changeme",
      `      - "JWT_SECRET=«${jwt}»"`,
      "      - POSTGRES_PASSWORD_FILE=/run/secrets/pg",
      "",
    ].join("\n"),
  );
});

Deno.test("framework settings in other spellings: email and host passwords, defaults in references", () => {
  const p = Array.from({ length: 5 }, pw);
  check(
    "project/settings/production.py",
    [
      "DATABASES = {",
      '    "default": {',
      '        "ENGINE": "django.db.backends.mysql",',
      '        "USER": "shop",',
      `        "PASSWORD": "«${p[0]}»",`,
      '        "HOST": "db.corp.io",',
      "    },",
      `    "analytics": dj_database_url.parse("postgres://ro:«${p[1]}»@an.corp.io/an"),`,
      '    "test": {"PASSWORD": ""},',
      "}",
      `EMAIL_HOST_PASSWORD = "«${p[2]}»"`,
      'SECRET_KEY = config("SECRET_KEY")',
      'DB_PASS = env("DB_PASS", default="")',
      `CELERY_BROKER_URL = 'amqp://crm:«${p[3]}»@rabbit:5672//'`,
      "",
    ].join("\n"),
  );
  check(
    "config/database.yml",
    [
      "default: &default",
      "  adapter: mysql2",
      "  username: root",
      `  password: "«${p[4]}»"`,
      "production:",
      "  <<: *default",
      "test:",
      "  <<: *default",
      "  password:",
      "",
    ].join("\n"),
  );
  const [spring, oauth, rabbit, jwt, sqlserver] = [pw(), v.hex(40), pw(), v.genericSecret(), pw()];
  check(
    "src/main/resources/application-prod.yml",
    [
      "spring:",
      "  datasource:",
      `    password: \${DB_PASSWORD:«${spring}»}`,
      "    username: ${DB_USER:app}",
      "  security:",
      "    oauth2:",
      "      client:",
      "        registration:",
      "          github:",
      `            client-secret: «${oauth}»`,
      "  mail:",
      "    password: ENC(9x7Jq2Lm8Vt3Kz5Xq1Lm)",
      "  redis:",
      "    password: ${REDIS_PASSWORD:}",
      "",
    ].join("\n"),
  );
  check(
    "config/application.properties",
    [
      "spring.datasource.password=${DB_PASSWORD}",
      `spring.rabbitmq.password=«${rabbit}»`,
      `app.jwt.secret=«${jwt}»`,
      `spring.datasource.url=jdbc:sqlserver://db:1433;databaseName=app;user=sa;password=«${sqlserver}»;`,
      "",
    ].join("\n"),
  );
  // A shell default is a literal too; an error message after :? is not.
  const shell = pw();
  check(
    "run.sh",
    `PGPASSWORD="\${PGPASSWORD:-«${shell}»}"\nTOKEN="\${API_TOKEN:?set API_TOKEN first}"\n`,
  );
});

Deno.test(".env variants and key files: .envrc, .env.*.local, env/prod.env, Rails' master.key", () => {
  const [gh, db, stripe, session, prod] = [v.githubPat(), pw(), v.stripeSecret(), pw(), pw()];
  check(
    ".envrc",
    `export AWS_PROFILE=dev\nexport GITHUB_TOKEN=«${gh}»\nexport DATABASE_PASSWORD='«${db}»'\n`,
  );
  check(
    ".env.development.local",
    [
      "NEXT_PUBLIC_API_URL=https://api.corp.io",
      `STRIPE_SECRET=«${stripe}»`,
      "DB_PASSWORD=<password>",
      `SESSION_SECRET="«${session}»"`,
      "ADMIN_PASSWORD=admin",
      "",
    ].join("\n"),
  );
  check("env/prod.env", `DB_HOST=db\nDB_PASSWORD=«${prod}»\n`);
  const master = v.hex(32);
  check("config/master.key", `«${master}»\n`, { [master]: "generic-secret" });
  check("config/credentials/production.key", `«${v.hex(32)}»`);
  // A .key file that is not one random string: a PEM is the private-key rule's; a word is not a key.
  check("certs/dev.key", "changeme\n");
});

Deno.test("traps: inline-allowed values, example passwords in fixtures, stand-ins, stored-under keys", () => {
  check(
    "ci/.env.test",
    [
      `DB_PASSWORD=${pw()} # gitleaks:allow`,
      `STRIPE_KEY=${v.stripeSecret()} # pragma: allowlist secret`,
      "# pragma: allowlist nextline secret",
      `AWS_SECRET_ACCESS_KEY=${v.awsSecret()}`,
      `GITHUB_TOKEN=${v.githubPat()} # wisp:allow fixture for the webhook test`,
      "SMTP_PASSWORD=<password>",
      "REDIS_PASSWORD=${REDIS_PASSWORD}",
      "API_TOKEN={{ api_token }}",
      "ADMIN_PASSWORD=changeme",
      "DB_PASS=password123",
      "MY_SECRET=xxxxxxxxxxxxxxxx",
      "JWT_SECRET=your-jwt-secret-here",
      "PASSWORD=********",
      "",
    ].join("\n"),
  );
  check(
    "spec/fixtures/users.yml",
    [
      "valid_user:",
      "  email: alice@example.com",
      "  password: Passw0rd!",
      "admin:",
      "  password: Admin@123",
      "other:",
      '  password: "letmein123"',
      "qa:",
      "  password: Welcome1",
      "",
    ].join("\n"),
  );
  check(
    "tests/fixtures/users.json",
    '[{"user": "alice", "password": "P@ssw0rd!"}, {"user": "bob", "password": "hunter2"}]\n',
  );
  check(
    "charts/app/values.yaml",
    [
      "postgresql:",
      "  auth:",
      '    password: ""',
      "    existingSecret: db-secret",
      "    secretKeys:",
      "      adminPasswordKey: postgres-password",
      "      userPasswordKey: password",
      "redis:",
      "  password: ${REDIS_PASSWORD:-}",
      "  url: redis://:${REDIS_PASSWORD}@redis:6379",
      "",
    ].join("\n"),
  );
});

Deno.test("a name's first word says whose secret it is; a word after the secret word, what of it", () => {
  const cases: [string, ReturnType<typeof classifyName>][] = [
    ["EMAIL_HOST_PASSWORD", "password"],
    ["SMTP_SERVER_PASSWORD", "password"],
    ["ldapUserPassword", "password"],
    ["KEYSTORE_PASSWORD", "password"],
    ["REDIS_CACHE_PASSWORD", "password"],
    ["VAULT_TOKEN", "secret"],
    ["user_token", "secret"],
    ["adminPasswordKey", "secret"],
    ["password_host", null],
    ["token_user", null],
    ["auth_domain", null],
    ["secret_store", null],
    ["host_key", null],
    ["cache_key", null],
    ["show_password", null],
  ];
  for (const [name, cls] of cases) assertEquals(classifyName(name), cls, name);
  assertEquals(defaultOfReference("${DB_PASSWORD:s3cr3t-Xy}"), { offset: 14, value: "s3cr3t-Xy" });
  assertEquals(defaultOfReference("${DB_PASSWORD:-abc"), { offset: 15, value: "abc" });
  assertEquals(defaultOfReference("${DB_PASSWORD:?missing}"), null);
  assertEquals(defaultOfReference("${DB_PASSWORD}"), null);
});

Deno.test("package managers' and tools' credential files; PHP's sigil; NuGet's ClearTextPassword", () => {
  const p = Array.from({ length: 12 }, pw);
  check(
    ".pypirc",
    `[distutils]\nindex-servers = internal\n[internal]\nrepository = https://pypi.corp.io\nusername = deploy\npassword = «${
      p[0]
    }»\n`,
  );
  check(
    "settings.xml",
    `<settings><servers><server><id>nexus</id><username>ci</username><password>«${
      p[1]
    }»</password></server><server><id>x</id><password>\${env.NEXUS_PASSWORD}</password></server></servers></settings>\n`,
  );
  check(
    "gradle.properties",
    `org.gradle.jvmargs=-Xmx2g\nsigning.keyId=24875D73\nsigning.password=«${
      p[2]
    }»\nossrhPassword=«${p[3]}»\n`,
  );
  const gh = v.githubPat();
  check(
    "auth.json",
    `{"http-basic": {"repo.packagist.com": {"username": "token", "password": "«${
      p[4]
    }»"}}, "github-oauth": {"github.com": "«${gh}»"}}\n`,
  );
  // Hashes are what .htpasswd holds: not a secret to revoke.
  check(
    ".htpasswd",
    "admin:$apr1$r31.....$HqJZimcKQFAMYayBlzkrA/\nbob:{SHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=\n",
  );
  check(
    "wp-config.php",
    [
      "<?php",
      `define( 'DB_PASSWORD', '«${p[5]}»' );`,
      "define( 'SECURE_AUTH_KEY', 'put your unique phrase here' );",
      `$db_password = '«${p[6]}»';`,
      '$password = "$input";',
      '$token = "{$prefix}_abcdefghijkl";',
      `if ($password == '${p[7]}') {}`,
      "$api_key = getenv('API_KEY');",
      "$password = $_POST['password'];",
      "",
    ].join("\n"),
  );
  check(
    "main.tf",
    `resource "aws_db_instance" "db" {\n  username = "admin"\n  password = "«${
      p[8]
    }»"\n}\nresource "x" "y" { password = var.db_password }\n`,
  );
  check(".git/config", `[remote "origin"]\n\turl = https://ci:«${p[9]}»@git.corp.io/app.git\n`);
  check(
    "NuGet.Config",
    `<configuration><packageSourceCredentials><corp><add key="Username" value="ci" /><add key="ClearTextPassword" value="«${
      p[10]
    }»" /></corp></packageSourceCredentials></configuration>\n`,
  );
  check(
    "group_vars/all/vault.yml",
    `$ANSIBLE_VAULT;1.1;AES256\n${v.hex(80)}\n${v.hex(80)}\n`,
  );
  check(
    "src/config.ts",
    `export const config = {\n  dbPassword: process.env.DB_PASSWORD,\n  apiKey: '«${v.genericSecret()}»',\n  password: '',\n};\n`,
  );
  const token = v.jwt();
  check(
    "kubeconfig",
    `apiVersion: v1\nusers:\n- name: ci\n  user:\n    token: «${token}»\n- name: admin\n  user:\n    password: «${
      p[11]
    }»\n`,
  );
});

Deno.test("a lone pass = … in an ini-style file is a password; a test runner's PASS is not", () => {
  const p = pw();
  check(
    "rclone.conf",
    `[remote]\ntype = sftp\nhost = files.corp.io\nuser = backup\npass = «${p}»\n`,
  );
  check("test.log", "PASS: test_login (0.2s)\npass = 12\n");
  check("setup.cfg", "[tool:pytest]\npass = 1\n");
});

Deno.test("a YAML block scalar of one line, and Go's MySQL DSN without a scheme", () => {
  const [block, dsn, code] = [pw(), pw(), pw()];
  check(
    "charts/mail/values.yaml",
    [
      "smtp:",
      "  password: |",
      `    «${block}»`,
      "  port: 587",
      "notes:",
      "  token: >-",
      "    line one of a",
      "    long folded text here",
      "  secret: |",
      "    ${SMTP_SECRET}",
      "",
    ].join("\n"),
  );
  check(
    "internal/db/open.go",
    [
      `db, err := sql.Open("mysql", "app:«${dsn}»@tcp(db:3306)/shop?parseTime=true")`,
      `const dbPassword = "«${code}»"`,
      'password := os.Getenv("DB_PASSWORD")',
      'dsn := fmt.Sprintf("%s:%s@tcp(%s)/%s", user, pass, host, name)',
      'local := "root:@tcp(127.0.0.1:3306)/test"',
      "",
    ].join("\n"),
  );
});
