/**
 * libwisp.dylib on a Mac (the macOS workflow runs these): the Swift build
 * loads and speaks this ABI, its process table and details agree with what
 * the test started, a listener it opened is found with this process, killpg
 * signals a real group, and the model answers availability with a reason
 * when it has none (CI's Macs have no Apple Intelligence). When the model is
 * available, a one-word request is answered through a real session.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { nativeLibraries } from "../support/native.ts";
import { waitUntil, within } from "../support/wait.ts";
import {
  killGroup,
  listeningPorts,
  openLibwisp,
  processDetails,
  processTable,
} from "../../src/ffi/libwisp.ts";
import { modelAvailability, modelWindow } from "../../src/ffi/model.ts";
import { SystemBackend } from "../../src/models/system_backend.ts";

const darwin = Deno.build.os === "darwin";

Deno.test({
  name: "macOS: the process table, a child's details, a listener and killpg through libproc",
  ignore: !darwin,
  async fn() {
    const lib = openLibwisp((await nativeLibraries()).libwisp);
    const self = processTable(lib).find((p) => p.pid === Deno.pid);
    assert(self, "this process is not listed");
    assertEquals(self.uid, Deno.uid());
    assert(self.rssBytes > 1024 * 1024);
    const dir = Deno.realPathSync(Deno.makeTempDirSync());
    const child = new Deno.Command("/bin/sleep", { args: ["33.5"], cwd: dir, stdin: "null" })
      .spawn();
    try {
      const details = await waitUntil(
        () =>
          processDetails(lib, child.pid)?.args?.[1] === "33.5" && processDetails(lib, child.pid),
        "the child's arguments",
      );
      assertEquals(details.ppid, Deno.pid);
      assertEquals(details.path, "/bin/sleep");
      assertEquals(details.cwd, dir);
    } finally {
      child.kill();
      await child.status;
    }
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      const port = (listener.addr as Deno.NetAddr).port;
      const row = listeningPorts(lib).find((l) => l.port === port && l.proto === "tcp");
      assert(row?.pids.includes(Deno.pid), JSON.stringify(row));
      assertEquals(row?.address, "127.0.0.1");
    } finally {
      listener.close();
    }
    const group = new Deno.Command("/usr/bin/perl", {
      args: ["-e", "setpgrp(0,0); sleep 40"],
      stdin: "null",
    }).spawn();
    await waitUntil(() => processDetails(lib, group.pid)?.args?.[0] === "/usr/bin/perl", "perl");
    // setpgrp has run once perl sleeps; signalling the group ends it.
    await waitUntil(() => killGroup(lib, group.pid, 0) === 0, "the group exists");
    assertEquals(killGroup(lib, group.pid, 15), 0);
    assertEquals((await group.status).signal, "SIGTERM");
  },
});

Deno.test({
  name: "macOS: the model says whether it is available, and if so answers one word",
  ignore: !darwin,
  async fn() {
    const lib = openLibwisp((await nativeLibraries()).libwisp);
    const availability = modelAvailability(lib);
    if (!availability.available) {
      assert((availability.reason ?? "").length > 0, "no reason given");
      return;
    }
    assert(modelWindow(lib) >= 4096);
    const backend = new SystemBackend(lib);
    try {
      let text = "";
      await within(
        (async () => {
          for await (
            const e of backend.chat({
              messages: [{ role: "user", content: "Reply with exactly one word: ready" }],
            })
          ) if (e.type === "text") text += e.text;
        })(),
        "a one-word reply",
      );
      assert(text.trim().length > 0);
    } finally {
      backend.close();
    }
  },
});
