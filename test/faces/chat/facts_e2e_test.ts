/**
 * Chat's fact commands over `wisp chat --json` with pipes: /fact states a
 * fact as the person's and lists the conversation's facts, /task is the
 * conversation's task fact, both reach the model's next request beside it
 * (not inside the prompt), /inspect context shows them as the model gets
 * them, and keeping a fact in wisp's home is refused from a pipe.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { ollamaConfig, scratch } from "../respond/support.ts";

type Line = Record<string, unknown> & { type: string };

Deno.test("chat --json: /fact and /task reach the next request as facts; /inspect context shows them; /fact ID permanent needs a terminal", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  ollama.reply({ text: "Hello." });
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    const run = await s.wisp(["chat", "--json", "--no-tools"], {
      stdin: [
        "/fact entity release codename = BLUE HERON",
        "/fact nonsense here = 1",
        "/task tidy the docs",
        "/fact",
        "/inspect context",
        "/fact c1 permanent",
        "hi",
        "/quit",
      ].join("\n") + "\n",
    });
    assertEquals(run.code, 0, run.stderr);
    const lines: Line[] = run.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l));
    const notes = lines.filter((l) => l.type === "note").map((l) => String(l.text));
    const all = notes.join("\n");

    assert(notes.some((n) => /^fact c1: .*BLUE HERON/.test(n)), all);
    assert(notes.some((n) => n.startsWith('there is no fact kind "nonsense"')), all);
    assert(notes.some((n) => n.startsWith("the task: tidy the docs")), all);
    // /fact lists what the book holds, with ids.
    assert(notes.some((n) => /^\s+c1\s+.*BLUE HERON/.test(n)), all);
    assert(notes.some((n) => /^\s+c\d+\s+.*tidy the docs/.test(n)), all);
    // Keeping in wisp's home is refused from a pipe; nothing is written.
    assert(
      notes.some((n) => n.startsWith("/fact ID permanent answers only when the chat's input")),
      all,
    );
    let kept = true;
    try {
      Deno.statSync(join(s.home, "facts.json"));
    } catch {
      kept = false;
    }
    assertEquals(kept, false, "no permanent fact was written");

    const view = lines.find((l) => l.type === "view" && l.id === "context");
    assert(view, "the context view");
    assert(String(view.text).includes("Facts of this conversation:"), String(view.text));
    assert(String(view.text).includes("BLUE HERON"), String(view.text));

    // The model's request carries both facts beside it; the prompt is the person's words alone.
    const [body] = ollama.chats();
    const messages = body.messages as { role: string; content: string }[];
    assert(messages[0].content.includes("BLUE HERON"), messages[0].content);
    assert(messages[0].content.includes("tidy the docs"), messages[0].content);
    assertEquals(messages[messages.length - 1].content, "hi");
    const recorded = s.events().filter((e) => e.kind === "fact.recorded");
    assert(recorded.some((e) => e.by === "person" && e.method === "stated"), "audited as stated");
  } finally {
    await s.remove();
    await ollama.close();
  }
});
