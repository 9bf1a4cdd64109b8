/**
 * The command tree. Each subcommand lives in its own file under src/cli/ and
 * exports `register(program)`; its heavy modules are imported inside its
 * action, so `wisp --version` and `wisp --help` load almost nothing.
 *
 * To add a subcommand: write src/cli/<name>.ts with `register`, and add it to
 * COMMANDS below (keep the order: it is the order of `wisp --help`).
 */
import { Command } from "commander";
import { versionString } from "./version.ts";
import * as config from "./config.ts";
import * as logs from "./logs.ts";
import * as doctor from "./doctor.ts";
import * as scan from "./scan.ts";
import * as redact from "./redact.ts";
import * as respond from "./respond.ts";
import * as tools from "./tools.ts";
import * as models from "./models.ts";
import * as approvals from "./approvals.ts";
import * as approvalsPending from "./approvals_pending.ts";
import * as mcp from "./mcp.ts";
import * as classifier from "./classifier.ts";
import * as notify from "./notify.ts";
import * as sandbox from "./sandbox.ts";
import * as triage from "./triage.ts";
import * as draft from "./draft.ts";
import * as watch from "./watch.ts";

interface CommandModule {
  register(program: Command): void;
}

export const COMMANDS: CommandModule[] = [
  // (registered in order; later work adds respond, chat, tools, models, mcp, …)
  respond,
  tools,
  models,
  mcp,
  logs,
  config,
  doctor,
  approvals,
  approvalsPending,
  classifier,
  notify,
  sandbox,
  scan,
  redact,
  triage,
  draft,
  watch,
];

export function buildProgram(): Command {
  const program = new Command("wisp")
    .description(
      "A small AI agent that runs on your own machine: a local model with tools, behind a policy, " +
        "a risk classifier, your approval, an OS sandbox and an audit log.",
    )
    .version(versionString(), "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .showSuggestionAfterError(true)
    .configureHelp({ sortSubcommands: false, showGlobalOptions: false });
  for (const module of COMMANDS) module.register(program);
  return program;
}
