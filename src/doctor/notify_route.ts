/**
 * Doctor's notification finding: the route a notification from wisp respond
 * or chat would take here, decided by the notifier itself (notify/notifier.ts)
 * in a dry run: its world is this process's environment and terminal, but
 * writing the sequence and starting osascript or notify-send are only
 * recorded, never done, so doctor posts nothing. The first route the notifier
 * would try and that needs nothing missing is the one named.
 *
 * No route at all is not ok when it is an install's fault (a Linux desktop
 * session without notify-send); on a machine with no desktop session it is ok,
 * with the reason, since nothing wisp could install would change it.
 */
import {
  Notifier,
  type NotifierSettings,
  type NotifierWorld,
  type Route,
} from "../notify/notifier.ts";
import type { Finding } from "./finding.ts";

const NAME = "notifications";
const PROBE = { title: "wisp doctor", message: "route probe" };

/** What a route means, for the detail. */
function describe(route: Route, env: (name: string) => string | undefined): string {
  switch (route) {
    case "host":
      return "the front end posts it";
    case "terminal":
      return `an OSC 9 sequence ${env("TERM_PROGRAM") ?? env("TERM") ?? "this terminal"} shows`;
    case "app":
      return `osascript posting as ${env("__CFBundleIdentifier")}`;
    case "osascript":
      return "osascript (shown as Script Editor)";
    case "notify-send":
      return "notify-send to the desktop session";
  }
}

/** The dry-run world: `world` with every effect recorded instead of done. */
function dryRun(world: NotifierWorld): NotifierWorld {
  return {
    ...world,
    host: undefined,
    terminal: world.terminal ? () => true : undefined,
    runFixed: () => Promise.resolve(0),
    now: () => 0,
  };
}

/** The notification finding for a world and the config's settings. */
export async function notificationFinding(
  world: NotifierWorld,
  settings: NotifierSettings,
): Promise<Finding> {
  if (!settings.enabled) {
    return { ok: true, name: NAME, detail: "off (notifications.enabled is false)" };
  }
  // The per-minute limit is about posting, which a dry run never does.
  const sane = { ...settings, perMinute: Math.max(1, settings.perMinute) };
  const outcome = await new Notifier(sane, dryRun(world)).notify(PROBE);
  const skipped = outcome.tried.map((t) => `${t.route}: ${t.reason}`).join("; ");
  if (outcome.posted && outcome.route) {
    return {
      ok: true,
      name: NAME,
      detail: `via ${outcome.route}, ${describe(outcome.route, world.env)}${
        skipped ? ` (skipped ${skipped})` : ""
      }`,
    };
  }
  // A program that is not installed is the install's fault only when it is all that is missing:
  // the same dry run with every program present would post through it.
  let blockers = outcome.tried;
  const missingProgram = outcome.tried.find((t) => /is not installed/.test(t.reason));
  if (missingProgram) {
    const everything = new Notifier(sane, dryRun({ ...world, hasProgram: () => true }));
    const would = await everything.notify(PROBE);
    if (would.posted && would.route === missingProgram.route) {
      const at = missingProgram.reason.indexOf(" (");
      return {
        ok: false,
        name: NAME,
        detail: `no route can show one here: ${skipped}`,
        fix: at > 0
          ? `install it ${missingProgram.reason.slice(at + 1)}`
          : `install ${missingProgram.route}`,
      };
    }
    // Installing it would not help: say what stands in the way beyond it.
    if (would.tried.length > 0) blockers = would.tried;
  }
  const why = blockers.map((t) => `${t.route}: ${t.reason}`).join("; ") ||
    "no route on this system";
  return {
    ok: true,
    name: NAME,
    detail: `none here (${why}); wisp notify and the notify tool say so when asked`,
  };
}
