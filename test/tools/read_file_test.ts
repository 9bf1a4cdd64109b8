/**
 * read_file as the model calls it, through the registry, on real files.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { readApprovalLine } from "../../src/tools/read_file.ts";
import { callTool, scratch } from "./support.ts";

Deno.test("read_file: numbered lines and the marker, page by page", async () => {
  const s = await scratch();
  try {
    const file = join(s.root, "README.md");
    Deno.writeTextFileSync(file, "# wisp\n\nAn on-device agent.\nfour\nfive\n");
    const first = await callTool(s, "read_file", { path: "README.md", limit: 3 });
    assertEquals(first.ok, true);
    assertEquals(
      first.text,
      "1\t# wisp\n2\n3\tAn on-device agent.\n[more: call again with offset 4]",
    );
    const second = await callTool(s, "read_file", { path: file, offset: 4 });
    assertEquals(second.text, "4\tfour\n5\tfive\n[end of file]");
    const past = await callTool(s, "read_file", { path: file, offset: 40 });
    assertEquals(past.text, "(no lines in range)\n[end of file]");
    assertEquals(s.gate.lines[0], "cat 'README.md'");
  } finally {
    await s.cleanup();
  }
});

Deno.test("read_file: CRLF, CR-only and mixed files are numbered line by line, breaks never returned", async () => {
  const s = await scratch();
  try {
    const cases: [string, string][] = [
      ["crlf.txt", "alpha\r\nbeta\r\ngamma\r\n"],
      ["cr.txt", "alpha\rbeta\rgamma\r"],
      ["mixed.txt", "alpha\r\nbeta\rgamma"],
    ];
    for (const [name, text] of cases) {
      Deno.writeTextFileSync(join(s.root, name), text);
      const result = await callTool(s, "read_file", { path: name });
      assertEquals(result.text, "1\talpha\n2\tbeta\n3\tgamma\n[end of file]", name);
      assert(!result.text.includes("\r"));
    }
  } finally {
    await s.cleanup();
  }
});

Deno.test("read_file: binary files, folders and missing files are refused with a reason", async () => {
  const s = await scratch();
  try {
    Deno.writeFileSync(join(s.root, "a.bin"), new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]));
    const binary = await callTool(s, "read_file", { path: "a.bin" });
    assertEquals(binary.ok, false);
    assertMatch(binary.text, /^error: cannot read a\.bin: it is binary/);
    const folder = await callTool(s, "read_file", { path: "." });
    assertMatch(folder.text, /^error: cannot read \.: is a folder/);
    const missing = await callTool(s, "read_file", { path: "nope.txt" });
    assertEquals(missing.text, "error: cannot read nope.txt: no such file");
    // A FIFO would block an open for reading; it is refused before any open.
    const fifo = join(s.root, "pipe");
    const mk = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    if (mk.success) {
      const result = await callTool(s, "read_file", { path: fifo });
      assertMatch(
        result.text,
        /^error: cannot read .*pipe: is a named pipe \(FIFO\), not a regular file/,
      );
    }
  } finally {
    await s.cleanup();
  }
});

Deno.test("read_file: the gate judges cat '<path>', naming where a link leads; a refusal reads nothing", async () => {
  const s = await scratch();
  try {
    const ssh = join(s.base, "home", ".ssh");
    Deno.mkdirSync(ssh, { recursive: true });
    Deno.writeTextFileSync(join(ssh, "id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n");
    Deno.symlinkSync(join(ssh, "id_rsa"), join(s.root, "notes.txt"));
    s.gate.refuse = /id_rsa/;
    const result = await callTool(s, "read_file", { path: "notes.txt" });
    assertEquals(s.gate.lines.at(-1), `cat 'notes.txt' # resolves to '${join(ssh, "id_rsa")}'`);
    assertEquals(result.text, "error: read not approved: the person said no");
    assert(!result.text.includes("secret"));
    // A quote in a name cannot break out of the quoted path.
    assertEquals(readApprovalLine("it's", null, "/x/it's"), `cat 'it'\\''s'`);
    // No gate: fail closed.
    const noGate = await callTool({ ...s, ctx: { ...s.ctx, gate: undefined } }, "read_file", {
      path: "notes.txt",
    });
    assertMatch(noGate.text, /^error: read not approved: no approval gate/);
  } finally {
    await s.cleanup();
  }
});

Deno.test("read_file: a page never passes the tool-output budget", async () => {
  const s = await scratch({ budgetBytes: 4096 });
  try {
    const lines = Array.from({ length: 500 }, (_, i) => `${i + 1}: ${"w".repeat(60)}`);
    Deno.writeTextFileSync(join(s.root, "wide.txt"), lines.join("\n") + "\n");
    const result = await callTool(s, "read_file", { path: "wide.txt", limit: 500 });
    assert(new TextEncoder().encode(result.text).length <= 4096, `${result.text.length} bytes`);
    const match = /\[more: call again with offset (\d+)\]$/.exec(result.text);
    assert(match, result.text.slice(-80));
    const next = Number(match[1]);
    assertStringIncludes(result.text, `\n${next - 1}\t${next - 1}: w`);
    const after = await callTool(s, "read_file", { path: "wide.txt", offset: next, limit: 1 });
    assertEquals(after.text.split("\n")[0], `${next}\t${next}: ${"w".repeat(60)}`);
  } finally {
    await s.cleanup();
  }
});

const READ_LAST_PAGE = new URL("../fixtures/tools/read_last_page.ts", import.meta.url).pathname;

/** Read a page in a process of its own; returns its text and the growth of that process's RSS. */
async function readInOwnProcess(
  file: string,
  offset: number,
): Promise<{ grew: number; text: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", READ_LAST_PAGE, file, String(offset)],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

Deno.test("read_file: a page of a huge file reads only what it needs, in bounded memory", async () => {
  const s = await scratch({ budgetBytes: 65536 });
  try {
    // 256 MiB of 64-byte lines: 255 MiB of the same line, then a MiB of numbered ones.
    const file = join(s.root, "huge.log");
    const handle = Deno.openSync(file, { write: true, create: true });
    const lineLen = 64;
    const perBlock = (1 << 20) / lineLen;
    const enc = new TextEncoder();
    const filler = enc.encode("filler".padEnd(lineLen - 1, ".") + "\n");
    const block = new Uint8Array(1 << 20);
    for (let i = 0; i < perBlock; i++) block.set(filler, i * lineLen);
    for (let b = 0; b < 255; b++) handle.writeSync(block);
    for (let i = 0; i < perBlock; i++) {
      block.set(
        enc.encode(`line ${255 * perBlock + i + 1}`.padEnd(lineLen - 1, ".") + "\n"),
        i * lineLen,
      );
    }
    handle.writeSync(block);
    handle.close();
    const totalLines = 256 * perBlock;

    const first = await callTool(s, "read_file", { path: file, limit: 5 });
    assertStringIncludes(first.text, "1\tfiller....");
    assertStringIncludes(first.text, "[more: call again with offset 6]");

    const last = await readInOwnProcess(file, totalLines - 1);
    const grew = last.grew;
    assertEquals(
      last.text,
      `${totalLines - 1}\tline ${totalLines - 1}`.padEnd(
        String(totalLines - 1).length + 1 + lineLen - 1,
        ".",
      ) +
        "\n" +
        `${totalLines}\tline ${totalLines}`.padEnd(
          String(totalLines).length + 1 + lineLen - 1,
          ".",
        ) +
        "\n[end of file]",
    );
    assert(grew < 64 * 1024 * 1024, `reading the end of a 256 MiB file grew RSS by ${grew} bytes`);
  } finally {
    await s.cleanup();
  }
});

Deno.test("read_file: the first page of a huge file costs about a page of reading", async () => {
  const s = await scratch({ budgetBytes: 8192 });
  try {
    const file = join(s.root, "big.txt");
    const chunk = new TextEncoder().encode("0123456789abcdef\n".repeat(1 << 16)); // ~1.1 MB
    const handle = Deno.openSync(file, { write: true, create: true });
    for (let i = 0; i < 64; i++) handle.writeSync(chunk); // ~70 MB
    handle.close();
    const { readFile } = await import("../../src/tools/read_file.ts");
    const result = await readFile({ path: file, offset: 1, limit: 20 }, s.ctx);
    assertEquals(result.meta?.lines, 20);
    assert((result.meta?.bytesRead as number) <= 64 * 1024, `read ${result.meta?.bytesRead} bytes`);
    // One 70 MB line with no break: its start is shown, and memory stays bounded.
    const one = join(s.root, "oneline.txt");
    const h2 = Deno.openSync(one, { write: true, create: true });
    const z = new Uint8Array(1 << 20).fill(0x7a);
    for (let i = 0; i < 64; i++) h2.writeSync(z);
    h2.close();
    const measured = await readInOwnProcess(one, 1);
    assert(
      measured.grew < 32 * 1024 * 1024,
      `a single huge line grew RSS by ${measured.grew} bytes`,
    );
    const cut = await callTool(s, "read_file", { path: one });
    assertMatch(cut.text, /^1\tzzzz/);
    assertStringIncludes(cut.text, "[line 1 is 64 MiB long; only its start is shown");
    assertStringIncludes(cut.text, "[end of file]");
    assert(new TextEncoder().encode(cut.text).length <= 8192);
  } finally {
    await s.cleanup();
  }
});

Deno.test({
  name: "read_file's descriptor is close-on-exec: a command started meanwhile does not inherit it",
  // /proc/self/fd is Linux's; macOS has no equivalent that ls can list this way.
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const s = await scratch();
    try {
      const path = join(s.root, "held-open.txt");
      Deno.writeTextFileSync(path, "x\n");
      const { openForRead } = await import("../../src/util/fs_safe.ts");
      const opened = openForRead(path);
      try {
        const out = await new Deno.Command("sh", {
          args: ["-c", "ls -l /proc/self/fd/"],
          stdin: "null",
        }).output();
        const listing = new TextDecoder().decode(out.stdout);
        assert(out.success);
        assert(listing.includes("/proc/"), listing); // the listing itself is there
        assert(!listing.includes("held-open.txt"), listing);
      } finally {
        opened.file.close();
      }
    } finally {
      await s.cleanup();
    }
  },
});
