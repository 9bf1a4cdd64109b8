/**
 * The `unsupported:` line: claims in a reply that no call of the turn
 * produced, found by exact readers over the reply and the turn's calls (from
 * the audit log). Each reader knows one kind of claim — a tool written in
 * call form, a command said to have run, an exit status, a refusal, a test or
 * build outcome, a notification, a file removed, output quoted, a count — and
 * what in the calls would support it. Readers are deliberately narrow: a
 * claim they cannot tie to a sentence pattern is not flagged, so a verified
 * reply shows nothing. Pure.
 *
 *   unsupported: "Removed the scratch file." (no rm, rmdir, unlink, or trash command ran in this turn) +1 more
 */
import type { TurnCall } from "../audit/calls.ts";

export interface Claim {
  /** The sentence (or line) of the reply that makes the claim, shortened. */
  quote: string;
  /** Why it is unsupported, as the line shows it in parentheses. */
  why: string;
  /** Which reader found it. */
  reader: string;
}

interface Turn {
  calls: readonly TurnCall[];
  /** Every call's result and arguments, for quoted text and numbers. */
  haystack: string;
  /** Commands that ran (not refused). */
  commands: string[];
}

type Reader = (sentence: string, turn: Turn) => Omit<Claim, "quote"> | null;

const QUOTE_MAX = 90;

/** Sentences and lines of a reply, code blocks kept apart (they are read by the output reader). */
function sentencesOf(reply: string): string[] {
  const prose = reply.replace(/```[\s\S]*?(```|$)/g, "\n");
  const out: string[] = [];
  for (const line of prose.split(/\r?\n/)) {
    const text = line.trim();
    if (!text) continue;
    // Split after . ! ? followed by a space and an upper-case letter, a digit or a quote: keeps "e.g. x" and paths whole.
    for (const part of text.split(/(?<=[.!?])\s+(?=[A-Z0-9"'`(])/)) {
      if (part.trim()) out.push(part.trim());
    }
  }
  return out;
}

export function shorten(text: string, max = QUOTE_MAX): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : flat.slice(0, max - 1).trimEnd() + "…";
}

const NEGATED =
  /\b(not|never|no|cannot|can't|couldn't|didn't|did not|wasn't|won't|unable|without|if|would|should|could|will|can|may|might|try|please)\b|n't\b/i;

function ran(call: TurnCall): boolean {
  return call.outcome === "ok" || call.outcome === "failed";
}

const normalise = (s: string) => s.replace(/\s+/g, " ").trim();

// --- the readers -------------------------------------------------------------------------

/** `run_command {"command": "ls"} → …` or `read_file("x") returned …`, for a tool that never ran. */
function callForm(tools: readonly string[]): Reader {
  return (sentence, turn) => {
    for (const tool of tools) {
      const form = new RegExp(
        `\\b${tool}\\s*(\\(|\\{)[^\\n]*?(→|->|=>|returned|gave|printed|showed|says|:\\s*\\S)`,
      );
      if (form.test(sentence) && !turn.calls.some((c) => c.tool === tool && ran(c))) {
        return { reader: "call form", why: `no ${tool} call ran in this turn` };
      }
    }
    return null;
  };
}

/** "I ran `git status`", "executed `make`", "The command `ls` printed …". */
const commandRan: Reader = (sentence, turn) => {
  const match =
    /\b(?:ran|executed|have run|'ve run)\s+(?:the command\s+)?`([^`]+)`/i.exec(sentence) ??
      /\bthe command\s+`([^`]+)`\s+(?:returned|printed|exited|succeeded|failed|output|showed|gave|produced)/i
        .exec(sentence);
  if (!match || /\b(not|never|didn't|did not|couldn't|wasn't)\b/i.test(sentence)) return null;
  const said = normalise(match[1]);
  if (!said) return null;
  const supported = turn.commands.some((command) => {
    const ran = normalise(command);
    return ran.includes(said) || said.includes(ran);
  });
  return supported
    ? null
    : { reader: "command", why: `no command \`${shorten(said, 40)}\` ran in this turn` };
};

/** "exit status 0", "exit code 1", "exited with 2". */
const exitStatus: Reader = (sentence, turn) => {
  const match =
    /\bexit(?:ed)?\s+(?:status|code)(?:\s+(?:of|was|is|=))?\s*:?\s*(-?\d+)\b/i.exec(sentence) ??
      /\bexited\s+(?:with\s+)?(?:status\s+|code\s+)?(-?\d+)\b/i.exec(sentence) ??
      /\breturned\s+(?:exit\s+)?(?:status|code)\s+(-?\d+)\b/i.exec(sentence);
  if (!match || /\b(if|would|should|expect|means)\b/i.test(sentence)) return null;
  const status = Number(match[1]);
  if (turn.calls.some((c) => c.exitStatus === status)) return null;
  const anyCommand = turn.calls.some((c) => c.exitStatus !== undefined);
  return {
    reader: "exit status",
    why: anyCommand
      ? `no command in this turn exited with ${status}`
      : "no command ran in this turn",
  };
};

/** "denied by policy", "was not approved", "the command was refused". */
const refusal: Reader = (sentence, turn) => {
  if (
    !/\b(denied by (?:the )?policy|blocked by (?:the )?policy|not approved|was (?:denied|refused|declined|blocked))\b/i
      .test(sentence)
  ) {
    return null;
  }
  if (/\b(if|would|could|might|may)\b/i.test(sentence)) return null;
  if (turn.calls.some((c) => c.outcome === "denied" || c.outcome === "declined")) return null;
  return { reader: "refusal", why: "no call in this turn was refused" };
};

const TEST_OR_BUILD =
  /\b(test|tests|build|check|make|cargo|pytest|jest|vitest|mocha|go|swift|npm|pnpm|yarn|bun|deno|tsc|gradle|gradlew|mvn|ctest|rspec|tox|bazel|ninja|cmake|mix|dotnet|xcodebuild|rake|phpunit|unittest|lint)\b/;

/** "All tests pass", "3 tests failed", "the build succeeded". */
const testOutcome: Reader = (sentence, turn) => {
  const claim =
    /\b(?:all\s+)?(?:\d+\s+)?tests?\s+(?:passed|pass|failed|fail|succeeded|are passing|are failing)\b/i
      .test(sentence) ||
    /\b(?:the\s+)?(?:build|compilation|compile)\s+(?:succeeded|passed|failed|is clean|completed|was successful|worked)\b/i
      .test(sentence) ||
    /\b(?:built|compiled) (?:successfully|cleanly|without errors)\b/i.test(sentence);
  if (!claim || NEGATED.test(sentence.replace(/\bfail(ed)?\b/gi, ""))) return null;
  if (turn.commands.some((command) => TEST_OR_BUILD.test(command))) return null;
  return { reader: "test or build", why: "no test or build command ran in this turn" };
};

/** "I sent you a notification", "notified you". */
const notification: Reader = (sentence, turn) => {
  if (
    !/\b(?:sent|posted)\s+(?:you\s+)?a\s+notification\b|\bnotified you\b|\bnotification (?:was|has been) (?:sent|posted)\b/i
      .test(sentence)
  ) {
    return null;
  }
  if (/\b(not|never|didn't|did not|couldn't|will|can)\b/i.test(sentence)) return null;
  if (turn.calls.some((c) => c.tool === "notify" && ran(c))) return null;
  return { reader: "notification", why: "no notify call ran in this turn" };
};

const REMOVER = /(^|[\s;&|(`])(rm|rmdir|unlink|trash|shred|git\s+rm|git\s+clean)(\s|$)/;

/** "Removed the scratch file.", "I deleted build/." */
const fileRemoved: Reader = (sentence, turn) => {
  if (!/\b(?:removed|deleted|erased|trashed)\b/i.test(sentence)) return null;
  if (
    !/\b(file|files|folder|folders|directory|directories|dir)\b|`[^`]+`|\S+\/\S*|\S+\.[A-Za-z0-9]{1,5}\b/i
      .test(sentence)
  ) return null;
  if (
    NEGATED.test(sentence) ||
    /\b(was|were|been|is|are) (already )?(removed|deleted)\b.*\b(by|from) (you|someone|the user)\b/i
      .test(sentence)
  ) return null;
  if (
    turn.calls.some((c) => c.outcome === "ok" && c.command !== undefined && REMOVER.test(c.command))
  ) return null;
  return { reader: "file removed", why: "no rm, rmdir, unlink, or trash command ran in this turn" };
};

const COUNTED =
  "files?|lines?|matches|errors?|warnings?|tests?|commits?|processes|directories|folders|entries|items|results|packages|dependencies|failures|branches|bytes";

/** Whether the calls show a number: as a token in some output, or as the count of an output's lines. */
function showsNumber(turn: Turn, n: number): boolean {
  const token = new RegExp(`(^|[^0-9.,])${n}([^0-9]|$)`);
  if (token.test(turn.haystack.replaceAll(",", ""))) return true;
  return turn.calls.some((call) => {
    const lines = (call.whole ?? call.text).split(/\r?\n/).filter((l) =>
      l.trim() !== "" && !/^(exit status|stdout|stderr):/.test(l)
    );
    return lines.length === n;
  });
}

/** "There are 12 files", "found 3 matches". */
const count: Reader = (sentence, turn) => {
  const match = new RegExp(`\\b(\\d[\\d,]*)\\s+(?:\\w+\\s+)?(${COUNTED})\\b`, "i").exec(sentence);
  if (!match) return null;
  const n = Number(match[1].replaceAll(",", ""));
  if (!Number.isFinite(n) || n < 2) return null;
  if (/\b(if|would|should|up to|at most|at least|limit|every|per)\b/i.test(sentence)) return null;
  if (showsNumber(turn, n)) return null;
  return {
    reader: "count",
    why: turn.calls.length === 0 ? "no call ran in this turn" : `no call in this turn showed ${n}`,
  };
};

const INTRODUCES_OUTPUT =
  /\b(output|printed|prints|print|returned|returns|shows|showed|says|said|result|gave|reads|contains|contents)\b/i;

/** Fenced blocks and inline quotes introduced as output, whose lines no call produced. */
function quotedOutputClaims(reply: string, turn: Turn): Claim[] {
  const claims: Claim[] = [];
  const fence = /```[^\n]*\n([\s\S]*?)(```|$)/g;
  for (let m = fence.exec(reply); m; m = fence.exec(reply)) {
    const before = reply.slice(Math.max(0, m.index - 200), m.index).split(/\n/).filter((l) =>
      l.trim()
    ).pop() ?? "";
    if (!INTRODUCES_OUTPUT.test(before)) continue;
    const missing = m[1].split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length >= 3)
      .find((line) => !turn.haystack.includes(line));
    if (missing !== undefined) {
      claims.push({
        reader: "output",
        quote: shorten(missing),
        why: turn.calls.length === 0
          ? "no call ran in this turn"
          : "no call in this turn printed it",
      });
    }
  }
  const inline =
    /\b(?:output|printed|prints|returned|said|says|shows|showed)\b[^`\n]{0,24}`([^`\n]{3,})`/gi;
  for (const sentence of sentencesOf(reply)) {
    for (const m of sentence.matchAll(inline)) {
      if (turn.haystack.includes(m[1].trim())) continue;
      if (turn.commands.some((c) => c.includes(m[1].trim()))) continue;
      claims.push({
        reader: "output",
        quote: shorten(sentence),
        why: turn.calls.length === 0
          ? "no call ran in this turn"
          : `no call in this turn printed \`${shorten(m[1], 40)}\``,
      });
    }
  }
  return claims;
}

function turnOf(calls: readonly TurnCall[]): Turn {
  const haystack = calls.map((c) => `${c.whole ?? c.text}\n${JSON.stringify(c.arguments ?? null)}`)
    .join("\n");
  const commands = calls.filter(ran).flatMap((c) => c.command !== undefined ? [c.command] : []);
  return { calls, haystack, commands };
}

/** Every unsupported claim in the reply, in reply order (sentences first, then quoted output). */
export function unsupportedClaims(
  reply: string,
  calls: readonly TurnCall[],
  tools: readonly string[],
): Claim[] {
  const turn = turnOf(calls);
  const readers: Reader[] = [
    callForm(tools),
    commandRan,
    exitStatus,
    refusal,
    testOutcome,
    notification,
    fileRemoved,
    count,
  ];
  const claims: Claim[] = [];
  for (const sentence of sentencesOf(reply)) {
    for (const reader of readers) {
      const found = reader(sentence, turn);
      if (found) {
        claims.push({ ...found, quote: shorten(sentence) });
        break; // one claim per sentence: the first reader that objects
      }
    }
  }
  const seen = new Set(claims.map((c) => c.quote));
  for (const claim of quotedOutputClaims(reply, turn)) {
    if (!seen.has(claim.quote)) {
      seen.add(claim.quote);
      claims.push(claim);
    }
  }
  return claims;
}

/** `unsupported: "…" (why) +N more`, or null for a verified reply. */
export function unsupportedLine(claims: readonly Claim[]): string | null {
  if (claims.length === 0) return null;
  const [first] = claims;
  const more = claims.length - 1;
  return `unsupported: "${first.quote}" (${first.why})${more > 0 ? ` +${more} more` : ""}`;
}
