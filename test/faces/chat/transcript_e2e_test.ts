/**
 * Transcripts (saved at /quit and at the end of input, listed, resumed), the
 * plain chat with a piped stdin (which can never answer an approval), and
 * the model fallback at start.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { exists } from "../../support/wait.ts";
import { ollamaConfig, scratch } from "../respond/support.ts";

Deno.test("/quit saves a transcript that --resume restores, and --list lists it", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  ollama.reply({ text: "Your codename is BLUE HERON." }, { text: "You told me BLUE HERON." });
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    const first = await s.wisp(["chat", "--json"], {
      stdin: "remember the codename BLUE HERON\n/quit\n",
    });
    assertEquals(first.code, 0, first.stderr);
    const saved = first.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l))
      .find((l) => l.type === "note" && String(l.text).startsWith("transcript saved:"));
    assert(saved, first.stdout);
    const id = /transcript saved: (\S+)/.exec(saved.text)![1];
    const files = [...Deno.readDirSync(join(s.home, "transcripts"))].map((e) => e.name);
    assertEquals(files, [`${id}.json`]);
    const stat = Deno.statSync(join(s.home, "transcripts", `${id}.json`));
    assertEquals(stat.mode! & 0o777, 0o600);

    const listed = await s.wisp(["chat", "--list"]);
    assertEquals(listed.code, 0, listed.stderr);
    assertStringIncludes(listed.stdout, id);
    assertStringIncludes(listed.stdout, "remember the codename BLUE HERON");

    // --resume without an id carries on the latest.
    const second = await s.wisp(["chat", "--json", "--resume"], {
      stdin: "what is the codename?\n/quit\n",
    });
    assertEquals(second.code, 0, second.stderr);
    const messages = ollama.chats()[1].messages as { role: string; content: string }[];
    const contents = messages.map((m) => m.content);
    assert(contents.includes("remember the codename BLUE HERON"), JSON.stringify(contents));
    assert(contents.includes("Your codename is BLUE HERON."), JSON.stringify(contents));
    assertEquals(contents[contents.length - 1], "what is the codename?");
    // Only one system message: the resumed chat composed its own instructions.
    assertEquals(messages.filter((m) => m.role === "system").length, 1);

    const unknown = await s.wisp(["chat", "--json", "--resume", "20990101-000000-abcdef"], {
      stdin: "/quit\n",
    });
    assertEquals(unknown.code, 64);
    assertStringIncludes(unknown.stderr, "no transcript 20990101-000000-abcdef is saved");
    assert(!unknown.stderr.includes("    at "), "no stack trace");
  } finally {
    await s.remove();
    await ollama.close();
  }
});

Deno.test("the end of input saves the transcript too", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    const run = await s.wisp(["chat", "--json"], { stdin: "/task tidy the docs\n" });
    assertEquals(run.code, 0, run.stderr);
    const files = [...Deno.readDirSync(join(s.home, "transcripts"))];
    assertEquals(files.length, 1);
    const saved = JSON.parse(Deno.readTextFileSync(join(s.home, "transcripts", files[0].name)));
    assertEquals(saved.history, ["/task tidy the docs"]);
  } finally {
    await s.remove();
    await ollama.close();
  }
});

Deno.test("/new starts a conversation without the last one's task, and each transcript keeps its own", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    const run = await s.wisp(["chat", "--json"], {
      // Ending with /quit: the end of input alone drops what is still queued (the front end left).
      stdin: "/task tidy the docs\n/new\n/task\n/quit\n",
    });
    assertEquals(run.code, 0, run.stderr);
    const notes = run.stdout.trim().split("\n").map((l) => JSON.parse(l))
      .filter((l) => l.type === "note").map((l) => String(l.text));
    const afterNew = notes.slice(notes.findIndex((t) => t.startsWith("a new conversation")));
    assert(afterNew.includes("no task is set; /task TEXT sets one"), notes.join("\n"));
    const saved = [...Deno.readDirSync(join(s.home, "transcripts"))]
      .map((f) => JSON.parse(Deno.readTextFileSync(join(s.home, "transcripts", f.name))));
    assertEquals(saved.length, 2);
    const first = saved.find((t) => t.history.includes("/task tidy the docs"));
    const second = saved.find((t) => t !== first);
    assertEquals(first?.task, "tidy the docs");
    assertEquals(second?.task, undefined);
  } finally {
    await s.remove();
    await ollama.close();
  }
});

Deno.test("a plain chat with a piped stdin never answers an approval: the next line is a message, the command never runs", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  ollama.reply(
    { toolCalls: [{ name: "run_command", arguments: { command: "touch piped-approval.txt" } }] },
    { text: "It was refused." },
    { text: "y to what?" },
  );
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    const run = await s.wisp(["chat"], { stdin: "make the file\ny\ns\n/quit\n" });
    assertEquals(run.code, 0, run.stderr);
    assert(!exists(join(s.project, "piped-approval.txt")), "the command never ran");
    assertStringIncludes(run.stderr, "standard input is not a terminal");
    // The reply goes to stdout, everything else to stderr.
    assertStringIncludes(run.stdout, "It was refused.");
    assert(!run.stdout.includes("⚙"), run.stdout);
    // "y" went to the model as a message, not to the gate.
    const last = ollama.chats()[2].messages as { role: string; content: string }[];
    assertEquals(last[last.length - 1].content, "y");
    const decided = s.events().filter((e) => e.kind === "approval.decided");
    assert(decided.every((e) => e.by !== "person"), JSON.stringify(decided));
  } finally {
    await s.remove();
    await ollama.close();
  }
});

Deno.test("model fallback at start: an unavailable configured model gives way and says so; --model never does", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  ollama.reply({ text: "Hi." });
  const s = await scratch(ollamaConfig(ollama.url, "not-pulled:1b"));
  try {
    const run = await s.wisp(["chat", "--json"], { stdin: "hello\n/quit\n" });
    assertEquals(run.code, 0, run.stderr);
    const lines = run.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l));
    const fallback = lines.find((l) => l.type === "note" && l.kind === "fallback");
    assert(fallback, run.stdout);
    assertStringIncludes(fallback.text, "ollama:not-pulled:1b is unavailable");
    assertStringIncludes(fallback.text, "using ollama:granite4.1:8b");
    assertEquals(lines.find((l) => l.type === "status")?.model, "ollama:granite4.1:8b");
    const recorded = s.events().find((e) => e.kind === "model.fallback");
    assertEquals([recorded?.from, recorded?.to], ["ollama:not-pulled:1b", "ollama:granite4.1:8b"]);

    const named = await s.wisp(["chat", "--json", "--model", "ollama:not-pulled:1b"], {
      stdin: "hello\n/quit\n",
    });
    assertEquals(named.code, 1);
    assertStringIncludes(named.stderr, "not-pulled");
    assert(!named.stderr.includes("    at "), "no stack trace");
  } finally {
    await s.remove();
    await ollama.close();
  }
});
