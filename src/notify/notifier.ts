/**
 * The notifier behind the notify tool and `wisp notify`. The off switch, the
 * bounds and the per-minute limit apply first; then the first route that
 * works posts it. Which routes exist depends on the face and the platform:
 *
 *   host      the face posts it itself (a front end that said it can)
 *   terminal  an OSC 9 sequence, in terminals that show it (not under tmux)
 *   app       macOS: osascript posting as the terminal app (notifications.viaTerminalApp)
 *   osascript macOS: osascript, title and text passed as argv, never parsed as script
 *   notify-send  Linux: notify-send, when it is installed and a desktop session is there
 *
 * Everything the routes need from the world (environment, clock, terminal,
 * the launcher) is injected, so the choice and the bounds are pure and tested.
 */

export type Route = "host" | "terminal" | "app" | "osascript" | "notify-send";

export const BOUNDS = { title: 80, subtitle: 80, message: 400 } as const;

export interface Notification {
  title: string;
  message: string;
  subtitle?: string;
  sound?: boolean;
}

export interface NotifyOutcome {
  posted: boolean;
  route?: Route;
  /** Why it was not shown (one sentence), when it was not. */
  reason?: string;
  /** Routes tried that failed, with why. */
  tried: Array<{ route: Route; reason: string }>;
}

export interface NotifierWorld {
  os: string;
  env: (name: string) => string | undefined;
  now: () => number;
  /** The face posts it itself; absent when the face cannot. */
  host?: (n: Notification) => Promise<boolean>;
  /** Writes to the person's terminal; absent when there is none (piped, MCP). */
  terminal?: (sequence: string) => boolean;
  /** Runs a fixed program with argv (through the launcher); resolves to its exit status. */
  runFixed?: (argv: string[]) => Promise<number>;
  /** Whether a program is installed. */
  hasProgram?: (name: string) => boolean;
}

export interface NotifierSettings {
  enabled: boolean;
  perMinute: number;
  viaTerminalApp: boolean;
}

/** Control characters (ESC, BEL, C1) would end or forge a terminal sequence: they become spaces. */
export function clean(text: string, max: number): string {
  // deno-lint-ignore no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").replace(/\s+/g, " ").trim();
  const chars = Array.from(flat);
  return chars.length > max ? chars.slice(0, max - 1).join("") + "…" : flat;
}

export function bound(n: Notification): Notification {
  return {
    title: clean(n.title || "wisp", BOUNDS.title) || "wisp",
    message: clean(n.message, BOUNDS.message),
    ...(n.subtitle ? { subtitle: clean(n.subtitle, BOUNDS.subtitle) } : {}),
    ...(n.sound ? { sound: true } : {}),
  };
}

/** Terminals that show OSC 9 as a notification. iTerm2 only with a setting on, so the app route goes first there. */
function terminalTakesOsc9(env: (name: string) => string | undefined): boolean {
  if (env("TMUX")) return false; // tmux does not pass the sequence through
  const program = env("TERM_PROGRAM") ?? "";
  if (/^(ghostty|WezTerm|iTerm\.app)$/i.test(program)) return true;
  if (env("TERM") === "xterm-kitty" || env("KITTY_WINDOW_ID")) return true;
  return false;
}

/**
 * Whether a front end drawing on this terminal should post notifications
 * itself, as OSC 9: the terminals that show it, except iTerm2, where it
 * shows only with a setting on and the app route goes first.
 */
export function terminalShowsNotifications(env: (name: string) => string | undefined): boolean {
  return terminalTakesOsc9(env) && !/^iTerm\.app$/i.test(env("TERM_PROGRAM") ?? "");
}

export function osc9(n: Notification): string {
  const text = n.subtitle ? `${n.title}: ${n.subtitle}: ${n.message}` : `${n.title}: ${n.message}`;
  return `\x1b]9;${text}\x07`;
}

/** The fixed AppleScript: every value arrives as argv, so nothing is parsed as script. */
const OSASCRIPT_PROGRAM = [
  "on run argv",
  "set t to item 1 of argv",
  "set m to item 2 of argv",
  "set s to item 3 of argv",
  'if s is "" then',
  "display notification m with title t",
  "else",
  "display notification m with title t subtitle s",
  "end if",
  "end run",
];

export function osascriptArgv(n: Notification): string[] {
  const script = OSASCRIPT_PROGRAM.flatMap((line) => ["-e", line]);
  return ["/usr/bin/osascript", ...script, n.title, n.message, n.subtitle ?? ""];
}

/** The app route: the same script told to the terminal app by bundle id, also from argv. */
function appArgv(n: Notification, bundleId: string): string[] {
  const script = [
    "on run argv",
    "tell application id (item 4 of argv)",
    'if (item 3 of argv) is "" then',
    "display notification (item 2 of argv) with title (item 1 of argv)",
    "else",
    "display notification (item 2 of argv) with title (item 1 of argv) subtitle (item 3 of argv)",
    "end if",
    "end tell",
    "end run",
  ].flatMap((line) => ["-e", line]);
  return ["/usr/bin/osascript", ...script, n.title, n.message, n.subtitle ?? "", bundleId];
}

function notifySendArgv(n: Notification): string[] {
  const body = n.subtitle ? `${n.subtitle}\n${n.message}` : n.message;
  return ["notify-send", "--app-name=wisp", "--", n.title, body];
}

/** The routes to try, in order, for this world. */
export function routeOrder(world: NotifierWorld, settings: NotifierSettings): Route[] {
  const order: Route[] = [];
  if (world.host) order.push("host");
  const bundle = world.env("__CFBundleIdentifier");
  const iterm = (world.env("TERM_PROGRAM") ?? "") === "iTerm.app";
  const app = world.os === "darwin" && settings.viaTerminalApp && !!bundle;
  if (app && iterm) order.push("app");
  if (world.terminal && terminalTakesOsc9(world.env)) order.push("terminal");
  if (app && !iterm) order.push("app");
  if (world.os === "darwin") order.push("osascript");
  if (world.os === "linux") order.push("notify-send");
  return order;
}

export class Notifier {
  #sent: number[] = [];

  constructor(
    readonly settings: NotifierSettings,
    readonly world: NotifierWorld,
    recent: number[] = [],
  ) {
    this.#sent = [...recent];
  }

  /** Post through the first route that works, or say why not. `only` forces one route. */
  async notify(input: Notification, only?: Route): Promise<NotifyOutcome> {
    const tried: NotifyOutcome["tried"] = [];
    if (!this.settings.enabled) {
      return {
        posted: false,
        reason: "notifications are off (notifications.enabled is false)",
        tried,
      };
    }
    const n = bound(input);
    if (n.message === "") return { posted: false, reason: "the message is empty", tried };
    const now = this.world.now();
    this.#sent = this.#sent.filter((t) => now - t < 60_000);
    if (this.#sent.length >= this.settings.perMinute) {
      return {
        posted: false,
        reason:
          `the limit of ${this.settings.perMinute} notifications a minute is reached; try again in a minute`,
        tried,
      };
    }
    const order = only ? [only] : routeOrder(this.world, this.settings);
    if (order.length === 0) {
      return { posted: false, reason: "no route can show a notification here", tried };
    }
    for (const route of order) {
      const failure = await this.#try(route, n);
      if (failure === undefined) {
        this.#sent.push(now);
        return { posted: true, route, tried };
      }
      tried.push({ route, reason: failure });
    }
    const reasons = tried.map((t) => `${t.route}: ${t.reason}`).join("; ");
    return { posted: false, reason: `every route failed (${reasons})`, tried };
  }

  /** undefined when the route took it; else why not. */
  async #try(route: Route, n: Notification): Promise<string | undefined> {
    const w = this.world;
    switch (route) {
      case "host":
        if (!w.host) return "this face has no host route";
        return (await w.host(n)) ? undefined : "the front end did not take it";
      case "terminal":
        if (!w.terminal) return "there is no terminal to write to";
        if (!terminalTakesOsc9(w.env)) return "this terminal does not show OSC 9 notifications";
        return w.terminal(osc9(n)) ? undefined : "the terminal write failed";
      case "app": {
        if (w.os !== "darwin") return "the app route exists only on macOS";
        const bundle = w.env("__CFBundleIdentifier");
        if (!bundle) return "no terminal app to post as (__CFBundleIdentifier is not set)";
        if (!w.runFixed) return "no launcher to run osascript";
        return (await w.runFixed(appArgv(n, bundle))) === 0 ? undefined : "osascript failed";
      }
      case "osascript":
        if (w.os !== "darwin") return "osascript exists only on macOS";
        if (!w.runFixed) return "no launcher to run osascript";
        return (await w.runFixed(osascriptArgv(n))) === 0 ? undefined : "osascript failed";
      case "notify-send":
        if (w.os !== "linux") return "notify-send is for Linux desktops";
        if (w.hasProgram && !w.hasProgram("notify-send")) {
          return "notify-send is not installed (apt install libnotify-bin)";
        }
        if (!w.env("DISPLAY") && !w.env("WAYLAND_DISPLAY") && !w.env("DBUS_SESSION_BUS_ADDRESS")) {
          return "no desktop session (DISPLAY, WAYLAND_DISPLAY and DBUS_SESSION_BUS_ADDRESS are unset)";
        }
        if (!w.runFixed) return "no launcher to run notify-send";
        return (await w.runFixed(notifySendArgv(n))) === 0 ? undefined : "notify-send failed";
    }
  }
}
