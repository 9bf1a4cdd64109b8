/**
 * End to end: the real CLI (under the binary's permission set) talks to a
 * fake Ollama server, which asks for run_command, read_file and edit_file
 * calls; wisp carries them out through the real gate and the real bwrap
 * sandbox, and prints the reply on stdout and its receipts on stderr.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { ollamaConfig, scratch, toolMessages } from "./support.ts";

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

Deno.test("respond runs a safe command in the sandbox and streams the reply to stdout", async () => {
  const ollama = startFakeOllama();
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    await Deno.writeTextFile(join(s.project, "notes.txt"), "alpha\nbeta\n");
    ollama.reply(
      { toolCalls: [{ name: "run_command", arguments: { command: "ls" } }] },
      { text: ["The folder holds ", "notes.txt."] },
    );
    const run = await s.wisp(["What is in this folder?"]);
    assertEquals(run.code, 0, run.stderr);
    assertEquals(run.stdout, "The folder holds notes.txt.\n");
    assertMatch(run.stderr, /^ran: run_command$/m);
    const chats = ollama.chats();
    assertEquals(chats.length, 2);
    const [result] = toolMessages(chats[1]);
    assertMatch(result.content, /^exit status: 0\nstdout:\nnotes\.txt$/);
    const kinds = s.events().map((e) => e.kind);
    for (
      const kind of [
        "session.start",
        "prompt",
        "response",
        "tool.call",
        "policy.decision",
        "command.outcome",
        "tool.result",
      ]
    ) {
      assert(kinds.includes(kind), `no ${kind} in ${kinds.join(", ")}`);
    }
    const prompt = s.events().find((e) => e.kind === "prompt");
    assertEquals(prompt?.text, "What is in this folder?");
    const outcome = s.events().find((e) => e.kind === "command.outcome");
    assertEquals(outcome?.sandbox, "confined");
  } finally {
    await ollama.close();
    await s.remove();
  }
});

Deno.test("without --yes a command that needs approval is refused, and the model is told so", async () => {
  const ollama = startFakeOllama();
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    ollama.reply(
      { toolCalls: [{ name: "run_command", arguments: { command: "touch made-by-model.txt" } }] },
      { text: "I could not create the file: the command was not approved." },
    );
    const run = await s.wisp(["Create made-by-model.txt"]);
    assertEquals(run.code, 0, run.stderr);
    const [result] = toolMessages(ollama.chats()[1]);
    assertMatch(result.content, /^error: command not approved: .*no one can be asked here/);
    assertMatch(run.stderr, /^ran: run_command \(1 declined\)$/m);
    let exists = true;
    try {
      Deno.statSync(join(s.project, "made-by-model.txt"));
    } catch {
      exists = false;
    }
    assertEquals(exists, false, "the refused command must not have run");
  } finally {
    await ollama.close();
    await s.remove();
  }
});

Deno.test("--yes approves the command, which the sandbox confines to the launch directory", async () => {
  const ollama = startFakeOllama();
  const s = await scratch(ollamaConfig(ollama.url));
  const outside = await Deno.makeTempDir({ prefix: "wisp-outside-", dir: Deno.env.get("HOME") });
  try {
    ollama.reply(
      {
        toolCalls: [{
          name: "run_command",
          arguments: { command: `touch inside.txt; touch ${outside}/escaped.txt; echo done` },
        }],
      },
      { text: "Created inside.txt." },
    );
    const run = await s.wisp(["--yes", "Create the files"]);
    assertEquals(run.code, 0, run.stderr);
    assertMatch(run.stderr, /^warning: --yes: commands that would ask you run without asking/);
    // The command's result, as the model was given it, says why when the file is not there.
    const [result] = toolMessages(ollama.chats()[1]);
    assertStringIncludes(result.content, "done", `the command did not run: ${result.content}`);
    assert(
      isFile(join(s.project, "inside.txt")),
      `inside.txt was not made; the command's result: ${result.content}; stderr: ${run.stderr}`,
    );
    let escaped = true;
    try {
      Deno.statSync(join(outside, "escaped.txt"));
    } catch {
      escaped = false;
    }
    assertEquals(escaped, false, "a write outside the writable roots must fail in the sandbox");
  } finally {
    await ollama.close();
    await s.remove();
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("read_file and edit_file calls run through the gate; their results go back to the model", async () => {
  const ollama = startFakeOllama();
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    await Deno.writeTextFile(join(s.project, "app.cfg"), "name = demo\r\nport = 8080\r\n");
    ollama.reply(
      { toolCalls: [{ name: "read_file", arguments: { path: "app.cfg" } }] },
      {
        toolCalls: [{
          name: "edit_file",
          arguments: { path: "app.cfg", mode: "replace", find: "8080", content: "9090", line: 2 },
        }],
      },
      { text: "The port is now 9090." },
    );
    const run = await s.wisp(["--yes", "Change the port in app.cfg to 9090"]);
    assertEquals(run.code, 0, run.stderr);
    assertEquals(run.stdout, "The port is now 9090.\n");
    assertEquals(
      await Deno.readTextFile(join(s.project, "app.cfg")),
      "name = demo\r\nport = 9090\r\n",
    );
    const chats = ollama.chats();
    assertEquals(chats.length, 3);
    assertMatch(
      toolMessages(chats[1])[0].content,
      /^1\tname = demo\n2\tport = 8080\n\[end of file\]/,
    );
    assertMatch(run.stderr, /^ran: read_file · edit_file$/m);
  } finally {
    await ollama.close();
    await s.remove();
  }
});

Deno.test("a credential read is refused where no one can be asked; an edit outside the writable roots is refused even with --yes", async () => {
  const ollama = startFakeOllama();
  const s = await scratch(ollamaConfig(ollama.url));
  // Under the real home, not /tmp: the temporary directories are writable roots.
  const fakeHome = await Deno.makeTempDir({ prefix: "wisp-user-", dir: Deno.env.get("HOME") });
  try {
    await Deno.mkdir(join(fakeHome, ".ssh"));
    await Deno.writeTextFile(
      join(fakeHome, ".ssh", "id_ed25519"),
      "-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n",
    );
    const target = join(fakeHome, "outside.txt");
    ollama.reply(
      {
        toolCalls: [{
          name: "read_file",
          arguments: { path: join(fakeHome, ".ssh", "id_ed25519") },
        }],
      },
      { text: "I was not allowed to read it." },
    );
    const read = await s.wisp(["Show me my key"]);
    assertEquals(read.code, 0, read.stderr);
    const [refused] = toolMessages(ollama.chats()[1]);
    assertMatch(refused.content, /^error: read not approved: /);
    assert(!refused.content.includes("PRIVATE KEY"));
    assertMatch(read.stderr, /^ran: read_file \(1 declined\)$/m);

    ollama.reply(
      {
        toolCalls: [{
          name: "edit_file",
          arguments: { path: target, mode: "write", content: "x\n" },
        }],
      },
      { text: "I could not write there." },
    );
    const edit = await s.wisp(["--yes", "Write outside.txt in that folder"]);
    assertEquals(edit.code, 0, edit.stderr);
    const [outside] = toolMessages(ollama.chats()[3]);
    assertMatch(outside.content, /^error: cannot write .*outside the writable directories/);
    let written = true;
    try {
      await Deno.stat(target);
    } catch {
      written = false;
    }
    assertEquals(written, false);
    assertMatch(edit.stderr, /^ran: edit_file \(1 failed\)$/m);
  } finally {
    await ollama.close();
    await s.remove();
    await Deno.remove(fakeHome, { recursive: true });
  }
});
