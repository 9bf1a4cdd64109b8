import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { composeInstructions, wispPrompt } from "../../src/agent/instructions.ts";

Deno.test("three layers in order: wisp's own, the extension, the conversation's", () => {
  const text = composeInstructions({
    tools: ["run_command"],
    extension: "Prefer British spelling.",
    instructions: "Answer in French.",
    cwd: "/p",
  });
  const own = text.indexOf("You are wisp");
  const extension = text.indexOf("Prefer British spelling.");
  const conversation = text.indexOf("Answer in French.");
  assert(own === 0 && extension > own && conversation > extension, text);
  assertStringIncludes(text, "The working directory is /p.");
});

Deno.test("empty layers are left out", () => {
  assertEquals(
    composeInstructions({ tools: [], extension: "  ", instructions: "" }),
    wispPrompt([]),
  );
});

Deno.test("without tools the model is told it cannot act; with them, which it has", () => {
  assertStringIncludes(wispPrompt([]), "You have no tools");
  assertStringIncludes(
    wispPrompt(["current_date", "run_command"]),
    "Your tools: current_date, run_command.",
  );
  assertStringIncludes(wispPrompt(["run_command"]), "error: command denied by policy");
  assert(
    !wispPrompt(["current_date"]).includes("run_command"),
    "no rules about a tool it does not have",
  );
});
