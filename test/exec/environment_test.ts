/**
 * The command environment: the policy as a pure function, then the real
 * runner under the real launcher, where `env`, `cat /proc/self/environ`,
 * `printenv` and the /proc files of wisp's own process must not show a secret
 * that wisp's environment holds.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import {
  carriesUrlPassword,
  commandEnvironment,
  DEFAULT_POLICY,
  type EnvironmentPolicy,
  namesMatcher,
} from "../../src/exec/environment.ts";
import { configSchema } from "../../src/config/schema.ts";
import { runCommand } from "../../src/exec/runner.ts";
import { config, request, scratch, stdoutText } from "./support.ts";

const SECRET = "wisp-test-secret-" + crypto.randomUUID();

/** A caller's environment with the kinds of variables a real one holds. */
const SOURCE: Record<string, string> = {
  HOME: "/home/me",
  PATH: "/usr/bin:/bin",
  LANG: "C.UTF-8",
  LC_ALL: "C.UTF-8",
  TERM: "xterm-256color",
  SSL_CERT_FILE: "/etc/ssl/certs/ca-certificates.crt",
  HTTPS_PROXY: "http://proxy.corp:3128",
  HTTP_PROXY: `http://bob:${SECRET}@proxy.corp:3128`,
  GITHUB_TOKEN: SECRET,
  GH_TOKEN: SECRET,
  OPENAI_API_KEY: SECRET,
  ANTHROPIC_API_KEY: SECRET,
  NPM_TOKEN: SECRET,
  AWS_ACCESS_KEY_ID: "AKIA",
  AWS_SECRET_ACCESS_KEY: SECRET,
  AWS_SESSION_TOKEN: SECRET,
  AWS_PROFILE: "prod",
  DB_PASSWORD: SECRET,
  my_service_secret: SECRET,
  PGPASSWD: SECRET,
  SLACK_WEBHOOK_CREDENTIALS: SECRET,
  BASIC_AUTH: SECRET,
  HTTP_AUTHORIZATION: SECRET,
  GITLAB_PAT: SECRET,
  SMTP_PASS: SECRET,
  MYSQL_PWD: SECRET,
  SENTRY_DSN: SECRET,
  DATABASE_URL: `postgres://app:${SECRET}@db/app`,
  SSH_AUTH_SOCK: "/tmp/ssh-x/agent.1",
  TMUX: "/tmp/tmux-1000/default,123,0",
  DISPLAY: ":0",
  DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/1000/bus",
  GIT_AUTHOR_NAME: "Me",
  EDITOR: "vi",
  PROJECT_FLAG: "on",
};

function policy(extra: Partial<EnvironmentPolicy> = {}): EnvironmentPolicy {
  return { ...DEFAULT_POLICY, ...extra };
}

Deno.test("the default policy keeps the core set and nothing that looks like a credential", () => {
  const { env, withheld } = commandEnvironment(policy(), SOURCE);
  assertEquals(Object.keys(env).sort(), [
    "HOME",
    "HTTPS_PROXY",
    "LANG",
    "LC_ALL",
    "PATH",
    "SSL_CERT_FILE",
    "TERM",
  ]);
  assert(!JSON.stringify(env).includes(SECRET));
  assert(withheld.includes("GITHUB_TOKEN") && withheld.includes("HTTP_PROXY"));
  assertEquals(withheld.length, Object.keys(SOURCE).length - 7);
});

Deno.test("inherit all passes the rest but still withholds credentials, addresses and URL passwords", () => {
  const { env } = commandEnvironment(policy({ inherit: "all" }), SOURCE);
  assert(!JSON.stringify(env).includes(SECRET), JSON.stringify(env));
  for (const name of ["EDITOR", "PROJECT_FLAG", "GIT_AUTHOR_NAME", "HOME", "HTTPS_PROXY"]) {
    assertEquals(env[name], SOURCE[name], name);
  }
  for (
    const name of [
      "AWS_PROFILE",
      "AWS_ACCESS_KEY_ID",
      "SSH_AUTH_SOCK",
      "TMUX",
      "DISPLAY",
      "DBUS_SESSION_BUS_ADDRESS",
      "DATABASE_URL",
      "HTTP_PROXY",
    ]
  ) {
    assert(!(name in env), name);
  }
});

Deno.test("inherit none gives nothing but what include and set add", () => {
  assertEquals(commandEnvironment(policy({ inherit: "none" }), SOURCE).env, {});
  const { env } = commandEnvironment(
    policy({ inherit: "none", include: ["PATH", "project_*"], set: { CI: "1" } }),
    SOURCE,
  );
  assertEquals(env, { PATH: "/usr/bin:/bin", PROJECT_FLAG: "on", CI: "1" });
});

Deno.test("include names a credential on purpose; exclude wins over every step but set", () => {
  const { env } = commandEnvironment(
    policy({ include: ["NPM_TOKEN", "EDITOR"], exclude: ["lang", "LC_*", "EDITOR"] }),
    SOURCE,
  );
  assertEquals(env.NPM_TOKEN, SECRET);
  assert(!("EDITOR" in env) && !("LANG" in env) && !("LC_ALL" in env));
  const set = commandEnvironment(policy({ exclude: ["HOME"], set: { HOME: "/sandbox" } }), SOURCE);
  assertEquals(set.env.HOME, "/sandbox");
});

Deno.test("patterns match whole names regardless of case; ? is one character; the rest is literal", () => {
  const match = namesMatcher(["*key*", "A?C", "X.Y", "LC_*"]);
  assert(match("OPENAI_API_KEY") && match("keyring") && match("ABC") && match("X.Y"));
  assert(!match("AC") && !match("ABBC") && !match("XzY") && !match("LANG"));
  assert(!namesMatcher([])("ANY"));
});

Deno.test("a URL with a password is recognised in any value; one without is not", () => {
  assert(carriesUrlPassword("http://u:p@h:1"));
  assert(carriesUrlPassword("x=1 redis://:pw@cache:6379/0"));
  assert(!carriesUrlPassword("http://proxy.corp:3128"));
  assert(!carriesUrlPassword("git@github.com:me/repo.git"));
  assert(!carriesUrlPassword("https://user@host/"));
});

Deno.test("the settings load with defaults, and malformed ones make the config malformed", () => {
  const parsed = configSchema.parse({});
  assertEquals(parsed.commandPolicy.sandbox.environment, DEFAULT_POLICY);
  for (
    const bad of [
      { inherit: "some" },
      { include: ["A=B"] },
      { exclude: [""] },
      { set: { "A*": "1" } },
      { set: { A: 1 } },
    ]
  ) {
    const result = configSchema.safeParse({ commandPolicy: { sandbox: { environment: bad } } });
    assert(!result.success, JSON.stringify(bad));
  }
});

/** Run `line` through the real runner with wisp's environment holding the secret. */
async function withSecretInEnvironment<T>(run: () => Promise<T>): Promise<T> {
  const names = ["GITHUB_TOKEN", "WISP_TEST_SESSION_TOKEN", "HTTP_PROXY"];
  const before = names.map((n) => Deno.env.get(n));
  Deno.env.set("GITHUB_TOKEN", SECRET);
  Deno.env.set("WISP_TEST_SESSION_TOKEN", SECRET);
  Deno.env.set("HTTP_PROXY", `http://me:${SECRET}@proxy.invalid:1`);
  try {
    return await run();
  } finally {
    names.forEach((n, i) =>
      before[i] === undefined ? Deno.env.delete(n) : Deno.env.set(n, before[i]!)
    );
  }
}

Deno.test("a sandboxed command's env, /proc/self/environ and printenv hold no secret of wisp's", async () => {
  const s = await scratch();
  try {
    await withSecretInEnvironment(async () => {
      const lines = [
        "env",
        "cat /proc/self/environ",
        "printenv GITHUB_TOKEN WISP_TEST_SESSION_TOKEN HTTP_PROXY",
        "tr '\\0' '\\n' < /proc/$$/environ",
        // wisp's own process and the launcher: another PID namespace hides them.
        `cat /proc/${Deno.pid}/environ; cat /proc/$PPID/environ; cat /proc/1/environ`,
        "for f in /proc/[0-9]*/environ; do cat $f; done",
      ];
      for (const line of lines) {
        for (const outsideSandbox of [false, true]) {
          const r = await runCommand(request(s, line, { outsideSandbox }));
          assert(
            !r.rendered.includes(SECRET),
            `${line} (outside: ${outsideSandbox}): ${r.rendered}`,
          );
        }
      }
      const env = await runCommand(request(s, "env"));
      assertEquals(env.exitStatus, 0, env.rendered);
      assertStringIncludes(stdoutText(env), `HOME=${Deno.env.get("HOME")}`);
      // The person may hand one over by name.
      const included = await runCommand(request(s, "printenv GITHUB_TOKEN", {
        config: config({
          commandPolicy: { sandbox: { environment: { include: ["GITHUB_TOKEN"] } } },
        }),
      }));
      assertEquals(stdoutText(included), SECRET + "\n");
    });
  } finally {
    await s.cleanup();
  }
});

Deno.test("every origin gets the policy's environment: a custom tool's, triage's, the person's, wisp sandbox's", async () => {
  const s = await scratch();
  try {
    await withSecretInEnvironment(async () => {
      for (
        const origin of ["person", "custom_tool", "triage", "watch", "draft", "sandbox"] as const
      ) {
        const r = await runCommand(request(s, "env; echo done", { origin }));
        assertStringIncludes(r.rendered, "done");
        assert(!r.rendered.includes(SECRET), origin);
      }
    });
  } finally {
    await s.cleanup();
  }
});

Deno.test("a PATH set by the policy is the command's, and the launcher is still found on wisp's", async () => {
  const s = await scratch();
  try {
    const r = await runCommand(request(s, 'echo "$PATH"; /usr/bin/env', {
      config: config({
        commandPolicy: {
          sandbox: { environment: { inherit: "none", set: { PATH: "/nowhere:/usr/bin:/bin" } } },
        },
      }),
    }));
    assertEquals(r.exitStatus, 0, r.rendered);
    const lines = stdoutText(r).trim().split("\n");
    assertEquals(lines[0], "/nowhere:/usr/bin:/bin");
    assertEquals(lines.filter((l) => !l.startsWith("PWD=")).slice(1), [
      "PATH=/nowhere:/usr/bin:/bin",
    ]);
  } finally {
    await s.cleanup();
  }
});
