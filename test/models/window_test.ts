import { assertEquals } from "../support/assert.ts";
import {
  cacheBytesPerToken,
  configuredWindow,
  shapeFromModelInfo,
  sizeWindow,
} from "../../src/models/window.ts";
import { defaultConfig } from "../../src/config/schema.ts";

const GB = 1e9;
const llama = {
  "general.architecture": "llama",
  "llama.context_length": 131072,
  "llama.block_count": 32,
  "llama.attention.head_count": 32,
  "llama.attention.head_count_kv": 8,
  "llama.embedding_length": 4096,
};

Deno.test("window: the shape from model_info, head size derived when not given", () => {
  const shape = shapeFromModelInfo(llama);
  assertEquals(shape, {
    maxContext: 131072,
    layers: 32,
    kvHeads: 8,
    keyLength: 128,
    valueLength: 128,
  });
  // 32 layers × 8 heads × (128 + 128) × 2 bytes
  assertEquals(cacheBytesPerToken(shape), 131072);
  // Per-layer kv heads (some architectures) are summed.
  assertEquals(
    cacheBytesPerToken({ kvHeads: [8, 0, 8], keyLength: 64, valueLength: 64 }),
    16 * 128 * 2,
  );
  assertEquals(cacheBytesPerToken(shapeFromModelInfo({})), undefined);
});

Deno.test("window: memory decides below the maximum, in powers of two, never under the floor", () => {
  const shape = shapeFromModelInfo(llama);
  assertEquals(
    sizeWindow({ shape, freeBytes: 100 * GB, weightsBytes: 5 * GB, loaded: false }).tokens,
    131072,
  );
  assertEquals(
    sizeWindow({ shape, freeBytes: 100 * GB, weightsBytes: 5 * GB, loaded: false }).from,
    "model",
  );
  // (13 − 5) GB × 0.5 / 131,072 ≈ 30,517 → 16,384
  const tight = sizeWindow({ shape, freeBytes: 13 * GB, weightsBytes: 5 * GB, loaded: false });
  assertEquals([tight.tokens, tight.from], [16384, "memory"]);
  // Already loaded: its weights are not counted again → 13e9 × 0.5 / 131,072 ≈ 49,591 → 32,768.
  assertEquals(
    sizeWindow({ shape, freeBytes: 13 * GB, weightsBytes: 5 * GB, loaded: true }).tokens,
    32768,
  );
  assertEquals(
    sizeWindow({ shape, freeBytes: 1 * GB, weightsBytes: 5 * GB, loaded: false }).tokens,
    4096,
  );
  assertEquals(
    sizeWindow({ shape: {}, freeBytes: 100 * GB, weightsBytes: 0, loaded: false }).tokens,
    8192,
  );
  assertEquals(
    sizeWindow({ shape: { maxContext: 2048 }, freeBytes: 100 * GB, weightsBytes: 0, loaded: false })
      .tokens,
    2048,
  );
});

Deno.test("window: a model's own contextLength wins over the runtime's, however the model is spelled", () => {
  const config = defaultConfig();
  config.ollama.contextLength = 8000;
  config.ollama.models["qwen3.8:27b"] = { contextLength: 16384 };
  assertEquals(configuredWindow(config, "ollama", "qwen3.8:27b")?.tokens, 16384);
  assertEquals(configuredWindow(config, "ollama", "other")?.tokens, 8000);
  config.ollama.models["llama3.2:latest"] = { contextLength: 4096 };
  assertEquals(configuredWindow(config, "ollama", "llama3.2")?.tokens, 4096);
  assertEquals(configuredWindow(config, "lmstudio", "x"), undefined);
});
