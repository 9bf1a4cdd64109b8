/**
 * Reading what the stores need from a log file about to rotate away
 * (src/context/rotating_log.ts): only the wanted events, and one read of the
 * file shared by every store the writer tells in the same rotation.
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { textsInLogFile } from "../../src/context/rotating_log.ts";
import type { EntryKind } from "../../src/context/store.ts";

function logLine(seq: number, id: string, fields: Record<string, unknown>): string {
  return JSON.stringify({ ts: "2026-12-02T10:00:00Z", session: "s", seq, id, ...fields });
}

function scratchLog(): string {
  const dir = Deno.makeTempDirSync({ prefix: "wisp-rotating-log-" });
  const file = join(dir, "audit.1.jsonl");
  Deno.writeTextFileSync(
    file,
    [
      logLine(1, "e1", { kind: "tool_result", text: "first output" }),
      "{ a damaged line",
      logLine(2, "e2", { kind: "command", command: "ls", output: "a\nb\n" }),
      logLine(3, "e3", { kind: "tool_result", text: "not wanted" }),
    ].join("\n") + "\n",
  );
  return file;
}

Deno.test("only the wanted events' texts come back, a told command with its line", () => {
  const file = scratchLog();
  const wanted = new Map<string, EntryKind>([["e1", "output"], ["e2", "told"], ["e9", "output"]]);
  const found = textsInLogFile(file, wanted);
  assertEquals(Object.fromEntries(found), { e1: "first output", e2: "$ ls\na\nb\n" });
  Deno.removeSync(join(file, ".."), { recursive: true });
});

Deno.test("stores told of one rotation share one read; the next rotation reads the file again", async () => {
  const file = scratchLog();
  const first = textsInLogFile(file, new Map<string, EntryKind>([["e1", "output"]]));
  // The file changes before the second store asks, within the same rotation: the second store
  // gets what the first read, so the file was read once for both.
  Deno.writeTextFileSync(file, logLine(1, "e1", { kind: "tool_result", text: "rewritten" }) + "\n");
  const second = textsInLogFile(file, new Map<string, EntryKind>([["e1", "output"]]));
  assertEquals(first.get("e1"), "first output");
  assertEquals(second.get("e1"), "first output");
  await Promise.resolve(); // the rotation's listeners have all run
  const later = textsInLogFile(file, new Map<string, EntryKind>([["e1", "output"]]));
  assertEquals(later.get("e1"), "rewritten");
  Deno.removeSync(join(file, ".."), { recursive: true });
});

Deno.test("a file already gone gives nothing, and is not remembered as gone", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "wisp-rotating-log-" });
  const file = join(dir, "audit.1.jsonl");
  assertEquals(textsInLogFile(file, new Map<string, EntryKind>([["e1", "output"]])).size, 0);
  await Promise.resolve();
  Deno.writeTextFileSync(file, logLine(1, "e1", { kind: "tool_result", text: "here now" }) + "\n");
  assertEquals(
    textsInLogFile(file, new Map<string, EntryKind>([["e1", "output"]])).get("e1"),
    "here now",
  );
  Deno.removeSync(dir, { recursive: true });
});
