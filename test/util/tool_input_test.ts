/**
 * Inputs a caller names are regular files read within a bound: the one
 * check (src/util/tool_input.ts) directly, and through the CLI commands that
 * take a path (scan, redact, triage), each on a device, a FIFO and a socket.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertThrows } from "../support/assert.ts";
import { runWisp } from "../support/wisp.ts";
import { openInputFile, readWholeInput, ToolInputError } from "../../src/util/tool_input.ts";

async function specialFiles(dir: string) {
  const fifo = join(dir, "pipe");
  assert((await new Deno.Command("mkfifo", { args: [fifo] }).output()).success, "mkfifo");
  const socket = join(dir, "sock");
  const listener = Deno.listen({ transport: "unix", path: socket });
  return { fifo, socket, close: () => listener.close() };
}

Deno.test("openInputFile refuses devices, FIFOs, sockets and folders by kind, and follows a link to a file", async () => {
  const dir = await Deno.makeTempDir();
  const special = await specialFiles(dir);
  try {
    const cases: [string, RegExp][] = [
      ["/dev/zero", /^\/dev\/zero is a device, not a regular file$/],
      [special.fifo, /pipe is a named pipe \(FIFO\), not a regular file$/],
      [special.socket, /sock is a socket, not a regular file$/],
      [dir, /is a folder, not a file$/],
      [join(dir, "nope"), /nope does not exist$/],
    ];
    for (const [path, expected] of cases) {
      const error = assertThrows(() => openInputFile(path), ToolInputError);
      assertMatch(error.message, expected);
    }
    const file = join(dir, "a.txt");
    Deno.writeTextFileSync(file, "hello");
    Deno.symlinkSync(file, join(dir, "link"));
    const opened = openInputFile(join(dir, "link"), "link");
    opened.file.close();
    assertEquals(opened.realPath, Deno.realPathSync(file));
    assertEquals(new TextDecoder().decode(readWholeInput(file, 16)), "hello");
    const big = assertThrows(() => readWholeInput(file, 4, "a.txt"), ToolInputError);
    assertMatch(big.message, /^a\.txt is 5 bytes; at most 4 bytes is read whole$/);
  } finally {
    special.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("wisp scan, redact and triage refuse a device, a FIFO and a socket with one line (scan: exit 2, could not scan; the others 1)", async () => {
  const dir = await Deno.makeTempDir();
  const home = join(dir, "home");
  const special = await specialFiles(dir);
  try {
    for (const path of ["/dev/zero", special.fifo, special.socket]) {
      const commands = [["scan", path], ["redact", path], ["triage", "--no-model", "--path", path]];
      for (const args of commands) {
        const r = await runWisp(args, { home, cwd: dir });
        // scan's 2 is "could not scan", apart from its 1 for "found something" (docs/exit-codes.md).
        assertEquals(r.code, args[0] === "scan" ? 2 : 1, `${args.join(" ")}: ${r.stderr}`);
        assertMatch(
          r.stderr,
          /^error: .* is (a device|a named pipe \(FIFO\)|a socket), not a regular file/,
        );
        assertEquals(r.stderr.trim().split("\n").length, 1, `${args.join(" ")}: ${r.stderr}`);
        assertEquals(r.stdout, "");
      }
    }
  } finally {
    special.close();
    await Deno.remove(dir, { recursive: true });
  }
});
