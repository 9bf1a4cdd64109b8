/**
 * The dialog's rows in a real terminal (tmux): with colour on, each row of a
 * dialog holding wide characters is printed at a terminal exactly as wide,
 * and the terminal shows the borders straight — the right edge in the last
 * column of every row — and the same text as with colour off. This is where
 * the view's idea of a column (string-width) meets a terminal's.
 */
import { dialogFor } from "../../../src/faces/tui/dialog_queue.ts";
import { renderDialog } from "../../../src/faces/tui/dialog_view.ts";
import { paint } from "../../../src/faces/tui/palette.ts";
import { assertEquals } from "../../support/assert.ts";
import { Terminal, tmuxAvailable } from "../../support/tmux.ts";
import { tempDir } from "../../support/wisp.ts";
import { approvalLine, questionLine } from "./dialog_lines.ts";

const WIDTH = 60;

Deno.test({
  name: "a dialog with wide characters keeps its borders straight in a real terminal",
  ignore: !tmuxAvailable(),
  async fn() {
    const home = await tempDir();
    const terminal = new Terminal();
    try {
      const dialogs = [
        dialogFor(approvalLine({
          command: "echo 日本語のテキストをここに書きます、そして次の行へ続きます",
          line: "echo 日本語のテキストをここに書きます、そして次の行へ続きます && ls",
          reasons: ["書き込み先は ~/src/wisp の外です"],
        })),
        dialogFor(questionLine({ title: "どの設定を使いますか?" })),
      ];
      const coloured = dialogs.flatMap((d) =>
        renderDialog(d, WIDTH, paint(true), { live: true, home: "/home/me" })
      );
      const plain = dialogs.flatMap((d) =>
        renderDialog(d, WIDTH, paint(false), { live: true, home: "/home/me" })
      );
      const file = `${home}/rows.txt`;
      await Deno.writeTextFile(file, coloured.join("\n") + "\n");
      await terminal.tmux(
        "-u",
        "new-session",
        "-d",
        "-s",
        "rows",
        "-x",
        String(WIDTH),
        "-y",
        String(plain.length + 4),
        `env -i HOME='${home}' WISP_HOME='${home}/.wisp' LANG=C.UTF-8 TERM=xterm-256color cat '${file}'; echo DONE; sleep 60`,
      );
      const screen = await terminal.waitFor("rows", "DONE");
      const shown = screen.split("\n").slice(0, plain.length).map((row) => row.trimEnd());
      assertEquals(shown, plain);
    } finally {
      await terminal.close();
      await Deno.remove(home, { recursive: true });
    }
  },
});
