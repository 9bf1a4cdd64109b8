/**
 * The trap batch (trap_batch.ts): files that hold no credential and no personal data, only things
 * shaped like them, written before the rules were read. Nothing in them may be reported, with or
 * without personal data, over twelve draws of their hashes, ids and keys. Beside it, each mechanism
 * that keeps a class of look-alike out is checked on both sides: the look-alike is left out, and a
 * real value of the same shape is still reported.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { trapBatch } from "./trap_batch.ts";
import { wispFindings } from "./corpus_eval.ts";
import { scanText } from "../../src/secrets/scanner.ts";
import {
  insideResourceName,
  isFormatPlaceholder,
  isPeriodic,
  isRelativeFilePath,
  isSigningKeyId,
  isSopsCiphertext,
  isStandInPhrase,
  isWrappedPasswordHash,
} from "../../src/secrets/lookalikes.ts";
import {
  isFictionalNumber,
  notAMailbox,
  underProductCodeName,
} from "../../src/secrets/personal_lookalikes.ts";
import { isCommonPassword } from "../../src/secrets/common_passwords.ts";
import { ALNUM, B64, rng, Values } from "./corpus_values.ts";

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/** Every finding on the batch, as `seed/path:line kind` (each one is a false alarm). */
function falseAlarms(personal: boolean): string[] {
  const out: string[] = [];
  for (const seed of SEEDS) {
    for (const [path, text] of Object.entries(trapBatch(seed))) {
      for (const f of wispFindings(path, text, personal)) {
        out.push(`${seed}/${path}:${f.line} ${f.kind}`);
      }
    }
  }
  return out;
}

Deno.test("the trap batch spans the kinds of look-alike the brief names", () => {
  const paths = Object.keys(trapBatch(1));
  assert(paths.length >= 80, `only ${paths.length} files`);
  for (
    const suffix of [
      "package-lock.json",
      "yarn.lock",
      "pnpm-lock.yaml",
      "go.sum",
      "Cargo.lock",
      "poetry.lock",
      "Gemfile.lock",
      "composer.lock",
      "index.html",
      ".min.js",
      ".js.map",
      ".css",
      ".svg",
      ".ipynb",
      ".pem",
      "authorized_keys",
      "known_hosts",
      ".asc",
      "shadow",
      ".htpasswd",
      "users.json",
      "secrets.enc.yaml",
      "web1.yml",
      "sealed-db.yaml",
      "credentials.env",
      "SHA256SUMS",
      "flake.lock",
      "test_aws_config.py",
      "emulators.env",
      "authentication.md",
      "views.py",
      "auth.ts",
      "en.yml",
      "de.json",
      "messages_fr.properties",
      "products.csv",
      "networking.md",
      "spellings.env",
      ".patch",
    ]
  ) assert(paths.some((p) => p.endsWith(suffix)), `the trap batch has no ${suffix} file`);
});

Deno.test("credentials: nothing in the trap batch is reported (12 draws)", () => {
  assertEquals(falseAlarms(false), []);
});

Deno.test("with personal data, nothing in the trap batch is reported either (12 draws)", () => {
  assertEquals(falseAlarms(true), []);
});

const v = new Values(rng(2222));

/** The values `scanText` reports in `text` read as `path`. */
function found(path: string, text: string, personal = false): string[] {
  return scanText(text, { path, personal }).map((f) => text.slice(f.start, f.end));
}

Deno.test("value look-alikes are told apart from generated secrets of the same shape", () => {
  const random = v.mixed(ALNUM, 32);
  assert(isPeriodic("1234567890abcdef1234567890abcdef") && isPeriodic("abcabcabcab"));
  assert(!isPeriodic(random) && !isPeriodic("abcabcabX"));
  assert(isFormatPlaceholder("%(password)s") && isFormatPlaceholder("%s"));
  assert(isFormatPlaceholder("{0}") && !isFormatPlaceholder("%Harbor9373"));
  assert(isStandInPhrase("fake_db_password_for_tests"));
  assert(!isStandInPhrase("harbor-maple-orbit-42") && !isStandInPhrase("correct-horse-staple"));
  assert(!isStandInPhrase("django-insecure-" + random));
  assert(isSopsCiphertext(`ENC[AES256_GCM,data:${v.mixed(B64, 20)}=,iv:${v.mixed(B64, 43)}=,`));
  assert(!isSopsCiphertext(`ENC(${random})`));
  assert(isWrappedPasswordHash("bcrypt_sha256$$2b$12$" + v.mixed(ALNUM + "./", 53)));
  assert(!isWrappedPasswordHash("secret$$" + random));
  assert(isRelativeFilePath("uploads/2024/05/4904e6bf-69bb-4414-812a-7dba8bd0f52e.pdf"));
  // An AWS secret holds `/` and may end in letters after a dot-free run: not a path.
  assert(!isRelativeFilePath(v.mixed(ALNUM, 22) + "/" + v.mixed(ALNUM, 17)));
  assert(!isRelativeFilePath("a1B2c3D4e5F6g7H8i9J0k/Lm3N.pq"));
  assert(isSigningKeyId("signingkey", "3AA5C34371567BD2"));
  assert(
    !isSigningKeyId("signing-key", v.hex(40)) && !isSigningKeyId("api_key", "3AA5C34371567BD2"),
  );
  const arn = "key: arn:aws:secretsmanager:eu-central-1:123456789012:secret:prod/db-AbCdEf";
  assert(insideResourceName(arn, arn.indexOf("secret:prod")));
  assert(!insideResourceName("secret: prod-db", 0));
});

Deno.test("look-alikes in files, and the real values beside them still found", () => {
  const pat = "ghp_" + v.mixed(ALNUM, 36);
  const secret = v.mixed(ALNUM, 32);
  const password = v.mixed(ALNUM, 18);
  assertEquals(
    found(
      "config/.env",
      [
        "DB_PASSWORD=fake_db_password_for_tests",
        "TOKEN=1234567890abcdef1234567890abcdef",
        "DATABASE_URL=postgres://app:%(password)s@db/app",
        `DATABASE_URL=postgres://app:${password}@db/app`,
        `SESSION_SECRET=${secret}`,
        "AWS_SECRET_ACCESS_KEY=je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY",
        `GITHUB_TOKEN=${pat}`,
        "",
      ].join("\n"),
    ),
    [password, secret, pat],
  );
  // sops keeps the name and encrypts the value; an ARN holds `secret:` without assigning it.
  const enc = `ENC[AES256_GCM,data:${v.mixed(B64, 24)}=,iv:${v.mixed(B64, 43)}=,tag:${
    v.mixed(B64, 22)
  }==,type:str]`;
  assertEquals(
    found(
      "deploy/app.json",
      `{"DB_PASSWORD": "${enc}", "API_TOKEN": "${secret}",\n "ref": "arn:aws:secretsmanager:eu-central-1:123456789012:secret:prod/db-${
        v.mixed(ALNUM, 6)
      }"}\n`,
    ),
    [secret],
  );
  // git's signingkey is a key id; a signing key of a JWT library is a secret.
  assertEquals(
    found(".gitconfig", `[user]\n\tsigningkey = ${v.hex(16).toUpperCase()}\n`),
    [],
  );
  assertEquals(found("application.yml", `jwt:\n  signing-key: ${secret}\n`), [secret]);
  // Azurite's published key is the same on every machine; another account's key is a secret.
  const key = v.mixed(B64, 86) + "==";
  assertEquals(
    found(
      "local.settings.json",
      `{"Emulator": "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;",\n "Prod": "DefaultEndpointsProtocol=https;AccountName=ledger;AccountKey=${key};"}\n`,
    ),
    [key],
  );
});

Deno.test("detect-secrets' other spellings of its allow comment are honoured", () => {
  const secret = v.mixed(ALNUM, 32);
  assertEquals(
    found(
      ".env",
      [
        `A_SECRET=${v.mixed(ALNUM, 32)} # pragma: allowlist-secret`,
        `B_SECRET=${v.mixed(ALNUM, 32)} # pragma: whitelist secret`,
        "# pragma: whitelist nextline secret",
        `C_SECRET=${v.mixed(ALNUM, 32)}`,
        `D_SECRET=${secret} # allowlisted upstream, not here`,
        "",
      ].join("\n"),
    ),
    [secret],
  );
});

Deno.test("personal look-alikes: logins, algorithm names, no-reply hosts, fiction's numbers, product codes", () => {
  const text = "ssh -p 2222 -i ~/.ssh/id deploy@bastion.acme-corp.io";
  const at = text.indexOf("deploy@");
  assert(notAMailbox("deploy@bastion.acme-corp.io", text, at, text.length));
  const prose = "ssh access: write to ops@acme-corp.io";
  assert(!notAMailbox("ops@acme-corp.io", prose, prose.indexOf("ops@"), prose.length));
  assert(notAMailbox("sk-ssh-ed25519@openssh.com", "", 0, 0));
  assert(!notAMailbox("djm@openssh.com", "", 0, 0));
  assert(notAMailbox("release-bot@users.noreply.github.com", "", 0, 0));
  assert(isFictionalNumber("+44 20 7946 0958") && isFictionalNumber("07700 900123"));
  assert(!isFictionalNumber("+44 20 7946 1958") && !isFictionalNumber("+49 30 7946 0958"));
  const csv = "sku,ean,card\nABC-1,4084181837477,4111\n";
  assert(underProductCodeName(csv, csv.indexOf("4084")));
  assert(!underProductCodeName("card_number: 4084181837477", 13));
  // In files: the look-alikes are left out and the addresses and numbers beside them reported.
  const email = "maria.lopez@acme-corp.io";
  const card = v.luhnComplete("4", 16);
  assertEquals(
    found(
      "notes.md",
      [
        "rsync -a backup@files.acme-corp.io:/srv/backup/ ./backup/",
        `Ask ${email} for access.`,
        "Fax +44 20 7946 0958; mobile +44 20 7946 1958.",
        "",
      ].join("\n"),
      true,
    ),
    [email, "+44 20 7946 1958"],
  );
  assertEquals(
    found("orders.csv", `ean,card\n4084181837477,${card}\n`, true),
    [card],
  );
});

Deno.test("an allow comment covers the statement it is written on, not the next one", () => {
  const key = v.pem("RSA PRIVATE KEY", 600);
  const real = v.mixed(ALNUM, 32);
  const allowed = () => v.mixed(ALNUM, 32);
  // A key in triple quotes, closed on a line that carries the comment.
  assertEquals(found("keys_test.py", `TEST_KEY = """${key}\n"""  # gitleaks:allow\n`), []);
  // The comment on the head line that opens the value below it.
  assertEquals(
    found("keys_test.py", `TEST_KEY = (  # pragma: allowlist secret\n    "${key}"\n)\n`),
    [],
  );
  assertEquals(
    found("values.yaml", `tls:\n  key: |  # gitleaks:allow\n    ${key.replace(/\n/g, "\n    ")}\n`),
    [],
  );
  // A command continued over lines with `\`, the comment on its last line.
  assertEquals(
    found(
      "deploy.sh",
      `curl -H "Authorization: Bearer ${allowed()}" \\\n  https://api.example.org  # gitleaks:allow\n`,
    ),
    [],
  );
  // The statement after an allowed one, and a value below a line that opens nothing, are reported.
  assertEquals(
    found(".env", `A_SECRET=${allowed()}  # gitleaks:allow\nB_SECRET=${real}\n`),
    [real],
  );
  assertEquals(
    found("deploy.sh", `export A_SECRET=${allowed()}  # gitleaks:allow\nexport B_SECRET=${real}\n`),
    [real],
  );
});

Deno.test("other scanners' and linters' inline spellings are honoured; a general one is not", () => {
  const real = v.mixed(ALNUM, 32);
  const allowed = () => v.mixed(ALNUM, 32);
  assertEquals(
    found(
      "settings.py",
      [
        `A_SECRET = "${allowed()}"  # trufflehog:ignore`,
        `B_SECRET = "${allowed()}"  # ggignore`,
        `C_SECRET = "${allowed()}"  # nosec B105`,
        `D_SECRET = "${allowed()}"  # noqa: E501, S105`,
        `E_SECRET = "${real}"  # noqa: E501`,
        "",
      ].join("\n"),
    ),
    [real],
  );
  assertEquals(
    found(
      "client.js",
      [
        `const aSecret = "${allowed()}"; // secretlint-disable-line`,
        "// secretlint-disable-next-line",
        `const bSecret = "${allowed()}";`,
        `const cSecret = "${allowed()}"; // #nosec G101`,
        `const dSecret = "${real}"; // NOSONAR`,
        "",
      ].join("\n"),
    ),
    [real],
  );
});

Deno.test("passwords anyone would try first are examples; a chosen one of the same make is not", () => {
  for (
    const pw of [
      "p4ssw0rd",
      "P@$$w0rd",
      "MyP@ssw0rd",
      "s3cr3tp4ss",
      "Ch@ngeMe!",
      "Tr0ub4dor&3",
      "Summer2024!",
      "December23",
      "1q2w3e4r",
      "!QAZ2wsx",
      "zaq12wsx",
      "Monkey123!",
      "raspberry",
      "calvin",
    ]
  ) {
    assert(isCommonPassword(pw), pw);
    assertEquals(found("tests/fixtures/users.yml", `admin:\n  password: ${pw}\n`), [], pw);
  }
  for (
    const pw of [
      `Falcon${v.int(100, 9999)}!`,
      `Harbor!Maple${v.int(10, 9999)}`,
      `orbit-candle-velvet-${v.int(10, 99)}`,
      `Quartz#${v.mixed(ALNUM, 6)}${v.int(10, 99)}`,
      v.mixed(ALNUM, 14),
    ]
  ) {
    assert(!isCommonPassword(pw), pw);
    assertEquals(found(".env", `DB_PASSWORD=${pw}\n`), [pw]);
  }
});

Deno.test("a number after a phone word is a phone number only when the word stands alone", () => {
  const a = `030 ${v.int(2000, 8999)} ${v.int(1000, 9999)}`;
  const b = `0${v.int(151, 179)} ${v.int(1000000, 9999999)}`;
  const c = `06 ${v.int(10, 99)} ${v.int(10, 99)} ${v.int(10, 99)} ${v.int(10, 99)}`;
  assertEquals(
    found(
      "contacts.txt",
      [
        `homePhone: ${a}`,
        `Telefonnummer: ${b}`,
        `phone_number = "${c}"`,
        "Hotel booking 20240517 0042, room 1204",
        "Telemetry id 8837 2611 9054",
        "",
      ].join("\n"),
      true,
    ),
    [a, b, c],
  );
});
