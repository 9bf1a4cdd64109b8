/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, the
 * version pinned in deno.json, installed from npm with the other test tools)
 * against the real `wisp mcp --http 127.0.0.1:PORT`: every server scenario
 * that applies to wisp, each against a fresh server (one client session per
 * server, as over stdio), with the expected-failures file the suite reads,
 * which is empty. The scenarios that do not apply, and why, are in
 * docs/mcp.md ("The conformance suite"). The suite cannot send a header, so
 * a preload hands it the bearer token wisp printed (conformance/bearer_preload.ts),
 * as a configured HTTP client would send it; the Host and Origin headers
 * are the suite's own.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { assert, assertEquals } from "../../support/assert.ts";
import { DENO_CONFIG, wispCommand } from "../../support/wisp.ts";
import { mcpScratch } from "./support.ts";

/** The suite, as deno.json pins it. */
const SUITE = "npm:@modelcontextprotocol/conformance@0.1.16";
const HERE = fileURLToPath(new URL("./conformance/", import.meta.url));
const PRELOAD = join(HERE, "bearer_preload.ts");
const EXPECTED_FAILURES = join(HERE, "expected-failures.yml");

/** The server scenarios that apply to wisp (docs/mcp.md says why the others do not). */
export const APPLICABLE = [
  "server-initialize",
  "ping",
  "tools-list",
  "resources-list",
  "logging-set-level",
  "completion-complete",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
];

/** Start `wisp mcp --http 127.0.0.1:0` in a scratch home; its URL and token from the banner. */
async function startHttp(home: string, cwd: string) {
  const [cmd, ...args] = wispCommand();
  const child = new Deno.Command(cmd, {
    args: [...args, "mcp", "--http", "127.0.0.1:0"],
    cwd,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/root",
      WISP_HOME: home,
      NO_COLOR: "1",
    },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let err = "";
  while (!/Bearer [0-9a-f]{64}\n/.test(err)) {
    const { value, done } = await stderr.read();
    if (done) throw new Error(`wisp mcp ended before serving: ${err}`);
    err += value;
  }
  const m = /serving (http:\/\/127\.0\.0\.1:\d+\/mcp); .*Bearer ([0-9a-f]{64})\n/.exec(err);
  assert(m, err);
  // Keep reading stderr so the server never blocks on a full pipe.
  const drained = (async () => {
    for (;;) {
      const { done } = await stderr.read().catch(() => ({ done: true }));
      if (done) return;
    }
  })();
  return {
    url: m[1],
    token: m[2],
    stop: async () => {
      try {
        child.kill("SIGTERM");
      } catch { /* ended already */ }
      await child.status;
      await drained;
    },
  };
}

for (const scenario of APPLICABLE) {
  Deno.test(`conformance: ${scenario}`, async () => {
    const s = await mcpScratch({ notifications: { enabled: false } });
    const server = await startHttp(s.home, s.project);
    try {
      const run = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          "--config",
          DENO_CONFIG,
          "--preload",
          PRELOAD,
          SUITE,
          "server",
          "--url",
          server.url,
          "--scenario",
          scenario,
          "--expected-failures",
          EXPECTED_FAILURES,
        ],
        env: {
          WISP_CONFORMANCE_URL: server.url,
          WISP_CONFORMANCE_TOKEN: server.token,
          NO_COLOR: "1",
        },
        stdin: "null",
      }).output();
      const out = new TextDecoder().decode(run.stdout) + new TextDecoder().decode(run.stderr);
      // The suite colours its lines whatever NO_COLOR says; the colour codes go.
      // deno-lint-ignore no-control-regex
      const plain = out.replaceAll(/\x1b\[[0-9;]*m/g, "");
      const result = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(plain);
      assert(result, `the suite printed no result:\n${plain}`);
      const [, passed, total, failed, warnings] = result.map(Number);
      assert(total >= 1, `the scenario ran no check:\n${plain}`);
      assertEquals({ passed, failed, warnings }, { passed: total, failed: 0, warnings: 0 }, plain);
      assertEquals(run.code, 0, plain);
    } finally {
      await server.stop();
      await s.remove();
    }
  });
}
