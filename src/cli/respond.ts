/**
 * `wisp respond [prompt…]`, the default command: `wisp "a prompt"` is
 * respond. The prompt comes from the arguments, else from standard input
 * when it is a pipe; on a terminal with neither, the help is printed.
 */
import { load } from "./lazy.ts";
import type { Command } from "commander";

interface RespondFlags {
  model?: string;
  tool?: string[];
  tools?: boolean;
  instructions?: string;
  schema?: string;
  stream?: boolean;
  yes?: boolean;
  unsafe?: boolean;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

async function action(words: string[], flags: RespondFlags, command: Command): Promise<void> {
  const io = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  let prompt = words.join(" ");
  if (words.length === 0) {
    if (io.stdinIsTerminal()) {
      // A bare `wisp` shows wisp's help; `wisp respond` its own.
      const parent = command.parent;
      (parent && !Deno.args.includes("respond") ? parent : command).outputHelp();
      return;
    }
    const { readPipedPrompt } = await load<typeof import("../faces/respond.ts")>(
      import.meta.resolve("../faces/respond.ts"),
    );
    prompt = await readPipedPrompt(Deno.stdin.readable);
  }
  const { respond, readSchemaFile } = await load<typeof import("../faces/respond.ts")>(
    import.meta.resolve("../faces/respond.ts"),
  );
  const { loadContext } = await load<typeof import("./context.ts")>(
    import.meta.resolve("./context.ts"),
  );
  const { chooseModel } = await load<typeof import("../models/choose.ts")>(
    import.meta.resolve("../models/choose.ts"),
  );
  const schema = flags.schema ? readSchemaFile(flags.schema) : undefined;
  const { paths, config } = loadContext();

  // Ctrl-C stops the turn (the model's request and what it runs); a second one quits at once.
  const controller = new AbortController();
  let interrupts = 0;
  const onInterrupt = () => {
    interrupts++;
    if (interrupts === 1) {
      io.errLine("stopping the turn; Ctrl-C again quits");
      controller.abort(new Error("stopped by you"));
    } else {
      Deno.exit(130);
    }
  };
  let listening = false;
  try {
    Deno.addSignalListener("SIGINT", onInterrupt);
    listening = true;
  } catch { /* no signals here (Windows without a console): Ctrl-C ends the process */ }
  try {
    const result = await respond({
      prompt,
      model: flags.model,
      tools: flags.tool,
      noTools: flags.tools === false,
      instructions: flags.instructions,
      schema,
      stream: flags.stream !== false,
      yes: flags.yes === true,
      unsafe: flags.unsafe === true,
      argv: Deno.args,
    }, {
      config,
      paths,
      signal: controller.signal,
      // --model is used or refused; the default that cannot exist here gives way to a local model.
      backend: async (name, tools) =>
        (await chooseModel(name, config, {
          tools,
          explicit: flags.model !== undefined,
          note: io.errLine,
        })).backend,
    }, {
      out: io.out,
      err: io.err,
      ...(() => {
        const colour = io.palette(io.colourEnabled(Deno.stderr.isTerminal()));
        return { muted: colour.dim, warn: colour.warn };
      })(),
    });
    io.cliState.exitCode = result.code;
  } finally {
    if (listening) Deno.removeSignalListener("SIGINT", onInterrupt);
  }
}

export function register(program: Command): void {
  program
    .command("respond", { isDefault: true })
    .description('one prompt in, one reply out (the default command: wisp "a prompt")')
    .argument("[prompt...]", "the prompt; read from standard input when it is a pipe")
    .option(
      "-m, --model <name>",
      "the model to use (system, ollama:<name>, llamacpp:<name>, lmstudio:<name>)",
    )
    .option("--tool <name>", "offer only this tool (repeatable); wisp tools lists them", collect)
    .option("--no-tools", "offer no tools")
    .option("--instructions <text>", "instructions for this reply, after wisp's own")
    .option("--schema <file>", "a JSON Schema file the reply must match")
    .option("--no-stream", "print the reply whole when it is complete")
    .option(
      "-y, --yes",
      "approve what would be asked (the policy, sandbox, classifier and audit still apply)",
    )
    .option("--unsafe", "run commands without the sandbox (prints a warning)")
    .action(action);
}
