/**
 * Credentials that a file's format, not a vendor prefix, puts in place: netrc and pgpass files,
 * git's credential store, docker's config.json, Dockerfiles and compose files, framework settings
 * (Django, Rails, Spring, ADO.NET/ODBC connection strings), shell tools that take a password
 * (`curl -u`, `wget --password`, `sshpass -p`), URLs of any scheme and Kubernetes Secrets. Each
 * file is written here for the test, with values generated at run time, and each has traps
 * beside its secrets that must stay quiet: placeholders, `${VAR}` references, templates,
 * well-known example passwords, hashes, ids.
 */
import { assertEquals } from "../support/assert.ts";
import { scanText } from "../../src/secrets/scanner.ts";
import { isWellKnownPassword } from "../../src/secrets/allowlist.ts";
import { rng, Values } from "./corpus_values.ts";

const v = new Values(rng(4711));
const pw = () => v.urlPassword();

/** `«value»` marks a secret; the test checks that exactly the marked values are found, by kind. */
function check(path: string, template: string, kinds: Record<string, string>) {
  const values: string[] = [];
  const text = template.replace(/«([^»]*)»/g, (_, value: string) => {
    values.push(value);
    return value;
  });
  const found = scanText(text, { path }).map((f) => [text.slice(f.start, f.end), f.kind]);
  assertEquals(
    found,
    values.map((value) => [value, kinds[value] ?? "password"]),
    `${path}:\n${text}`,
  );
}

Deno.test(".netrc: a password token wherever the lines break; a login's own name and guest are not", () => {
  const multi = pw();
  const token = "9d2f7c1a-44b1-4e7e-9a0c-3b1f2e8d6c55";
  const quoted = pw();
  check(
    ".netrc",
    [
      "# deploy hosts",
      "machine api.heroku.com",
      "  login ops@corp.example.io",
      `  password «${token}»`,
      "machine git.corp.io",
      "  login ci-bot",
      `  password «${multi}»`,
      `machine ftp.corp.io login backup password "«${quoted}»"`,
      "machine mirror.corp.io login mirror password mirror",
      "default login anonymous password guest@",
      "",
    ].join("\n"),
    {},
  );
  // The same layout under any name (the format is recognised, not the file name).
  const another = pw();
  check("auth.txt", `machine registry.corp.io\n login deploy\n password «${another}»\n`, {});
});

Deno.test(".pgpass: the fifth field of every line, not wildcards, not a user's own name", () => {
  const a = pw();
  const b = `${pw()}\\:x`;
  check(
    ".pgpass",
    [
      "# host:port:database:user:password",
      `db.prod.internal:5432:billing:billing_app:«${a}»`,
      `*:6432:*:reporting:«${b}»`,
      "*:*:*:postgres:*",
      "localhost:5432:*:dev:dev",
      "",
    ].join("\n"),
    {},
  );
  // Lines of colons that are not a pgpass file (a log) are not read as one.
  check("app.log", "12:30:01:worker:started job 42\nnot:a:pgpass line\n", {});
});

Deno.test("Dockerfile: ARG/ENV in both forms, curl/wget/sshpass passwords; bare ARGs and ${} stay quiet", () => {
  const [npm, db, api, curlPw, userEq, wgetPw, sshPw] = [pw(), pw(), pw(), pw(), pw(), pw(), pw()];
  const basic = btoa(`deploy:${pw()}`);
  check(
    "Dockerfile",
    [
      "FROM node:22-slim AS build",
      `ARG NPM_TOKEN=«${npm}»`,
      "ARG GITHUB_TOKEN",
      `ENV DB_PASSWORD=«${db}»`,
      `ENV API_SECRET «${api}»`,
      "ENV SESSION_KEY=${SESSION_KEY}",
      "ENV ADMIN_PASSWORD changeme",
      `RUN curl -fsSL -u deploy:«${curlPw}» https://nexus.corp.io/repo/a.tgz | tar xz`,
      `RUN curl --user=deploy:«${userEq}» https://nexus.corp.io/b`,
      `RUN wget --user=bob --password=«${wgetPw}» https://files.corp.io/c`,
      `RUN curl -H "Authorization: Basic «${basic}»" https://x.corp.io`,
      `RUN sshpass -p '«${sshPw}»' ssh deploy@10.0.0.5 uptime`,
      'RUN curl -u "$NEXUS_USER:$NEXUS_PASS" https://nexus.corp.io/c',
      "RUN curl -u admin:admin https://nexus.corp.io/d",
      "",
    ].join("\n"),
    {
      [npm]: "generic-secret",
      [api]: "generic-secret",
      [curlPw]: "basic-auth",
      [userEq]: "basic-auth",
      [basic]: "basic-auth",
    },
  );
});

Deno.test("compose and .env variants: list and map environments; references and examples stay quiet", () => {
  const [a, b, c, d] = [pw(), pw(), pw(), pw()];
  check(
    "docker-compose.prod.yml",
    [
      "services:",
      "  db:",
      "    image: postgres:16",
      "    environment:",
      `      - POSTGRES_PASSWORD=«${a}»`,
      "      - POSTGRES_USER=app",
      "      - REDIS_PASSWORD=${REDIS_PASSWORD}",
      "  app:",
      "    environment:",
      `      MYSQL_ROOT_PASSWORD: «${b}»`,
      `      SMTP_PASS: "«${c}»"`,
      '      SMTP_PASSWORD: "P@ssw0rd1!"',
      "",
    ].join("\n"),
    {},
  );
  check(
    ".env.production",
    `export PGPASSWORD=«${d}»\nDB_PASSWORD=\nAPI_TOKEN=your-token-here\n`,
    {},
  );
});

Deno.test("framework settings: Django, Rails, Spring, ADO.NET and ODBC connection strings", () => {
  const [dj, djKey, redis, rails, base, spring, amqp, props, jdbc, ado, odbc] = [
    pw(),
    `django-insecure-${v.chars("abcdefghijklmnopqrstuvwxyz0123456789!@#%^&*(-_=+)", 50)}`,
    pw(),
    pw(),
    v.hex(128),
    pw(),
    pw(),
    pw(),
    pw(),
    pw(),
    pw(),
  ];
  check(
    "shop/settings.py",
    [
      "DATABASES = {",
      "    'default': {",
      "        'ENGINE': 'django.db.backends.postgresql',",
      "        'USER': 'shop',",
      `        'PASSWORD': '«${dj}»',`,
      "    },",
      "    'replica': {'PASSWORD': os.environ['REPLICA_PASSWORD']},",
      "}",
      `SECRET_KEY = '«${djKey}»'`,
      'OTHER_KEY = os.environ["DJANGO_SECRET_KEY"]',
      `CACHES = {"default": {"LOCATION": "redis://:«${redis}»@cache:6379/0"}}`,
      "",
    ].join("\n"),
    { [djKey]: "generic-secret", [redis]: "database-connection-string" },
  );
  check(
    "config/database.yml",
    [
      "production:",
      "  adapter: postgresql",
      "  username: shop",
      `  password: «${rails}»`,
      "development:",
      "  password: <%= ENV['DB_PASSWORD'] %>",
      `secret_key_base: «${base}»`,
      "",
    ].join("\n"),
    { [base]: "generic-secret" },
  );
  check(
    "src/main/resources/application.yml",
    [
      "spring:",
      "  datasource:",
      "    url: jdbc:postgresql://db:5432/app",
      "    username: app",
      `    password: «${spring}»`,
      "  mail:",
      "    password: ${MAIL_PASSWORD}",
      "  rabbitmq:",
      `    addresses: amqp://svc:«${amqp}»@mq:5672`,
      "",
    ].join("\n"),
    { [amqp]: "database-connection-string" },
  );
  check(
    "application.properties",
    `spring.datasource.password=«${props}»\nspring.datasource.url=jdbc:mysql://db:3306/app?user=app&password=«${jdbc}»\n`,
    {},
  );
  check(
    "appsettings.json",
    `{"ConnectionStrings": {"Main": "Server=db;Database=app;User Id=sa;Password=«${ado}»;", "Odbc": "Driver={PostgreSQL};Server=db;Uid=app;Pwd=«${odbc}»;"}}\n`,
    {},
  );
  const libpq = pw();
  check(
    "db.py",
    `conn = psycopg2.connect("host=db.corp.io user=app password=«${libpq}» dbname=shop")\nok = password == expected\n`,
    {},
  );
  // `PWD=` alone is a shell's working directory.
  check("run.sh", "PWD=/srv/app\ncd $PWD\n", {});
});

Deno.test("git's credential store, docker's config.json and URLs of any scheme", () => {
  const [git1, git2, dockerAuth, ftp, smtp, ldap] = [
    pw(),
    pw(),
    btoa(`deploy:${pw()}`),
    pw(),
    pw(),
    pw(),
  ];
  check(
    ".git-credentials",
    `https://alice:«${git1}»@git.corp.io\nhttps://oauth2:«${git2}»@gitlab.corp.io\n`,
    { [git1]: "url-credentials", [git2]: "url-credentials" },
  );
  check(
    "config.json",
    `{"auths": {"registry.corp.io": {"auth": "«${dockerAuth}»"}, "ghcr.io": {"auth": ""}}, "credsStore": "desktop"}\n`,
    { [dockerAuth]: "generic-secret" },
  );
  check(
    "urls.txt",
    [
      `ftp://backup:«${ftp}»@ftp.corp.io/`,
      `smtp://mailer:«${smtp}»@smtp.corp.io:587`,
      `ldap://admin:«${ldap}»@ldap.corp.io`,
      "https://user:${PASS}@host.corp.io",
      "postgres://user:password@localhost/db",
      "http://user:pw@proxy:3128",
      "",
    ].join("\n"),
    {
      [ftp]: "url-credentials",
      [smtp]: "url-credentials",
      [ldap]: "url-credentials",
    },
  );
});

Deno.test("a Kubernetes Secret: credentials under data and stringData, not hosts, templates or stand-ins", () => {
  const url = btoa(`postgres://app:${pw()}@db:5432/app`);
  const hook = pw();
  const signing = btoa(
    v.mixed("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 40),
  );
  check(
    "k8s/app-secret.yaml",
    [
      "apiVersion: v1",
      "kind: Secret",
      "metadata:",
      "  name: app-env",
      "type: Opaque",
      "data:",
      `  DATABASE_URL: «${url}»`,
      `  PLACEHOLDER: ${btoa("changeme")}`,
      `  SMTP_HOST: ${btoa("smtp.corp.example.io")}`,
      `  SMTP_PORT: ${btoa("587")}`,
      `  RANDOM_SEED_MATERIAL: «${signing}»`,
      "  FROM_HELM: {{ .Values.db.url | b64enc }}",
      "stringData:",
      `  webhook_secret: «${hook}»`,
      "  username: deploy-bot",
      "---",
      "apiVersion: v1",
      "kind: ConfigMap",
      "data:",
      "  LOG_LEVEL: debug-verbose-mode",
      "",
    ].join("\n"),
    { [url]: "kubernetes-secret", [hook]: "kubernetes-secret", [signing]: "kubernetes-secret" },
  );
});

Deno.test("well-known example passwords are examples, whatever their digits and punctuation", () => {
  for (
    const value of ["P@ssw0rd1!", "hunter2", "changeit", "Password123", "letmein!", "qwerty12"]
  ) {
    assertEquals(isWellKnownPassword(value), true, value);
  }
  for (const value of ["Passwordless9x", "hunter2Kq8mX", "Zq8vT3mLx2Rk"]) {
    assertEquals(isWellKnownPassword(value), false, value);
  }
});
