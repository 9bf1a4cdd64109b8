import { assertEquals } from "../support/assert.ts";
import type { TurnCall } from "../../src/audit/calls.ts";
import { unsupportedClaims } from "../../src/agent/verify.ts";
import { WHOLE_PER_CALL_BYTES, withWholeOutputs } from "../../src/agent/whole_outputs.ts";

const shown: TurnCall = {
  id: "c1",
  tool: "run_command",
  arguments: { command: "seq 1 20000" },
  command: "seq 1 20000",
  outcome: "ok",
  exitStatus: 0,
  text: "exit status: 0\nstdout:\n1\n2\n[… 19,996 lines held back …]\n19999\n20000\nheld back: …",
  outputId: "abc123",
};
const reply = "The command printed:\n```\n10000\n```";

Deno.test("a quoted line that was held back from the model is supported by the stored whole", async () => {
  assertEquals(
    unsupportedClaims(reply, [shown], ["run_command"]).length,
    1,
    "from the shown part alone it is unsupported",
  );
  const whole = Array.from({ length: 20000 }, (_, i) => String(i + 1)).join("\n");
  const asked: [string, number][] = [];
  const calls = await withWholeOutputs([shown], (id, max) => {
    asked.push([id, max]);
    return Promise.resolve(whole);
  });
  assertEquals(asked, [["abc123", WHOLE_PER_CALL_BYTES]]);
  assertEquals(unsupportedClaims(reply, calls, ["run_command"]), []);
});

Deno.test("calls without a stored output, or whose store is gone, keep what they showed", async () => {
  const plain: TurnCall = { ...shown, outputId: undefined };
  const calls = await withWholeOutputs([plain, shown], () => Promise.resolve(null));
  assertEquals(calls.map((c) => c.whole), [undefined, undefined]);
});
