/**
 * Chat's slash commands over `wisp chat --json`: /config with a choice and
 * the same checks as wisp config, /model's choice, /show and output pages,
 * /approvals and /facts refusing to answer from a pipe, completions,
 * /inspect context's view, and /questions (not built) saying so.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { ollamaConfig, scratch } from "../respond/support.ts";
import { type Line, startChat } from "./support.ts";

const notesFrom = (lines: Line[], from: number) =>
  lines.slice(from).filter((l) => l.type === "note").map((l) => String(l.text));

Deno.test("chat --json slash commands: /config set with a choice, checked and audited as chat; /model; /show; completions", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }, { name: "qwen3:4b" }] });
  const s = await scratch(ollamaConfig(ollama.url));
  await Deno.writeTextFile(join(s.project, "notes.txt"), "line one\nline two\n");
  const chat = startChat([], { home: s.home, cwd: s.project });
  try {
    await chat.next((l) => l.type === "status", "the first status");

    // /config set KEY without a value: a choice of the schema's values, the one in force marked.
    let mark = chat.lines.length;
    await chat.send("/config set approval.threshold");
    const choice = await chat.next((l) => l.type === "choice", "the setting's choice", mark);
    const options = choice.options as { value: string; current?: boolean }[];
    assertEquals(options.map((o) => o.value), ["safe", "moderate", "dangerous", "never"]);
    assertEquals(options.find((o) => o.current)?.value, "moderate");
    await chat.send({ type: "choose", id: choice.id, value: "dangerous" });
    await chat.next((l) => l.type === "status", "the status after /config", mark);
    const notes = notesFrom(chat.lines, mark);
    assert(
      notes.some((n) => n.startsWith("set approval.threshold to dangerous")),
      notes.join("\n"),
    );
    assert(
      notes.some((n) => n.startsWith("note: with the threshold at dangerous")),
      notes.join("\n"),
    );
    const file = JSON.parse(await Deno.readTextFile(join(s.home, "config.json")));
    assertEquals(file.approval.threshold, "dangerous");
    const change = s.events().find((e) => e.kind === "config.change");
    assertEquals([change?.key, change?.source, change?.weakens], [
      "approval.threshold",
      "chat",
      true,
    ]);

    // The same checks as wisp config: a bad value is one sentence, and nothing changes.
    mark = chat.lines.length;
    await chat.send("/config set approval.threshold sometimes");
    await chat.next((l) => l.type === "status", "the status after the bad value", mark);
    const bad = notesFrom(chat.lines, mark).find((n) => n.startsWith("error:"));
    assert(bad && bad.includes("approval.threshold"), String(bad));
    assertEquals(
      JSON.parse(await Deno.readTextFile(join(s.home, "config.json"))).approval.threshold,
      "dangerous",
    );

    // /model without a name: the models this machine can run, the current one marked; Enter leaves it.
    mark = chat.lines.length;
    await chat.send("/model");
    const models = await chat.next((l) => l.type === "choice", "the model choice", mark);
    const offered = models.options as { value: string; current?: boolean }[];
    assert(offered.some((o) => o.value === "ollama:qwen3:4b"), JSON.stringify(offered));
    assertEquals(offered.find((o) => o.current)?.value, "ollama:granite4.1:8b");
    await chat.send({ type: "choose", id: models.id, value: "ollama:qwen3:4b" });
    const status = await chat.next((l) => l.type === "status", "the status after /model", mark);
    assertEquals(status.model, "ollama:qwen3:4b");

    // /show after a command you ran: the whole output as a view; an output line pages it.
    mark = chat.lines.length;
    await chat.send("!cat notes.txt");
    await chat.next((l) => l.type === "status", "the status after !cat", mark);
    await chat.send("/last");
    const view = await chat.next((l) => l.type === "view", "the /last view", mark);
    assertEquals(view.text, "line one\nline two\n");
    await chat.send({ type: "output", id: String(view.id).slice(0, 8) });
    const page = await chat.next(
      (l) => l.type === "view" && l.page === 1 && l !== view,
      "the output page",
      mark,
    );
    assertEquals(page.text, "line one\nline two\n");

    // Completions, even between turns: commands and setting values.
    await chat.send({ type: "complete", id: "k1", text: "/con", cursor: 4 });
    const done = await chat.next((l) => l.type === "completions" && l.id === "k1", "completions");
    assertEquals((done.items as { text: string }[]).map((i) => i.text), ["/config"]);
    assertEquals(done.from, 0);
    await chat.send({
      type: "complete",
      id: "k2",
      text: "/config set approval.threshold da",
      cursor: 33,
    });
    const values = await chat.next((l) => l.type === "completions" && l.id === "k2", "values");
    assertEquals((values.items as { text: string }[]).map((i) => i.text), ["dangerous"]);
    assertEquals(values.from, 31);

    // /approvals answers only from a terminal; /questions lists none.
    mark = chat.lines.length;
    await chat.send("/approvals approve 0123abcd");
    await chat.send("/facts keep 0123abcd");
    await chat.send("/questions");
    await chat.send("/inspect context");
    await chat.send("/history");
    await chat.next(
      (l) => l.type === "note" && String(l.text).includes("/inspect context"),
      "the history",
      mark,
    );
    const said = notesFrom(chat.lines, mark);
    assert(
      said.some((n) => n.includes("answers only when the chat's input is a terminal")),
      said.join("\n"),
    );
    assert(said.some((n) => n.includes("no question waits for an answer")), said.join("\n"));
    // /facts keep writes wisp's home: from a pipe it refuses, as wisp facts keep does.
    assert(
      said.some((n) =>
        n.startsWith("/facts keep answers only when the chat's input is a terminal")
      ),
      said.join("\n"),
    );
    // /inspect context is the composed context, as the MCP context resource shows it.
    const context = chat.lines.slice(mark).find((l) => l.type === "view" && l.id === "context");
    assert(context, "a view of the context");
    assert(String(context.text).startsWith("context: about "), String(context.text));
    assert(String(context.text).includes("── system ──"), String(context.text));
    assert(!s.events().some((e) => e.kind === "approval.answered"), "nothing was answered");
    assertEquals(ollama.chats().length, 0, "no slash command reached the model");
    await chat.send("/quit");
    assertEquals((await chat.exited()).code, 0);
  } finally {
    await chat.close();
    await s.remove();
    await ollama.close();
  }
});
