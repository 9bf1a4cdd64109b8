/**
 * `wisp mcp`'s whole life: serve MCP on stdin/stdout until stdin closes (or
 * SIGINT/SIGTERM), or over HTTP with --http; then withdraw every request
 * still waiting in <home>/pending and close. The server's one Session (the
 * audit session, the gate and its approvals, the output store) and its
 * notifier are opened after the client's initialize, so that the reply does
 * not wait for them (ADR 0344).
 */
import process from "node:process";
import { stopSignals } from "../../platform/signals.ts";
import { ensureHome, type HomePaths } from "../../config/home.ts";
import type { Config } from "../../config/schema.ts";
import { AuditLog } from "../../audit/writer.ts";
import { load } from "../../util/lazy.ts";
import { messageOf } from "../../util/errors.ts";
import type { Notifier } from "../../notify/notifier.ts";
import { dialogAllowed, McpApprovalHost } from "./approval_host.ts";
import { PendingBoard } from "../../gate/pending.ts";
import { serveLiveApprovals } from "./live_approvals.ts";
import { type FaceBackend, McpFace } from "./server.ts";
import type { ThreadShape } from "./threads.ts";
import { LineTransport, writerSink } from "./transport.ts";
import { connectionLogger, type Logger } from "./log.ts";
// Only `--http` needs the SDK's HTTP transport: loaded then, so stdio's initialize does not wait for it.
import type { HttpAddress } from "./http.ts";

export interface ServeOptions {
  paths: HomePaths;
  config: Config;
  configExists: boolean;
  defaults: ThreadShape;
  yes: boolean;
  unsafe: boolean;
  argv: string[];
  log: Logger;
  /** WISP_MCP_CLIENT: the client's name for titles and pending requests. */
  clientName?: string;
  /** --http: serve streamable HTTP on this loopback address instead of stdio. */
  http?: HttpAddress;
  input?: ReadableStream<Uint8Array>;
  output?: { write(p: Uint8Array): Promise<number> };
}

/** The process title: `wisp mcp (claude-code)`, or `wisp mcp`. */
function processTitle(client: string | undefined): string {
  const name = client?.replace(/[^\x20-\x7e]/g, "").trim().slice(0, 40);
  return name ? `wisp mcp (${name})` : "wisp mcp";
}

export async function serveMcp(options: ServeOptions): Promise<void> {
  const { paths, config, log } = options;
  try {
    process.title = processTitle(options.clientName);
  } catch { /* the platform does not allow it */ }
  const audit = AuditLog.open(paths, config.audit);
  let board: PendingBoard | undefined;
  if (config.approval.outOfBand) {
    ensureHome(paths, paths.pending);
    try {
      board = await PendingBoard.open(paths.pending);
      await board.sweep();
    } catch (error) {
      // Without the process facts no terminal answer could be checked: the dialog alone asks.
      board = undefined;
      log("error", `answers from a terminal are off: ${(error as Error).message}`);
    }
  }
  // The host is made before the face it asks through: it reaches the face through this holder.
  const ref: { face?: McpFace } = {};
  // Opened at the first request that needs them (the face's ready()).
  let opened:
    | { backend: FaceBackend; notifier: Notifier; live: { close(): void } }
    | undefined;
  const host = new McpApprovalHost({
    channels: {
      canElicit: () =>
        dialogAllowed(
          Boolean(ref.face?.server.getClientCapabilities()?.elicitation),
          config.mcp.elicitation,
          [ref.face?.server.getClientVersion()?.name, options.clientName],
        ),
      elicit: (params, signal, timeoutMs) =>
        ref.face!.server.elicitInput(
          { mode: "form", ...params } as Parameters<McpFace["server"]["elicitInput"]>[0],
          { signal, timeout: timeoutMs },
        ) as Promise<
          { action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> }
        >,
      notify: async (title, message) => {
        await ref.face!.ready();
        const outcome = await opened!.notifier.notify({ title, message });
        if (!outcome.posted) log("info", `notification not shown: ${outcome.reason}`);
        return outcome.route ?? null;
      },
      client: () => options.clientName || ref.face?.server.getClientVersion()?.name || "mcp",
      log,
    },
    board,
    audit,
    session: audit.session,
    timeoutSeconds: config.approval.timeoutSeconds,
    bannerDelaySeconds: config.approval.bannerDelaySeconds,
  });
  let stopping = false;
  const open = async (): Promise<FaceBackend> => {
    const [{ openNotifier }, { Session }, { SessionEngine }, { configView }, { McpInquirer }] =
      await Promise.all([
        load<typeof import("../../notify/world.ts")>(import.meta.resolve("../../notify/world.ts")),
        load<typeof import("../../session/session.ts")>(
          import.meta.resolve("../../session/session.ts"),
        ),
        load<typeof import("./engine.ts")>(import.meta.resolve("./engine.ts")),
        load<typeof import("../../tools/inspect.ts")>(
          import.meta.resolve("../../tools/inspect.ts"),
        ),
        load<typeof import("./inquiry_host.ts")>(import.meta.resolve("./inquiry_host.ts")),
      ]);
    // One notifier for the server: the model's notify tool and the approval banners share its
    // limit. The client owns the terminal, so there is no terminal route (nor an MCP host route).
    const notifier = openNotifier(config.notifications, paths.auditLog, { terminal: false });
    // The ask tool's questions wait in the pending folder for wisp questions (inquiry_host.ts).
    const inquirer = new McpInquirer({
      ...(board ? { board } : {}),
      audit,
      session: audit.session,
      timeoutSeconds: config.inquiry.timeoutSeconds ?? config.approval.timeoutSeconds,
      parkAfterSeconds: config.inquiry.parkAfterSeconds,
      client: () => host.options.channels.client(),
      notify: (title, message) => host.options.channels.notify(title, message),
      log,
    });
    const session = Session.open({
      face: "mcp",
      paths,
      config,
      audit,
      host,
      notifier,
      inquirer,
      yes: options.yes,
      unsafe: options.unsafe,
      argv: options.argv,
    });
    // The approvals it holds, listed for `wisp approvals` and revocable from there.
    const live = await serveLiveApprovals({
      dir: paths.servers,
      audit,
      store: session.gate.approvals,
      client: () => host.options.channels.client(),
      start: board?.serverStart,
      log,
    });
    // A server told to stop while the session opened withdraws its entry at once.
    if (stopping) live.close();
    const backend: FaceBackend = {
      session,
      // A parked question of a thread that closes is withdrawn with it.
      engine: new SessionEngine(session, {
        threadEnded: (thread) => inquirer.withdrawThread(thread),
      }),
      // The view the model's inspect tool and `wisp config show` give, from the config loaded.
      configView: () => configView(config, paths, options.configExists),
    };
    opened = { backend, notifier, live };
    // A line the quick reader declines needs tree-sitter: load it now, in the background, so a
    // call that brings one does not wait for it (parse.ts).
    session.gate.warmShellParser();
    return backend;
  };
  const face = new McpFace({
    open,
    defaults: options.defaults,
    maxThreads: config.maxThreads,
    log,
    // A fact a caller asks to keep waits on the same board, named by the same notifier.
    facts: {
      config,
      paths,
      audit,
      ...(board ? { board } : {}),
      client: () => host.options.channels.client(),
      notify: (title, message) => host.options.channels.notify(title, message),
      log,
    },
  });
  ref.face = face;
  // Once the client has its initialize reply, open the session while it has nothing to ask.
  face.server.oninitialized = () => {
    face.ready().catch((error) => log("error", `the session did not open: ${messageOf(error)}`));
  };
  const stop = () => {
    if (stopping) return;
    stopping = true;
    face.close();
    board?.closeAll();
    opened?.live.close();
  };
  if (options.http) {
    await serveOverHttp(face, options.http, stop, log);
    await face.opening()?.catch(() => {});
    opened?.backend.session.close();
    return;
  }
  const transport = new LineTransport({
    input: options.input ?? Deno.stdin.readable,
    output: writerSink(options.output ?? Deno.stdout),
    log: connectionLogger(),
  });
  const onSignal = () => {
    stop();
    transport.close().finally(() => Deno.exit(0));
  };
  const signals = stopSignals();
  for (const s of signals) {
    try {
      Deno.addSignalListener(s, onSignal);
    } catch { /* not here */ }
  }
  log("info", `serving on stdio (audit session ${audit.session})`);
  await face.connect(transport);
  await transport.finished;
  stop();
  for (const s of signals) {
    try {
      Deno.removeSignalListener(s, onSignal);
    } catch { /* not here */ }
  }
  await face.opening()?.catch(() => {});
  opened?.backend.session.close();
  log("info", "stdin closed; stopped");
}

/**
 * Serve `face` over streamable HTTP on `address` until a signal: the URL and
 * the bearer token are printed once on stderr (whatever WISP_LOG says).
 */
async function serveOverHttp(
  face: McpFace,
  address: HttpAddress,
  stop: () => void,
  log: Logger,
): Promise<void> {
  const { newToken, serveHttp } = await load<typeof import("./http.ts")>(
    import.meta.resolve("./http.ts"),
  );
  const token = newToken();
  const serving = await serveHttp(address, token);
  await face.connect(serving.transport);
  await Deno.stderr.write(
    new TextEncoder().encode(
      `wisp mcp: serving ${serving.url}; send the header Authorization: Bearer ${token}\n`,
    ),
  );
  log("info", `serving on ${serving.url}`);
  const onSignal = () => {
    stop();
    serving.close();
  };
  for (const s of stopSignals()) {
    try {
      Deno.addSignalListener(s, onSignal);
    } catch { /* not here */ }
  }
  await serving.finished;
  stop();
  for (const s of stopSignals()) {
    try {
      Deno.removeSignalListener(s, onSignal);
    } catch { /* not here */ }
  }
  log("info", "stopped");
}
