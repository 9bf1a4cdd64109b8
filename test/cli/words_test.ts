/**
 * Which words are prompts and which are commands (issue 12, items 5 and 6):
 * through the real CLI and a fake Ollama, a prompt reaches the model only
 * when its first word is not a command word; a typo in a group names the
 * group and suggests.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { startFakeOllama } from "../support/fake_ollama.ts";
import { ollamaConfig, scratch } from "../faces/respond/support.ts";
import { runWisp, tempDir } from "../support/wisp.ts";
import { buildProgram } from "../../src/cli/program.ts";
import type { Command } from "commander";

/** The last user message of a recorded /api/chat body. */
function promptOf(body: Record<string, unknown>): string {
  const messages = body.messages as { role: string; content: string }[];
  return messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
}

Deno.test("command words are refused before any model sees them; real prompts go through", async () => {
  const ollama = startFakeOllama();
  const s = await scratch(ollamaConfig(ollama.url));
  try {
    const refused: [string[], RegExp][] = [
      [["doctr"], /^error: unknown command 'doctr'; did you mean doctor\? \(wisp -- doctr /],
      [["confg", "list"], /^error: unknown command 'confg'; did you mean config\?/],
      [["chta"], /^error: unknown command 'chta'; did you mean chat\?/],
      [
        ["completions", "ksh"],
        /^error: unknown command 'ksh' for 'wisp completions'; .*zsh, bash or fish/,
      ],
      [
        ["questions", "answr", "a1b2c3d4"],
        /^error: unknown command 'answr' for 'wisp questions'; did you mean answer\?/,
      ],
      [["version"], /^error: wisp has no version command; wisp --version prints the version/],
      [["update"], /^error: wisp has no update command/],
      [["help", "nosuch"], /^error: unknown command 'nosuch'; 'wisp --help' lists the commands/],
    ];
    for (const [args, message] of refused) {
      const run = await s.wisp(args);
      assertEquals(run.code, 64, `wisp ${args.join(" ")}: ${run.stderr}`);
      assertMatch(run.stderr, message);
      assertEquals(run.stderr.trim().split("\n").length, 1, run.stderr);
      assertEquals(run.stdout, "");
    }
    assertEquals(ollama.chats().length, 0, "a command word reached the model");
    assert(!s.events().some((e) => e.kind === "prompt"), "a command word was logged as a prompt");

    // Prompts: an ordinary word, a quoted sentence, a command word after --, English words
    // that are one letter from a command (scan/scam, watch/match), a command word not first.
    const prompts: [string[], string][] = [
      [["hello"], "hello"],
      [["fix the build"], "fix the build"],
      [["--", "doctor"], "doctor"],
      [["--", "doctr"], "doctr"],
      [["scam"], "scam"],
      [["match", "these", "files"], "match these files"],
      [["what", "does", "doctor", "do"], "what does doctor do"],
      [["respond", "version"], "version"],
      [["update", "the", "readme"], "update the readme"],
    ];
    for (const [args, prompt] of prompts) {
      ollama.reply({ text: "ok" });
      const before = ollama.chats().length;
      const run = await s.wisp(args);
      assertEquals(run.code, 0, `wisp ${args.join(" ")}: ${run.stderr}`);
      assertEquals(ollama.chats().length, before + 1, `wisp ${args.join(" ")} did not reach it`);
      assertEquals(promptOf(ollama.chats()[before]), prompt);
    }
  } finally {
    await ollama.close();
    await s.remove();
  }
});

/** Every group of the tree: a command with subcommands of its own (placeholders aside). */
function groups(command: Command, path: string[] = []): string[][] {
  const found: string[][] = [];
  for (const sub of command.commands) {
    if (sub.commands.length > 0) found.push([...path, sub.name()]);
    found.push(...groups(sub, [...path, sub.name()]));
  }
  return found;
}

Deno.test("a word that is no subcommand of a group is said to be unknown, in every group", async () => {
  const home = await tempDir();
  try {
    const typos: [string[], string][] = [
      [["config", "lst"], "unknown command 'lst' for 'wisp config'; did you mean list?"],
      [["approvals", "lst"], "unknown command 'lst' for 'wisp approvals'; did you mean list?"],
      [["models", "lst"], "unknown command 'lst' for 'wisp models'; did you mean list?"],
      [["approvals", "revok", "x"], "unknown command 'revok' for 'wisp approvals'; did you mean"],
    ];
    for (const [args, message] of typos) {
      const run = await runWisp(args, { home });
      assertEquals(run.code, 64, `wisp ${args.join(" ")}: ${run.stderr}`);
      assertStringIncludes(run.stderr, `error: ${message}`);
      assertEquals(run.stderr.trim().split("\n").length, 1, run.stderr);
    }
    const all = groups(buildProgram());
    assert(all.length >= 4, JSON.stringify(all));
    for (const group of all) {
      const run = await runWisp([...group, "zzqx"], { home });
      assertEquals(run.code, 64, `wisp ${group.join(" ")} zzqx: ${run.stderr}`);
      assertStringIncludes(
        run.stderr,
        `error: unknown command 'zzqx' for 'wisp ${group.join(" ")}'; 'wisp ${
          group.join(" ")
        } --help' lists its commands`,
      );
    }
    // Not a group's word: a named command's argument too many keeps commander's words.
    const extra = await runWisp(["config", "show", "extra"], { home });
    assertEquals(extra.code, 64);
    assertMatch(extra.stderr, /^error: too many arguments for 'show'/);
    // A subcommand that was a placeholder and is built now runs as itself: here it finds no
    // llama.cpp server on a closed port.
    Deno.writeTextFileSync(
      `${home}/config.json`,
      JSON.stringify({ llamacpp: { baseURL: "http://127.0.0.1:9/v1" } }),
    );
    const check = await runWisp(["models", "check", "llamacpp:nothing-here"], { home });
    assertEquals(check.code, 1);
    assertMatch(check.stderr, /^error: llamacpp:nothing-here is unavailable/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
