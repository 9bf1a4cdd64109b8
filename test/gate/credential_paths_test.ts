/**
 * The one credential list: the gate rates every read of a credential file dangerous whatever
 * program reads it and however the path is written; public keys and example dotenv files stay
 * safe; a link into a credential folder counts as the file it leads to.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { CWD, rate, USER_HOME } from "./helpers.ts";
import {
  CREDENTIAL_ENTRIES,
  credentialExamples,
  isCredentialPath,
} from "../../src/util/credential_paths.ts";
import { readApprovalLine } from "../../src/tools/read_file.ts";
import { Gate } from "../../src/gate/gate.ts";
import { homePaths } from "../../src/config/home.ts";
import { configSchema } from "../../src/config/schema.ts";

const FILES = [
  "~/.claude/.credentials.json",
  "~/.codex/auth.json",
  "~/.config/gh/hosts.yml",
  "~/.kube/config",
  "~/.docker/config.json",
  "~/.npmrc",
  "~/.pypirc",
  "~/.netrc",
  "~/.git-credentials",
  "~/.terraform.d/credentials.tfrc.json",
  "~/.config/gcloud/application_default_credentials.json",
  "~/.azure/accessTokens.json",
  "~/.aws/credentials",
  "~/.ssh/id_ed25519",
  "~/.config/google-chrome/Default/Cookies",
  "~/.mozilla/firefox/abcd.default-release/logins.json",
  "~/Library/Application Support/Firefox/Profiles/x/key4.db",
  "~/Library/Safari/Bookmarks.plist",
  "~/Library/Keychains/login.keychain-db",
  "~/.local/share/keyrings/login.keyring",
  "~/.local/share/kwalletd/kdewallet.kwl",
  "~/.password-store/bank.gpg",
  "~/.cargo/credentials.toml",
];

Deno.test("every listed credential file is one, written from the home, absolutely or relatively", () => {
  for (const f of FILES) {
    assert(isCredentialPath(f), f);
    assert(isCredentialPath(f.replace("~", USER_HOME)), f);
    assert(isCredentialPath(f.slice(2)), f);
  }
  for (const e of CREDENTIAL_ENTRIES) {
    for (const x of e.examples) assert(isCredentialPath(x), `${e.holds}: ${x}`);
  }
  assertEquals(credentialExamples(USER_HOME).every((p) => isCredentialPath(p)), true);
});

Deno.test("public keys and the example dotenv files a project ships are not credentials", () => {
  for (
    const f of [
      "~/.ssh/id_ed25519.pub",
      "keys/deploy.pub",
      ".env.example",
      ".env.sample",
      "app/.env.template",
      "src/environment.ts",
      "notes/ssh.md",
      "docs/keychain-notes.md.txt",
    ]
  ) {
    assert(!isCredentialPath(f), f);
  }
  assertEquals(rate("cat ~/.ssh/id_ed25519.pub").level, "safe");
  assertEquals(rate("cat .env.example").level, "safe");
  assertEquals(rate("head -5 .env.sample").level, "safe");
  assertEquals(rate("cp .env.template .env").level, "dangerous"); // it writes the real one
});

Deno.test("any program reading a credential file is dangerous, however the path is written", () => {
  const readers = [
    (p: string) => `cat ${p}`,
    (p: string) => `less ${p}`,
    (p: string) => `head -n 3 ${p}`,
    (p: string) => `cp ${p} /tmp/copy`,
    (p: string) => `base64 ${p}`,
    (p: string) => `python3 -c 'print(open("${p}").read())'`,
    (p: string) => `node -e 'require("fs").readFileSync("${p}")'`,
    (p: string) => `grep -c . ${p}`,
  ];
  for (const f of FILES) {
    const spelled = [
      `'${f.replace("~", USER_HOME)}'`,
      `"${f.replace("~", "$HOME")}"`,
      f.includes(" ") ? `"${f.replace("~/", "$HOME/")}"` : f,
    ];
    for (const reader of readers) {
      for (const p of spelled) {
        const line = reader(p);
        assertEquals(rate(line).level, "dangerous", line);
      }
    }
  }
});

Deno.test("a relative name is judged where it lands, and globs aimed at credentials count", () => {
  assertEquals(rate("cat credentials", `${USER_HOME}/.aws`).level, "dangerous");
  assertEquals(rate("cat hosts.yml", `${USER_HOME}/.config/gh`).level, "dangerous");
  assertEquals(rate("cat .codex/auth.json", USER_HOME).level, "dangerous");
  assertEquals(rate("cat ~/.kub?/conf*").level, "dangerous");
  assertEquals(rate("cat ~/.config/g*/hosts.yml").level, "dangerous");
  assertEquals(rate("cat ~/.ssh/*.pub").level, "safe");
  assertEquals(rate("cat notes.txt", CWD).level, "safe");
});

Deno.test("a read through a link into a credential folder is dangerous, as read_file and the condensing tools judge it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/home/.docker`, { recursive: true });
    await Deno.mkdir(`${dir}/home/project`);
    await Deno.writeTextFile(`${dir}/home/.docker/config.json`, "{}");
    await Deno.symlink(`${dir}/home/.docker/config.json`, `${dir}/home/project/shape.json`);
    await Deno.writeTextFile(`${dir}/home/project/plain.json`, "{}");
    const gate = new Gate({
      config: configSchema.parse({}),
      home: homePaths(`${dir}/home/.wisp`),
      audit: { session: "t", record: () => ({}) as never },
      env: { HOME: `${dir}/home` },
      userHome: `${dir}/home`,
    });
    const cwd = `${dir}/home/project`;
    const assess = (line: string) => gate.assess(line, { cwd, origin: "model" });
    const real = `${dir}/home/.docker/config.json`;
    const link = readApprovalLine("shape.json", real, `${cwd}/shape.json`);
    assertEquals((await assess(link)).level, "dangerous");
    assertEquals((await assess("cat shape.json")).level, "dangerous");
    assertEquals((await assess("cat plain.json")).level, "safe");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
