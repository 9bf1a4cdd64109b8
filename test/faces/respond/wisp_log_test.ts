/**
 * WISP_LOG in a plain `wisp "…"` run against the fake model: at debug,
 * stderr mirrors wisp's own diagnostics (the home and config read, the model
 * and why, the gate's path for the line, the launcher's argv with secrets
 * masked, step timings) and stdout and the rest of stderr are exactly what
 * they are without it; at error, none of those; unset, nothing at all.
 */
import { assert, assertEquals, assertMatch } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { ollamaConfig, scratch } from "./support.ts";

// A GitHub token shape the secret scanner knows (made up: 36 characters after ghp_).
const TOKEN = "ghp_" + "Zq3xV8mN2pL5rT7wY9bK4cH6dJ1fG0sA2eU8";

async function runWith(level: string | undefined) {
  const ollama = startFakeOllama();
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    ollama.reply(
      {
        toolCalls: [{
          name: "run_command",
          arguments: { command: `echo hi; true ${TOKEN}` },
        }],
      },
      { text: "Said hi." },
    );
    const run = await s.wisp(["--no-stream", "say hi"], {
      env: level === undefined ? {} : { WISP_LOG: level },
    });
    return { run, home: s.home };
  } finally {
    await ollama.close();
    await s.remove();
  }
}

Deno.test("WISP_LOG=debug: diagnostics on stderr, stdout unchanged, secrets masked", async () => {
  const quiet = await runWith(undefined);
  assertEquals(quiet.run.code, 0, quiet.run.stderr);
  assert(!/^wisp: /m.test(quiet.run.stderr), `unset: no diagnostics:\n${quiet.run.stderr}`);

  const { run, home } = await runWith("debug");
  assertEquals(run.code, 0, run.stderr);
  assertEquals(run.stdout, quiet.run.stdout, "stdout is the same with and without WISP_LOG");
  const all = run.stderr.trim().split("\n");
  const lines = all.filter((l) => l.startsWith("wisp: "));
  assertEquals(
    all.filter((l) => !l.startsWith("wisp: ")).join("\n"),
    quiet.run.stderr.trim(),
    "besides its diagnostics, stderr says what it says without WISP_LOG",
  );
  for (const line of lines) assertMatch(line, /^wisp: (debug|info|error): /, line);
  const has = (pattern: RegExp, what: string) =>
    assert(lines.some((l) => pattern.test(l)), `${what} is not logged:\n${run.stderr}`);
  has(
    new RegExp(`^wisp: debug: home ${home}; config ${home}/config\\.json read$`),
    "home and config",
  );
  has(/^wisp: debug: model ollama:granite4\.1:8b, chosen by config\.json's model$/, "the model");
  has(
    /^wisp: debug: model request http:\/\/127\.0\.0\.1:\d+\/api\/chat: \d+ ms/,
    "a model step's time",
  );
  has(/^wisp: debug: gate "echo hi; true .*": .*→ allowed by /, "the gate's path");
  has(/^wisp: debug: gate "echo hi; true .*": \d+ ms/, "the gate's time");
  has(/^wisp: debug: launcher: "[^"]*(bwrap|sh)"/, "the launcher's argv");
  has(/^wisp: debug: command ran \d+ ms \(\w+\), exit status: 0$/, "the command's time");
  assert(!run.stderr.includes(TOKEN), `the token reached the log:\n${run.stderr}`);

  const errorsOnly = await runWith("error");
  assertEquals(errorsOnly.run.code, 0);
  assertEquals(errorsOnly.run.stderr, quiet.run.stderr, "error: a run without errors logs nothing");
  assertEquals(errorsOnly.run.stdout, quiet.run.stdout);
});
