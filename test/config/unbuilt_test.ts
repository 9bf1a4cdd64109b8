import { assert, assertEquals } from "../support/assert.ts";
import { SETTINGS } from "../../src/config/schema.ts";
import { UNBUILT_SETTINGS, unbuiltEntry, unbuiltInFile } from "../../src/config/unbuilt.ts";

Deno.test("every entry of the not-built list names a setting config set knows", () => {
  // A renamed setting would leave a stale entry behind: its fixed part must lead to a setting.
  for (const entry of UNBUILT_SETTINGS) {
    const fixed: string[] = [];
    for (const segment of entry.path) {
      if (typeof segment !== "string") break;
      fixed.push(segment);
    }
    assert(
      SETTINGS.some((setting) =>
        fixed.every((segment, i) => setting.key.split(".")[i] === segment)
      ),
      `${fixed.join(".")} leads to no setting`,
    );
  }
});

Deno.test("values decide where only some are not built; a section covers its settings", () => {
  assertEquals(unbuiltEntry(["approval", "classifier"], "rules"), undefined);
  assertEquals(unbuiltEntry(["approval", "classifier"], "coreml"), undefined);
  assertEquals(unbuiltEntry(["approval", "classifier"], "model"), undefined);
  assert(unbuiltEntry(["approval", "classifier"], "system-model"));
  assertEquals(unbuiltEntry(["approval", "coremlModel"], "risk@0.1.0-local.2"), undefined);
  assertEquals(unbuiltEntry(["routing", "tasks", "classifier"], "ollama:x"), undefined);
  assert(unbuiltEntry(["mlx", "models", "x", "think"], true));
  assertEquals(unbuiltEntry(["routing", "tasks", "triage"], "ollama:x"), undefined);
  assert(unbuiltEntry(["routing", "tasks", "triage"], "mlx:x"));
  assert(unbuiltEntry(["routing", "tasks", "secrets"], "ollama:x"));
  assertEquals(unbuiltEntry(["model"], "ollama:x"), undefined);
  assertEquals(
    [
      ...unbuiltInFile({
        tools: { ask: true, models: true, disabled: [] },
        verification: { mode: "model" },
      })
        .keys(),
    ],
    ["verification.mode"],
  );
});
