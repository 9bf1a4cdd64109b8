/**
 * `wisp chat`: the interactive session. The chat engine
 * (src/faces/chat/engine.ts) runs behind either face:
 *
 * - `--json`: JSON Lines on stdin and stdout (src/faces/chat/json_face.ts,
 *   docs/chat-protocol.md), for a program that is the face;
 * - at a terminal, wisp-tui (src/faces/tui/), which drives the engine through
 *   the same protocol lines, in this process;
 * - otherwise (`--plain`, piped, TERM=dumb) the plain line chat (src/faces/terminal/plain_chat.ts): the reply
 *   on stdout, everything else on stderr.
 *
 * `--resume [ID]` carries a saved transcript on (the latest without an id);
 * `--list` lists the saved ones. Exit codes: 0 after /quit or the end of
 * input, 1 when the chat could not start or its transcript could not be
 * saved, 64 a usage error, 130 quit by a second interrupt.
 */
import { load } from "./lazy.ts";
import type { Command } from "commander";

interface ChatFlags {
  json?: boolean;
  plain?: boolean;
  model?: string;
  resume?: string | boolean;
  list?: boolean;
  tool?: string[];
  tools?: boolean;
  instructions?: string;
  yes?: boolean;
  unsafe?: boolean;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

async function list(): Promise<void> {
  const io = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  const { homePaths } = await load<typeof import("../config/home.ts")>(
    import.meta.resolve("../config/home.ts"),
  );
  const { listTranscripts } = await load<typeof import("../faces/chat/transcript.ts")>(
    import.meta.resolve("../faces/chat/transcript.ts"),
  );
  const { renderTable } = await load<typeof import("../util/table.ts")>(
    import.meta.resolve("../util/table.ts"),
  );
  const rows = listTranscripts(homePaths());
  const terminal = io.stdoutIsTerminal();
  if (rows.length === 0) {
    if (terminal) io.errLine("no chat transcript is saved yet");
    return;
  }
  io.out(renderTable({
    headers: ["ID", "SAVED", "MODEL", "MESSAGES", "FIRST"],
    rows: rows.map((r) => [
      r.id,
      terminal ? r.saved.slice(0, 16).replace("T", " ") : r.saved,
      r.model,
      String(r.turns),
      r.first,
    ]),
    terminal,
  }));
}

async function action(flags: ChatFlags): Promise<void> {
  if (flags.list) return await list();
  const io = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  const { UsageError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  if (flags.json && flags.plain) {
    throw new UsageError("--json and --plain cannot be used together; choose one");
  }
  if (flags.tool && flags.tool.length > 0 && flags.tools === false) {
    throw new UsageError("--tool and --no-tools cannot be used together; choose one");
  }
  const { loadContext } = await load<typeof import("./context.ts")>(
    import.meta.resolve("./context.ts"),
  );
  const { ChatEngine } = await load<typeof import("../faces/chat/engine.ts")>(
    import.meta.resolve("../faces/chat/engine.ts"),
  );
  const transcripts = await load<typeof import("../faces/chat/transcript.ts")>(
    import.meta.resolve("../faces/chat/transcript.ts"),
  );
  const { chooseModel } = await load<typeof import("../models/choose.ts")>(
    import.meta.resolve("../models/choose.ts"),
  );
  const { listModels } = await load<typeof import("../models/registry.ts")>(
    import.meta.resolve("../models/registry.ts"),
  );
  const { openNotifier } = await load<typeof import("../notify/world.ts")>(
    import.meta.resolve("../notify/world.ts"),
  );
  const { configView } = await load<typeof import("../config/view.ts")>(
    import.meta.resolve("../config/view.ts"),
  );
  const { applyConfigChange } = await load<typeof import("./config.ts")>(
    import.meta.resolve("./config.ts"),
  );
  const { versionString } = await load<typeof import("./version.ts")>(
    import.meta.resolve("./version.ts"),
  );
  const { SANDBOX_OFF_WARNING } = await load<typeof import("../exec/runner.ts")>(
    import.meta.resolve("../exec/runner.ts"),
  );
  const { loaded, paths, config } = loadContext();
  const resume = flags.resume === undefined || flags.resume === false
    ? undefined
    : transcripts.loadTranscript(
      paths,
      flags.resume === true ? transcripts.latestTranscriptId(paths) : flags.resume,
    );

  const json = flags.json === true;
  const stdinTerminal = io.stdinIsTerminal();
  const { chooseFrontEnd } = await load<typeof import("../util/front_end.ts")>(
    import.meta.resolve("../util/front_end.ts"),
  );
  const frontEnd = chooseFrontEnd({
    stdinTerminal,
    stdoutTerminal: io.stdoutIsTerminal(),
    term: Deno.env.get("TERM"),
    plainFlag: flags.plain === true,
    jsonFlag: json,
  });
  const encoder = new TextEncoder();
  // A front end that went away takes its stdout with it: what follows is dropped, and the end of
  // its input ends the chat as usual.
  let stdoutGone = false;
  const writeOut = (bytes: Uint8Array) => {
    if (stdoutGone) return;
    try {
      let written = 0;
      while (written < bytes.length) written += Deno.stdout.writeSync(bytes.subarray(written));
    } catch (error) {
      if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
      stdoutGone = true;
    }
  };

  let emit: (line: import("../faces/chat/protocol.ts").OutLine) => void;
  let renderer: import("../faces/terminal/plain_chat.ts").PlainChat | undefined;
  let tui: import("../faces/tui/run.ts").Tui | undefined;
  if (frontEnd.face === "tui") {
    const { Tui } = await load<typeof import("../faces/tui/run.ts")>(
      import.meta.resolve("../faces/tui/run.ts"),
    );
    const { takeTerminal } = await load<typeof import("../faces/tui/terminal.ts")>(
      import.meta.resolve("../faces/tui/terminal.ts"),
    );
    const { paint } = await load<typeof import("../faces/tui/palette.ts")>(
      import.meta.resolve("../faces/tui/palette.ts"),
    );
    const { terminalShowsNotifications } = await load<typeof import("../notify/notifier.ts")>(
      import.meta.resolve("../notify/notifier.ts"),
    );
    const trace = Deno.env.get("WISP_TUI_TRACE");
    const guard = Number(Deno.env.get("WISP_TUI_GUARD_MS"));
    tui = new Tui({
      terminal: takeTerminal(),
      paint: paint(io.colourEnabled(true)),
      shownOutputLines: config.shownOutputLines,
      version: versionString(),
      home: Deno.env.get("HOME"),
      notifies: terminalShowsNotifications((name) => Deno.env.get(name)),
      // A longer guard for someone who types on while a dialog comes up (and for tests).
      ...(Number.isFinite(guard) && guard > 0 ? { guardMs: guard } : {}),
      // A test counts frames: one line per frame, with its size.
      ...(trace
        ? {
          onFrame: (frame: string) =>
            Deno.writeTextFileSync(trace, `${frame.length}\n`, { append: true }),
        }
        : {}),
    });
    emit = tui.emit;
  } else if (json) {
    const { jsonLineWriter } = await load<typeof import("../faces/chat/json_face.ts")>(
      import.meta.resolve("../faces/chat/json_face.ts"),
    );
    emit = jsonLineWriter(writeOut);
  } else {
    const { PlainChat } = await load<typeof import("../faces/terminal/plain_chat.ts")>(
      import.meta.resolve("../faces/terminal/plain_chat.ts"),
    );
    const { terminalInput } = await load<typeof import("../faces/terminal/input.ts")>(
      import.meta.resolve("../faces/terminal/input.ts"),
    );
    renderer = new PlainChat({
      out: (text) => writeOut(encoder.encode(text)),
      err: io.err,
      colour: io.palette(io.colourEnabled(Deno.stdout.isTerminal())),
      terminal: Deno.stderr.isTerminal(),
      inputIsTerminal: stdinTerminal,
      input: terminalInput(),
      shownOutputLines: config.shownOutputLines,
    });
    emit = (line) => renderer!.render(line);
  }
  const warn = (text: string) => emit({ type: "note", text, tone: "warn" });
  if (flags.yes) {
    warn(
      "warning: --yes: commands that would ask you run without asking; the deny list, sandbox, classifier and audit still apply",
    );
  }
  if (flags.unsafe) {
    warn(
      "warning: --unsafe: commands run without the sandbox and can write anywhere you can, wisp's home included",
    );
  } else if (!config.commandPolicy.sandbox.enabled) warn(SANDBOX_OFF_WARNING);

  // Bound once the engine exists: the hello it received says whether the front end posts.
  let notifyThroughFrontEnd = (_n: { title: string; message: string; subtitle?: string }) => false;
  const engine = new ChatEngine({
    config,
    paths,
    model: flags.model,
    ...(resume ? { resume } : {}),
    tools: flags.tool,
    noTools: flags.tools === false,
    instructions: flags.instructions,
    yes: flags.yes === true,
    unsafe: flags.unsafe === true,
    argv: Deno.args,
    face: json ? "chat-json" : tui ? "chat-tui" : "chat",
    // --json: the protocol answers (a hello may say it cannot); plain: only a person at a terminal.
    approvals: json || stdinTerminal ? "protocol" : "refuse",
    inputIsTerminal: stdinTerminal,
    // wisp-tui shows what waits in wisp mcp as dialogs (its hello asks for the lines).
    noteWaiting: !json && !tui,
    emit,
    version: versionString(),
    // --json: a front end whose hello declared notify posts it (a notify line); otherwise the
    // OS does. The terminal route never writes into a front end's stream.
    notifier: openNotifier(config.notifications, paths.auditLog, {
      terminal: !json && !tui,
      ...(json || tui ? { host: (n) => Promise.resolve(notifyThroughFrontEnd(n)) } : {}),
    }),
    backend: async (name, explicit) =>
      (await chooseModel(name, config, {
        tools: true,
        explicit,
        note: (text) => emit({ type: "note", text, tone: "warn", kind: "fallback" }),
      })).backend,
    runnableModels: async () =>
      (await listModels(config)).models.filter((m) => m.usable && m.enabled).map((m) => m.model),
    changeConfig: (key, words) => applyConfigChange(key, words, "chat"),
    configView: () => configView(loaded.config, paths, loaded.exists),
  });
  notifyThroughFrontEnd = (n) => {
    if (!engine.hello?.effects.includes("notify")) return false;
    emit({
      type: "notify",
      title: n.title,
      body: n.message,
      ...(n.subtitle ? { subtitle: n.subtitle } : {}),
    });
    return true;
  };
  try {
    await engine.start();
  } catch (error) {
    // The chat could not start: the terminal is given back before the error is reported.
    await tui?.close();
    throw error;
  }

  // Ctrl-C stops what runs; a second quits (130); with nothing running it quits.
  const onInterrupt = () => {
    if (engine.busy) engine.interrupt();
    else engine.requestQuit(130);
  };
  let listening = false;
  try {
    Deno.addSignalListener("SIGINT", onInterrupt);
    listening = true;
  } catch { /* no signals here */ }
  try {
    if (tui) {
      io.cliState.exitCode = await tui.run(engine);
    } else if (json) {
      const { runJsonChat } = await load<typeof import("../faces/chat/json_face.ts")>(
        import.meta.resolve("../faces/chat/json_face.ts"),
      );
      io.cliState.exitCode = await runJsonChat(engine, Deno.stdin.readable);
    } else {
      io.cliState.exitCode = await renderer!.run(engine);
    }
  } finally {
    if (listening) Deno.removeSignalListener("SIGINT", onInterrupt);
  }
}

export function register(program: Command): void {
  program
    .command("chat")
    .description("an interactive session: messages, /commands, and !commands you run yourself")
    .option("--json", "JSON Lines on stdin and stdout for a program that is the face")
    .option("--plain", "the plain line-based chat")
    .option(
      "-m, --model <name>",
      "the model to use (never replaced by another when it is unavailable)",
    )
    .option("--resume [id]", "carry a saved transcript on (the latest without an id)")
    .option("--list", "list the saved transcripts")
    .option("--tool <name>", "offer only this tool (repeatable); wisp tools lists them", collect)
    .option("--no-tools", "offer no tools")
    .option("--instructions <text>", "instructions for the conversation, after wisp's own")
    .option(
      "-y, --yes",
      "approve what would be asked (the policy, sandbox, classifier and audit still apply)",
    )
    .option("--unsafe", "run commands without the sandbox (prints a warning)")
    .action(action);
}
