/**
 * namesStartingWith gives exactly the names Deno's own listing gives that
 * start with a prefix: a real folder of several thousand entries (more than
 * one getdents64 buffer), names of every length up to the system's limit,
 * non-ASCII and look-alike names, files, folders, links and a FIFO.
 */
import { assertEquals } from "../support/assert.ts";
import { namesStartingWith } from "../../src/platform/folder_names.ts";

const PREFIXES = ["ssh-", "com.apple.launchd.", "nvim", "kitty", "zellij-", "emacs"];

function byDeno(dir: string, prefixes: string[]): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name)
    .filter((name) => prefixes.some((p) => name.startsWith(p))).sort();
}

Deno.test("the names with a prefix are Deno's listing filtered, in a folder of thousands", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wisp-folder-names-" });
  try {
    const names = [
      "ssh-",
      "ssh-XXXXabc",
      "ssh",
      "sshd-x",
      "Ssh-x",
      "xssh-1",
      "nvim",
      "nvim.1000",
      "nvi",
      "kitty-sock",
      "kitt",
      "zellij-0",
      "zellij",
      "emacs0",
      "emacs",
      "emac",
      "émacs1",
      "ssh-é✓",
      "com.apple.launchd.abc",
      "com.apple.launchd",
      "com.apple",
      "nvim" + "n".repeat(251),
      "s".repeat(255),
      "ssh-" + "x".repeat(251),
    ];
    for (let i = 0; i < 3000; i++) names.push(`wisp-test-${i}-${"q".repeat(i % 40)}`);
    for (const [i, name] of names.entries()) {
      const path = `${dir}/${name}`;
      if (i % 4 === 0) Deno.mkdirSync(path);
      else if (i % 4 === 1) Deno.symlinkSync("/nowhere", path);
      else Deno.writeTextFileSync(path, "");
    }
    new Deno.Command("mkfifo", { args: [`${dir}/nvim-fifo`] }).outputSync();
    assertEquals(namesStartingWith(dir, PREFIXES).sort(), byDeno(dir, PREFIXES));
    assertEquals(namesStartingWith(dir, ["é", "ssh-é"]).sort(), byDeno(dir, ["é", "ssh-é"]));
    assertEquals(namesStartingWith(dir, []), []);
    assertEquals(namesStartingWith(dir, ["wisp-test-29"]).sort(), byDeno(dir, ["wisp-test-29"]));
    assertEquals(namesStartingWith(`${dir}/missing`, PREFIXES), []);
    assertEquals(namesStartingWith(`${dir}/ssh-`, ["x"]), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
