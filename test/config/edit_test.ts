import { assertEquals, assertStringIncludes, assertThrows } from "../support/assert.ts";
import { planSet, planUnset } from "../../src/config/edit.ts";
import { UsageError } from "../../src/util/errors.ts";

const COMMENTED = `// wisp settings, kept by hand
{
    /* the model I use */
    "model": "ollama:granite4.1:8b", // trailing note
    "approval": {
        // ask me less often
        "timeoutSeconds": 300,
    },
    "unknownField": true
}
`;

async function withFile(text: string | undefined): Promise<string> {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/config.json`;
  if (text !== undefined) Deno.writeTextFileSync(path, text);
  return path;
}

Deno.test("set keeps every comment, trailing comma and unknown field", async () => {
  const path = await withFile(COMMENTED);
  const plan = planSet(path, "approval.threshold", ["dangerous"]);
  for (
    const piece of [
      "// wisp settings, kept by hand",
      "/* the model I use */",
      "// trailing note",
      "// ask me less often",
      '"unknownField": true',
    ]
  ) {
    assertStringIncludes(plan.text, piece);
  }
  assertEquals(plan.config.approval.threshold, "dangerous");
  assertEquals(plan.config.approval.timeoutSeconds, 300);
  assertStringIncludes(plan.weakens ?? "", "moderate commands run without asking");
});

Deno.test("values: numbers, booleans, strings, and lists as words or a JSON array", async () => {
  const path = await withFile(undefined);
  assertEquals(planSet(path, "approval.timeoutSeconds", ["45"]).config.approval.timeoutSeconds, 45);
  assertEquals(planSet(path, "audit.enabled", ["false"]).config.audit.enabled, false);
  assertEquals(
    planSet(path, "systemPromptExtension", ["Prefer", "British", "spelling."]).config
      .systemPromptExtension,
    "Prefer British spelling.",
  );
  assertEquals(
    planSet(path, "models.disabled", ["ollama:a", "ollama:qwen3.8:27b"]).config.models.disabled,
    ["ollama:a", "ollama:qwen3.8:27b"],
  );
  assertEquals(planSet(path, "tools.disabled", ['["ls","grep"]']).config.tools.disabled, [
    "ls",
    "grep",
  ]);
  assertEquals(planSet(path, "systemPromptExtension", ["123"]).config.systemPromptExtension, "123");
  const plan = planSet(path, "ollama.models.granite4.2:8b.think", ["false"]);
  assertEquals(plan.config.ollama.models["granite4.2:8b"].think, false);
});

Deno.test("a value the setting does not take is refused with the reason", async () => {
  const path = await withFile(COMMENTED);
  let error = assertThrows(() => planSet(path, "approval.threshold", ["bogus"]), UsageError);
  assertStringIncludes(error.message, "must be one of safe, moderate, dangerous, never");
  error = assertThrows(() => planSet(path, "approval.timeoutSeconds", ["-5"]), UsageError);
  assertStringIncludes(error.message, "must be more than 0");
  error = assertThrows(() => planSet(path, "nonsense.key", ["1"]), UsageError);
  assertStringIncludes(error.message, "unknown setting 'nonsense.key'");
  error = assertThrows(() => planSet(path, "commandPolicy.deny", ["x"]), UsageError);
  assertStringIncludes(error.message, "edited by hand");
});

Deno.test("unset removes only that key and keeps the rest", async () => {
  const path = await withFile(COMMENTED);
  const plan = planUnset(path, "approval.timeoutSeconds")!;
  assertEquals(plan.config.approval.timeoutSeconds, 600);
  assertStringIncludes(plan.text, "/* the model I use */");
  assertEquals(planUnset(path, "approval.threshold"), undefined);
});
