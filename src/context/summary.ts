/**
 * The running summary: what the turns dropped from view said and did, kept
 * in a few sentences beside every later request. It is one of wisp's own
 * side calls to the conversation's model — a fixed prompt, no tools,
 * thinking off whatever the model's settings say — that folds the dropped
 * turns into the summary so far. When the model cannot answer, an exact
 * summary (the prompts, what ran and the replies, clipped) takes its place,
 * so condensing never fails for want of a summary.
 */
import type { Backend } from "../models/backend.ts";
import type { StoreTurn } from "./store.ts";
import { callLabel } from "./reference.ts";

/** Folds turns into the running summary. */
export interface Summariser {
  /** The new summary: `previous` with `turnsText` folded in, at most about `maxChars`. */
  summarise(
    previous: string,
    turnsText: string,
    maxChars: number,
    signal?: AbortSignal,
  ): Promise<string>;
}

/** The side call's fixed instructions. */
export const SUMMARY_PROMPT = [
  "You keep the running summary of a conversation between a person and an assistant that runs tools.",
  "You are given the summary so far and the turns that are leaving the assistant's view.",
  "Write the new summary: what the person asked, what was run or read and what it showed, decisions, names, numbers, paths and values that may be asked about later.",
  "Keep every specific value (names, codes, versions, paths, exit statuses) exactly as written.",
  "Write plain sentences or short lines, no preamble. Stay under the length you are given.",
].join("\n");

const PROMPT_CHARS = 160;
const REPLY_CHARS = 240;

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}

/** Cut a summary to at most `max` characters at a line end, keeping its newest lines. */
export function fitSummary(text: string, max: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed;
  const lines = trimmed.split("\n");
  while (lines.length > 1 && lines.join("\n").length > max) lines.shift();
  const kept = lines.join("\n");
  return kept.length > max ? kept.slice(kept.length - max) : kept;
}

/** Turns as the summariser (and the fact distiller) reads them; each output at most `outputChars`. */
export function turnsText(turns: readonly StoreTurn[], outputChars: number): string {
  const lines: string[] = [];
  for (const turn of turns) {
    lines.push(`## turn ${turn.n}`);
    for (const entry of turn.entries) {
      if (entry.kind === "prompt") lines.push(`person: ${entry.text ?? ""}`);
      else if (entry.kind === "told") lines.push(`told: ${entry.text ?? ""}`);
      else if (entry.kind === "reply") {
        if ((entry.text ?? "").trim() !== "") lines.push(`assistant: ${entry.text}`);
        for (const call of entry.calls ?? []) {
          lines.push(
            `assistant called ${callLabel({ tool: call.name, arguments: call.arguments })}`,
          );
        }
      } else {
        const text = entry.text ?? entry.excerpt;
        const shown = text.length > outputChars
          ? `${text.slice(0, Math.floor(outputChars * 0.7))}\n[…]\n${
            text.slice(text.length - Math.floor(outputChars * 0.3))
          }`
          : text;
        lines.push(`output of ${callLabel(entry)} (entry ${entry.n}):\n${shown}`);
      }
    }
  }
  return lines.join("\n");
}

/** The exact summary: one line per turn, the prompt, what ran and the reply, clipped. No model. */
export function exactSummary(
  previous: string,
  turns: readonly StoreTurn[],
  maxChars: number,
): string {
  const lines = previous.trim() === "" ? [] : [previous.trim()];
  for (const turn of turns) {
    const prompt = turn.entries.find((e) => e.kind === "prompt")?.text ?? "";
    const ran = turn.entries.filter((e) => e.kind === "output").map((e) => callLabel(e));
    const reply = turn.entries.filter((e) => e.kind === "reply").map((e) => e.text ?? "").join(" ");
    lines.push(
      `turn ${turn.n}: asked "${clip(prompt, PROMPT_CHARS)}"${
        ran.length ? `; ran ${ran.join(", ")}` : ""
      }${reply.trim() ? `; replied "${clip(reply, REPLY_CHARS)}"` : ""}`,
    );
  }
  return fitSummary(lines.join("\n"), maxChars);
}

/** One of wisp's own side calls: a fresh tool-less request, thinking off whatever the model's settings say. */
export async function sideCallOf(
  backend: Backend,
  instructions: string,
  message: string,
  signal?: AbortSignal,
): Promise<string> {
  let reply = "";
  for await (
    const event of backend.chat({
      messages: [{ role: "system", content: instructions }, { role: "user", content: message }],
      think: false,
      ...(signal ? { signal } : {}),
    })
  ) {
    if (event.type === "text") reply += event.text;
  }
  return reply;
}

/** The summariser that asks the conversation's model, thinking off. */
export function modelSummariser(backend: Backend): Summariser {
  return {
    async summarise(previous, text, maxChars, signal) {
      const words = Math.max(40, Math.floor(maxChars / 6));
      const reply = await sideCallOf(
        backend,
        SUMMARY_PROMPT,
        `Summary so far:\n${
          previous.trim() || "(none yet)"
        }\n\nTurns leaving view:\n${text}\n\nWrite the new summary in at most ${words} words.`,
        signal,
      );
      if (reply.trim() === "") throw new Error("the model wrote no summary");
      return fitSummary(reply, maxChars);
    },
  };
}
