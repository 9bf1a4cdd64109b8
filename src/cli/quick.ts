/**
 * The few command lines read ahead of the command tree, so they load no
 * commander (an npm package: the first one a process loads starts Deno's
 * Node compatibility layer): `wisp config [show]`, `wisp config get KEY`,
 * `wisp config list [--json]`, `wisp sandbox [--no-network]
 * [--writable PATH]… -- CMD [ARG…]`, a bare `wisp mcp` (as MCP clients
 * start it), and `wisp scan` with files and its own options only. Only these exact shapes are read here;
 * anything else — help, another option, a typo, a missing `--` — goes to the
 * command tree, which answers it as always. The actions are the tree's own
 * (docs/adr/0641-light-commands-ahead-of-the-command-tree.md).
 */
import { cliState } from "./io.ts";
import { installLogMask, reportError } from "./exit.ts";
import { load } from "./lazy.ts";

/** The action a command line names, when it is one of the shapes read here. */
export function quickAction(argv: readonly string[]): (() => Promise<void>) | undefined {
  if (argv[0] === "config") return configAction(argv.slice(1));
  if (argv[0] === "sandbox") return sandboxAction(argv.slice(1));
  if (argv[0] === "scan") return scanAction(argv.slice(1));
  if (argv[0] === "mcp" && argv.length === 1) {
    // As MCP clients start it: no options.
    return async () => {
      const { mcp } = await load<typeof import("./mcp.ts")>(import.meta.resolve("./mcp.ts"));
      await mcp({}, []);
    };
  }
  return undefined;
}

const config = () => load<typeof import("./config.ts")>(import.meta.resolve("./config.ts"));

function configAction(words: readonly string[]): (() => Promise<void>) | undefined {
  const [verb, ...rest] = words;
  if (verb === undefined || (verb === "show" && rest.length === 0)) {
    return async () => await (await config()).show();
  }
  if (verb === "get" && rest.length === 1 && !rest[0].startsWith("-")) {
    return async () => await (await config()).get(rest[0]);
  }
  if (verb === "list" && (rest.length === 0 || (rest.length === 1 && rest[0] === "--json"))) {
    return async () => await (await config()).list({ json: rest.length === 1 });
  }
  return undefined;
}

function sandboxAction(words: readonly string[]): (() => Promise<void>) | undefined {
  let network = true;
  const writable: string[] = [];
  let at = 0;
  for (; at < words.length && words[at] !== "--"; at++) {
    const word = words[at];
    if (word === "--no-network") {
      network = false;
    } else if (word === "--writable" && at + 1 < words.length && isPath(words[at + 1])) {
      writable.push(words[++at]);
    } else if (word.startsWith("--writable=") && isPath(word.slice("--writable=".length))) {
      writable.push(word.slice("--writable=".length));
    } else {
      return undefined;
    }
  }
  const program = words.slice(at + 1);
  if (at >= words.length || program.length === 0) return undefined;
  return async () => {
    // The nested-sandbox probe starts the launcher once per process; started before the rest of
    // the command's modules load, it runs beside them instead of after (docs/adr/0680).
    const { nestedSandboxProbe } = await load<typeof import("../platform/index.ts")>(
      import.meta.resolve("../platform/index.ts"),
    );
    nestedSandboxProbe().catch(() => {}); // awaited by the command; a failure is reported there
    const { runSandbox } = await load<typeof import("./sandbox_command.ts")>(
      import.meta.resolve("./sandbox_command.ts"),
    );
    await runSandbox(program, { network, writable });
  };
}

/**
 * `wisp scan` with files (or `-`) and the command's own options, each spelled in full:
 * `--json`, `--personal`, `--thorough`, `--no-history`, `--format F`, `--baseline FILE` (or
 * `--opt=value`). A scan of a tree is the command a pre-commit hook or CI runs over and over, so
 * its start-up counts. Any other word starting with `-` (help, `--`, a typo) goes to the tree.
 */
function scanAction(words: readonly string[]): (() => Promise<void>) | undefined {
  const files: string[] = [];
  const flags: import("./scan.ts").ScanFlags = {};
  for (let at = 0; at < words.length; at++) {
    const word = words[at];
    if (word === "-" || !word.startsWith("-")) files.push(word);
    else if (word === "--json") flags.json = true;
    else if (word === "--personal") flags.personal = true;
    else if (word === "--thorough") flags.thorough = true;
    else if (word === "--no-history") flags.history = false;
    else {
      const [name, inline] = word.includes("=")
        ? [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)]
        : [word, undefined];
      if (name !== "--format" && name !== "--baseline") return undefined;
      const value = inline ?? words[++at];
      if (value === undefined || !isPath(value)) return undefined;
      if (name === "--format") flags.format = value;
      else flags.baseline = value;
    }
  }
  return async () => {
    const { runScan } = await load<typeof import("./scan.ts")>(import.meta.resolve("./scan.ts"));
    await runScan(files, flags);
  };
}

/** A --writable value read here: not empty, not something that looks like an option. */
const isPath = (value: string) => value !== "" && !value.startsWith("-");

/**
 * Run `argv` when it is one of the shapes read here and give its exit code,
 * as the command tree would (run.ts); `undefined` when the tree must read it.
 */
export async function runQuick(argv: readonly string[]): Promise<number | undefined> {
  const action = quickAction(argv);
  if (!action) return undefined;
  installLogMask();
  cliState.exitCode = 0;
  try {
    await action();
    return cliState.exitCode;
  } catch (error) {
    return reportError(error);
  }
}
