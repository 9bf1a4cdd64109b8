/**
 * `wisp chat --json` driven line by line over pipes: an approval's round
 * trip, the person's own `!` and `!!` commands, stopping a turn, and a hello
 * that carries no approve effect.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { startFakeOllama } from "../../support/fake_ollama.ts";
import { exists, waitUntil } from "../../support/wait.ts";
import { ollamaConfig, scratch } from "../respond/support.ts";
import { PROJECT_ROOT } from "../../support/wisp.ts";
import { tempDirs } from "../../../src/platform/paths.ts";
import { type Line, processesWith, startChat } from "./support.ts";

/**
 * A scratch folder in the user's home, or beside the checkout when the home is not writable or
 * lies in a temporary folder (a test run with a scratch HOME): a folder there is writable to `!`,
 * and would prove nothing.
 */
async function outsideTheSandbox(): Promise<string> {
  const real = (path: string) => {
    try {
      return Deno.realPathSync(path);
    } catch {
      return path;
    }
  };
  const temporary = tempDirs(Deno.build.os, (name) => Deno.env.get(name)).map(real);
  const inTemporary = (dir: string) =>
    temporary.some((t) => real(dir) === t || real(dir).startsWith(t + "/"));
  for (const dir of [Deno.env.get("HOME"), PROJECT_ROOT]) {
    if (!dir || inTemporary(dir)) continue;
    try {
      return await Deno.makeTempDir({ dir, prefix: ".wisp-chat-outside-" });
    } catch { /* not writable: the next place */ }
  }
  throw new Error("no writable folder outside the temporary folders to test !! with");
}

const kindOf = (l: Line) => (l.event as { kind?: string } | undefined)?.kind;

Deno.test("chat --json: a moderate command asks an approval line; the answer line lets it run; the turn ends", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  ollama.reply(
    { toolCalls: [{ name: "run_command", arguments: { command: "touch made-by-chat.txt" } }] },
    { text: "Made it." },
  );
  const s = await scratch(ollamaConfig(ollama.url));
  const chat = startChat([], { home: s.home, cwd: s.project });
  try {
    await chat.next((l) => l.type === "status", "the first status");
    await chat.send({ type: "message", text: "make the file" });
    const approval = await chat.next((l) => l.type === "approval", "the approval line");
    assertEquals(approval.level, "moderate");
    assertEquals(approval.command, "touch made-by-chat.txt");
    assertEquals(approval.source, "chat");
    assertEquals(approval.options, ["once", "session", "project", "always", "no"]);
    // Nothing ran before the answer.
    assert(!exists(join(s.project, "made-by-chat.txt")));
    await chat.send({ type: "answer", id: approval.id, decision: "session" });
    const end = await chat.next((l) => l.type === "turn" && l.phase === "end", "the turn's end");
    assertEquals(end.outcome, "replied");
    assertEquals(end.ran, "ran: run_command");
    assert(exists(join(s.project, "made-by-chat.txt")), "the approved command ran");
    const notes = chat.lines.filter((l) => l.type === "note").map((l) => String(l.text));
    assert(notes.includes("⚠ approved for this session: touch made-by-chat.txt"), notes.join("\n"));
    await chat.send("/quit");
    const { code, stderr } = await chat.exited();
    assertEquals(code, 0, stderr);
    const decided = s.events().find((e) => e.kind === "approval.decided");
    assertEquals(decided?.by, "person");
  } finally {
    await chat.close();
    await s.remove();
    await ollama.close();
  }
});

Deno.test("chat --json: a hello without approve denies unasked; no approval line is sent", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  ollama.reply(
    { toolCalls: [{ name: "run_command", arguments: { command: "touch not-made.txt" } }] },
    { text: "It was refused." },
  );
  const s = await scratch(ollamaConfig(ollama.url));
  const chat = startChat([], { home: s.home, cwd: s.project });
  try {
    await chat.send({ type: "hello", effects: ["notify"], client: "test-face", version: "1" });
    await chat.send({ type: "message", text: "make the file" });
    const end = await chat.next((l) => l.type === "turn" && l.phase === "end", "the turn's end");
    assertEquals(end.outcome, "replied");
    assert(!chat.lines.some((l) => l.type === "approval"), "no approval line");
    assert(!exists(join(s.project, "not-made.txt")));
    const tool = (ollama.chats()[1].messages as { role: string; content: string }[])
      .find((m) => m.role === "tool");
    assertStringIncludes(tool!.content, "not approved");
    await chat.send("/quit");
    assertEquals((await chat.exited()).code, 0);
    assert(s.events().some((e) => e.kind === "host.hello" && e.client === "test-face"));
  } finally {
    await chat.close();
    await s.remove();
    await ollama.close();
  }
});

Deno.test("chat --json: !ls runs in the sandbox as the person's, told to the model next turn; !! is refused when outside runs are off", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  ollama.reply({ text: "I see you listed the folder." });
  const s = await scratch({
    ...ollamaConfig(ollama.url),
    commandPolicy: { sandbox: { allowOutsideSandbox: false } },
  });
  await Deno.writeTextFile(join(s.project, "visible-file.txt"), "x");
  const chat = startChat([], { home: s.home, cwd: s.project });
  try {
    await chat.send("!ls");
    const typed = await chat.next((l) => kindOf(l) === "command.typed", "command.typed");
    const event = typed.event as Record<string, unknown>;
    assertEquals(event.command, "ls");
    assertEquals(event.exitStatus, 0);
    assertEquals(event.stopped, false);
    assertStringIncludes(String(event.output), "visible-file.txt");
    const decision = chat.lines.find((l) => kindOf(l) === "policy.decision")!.event as Record<
      string,
      unknown
    >;
    assertEquals([decision.origin, decision.decision], ["person", "allow"]);
    // Not classified: no classifier verdict for a typed command, and no turn.
    assert(!chat.lines.some((l) => kindOf(l) === "classifier.verdict"));
    assert(!chat.lines.some((l) => l.type === "turn"));
    const outcome = chat.lines.find((l) => kindOf(l) === "command.outcome")!.event as Record<
      string,
      unknown
    >;
    assertEquals(outcome.origin, "person");

    const mark = chat.lines.length;
    await chat.send("!!touch outside.txt");
    const refused = await chat.next(
      (l) => l.type === "note" && String(l.text).includes("blocked by policy"),
      "the !! refusal",
      mark,
    );
    assertStringIncludes(String(refused.text), "running outside the sandbox is turned off here");
    assertStringIncludes(String(refused.text), "type it after a single !");
    assert(!exists(join(s.project, "outside.txt")));

    await chat.send("what did I do?");
    await chat.next((l) => l.type === "turn" && l.phase === "end", "the turn's end");
    const messages = ollama.chats()[0].messages as { role: string; content: string }[];
    const told = messages.find((m) => m.content.startsWith("[the person ran `ls` themselves"));
    assert(told, JSON.stringify(messages));
    assertStringIncludes(told.content, "this was not your action");
    assertStringIncludes(told.content, "visible-file.txt");
    // The refused !! is not told to the model.
    assert(!messages.some((m) => m.content.includes("outside.txt")));
    await chat.send("/quit");
    assertEquals((await chat.exited()).code, 0);
  } finally {
    await chat.close();
    await s.remove();
    await ollama.close();
  }
});

Deno.test("chat --json: an interrupt stops the model's sleep and leaves no process; a second one during a typed command quits with 130", async () => {
  const marker = `sleep 6${Math.floor(Math.random() * 9)}.${Date.now() % 100000}`;
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  ollama.reply({ toolCalls: [{ name: "run_command", arguments: { command: marker } }] });
  const s = await scratch(ollamaConfig(ollama.url));
  const chat = startChat([], { home: s.home, cwd: s.project });
  try {
    await chat.send("wait a minute");
    await chat.next((l) => kindOf(l) === "tool.call", "the model's call");
    await waitUntil(() => processesWith(marker).length > 0, "the sleep to start");
    await chat.send({ type: "interrupt" });
    const end = await chat.next((l) => l.type === "turn" && l.phase === "end", "the turn's end");
    assertEquals(end.outcome, "stopped");
    await waitUntil(() => processesWith(marker).length === 0, "the sleep to be gone");
    assert(s.events().some((e) => e.kind === "turn.stopped"));
    const outcome = s.events().find((e) => e.kind === "command.outcome");
    assertEquals(outcome?.stopped, true);

    // A typed command: the first interrupt stops it, a second kills it and quits. The command
    // ignores TERM and both interrupts go in one write, so the second is read while the first
    // is still stopping it: a second interrupt once nothing runs does nothing, as it should, and
    // a sleep that ended at TERM before the second was read would leave the chat running.
    const typedMarker = marker.replace("sleep 6", "sleep 7");
    const mark = chat.lines.length;
    await chat.send(`!trap '' TERM; ${typedMarker}`);
    await chat.next(
      (l) => l.type === "activity" && l.activity !== null,
      "the typed command's activity",
      mark,
    );
    await waitUntil(() => processesWith(typedMarker).length > 0, "the typed sleep to start");
    const interrupt = JSON.stringify({ type: "interrupt" });
    await chat.send(`${interrupt}\n${interrupt}`);
    await chat.next((l) => l.type === "exit", "the exit line", mark);
    const { code } = await chat.exited();
    assertEquals(code, 130);
    await waitUntil(() => processesWith(typedMarker).length === 0, "the typed sleep to be gone");
    const typed = s.events().find((e) => e.kind === "command.typed");
    assertEquals(typed?.stopped, true);
  } finally {
    await chat.close();
    await s.remove();
    await ollama.close();
  }
});

Deno.test("chat --json: !!cmd runs outside the sandbox (a write ! cannot make), says so first, and is audited as outside", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await scratch(ollamaConfig(ollama.url));
  // A folder outside every writable root of the sandbox (not under the temporary folders, the
  // project or wisp's home, which the policy guards): read-only to ! and writable to !!.
  const beside = await outsideTheSandbox();
  const chat = startChat([], { home: s.home, cwd: s.project });
  try {
    let mark = chat.lines.length;
    await chat.send(`!touch ${beside}/inside.txt`);
    const inside = await chat.next((l) => kindOf(l) === "command.typed", "the ! command", mark);
    assert((inside.event as { exitStatus: number }).exitStatus !== 0, "the sandbox refused it");
    assert(!exists(join(beside, "inside.txt")));

    mark = chat.lines.length;
    await chat.send(`!!touch ${beside}/outside.txt`);
    const outside = await chat.next((l) => kindOf(l) === "command.typed", "the !! command", mark);
    const event = outside.event as Record<string, unknown>;
    assertEquals([event.exitStatus, event.outsideSandbox], [0, true]);
    assert(exists(join(beside, "outside.txt")), "it wrote outside the sandbox");
    const said = chat.lines.slice(mark).find((l) =>
      l.type === "note" && String(l.text).startsWith("! running OUTSIDE the sandbox")
    );
    assert(said, "chat said so before it ran");
    assert(chat.lines.indexOf(said) < chat.lines.indexOf(outside));
    const decision = s.events().filter((e) => e.kind === "policy.decision").pop();
    assertEquals([decision?.origin, decision?.outsideSandbox], ["person", true]);
    await chat.send("/quit");
    assertEquals((await chat.exited()).code, 0);
  } finally {
    await chat.close();
    await Deno.remove(beside, { recursive: true });
    await s.remove();
    await ollama.close();
  }
});

Deno.test("chat --json --unsafe: !! changes nothing and says so", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  const s = await scratch(ollamaConfig(ollama.url));
  const chat = startChat(["--unsafe"], { home: s.home, cwd: s.project });
  try {
    await chat.send("!!true");
    await chat.next((l) => kindOf(l) === "command.typed", "the command");
    const notes = chat.lines.filter((l) => l.type === "note").map((l) => String(l.text));
    assert(
      notes.some((n) => n.startsWith("· !! changes nothing here: the sandbox is off")),
      notes.join("\n"),
    );
    assert(notes.some((n) => n.startsWith("warning: --unsafe")), notes.join("\n"));
    await chat.send("/quit");
    assertEquals((await chat.exited()).code, 0);
  } finally {
    await chat.close();
    await s.remove();
    await ollama.close();
  }
});

Deno.test("chat --json: an interrupt while an approval waits withdraws it, refuses, and stops the turn", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  ollama.reply({
    toolCalls: [{ name: "run_command", arguments: { command: "touch never-made.txt" } }],
  });
  const s = await scratch(ollamaConfig(ollama.url));
  const chat = startChat([], { home: s.home, cwd: s.project });
  try {
    await chat.send("make the file");
    const approval = await chat.next((l) => l.type === "approval", "the approval line");
    await chat.send({ type: "interrupt" });
    const withdrawn = await chat.next((l) => l.type === "withdrawn", "the withdrawn line");
    assertEquals(withdrawn.id, approval.id);
    const end = await chat.next((l) => l.type === "turn" && l.phase === "end", "the turn's end");
    assertEquals(end.outcome, "stopped");
    // A late answer changes nothing.
    await chat.send({ type: "answer", id: approval.id, decision: "once" });
    await chat.send("/quit");
    assertEquals((await chat.exited()).code, 0);
    assert(!exists(join(s.project, "never-made.txt")));
  } finally {
    await chat.close();
    await s.remove();
    await ollama.close();
  }
});

Deno.test("chat --json: when the input closes while the model's command runs, it is killed and the chat ends", async () => {
  const marker = `sleep 5${Math.floor(Math.random() * 9)}.${Date.now() % 100000}`;
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  ollama.reply({ toolCalls: [{ name: "run_command", arguments: { command: marker } }] });
  const s = await scratch(ollamaConfig(ollama.url));
  const chat = startChat([], { home: s.home, cwd: s.project });
  try {
    await chat.send("wait a minute");
    await waitUntil(() => processesWith(marker).length > 0, "the sleep to start");
    const { code } = await chat.close();
    assertEquals(code, 0);
    await waitUntil(() => processesWith(marker).length === 0, "the sleep to be gone");
    assertEquals(chat.lines[chat.lines.length - 1], { type: "exit", code: 0 });
    // The transcript keeps what was asked.
    const files = [...Deno.readDirSync(join(s.home, "transcripts"))];
    assertEquals(files.length, 1);
  } finally {
    await chat.close();
    await s.remove();
    await ollama.close();
  }
});

Deno.test("chat --json: with notify in the hello, the model's notification is a notify line for the front end", async () => {
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  ollama.reply(
    { toolCalls: [{ name: "notify", arguments: { title: "Build", message: "It passed." } }] },
    { text: "Told you." },
  );
  const s = await scratch(ollamaConfig(ollama.url));
  const chat = startChat([], { home: s.home, cwd: s.project });
  try {
    await chat.send({ type: "hello", effects: ["approve", "notify"], client: "test-face" });
    await chat.send("tell me when it passes");
    const notify = await chat.next((l) => l.type === "notify", "the notify line");
    assertEquals([notify.title, notify.body], ["Build", "It passed."]);
    const end = await chat.next((l) => l.type === "turn" && l.phase === "end", "the turn's end");
    assert(chat.lines.indexOf(notify) < chat.lines.indexOf(end));
    await chat.send("/quit");
    assertEquals((await chat.exited()).code, 0);
  } finally {
    await chat.close();
    await s.remove();
    await ollama.close();
  }
});

Deno.test("chat --json: a second interrupt during a turn quits with 130 and leaves no process", async () => {
  const marker = `sleep 4${Math.floor(Math.random() * 9)}.${Date.now() % 100000}`;
  const ollama = startFakeOllama({ models: [{ name: "granite4.1:8b" }] });
  ollama.reply({
    toolCalls: [{ name: "run_command", arguments: { command: `trap '' TERM; ${marker}` } }],
  });
  const s = await scratch(ollamaConfig(ollama.url));
  const chat = startChat([], { home: s.home, cwd: s.project });
  try {
    await chat.send("wait a minute");
    await waitUntil(() => processesWith(marker).length > 0, "the sleep to start");
    // Both interrupts in one write, so the second is read while the first is still stopping the
    // turn (the command ignores TERM, so it stops only at the runner's SIGKILL two seconds on).
    // Sent one by one, a loaded machine could take longer than that between them, and a second
    // interrupt with nothing running does nothing, as it should.
    const interrupt = JSON.stringify({ type: "interrupt" });
    await chat.send(`${interrupt}\n${interrupt}`);
    // With a deadline: a chat that did not quit fails here, with its last lines.
    await chat.next((l) => l.type === "exit", "the exit line");
    const { code } = await chat.exited();
    assertEquals(code, 130);
    assertEquals(chat.lines[chat.lines.length - 1], { type: "exit", code: 130 });
    assert(
      chat.lines.some((l) => l.type === "note" && String(l.text).startsWith("stopping the turn")),
      "the first interrupt said it was stopping the turn",
    );
    await waitUntil(() => processesWith(marker).length === 0, "the sleep to be gone");
  } finally {
    await chat.close();
    await s.remove();
    await ollama.close();
  }
});
