import { assertEquals } from "../support/assert.ts";
import type { ModelEntry, ModelListing } from "../../src/models/registry.ts";
import { renderJson, renderTable, renderTsv, wrapList } from "../../src/models/render.ts";

function model(fields: Partial<ModelEntry> & { model: string }): ModelEntry {
  return {
    runtime: fields.model.split(":")[0],
    parameters: null,
    size: null,
    bytes: null,
    format: null,
    context: null,
    contextFrom: null,
    contextNote: null,
    location: null,
    enabled: true,
    capabilities: [],
    capabilitiesFrom: null,
    default: false,
    usable: true,
    problem: null,
    ...fields,
  };
}

// A model of each runtime, as in the reference's example.
const listing: ModelListing = {
  defaultModel: "ollama:granite4.1:8b",
  unreachable: [],
  models: [
    model({
      model: "system",
      context: 8192,
      contextFrom: "model",
      capabilities: ["tools", "structured replies", "vision"],
    }),
    model({
      model: "ollama:granite4.1:8b",
      parameters: "8.8B",
      size: "5.35 GB",
      context: 65536,
      contextFrom: "memory",
      default: true,
      capabilities: ["tools", "structured replies"],
    }),
    model({
      model: "ollama:qwen3.8:27b",
      parameters: "27.3B",
      size: "17.74 GB",
      context: 32768,
      contextFrom: "memory",
      enabled: false,
      capabilities: ["tools", "structured replies", "thinking"],
    }),
    model({
      model: "mlx:Qwen3-1.7B-4bit",
      size: "984 MB",
      context: 40960,
      contextFrom: "memory",
      location: "hubCache",
      capabilities: ["tools", "structured replies"],
    }),
    model({
      model: "mlx:Qwen3-4B-4bit",
      size: "2.26 GB",
      location: "hubCacheNotLinked",
      enabled: false,
    }),
  ],
};

Deno.test("render: at 120 columns the table keeps what fits and wraps capabilities under themselves", () => {
  assertEquals(renderTable(listing, 120), [
    "  MODEL                 PARAMS  SIZE      CONTEXT  FROM    WHERE                 ENABLED  CAPABILITIES",
    "  system                                  8,192    model                         yes      tools, structured replies,",
    "                                                                                          vision",
    "* ollama:granite4.1:8b  8.8B    5.35 GB   65,536   memory                        yes      tools, structured replies",
    "  ollama:qwen3.8:27b    27.3B   17.74 GB  32,768   memory                        no       tools, structured replies,",
    "                                                                                          thinking",
    "  mlx:Qwen3-1.7B-4bit           984 MB    40,960   memory  HF cache              yes      tools, structured replies",
    "  mlx:Qwen3-4B-4bit             2.26 GB                    HF cache, not linked  no",
  ]);
});

Deno.test("render: at 80 columns FROM, WHERE and PARAMS go first", () => {
  assertEquals(renderTable(listing, 80), [
    "  MODEL                 SIZE      CONTEXT  ENABLED  CAPABILITIES",
    "  system                          8,192    yes      tools, structured replies,",
    "                                                    vision",
    "* ollama:granite4.1:8b  5.35 GB   65,536   yes      tools, structured replies",
    "  ollama:qwen3.8:27b    17.74 GB  32,768   no       tools, structured replies,",
    "                                                    thinking",
    "  mlx:Qwen3-1.7B-4bit   984 MB    40,960   yes      tools, structured replies",
    "  mlx:Qwen3-4B-4bit     2.26 GB            no",
  ]);
});

Deno.test("render: very narrow keeps MODEL, ENABLED and CAPABILITIES", () => {
  const lines = renderTable(listing, 40);
  assertEquals(lines[0], "  MODEL                 ENABLED  CAPABILITIES");
  assertEquals(lines[1], "  system                yes      tools, structured");
  assertEquals(lines[2].trim(), "replies, vision");
});

Deno.test("render: a model that cannot be used shows its reason under it; an unreachable runtime is one line", () => {
  const lines = renderTable({
    defaultModel: "system",
    unreachable: [{
      runtime: "LM Studio",
      reason: "no LM Studio server at http://127.0.0.1:1234/v1: could not connect to the server",
    }],
    models: [
      model({
        model: "ollama:embed",
        runtime: "ollama",
        size: "274.3 MB",
        usable: false,
        problem: "it cannot hold a conversation",
      }),
    ],
  }, 80);
  assertEquals(lines, [
    "  MODEL         RUNTIME  SIZE      ENABLED  CAPABILITIES",
    "  ollama:embed  Ollama   274.3 MB  yes",
    "    not usable: it cannot hold a conversation",
    "(no LM Studio server at http://127.0.0.1:1234/v1: could not connect to the server)",
  ]);
});

Deno.test("render: piped, every column on every line, the reason last for an unusable model", () => {
  const lines = renderTsv({
    ...listing,
    models: [
      listing.models[1],
      model({
        model: "ollama:embed",
        size: "274.3 MB",
        usable: false,
        problem: "it cannot hold a conversation",
      }),
    ],
  });
  assertEquals(lines, [
    "* ollama:granite4.1:8b\tOllama\t\t8.8B\t5.35 GB\t65,536\tmemory\t\tyes\ttools, structured replies",
    "  ollama:embed\tOllama\t\t\t274.3 MB\t\t\t\tyes\t\tit cannot hold a conversation",
  ]);
  for (const line of lines) assertEquals(line.split("\t").length >= 10, true);
});

Deno.test("render: --json carries every field, absent facts null", () => {
  const parsed = JSON.parse(renderJson(listing));
  assertEquals(Object.keys(parsed), ["models", "unreachable"]);
  assertEquals(parsed.models[1].model, "ollama:granite4.1:8b");
  assertEquals(parsed.models[1].default, true);
  assertEquals(parsed.models[0].parameters, null);
  assertEquals(parsed.models[2].enabled, false);
});

Deno.test("render: wrapList breaks after words and keeps a long word whole", () => {
  assertEquals(wrapList("tools, structured replies, thinking", 27), [
    "tools, structured replies,",
    "thinking",
  ]);
  assertEquals(wrapList("supercalifragilistic", 5), ["supercalifragilistic"]);
  assertEquals(wrapList("", 5), [""]);
});
