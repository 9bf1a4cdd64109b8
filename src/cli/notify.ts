/**
 * `wisp notify <message> [--title] [--subtitle] [--sound] [--route R]` — the
 * notify tool's notifier from the command line: the same off switch, bounds,
 * per-minute limit (counted from this minute's audit events, across
 * processes) and routes; audited as `notification` with source user.
 */
import { load } from "./lazy.ts";
import { type Command, InvalidArgumentError } from "commander";

const ROUTE_NAMES = ["host", "terminal", "app", "osascript", "notify-send"];

interface NotifyOptions {
  title?: string;
  subtitle?: string;
  sound?: boolean;
  route?: string;
}

async function notify(message: string[], options: NotifyOptions): Promise<void> {
  const { loadContext } = await load<typeof import("./context.ts")>(
    import.meta.resolve("./context.ts"),
  );
  const { AuditLog } = await load<typeof import("../audit/writer.ts")>(
    import.meta.resolve("../audit/writer.ts"),
  );
  const { Notifier } = await load<typeof import("../notify/notifier.ts")>(
    import.meta.resolve("../notify/notifier.ts"),
  );
  const { realWorld } = await load<typeof import("../notify/world.ts")>(
    import.meta.resolve("../notify/world.ts"),
  );
  const { recentNotificationTimes } = await load<typeof import("../notify/recent.ts")>(
    import.meta.resolve("../notify/recent.ts"),
  );
  const { errLine, outLine, cliState } = await load<typeof import("./io.ts")>(
    import.meta.resolve("./io.ts"),
  );
  const { WispError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  const { paths, config } = loadContext();
  const recent = recentNotificationTimes(paths.auditLog, Date.now());
  const notifier = new Notifier(config.notifications, realWorld({ terminal: true }), recent);
  const text = message.join(" ");
  const route = options.route as import("../notify/notifier.ts").Route | undefined;
  if (route) errLine(`using the ${route} route only`);
  const outcome = await notifier.notify(
    {
      title: options.title ?? "wisp",
      message: text,
      subtitle: options.subtitle,
      sound: options.sound,
    },
    route,
  );
  const audit = AuditLog.open(paths, config.audit);
  audit.record("notification", {
    source: "user",
    title: options.title ?? "wisp",
    message: text,
    route: outcome.route ?? null,
    posted: outcome.posted,
    ...(outcome.reason ? { reason: outcome.reason } : {}),
  });
  audit.close();
  if (!outcome.posted) throw new WispError(`notification not shown: ${outcome.reason}`);
  outLine(`notification posted via ${outcome.route}`);
  cliState.exitCode = 0;
}

export function register(program: Command): void {
  program
    .command("notify")
    .description("show a desktop notification (the same notifier as the model's notify tool)")
    .argument("<message...>", "the message")
    .option("--title <title>", "the title", "wisp")
    .option("--subtitle <subtitle>", "a second line")
    .option("--sound", "play the notification sound")
    .option(
      "--route <route>",
      `use this route alone (${ROUTE_NAMES.join(", ")})`,
      (value: string) => {
        if (!ROUTE_NAMES.includes(value)) {
          throw new InvalidArgumentError(
            `it must be one of ${ROUTE_NAMES.join(", ")}.`,
          );
        }
        return value;
      },
    )
    .action(notify);
}
