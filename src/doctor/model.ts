/**
 * Doctor's findings about the configured model: its server answers and lists
 * it (and it can converse with tools), then the window wisp will run it with.
 * The same checks respond makes before its first request, so a `not ok` here
 * is the sentence respond would fail with.
 */
import type { Config } from "../config/schema.ts";
import type { HomePaths } from "../config/home.ts";
import type { Backend, WindowDecision } from "../models/backend.ts";
import { checkAvailable, resolveModel } from "../models/registry.ts";
import type { Env } from "../models/host.ts";
import { messageOf } from "../util/errors.ts";
import { type Finding, withConfig } from "./finding.ts";

/** What the window finding says: "131,072 tokens, the model's maximum; …". */
export function windowDetail(decision: WindowDecision): string {
  const tokens = decision.tokens.toLocaleString("en-US");
  return `${tokens} tokens, ${decision.note || `from the ${decision.from}`}`;
}

interface WindowKnowing {
  windowDecision(): Promise<WindowDecision>;
}

function knowsWindow(backend: Backend): backend is Backend & WindowKnowing {
  return typeof (backend as Partial<WindowKnowing>).windowDecision === "function";
}

/** The model's findings for a loaded config. */
export async function modelFindingsFor(
  config: Config,
  env: Env = Deno.env.get,
): Promise<Finding[]> {
  let backend: Backend;
  try {
    backend = resolveModel(config.model, config, env);
  } catch (error) {
    return [{ ok: false, name: "model", detail: messageOf(error) }];
  }
  try {
    const caps = await checkAvailable(backend, { tools: true });
    const can = [
      "tools",
      ...(caps.structured ? ["structured replies"] : []),
      ...(caps.thinking ? ["thinking"] : []),
    ];
    const findings: Finding[] = [{
      ok: true,
      name: "model",
      detail: `${backend.name} is served and listed; it can use ${can.join(", ")}`,
    }];
    try {
      const decision = knowsWindow(backend)
        ? await backend.windowDecision()
        : { tokens: await backend.contextWindow(), from: "model" as const, note: "" };
      findings.push({ ok: true, name: "context window", detail: windowDetail(decision) });
    } catch (error) {
      findings.push({
        ok: false,
        name: "context window",
        detail: `cannot tell (${messageOf(error)})`,
      });
    }
    return findings;
  } catch (error) {
    return [{ ok: false, name: "model", detail: messageOf(error) }];
  }
}

/** The model's findings, reading config.json; a malformed config is reported by its own finding. */
export async function modelFindings(paths: HomePaths): Promise<Finding[]> {
  return await withConfig(paths, "model", "which model", (config) => modelFindingsFor(config));
}
