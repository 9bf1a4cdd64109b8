/**
 * Doctor's findings about the configured model: its server answers and lists
 * it (and it can converse with tools), it answers a one-word request, then the
 * window wisp will run it with. The model is chosen as respond chooses it (on
 * a machine without Apple's model, the default gives way to a local one), so
 * a `not ok` here is the sentence respond would fail with.
 */
import type { Config } from "../config/schema.ts";
import type { HomePaths } from "../config/home.ts";
import type { Backend, WindowDecision } from "../models/backend.ts";
import { chooseModel, type ChosenModel } from "../models/choose.ts";
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

/** How long the one-word request may take; the first request may load the model. */
const ANSWER_LIMIT_MS = 120_000;

/** What to do when a server lists the model but a request to it fails. */
function restartAdvice(backend: Backend): string {
  switch (backend.runtime) {
    case "ollama":
      return "restart Ollama (systemctl restart ollama, or stop ollama serve and start it again), then run wisp doctor again";
    case "llamacpp":
      return "restart llama-server with the model, then run wisp doctor again";
    case "lmstudio":
      return "unload and load the model again in LM Studio (or restart its server), then run wisp doctor again";
    case "system":
      // Availability can say yes while Apple's service refuses every request (spec: restarting it).
      return "if the model service failed, restart it: sudo killall modelmanagerd (launchd starts it again on the next request), then run wisp doctor again";
    default:
      return "restart the model's server, then run wisp doctor again";
  }
}

/**
 * Ask the model for one word, as a person's first request would: availability
 * alone can say yes while every request fails. Returns the seconds it took.
 */
async function askOneWord(backend: Backend, limitMs = ANSWER_LIMIT_MS): Promise<number> {
  const started = performance.now();
  let text = "";
  for await (
    const event of backend.chat({
      messages: [{ role: "user", content: "Reply with exactly one word: ready" }],
      signal: AbortSignal.timeout(limitMs),
      think: false,
    })
  ) {
    if (event.type === "text") text += event.text;
  }
  if (text.trim() === "") throw new Error("the reply was empty");
  return (performance.now() - started) / 1000;
}

/** The model's findings for a loaded config. */
export async function modelFindingsFor(
  config: Config,
  env: Env = Deno.env.get,
  options: { answerLimitMs?: number } = {},
): Promise<Finding[]> {
  let chosen: ChosenModel;
  try {
    chosen = await chooseModel(config.model, config, { env, tools: true });
  } catch (error) {
    return [{ ok: false, name: "model", detail: messageOf(error) }];
  }
  const { backend, capabilities: caps } = chosen;
  const can = [
    "tools",
    ...(caps.structured ? ["structured replies"] : []),
    ...(caps.thinking ? ["thinking"] : []),
  ];
  const which = chosen.standIn ? `${chosen.standIn}; ${backend.name}` : backend.name;
  let seconds: number;
  try {
    seconds = await askOneWord(backend, options.answerLimitMs);
  } catch (error) {
    return [{
      ok: false,
      name: "model",
      detail: `${which} is served and listed, but a one-word request to it failed (${
        messageOf(error)
      }); ${restartAdvice(backend)}`,
    }];
  }
  const findings: Finding[] = [{
    ok: true,
    name: "model",
    detail: `${which} is served and answered a one-word request in ${
      seconds.toFixed(1)
    } s; it can use ${can.join(", ")}`,
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
}

/** The model's findings, reading config.json; a malformed config is reported by its own finding. */
export async function modelFindings(paths: HomePaths): Promise<Finding[]> {
  return await withConfig(paths, "model", "which model", (config) => modelFindingsFor(config));
}
