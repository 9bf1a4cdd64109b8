import { assert, assertEquals } from "../../support/assert.ts";
import { BEGIN_SYNC, END_SYNC, FrameWriter } from "../../../src/faces/tui/frame_writer.ts";

function sink() {
  const writes: string[] = [];
  return {
    writes,
    write: (bytes: Uint8Array) => writes.push(new TextDecoder().decode(bytes)),
    size: () => ({ columns: 80, rows: 24 }),
  };
}

Deno.test("frame writer: what is written in one task goes out as one write, in one synchronized update", async () => {
  const s = sink();
  const writer = new FrameWriter(s);
  writer.write("\x1b[2K");
  writer.write(BEGIN_SYNC + "line above\n");
  writer.write(new TextEncoder().encode("the band" + END_SYNC));
  assertEquals(s.writes.length, 0);
  await Promise.resolve();
  assertEquals(s.writes, [BEGIN_SYNC + "\x1b[2Kline above\nthe band" + END_SYNC]);
  assertEquals(writer.frames, 1);
});

Deno.test("frame writer: writes in separate tasks are separate frames; nothing written is no frame", async () => {
  const s = sink();
  const frames: string[] = [];
  const writer = new FrameWriter(s, (f) => frames.push(f));
  writer.write("a");
  await new Promise((r) => setTimeout(r, 0));
  writer.write("b");
  await new Promise((r) => setTimeout(r, 0));
  writer.flush();
  assertEquals(s.writes.length, 2);
  assertEquals(frames.length, 2);
  assert(s.writes.every((w) => w.startsWith(BEGIN_SYNC) && w.endsWith(END_SYNC)));
});

Deno.test("frame writer: reports the terminal's size and passes resizes on", () => {
  const s = sink();
  const writer = new FrameWriter(s);
  assertEquals([writer.columns, writer.rows], [80, 24]);
  let resized = 0;
  writer.on("resize", () => resized++);
  writer.resized();
  assertEquals(resized, 1);
});
