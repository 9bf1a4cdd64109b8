/**
 * The policy: what is refused whatever anyone answers. A built-in deny list
 * (privilege escalation, recursive removal of system folders or the home
 * folder, code downloaded or decoded into a shell, disk tools, shutting
 * down, fork bombs, writes into wisp's own home, the model answering for the
 * person or starting a wisp agent of its own) and the person's own
 * `commandPolicy.deny` / `commandPolicy.allow` regular expressions.
 */
import { basename } from "../util/path.ts";
import { type Analysis, feederKind, type Part, SHELLS } from "./analyse.ts";
import { isInterpreter } from "./rules.ts";
import { CODE_SCAN_LIMIT, HOME_DIRS, PRIVILEGE, SYSTEM_DIRS } from "./programs.ts";
import { cachedRegExp } from "./regexes.ts";
import { isLongOption } from "./options.ts";
import { type Target, writeTargets } from "./targets.ts";
import { recordLink, throughLinks } from "./writes.ts";
import { endlessSpawning } from "./line_effects.ts";
import { absolutePath, display, literal, resolveWord, type Word } from "./words.ts";
import type { Origin } from "../exec/mode.ts";

export interface PolicyConfig {
  deny: string[];
  allow: string[];
  sandbox?: { allowOutsideSandbox?: boolean };
}

export interface PolicyContext {
  origin?: Origin;
  outsideSandbox?: boolean;
  /** Resolve a path through links (longest existing prefix); optional I/O. */
  realPath?: (path: string) => string | undefined;
  /** Paths that start wisp from source (main.ts), compared with `deno run` scripts. */
  wispScripts?: string[];
}

export interface PolicyDecision {
  allowed: boolean;
  /** Why it was refused: the text after "command denied by policy: ". */
  reason?: string;
  /** Which rule refused it (privilege, rm-root, download-exec, disk, power, fork-bomb, wisp-home, wisp-answer, wisp-agent, deny-pattern, allow-list, outside-sandbox). */
  rule?: string;
  /** The part refused. */
  command?: string;
}

/** Texts a user pattern is tried against for one part: as written, and normalised. */
function partTexts(part: Part): string[] {
  const normal = [part.program || part.argv[0] || "", ...part.argv.slice(1)].join(" ");
  const full = part.argv.join(" ");
  return [...new Set([part.text, normal, full])];
}

export function evaluatePolicy(
  analysis: Analysis,
  config: PolicyConfig,
  home: { root: string },
  context: PolicyContext = {},
): PolicyDecision {
  const origin = context.origin ?? "model";
  const deny = (rule: string, reason: string, command?: string): PolicyDecision => ({
    allowed: false,
    rule,
    reason,
    ...(command ? { command } : {}),
  });

  if (context.outsideSandbox && config.sandbox?.allowOutsideSandbox === false) {
    return deny(
      "outside-sandbox",
      origin === "person"
        ? "running outside the sandbox is turned off here (commandPolicy.sandbox.allowOutsideSandbox is false); type it after a single ! to run it in the sandbox"
        : "running outside the sandbox is turned off here (commandPolicy.sandbox.allowOutsideSandbox is false); run it in the sandbox instead",
    );
  }

  // The person's deny patterns: the line, and each part as written and normalised.
  for (const pattern of config.deny) {
    const re = cachedRegExp(pattern);
    if (!re) {
      return deny(
        "deny-pattern",
        `the policy pattern ${JSON.stringify(pattern)} is not a valid regular expression`,
      );
    }
    if (re.test(analysis.line)) {
      return deny("deny-pattern", `it matches the deny pattern ${JSON.stringify(pattern)}`);
    }
    for (const part of analysis.parts) {
      if (partTexts(part).some((t) => re.test(t))) {
        return deny(
          "deny-pattern",
          `${part.text} matches the deny pattern ${JSON.stringify(pattern)}`,
          part.text,
        );
      }
    }
  }

  if (!analysis.ok) {
    const raw = rawScan(analysis.line, origin);
    if (raw) return raw;
  } else {
    const builtIn = builtInRules(analysis, home, { ...context, origin });
    if (builtIn) return builtIn;
  }

  if (config.allow.length > 0) {
    const res = config.allow.map((pattern) => cachedRegExp(pattern));
    if (res.some((r) => r === null)) {
      return deny("allow-list", "a commandPolicy.allow pattern is not a valid regular expression");
    }
    if (!analysis.ok) {
      if (!res.some((r) => r!.test(analysis.line))) {
        return deny(
          "allow-list",
          "the line does not parse, and as a whole it is not on the allow list (commandPolicy.allow)",
        );
      }
    } else {
      for (const part of analysis.parts) {
        if (part.words.length === 0) continue;
        const texts = partTexts(part);
        if (!res.some((r) => texts.some((t) => r!.test(t) || r!.test(t + " ")))) {
          return deny(
            "allow-list",
            `${part.text} is not on the allow list (commandPolicy.allow)`,
            part.text,
          );
        }
      }
    }
  }
  return { allowed: true };
}

/** When the line does not parse: refuse what is plainly there. */
function rawScan(line: string, origin: Origin): PolicyDecision | undefined {
  // `,` too: brace expansion (`{sudo,id}`) makes a word of each alternative.
  // Empty quotes, empty substitutions and backslashes inside a word are no-ops to bash (`s''udo`,
  // `s$()udo`, `s\udo`): look at the line without them too.
  const squeezed = line.replace(/''|""|\$\(\s*\)|``|\\(?=\w)/g, "");
  const tokens = `${line} ${squeezed}`.split(/[\s;&|()`$<>'"\\{}=,]+/).filter(Boolean).map((t) =>
    basename(t)
  );
  const priv = tokens.find((t) => PRIVILEGE.has(t));
  if (priv) {
    return {
      allowed: false,
      rule: "privilege",
      reason: `${priv} runs commands with elevated privileges`,
    };
  }
  if (/:\s*\(\s*\)\s*\{[^}]*:\s*\|\s*:/.test(line)) {
    return { allowed: false, rule: "fork-bomb", reason: "it is a fork bomb" };
  }
  if (origin !== "person" && tokens.some((t) => t === "wisp" || t === "wisp-tui")) {
    return {
      allowed: false,
      rule: "wisp-agent",
      reason: "it runs wisp, in a line that cannot be checked",
    };
  }
  return undefined;
}

function builtInRules(
  analysis: Analysis,
  home: { root: string },
  context: PolicyContext & { origin: Origin },
): PolicyDecision | undefined {
  /** Links the line itself makes (ln -s TARGET NAME): later paths through NAME lead to TARGET. */
  const links = new Map<string, string>();
  for (const original of analysis.parts) {
    // Program names compare without case: macOS file systems find /usr/bin/sudo for SUDO.
    const part =
      original.program === original.program.toLowerCase() || original.program === "Rscript"
        ? original
        : { ...original, program: original.program.toLowerCase() };
    const refusal = privilege(part) ?? rmRoots(part, analysis) ??
      downloadExec(part, analysis) ?? inlineCode(part, analysis, home) ??
      disk(part, analysis) ?? power(part) ?? homeWrite(part, analysis, home, context, links) ??
      (context.origin !== "person" ? wispRun(part, analysis, context) : undefined);
    if (refusal) return { allowed: false, ...refusal, command: part.text };
    recordLink(part, analysis.userHome, links);
  }
  const bomb = forkBomb(analysis);
  if (bomb) return { allowed: false, rule: "fork-bomb", reason: bomb };
  return undefined;
}

type Refusal = { rule: string; reason: string };

const FETCHES =
  /urlopen|urllib|requests\.(get|post)|http\.client|fetch\(|https?:\/\/|Net::HTTP|open-uri|LWP|IO::Socket|socket\.|child_process.*curl|wget|curl/i;
const EXECUTES =
  /\bexec\s*\(|\beval\s*\(|\bsystem\s*\(|subprocess|os\.system|popen|child_process|\beval\b|Function\(|execSync|do shell script/i;

/** Inline interpreter code that downloads and runs, or writes into wisp's home. */
function inlineCode(part: Part, analysis: Analysis, home: { root: string }): Refusal | undefined {
  if (!isInterpreter(part.program) || part.argv.length < 3) return undefined;
  const code = part.argv.slice(1).join(" ").slice(0, CODE_SCAN_LIMIT);
  if (FETCHES.test(code) && EXECUTES.test(code)) {
    return {
      rule: "download-exec",
      reason: `its ${part.program} code downloads something and runs it`,
    };
  }
  if (
    /\bwisp\b['",\s]+(approvals['",\s]+(approve|deny)|facts['",\s]+(keep|drop)|questions['",\s]+(answer|decline)|chat|mcp|respond|tui)\b/
      .test(code)
  ) {
    return {
      rule: "wisp-answer",
      reason: `its ${part.program} code runs wisp to answer for the person or start an agent`,
    };
  }
  const homeNames = [home.root, "~/.wisp", "$HOME/.wisp", ".wisp/", "WISP_HOME"];
  if (
    homeNames.some((h) => code.includes(h)) &&
    /open\([^)]*['"][wa]|write|unlink|remove|rename|rm(Sync|dir)?\b|truncate|copy|move|>>?/i.test(
      code,
    )
  ) {
    return {
      rule: "wisp-home",
      reason:
        `its ${part.program} code changes wisp's own home, where its approvals, facts and settings live`,
    };
  }
  void analysis;
  return undefined;
}

function privilege(part: Part): Refusal | undefined {
  const wrapper = part.wrappers.find((w) => PRIVILEGE.has(w));
  if (wrapper) {
    return { rule: "privilege", reason: `${wrapper} runs commands with elevated privileges` };
  }
  if (PRIVILEGE.has(part.program)) {
    return { rule: "privilege", reason: `${part.program} runs commands with elevated privileges` };
  }
  if (
    part.program === "osascript" && /with\s+administrator\s+privileges/i.test(part.argv.join(" "))
  ) {
    return {
      rule: "privilege",
      reason: "osascript … with administrator privileges runs commands as an administrator",
    };
  }
  if (
    part.program === "gsudo" || part.program === "please" ||
    (part.program === "systemd-run" && !part.argv.includes("--user"))
  ) {
    return { rule: "privilege", reason: `${part.program} runs commands with elevated privileges` };
  }
  return undefined;
}

function isProtectedRoot(path: string, userHome: string): boolean {
  const p = path.length > 1 ? path.replace(/\/+$/, "") : path;
  const lower = p.toLowerCase();
  const home = userHome.toLowerCase().replace(/\/+$/, "");
  if (lower === home) return true;
  if (HOME_DIRS.some((d) => lower === `${home}/${d.toLowerCase()}`)) return true;
  return SYSTEM_DIRS.some((d) => d.toLowerCase() === lower);
}

/**
 * The paths a glob is tried against: each protected folder, and for the folders whose removal
 * takes everything, what lies directly in them. Depends on the user's home only, so it is made
 * once per home rather than once per glob.
 */
let rootProbes: { userHome: string; probes: string[] } | undefined;
function probesFor(userHome: string): string[] {
  if (rootProbes?.userHome === userHome) return rootProbes.probes;
  const probes: string[] = [];
  for (const d of [...SYSTEM_DIRS, userHome, ...HOME_DIRS.map((h) => `${userHome}/${h}`)]) {
    const base = d === "/" ? "" : d;
    const whole = isProtectedRoot(d, userHome);
    for (const probe of [d, `${base}/x`, `${base}/.x`, `${base}/Documents`, `${base}/.ssh`]) {
      if (!whole && probe !== d) continue;
      probes.push(probe);
    }
  }
  rootProbes = { userHome, probes };
  return probes;
}

function globHitsRoot(regexSource: string, userHome: string): boolean {
  const re = cachedRegExp(`^${regexSource.replace(/(\\\/)+$/, "")}/?$`, "i");
  if (!re) return true;
  return probesFor(userHome).some((probe) => re.test(probe));
}

/** Would this target, when removed recursively, take a system folder or the home folder with it? */
function targetIsRoot(word: Word, part: Part, analysis: Analysis): string | undefined {
  const r = resolveWord(word, part.vars, analysis.userHome);
  const shown = display(word);
  for (const cwd of part.cwds) {
    if (r.globRegex) {
      const src = r.value.startsWith("/")
        ? r.globRegex
        : `${cwd === "/" ? "" : escapeRe(cwd)}\\/${r.globRegex}`;
      if (globHitsRoot(src, analysis.userHome)) return shown;
      continue;
    }
    if (r.unknown && r.value === "") continue;
    const abs = absolutePath(r.value, cwd);
    if (isProtectedRoot(abs, analysis.userHome)) return shown;
  }
  return undefined;
}

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

function rmRoots(part: Part, analysis: Analysis): Refusal | undefined {
  const prog = part.program;
  const args = part.argv.slice(1);
  if (args.some((a) => isLongOption(a, "no-preserve-root"))) {
    return { rule: "rm-root", reason: `${prog} --no-preserve-root removes the whole system` };
  }
  // GNU getopt takes any start of a long name (`--recu`); see options.ts.
  const recursive = args.some((a) =>
    isLongOption(a, "recursive") || /^-[a-zA-Z]*[rR]/.test(a) && !a.startsWith("--")
  );
  const positional = part.words.slice(1).filter((w) => {
    const l = literal(w);
    return l === undefined || !l.startsWith("-") || l === "-";
  });
  if ((prog === "rm" || prog === "grm") && recursive) {
    for (const w of positional) {
      const hit = targetIsRoot(w, part, analysis);
      if (hit) {
        return {
          rule: "rm-root",
          reason: `rm -r of ${hit} would delete ${describeRoot(w, part, analysis)}`,
        };
      }
    }
  }
  if (prog === "shred" || prog === "srm" || prog === "wipe") {
    for (const w of positional) {
      const hit = targetIsRoot(w, part, analysis);
      if (hit) {
        return {
          rule: "rm-root",
          reason: `${prog} of ${hit} would destroy ${describeRoot(w, part, analysis)}`,
        };
      }
    }
  }
  if ((prog === "chmod" || prog === "chown" || prog === "chgrp") && recursive) {
    for (const w of positional.slice(1)) {
      const hit = targetIsRoot(w, part, analysis);
      if (hit) {
        return {
          rule: "rm-root",
          reason: `${prog} -R on ${hit} would change a whole system or home folder`,
        };
      }
    }
  }
  if (
    (prog === "find" || prog === "gfind") &&
    (args.includes("-delete") ||
      part.argv.some((a, i) =>
        /^-exec(dir)?$/.test(a) && /^(rm|shred|unlink)$/.test(basename(part.argv[i + 1] ?? ""))
      ))
  ) {
    for (const w of part.words.slice(1)) {
      const l = literal(w);
      if (l !== undefined && (l.startsWith("-") || l === "(" || l === "!")) break;
      const hit = targetIsRoot(w, part, analysis);
      if (hit) {
        return {
          rule: "rm-root",
          reason: `find ${hit} … deleting would empty a system or home folder`,
        };
      }
    }
  }
  if (prog === "rsync" && args.some((a) => a.startsWith("--delete")) && positional.length >= 2) {
    const hit = targetIsRoot(positional[positional.length - 1], part, analysis);
    if (hit) {
      return { rule: "rm-root", reason: `rsync --delete onto ${hit} would delete what is there` };
    }
  }
  if (prog === "mv" && positional.length >= 2) {
    for (const w of positional.slice(0, -1)) {
      const hit = targetIsRoot(w, part, analysis);
      if (hit) {
        return { rule: "rm-root", reason: `mv of ${hit} would move a system or home folder away` };
      }
    }
  }
  return undefined;
}

function describeRoot(w: Word, part: Part, analysis: Analysis): string {
  const r = resolveWord(w, part.vars, analysis.userHome);
  if (r.globRegex) return "everything in a system or home folder";
  // Of the folders the part may run in (a cd before it adds one), the one that makes it a root.
  const abs = part.cwds.map((cwd) => absolutePath(r.value, cwd))
    .find((candidate) => isProtectedRoot(candidate, analysis.userHome)) ??
    absolutePath(r.value, part.cwds[0]);
  if (abs === "/") return "everything on the machine";
  if (abs.toLowerCase() === analysis.userHome.toLowerCase()) return "your home folder";
  return `the system folder ${abs}`;
}

/** Does this part (or anything in its substitutions) produce downloaded or decoded data? */
function feeds(part: Part, depth = 0): string | undefined {
  if (depth > 8) return undefined;
  const kind = feederKind(part.words);
  if (kind) return kind;
  for (const s of part.substitutions) {
    const k = feeds(s, depth + 1);
    if (k) return k;
  }
  for (const w of part.words) {
    const r = resolveWord(w, part.vars, "");
    if (r.tainted) return r.tainted;
  }
  return undefined;
}

function interpreterReadsCode(part: Part): boolean {
  if (!isInterpreter(part.program)) return false;
  const args = part.argv.slice(1);
  if (args.includes("-") || args.some((a) => /^\/dev\/(stdin|fd\/0)$/.test(a))) return true;
  if (args.some((a) => /^-(m|c|e|E|r|p)$/.test(a) || /^--(eval|print|command)/.test(a))) {
    return false;
  }
  return !args.some((a) => !a.startsWith("-"));
}

function runsCode(part: Part): boolean {
  return SHELLS.has(part.program) || isInterpreter(part.program) || part.program === "eval" ||
    part.program === "source" || part.program === "." || part.payloadKind !== null ||
    part.readsScriptFromStdin ||
    part.dynamicProgram;
}

function downloadExec(part: Part, analysis: Analysis): Refusal | undefined {
  // Downloaded or decoded to a file, then run (line_effects.ts): curl -o i.sh …; sh i.sh,
  // wget …; chmod +x f; ./f, also after a copy, a move or unpacking the archive.
  if (part.ranFile && (part.ranFile.origin === "downloaded" || part.ranFile.origin === "decoded")) {
    return {
      rule: "download-exec",
      reason: `it runs ${part.ranFile.name}, which the line just ${part.ranFile.origin}`,
    };
  }
  if (!runsCode(part)) return undefined;
  const what = (k: string) => (k === "decoded" ? "decoded data" : "something downloaded");
  // Piped in: curl … | sh, base64 -d | bash, curl | tee x | python3
  // Shells: the analysis knows when stdin is the script (bare, -s, -, /dev/stdin). Interpreters
  // read code from stdin when given no script, module or inline code (or "-").
  const readsStdin = part.readsScriptFromStdin ||
    part.cmd.pipeIn &&
      (interpreterReadsCode(part) || part.program === "source" || part.program === ".") ||
    // xargs sh -c {}: what comes down the pipe becomes the code.
    part.cmd.pipeIn && part.wrappers.includes("xargs");
  if (readsStdin) {
    for (const up of part.upstream) {
      const k = feeds(up);
      if (k) {
        return {
          rule: "download-exec",
          reason: `it pipes ${what(k)} into ${part.program || "a shell"}`,
        };
      }
    }
  }
  // Substituted: bash <(curl …), sh -c "$(wget -O- …)", eval "$(curl …)", source <(curl …)
  for (const s of part.substitutions) {
    const k = feeds(s);
    if (k) {
      return {
        rule: "download-exec",
        reason: `it runs ${what(k)} through ${
          part.program || "a shell"
        } (command or process substitution)`,
      };
    }
  }
  // A variable that holds a download: x=$(curl …); eval "$x"
  for (const w of part.words) {
    const r = resolveWord(w, part.vars, analysis.userHome);
    if (r.tainted) {
      return {
        rule: "download-exec",
        reason: `it runs ${what(r.tainted)} held in a variable through ${
          part.program || "a shell"
        }`,
      };
    }
  }
  if (part.cmd.herestring) {
    const r = resolveWord(part.cmd.herestring, part.vars, analysis.userHome);
    if (r.tainted) {
      return { rule: "download-exec", reason: `it feeds ${what(r.tainted)} to ${part.program}` };
    }
  }
  // A here-doc whose body runs a download, fed to a shell.
  if (
    part.cmd.heredoc?.expands && /\$\(|`/.test(part.cmd.heredoc.body) &&
    analysis.parts.some((p) => p.cmd.substitutionOf === -1 && feederKind(p.words))
  ) {
    return {
      rule: "download-exec",
      reason: `it feeds something downloaded to ${part.program} through a here-doc`,
    };
  }
  return undefined;
}

const DISK_DEVICE =
  /^\/dev\/(r?disk\d|sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|md\d|dm-\d|mapper\/|loop\d)/;

function disk(part: Part, analysis: Analysis): Refusal | undefined {
  const prog = part.program;
  const args = part.argv.slice(1);
  for (const t of writeTargets(part)) {
    const v = resolveWord(t.word, part.vars, analysis.userHome).value;
    if (DISK_DEVICE.test(v)) {
      return { rule: "disk", reason: `it writes straight onto a disk device (${v})` };
    }
  }
  if (prog === "dd" && args.some((a) => /^of=\/dev\/(?!null$|stdout$|stderr$|zero$)/.test(a))) {
    return { rule: "disk", reason: "dd onto a device overwrites a disk" };
  }
  if (
    /^(mkfs(\.\w+)?|newfs(_\w+)?|mke2fs|mkswap|fdisk|sfdisk|gdisk|sgdisk|cfdisk|parted|wipefs|blkdiscard|mkdosfs|mkntfs|gpt|pdisk|zpool|format)$/
      .test(prog)
  ) {
    if (prog === "fdisk" && args.length === 1 && args[0] === "-l") return undefined;
    if (prog === "parted" && args.includes("-l") && args.length === 1) return undefined;
    return { rule: "disk", reason: `${prog} changes disks or partitions` };
  }
  if (prog === "diskutil") {
    const verb = args.filter((a) => !a.startsWith("-")).slice(0, 2).join(" ");
    if (
      /^(erase\w*|zeroDisk|randomDisk|secureErase|partitionDisk|reformat|splitPartition|mergePartitions|resizeVolume|apfs (delete\w*|erase\w*|resizeContainer)|cs delete\w*|ar delete)/i
        .test(verb)
    ) {
      return {
        rule: "disk",
        reason: `diskutil ${verb.split(" ")[0]} erases or repartitions a disk`,
      };
    }
  }
  if (
    (prog === "shred" || prog === "srm" || prog === "hdparm") &&
    args.some((a) => DISK_DEVICE.test(a))
  ) {
    return { rule: "disk", reason: `${prog} on a disk device destroys it` };
  }
  for (const r of part.cmd.redirects) {
    if (!r.target || !r.op.includes(">")) continue;
    const v = resolveWord(r.target, part.vars, analysis.userHome).value;
    if (DISK_DEVICE.test(v)) {
      return { rule: "disk", reason: `it writes straight onto a disk device (${v})` };
    }
  }
  return undefined;
}

function power(part: Part): Refusal | undefined {
  const prog = part.program;
  const args = part.argv.slice(1);
  if (/^(shutdown|reboot|halt|poweroff|fasthalt|fastboot)$/.test(prog)) {
    if (args.some((a) => a === "-c" || a === "--help")) return undefined;
    return { rule: "power", reason: `${prog} shuts down or restarts the machine` };
  }
  if ((prog === "init" || prog === "telinit") && args.some((a) => /^[06sS]$/.test(a))) {
    return { rule: "power", reason: `${prog} ${args[0]} shuts down or restarts the machine` };
  }
  if (
    prog === "systemctl" &&
    args.some((a) =>
      /^(poweroff|reboot|halt|kexec|soft-reboot|suspend|hibernate|hybrid-sleep|emergency|rescue)$/
        .test(a)
    )
  ) {
    return { rule: "power", reason: "systemctl shuts down, restarts or suspends the machine" };
  }
  if (
    prog === "loginctl" &&
    args.some((a) => /^(poweroff|reboot|suspend|hibernate|terminate-\w+|kill-\w+)$/.test(a))
  ) return { rule: "power", reason: "loginctl shuts down or ends sessions" };
  for (const r of part.cmd.redirects) {
    if (r.target && r.op.includes(">") && /^\/proc\/sysrq-trigger$/.test(literal(r.target) ?? "")) {
      return {
        rule: "power",
        reason: "writing /proc/sysrq-trigger can reboot or halt the machine at once",
      };
    }
  }
  if (prog === "launchctl" && args.some((a) => a === "reboot")) {
    return { rule: "power", reason: "launchctl reboot restarts the machine" };
  }
  if (
    prog === "osascript" && /\b(shut\s*down|restart|log\s*out)\b/i.test(args.join(" ")) &&
    /System Events|Finder|loginwindow/i.test(args.join(" "))
  ) {
    return { rule: "power", reason: "its AppleScript shuts down, restarts or logs out" };
  }
  if (
    (prog === "kill" || prog === "pkill" || prog === "killall") &&
    (args.includes("1") && prog === "kill" ||
      /^(launchd|init|systemd|WindowServer|loginwindow)$/.test(args[args.length - 1] ?? ""))
  ) {
    return {
      rule: "power",
      reason: "it kills the system's first process, which brings the machine down",
    };
  }
  return undefined;
}

function forkBomb(analysis: Analysis): string | undefined {
  const endless = endlessSpawning(analysis);
  if (endless) return endless;
  for (const f of analysis.functions) {
    const selfCalls = f.parts.filter((p) => p.program === f.name);
    if (selfCalls.length >= 2 || selfCalls.some((p) => p.cmd.pipeIn || p.upstream.length > 0)) {
      return `the function ${f.name} calls itself over and over (a fork bomb)`;
    }
  }
  for (const part of analysis.parts) {
    const code = part.argv.join(" ").slice(0, CODE_SCAN_LIMIT);
    if (
      (isInterpreter(part.program) || SHELLS.has(part.program)) &&
      /fork\s*(\(\))?\s*(while|until)\b|while\s*\(?\s*(1|true|True)\s*\)?\s*[:{]?\s*(os\.)?fork|for\s*\(\s*;\s*;\s*\)\s*\{?\s*fork|loop\s*(do|\{)\s*fork|(while|until|loop|for\s*\(\s*;\s*;\s*\))[^\n]{0,80}\bfork\s*\(|\bfork\b.*\bfork\b.*\bfork\b/
        .test(code)
    ) {
      return "its code forks processes without end (a fork bomb)";
    }
  }
  return undefined;
}

/** The default home of any user on the machine: as much wisp's as the one in use. */
const ANY_WISP_HOME = /^\/(home\/[^/]+|Users\/[^/]+|root|var\/root)\/\.wisp(\/|$)/i;

function insideHome(path: string, homeRoot: string): boolean {
  const p = path.toLowerCase();
  const h = homeRoot.toLowerCase().replace(/\/+$/, "");
  return p === h || p.startsWith(h + "/");
}

/** The refusal of a write into wisp's own home, naming how and where the line writes. */
function wispHomeRefusal(target: Target): Refusal {
  return {
    rule: "wisp-home",
    reason: "it changes wisp's own home, where its approvals, facts and settings live " +
      `(${target.how} ${display(target.word)})`,
  };
}

function homeWrite(
  part: Part,
  analysis: Analysis,
  home: { root: string },
  context: PolicyContext,
  links: Map<string, string> = new Map(),
): Refusal | undefined {
  // The configured home, and the default one too: writing there is never needed.
  const targets = writeTargets(part);
  if (targets.length === 0) return undefined;
  const roots = [...new Set([home.root, `${analysis.userHome.replace(/\/+$/, "")}/.wisp`])];
  if (context.realPath) {
    for (const root of [...roots]) {
      const real = context.realPath(root);
      if (real && !roots.includes(real)) roots.push(real);
    }
  }
  // Changing directory into the home and writing there is the same thing.
  for (const t of targets) {
    const r = resolveWord(t.word, part.vars, analysis.userHome);
    if (r.globRegex) {
      let re: RegExp | undefined;
      for (const cwd of part.cwds) {
        const src = r.value.startsWith("/")
          ? r.globRegex
          : `${cwd === "/" ? "" : escapeRe(cwd)}\\/${r.globRegex}`;
        re = cachedRegExp(`^${src}`, "i") ?? undefined;
        if (!re) continue;
        // The folder the pattern's fixed start names (`~/.wisp/part*` lands in ~/.wisp).
        const fixed = r.value.slice(0, r.value.search(/[*?[]/));
        const dir = fixed.slice(0, fixed.lastIndexOf("/") + 1);
        for (const root of roots) {
          if (
            re.test(root) || re.test(`${root}/config.json`) || re.test(`${root}/approvals.json`) ||
            (dir !== "" && insideHome(absolutePath(dir, cwd), root))
          ) {
            return wispHomeRefusal(t);
          }
        }
      }
      continue;
    }
    if (r.unknown && r.value === "") continue;
    for (const cwd of part.cwds) {
      const abs = throughLinks(absolutePath(r.value, cwd), links);
      const real = context.realPath?.(abs);
      for (const root of roots) {
        if (
          insideHome(abs, root) || (real && insideHome(real, root)) || ANY_WISP_HOME.test(abs) ||
          (real !== undefined && ANY_WISP_HOME.test(real))
        ) {
          return wispHomeRefusal(t);
        }
      }
    }
  }
  return undefined;
}

const WISP_AGENTS = new Set(["respond", "chat", "mcp", "tui"]);
const WISP_SUBCOMMANDS = new Set([
  "respond",
  "chat",
  "mcp",
  "tui",
  "tools",
  "logs",
  "models",
  "config",
  "doctor",
  "classifier",
  "approvals",
  "facts",
  "questions",
  "completions",
  "notify",
  "watch",
  "scan",
  "redact",
  "draft",
  "triage",
  "sandbox",
  "help",
  "version",
]);
const WISP_ANSWERS: Record<string, Set<string>> = {
  approvals: new Set(["approve", "deny"]),
  facts: new Set(["keep", "drop"]),
  questions: new Set(["answer", "decline"]),
};
const WISP_STATE_CHANGES: Record<string, Set<string>> = {
  config: new Set(["set", "unset", "edit"]),
  approvals: new Set(["revoke", "clear"]),
  classifier: new Set(["train", "use", "remove", "ship"]),
  facts: new Set(["forget", "clear", "remove", "edit"]),
  models: new Set(["pull", "enable", "disable", "remove", "link"]),
};

/** Whether `command verb` is a wisp command that answers for the person. */
function answersForThePerson(command: string | undefined, verb: string | undefined): boolean {
  const verbs: Record<string, string[]> = {
    approvals: ["approve", "deny"],
    facts: ["keep", "drop"],
    questions: ["answer", "decline"],
  };
  return command !== undefined && verb !== undefined && (verbs[command] ?? []).includes(verb);
}

/** The wisp argv of a part that runs wisp, however spelled; undefined when it does not. */
export function wispArgs(part: Part, context: PolicyContext): string[] | undefined {
  const prog = part.program;
  const argv = part.argv;
  // A copy or a renamed binary of wisp (or a script an interpreter runs) is
  // known by what it is asked to do: its words, each its own argument.
  // Only a program named by its path or a script's interpreter can be such a
  // copy; `echo approvals deny` only prints.
  const mayBeWisp = (argv[0] ?? "").includes("/") ||
    /^(deno|node|bun|tsx|ts-node|npx|bunx)$/.test(prog);
  const positional = argv.map((a, k) => ({ a, k })).filter(({ a, k }) =>
    k > 0 && !a.startsWith("-")
  );
  for (const start of mayBeWisp ? positional.slice(0, 3) : []) {
    if (answersForThePerson(argv[start.k], argv[start.k + 1])) return argv.slice(start.k);
  }
  if (prog === "wisp" || prog === "wisp-tui" || /^wisp(-\w+)?$/.test(prog)) {
    return prog === "wisp-tui" ? ["tui", ...argv.slice(1)] : argv.slice(1);
  }
  if (prog === "deno") {
    const i = argv.indexOf("task");
    if (i > 0) {
      const rest = argv.slice(i + 1).filter((a, k, all) =>
        !(a.startsWith("-") && k < all.findIndex((x) => !x.startsWith("-")))
      );
      if (rest[0] === "wisp") return rest.slice(1);
      return undefined;
    }
    const run = argv.findIndex((a) =>
      a === "run" || a === "-A" || a.startsWith("--allow") || a.startsWith("-P")
    );
    if (run > 0) {
      const scripts = context.wispScripts ?? [];
      for (let k = run; k < argv.length; k++) {
        const a = argv[k];
        if (a.startsWith("-") || a === "run") continue;
        const abs = absolutePath(a, part.cwds[0]);
        const real = context.realPath?.(abs) ?? abs;
        if (scripts.some((s) => s === abs || s === real) || /(^|\/)wisp\/main\.ts$/.test(real)) {
          return argv.slice(k + 1);
        }
        if (a.endsWith(".ts") || a.endsWith(".js")) return undefined;
      }
    }
  }
  return undefined;
}

function wispRun(part: Part, analysis: Analysis, context: PolicyContext): Refusal | undefined {
  if (part.dynamicProgram && /\bwisp\b/.test(analysis.line)) {
    return { rule: "wisp-agent", reason: "it may run wisp under a name chosen at run time" };
  }
  const args = wispArgs(part, context);
  if (!args) return undefined;
  const dynamicArg = part.words.slice(1).some((w) =>
    literal(w) === undefined && !w.segs.every((s) => s.kind === "lit" || s.kind === "glob")
  );
  const positional = args.filter((a) => !a.startsWith("-"));
  const options = args.filter((a) => a.startsWith("-"));
  if (positional.length === 0) {
    if (options.length > 0 && options.every((o) => /^(-V|--version|-h|--help)$/.test(o))) {
      return undefined;
    }
    return {
      rule: "wisp-agent",
      reason:
        "wisp with a prompt starts a wisp agent of its own; answer from this conversation instead",
    };
  }
  const sub = positional[0];
  const verb = positional[1];
  if (dynamicArg && args.indexOf(sub) >= 0) {
    // A subcommand or verb only known at run time could be anything.
    const firstDynamic = part.words.slice(1).findIndex((w) => literal(w) === undefined);
    if (firstDynamic <= 1) {
      return { rule: "wisp-agent", reason: "it runs wisp with a subcommand chosen at run time" };
    }
  }
  if (WISP_AGENTS.has(sub) || !WISP_SUBCOMMANDS.has(sub)) {
    return {
      rule: "wisp-agent",
      reason: `wisp ${
        WISP_AGENTS.has(sub) ? sub : "with a prompt"
      } starts a wisp agent of its own; answer from this conversation instead`,
    };
  }
  if (WISP_ANSWERS[sub]?.has(verb ?? "")) {
    return {
      rule: "wisp-answer",
      reason:
        `wisp ${sub} ${verb} answers for the person; only they may answer, from their own terminal`,
    };
  }
  if (WISP_STATE_CHANGES[sub]?.has(verb ?? "")) {
    return {
      rule: "wisp-home",
      reason:
        `wisp ${sub} ${verb} changes wisp's own settings or records, which only the person may do`,
    };
  }
  if (sub === "approvals" && verb === undefined && options.length === 0) return undefined;
  return undefined;
}
