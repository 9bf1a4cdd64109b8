/**
 * Passwords given to command-line tools and written into statements: the option each tool takes
 * a password by (`redis-cli -a`, `sqlcmd -P`, `keytool -storepass`, openssl's `pass:`),
 * `htpasswd -b`'s last argument, PowerShell's `ConvertTo-SecureString "…" -AsPlainText`, a
 * `config set NAME VALUE` of a CLI's settings, and SQL's `PASSWORD '…'` / `IDENTIFIED BY '…'`.
 * Each reads the tool's own syntax, so the same word elsewhere on a line is not taken.
 */
import type { Candidate, Rule, RuleContext } from "./types.ts";
import { headerCandidate, PRIORITY, regexRule } from "./regex_rule.ts";
import { listItems } from "./code_lists.ts";
import {
  isPasswordHash,
  isPlaceholder,
  isTemplateReference,
  isWellKnownPassword,
} from "./allowlist.ts";
import { classCount, shannonEntropy } from "./entropy.ts";
import { acceptValue, classifyName, defaultOfReference, kindFor } from "./generic.ts";

/** A password typed on a command line: not a stand-in, a variable, or a tutorial's example. */
function typedPassword(value: string): boolean {
  return value.length >= 4 && !value.startsWith("$") &&
    !isPlaceholder(value) && !isTemplateReference(value) && !isWellKnownPassword(value) &&
    !isPasswordHash(value) && shannonEntropy(value) >= 2;
}

/** The text of the line around `at`, up to `at`. */
function lineBefore(text: string, at: number): string {
  return text.slice(text.lastIndexOf("\n", at - 1) + 1, at);
}

/**
 * A password option of a named tool: the option only counts on that tool's command line. The rule
 * runs only on a text that names one of the tools (`-a` and `-P` alone are everywhere).
 */
export function toolOption(tool: RegExp, names: string[], pattern: RegExp): Rule {
  return {
    id: "tool-option",
    category: "credential",
    keywords: names,
    find(text: string): Candidate[] {
      const out: Candidate[] = [];
      pattern.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = pattern.exec(text)) !== null) {
        let value = m[1];
        let start = m.indices![1]![0];
        // `--requirepass "\${REDIS_PASSWORD:-…}"`: the default written after the variable is the
        // value the tool gets when the variable is not set.
        const fallback = value.startsWith("\${") ? defaultOfReference(value) : null;
        if (fallback) [value, start] = [fallback.value, start + fallback.offset];
        if (!typedPassword(value) || !tool.test(lineBefore(text, start))) continue;
        out.push(headerCandidate("password", start, start + value.length));
      }
      return out;
    },
  };
}

/** `htpasswd -b[c] file user password` and `htpasswd -nb user password`. */
const htpasswdRule: Rule = {
  id: "htpasswd",
  category: "credential",
  keywords: ["htpasswd"],
  find(text: string): Candidate[] {
    const out: Candidate[] = [];
    const pattern = /\bhtpasswd((?:[ \t]+-[A-Za-z]+)+)((?:[ \t]+[^\s|;&>]+){2,3})/g;
    let m: RegExpExecArray | null;
    while ((m = pattern.exec(text)) !== null) {
      const flags = m[1];
      const args = m[2].trim().split(/[ \t]+/);
      // With -n there is no file: user and password; without it, file, user and password.
      if (!/b/.test(flags) || args.length !== (/n/.test(flags) ? 2 : 3)) continue;
      const quoted = /^(["'])(.*)\1$/.exec(args[args.length - 1]);
      const value = quoted ? quoted[2] : args[args.length - 1];
      if (!typedPassword(value)) continue;
      const end = m.index + m[0].length - (quoted ? 1 : 0);
      out.push({
        kind: "password",
        category: "credential",
        start: end - value.length,
        end,
        priority: PRIORITY.header,
        visible: 0,
      });
    }
    return out;
  },
};

/**
 * `ConvertTo-SecureString "…" -AsPlainText`: PowerShell's way to turn a literal into a credential,
 * its switches before or after the string (`-AsPlainText -Force -String '…'`). Without
 * `-AsPlainText` the string is an encrypted one, `ConvertFrom-SecureString`'s output.
 */
const secureStringRule: Rule = regexRule({
  kind: "password",
  pattern:
    /ConvertTo-SecureString((?:[ \t]+-(?!String\b)[A-Za-z]+)*)[ \t]+(?:-String[ \t]+)?(["'])([^"'\n]+)\2/gd,
  group: 3,
  anchors: ["ConvertTo-SecureString"],
  priority: PRIORITY.header,
  validate: (v, text, start) => typedPassword(v) && plainTextSwitch(text, start),
});

/** Whether the line around `at` gives `-AsPlainText` (with it the string is the password itself). */
function plainTextSwitch(text: string, at: number): boolean {
  let end = text.indexOf("\n", at);
  if (end === -1) end = text.length;
  return /-AsPlainText\b/i.test(text.slice(text.lastIndexOf("\n", at) + 1, end));
}

/** `"…" | ConvertTo-SecureString -AsPlainText -Force`: the literal piped into it. */
const pipedSecureStringRule: Rule = regexRule({
  kind: "password",
  pattern: /(["'])([^"'\n]+)\1[ \t]*\|[ \t]*ConvertTo-SecureString\b/gd,
  group: 2,
  keywords: ["ConvertTo-SecureString"],
  priority: PRIORITY.header,
  validate: (v, text, start) => typedPassword(v) && plainTextSwitch(text, start),
});

/**
 * `aws configure set aws_secret_access_key …`, `npm config set //host/:_authToken …`,
 * `git config --global sendemail.smtppass …`: a CLI's setting given by name, judged by its name.
 */
const configSetRule: Rule = {
  id: "config-set",
  category: "credential",
  keywords: ["config set", "configure set", "config --global", "config --local"],
  find(text: string, context: RuleContext): Candidate[] {
    const out: Candidate[] = [];
    const pattern =
      /\b(?:config|configure)[ \t]+(?:set[ \t]+|--(?:global|local|system)[ \t]+)(?:--?[\w-]+[ \t]+)*([\w.:/@-]+)[ \t]+(["']?)([^\s"']+)\2/gd;
    let m: RegExpExecArray | null;
    while ((m = pattern.exec(text)) !== null) {
      const name = m[1].slice(m[1].lastIndexOf(":") + 1);
      const cls = classifyName(name);
      if (!cls) continue;
      const value = m[3];
      if (
        !acceptValue(value, cls, { quoted: true, literalFile: true, thorough: context.thorough })
      ) {
        continue;
      }
      const start = m.indices![3]![0];
      const { kind, priority } = kindFor(name, cls, value);
      out.push({
        kind,
        category: "credential",
        start,
        end: start + value.length,
        priority,
        visible: 0,
      });
    }
    return out;
  },
};

/**
 * SQL that sets a password: `CREATE ROLE x WITH LOGIN PASSWORD '…'`, `ALTER USER x PASSWORD '…'`,
 * MySQL's `IDENTIFIED [WITH plugin] BY '…'` and `SET PASSWORD FOR u = PASSWORD('…')`, SQL Server's
 * `WITH PASSWORD = N'…' OLD_PASSWORD = N'…'` and `ENCRYPTION BY PASSWORD = '…'`, Oracle's `IDENTIFIED BY word` or
 * `"…"` (also in `CREATE DATABASE LINK … CONNECT TO u IDENTIFIED BY …`). Only in a statement that
 * creates or changes a user, role, login, link or key. `IDENTIFIED BY PASSWORD '…'` and
 * `IDENTIFIED BY VALUES '…'` give a stored hash, and `&name` / `:name` a script's variable.
 */
const SQL_PASSWORD =
  /(?<![\w.@])(?<!(?:IDENTIFIED|identified)[ \t]+(?:BY|by)[ \t]+)(?:OLD_)?(PASSWORD|password|Password|IDENTIFIED|identified)(?:[ \t]+(?:FOR|for)[ \t]+[^=\n;]{1,100}?(?=[ \t]*=))?(?:[ \t]+(?:WITH|with)[ \t]+\w+)?(?:[ \t]+(?:BY|by))?[ \t]*=?[ \t]*(?:(?:PASSWORD|password)?[ \t]*\([ \t]*)?(?:N?'([^'\n]{4,128})'|"([^"\n]{4,128})"|(?<=(?:BY|by)[ \t]+)(?!(?:VALUES|EXTERNALLY|GLOBALLY|PASSWORD|NULL|DEFAULT)\b)([A-Za-z][\w$#]{3,127})(?![\w$#(.]))/gd;

/** The statements a password is set in, on the line before the value. */
const SQL_STATEMENT =
  /\b(?:CREATE|ALTER)[ \t]+(?:USER|ROLE|LOGIN|DATABASE[ \t]+LINK|(?:PUBLIC[ \t]+)?DATABASE[ \t]+LINK)\b|\bGRANT\b|\bSET[ \t]+PASSWORD\b|\bCONNECT[ \t]+TO\b|\bBY[ \t]+PASSWORD[ \t]*=/i;

const sqlPasswordRule: Rule = {
  id: "sql-password",
  category: "credential",
  // Run only where a statement that sets a password is (the word `password` alone is everywhere).
  keywords: [
    "CREATE USER",
    "CREATE ROLE",
    "CREATE LOGIN",
    "ALTER USER",
    "ALTER ROLE",
    "ALTER LOGIN",
    "create user",
    "create role",
    "alter user",
    "alter role",
    "GRANT",
    "SET PASSWORD",
    "IDENTIFIED BY",
    "identified by",
    "BY PASSWORD",
  ],
  find(text: string): Candidate[] {
    const out: Candidate[] = [];
    SQL_PASSWORD.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = SQL_PASSWORD.exec(text)) !== null) {
      const group = m[2] !== undefined ? 2 : m[3] !== undefined ? 3 : 4;
      const value = m[group];
      // An unquoted value is Oracle's, after `IDENTIFIED BY` only.
      if (group === 4 && !/^identified$/i.test(m[1])) continue;
      const start = m.indices![group]![0];
      if (!typedPassword(value) || !SQL_STATEMENT.test(lineBefore(text, start))) continue;
      out.push(headerCandidate("password", start, start + value.length));
    }
    return out;
  },
};

/**
 * Oracle's tools log in as `user/password@database`: sqlplus, sqlldr (`userid=`), exp and imp,
 * expdp and impdp, dgmgrl, rman's `target`, `catalog` and `auxiliary`. `/@wallet` and
 * `/ as sysdba` log in without a password; `user/${VAR}@db` reads one.
 */
const oracleLoginRule: Rule = regexRule({
  kind: "password",
  pattern:
    /\b(?:sqlplus|sqlldr|expdp|impdp|exp|imp|dgmgrl|rman\b[^\n]*?\b(?:target|catalog|auxiliary)[ \t]*=?)(?:[ \t]+-\w+)*[ \t]+["']?(?:userid=)?[A-Za-z][\w$#]*\/([^\s@"'/]+)(?=@|[\s"']|$)/gd,
  group: 1,
  keywords: ["sqlplus", "sqlldr", "expdp", "impdp", "exp ", "imp ", "dgmgrl", "rman "],
  priority: PRIORITY.header,
  validate: (v) => typedPassword(v),
});

/**
 * SQL*Plus' own `CONNECT user/password@db` (`conn`), a line of a script it runs, and DB2's
 * `CONNECT TO db USER name USING password`.
 */
const sqlConnectRule: Rule = regexRule({
  kind: "password",
  pattern:
    /(?:(?<=^[ \t]*)(?:CONNECT|CONN|connect|conn)[ \t]+[A-Za-z][\w$#]*\/|(?<![\w.])(?:CONNECT|connect)[ \t]+(?:TO|to)[ \t]+\w+[ \t]+(?:USER|user)[ \t]+\S+[ \t]+(?:USING|using)[ \t]+["']?)([^\s@"'/;]+)/gmd,
  group: 1,
  // Tried only where one of these starts (`conn` is everywhere in code; the match fails at once).
  anchors: ["CONN", "conn"],
  priority: PRIORITY.header,
  validate: (v) => typedPassword(v),
});

/**
 * SQL Server's procedures that take a password: `sp_addlinkedsrvlogin` (the remote password, the
 * fifth argument or `@rmtpassword`), `sp_addlogin` (the second or `@passwd`), `sp_password` (the
 * old and the new), by position or by name, `N'…'` or `'…'`.
 */
const SQL_PROCEDURES: Record<string, number[]> = {
  sp_addlinkedsrvlogin: [4],
  sp_addlogin: [1],
  sp_password: [0, 1],
};

const sqlProcedureRule: Rule = {
  id: "sql-procedure-password",
  category: "credential",
  keywords: ["sp_addl", "sp_passw"],
  find(text: string): Candidate[] {
    const out: Candidate[] = [];
    const calls = /\b(sp_addlinkedsrvlogin|sp_addlogin|sp_password)\b[ \t]*\(?/g;
    let m: RegExpExecArray | null;
    while ((m = calls.exec(text)) !== null) {
      const places = SQL_PROCEDURES[m[1]];
      const args = listItems(text, m.index + m[0].length, true);
      args.forEach((arg, index) => {
        const item = /^(\s*(?:@(\w+)[ \t]*=[ \t]*)?N?)'([^'\n]*)'\s*$/.exec(arg.raw);
        if (!item) return;
        const named = item[2];
        if (named ? !/pass/i.test(named) : !places.includes(index)) return;
        if (!typedPassword(item[3])) return;
        const start = arg.start + item[1].length + 1;
        out.push(headerCandidate("password", start, start + item[3].length));
      });
    }
    return out;
  },
};

/** The values of one SQL tuple, `(1, 'a''b', NULL, now())`, each with its offset (quoted ones unquoted). */
function sqlTuple(
  text: string,
  open: number,
): { values: { value: string; start: number; quoted: boolean }[]; end: number } | null {
  const values: { value: string; start: number; quoted: boolean }[] = [];
  let i = open + 1;
  for (;;) {
    while (text[i] === " " || text[i] === "\t") i++;
    if (text[i] === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== "\n" && (text[j] !== "'" || text[j + 1] === "'")) {
        j += text[j] === "'" ? 2 : 1;
      }
      if (text[j] !== "'") return null;
      values.push({ value: text.slice(i + 1, j), start: i + 1, quoted: true });
      i = j + 1;
    } else {
      let j = i;
      let depth = 0;
      while (
        j < text.length && text[j] !== "\n" && (depth > 0 || (text[j] !== "," && text[j] !== ")"))
      ) {
        if (text[j] === "(") depth++;
        else if (text[j] === ")") depth--;
        j++;
      }
      values.push({ value: text.slice(i, j).trim(), start: i, quoted: false });
      i = j;
    }
    while (text[i] === " " || text[i] === "\t") i++;
    if (text[i] === ",") i++;
    else if (text[i] === ")") return { values, end: i + 1 };
    else return null;
  }
}

/**
 * `INSERT INTO t (id, name, client_secret) VALUES (7, 'erp', '…')`, as dumps write rows: each
 * quoted value is judged by the name of its column, as a value assigned to that name would be.
 */
const sqlInsertRule: Rule = {
  id: "sql-insert",
  category: "credential",
  keywords: ["INSERT INTO", "insert into"],
  find(text: string, context: RuleContext): Candidate[] {
    const out: Candidate[] = [];
    const pattern =
      /\b(?:INSERT|insert)[ \t]+(?:INTO|into)[ \t]+[\w."`\[\]]+[ \t]*\(([^()\n]+)\)[ \t]*(?:VALUES|values)[ \t]*(?=\()/g;
    let m: RegExpExecArray | null;
    while ((m = pattern.exec(text)) !== null) {
      const columns = m[1].split(",").map((c) => c.trim().replace(/^[`"[]|[`"\]]$/g, ""));
      const classes = columns.map((c) => classifyName(c));
      if (classes.every((c) => c === null)) continue;
      let at = m.index + m[0].length;
      // Every tuple of a multi-row insert: `VALUES (…), (…);`
      while (text[at] === "(") {
        const tuple = sqlTuple(text, at);
        if (!tuple) break;
        if (tuple.values.length === columns.length) {
          tuple.values.forEach((v, k) => {
            const cls = classes[k];
            if (!cls || !v.quoted) return;
            if (
              !acceptValue(v.value, cls, {
                quoted: true,
                literalFile: true,
                thorough: context.thorough,
              })
            ) {
              return;
            }
            const { kind, priority } = kindFor(columns[k], cls, v.value);
            out.push({
              kind,
              category: "credential",
              start: v.start,
              end: v.start + v.value.length,
              priority,
              visible: 0,
            });
          });
        }
        at = tuple.end;
        while (text[at] === " " || text[at] === "\t") at++;
        if (text[at] !== ",") break;
        at++;
        while (text[at] === " " || text[at] === "\t" || text[at] === "\n") at++;
      }
      pattern.lastIndex = Math.max(pattern.lastIndex, at);
    }
    return out;
  },
};

/**
 * Configuration directives that take a password after a space, no `=`: Redis' `requirepass` and
 * `masterauth`, keepalived's `auth_pass`, HAProxy's `stats auth user:password` and a userlist's
 * `insecure-password`. Commented-out directives are not read: the stock redis.conf ships
 * `# requirepass foobared` as its example.
 */
const directiveRule: Rule = regexRule({
  kind: "password",
  pattern:
    /(?<=^[ \t]*)(?:requirepass|masterauth|auth_pass|stats[ \t]+auth[ \t]+[^\s:]+:|user[ \t]+\S+[ \t]+insecure-password)[ \t]*["']?([^\s"']+)/gmd,
  group: 1,
  keywords: ["requirepass", "masterauth", "auth_pass", "stats auth", "insecure-password"],
  priority: PRIORITY.header,
  validate: (v) => typedPassword(v),
});

/**
 * Calls that take a password as a positional argument, with its place: JDBC's
 * `DriverManager.getConnection(url, user, password)`, PHP's `new mysqli(host, user, password, db)`,
 * `mysqli_connect(…)` and `new PDO(dsn, user, password)`, Sequelize's `new Sequelize(db, user,
 * password)`, Go's `smtp.PlainAuth(identity, user, password, host)`, Python's `smtp.login(user,
 * password)` (smtplib, ftplib, imaplib), .NET's `new NetworkCredential(user, password)`, Perl's
 * `DBI->connect(dsn, user, password)` and `$ftp->login(user, password)`, Python's
 * `MySQLdb.connect(host, user, password, db)` and `FTP(host, user, password)`, PHP's
 * `ldap_bind($link, dn, password)`, `ftp_login($link, user, password)` and
 * `ssh2_auth_password($session, user, password)`, sbt's `Credentials(realm, host, user,
 * password)`, Java's `new UsernamePasswordCredentials(user, password)` and
 * `new PasswordAuthentication(user, "…".toCharArray())`, OkHttp's `Credentials.basic(user,
 * password)`.
 */
/** The place of a password that is a call's last argument, of two or more. */
const LAST = -2;

const POSITIONAL: [RegExp, number, boolean?][] = [
  // Any object's `.login(user, password)`, an app's own client or a repository in a test: only a
  // password shaped as people choose one, since tests also log in with `"wrong-password"`. First,
  // so that a known receiver's entry below (the last that matches) wins.
  [/\.login[ \t]*\($/, 1, true],
  [/\bgetConnection[ \t]*\($/, 2],
  [
    /\bnew[ \t]+mysqli[ \t]*\($|\bmysqli_connect[ \t]*\($|\bmysqli_real_connect[ \t]*\([^,()]*,$/,
    2,
  ],
  [/\bnew[ \t]+PDO[ \t]*\($/, 2],
  [/\bnew[ \t]+Sequelize[ \t]*\($/, 2],
  [/\bPlainAuth[ \t]*\($/, 2],
  [/\b(?:smtp|ftp|imap|server|mail|conn|client|ftps|M)\.login[ \t]*\($/, 1],
  [/\bNetworkCredential[ \t]*\($/, 1],
  // doobie's `Transactor.fromDriverManager[IO](driver, url, user, password)`
  [/\bfromDriverManager(?:\[[^\]\n]*\])?[ \t]*\($/, 3],
  [/\bDBI[ \t]*->[ \t]*connect(?:_cached)?[ \t]*\($|\b(?:MySQLdb|pymysql)\.connect[ \t]*\($/, 2],
  [/->login[ \t]*\($/, 1],
  [/\bFTP(?:_TLS)?[ \t]*\($/, 2],
  [/\b(?:ldap_bind|ftp_login|ssh2_auth_password)[ \t]*\($/, 2],
  [/(?:^|[^\w.])Credentials[ \t]*\($/, 3],
  [
    /\b(?:UsernamePasswordCredentials|PasswordAuthentication)[ \t]*\($|\bCredentials\.basic[ \t]*\($/,
    1,
  ],
  // The C client's `mysql_real_connect(conn, host, user, password, …)`.
  [/\bmysql_real_connect[ \t]*\($/, 3],
  // Groovy's `Sql.newInstance(url, user, password, driver)`.
  [/\bSql\.newInstance[ \t]*\($/, 2],
  // MongoDB's `MongoCredential.createCredential(user, database, password)` and its SCRAM variants.
  [/\bcreate\w*Credential[ \t]*\($/, 2],
  // akka's `BasicHttpCredentials(user, password)`, lettre's `Credentials::new(user, password)`,
  // R httr's `authenticate(user, password)`.
  [/\bBasicHttpCredentials[ \t]*\($|\bCredentials::new[ \t]*\($|\bauthenticate[ \t]*\($/, 1],
  // LWP's `$ua->credentials(host:port, realm, user, password)`.
  [/->credentials[ \t]*\($/, 3],
  // Ruby's `Net::SMTP.start(host, port, helo, user, password, :login)` and
  // `Net::FTP.open(host, user, password)`.
  [/\bNet::SMTP\.start[ \t]*\($/, 4],
  [/\bNet::FTP\.(?:open|new)[ \t]*\($/, 2],
  // JavaMail's `Transport.send(msg, user, password)` (and with the recipients before them), and a
  // transport's or a message store's `connect([host, [port,]] user, password)`: the last one.
  [/\bTransport\.send[ \t]*\($|\b\w*(?:[Tt]ransport|[Ss]tore)\.connect[ \t]*\($/, LAST],
];

/**
 * One string literal as a call's argument, with the wrappers languages put around a password:
 * Java's `"…".toCharArray()`, Rust's `"…".to_string()` and `Some("…")`, Objective-C's `@"…"`,
 * C++'s `std::string("…")`. Group 1 is what comes before the opening quote, 3 the value.
 */
const LITERAL_ARGUMENT =
  /^(\s*(?:Some\(|String::from\(|std::string\(|@)?)(["'`])(.*)\2(?:\.(?:toCharArray|to_string|to_owned|into)\(\))?\)?\s*$/;

const positionalRule: Rule = {
  id: "positional-password",
  category: "credential",
  keywords: [
    "getConnection",
    "mysqli",
    "PDO",
    "Sequelize",
    "PlainAuth",
    ".login",
    "NetworkCredential",
    "fromDriverManager",
    // Specific spellings: `connect`, `login` and `Credentials` alone are in most code.
    "DBI",
    "MySQLdb.connect",
    "pymysql.connect",
    "->login",
    "FTP(",
    "FTP_TLS(",
    "ldap_bind",
    "ftp_login",
    "ssh2_auth_password",
    "Credentials(",
    "Credentials.basic",
    "PasswordAuthentication",
    "mysql_real_connect",
    "Sql.newInstance",
    "Credential(",
    "Credentials::new",
    "authenticate(",
    "->credentials",
    "Net::SMTP",
    "Net::FTP",
    "ransport.",
    "tore.connect",
  ],
  find(text: string): Candidate[] {
    const out: Candidate[] = [];
    const calls =
      /(?:getConnection|mysqli(?:_real)?(?:_connect)?|PDO|Sequelize|PlainAuth|\.login|NetworkCredential|fromDriverManager(?:\[[^\]\n]*\])?|DBI[ \t]*->[ \t]*connect(?:_cached)?|->login|(?:MySQLdb|pymysql)\.connect|FTP(?:_TLS)?|ldap_bind|ftp_login|ssh2_auth_password|Credentials(?:\.basic|::new)?|PasswordAuthentication|mysql_real_connect|Sql\.newInstance|create\w*Credential|BasicHttpCredentials|authenticate|->credentials|Net::SMTP\.start|Net::FTP\.(?:open|new)|Transport\.send|\w*(?:[Tt]ransport|[Ss]tore)\.connect)(?:\]::new)?[ \t]*\(/g;
    let m: RegExpExecArray | null;
    while ((m = calls.exec(text)) !== null) {
      const open = m.index + m[0].length;
      // PowerShell's `[System.Net.NetworkCredential]::new(…)` is a constructor like `new …(…)`.
      const head = text.slice(text.lastIndexOf("\n", m.index) + 1, open)
        .replace(/\]::new([ \t]*\()$/, "$1");
      let place = -1;
      let strict = false;
      for (const [pattern, index, shaped] of POSITIONAL) {
        if (pattern.test(head)) [place, strict] = [index, shaped === true];
      }
      // mysqli_real_connect($link, host, user, password): one more argument before the host.
      if (place === -1 && /\bmysqli_real_connect[ \t]*\($/.test(head)) place = 3;
      if (place === -1) continue;
      const args = listItems(text, open);
      const arg = place === LAST
        ? (args.length >= 2 ? args[args.length - 1] : undefined)
        : args[place];
      if (!arg) continue;
      const literal = LITERAL_ARGUMENT.exec(arg.raw);
      if (!literal || !typedPassword(literal[3])) continue;
      if (strict && (literal[3].length < 8 || classCount(literal[3]) < 3)) continue;
      const start = arg.start + literal[1].length + 1;
      out.push({
        kind: "password",
        category: "credential",
        start,
        end: start + literal[3].length,
        priority: PRIORITY.header,
        visible: 0,
      });
    }
    return out;
  },
};

/**
 * A call that logs in or connects, given a user and then a password as two literals in a row:
 * `cx_Oracle.connect("scott", "…", dsn)`, `oci_connect('u', '…', db)`, `gomail.NewDialer(host,
 * 587, "u", "…")`, `pika.PlainCredentials("u", "…")`, `l.simple_bind_s(dn, "…")`,
 * `client.auth.basic("u", "…")`, a driver's `->connect(url, "u", "…")`. The calls whose place of
 * the password is known are read by the table above; this reads the rest by shape: only a password
 * as people choose one (eight or more characters of three kinds, one of them a symbol other than
 * `_`, `-` and `.`, so that a handler's or a protocol's name is not one; no space), after a literal.
 */
const LOGIN_CALL =
  /(?:[Cc]onnect|[Ll]ogin|Credentials?|Dialer|simple_bind(?:_s)?|bind_s|\.basic)\w*[ \t]*\(/g;

const loginCallRule: Rule = {
  id: "login-call-password",
  category: "credential",
  keywords: ["onnect(", "ogin(", "Credential", "Dialer(", "bind_s(", "simple_bind", ".basic("],
  find(text: string): Candidate[] {
    const out: Candidate[] = [];
    const calls = LOGIN_CALL;
    calls.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = calls.exec(text)) !== null) {
      const args = listItems(text, m.index + m[0].length);
      let previousLiteral = false;
      for (const arg of args) {
        const literal = LITERAL_ARGUMENT.exec(arg.raw);
        const value = literal?.[3];
        if (
          literal && value !== undefined && previousLiteral && value.length >= 8 &&
          !/\s/.test(value) && classCount(value) >= 3 && /[^\w.-]/.test(value) &&
          typedPassword(value) &&
          !/^[a-z][a-z0-9+.-]*:\/\//i.test(value)
        ) {
          const start = arg.start + literal[1].length + 1;
          out.push({
            kind: "password",
            category: "credential",
            start,
            end: start + value.length,
            priority: PRIORITY.generic,
            visible: 0,
          });
          break;
        }
        previousLiteral = literal !== null;
      }
    }
    return out;
  },
};

/**
 * A literal echoed into a command that reads a password from standard input: `echo '…' | sudo -S`,
 * `echo "user:…" | chpasswd`, `| passwd --stdin user`, `| docker login -u x --password-stdin`.
 */
const echoedPasswordRule: Rule = regexRule({
  kind: "password",
  pattern:
    /\b(?:echo|printf)[ \t]+(?:-[neE]+[ \t]+)?(["']?)(?:[\w.-]+:(?=[^\s"'|]*\1[ \t]*\|[ \t]*chpasswd))?([^\s"'|$]+)\1[ \t]*\|[ \t]*(?=sudo[ \t][^|\n]*-\w*S\b|chpasswd\b|passwd[ \t]+--stdin\b|[^|\n]*--password-stdin\b)/gd,
  group: 2,
  keywords: ["sudo", "chpasswd", "--stdin", "--password-stdin"],
  priority: PRIORITY.header,
  validate: (v) => typedPassword(v),
});

/** RabbitMQ's `rabbitmqctl add_user NAME PASSWORD` and `change_password NAME PASSWORD`. */
const rabbitmqRule: Rule = regexRule({
  kind: "password",
  pattern:
    /\brabbitmqctl[ \t]+(?:add_user|change_password)[ \t]+["']?[^\s"']+["']?[ \t]+(["']?)([^\s"']+)\1/gd,
  group: 2,
  keywords: ["rabbitmqctl"],
  priority: PRIORITY.header,
  validate: (v) => typedPassword(v),
});

/**
 * A literal handed to a function that hashes a password: the hash is computed at run time, so the
 * password itself is in the source (Puppet's `postgresql_password(user, '…')`, Django's
 * `make_password('…')`, Werkzeug's `generate_password_hash('…')`, PHP's `password_hash('…', …)`,
 * bcrypt's `hashpw(b'…', …)`, Ruby's `BCrypt::Password.create('…')`). The password is the call's
 * last string argument that is not a keyword argument.
 */
const hashedLiteralRule: Rule = {
  id: "hashed-literal",
  category: "credential",
  keywords: [
    "postgresql_password",
    "mysql_password",
    "make_password",
    "generate_password_hash",
    "password_hash",
    "hashpw",
    "Password.create",
    "hashPassword",
    "hash_password",
  ],
  find(text: string): Candidate[] {
    const out: Candidate[] = [];
    const calls =
      /\b(?:postgresql_password|mysql_password|make_password|generate_password_hash|password_hash|hashpw|BCrypt::Password\.create|hashPassword|hash_password)[ \t]*\(/g;
    let m: RegExpExecArray | null;
    while ((m = calls.exec(text)) !== null) {
      const args = listItems(text, m.index + m[0].length);
      for (let n = args.length - 1; n >= 0; n--) {
        const literal = /^(\s*)[bB]?(["'`])([^"'`\n]*)\2\s*$/.exec(args[n].raw);
        if (!literal) continue;
        // Judged as a password assigned in code would be: seeds and tests hash `testpass` too.
        const value = literal[3];
        if (
          typedPassword(value) &&
          acceptValue(value, "password", { quoted: true, literalFile: false, thorough: false })
        ) {
          const start = args[n].start + args[n].raw.indexOf(literal[2]) + 1;
          out.push({
            kind: "password",
            category: "credential",
            start,
            end: start + literal[3].length,
            priority: PRIORITY.header,
            visible: 0,
          });
        }
        break;
      }
    }
    return out;
  },
};

/** The rules of this file, in the order the scanner runs them. */
export const COMMAND_RULES: Rule[] = [
  // `redis-server --requirepass …` (a compose file's `command:`, a container's arguments).
  toolOption(
    /\bredis-server\b/,
    ["redis-server"],
    /(?<=\s)--(?:requirepass|masterauth)[ \t]+["']?([^\s"'|;&]+)/gd,
  ),
  hashedLiteralRule,
  toolOption(
    /\bredis-cli\b/,
    ["redis-cli"],
    /(?<=\s)(?:-a|--pass)[ \t]+["']?([^\s"'|;&]+)/gd,
  ),
  toolOption(
    /\b(?:sqlcmd|bcp|osql|isql)\b/,
    ["sqlcmd", "bcp", "osql", "isql"],
    /(?<=\s)-P[ \t]*["']?([^\s"'|;&]+)/gd,
  ),
  toolOption(
    /\b(?:keytool|jarsigner|apksigner)\b/,
    ["keytool", "jarsigner", "apksigner"],
    /(?<=\s)-(?:src|dest)?(?:store|key)pass[ \t]+(?:pass:)?["']?([^\s"'|;&]+)/gd,
  ),
  toolOption(
    /\bopenssl\b/,
    ["openssl"],
    /(?<=\s)-pass(?:in|out|word)?[ \t]+["']?pass:([^\s"'|;&]+)/gd,
  ),
  toolOption(
    /\bldap(?:search|modify|add|delete|whoami|passwd|compare|modrdn)\b/,
    ["ldapsearch", "ldapmodify", "ldapadd", "ldapdelete", "ldapwhoami", "ldappasswd"],
    /(?<=\s)-w[ \t]+["']?([^\s"'|;&]+)/gd,
  ),
  // Windows' `net use \\server\share /user:DOMAIN\name password`
  toolOption(
    /\bnet[ \t]+use\b/i,
    ["/user:", "/USER:", "/User:"],
    /(?<=\s)\/user:[^\s/]+[ \t]+["']?([^\s"'|;&/][^\s"'|;&]*)/gdi,
  ),
  htpasswdRule,
  echoedPasswordRule,
  rabbitmqRule,
  secureStringRule,
  pipedSecureStringRule,
  configSetRule,
  sqlPasswordRule,
  sqlProcedureRule,
  oracleLoginRule,
  sqlConnectRule,
  sqlInsertRule,
  directiveRule,
  positionalRule,
  loginCallRule,
];
