/**
 * Runs one case the way wisp runs a person's message: a scratch home and a
 * scratch project, the real Session (gate, sandbox, audit, output store), a
 * Conversation with the tools the case offers, and a scripted person who
 * answers the gate's questions as the case says. triage and draft cases run
 * wisp's own condensing steps (the model step of triage on output no reader
 * explains; draft_change on a diff, or on the staged change through the
 * gate) inside a turn of the same session, so their audit events are
 * collected the same way. Then the exact check (check.ts) reads the outcome.
 */
import { dirname, join } from "node:path";
import type { AuditEvent } from "../src/audit/catalogue.ts";
import { homePaths } from "../src/config/home.ts";
import { configSchema } from "../src/config/schema.ts";
import type { ApprovalAnswer, ApprovalHost } from "../src/gate/gate.ts";
import type { Backend, ChatRequest, StreamEvent } from "../src/models/backend.ts";
import { Session } from "../src/session/session.ts";
import { Conversation, TurnFailed } from "../src/agent/conversation.ts";
import { modelJudge } from "../src/condense/judge.ts";
import { runTriage } from "../src/condense/service.ts";
import { draftChangeTool } from "../src/condense/tools.ts";
import type { Finding } from "../src/condense/findings.ts";
import { messageOf } from "../src/util/errors.ts";
import { type EvalCase, FIXTURES_DIR, type SetName } from "./cases.ts";
import { type CaseOutcome, checkOutcome } from "./check.ts";
import type { CaseWorld } from "./facts.ts";

/** A case's result, as the table and --json report it. */
export interface CaseResult {
  set: SetName;
  id: string;
  about: string;
  status: "pass" | "fail" | "skip";
  /** Why it failed, or why it was skipped. */
  reasons: string[];
  seconds: number;
  tokens: { input: number; output: number };
}

/** Token counts a backend reported, summed over every request of a case. */
export interface TokenCount {
  input: number;
  output: number;
}

/**
 * The backend as the case sees it: the same model, with the usage every
 * response reports added to `tokens`.
 */
export function countingBackend(backend: Backend, tokens: TokenCount): Backend {
  return {
    name: backend.name,
    runtime: backend.runtime,
    model: backend.model,
    capabilities: () => backend.capabilities(),
    contextWindow: () => backend.contextWindow(),
    async *chat(request: ChatRequest): AsyncGenerator<StreamEvent> {
      for await (const event of backend.chat(request)) {
        if (event.type === "done" && event.usage) {
          tokens.input += event.usage.inputTokens ?? 0;
          tokens.output += event.usage.outputTokens ?? 0;
        }
        yield event;
      }
    },
  };
}

/** The scripted person: answers every approval the case's way, and counts the questions. */
function scriptedPerson(answer: "approve" | "deny"): ApprovalHost & { asked: number } {
  const person = {
    asked: 0,
    approve(): Promise<ApprovalAnswer> {
      person.asked++;
      return Promise.resolve(answer === "approve" ? "session" : "no");
    },
  };
  return person;
}

/**
 * Fill `{{project}}`, `{{port}}` and `{{process}}` into a text or any JSON
 * value; a string that is `{{port}}` alone becomes the port's number.
 */
export function fillIn<T>(value: T, names: Record<string, string>): T {
  let text = JSON.stringify(value);
  if (names.port !== undefined) text = text.replaceAll('"{{port}}"', names.port);
  text = text.replace(
    /\{\{(project|port|process)\}\}/g,
    (whole, key: string) =>
      names[key] !== undefined ? JSON.stringify(names[key]).slice(1, -1) : whole,
  );
  return JSON.parse(text) as T;
}

async function git(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=eval", "-c", "user.email=eval@example.invalid", ...args],
    cwd,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`git ${args[0]} failed: ${new TextDecoder().decode(out.stderr).trim()}`);
  }
}

function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    Deno.mkdirSync(dirname(full), { recursive: true });
    Deno.writeTextFileSync(full, content);
  }
}

/** What a case's setup started, to be ended after it. */
interface Stage {
  project: string;
  home: string;
  names: Record<string, string>;
  world: CaseWorld;
  end(): Promise<void>;
}

/** The scratch folder, its project and home, and whatever the setup asks for. */
async function stage(c: EvalCase): Promise<Stage> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "wisp-eval-" }));
  const project = join(dir, "project");
  const home = join(dir, "home");
  Deno.mkdirSync(project);
  const names: Record<string, string> = { project };
  const world: CaseWorld = {};
  const enders: (() => Promise<void> | void)[] = [];
  try {
    writeFiles(project, c.setup.files);
    for (const [path, fixture] of Object.entries(c.setup.copy)) {
      const full = join(project, path);
      Deno.mkdirSync(dirname(full), { recursive: true });
      Deno.copyFileSync(join(FIXTURES_DIR, fixture), full);
    }
    for (const [path, bytes] of Object.entries(c.setup.sized)) {
      const full = join(project, path);
      Deno.mkdirSync(dirname(full), { recursive: true });
      Deno.writeFileSync(full, new Uint8Array(bytes).fill(0x61));
    }
    if (c.setup.git) {
      await git(project, "init", "-q", "-b", "main");
      await git(project, "add", "-A");
      await git(project, "commit", "-q", "--allow-empty", "-m", "start");
      writeFiles(project, c.setup.staged);
      await git(project, "add", "-A");
    }
    if (c.setup.listen) {
      const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      names.port = String((listener.addr as Deno.NetAddr).port);
      world.listenerName = "deno";
      enders.push(() => listener.close());
    }
    if (c.setup.process) {
      // A copy of sleep under a name of its own, so the process table has exactly one such program.
      const name = `evalsleeper${Math.floor(Math.random() * 1e6)}`;
      const sleep = ["/bin/sleep", "/usr/bin/sleep"].find((p) => {
        try {
          return Deno.statSync(p).isFile;
        } catch {
          return false;
        }
      });
      if (!sleep) throw new Error("no sleep program to start for the case");
      const program = join(dir, name);
      Deno.copyFileSync(sleep, program);
      Deno.chmodSync(program, 0o755);
      const child = new Deno.Command(program, { args: ["3600"], stdin: "null", stdout: "null" })
        .spawn();
      names.process = name;
      world.processPid = child.pid;
      enders.push(async () => {
        try {
          child.kill("SIGKILL");
        } catch { /* already gone */ }
        await child.status;
      });
    }
  } catch (error) {
    for (const end of enders) await end();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw error;
  }
  return {
    project,
    home,
    names,
    world,
    async end() {
      for (const end of enders) await end();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** Tools a case needs that this build's session does not offer, as the skip reason. */
function missingNeeds(c: EvalCase, session: Session): string | null {
  const missing = c.needs.filter((name) => !session.registry.get(name));
  if (missing.length === 0) return null;
  return `this build has no ${missing.join(", ")} tool`;
}

/** The turns of a conversation case; the events of all of them and the last reply. */
async function converse(
  c: EvalCase,
  session: Session,
  backend: Backend,
  prompts: string[],
  signal?: AbortSignal,
): Promise<{ reply: string; events: AuditEvent[] }> {
  const conversation = await Conversation.open(session, {
    backend,
    tools: session.tools(c.tools ? { only: c.tools } : {}),
  });
  const events: AuditEvent[] = [];
  let reply = "";
  for (const prompt of prompts) {
    try {
      const report = await conversation.turn({ prompt, ...(signal ? { signal } : {}) });
      events.push(...report.events);
      reply = report.outcome.reply;
    } catch (error) {
      if (error instanceof TurnFailed) events.push(...error.events);
      throw error;
    }
  }
  return { reply, events };
}

/** Inside one turn of the session: triage's model step, or a draft. */
async function condense(
  c: EvalCase,
  session: Session,
  backend: Backend,
  host: ApprovalHost,
  set: SetName,
  signal?: AbortSignal,
): Promise<{ reply: string; events: AuditEvent[]; findings?: Finding[]; written?: string }> {
  const turn = session.beginTurn({ budgetBytes: 16384, ...(signal ? { signal } : {}) });
  try {
    return await turn.run(async () => {
      if (set === "triage") {
        if (!c.output) throw new Error(`case ${c.id} has no output to triage`);
        const result = await runTriage({
          text: c.output.text,
          source: "command",
          command: c.output.command,
          exitStatus: c.output.exitStatus,
          bytes: new TextEncoder().encode(c.output.text).length,
          choice: {
            judge: modelJudge(backend, (prompt, reply) => {
              session.audit.record("prompt", { text: prompt, model: backend.name });
              session.audit.record("response", { text: reply, model: backend.name });
            }),
          },
          audit: session.audit,
          ...(signal ? { signal } : {}),
        });
        return { reply: result.headline, events: [...turn.events], findings: result.findings };
      }
      const out = await draftChangeTool(
        {
          ...(c.diff !== undefined ? { text: c.diff } : {}),
          kind: c.check.draft?.kind ?? "commit",
        },
        {
          cwd: session.root,
          model: backend,
          run: {
            config: session.config,
            paths: session.paths,
            audit: session.audit,
            root: session.root,
            host,
            gate: session.gate,
            ...(signal ? { signal } : {}),
          },
        },
      );
      const events = [...turn.events];
      const written = events.filter((e) => e.kind === "response").map((e) => String(e.text)).pop();
      return { reply: out.text, events, written };
    });
  } finally {
    turn.end();
  }
}

/** How a case gets its model: a fresh one per case (a script), or one shared by every case. */
export type BackendFor = (c: EvalCase, set: SetName, names: Record<string, string>) => Backend;

/** How a run treats each case. */
export interface CaseLimits {
  /** A case still running after this many seconds is stopped and fails; absent: no limit. */
  seconds?: number;
}

/** Run one case end to end and check it. */
export async function runCase(
  c: EvalCase,
  set: SetName,
  backendFor: BackendFor,
  limits: CaseLimits = {},
): Promise<CaseResult> {
  const tokens: TokenCount = { input: 0, output: 0 };
  const started = performance.now();
  const result = (status: CaseResult["status"], reasons: string[]): CaseResult => ({
    set,
    id: c.id,
    about: c.about,
    status,
    reasons,
    seconds: (performance.now() - started) / 1000,
    tokens: { ...tokens },
  });
  const staged = await stage(c);
  const person = scriptedPerson(c.approvals);
  let session: Session | undefined;
  try {
    session = Session.open({
      face: "eval",
      paths: homePaths(staged.home),
      config: configSchema.parse(c.config),
      root: staged.project,
      host: person,
    });
    const missing = missingNeeds(c, session);
    if (missing) return result("skip", [missing]);
    const backend = countingBackend(backendFor(c, set, staged.names), tokens);
    const check = fillIn(c.check, staged.names);
    const signal = limits.seconds ? AbortSignal.timeout(limits.seconds * 1000) : undefined;
    const tooLong = () => `the case ran past its limit of ${limits.seconds} s and was stopped`;
    let outcome: CaseOutcome;
    try {
      const done: { reply: string; events: AuditEvent[]; findings?: Finding[]; written?: string } =
        set === "triage" || set === "draft"
          ? await condense(c, session, backend, person, set, signal)
          : await converse(c, session, backend, fillIn(c.prompts, staged.names), signal);
      outcome = {
        reply: done.reply,
        events: done.events,
        project: staged.project,
        world: staged.world,
        ...(done.findings ? { findings: done.findings } : {}),
        ...(done.written !== undefined ? { draftWritten: done.written } : {}),
      };
    } catch (error) {
      if (signal?.aborted) return result("fail", [tooLong()]);
      const failure = error instanceof TurnFailed ? error.failure : error;
      return result("fail", [`the case did not finish: ${messageOf(failure)}`]);
    }
    if (signal?.aborted) return result("fail", [tooLong()]);
    const reasons = await checkOutcome(check, outcome);
    return result(reasons.length === 0 ? "pass" : "fail", reasons);
  } finally {
    session?.close();
    await staged.end();
  }
}
