/**
 * respond's contract at the command line: where the prompt comes from, what
 * goes to stdout and what to stderr, its flags, and its exit codes.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { wispCommand } from "../../support/wisp.ts";
import { ollamaConfig, scratch, toolMessages } from "./support.ts";

Deno.test("a piped prompt is read from stdin; --no-stream prints the reply whole", async () => {
  const ollama = startFakeOllama();
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    ollama.reply({ text: ["Bon", "jour."] });
    const run = await s.wisp(["--no-stream", "--instructions", "Answer in French"], {
      stdin: "Say hello\n",
    });
    assertEquals(run.code, 0, run.stderr);
    assertEquals(run.stdout, "Bonjour.\n");
    assertEquals(run.stderr, "");
    const [chat] = ollama.chats();
    const messages = chat.messages as { role: string; content: string }[];
    assertEquals(messages[0].role, "system");
    assertStringIncludes(messages[0].content, "Answer in French");
    assertEquals(messages[1], { role: "user", content: "Say hello" });
  } finally {
    await ollama.close();
    await s.remove();
  }
});

Deno.test("an empty prompt is a usage error", async () => {
  const ollama = startFakeOllama();
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    const run = await s.wisp(["respond"], { stdin: "  \n" });
    assertEquals(run.code, 64);
    assertEquals(run.stdout, "");
    assertMatch(run.stderr, /^error: the prompt is empty/);
    assertEquals(ollama.chats().length, 0);
  } finally {
    await ollama.close();
    await s.remove();
  }
});

Deno.test("no server: exit 1 with the reason, nothing on stdout", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const s = await scratch(ollamaConfig(`http://127.0.0.1:${port}`));
  try {
    const run = await s.wisp(["hello"]);
    assertEquals(run.code, 1);
    assertEquals(run.stdout, "");
    assertMatch(
      run.stderr,
      /^error: ollama:granite4\.1:8b is unavailable \(.*\); start it with ollama serve\n$/,
    );
  } finally {
    await s.remove();
  }
});

Deno.test("--model names the model; one that is not there fails, with no fallback to the configured one", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    ollama.reply({ text: "from the configured model" });
    const run = await s.wisp(["--model", "ollama:qwen3:8b", "hello"]);
    assertEquals(run.code, 1);
    assertEquals(run.stdout, "");
    assertMatch(
      run.stderr,
      /ollama:qwen3:8b is unavailable \(the Ollama server at .* has no model qwen3:8b\); pull it with ollama pull qwen3:8b/,
    );
    assertEquals(ollama.chats().length, 0, "no other model was asked");
  } finally {
    await ollama.close();
    await s.remove();
  }
});

Deno.test("a model without tool calling fails when tools are offered, and answers with --no-tools", async () => {
  const ollama = startFakeOllama({ models: [{ name: "plain:1b", capabilities: ["completion"] }] });
  const s = await scratch(ollamaConfig(ollama.url, "plain:1b"));
  try {
    const refused = await s.wisp(["hello"]);
    assertEquals(refused.code, 1);
    assertMatch(refused.stderr, /does not declare tool calling.*--no-tools/);
    ollama.reply({ text: "Hi." });
    const run = await s.wisp(["--no-tools", "hello"]);
    assertEquals(run.code, 0, run.stderr);
    assertEquals(run.stdout, "Hi.\n");
    assertEquals(ollama.chats()[0].tools, undefined);
  } finally {
    await ollama.close();
    await s.remove();
  }
});

Deno.test("--tool offers exactly the tools named; an unknown one is a usage error", async () => {
  const ollama = startFakeOllama();
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    ollama.reply({ text: "It is today." });
    const run = await s.wisp(["--tool", "current_date", "--tool", "read_file", "What day is it?"]);
    assertEquals(run.code, 0, run.stderr);
    const tools = (ollama.chats()[0].tools as { function: { name: string } }[]).map((t) =>
      t.function.name
    );
    assertEquals(tools, ["current_date", "read_file"]);
    const unknown = await s.wisp(["--tool", "rm_everything", "hi"]);
    assertEquals(unknown.code, 64);
    assertMatch(unknown.stderr, /^error: there is no tool named 'rm_everything'/);
    const both = await s.wisp(["--tool", "current_date", "--no-tools", "hi"]);
    assertEquals(both.code, 64);
  } finally {
    await ollama.close();
    await s.remove();
  }
});

Deno.test("--schema sends the schema as the reply's format; an unreadable schema is a usage error", async () => {
  const ollama = startFakeOllama();
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    const schema = {
      type: "object",
      properties: { language: { type: "string" } },
      required: ["language"],
    };
    await Deno.writeTextFile(join(s.project, "verdict.json"), JSON.stringify(schema));
    ollama.reply({ text: '{"language":"Rust"}' });
    const run = await s.wisp([
      "--no-tools",
      "--schema",
      "verdict.json",
      "Which language is this: fn main() {}",
    ]);
    assertEquals(run.code, 0, run.stderr);
    assertEquals(JSON.parse(run.stdout), { language: "Rust" });
    assertEquals(ollama.chats()[0].format, schema);
    await Deno.writeTextFile(join(s.project, "broken.json"), "{not json");
    const broken = await s.wisp(["--schema", "broken.json", "x"]);
    assertEquals(broken.code, 64);
    assertMatch(broken.stderr, /^error: --schema broken\.json is not valid JSON/);
  } finally {
    await ollama.close();
    await s.remove();
  }
});

Deno.test("--unsafe warns on stderr and runs the command without the sandbox", async () => {
  const ollama = startFakeOllama();
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    ollama.reply({ toolCalls: [{ name: "run_command", arguments: { command: "echo hi" } }] }, {
      text: "Said hi.",
    });
    const run = await s.wisp(["--unsafe", "say hi"]);
    assertEquals(run.code, 0, run.stderr);
    assertMatch(run.stderr, /^warning: --unsafe: commands run without the sandbox/);
    const outcome = s.events().find((e) => e.kind === "command.outcome");
    assertEquals(outcome?.sandbox, "off");
  } finally {
    await ollama.close();
    await s.remove();
  }
});

Deno.test("a stream that dies mid-reply fails with exit 1; what streamed stays on stdout, and what ran is said", async () => {
  const ollama = startFakeOllama();
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    ollama.reply(
      { toolCalls: [{ name: "current_date", arguments: {} }] },
      { streamError: "model runner crashed", after: ["Partial "] },
    );
    const run = await s.wisp(["hello"]);
    assertEquals(run.code, 1);
    assertEquals(run.stdout, "Partial \n");
    assertMatch(run.stderr, /^ran: current_date\nerror: .*model runner crashed/m);
  } finally {
    await ollama.close();
    await s.remove();
  }
});

Deno.test("the unsupported line flags a claim no call produced; stdout keeps only the reply", async () => {
  const ollama = startFakeOllama();
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    ollama.reply({ text: "Removed the scratch file. All tests passed." });
    const run = await s.wisp(["Clean up and test"]);
    assertEquals(run.code, 0, run.stderr);
    assertEquals(run.stdout, "Removed the scratch file. All tests passed.\n");
    assertEquals(
      run.stderr,
      'unsupported: "Removed the scratch file." (no rm, rmdir, unlink, or trash command ran in this turn) +1 more\n',
    );
  } finally {
    await ollama.close();
    await s.remove();
  }
});

Deno.test("a tool named in a reply with nothing run shows ran: no tools", async () => {
  const ollama = startFakeOllama();
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    ollama.reply({ text: "I would use run_command for that." });
    const run = await s.wisp(["How would you list files?"]);
    assertEquals(run.code, 0, run.stderr);
    assertMatch(run.stderr, /^ran: no tools$/m);
    assert(!run.stdout.includes("ran:"));
  } finally {
    await ollama.close();
    await s.remove();
  }
});

Deno.test("on a terminal with no prompt, help is printed instead of waiting for input", async () => {
  const home = await Deno.makeTempDir({ prefix: "wisp-respond-tty-" });
  try {
    const wisp = wispCommand().map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(" ");
    const run = async (extra: string) => {
      const output = await new Deno.Command("script", {
        args: ["-qec", `${wisp}${extra}`, "/dev/null"],
        env: { WISP_HOME: home, NO_COLOR: "1", TERM: "dumb" },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        signal: AbortSignal.timeout(30_000),
      }).output();
      return { code: output.code, stdout: new TextDecoder().decode(output.stdout) };
    };
    const bare = await run("");
    assertEquals(bare.code, 0);
    assertMatch(bare.stdout, /Usage: wisp \[options\] \[command\]/);
    const respond = await run(" respond");
    assertEquals(respond.code, 0);
    assertMatch(respond.stdout, /Usage: wisp respond \[options\] \[prompt\.\.\.\]/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("verification reads a command's whole stored output, not only the part the model saw", async () => {
  const ollama = startFakeOllama();
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    const call = { toolCalls: [{ name: "run_command", arguments: { command: "seq 1 20000" } }] };
    ollama.reply(call, { text: "The command printed:\n```\n10000\n```" });
    const held = await s.wisp(["--yes", "count to 20000"]);
    assertEquals(held.code, 0, held.stderr);
    const shown = toolMessages(ollama.chats()[1])[0].content;
    assertMatch(shown, /held back: stdout lines/);
    assert(!/^10000$/m.test(shown), "the model was not shown line 10000");
    assert(!held.stderr.includes("unsupported:"), held.stderr);

    ollama.reply(call, { text: "The command printed:\n```\n99999\n```" });
    const invented = await s.wisp(["--yes", "count to 20000"]);
    assertMatch(invented.stderr, /^unsupported: "99999" \(no call in this turn printed it\)$/m);
  } finally {
    await ollama.close();
    await s.remove();
  }
});

Deno.test("a prompt that cannot fit the model's window fails before it is sent", async () => {
  const ollama = startFakeOllama();
  const s = await scratch({
    ...ollamaConfig(ollama.url),
    ollama: { host: ollama.url, contextLength: 1024 },
  });
  try {
    const run = await s.wisp(["--no-tools"], { stdin: "word ".repeat(2000) });
    assertEquals(run.code, 1);
    assertMatch(
      run.stderr,
      /^error: the prompt and instructions are about [\d,]+ tokens, more than the window of 1,024 for ollama:granite4\.1:8b/,
    );
    assertEquals(ollama.chats().length, 0);
  } finally {
    await ollama.close();
    await s.remove();
  }
});

Deno.test("with the sandbox off in config.json, respond warns on stderr", async () => {
  const ollama = startFakeOllama();
  const s = await scratch({
    ...ollamaConfig(ollama.url),
    commandPolicy: { sandbox: { enabled: false } },
  });
  try {
    ollama.reply({ text: "Hi." });
    const run = await s.wisp(["hello"]);
    assertEquals(run.code, 0, run.stderr);
    assertMatch(run.stderr, /^warning: the sandbox is off: commands can write anywhere you can/);
    assertEquals(run.stdout, "Hi.\n");
  } finally {
    await ollama.close();
    await s.remove();
  }
});
