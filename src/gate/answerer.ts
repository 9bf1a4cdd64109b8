/**
 * Who may answer a pending request: the process the kernel names as the
 * socket's peer (peer_socket.ts) must be wisp's own `approvals approve|deny
 * <id>` (`facts keep|drop <id>` for a fact to keep), with a controlling
 * terminal of its own, and must not descend from the MCP client that
 * started this server, from this server, or from anything this server
 * started (ADR 0270). Every check that cannot be made
 * refuses the answer.
 *
 * "wisp's own" is judged by the kernel's name for the executable:
 *   - a compiled wisp: the same binary as the server;
 *   - wisp from source: the same deno binary, running this source folder's
 *     main.ts (by real path, so a copy of the source elsewhere is not wisp)
 *     with only the flags `deno task wisp` uses and this folder's deno.json.
 */
import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BUILD } from "../build_info.ts";
import type { Prober, ProcessFacts } from "../platform/process_probe.ts";

/** What a wisp process looks like to the kernel. */
export interface WispIdentity {
  kind: "compiled" | "source";
  /** The executable's real path (the wisp binary, or deno). */
  exe: string;
  /** From source: the real path of main.ts and of its deno.json. */
  main?: string;
  config?: string;
}

function realPath(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch {
    return undefined;
  }
}

/** This process's identity, for comparing an answering process with. */
export function ownIdentity(): WispIdentity {
  const exe = realPath(Deno.execPath()) ?? Deno.execPath();
  if (BUILD.kind !== "source") return { kind: "compiled", exe };
  // This file is src/gate/answerer.ts: the checkout is two folders up.
  const root = fileURLToPath(new URL("../../", import.meta.url));
  return {
    kind: "source",
    exe,
    main: realPath(join(root, "main.ts")) ?? join(root, "main.ts"),
    config: realPath(join(root, "deno.json")) ?? join(root, "deno.json"),
  };
}

/** `deno run` flags that take no value or carry it after `=`, and change no code that runs. */
const PLAIN_FLAG =
  /^(-q|--quiet|-A|--allow-all|--no-prompt|--no-check|--cached-only|--frozen(=true)?|-P(=[\w-]+)?|--permission-set(=[\w-]+)?|--(allow|deny)-(read|write|net|env|sys|run|ffi|import)(=.*)?)$/;

/**
 * The wisp arguments of an answering process's argv (`approvals approve <id>`
 * and what follows), or a reason it is not wisp. Pure.
 */
export function wispArguments(
  argv: string[],
  identity: WispIdentity,
  cwd: string | undefined,
  real: (path: string) => string | undefined = realPath,
): { ok: true; args: string[] } | { ok: false; reason: string } {
  if (identity.kind === "compiled") return { ok: true, args: argv.slice(1) };
  if (argv[1] !== "run") return { ok: false, reason: "it is deno, but not deno run" };
  let i = 2;
  for (; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("-")) break;
    if (PLAIN_FLAG.test(arg)) continue;
    const config = arg.startsWith("--config=")
      ? arg.slice("--config=".length)
      : arg === "--config" || arg === "-c"
      ? argv[++i]
      : undefined;
    if (config === undefined) return { ok: false, reason: `deno runs it with ${arg}` };
    const full = isAbsolute(config) ? config : cwd ? resolve(cwd, config) : undefined;
    if (!full || real(full) !== identity.config) {
      return { ok: false, reason: "deno runs it with another configuration" };
    }
  }
  const script = argv[i];
  if (script === undefined) return { ok: false, reason: "deno runs no script" };
  const path = script.startsWith("file://")
    ? fileURLToPath(script)
    : isAbsolute(script)
    ? script
    : cwd
    ? resolve(cwd, script)
    : undefined;
  if (!path || real(path) !== identity.main) {
    return { ok: false, reason: `deno runs ${script}, not this wisp's main.ts` };
  }
  return { ok: true, args: argv.slice(i + 1) };
}

/** A process named with its start time, so a reused pid is not taken for it. */
export function processKey(pid: number, start: string | undefined): string {
  return `${pid}@${start ?? "?"}`;
}

/** Streams shared through a launcher (deno task, a shell) that passes the client's pipe along. */
function passedPipe(stdin: string | undefined): boolean {
  return stdin !== undefined && /^(pipe|socket):\[\d+\]$/.test(stdin);
}

/**
 * The processes an answer must not descend from: this server, and its
 * ancestors up to and including the MCP client. The client is the first
 * ancestor that does not share the server's standard input (a task runner
 * or shell between them passes the client's pipe along unchanged); where
 * that cannot be told, the parent.
 */
export async function serverLineage(prober: Prober, self = Deno.pid): Promise<Set<string>> {
  const out = new Set<string>();
  const own = await prober(self);
  if (!own?.alive) throw new Error("wisp could not read its own process facts");
  out.add(processKey(self, own.start));
  let pid = own.ppid;
  for (let depth = 0; pid !== undefined && pid > 1 && depth < 32; depth++) {
    const facts = await prober(pid);
    if (!facts?.alive) break;
    out.add(processKey(pid, facts.start));
    if (!passedPipe(own.stdin) || facts.stdin !== own.stdin) break;
    pid = facts.ppid;
  }
  return out;
}

/**
 * Which of wisp's faces answered: `wisp approvals approve|deny <id>` (and
 * `wisp facts keep|drop <id>`, `wisp questions answer|decline <id>`), or a plain `wisp chat` whose standard
 * input is a terminal, where the person typed `/approvals approve <id>`.
 */
export type AnswererVia = "terminal" | "chat";

/**
 * A check's verdict: who answered (`via`) and, for a command that names its
 * verb, the only decision it may send (`decisions`; absent: a chat, any).
 */
export type AnswererCheck =
  | { ok: true; via: AnswererVia; decisions?: string[] }
  | { ok: false; reason: string };

/** The verbs of each command group that answers a waiting request. */
const ANSWERING_VERBS: Record<string, string[]> = {
  approvals: ["approve", "deny"],
  facts: ["keep", "drop"],
  questions: ["answer", "decline"],
};

/** A terminal device as /proc names a descriptor open on one. */
const TERMINAL_DEVICE = /^\/dev\/(pts\/\d+|tty[\w.]*)$/;

/**
 * Whether wisp's arguments are a face that may answer request `id`: an
 * answering command naming the id, or a plain chat (not `--json`, whose
 * lines a program writes) reading a terminal. Pure.
 */
export function answeringFace(
  args: string[],
  id: string,
  stdin: string | undefined,
): AnswererCheck {
  const [group, verb, target] = args;
  if (group === "chat") {
    if (args.includes("--json")) {
      return {
        ok: false,
        reason:
          "only a plain wisp chat reading a terminal may answer, and this is wisp chat --json, which a program drives",
      };
    }
    if (stdin === undefined || !TERMINAL_DEVICE.test(stdin)) {
      return {
        ok: false,
        reason:
          "only a plain wisp chat reading a terminal may answer, and the answering wisp chat does not read a terminal",
      };
    }
    return { ok: true, via: "chat" };
  }
  if (ANSWERING_VERBS[group]?.includes(verb) && target === id) {
    return { ok: true, via: "terminal", decisions: [verb] };
  }
  return {
    ok: false,
    reason:
      `the answer did not come from wisp approvals approve|deny ${id}, wisp facts keep|drop ${id}, wisp questions answer|decline ${id}, or a plain wisp chat reading a terminal`,
  };
}

const MAX_DEPTH = 256;

/**
 * Whether the process `pid` may answer request `id`: wisp's own executable
 * running an answering command naming `id` (`approvals approve|deny`, `facts
 * keep|drop`, `questions answer|decline`) or a plain chat reading a terminal
 * (answeringFace), with a controlling terminal, not descending from any
 * process in `lineage`.
 */
export async function checkAnswerer(
  pid: number,
  id: string,
  identity: WispIdentity,
  lineage: Set<string>,
  prober: Prober,
): Promise<AnswererCheck> {
  const cannot = { ok: false, reason: "wisp could not check which process answered" } as const;
  if (!Number.isInteger(pid) || pid <= 0) return cannot;
  const facts = await prober(pid);
  if (!facts?.alive || facts.exe === undefined || facts.argv === undefined) return cannot;
  const exe = facts.exe.endsWith(" (deleted)") ? undefined : realPath(facts.exe) ?? facts.exe;
  if (exe !== identity.exe) {
    return { ok: false, reason: `the answer came from ${facts.exe}, not from wisp` };
  }
  const parsed = wispArguments(facts.argv, identity, facts.cwd);
  if (!parsed.ok) {
    return { ok: false, reason: `the answer did not come from wisp: ${parsed.reason}` };
  }
  const face = answeringFace(parsed.args, id, facts.stdin);
  if (!face.ok) return face;
  if (facts.controllingTerminal !== true) {
    return { ok: false, reason: "the answering process has no terminal of its own" };
  }
  const lineageRefusal = await descendsFrom(pid, facts, lineage, prober);
  if (lineageRefusal) return { ok: false, reason: lineageRefusal };
  return face;
}

/**
 * Whether the answering wisp is a plain `wisp chat` whose standard input is
 * a terminal, where the person typed `/approvals approve|deny ID` (docs/chat.md).
 * `--json` is refused: its input is a program's, whatever that program's
 * own terminal is. A platform that does not say where stdin leads refuses.
 */
export function plainChatAtTerminal(args: string[], facts: ProcessFacts): boolean {
  if (args[0] !== "chat") return false;
  const face = answeringFace(args, "", facts.stdin);
  return face.ok && face.via === "chat";
}

async function descendsFrom(
  pid: number,
  facts: ProcessFacts,
  lineage: Set<string>,
  prober: Prober,
): Promise<string | undefined> {
  let current: ProcessFacts | undefined = facts;
  let currentPid = pid;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (!current?.alive) return "wisp could not follow the answering process's parents";
    if (lineage.has(processKey(currentPid, current.start))) {
      return "the answering process was started by the MCP client or by this wisp server";
    }
    const parent = current.ppid;
    if (parent === undefined) return "wisp could not follow the answering process's parents";
    if (parent <= 1) return undefined;
    currentPid = parent;
    current = await prober(parent);
  }
  return "wisp could not follow the answering process's parents";
}
