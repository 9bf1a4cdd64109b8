/**
 * edit_file as the model calls it, through the registry, on real files:
 * results, modes kept, hard links, confinement, symlink tricks and races.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { editFile } from "../../src/tools/edit_file.ts";
import { callTool, read, scratch } from "./support.ts";
import { copyModuleGraph, NOBODY, runDenoAsNobody } from "../support/as_nobody.ts";

Deno.test("edit_file write: creates (folders too), audits file.write, asks the gate first", async () => {
  const s = await scratch();
  try {
    const result = await callTool(s, "edit_file", {
      path: "docs/notes.md",
      mode: "write",
      content: "hello\n",
    });
    const path = join(s.root, "docs", "notes.md");
    assertEquals(result.text, `created ${path}; now 6 bytes`);
    assertEquals(read(path), "hello\n");
    assertEquals(s.gate.lines, [`edit_file write '${path}'`]);
    const write = s.events.find((e) => e.kind === "file.write")!;
    assertEquals([write.path, write.mode, write.created, write.bytesBefore, write.bytesAfter], [
      path,
      "write",
      true,
      0,
      6,
    ]);
    // The call's arguments (the content itself) are in tool.call.
    const call = s.events.find((e) => e.kind === "tool.call")!;
    assertEquals((call.arguments as { content: string }).content, "hello\n");
  } finally {
    await s.cleanup();
  }
});

Deno.test("edit_file write over a file: a new inode by rename, the mode kept, exact bytes", async () => {
  const s = await scratch();
  try {
    const path = join(s.root, "run.sh");
    Deno.writeTextFileSync(path, "#!/bin/sh\necho old\n");
    Deno.chmodSync(path, 0o751);
    const inoBefore = Deno.statSync(path).ino;
    const content = "#!/bin/sh\r\necho new\r\n";
    const result = await callTool(s, "edit_file", { path, mode: "write", content });
    assertEquals(result.text, `wrote ${path}; now 21 bytes (was 19 bytes)`);
    assertEquals(read(path), content);
    const info = Deno.statSync(path);
    assertEquals(info.mode! & 0o7777, 0o751);
    assert(info.ino !== inoBefore, "replaced through a temporary file and a rename");
    assertEquals(
      [...Deno.readDirSync(s.root)].map((e) => e.name),
      ["run.sh"],
      "no temporary file left behind",
    );
  } finally {
    await s.cleanup();
  }
});

Deno.test("edit_file on a file with several hard links writes in place: every link sees it", async () => {
  const s = await scratch();
  try {
    const path = join(s.root, "a.txt");
    const alias = join(s.root, "b.txt");
    Deno.writeTextFileSync(path, "one\ntwo\n");
    Deno.chmodSync(path, 0o640);
    Deno.linkSync(path, alias);
    const ino = Deno.statSync(path).ino;
    const result = await callTool(s, "edit_file", {
      path,
      mode: "replace",
      line: 2,
      content: "TWO",
    });
    assertEquals(result.ok, true, result.text);
    assertEquals(read(alias), "one\nTWO\n");
    assertEquals(Deno.statSync(path).ino, ino);
    assertEquals(Deno.statSync(path).nlink, 2);
    assertEquals(Deno.statSync(path).mode! & 0o777, 0o640);
    const write = await callTool(s, "edit_file", {
      path: alias,
      mode: "write",
      content: "whole\n",
    });
    assertMatch(write.text, /written in place/);
    assertEquals(read(path), "whole\n");
  } finally {
    await s.cleanup();
  }
});

Deno.test("edit_file append: adds at the end, creates when missing", async () => {
  const s = await scratch();
  try {
    const path = join(s.root, "log.txt");
    assertEquals(
      (await callTool(s, "edit_file", { path, mode: "append", content: "a\n" })).text,
      `created ${path}; now 2 bytes`,
    );
    assertEquals(
      (await callTool(s, "edit_file", { path, mode: "append", content: "b\r\n" })).text,
      `appended to ${path}; now 5 bytes`,
    );
    assertEquals(read(path), "a\nb\r\n");
    const bad = await callTool(s, "edit_file", { path, mode: "append", content: "x", line: 1 });
    assertMatch(bad.text, /^error: find and line belong to mode replace/);
  } finally {
    await s.cleanup();
  }
});

Deno.test("edit_file replace on disk: CRLF file by line, result names the line as it now reads", async () => {
  const s = await scratch();
  try {
    const path = join(s.root, "Package.swift");
    Deno.writeTextFileSync(path, '// swift\r\nlet version = "0.1.0"\r\nlet name = "x"\r\n');
    const read1 = await callTool(s, "read_file", { path });
    assertStringIncludes(read1.text, '2\tlet version = "0.1.0"');
    const result = await callTool(s, "edit_file", {
      path,
      mode: "replace",
      line: 2,
      content: 'let version = "0.2.0"',
    });
    assertEquals(
      result.text,
      `replaced at line 2 of ${path}; now 49 bytes; line 2 now: "let version = \\"0.2.0\\""`,
    );
    assertEquals(read(path), '// swift\r\nlet version = "0.2.0"\r\nlet name = "x"\r\n');
    const missing = await callTool(s, "edit_file", {
      path,
      mode: "replace",
      find: "nope",
      content: "x",
    });
    assertEquals(missing.text, 'error: text to replace not found: "nope"');
    const none = await callTool(s, "edit_file", {
      path: "absent.txt",
      mode: "replace",
      line: 1,
      content: "x",
    });
    assertMatch(none.text, /^error: cannot replace in .*absent\.txt: no such file/);
    // A BOM survives an edit of line 1.
    const bom = join(s.root, "bom.txt");
    Deno.writeTextFileSync(bom, "\uFEFFtitle\nbody\n");
    await callTool(s, "edit_file", { path: bom, mode: "replace", line: 2, content: "BODY" });
    assertEquals(Deno.readFileSync(bom).subarray(0, 3), new Uint8Array([0xef, 0xbb, 0xbf]));
  } finally {
    await s.cleanup();
  }
});

Deno.test("edit_file refuses binary and non-UTF-8 files for replace, and files past the size limit", async () => {
  const s = await scratch();
  try {
    Deno.writeFileSync(join(s.root, "b.bin"), new Uint8Array([0x61, 0, 0x62, 0x0a]));
    assertMatch(
      (await callTool(s, "edit_file", { path: "b.bin", mode: "replace", line: 1, content: "x" }))
        .text,
      /binary/,
    );
    Deno.writeFileSync(join(s.root, "latin1.txt"), new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    assertMatch(
      (await callTool(s, "edit_file", {
        path: "latin1.txt",
        mode: "replace",
        line: 1,
        content: "x",
      })).text,
      /not UTF-8/,
    );
    assertEquals(Deno.readFileSync(join(s.root, "latin1.txt")).length, 5);
    const big = join(s.root, "big.txt");
    Deno.writeTextFileSync(big, "0123456789abcdef\n".repeat(600_000)); // ~10 MB
    const tooBig = await callTool(s, "edit_file", {
      path: big,
      mode: "replace",
      line: 1,
      content: "x",
    });
    assertMatch(tooBig.text, /^error: cannot replace in .*big\.txt: it is larger than 8 MiB/);
    assertEquals(Deno.statSync(big).size, 17 * 600_000);
  } finally {
    await s.cleanup();
  }
});

Deno.test("confinement: outside the writable roots refused before touching anything; sandbox off lifts it", async () => {
  const s = await scratch();
  try {
    const outside = join(s.base, "elsewhere", "x.txt");
    const result = await callTool(s, "edit_file", { path: outside, mode: "write", content: "x" });
    assertEquals(
      result.text,
      `error: cannot write ${outside}: outside the writable directories (${s.root})`,
    );
    assertEquals(s.gate.lines, [], "refused before the gate is asked");
    let exists = true;
    try {
      Deno.statSync(join(s.base, "elsewhere"));
    } catch {
      exists = false;
    }
    assert(!exists, "no folder was created");
    const relative = await callTool(s, "edit_file", {
      path: "../escape.txt",
      mode: "write",
      content: "x",
    });
    assertMatch(relative.text, /outside the writable directories/);
    // With the sandbox off there is no confinement.
    const off = { ...s, ctx: { ...s.ctx, unsafe: true } };
    const unconfined = await callTool(off, "edit_file", {
      path: outside,
      mode: "write",
      content: "x",
    });
    assertEquals(unconfined.ok, true, unconfined.text);
  } finally {
    await s.cleanup();
  }
});

Deno.test("wisp's home is never written: inside the roots, with the sandbox off, or through a link", async () => {
  const s = await scratch({ writableRoots: [] });
  try {
    s.ctx.writableRoots = [s.base]; // the home lies inside the writable set
    Deno.writeTextFileSync(join(s.home, "config.json"), "{}");
    const direct = await callTool(s, "edit_file", {
      path: join(s.home, "config.json"),
      mode: "write",
      content: '{"x":1}',
    });
    assertEquals(
      direct.text,
      `error: cannot write ${
        join(s.home, "config.json")
      }: it is in wisp's own home, which edits never change`,
    );
    Deno.symlinkSync(join(s.home, "config.json"), join(s.root, "cfg"));
    const viaLink = await callTool(s, "edit_file", { path: "cfg", mode: "write", content: "{}x" });
    assertMatch(viaLink.text, /it is in wisp's own home/);
    Deno.symlinkSync(s.home, join(s.root, "h"));
    const viaDir = await callTool(s, "edit_file", {
      path: "h/approvals.json",
      mode: "write",
      content: "[]",
    });
    assertMatch(viaDir.text, /it is in wisp's own home/);
    const unsafe = { ...s, ctx: { ...s.ctx, unsafe: true } };
    const off = await callTool(unsafe, "edit_file", {
      path: join(s.home, "facts.json"),
      mode: "append",
      content: "x",
    });
    assertMatch(off.text, /it is in wisp's own home/);
    assertEquals(read(join(s.home, "config.json")), "{}");
    assertEquals([...Deno.readDirSync(s.home)].map((e) => e.name).sort(), ["config.json", "logs"]);
  } finally {
    await s.cleanup();
  }
});

Deno.test("symlink tricks: links out of the roots, dangling links and linked folders are refused", async () => {
  const s = await scratch();
  try {
    const outsideDir = join(s.base, "outside");
    Deno.mkdirSync(outsideDir);
    const victim = join(outsideDir, "victim.txt");
    Deno.writeTextFileSync(victim, "untouched\n");
    Deno.symlinkSync(victim, join(s.root, "link.txt"));
    Deno.symlinkSync(outsideDir, join(s.root, "dirlink"));
    Deno.symlinkSync(join(outsideDir, "new.txt"), join(s.root, "dangling-out"));
    Deno.symlinkSync(join(s.root, "missing.txt"), join(s.root, "dangling-in"));
    for (
      const [path, mode] of [["link.txt", "write"], ["link.txt", "append"], [
        "link.txt",
        "replace",
      ]] as const
    ) {
      const result = await callTool(s, "edit_file", {
        path,
        mode,
        content: "pwned",
        line: mode === "replace" ? 1 : undefined,
      });
      assertMatch(result.text, /outside the writable directories/, `${path} ${mode}`);
    }
    assertMatch(
      (await callTool(s, "edit_file", { path: "dirlink/new.txt", mode: "write", content: "x" }))
        .text,
      /outside/,
    );
    // A dangling link is never followed, wherever it points.
    const danglingOut = await callTool(s, "edit_file", {
      path: "dangling-out",
      mode: "write",
      content: "x",
    });
    assertMatch(danglingOut.text, /symlink to a file that does not exist/);
    const dangling = await callTool(s, "edit_file", {
      path: "dangling-in",
      mode: "write",
      content: "x",
    });
    assertMatch(dangling.text, /symlink to a file that does not exist/);
    assert(
      !s.gate.lines.some((l) => l.includes("dangling")),
      "nobody is asked about a dangling link",
    );
    assertEquals(read(victim), "untouched\n");
    assertEquals([...Deno.readDirSync(outsideDir)].map((e) => e.name), ["victim.txt"]);
    // A link that stays inside the roots is followed: the real file is edited, the link stays a link.
    Deno.writeTextFileSync(join(s.root, "real.txt"), "r\n");
    Deno.symlinkSync(join(s.root, "real.txt"), join(s.root, "inside-link"));
    const inside = await callTool(s, "edit_file", {
      path: "inside-link",
      mode: "write",
      content: "R\n",
    });
    assertEquals(inside.text, `wrote ${join(s.root, "real.txt")}; now 2 bytes (was 2 bytes)`);
    assert(Deno.lstatSync(join(s.root, "inside-link")).isSymlink);
  } finally {
    await s.cleanup();
  }
});

Deno.test("races: a file swapped for a symlink, or a folder swapped, between check and write is refused", async () => {
  const s = await scratch();
  try {
    const outsideDir = join(s.base, "outside");
    Deno.mkdirSync(outsideDir);
    const victim = join(outsideDir, "victim.txt");
    Deno.writeTextFileSync(victim, "untouched\n");
    const path = join(s.root, "target.txt");
    for (const mode of ["write", "append", "replace"] as const) {
      Deno.writeTextFileSync(path, "line\n");
      const result = await editFile(
        { path, mode, content: "evil", ...(mode === "replace" ? { line: 1 } : {}) },
        s.ctx,
        {
          hooks: {
            beforeCommit: () => {
              Deno.removeSync(path);
              Deno.symlinkSync(victim, path);
            },
          },
        },
      );
      assertMatch(
        result.text,
        /changed while the edit was being prepared|replaced/,
        `${mode}: ${result.text}`,
      );
      assertEquals(result.ok, false);
      assertEquals(read(victim), "untouched\n", mode);
      Deno.removeSync(path);
    }
    // The folder itself swapped for a link to the outside.
    const sub = join(s.root, "sub");
    Deno.mkdirSync(sub);
    Deno.writeTextFileSync(join(sub, "f.txt"), "x\n");
    const swapped = await editFile(
      { path: join(sub, "f.txt"), mode: "write", content: "evil" },
      s.ctx,
      {
        hooks: {
          beforeCommit: () => {
            Deno.renameSync(sub, join(s.root, "sub-moved"));
            Deno.symlinkSync(outsideDir, sub);
          },
        },
      },
    );
    assertEquals(swapped.ok, false);
    assertMatch(swapped.text, /folder was moved or replaced/);
    assertEquals([...Deno.readDirSync(outsideDir)].map((e) => e.name), ["victim.txt"]);
  } finally {
    await s.cleanup();
  }
});

Deno.test("concurrent modification: another process writing the file during an edit aborts it, keeping their write", async () => {
  const s = await scratch();
  try {
    const path = join(s.root, "shared.txt");
    Deno.writeTextFileSync(path, "a\nb\nc\n");
    const otherProcess = () => {
      const out = new Deno.Command("sh", {
        args: ["-c", `printf 'd\\n' >> "$1"`, "sh", path],
        stdin: "null",
      }).outputSync();
      assert(out.success);
    };
    // After the edit read the file and before it commits.
    const late = await editFile({ path, mode: "replace", line: 2, content: "B" }, s.ctx, {
      hooks: { beforeCommit: otherProcess },
    });
    assertEquals(late.ok, false);
    assertMatch(
      late.text,
      /^error: .*shared\.txt changed while the edit was being prepared .*nothing changed: read it again/,
    );
    assertEquals(read(path), "a\nb\nc\nd\n");
    // Between reading and planning.
    const early = await editFile({ path, mode: "replace", find: "c", content: "C" }, s.ctx, {
      hooks: { afterRead: otherProcess },
    });
    assertEquals(early.ok, false);
    assertEquals(read(path), "a\nb\nc\nd\nd\n");
    // The same rewrite of identical size in the same instant is caught by the content check.
    Deno.writeTextFileSync(path, "x\ny\n");
    const mtime = Deno.statSync(path).mtime!;
    const sameSize = await editFile({ path, mode: "replace", line: 1, content: "X" }, s.ctx, {
      hooks: {
        beforeCommit: () => {
          const f = Deno.openSync(path, { write: true });
          f.writeSync(new TextEncoder().encode("z"));
          f.close();
          Deno.utimeSync(path, mtime, mtime);
        },
      },
    });
    assertEquals(sameSize.ok, false);
    assertEquals(read(path), "z\ny\n");
    // A write of a file that appeared meanwhile.
    const fresh = join(s.root, "fresh.txt");
    const appeared = await editFile({ path: fresh, mode: "write", content: "mine" }, s.ctx, {
      hooks: { beforeCommit: () => Deno.writeTextFileSync(fresh, "theirs") },
    });
    assertEquals(appeared.ok, false);
    assertEquals(read(fresh), "theirs");
  } finally {
    await s.cleanup();
  }
});

Deno.test("approval: the gate's refusal leaves the file untouched; no gate refuses", async () => {
  const s = await scratch();
  try {
    const path = join(s.root, "keep.txt");
    Deno.writeTextFileSync(path, "keep\n");
    s.gate.refuse = /^edit_file /;
    const result = await callTool(s, "edit_file", { path, mode: "write", content: "gone" });
    assertEquals(result.text, "error: edit not approved: the person said no");
    assertEquals(s.gate.lines, [`edit_file write '${path}'`]);
    const noGate = await callTool({ ...s, ctx: { ...s.ctx, gate: undefined } }, "edit_file", {
      path,
      mode: "append",
      content: "x",
    });
    assertMatch(noGate.text, /^error: edit not approved: no approval gate/);
    assertEquals(read(path), "keep\n");
    assertEquals(s.events.filter((e) => e.kind === "file.write").length, 0);
  } finally {
    await s.cleanup();
  }
});

Deno.test("confinement uses the platform's writable set when the session gives none", async () => {
  const s = await scratch();
  try {
    s.ctx.writableRoots = undefined;
    const inside = await callTool(s, "edit_file", { path: "in.txt", mode: "write", content: "ok" });
    assertEquals(inside.ok, true, inside.text);
    const outside = await callTool(s, "edit_file", {
      path: "/etc/wisp-edit-test.txt",
      mode: "write",
      content: "x",
    });
    assertMatch(
      outside.text,
      /^error: cannot write \/etc\/wisp-edit-test\.txt: outside the writable directories \(.*\)$/,
    );
    assertStringIncludes(outside.text, s.root.startsWith("/tmp/") ? "/tmp" : s.root);
  } finally {
    await s.cleanup();
  }
});

Deno.test("edit_file: odd paths are refused with a reason, never written as something else", async () => {
  const s = await scratch();
  try {
    const slash = await callTool(s, "edit_file", { path: "dir/", mode: "write", content: "x" });
    assertEquals(
      slash.text,
      "error: cannot write dir/: a path ending in / names a folder; name the file",
    );
    const folder = await callTool(s, "edit_file", { path: ".", mode: "write", content: "x" });
    assertEquals(folder.text, "error: cannot write .: is a folder, not a file");
    const nul = await callTool(s, "edit_file", { path: "a\0b", mode: "write", content: "x" });
    assertMatch(nul.text, /^error: cannot write a/);
    const noFolder = await callTool(s, "edit_file", {
      path: "sub/a.txt",
      mode: "replace",
      line: 1,
      content: "x",
    });
    assertMatch(
      noFolder.text,
      /^error: cannot write sub\/a\.txt: is in a folder that does not exist/,
    );
    const long = await callTool(s, "edit_file", {
      path: "x".repeat(100_000),
      mode: "write",
      content: "x",
    });
    assertEquals(long.ok, false);
    assert(
      new TextEncoder().encode(long.text).length <= s.ctx.budgetBytes,
      "an error is bounded too",
    );
    assertEquals([...Deno.readDirSync(s.root)], []);
    const one = await callTool(s, "edit_file", { path: "one.txt", mode: "write", content: "x" });
    assertEquals(one.text, `created ${join(s.root, "one.txt")}; now 1 byte`);
  } finally {
    await s.cleanup();
  }
});

Deno.test("a file its owner made read-only is not replaced behind its back (a rename would bypass the mode)", async () => {
  const s = await scratch();
  try {
    const path = join(s.root, "locked.txt");
    Deno.writeTextFileSync(path, "orig\n");
    Deno.chmodSync(path, 0o444);
    if (Deno.uid() !== 0) {
      const result = await callTool(s, "edit_file", { path, mode: "write", content: "changed\n" });
      assertMatch(
        result.text,
        /^error: cannot write .*locked\.txt: is read-only to you \(mode 0444\)/,
      );
    } else {
      // root writes any file, so play an ordinary user: the file and its folder belong to
      // nobody, who runs the same file operation in a process of its own.
      Deno.chmodSync(s.base, 0o755);
      Deno.chmodSync(s.root, 0o777);
      Deno.chownSync(path, NOBODY, NOBODY);
      // nobody may not reach the clone (a 0700 folder) or deno's cache: the
      // helper imports a copy of the module in the world-readable scratch.
      const fsSafe = await copyModuleGraph(
        new URL("../../src/util/fs_safe.ts", import.meta.url),
        join(s.base, "src-copy"),
      );
      const script = join(s.base, "as_nobody.ts");
      Deno.writeTextFileSync(
        script,
        `import { replaceFile, resolveWriteTarget } from ${JSON.stringify(fsSafe)};
const t = resolveWriteTarget(${JSON.stringify(path)}, "/");
try { replaceFile(t, t.existing!, new TextEncoder().encode("changed\\n")); console.log("WROTE"); }
catch (e) { console.log("REFUSED " + (e as Error).message); }`,
      );
      Deno.chmodSync(script, 0o644);
      const out = await runDenoAsNobody(s.base, script);
      assertEquals(
        out.stdout.trim(),
        `REFUSED ${path} is read-only to you (mode 0444); nothing changed`,
        out.stderr,
      );
    }
    assertEquals(read(path), "orig\n");
    assertEquals(
      [...Deno.readDirSync(s.root)].map((e) => e.name),
      ["locked.txt"],
      "no temporary file left",
    );
  } finally {
    await s.cleanup();
  }
});

Deno.test("a replacement keeps the mode but not set-user-ID, as a plain write would", async () => {
  const s = await scratch();
  try {
    const path = join(s.root, "tool");
    Deno.writeTextFileSync(path, "#!/bin/sh\n");
    Deno.chmodSync(path, 0o4755);
    const result = await callTool(s, "edit_file", {
      path,
      mode: "write",
      content: "#!/bin/sh\necho\n",
    });
    assertEquals(result.ok, true, result.text);
    assertEquals(Deno.statSync(path).mode! & 0o7777, 0o755);
  } finally {
    await s.cleanup();
  }
});

Deno.test("confinement: protected paths inside the launch folder (git's hooks and config, .envrc) are refused as the sandbox refuses them", async () => {
  const s = await scratch();
  try {
    const git = await new Deno.Command("git", { args: ["init", "-q", s.root] }).output();
    assert(git.success, "git init");
    for (const path of [".git/hooks/pre-commit", ".git/config", ".envrc"]) {
      const before = (() => {
        try {
          return Deno.readTextFileSync(join(s.root, path));
        } catch {
          return null;
        }
      })();
      const result = await callTool(s, "edit_file", { path, mode: "write", content: "x" });
      assertMatch(
        result.text,
        new RegExp(`^error: cannot write ${path.replaceAll(".", "\\.")}: .* is protected \\(`),
      );
      const after = (() => {
        try {
          return Deno.readTextFileSync(join(s.root, path));
        } catch {
          return null;
        }
      })();
      assertEquals(after, before, `${path} unchanged`);
    }
    assertEquals(s.gate.lines, [], "refused before the gate is asked");
    const fine = await callTool(s, "edit_file", { path: "notes.txt", mode: "write", content: "x" });
    assertEquals(fine.ok, true, fine.text);
  } finally {
    await s.cleanup();
  }
});
