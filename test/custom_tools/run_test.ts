/**
 * Custom tools called as the model calls them — through a session's registry,
 * its real gate and the real sandboxed runner — with values built to break
 * out of their argument. Each run prints every argument the command received
 * between brackets, so the test reads back exactly what the shell was given.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { homePaths } from "../../src/config/home.ts";
import { configSchema } from "../../src/config/schema.ts";
import { Session } from "../../src/session/session.ts";
import { renderCommand } from "../../src/tools/custom.ts";
import { quoteWord } from "../../src/util/shell_words.ts";
import type { AuditEvent } from "../../src/audit/catalogue.ts";
import type { CustomToolDef } from "../../src/tools/custom_validate.ts";

const echoArgs: CustomToolDef = {
  name: "show_args",
  description: "Prints each argument it is given between brackets.",
  arguments: {
    a: { type: "string", description: "first" },
    b: { type: "string", description: "second", default: "B" },
  },
  command: "printf '[%s]' {a} {b}",
};

const typed: CustomToolDef = {
  name: "typed",
  description: "Prints an integer, a number, a boolean and a choice.",
  arguments: {
    n: { type: "integer" },
    x: { type: "number", default: 0.5 },
    flag: { type: "boolean", default: false },
    mode: { type: "string", enum: ["fast", "slow"], default: "fast" },
  },
  command: "printf '[%s]' {n} {x} {flag} {mode}",
};

async function withSession(
  custom: CustomToolDef[],
  body: (session: Session, project: string) => Promise<void>,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "wisp-custom-" }));
  const project = join(dir, "project");
  await Deno.mkdir(project, { recursive: true });
  const session = Session.open({
    face: "test",
    paths: homePaths(join(dir, "home")),
    config: configSchema.parse({ ...extra, tools: { ...(extra.tools ?? {}), custom } }),
    root: project,
    yes: true,
  });
  try {
    await body(session, project);
  } finally {
    session.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** Call a tool in a turn of its own; `events` is everything audited meanwhile (the gate's included). */
async function call(session: Session, name: string, args: unknown, turn = {}) {
  const events: AuditEvent[] = [];
  const off = session.audit.onEvent((e) => events.push(e));
  const t = session.beginTurn({ budgetBytes: 16 * 1024, ...turn });
  try {
    const result = await session.registry.call(name, args, t.context);
    return { result, events };
  } finally {
    off();
  }
}

Deno.test("quoting: it's becomes 'it'\\''s'; one pass leaves {other} as text", () => {
  assertEquals(quoteWord("it's"), `'it'\\''s'`);
  assertEquals(renderCommand(echoArgs, { a: "{b}", b: "x" }), `printf '[%s]' '{b}' 'x'`);
  assertEquals(renderCommand(echoArgs, { a: "1" }), `printf '[%s]' '1' 'B'`);
  assertEquals(
    renderCommand(typed, { n: -3, x: 2.25, flag: true, mode: "slow" }),
    "printf '[%s]' -3 2.25 true 'slow'",
  );
});

const hostile = [
  "it's",
  "'; touch PWNED; echo '",
  "$(touch PWNED)",
  "`touch PWNED`",
  "line one\nline two; touch PWNED",
  "{b}",
  "{a}",
  '\\\'"$HOME"\\',
  "a b\tc",
  "-n",
  "",
  "$((1+1)) ${PATH} * ? [x] ~ &  | > PWNED",
];

Deno.test("hostile values reach the command as one argument each, exactly, and nothing else runs", async () => {
  await withSession([echoArgs], async (session, project) => {
    for (const value of hostile) {
      const { result, events } = await call(session, "show_args", { a: value, b: value });
      assertEquals(
        result.text,
        `exit status: 0\nstdout:\n[${value}][${value}]`,
        `value ${JSON.stringify(value)}`,
      );
      const outcome = events.find((e) => e.kind === "command.outcome");
      assertEquals(outcome?.origin, "custom_tool");
      assertEquals(outcome?.command, renderCommand(echoArgs, { a: value, b: value }));
      assertEquals(outcome?.sandbox, "confined");
    }
    const made = [...Deno.readDirSync(project)].map((e) => e.name);
    assertEquals(made, [], "a value ran a command of its own");
  });
});

Deno.test("defaults fill in; integers, numbers and booleans go in as written; enums are checked", async () => {
  await withSession([typed], async (session) => {
    const first = await call(session, "typed", { n: 7 });
    assertEquals(first.result.text, "exit status: 0\nstdout:\n[7][0.5][false][fast]");
    const second = await call(session, "typed", { n: -1, x: 3, flag: true, mode: "slow" });
    assertEquals(second.result.text, "exit status: 0\nstdout:\n[-1][3][true][slow]");
    for (
      const [args, why] of [
        [{ n: 1, mode: "medium" }, /mode must be one of fast, slow/],
        [{ n: "7" }, /n must be a number/],
        [{ n: 1.5 }, /^error: bad arguments for typed: n must be a int/],
        [{}, /^error: bad arguments for typed: n must be a number/],
        [{ n: 1, extra: 1 }, /unknown argument extra/],
        [{ n: 1, flag: "true" }, /flag must be a boolean/],
      ] as const
    ) {
      const { result, events } = await call(session, "typed", args);
      assertEquals(result.ok, false);
      assertMatch(result.text, why);
      assertEquals(events.filter((e) => e.kind === "command.outcome").length, 0, "it ran");
      assertEquals(
        events.filter((e) => e.kind === "policy.decision").length,
        0,
        "it reached the gate",
      );
    }
  });
});

Deno.test("the substituted line goes through the gate: the policy refuses what run_command's would", async () => {
  const deny: CustomToolDef = {
    name: "wipe",
    description: "Removes a path.",
    arguments: { target: { type: "string" } },
    command: "rm -rf {target}",
  };
  await withSession([deny], async (session) => {
    const { result, events } = await call(session, "wipe", { target: "/" });
    assertMatch(result.text, /^error: command denied by policy: /);
    const decision = events.find((e) => e.kind === "policy.decision");
    assertEquals(decision?.command, "rm -rf '/'");
    assertEquals(events.filter((e) => e.kind === "command.outcome").length, 0);
  });
});

Deno.test("the template's own timeout applies, and a thread's does not", async () => {
  const slow: CustomToolDef = {
    name: "nap",
    description: "Sleeps.",
    command: "sleep 5",
    timeoutSeconds: 1,
  };
  const plain: CustomToolDef = { name: "quick", description: "Prints ok.", command: "echo ok" };
  await withSession([slow, plain], async (session) => {
    const { result, events } = await call(session, "nap", {}, { commandTimeoutSeconds: 30 });
    assertMatch(result.text, /timed out: the command was killed after 1 s/);
    const outcome = events.find((e) => e.kind === "command.outcome");
    assertEquals(outcome?.timeoutSeconds, 1);
    // Killed at the limit (the result says so), not before it; how close to
    // it is the runner's test (test/exec/runner_test.ts).
    const took = Number(outcome?.durationMs);
    assert(took >= 900, `killed after ${took} ms`);
    const other = await call(session, "quick", {}, { commandTimeoutSeconds: 7 });
    const o2 = other.events.find((e) => e.kind === "command.outcome");
    assertEquals(o2?.timeoutSeconds, 120, "the thread's limit leaked into a custom tool");
    assertEquals(o2?.timeoutSource, "default");
  }, { commandTimeoutSeconds: 120 });
});

Deno.test("a custom tool runs in its workingDirectory; tools.disabled removes built-ins but not custom tools", async () => {
  const where: CustomToolDef = {
    name: "where",
    description: "Prints the working directory.",
    command: "pwd",
    workingDirectory: "sub",
  };
  await withSession([where], async (session, project) => {
    await Deno.mkdir(join(project, "sub"));
    const { result } = await call(session, "where", {});
    assertEquals(result.text, `exit status: 0\nstdout:\n${join(project, "sub")}`);
    const names = session.tools().map((t) => t.name);
    assert(!names.includes("run_command"));
    assertEquals(names[names.length - 1], "where");
    const spec = session.registry.specs(session.tools()).find((s) => s.name === "where");
    assertEquals(spec?.description, "Prints the working directory.");
  }, { tools: { disabled: ["run_command"] } });
});

Deno.test("the model's tool list offers the arguments as JSON Schema, defaults and enums included", async () => {
  await withSession([typed], (session) => {
    const spec = session.registry.specs(session.tools()).find((s) => s.name === "typed")!;
    const props = spec.parameters.properties as Record<string, Record<string, unknown>>;
    assertEquals(props.n.type, "integer");
    assertEquals(props.mode.enum, ["fast", "slow"]);
    assertEquals(props.mode.default, "fast");
    assertEquals(spec.parameters.required, ["n"]);
    return Promise.resolve();
  });
});
