/**
 * Consequences a command's name does not show: which process a signal
 * reaches (`kill -9` of a pid the line did not start, `$PPID`, whatever owns
 * a port), what starts again on its own later (services enabled, login hooks,
 * package lifecycle scripts), what reaches past this machine's sandbox
 * (a shell inside a cluster's pod, a container with the host's privileges or
 * folders), what publishes, and macOS's ways to run an app or a script, to
 * turn off its checks, or to ask for a password. Each reader raises a part's
 * level; none lowers it.
 */
import type { Analysis, Part } from "./analyse.ts";
import { CODE_SCAN_LIMIT, dangerous, type Rating } from "./programs.ts";
import { writeTargets } from "./targets.ts";
import { riskyDestination } from "./writes.ts";
import { absolutePath, literal, type Word } from "./words.ts";

/** The first consequence that makes the part dangerous, or undefined. */
export function consequenceOf(part: Part, analysis: Analysis): Rating | undefined {
  return signals(part, analysis) ?? persistence(part) ?? reach(part, analysis) ??
    publishing(part) ?? macOS(part);
}

// -- signals ---------------------------------------------------------------------

/** What `kill` is asked to send, and to whom. */
export interface KillArgs {
  /** The signal as written, upper case, without SIG (`KILL`, `9`, `TERM` when none). */
  signal: string;
  pids: Word[];
}

/** Read kill's arguments: -9, -KILL, -SIGKILL, -s KILL, -sKILL, --signal KILL, -n 9. */
export function killArgs(words: Word[]): KillArgs {
  let signal = "TERM";
  const pids: Word[] = [];
  let options = true;
  for (let i = 0; i < words.length; i++) {
    const l = literal(words[i]);
    // After the signal, `-1` or `-123` names a process group, not a signal.
    if (options && signal !== "TERM" && l !== undefined && /^-\d+$/.test(l)) {
      pids.push(words[i]);
      continue;
    }
    if (options && l === "--") {
      options = false;
      continue;
    }
    if (options && l !== undefined && /^-[sn]$|^--signal$/.test(l)) {
      signal = literal(words[i + 1] ?? { raw: "", segs: [] }) ?? "?";
      i++;
      continue;
    }
    if (options && l !== undefined && /^--signal=/.test(l)) {
      signal = l.slice(9);
      continue;
    }
    if (options && l !== undefined && /^-s[A-Za-z0-9]+$/.test(l) && !/^-SIG/i.test(l)) {
      signal = l.slice(2);
      continue;
    }
    if (options && l !== undefined && /^-[A-Za-z0-9+]+$/.test(l) && !/^-\d+$/.test(l.slice(1))) {
      signal = l.slice(1);
      continue;
    }
    if (options && l !== undefined && /^-\d+$/.test(l) && pids.length === 0) {
      signal = l.slice(1);
      continue;
    }
    if (options && l !== undefined && (l === "-l" || l === "-L")) return { signal: "LIST", pids };
    pids.push(words[i]);
  }
  return { signal: signal.toUpperCase().replace(/^SIG/, ""), pids };
}

const KILL = /^(KILL|9)$/;
/** Programs whose output names processes found by name, port or file. */
const FINDERS = /\b(lsof|fuser|pgrep|pidof|ss|netstat|ps|pidwait)\b/;

function signals(part: Part, analysis: Analysis): Rating | undefined {
  const prog = part.program;
  if (prog === "fuser" && part.argv.some((a) => /^-[a-zA-Z]*k/.test(a))) {
    return dangerous("kills every process using a file or port, whoever started it");
  }
  if (prog === "killall5") return dangerous("signals every process on the machine");
  if (prog !== "kill") return undefined;
  const { signal, pids } = killArgs(part.words.slice(1));
  if (signal === "LIST") return undefined;
  const { own, found } = pidVariables(analysis);
  for (const w of pids) {
    const named = w.segs.find((s) => s.kind === "var" && found.has(s.name));
    if (named) {
      return dangerous("signals processes found by name or port at run time, whoever started them");
    }
    if (w.segs.some((s) => s.kind === "var" && s.name === "PPID")) {
      return dangerous("signals the process that started this command (wisp itself)");
    }
    const sub = w.segs.find((s) => s.kind === "sub");
    if (sub && sub.kind === "sub" && FINDERS.test(sub.text)) {
      return dangerous(
        "signals processes found by name or port at run time, whoever started them",
      );
    }
  }
  // xargs kill: the pids come from whatever feeds it.
  if (part.argsAtRunTime) {
    const feeders = part.cmd.upstream.map((id) => analysis.parsed.commands[id]?.text ?? "");
    if (feeders.some((t) => FINDERS.test(t)) || KILL.test(signal)) {
      return dangerous("signals processes named at run time, whoever started them");
    }
  }
  // `kill -- -42`, `kill -9 -42`: a negative pid is a whole process group.
  const group = pids.map((w) => literal(w)).find((l) => l !== undefined && /^-\d+$/.test(l));
  if (group) return dangerous(`signals every process of the group ${group.slice(1)}`);
  if (!KILL.test(signal)) return undefined;
  const foreign = pids.find((w) => !isOwnChild(w, own));
  if (foreign) {
    return dangerous(
      `kills ${
        literal(foreign) ?? "a process"
      } outright (SIGKILL) though this line did not start it`,
    );
  }
  return undefined;
}

/** `$!`, `%1`, `%+`, `%name`, or a variable the line set from `$!`: a job of this line. */
function isOwnChild(w: Word, own: Set<string>): boolean {
  const l = literal(w);
  if (l !== undefined) return /^%/.test(l);
  // $(jobs -p): the pids of this shell's own jobs.
  if (w.segs.length === 1 && w.segs[0].kind === "sub") {
    return /^(\$\(|`)\s*jobs\s+-[a-z]*p[a-z]*\s*(\)|`)$/.test(w.segs[0].text);
  }
  return w.segs.length === 1 && w.segs[0].kind === "var" &&
    (w.segs[0].name === "!" || own.has(w.segs[0].name));
}

/** Variables the line sets from `$!` (its own child), and from lsof, pgrep and the like. */
function pidVariables(analysis: Analysis): { own: Set<string>; found: Set<string> } {
  const own = new Set<string>();
  const found = new Set<string>();
  for (const c of analysis.parsed.commands) {
    for (const a of c.assignments) {
      const seg = a.value?.segs.length === 1 ? a.value.segs[0] : undefined;
      if (seg?.kind === "var" && seg.name === "!") own.add(a.name);
      if (a.value?.segs.some((s) => s.kind === "sub" && FINDERS.test(s.text))) found.add(a.name);
    }
  }
  return { own, found };
}

// -- what starts again later ---------------------------------------------------------

/** npm's lifecycle scripts that run by themselves on install, pack or publish. */
const LIFECYCLE =
  /\bscripts\s*\.\s*["']?(pre|post)?(install|prepare|prepack|postpack|prepublish|prepublishOnly|uninstall|dependencies)\b|["'](pre|post)?(install|prepare|prepublish|uninstall|dependencies)["']\s*:/;

function persistence(part: Part): Rating | undefined {
  const prog = part.program;
  const args = part.argv.slice(1);
  const verbs = args.filter((a) => !a.startsWith("-"));
  if (
    prog === "systemctl" &&
    verbs.some((v) =>
      /^(enable|reenable|link|preset|preset-all|add-wants|add-requires|edit|set-default)$/.test(v)
    )
  ) {
    return dangerous("makes a service start by itself at every boot or login");
  }
  // `systemd-run --user` is unwrapped to the command it runs (analyse.ts), so its timer
  // options are read from the line as written.
  const timer = /^--on-(calendar|boot|startup|unit-active|unit-inactive|active)/;
  if (
    (prog === "systemd-run" && args.some((a) => timer.test(a))) ||
    (part.wrappers.includes("systemd-run --user") &&
      part.text.split(/\s+/).some((w) => timer.test(w)))
  ) {
    return dangerous("schedules a command that runs later by itself (a systemd timer)");
  }
  if (prog === "loginctl" && verbs[0] === "enable-linger") {
    return dangerous("keeps your services running after you log out, and starts them at boot");
  }
  if (
    prog === "defaults" && verbs[0] === "write" && /LSQuarantine|GKAutoRearm/i.test(args.join(" "))
  ) {
    return dangerous("turns off macOS's checks of downloaded programs");
  }
  if (prog === "defaults" && verbs[0] === "write") {
    const text = args.join(" ");
    if (
      /\b(LoginHook|LogoutHook|AutoLaunchedApplicationDictionary)\b|loginwindow|loginitems/i.test(
        text,
      )
    ) {
      return dangerous("makes macOS run a program at every login");
    }
  }
  // Package managers' settings that name a program they run for every script.
  if (
    /^(npm|yarn|pnpm|bun)$/.test(prog) && verbs[0] === "config" && verbs[1] === "set" &&
    /^(script-shell|shell|node-options|git|editor|browser|viewer|yarn-path|yarnPath)(=|$)/.test(
      verbs[2] ?? "",
    )
  ) {
    return dangerous(`makes ${prog} run a program of its choosing for its scripts (${verbs[2]})`);
  }
  if (
    LIFECYCLE.test(args.join(" ").slice(0, CODE_SCAN_LIMIT)) &&
    ((prog === "npm" || prog === "pnpm" || prog === "yarn" || prog === "bun") &&
        /^(pkg|set-script)$/.test(verbs[0] ?? "") || writeTargets(part).length > 0)
  ) {
    return dangerous("adds a package script that runs by itself on every install");
  }
  return undefined;
}

// -- reach past this machine's sandbox ---------------------------------------------------

const CONTAINER_TOOLS = /^(docker|podman|nerdctl|finch)$/;

/** kubectl's global options that take a value (`-n prod exec …`: the verb is exec). */
const KUBE_VALUES =
  /^(-n|--namespace|--context|--kubeconfig|--cluster|--user|-s|--server|--as|--as-group|--token|--request-timeout|-v)$/;

function reach(part: Part, analysis: Analysis): Rating | undefined {
  const prog = part.program;
  const args = part.argv.slice(1);
  const verbs = args.filter((a, i) => !a.startsWith("-") && !KUBE_VALUES.test(args[i - 1] ?? ""));
  if ((prog === "kubectl" || prog === "oc") && /^(exec|attach|debug)$/.test(verbs[0] ?? "")) {
    return dangerous(`runs commands inside a workload of the cluster (${prog} ${verbs[0]})`);
  }
  if (
    (prog === "kubectl" || prog === "oc") && verbs[0] === "run" &&
    args.some((a) => /^-[a-zA-Z]*[it]|^--(stdin|tty|attach)|^--$/.test(a))
  ) return dangerous(`starts a pod in the cluster and runs a command in it (${prog} run)`);
  // Cloud CLIs' remote shells and remote commands.
  const cloud = verbs.slice(0, 3).join(" ");
  if (
    (prog === "gcloud" && /\b(ssh|scp)\b/.test(cloud)) ||
    (prog === "aws" && /^(ssm (start-session|send-command)|ecs execute-command)/.test(cloud)) ||
    (prog === "az" && /^(ssh|vm run-command|container exec|webapp ssh)/.test(cloud))
  ) return dangerous(`runs commands on a machine in the cloud (${prog} ${cloud})`);
  if (!CONTAINER_TOOLS.test(prog)) return undefined;
  const verb = verbs[0] === "container" ? verbs[1] : verbs[0];
  if (verb !== "run" && verb !== "create") return undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = (name: string) =>
      a === name
        ? args[i + 1] ?? ""
        : a.startsWith(name + "=")
        ? a.slice(name.length + 1)
        : undefined;
    const security = value("--security-opt");
    if (
      security !== undefined &&
      /unconfined|label[=:]disable|no-new-privileges[=:]false/i.test(security)
    ) {
      return dangerous(`runs a container without the kernel's confinement (${security})`);
    }
    const cap = value("--cap-add");
    if (cap !== undefined) return dangerous(`runs a container with extra privileges (${cap})`);
    if (a === "--device" || a.startsWith("--device=")) {
      return dangerous("runs a container with a device of the host");
    }
    for (const ns of ["--pid", "--ipc", "--uts", "--userns", "--cgroupns"]) {
      if (value(ns) === "host") {
        return dangerous(`runs a container in the host's namespaces (${ns}=host)`);
      }
    }
    const volume = value("-v") ?? value("--volume");
    const mount = value("--mount");
    const source = volume !== undefined
      ? volume.split(":")[0]
      : mount !== undefined
      ? /(?:^|,)(?:source|src)=([^,]+)/.exec(mount)?.[1]
      : undefined;
    if (source === undefined) continue;
    const home = analysis.userHome.replace(/\/+$/, "");
    const host = source.replace(/^(~|\$\{?HOME\}?)(?=\/|$)/, home)
      .replace(/^\$\{?PWD\}?(?=\/|$)/, part.cwds[0]);
    if (!host.startsWith("/")) continue;
    const abs = absolutePath(host, part.cwds[0]);
    const why = abs === "/" || abs === home || home.startsWith(abs + "/") ||
        /^\/(home|Users)$/.test(abs)
      ? "the whole file system or a folder holding your home"
      : riskyDestination(abs, analysis.userHome);
    if (why) return dangerous(`gives a container the host's ${source} (${why})`);
  }
  return undefined;
}

// -- publishing -------------------------------------------------------------------------

/** Programs and the verbs with which they publish beyond this machine. */
const PUBLISHERS: Record<string, RegExp> = {
  twine: /^upload$/,
  flit: /^publish$/,
  hatch: /^publish$/,
  uv: /^publish$/,
  pdm: /^publish$/,
  vsce: /^publish$/,
  ovsx: /^publish$/,
  jsr: /^publish$/,
  lerna: /^publish$/,
  changeset: /^publish$/,
  goreleaser: /^release$/,
  "semantic-release": /^/,
  mvn: /^deploy$/,
  gradle: /^publish\w*$/,
  helm: /^push$/,
  pod: /^trunk$/,
  dotnet: /^nuget$/,
  gh: /^(release (create|upload|edit)|gist create)$/,
  deno: /^publish$/,
  bun: /^publish$/,
};

function publishing(part: Part): Rating | undefined {
  let prog = part.program;
  let verbs = part.argv.slice(1).filter((a) => !a.startsWith("-"));
  // python3 -m twine upload
  const m = part.argv.indexOf("-m");
  if (/^python/.test(prog) && m > 0) {
    prog = part.argv[m + 1] ?? "";
    verbs = part.argv.slice(m + 2).filter((a) => !a.startsWith("-"));
  }
  if (
    prog === "gh" && verbs[0] === "repo" && /^(create|edit)$/.test(verbs[1] ?? "") &&
    part.argv.some((a) => a === "--public" || /^--visibility[= ]?public$/.test(a) || a === "public")
  ) return dangerous("makes a repository public, which cannot be taken back");
  const re = Object.hasOwn(PUBLISHERS, prog) ? PUBLISHERS[prog] : undefined;
  const verb = prog === "gh" ? verbs.slice(0, 2).join(" ") : verbs[0] ?? "";
  if (re && re.test(verb) && !part.argv.some((a) => a === "--dry-run" || a === "-n")) {
    return dangerous(
      `${prog} ${verb}: publishes beyond this machine, which cannot be taken back`
        .replace(" :", ":"),
    );
  }
  return undefined;
}

// -- macOS -------------------------------------------------------------------------------

/** Files `open` hands to something that runs them: apps, installers, scripts. */
const RUNNABLE =
  /\.(app|pkg|mpkg|dmg|command|tool|sh|bash|zsh|terminal|workflow|scpt|scptd|applescript|jar|prefPane|saver|mobileconfig)\/?$/i;
const TERMINALS =
  /^(terminal|iterm2?|warp|alacritty|kitty|wezterm|ghostty|script editor|automator)(\.app)?$/i;

function macOS(part: Part): Rating | undefined {
  const prog = part.program;
  const args = part.argv.slice(1);
  if (prog === "open") {
    const app = args.includes("-a") ? args[args.indexOf("-a") + 1] : undefined;
    // A terminal given a file runs it; given a folder, it only opens a window there.
    const opened = args.filter((a) => !a.startsWith("-") && a !== app);
    if (app && TERMINALS.test(app) && opened.some((a) => !/^\.{1,2}$|\/$/.test(a))) {
      return dangerous(`opens a file in ${app}, which runs it`);
    }
    if (args.some((a) => /^-b$/.test(a)) && /terminal|iterm/i.test(args.join(" "))) {
      return dangerous("opens a file in a terminal, which runs it");
    }
    const file = args.find((a) => !a.startsWith("-") && RUNNABLE.test(a) && a !== app);
    if (file) return dangerous(`opens ${file}, which runs an app, an installer or a script`);
  }
  if (
    prog === "networksetup" &&
    args.some((a) =>
      /^-set(dnsservers|searchdomains|\w*proxy\w*|autoproxyurl|additionalroutes|manual|v6manual)/i
        .test(a)
    )
  ) {
    return dangerous("redirects the machine's network traffic (DNS, proxy or routes)");
  }
  if (prog === "xattr") {
    const changes = args.some((a) => /^-[a-zA-Z]*[dcw]/.test(a));
    if (
      changes && (args.some((a) => /^-[a-zA-Z]*c/.test(a)) || /quarantine/i.test(args.join(" ")))
    ) {
      return dangerous("removes the quarantine mark that makes macOS check downloaded programs");
    }
  }
  if (prog === "osascript") {
    const code = args.join(" ").slice(0, CODE_SCAN_LIMIT);
    if (
      /display dialog[\s\S]*default answer|displayDialog[\s\S]*defaultAnswer/i.test(code) &&
      /hidden answer|hiddenAnswer|passw|passcode|credential|log ?in|sudo|admin/i.test(code)
    ) {
      return dangerous("shows a dialog that asks for a password");
    }
  }
  return undefined;
}
