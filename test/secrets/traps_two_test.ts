/**
 * The second trap batch (trap_batch_two.ts): look-alikes of kinds the first batch has few of, with
 * real credentials planted beside them in files of the same kinds. Over twelve draws nothing but
 * the planted values may be reported, by default, with personal data and with `--thorough`, and
 * every planted value must be found. Beside it, each mechanism that keeps a class of look-alike
 * out is checked on both sides: the look-alike is left out, a real value of the same shape is
 * still reported, and generated tokens are never taken for the look-alike.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { trapBatchTwo } from "./trap_batch_two.ts";
import { scanText, shebangExtension } from "../../src/secrets/scanner.ts";
import {
  hasStructuredRepeats,
  isAlphabet,
  isCommandLine,
  isEncodedText,
  isInstruction,
  isLocator,
  isPadded,
  isProse,
  isValidationRules,
  isWordIdentifier,
} from "../../src/secrets/lookalikes.ts";
import { madeOfStandInWords } from "../../src/secrets/allowlist.ts";
import { ALNUM, B64, B64URL, rng, Values } from "./corpus_values.ts";

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/** Findings on anything but a planted value, and planted values not found, over the twelve draws. */
function measure(personal: boolean, thorough: boolean): { alarms: string[]; missed: string[] } {
  const alarms: string[] = [];
  const missed: string[] = [];
  for (const seed of SEEDS) {
    const { files, expected } = trapBatchTwo(seed);
    for (const [path, text] of Object.entries(files)) {
      const planted = expected
        .filter((e) => e.path === path && (personal || thorough || !e.personal))
        .map((e) => {
          const start = text.indexOf(e.value);
          assert(start >= 0, `${path}: a planted value is not in its file`);
          return { start, end: start + e.value.length, found: false };
        });
      for (const f of scanText(text, { path, personal, thorough })) {
        const hit = planted.find((p) => f.start < p.end && f.end > p.start);
        if (hit) hit.found = true;
        else alarms.push(`${seed}/${path}:${f.line} ${f.kind}`);
      }
      for (const p of planted) {
        if (!p.found) missed.push(`${seed}/${path}:${text.slice(0, p.start).split("\n").length}`);
      }
    }
  }
  return { alarms, missed };
}

Deno.test("the second trap batch spans the kinds of look-alike its brief names", () => {
  const { files, expected } = trapBatchTwo(1);
  const paths = Object.keys(files);
  assert(paths.length >= 30, `only ${paths.length} files`);
  assert(expected.filter((e) => !e.personal).length >= 20, "too few planted credentials");
  for (
    const suffix of [
      "getting-started.md",
      "deploy.yml",
      "secret.yaml",
      "bootstrap.sh",
      "secrets.tpl.env",
      "providers.md",
      "test_client.py",
      "passwordPolicy.ts",
      "fr.json",
      "ja.yml",
      "app.po",
      "LoginForm.tsx",
      "schema.sql",
      "artifacts.json",
      "api.log",
      "vendor.min.js",
      "icons.css",
      ".crt",
      "jwt-public.pem",
      ".pub",
      "jwt.md",
      ".env.example",
      "help.txt",
      "flags.go",
      "main.tf",
      "security.yaml",
      "release-notes.md",
      "vectors_test.go",
      "collection.postman.json",
      "all.yml",
      "README.md",
      "allowed.sql",
    ]
  ) assert(paths.some((p) => p.endsWith(suffix)), `the batch has no ${suffix} file`);
});

Deno.test("credentials: only the planted values are reported, and all of them (12 draws)", () => {
  assertEquals(measure(false, false), { alarms: [], missed: [] });
});

Deno.test("with personal data: only the planted values, and all of them (12 draws)", () => {
  assertEquals(measure(true, false), { alarms: [], missed: [] });
});

Deno.test("thorough mode: only the planted values, and all of them (12 draws)", () => {
  assertEquals(measure(true, true), { alarms: [], missed: [] });
});

const v = new Values(rng(2727));

/** The values `scanText` reports in `text` read as `path`. */
function found(
  path: string,
  text: string,
  options: { personal?: boolean; thorough?: boolean } = {},
) {
  return scanText(text, { path, ...options }).map((f) => text.slice(f.start, f.end));
}

Deno.test("value look-alikes: instructions, rule lists, padding, locators, prose, commands", () => {
  assert(isInstruction("generate-with-openssl-rand-hex-32") && isInstruction("ask ops for it"));
  assert(!isInstruction("orchard-maple-velvet") && !isInstruction("generate"));
  assert(isValidationRules("min:12|max:128|mixedCase") && isValidationRules("same:password"));
  assert(!isValidationRules("orchard|maple") && !isValidationRules(v.mixed(ALNUM, 20)));
  assert(isPadded("ghp_PersonalAccessToken01245678900000000"));
  assert(!isPadded("ghp_" + v.mixed(ALNUM, 36)) && !isPadded(v.mixed(B64, 38) + "AAAAAA"));
  assert(
    isLocator("sm://prod/redis-password") && isLocator("urn:ietf:params:oauth:token-type:jwt"),
  );
  assert(
    !isLocator("redis://:" + v.mixed(ALNUM, 20) + "@cache:6379") && !isLocator("https://x.io/a"),
  );
  assert(isProse("Mot de passe") && isProse("パスワード") && isProse("Regex must pass"));
  assert(!isProse("correct horse battery staple") && !isProse(v.mixed(ALNUM, 24)));
  assert(isCommandLine("openssl rand -hex 32") && !isCommandLine("Orchard#Maple 42"));
  // In files: each look-alike beside a real value of its shape.
  const secret = v.mixed(ALNUM, 32);
  const chosen = `Kestrel!${v.mixed(ALNUM, 5)}${v.int(10, 99)}`;
  assertEquals(
    found(
      "config/app.env",
      [
        "ENCRYPTION_KEY=generate-with-openssl-rand-hex-32",
        "REDIS_PASSWORD=sm://acme-prod/redis-password",
        "API_TOKEN=ref+vault://secret/data/api#token",
        `SESSION_SECRET=${secret}`,
        `DB_PASSWORD=${chosen}`,
        "",
      ].join("\n"),
    ),
    [secret, chosen],
  );
  assertEquals(
    found(
      "scripts/boot.sh",
      `SESSION_SECRET=\`openssl rand -hex 32\`\nADMIN_PASSWORD="\${1:-}"\n`,
      {
        thorough: true,
      },
    ),
    [],
  );
});

Deno.test("stand-in words run together and test words are stand-ins; chosen words are not", () => {
  assert(madeOfStandInWords("supersecrettoken") && madeOfStandInWords("mypersonalaccesstoken123"));
  assert(madeOfStandInWords("wrong-password") && madeOfStandInWords("new_secret"));
  assert(!madeOfStandInWords("orchardmapletoken") && !madeOfStandInWords("secretive"));
  const chosen = `Orchard${v.int(1000, 9999)}!maple`;
  assertEquals(
    found(
      "tests/test_login.py",
      `client.login("alice", password="wrong-password")\nclient.login("bob", password="${chosen}")\n`,
    ),
    [chosen],
  );
});

Deno.test("names in code: a camel-case name, the value's own name, a + join, a shebang script", () => {
  const token = v.mixed(ALNUM, 40);
  assertEquals(
    found(
      "src/auth.ts",
      [
        "scope.authorization = approvedAuthorization;",
        "const credential = '_callApiKey' in client;",
        "this.accessToken = accessToken;",
        'finalKey = "__Secure-" + key;',
        `const apiToken = "${token}";`,
        "",
      ].join("\n"),
    ),
    [token],
  );
  assertEquals(shebangExtension("#!/usr/bin/env node\n"), ".js");
  assertEquals(shebangExtension("#!/usr/bin/env -S deno run -A\n"), ".ts");
  assertEquals(shebangExtension("#!/bin/sh\n"), "");
  // An npm `bin` file without an extension is code: logic in it is not a value.
  const script = "#!/usr/bin/env node\nnew Client({auth:e.token||process.env.GITHUB_TOKEN});\n";
  assertEquals(found("node_modules/.bin/tool", script), []);
  assertEquals(found("node_modules/.bin/tool", script + `const apiToken = "${token}";\n`), [
    token,
  ]);
});

Deno.test("URLs: an anonymous login and a badge's token are not secrets; a login and an API's token are", () => {
  const password = v.mixed(ALNUM, 18);
  const token = v.mixed(ALNUM, 24);
  assertEquals(
    found(
      "docs/links.md",
      [
        `See ftp://anonymous:${v.mixed(ALNUM, 12)}@ftp.acme-corp.io/pub or ftp://deploy:` +
        password +
        "@ftp.acme-corp.io/in",
        `![cov](https://codecov.io/gh/acme/api/graph/badge.svg?token=${v.mixed(ALNUM, 10)})`,
        `curl "https://api.acme-corp.io/v1/export?token=${token}"`,
        "",
      ].join("\n"),
    ),
    [password, token],
  );
});

Deno.test("nameless strings: names, tables, encoded text, alphabets and named ids are not secrets", () => {
  assert(isWordIdentifier("_AbstractChatCompletionRunner_validateParams"));
  assert(isWordIdentifier("__wbg_queueMicrotask_78d584b53af520f5"));
  assert(hasStructuredRepeats("AfBgDgBBOrWrWBHHBCBICCVuMuMnBBBzBBBE4B4BBGBcDBHQBXhGhGxBBB8B"));
  assert(
    isEncodedText(btoa("This is an encoded string")) && isEncodedText(btoa('{"alg":"HS256"}')),
  );
  assert(isAlphabet("useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict"));
  // Generated tokens of every alphabet and length the rule sees are never taken for these.
  const random = new Values(rng(31));
  for (const alphabet of [ALNUM, B64, B64URL]) {
    for (const n of [32, 40, 48, 64, 86]) {
      for (let i = 0; i < 400; i++) {
        const s = random.mixed(alphabet, n);
        assert(
          !isWordIdentifier(s) && !hasStructuredRepeats(s) && !isEncodedText(s) && !isAlphabet(s),
          s,
        );
      }
    }
  }
  // In a file: the nameless random string is reported; the same shape named as an id, a cursor or a
  // digest, or wrapped in a block of base64 lines, is not.
  const blob = v.mixed(B64, 44);
  const lines = Array.from({ length: 4 }, () => v.mixed(B64, 76)).join("\n");
  assertEquals(
    found(
      "notes.txt",
      [
        `"upload_id": "${v.mixed(B64URL, 48)}",`,
        `"next_cursor": "${v.mixed(B64URL, 40)}",`,
        `expect(sha256base64.parse("${v.mixed(B64, 43)}=")).toBe(true);`,
        `const wasm = \`\n${lines}\n\`;`,
        `leftover ${blob} here`,
        "",
      ].join("\n"),
      { thorough: true },
    ),
    [blob],
  );
});

Deno.test("numbers: +1 run together is North American, a unit makes a count, zeros make a filler IBAN", () => {
  const real = `+1415${v.int(200, 999)}${v.int(1000, 9999)}`;
  assertEquals(
    found(
      "notes.md",
      [
        "The index grew by +15550142 bytes; delta +1555014200 ns.",
        "Call tel:+14155550123 (fiction's range) or " + real + ".",
        "Filler: DE00000000000000000066, TR610000100000000000000001.",
        "",
      ].join("\n"),
      { personal: true },
    ),
    [real],
  );
});

Deno.test("tags, replace tokens, braced lookups and one-word labels are not values; literals beside them are", () => {
  const secret = v.mixed(ALNUM, 32);
  const chosen = `Juniper%${v.mixed(ALNUM, 5)}${v.int(10, 99)}`;
  // A password may start with `!` as a tag does; its digits say it is no tag.
  const bang = `!Q${v.mixed(ALNUM, 10)}_${v.int(10, 99)}`;
  assertEquals(
    found(
      "config/settings.yaml",
      [
        "mqtt:",
        "  password: !env_var MQTT_PASSWORD",
        "  token: '@@API_TOKEN@@'",
        '  secret: "@format {env[APP_SECRET]}"',
        "  smtp_password: Contraseña",
        `  api_secret: ${secret}`,
        `  db_password: ${chosen}`,
        `  admin_password: ${bang}`,
        "",
      ].join("\n"),
      { thorough: true },
    ),
    [secret, chosen, bang],
  );
});

Deno.test("thorough mode: a piece of a known look-alike, or a value the name rule judged, is no nameless secret", () => {
  const blob = v.mixed(B64, 44);
  const salt = v.mixed(ALNUM + "./", 16);
  const text = [
    `edge-07:$7$101$${salt}$${v.mixed(B64, 86)}==`,
    `viewer password $6$${salt}$${v.mixed(ALNUM + "./", 86)}`,
    `<password>{AQAAABAAAAAQ${v.mixed(B64, 64)}=}</password>`,
    `db_password: ENC[AES256_GCM,data:${v.mixed(B64, 24)}=,iv:${v.mixed(B64, 43)}=,type:str]`,
    "kind: SealedSecret",
    "spec:",
    "  encryptedData:",
    `    password: AgB${v.mixed(B64, 300)}==`,
    `note ${blob} end`,
    "",
  ].join("\n");
  assertEquals(found("deploy/mixed.yaml", text, { thorough: true }), [blob]);
});
