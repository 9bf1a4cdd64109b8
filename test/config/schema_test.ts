import { assertEquals, assertStringIncludes, assertThrows } from "../support/assert.ts";
import {
  configSchema,
  defaultConfig,
  findSetting,
  keyPath,
  SETTINGS,
} from "../../src/config/schema.ts";
import { parseConfigText, validateConfig } from "../../src/config/load.ts";
import { ConfigError } from "../../src/util/errors.ts";

Deno.test("an empty object is every default", () => {
  const config = defaultConfig();
  assertEquals(config.approval.threshold, "moderate");
  assertEquals(config.approval.timeoutSeconds, 600);
  assertEquals(config.approval.bannerDelaySeconds, 10);
  assertEquals(config.commandTimeoutSeconds, 120);
  assertEquals(config.maxThreads, 32);
  assertEquals(config.shownOutputLines, 20);
  assertEquals(config.commandPolicy.sandbox.enabled, true);
  assertEquals(config.commandPolicy.sandbox.allowOutsideSandbox, true);
  assertEquals(config.audit.enabled, true);
  assertEquals(config.context.target, 0.6);
  assertEquals(config.mlx.trustedPublishers, ["mlx-community"]);
});

Deno.test("a partial object keeps the defaults of what it leaves out; unknown fields are ignored", () => {
  const config = validateConfig(
    { approval: { timeoutSeconds: 30 }, futureSetting: { a: 1 } },
    "config.json",
  );
  assertEquals(config.approval.timeoutSeconds, 30);
  assertEquals(config.approval.threshold, "moderate");
  assertEquals((config as Record<string, unknown>).futureSetting, undefined);
});

Deno.test("JSONC: comments and trailing commas are accepted", () => {
  const raw = parseConfigText(
    '// mine\n{ /* a */ "model": "ollama:x", "approval": { "timeoutSeconds": 5, }, }\n',
    "c.json",
  );
  assertEquals(validateConfig(raw, "c.json").model, "ollama:x");
});

Deno.test("a malformed file names the place it breaks", () => {
  const error = assertThrows(
    () => parseConfigText('{\n  "model": "x",\n  "approval": {\n}', "c.json"),
    ConfigError,
  );
  assertStringIncludes(error.message, "c.json is not valid JSON at line 4");
});

Deno.test("a bad value names the field and the problem", () => {
  let error = assertThrows(
    () => validateConfig({ approval: { threshold: "sometimes" } }, "c.json"),
    ConfigError,
  );
  assertStringIncludes(
    error.message,
    "approval.threshold must be one of safe, moderate, dangerous, never",
  );
  assertStringIncludes(error.message, '"sometimes"');
  error = assertThrows(
    () => validateConfig({ commandTimeoutSeconds: "soon" }, "c.json"),
    ConfigError,
  );
  assertStringIncludes(error.message, "commandTimeoutSeconds must be a number");
  error = assertThrows(() => validateConfig({ audit: { keep: 0 } }, "c.json"), ConfigError);
  assertStringIncludes(error.message, "audit.keep must be more than 0");
});

Deno.test("an invalid commandPolicy pattern makes the config malformed", () => {
  const error = assertThrows(
    () => validateConfig({ commandPolicy: { deny: ["ok", "(unclosed"] } }, "c.json"),
    ConfigError,
  );
  assertStringIncludes(error.message, "commandPolicy.deny.1 is not a valid regular expression");
});

Deno.test("fact kinds: an unknown normaliser or a share outside 0 to 0.5 is malformed", () => {
  assertThrows(
    () => validateConfig({ facts: { kinds: [{ name: "x", normaliser: "upper" }] } }, "c"),
    ConfigError,
  );
  assertThrows(
    () => validateConfig({ facts: { kinds: [{ name: "x", share: 0.7 }] } }, "c"),
    ConfigError,
  );
  assertThrows(
    () => validateConfig({ facts: { kinds: [{ class: "dynamic" }] } }, "c"),
    ConfigError,
  );
});

Deno.test("patterned keys keep a model name with dots as one segment", () => {
  assertEquals(keyPath("ollama.models.granite4.2:8b.think"), [
    "ollama",
    "models",
    "granite4.2:8b",
    "think",
  ]);
  assertEquals(keyPath("ollama.models.qwen3.8:27b.contextLength"), [
    "ollama",
    "models",
    "qwen3.8:27b",
    "contextLength",
  ]);
  assertEquals(keyPath("routing.tasks.secrets"), ["routing", "tasks", "secrets"]);
  assertEquals(keyPath("approval.threshold"), ["approval", "threshold"]);
});

Deno.test("every settable key resolves to a path the schema knows", () => {
  for (const setting of SETTINGS) {
    if (setting.pattern) continue;
    assertEquals(findSetting(setting.key), setting);
    // Setting the default value back must validate.
    const path = keyPath(setting.key);
    let cursor: unknown = configSchema.parse({});
    for (const p of path) cursor = (cursor as Record<string, unknown> | undefined)?.[p];
    const raw: Record<string, unknown> = {};
    let node = raw;
    path.slice(0, -1).forEach((p) => node = (node[p] = {}) as Record<string, unknown>);
    if (cursor !== undefined) {
      node[path[path.length - 1]] = cursor;
      validateConfig(raw, "c.json");
    }
  }
});

Deno.test("inquiry.parkAfterSeconds: 20 by default, a whole number of seconds from 1 to 3600", () => {
  assertEquals(defaultConfig().inquiry.parkAfterSeconds, 20);
  assertEquals(
    validateConfig({ inquiry: { parkAfterSeconds: 2 } }, "c.json").inquiry.parkAfterSeconds,
    2,
  );
  for (const bad of [0, -1, 1.5, 3601, "20"]) {
    const error = assertThrows(
      () => validateConfig({ inquiry: { parkAfterSeconds: bad } }, "c.json"),
      ConfigError,
    );
    assertStringIncludes(error.message, "inquiry.parkAfterSeconds");
  }
  assertEquals(findSetting("inquiry.parkAfterSeconds")?.key, "inquiry.parkAfterSeconds");
});
