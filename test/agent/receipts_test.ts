import { assertEquals } from "../support/assert.ts";
import { callsFromEvents, refusalKind, type TurnCall } from "../../src/audit/calls.ts";
import { ranLine } from "../../src/agent/receipts.ts";
import type { AuditEvent } from "../../src/audit/catalogue.ts";

let seq = 0;
function event(kind: string, fields: Record<string, unknown>): AuditEvent {
  seq++;
  return { ts: "", session: "s", seq, id: `e${seq}`, kind, version: "0", ...fields };
}

/** A call and its result as the registry records them. */
function pair(tool: string, text: string, ok: boolean, args: unknown = {}): AuditEvent[] {
  const call = event("tool.call", { tool, arguments: args });
  return [call, event("tool.result", { tool, ok, callId: call.id, text })];
}

function call(tool: string, outcome: TurnCall["outcome"]): TurnCall {
  return { id: tool, tool, arguments: {}, outcome, text: "" };
}

Deno.test("refusals are told apart from failures by the result's words", () => {
  assertEquals(refusalKind("error: command denied by policy: sudo is refused"), "denied");
  assertEquals(refusalKind("error: command not approved: no one can be asked here"), "declined");
  assertEquals(
    refusalKind("error: read not approved: error: command denied by policy: wisp's home"),
    "denied",
  );
  assertEquals(refusalKind("error: edit not approved: the person refused it"), "declined");
  assertEquals(refusalKind("exit status: 1\nstderr:\nerror: command not approved"), null);
});

Deno.test("calls are read from the turn's events, joined with their results", () => {
  const events = [
    event("prompt", { text: "go" }),
    ...pair("run_command", "exit status: 2\nstderr:\nboom", false, { command: "make" }),
    event("command.outcome", { command: "make", exitStatus: 2 }),
    ...pair("read_file", "1\tx\n[end of file]", true, { path: "x" }),
    event("tool.call", { tool: "run_command", arguments: '{"command":"ls"}' }),
  ];
  const calls = callsFromEvents(events);
  assertEquals(calls.map((c) => [c.tool, c.outcome, c.command, c.exitStatus]), [
    ["run_command", "failed", "make", 2],
    ["read_file", "ok", undefined, undefined],
    ["run_command", "unfinished", "ls", undefined],
  ]);
});

Deno.test("the ran line: order of first call, counts, failed, denied and declined apart", () => {
  const calls = [
    call("read_file", "ok"),
    call("run_command", "ok"),
    call("run_command", "failed"),
    call("read_file", "ok"),
    call("run_command", "denied"),
    call("edit_file", "ok"),
    call("run_command", "declined"),
    call("notify", "ok"),
    call("run_command", "failed"),
  ];
  assertEquals(
    ranLine(calls, "", []),
    "ran: read_file ×2 · run_command ×5 (2 failed, 1 denied, 1 declined) · edit_file · notify",
  );
});

Deno.test("the ran line names six tools, then +N more", () => {
  const calls = ["a", "b", "c", "d", "e", "f", "g", "h"].map((t) => call(t, "ok"));
  assertEquals(ranLine(calls, "", []), "ran: a · b · c · d · e · f · +2 more");
});

Deno.test("no calls: nothing, unless the reply names one of the conversation's tools", () => {
  assertEquals(ranLine([], "It is Monday.", ["current_date", "run_command"]), null);
  assertEquals(
    ranLine([], "I used run_command to check.", ["current_date", "run_command"]),
    "ran: no tools",
  );
  assertEquals(
    ranLine([], "I used run_commander.", ["run_command"]),
    null,
    "a word, not a part of one",
  );
  assertEquals(
    ranLine([], "I used read_file.", ["run_command"]),
    null,
    "only the conversation's tools count",
  );
});
