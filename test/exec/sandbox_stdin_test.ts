/**
 * `wisp sandbox`'s descriptors: a file or folder the caller redirects into
 * the program is not a door past the sandbox (it gets a pipe wisp copies
 * into), input still streams through, and at a real terminal (tmux) the
 * program still reads what the person types. The real CLI under the binary's
 * permission fence, started by a shell that makes the redirections.
 */
import { assertEquals, assertStringIncludes } from "../support/assert.ts";
import { join } from "node:path";
import { wispCommand } from "../support/wisp.ts";
import { scratch } from "./support.ts";

function quote(arg: string): string {
  return "'" + arg.replaceAll("'", "'\\''") + "'";
}

/** Run `wisp sandbox -- sh -c INNER` from a shell, with `redirect` applied to wisp. */
async function sandboxed(
  home: string,
  cwd: string,
  inner: string,
  redirect: string,
  prefix = "",
): Promise<{ code: number; stdout: string; stderr: string }> {
  const wisp = [...wispCommand(), "sandbox", "--", "sh", "-c", inner].map(quote).join(" ");
  const out = await new Deno.Command("sh", {
    args: ["-c", `${prefix}${wisp} ${redirect}`],
    cwd,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/",
      WISP_HOME: home,
      NO_COLOR: "1",
    },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

Deno.test("a file given as stdin cannot be reopened for writing through /proc/self/fd/0 or /dev/stdin", async () => {
  const s = await scratch();
  try {
    const victim = join(s.outside, "victim.txt");
    Deno.writeTextFileSync(victim, "original\n");
    for (const path of ["/proc/self/fd/0", "/dev/stdin"]) {
      const r = await sandboxed(
        s.home.root,
        s.project,
        `cat; echo pwned > ${path}; echo pwned >> ${path}`,
        `< ${quote(victim)}`,
      );
      assertEquals(r.stdout, "original\n", "the program still read its input");
      assertEquals(Deno.readTextFileSync(victim), "original\n", `written through ${path}`);
    }
  } finally {
    await s.cleanup();
  }
});

Deno.test("a folder given as stdin is no way to create files in it", async () => {
  const s = await scratch();
  try {
    const r = await sandboxed(
      s.home.root,
      s.project,
      "touch /proc/self/fd/0/planted; mkdir /dev/stdin/dir; echo ran",
      `< ${quote(s.outside)}`,
    );
    assertStringIncludes(r.stdout, "ran");
    assertEquals([...Deno.readDirSync(s.outside)], []);
  } finally {
    await s.cleanup();
  }
});

Deno.test("stdout or stderr opened only for reading, or a folder, cannot be reopened for writing", async () => {
  const s = await scratch();
  try {
    const victim = join(s.outside, "victim.txt");
    Deno.writeTextFileSync(victim, "original\n");
    const r = await sandboxed(
      s.home.root,
      s.project,
      "echo pwned > /proc/self/fd/1; echo pwned > /proc/self/fd/2; echo out",
      `1< ${quote(victim)} 2< ${quote(victim)}`,
    );
    assertEquals(r.code, 0);
    assertEquals(Deno.readTextFileSync(victim), "original\n");
    const folder = await sandboxed(
      s.home.root,
      s.project,
      "touch /proc/self/fd/1/x; mkdir /proc/self/fd/2/y; echo out",
      `1< ${quote(s.outside)} 2< ${quote(s.outside)}`,
    );
    assertEquals(folder.code, 0);
    assertEquals([...Deno.readDirSync(s.outside)].map((e) => e.name), ["victim.txt"]);
  } finally {
    await s.cleanup();
  }
});

Deno.test("input streams through the pipe, and wisp ends with the program, not with its input", async () => {
  const s = await scratch();
  try {
    const counted = await sandboxed(s.home.root, s.project, "wc -l", "", "seq 1 100000 | ");
    assertEquals(counted.stdout.trim(), "100000");
    // A producer that keeps its end open: wisp exits when the program does,
    // while the producer still runs (the group then ends it).
    const pid = join(s.project, "producer.pid");
    const r = await sandboxed(
      s.home.root,
      s.project,
      "head -n 1",
      `; if kill -0 $(cat ${quote(pid)}); then echo producer-alive; fi; kill $(cat ${
        quote(pid)
      }); }`,
      `sh -c 'echo $$ > ${pid}; echo first; exec sleep 60' | { `,
    );
    assertEquals(r.stdout, "first\nproducer-alive\n", r.stderr);
    // Output written to a file the caller opened stays there, whole.
    const file = join(s.project, "out.txt");
    const big = await sandboxed(s.home.root, s.project, "seq 1 200000", `> ${quote(file)}`);
    assertEquals(big.code, 0);
    assertEquals(Deno.readTextFileSync(file).split("\n").length, 200001);
  } finally {
    await s.cleanup();
  }
});

/** Poll a tmux pane until it shows `text`. */
async function paneShows(socket: string, text: string): Promise<string> {
  const deadline = Date.now() + 60_000;
  let pane = "";
  while (Date.now() < deadline) {
    const out = await new Deno.Command("tmux", {
      args: ["-S", socket, "capture-pane", "-p", "-t", "w"],
      stdout: "piped",
      stderr: "null",
    }).output();
    pane = new TextDecoder().decode(out.stdout);
    if (pane.includes(text)) return pane;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the pane never showed ${text}:\n${pane}`);
}

Deno.test("at a real terminal the program reads what the person types, and cannot push keys into it", async () => {
  const s = await scratch();
  const socket = join(s.outside, "tmux.sock");
  try {
    const inner = [
      "[ -t 0 ] && echo stdin-is-a-terminal",
      "read line; echo got:$line",
      // TIOCSTI (0x5412) would type into the terminal: refused without a controlling terminal.
      `python3 -c 'import fcntl; fcntl.ioctl(0, 0x5412, b"x")' 2>/dev/null && echo pushed || echo push-refused`,
      "echo end-of-test",
    ].join("; ");
    const wisp = [...wispCommand(), "sandbox", "--", "sh", "-c", inner].map(quote).join(" ");
    const env = `WISP_HOME=${quote(s.home.root)} PATH=${quote(Deno.env.get("PATH") ?? "")}`;
    const started = await new Deno.Command("tmux", {
      args: [
        "-S",
        socket,
        "-f",
        "/dev/null",
        "new-session",
        "-d",
        "-s",
        "w",
        "-x",
        "120",
        "-y",
        "30",
        `cd ${quote(s.project)} && env ${env} ${wisp}; sleep 600`,
      ],
    }).output();
    assertEquals(started.code, 0);
    await paneShows(socket, "stdin-is-a-terminal");
    await new Deno.Command("tmux", {
      args: ["-S", socket, "send-keys", "-t", "w", "hello", "Enter"],
    })
      .output();
    const pane = await paneShows(socket, "end-of-test");
    assertStringIncludes(pane, "got:hello");
    assertStringIncludes(pane, "push-refused");
  } finally {
    await new Deno.Command("tmux", { args: ["-S", socket, "kill-server"], stderr: "null" })
      .output();
    await s.cleanup();
  }
});
