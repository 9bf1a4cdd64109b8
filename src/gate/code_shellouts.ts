/**
 * Commands that inline interpreter code runs, found in its text: `os.system("…")`,
 * `subprocess.run(["rm", "-rf", "x"])`, `os.execvp("sudo", [...])`, perl's `system`/`exec` with a
 * list, `` `…` ``, `qx(…)`, ruby's `%x(…)`, node's `execSync("…")`/`spawn("…", [...])`, PHP's
 * `shell_exec`, AppleScript's `do shell script` and JavaScript for Automation's `doShellScript`.
 * Each is handed back as a command line, parsed and rated like any payload, so code that runs a
 * refused program is refused. Files the code writes outside the project (`open('/etc/x', 'w')`,
 * `writeFileSync(HOME + '/.bashrc')`) are dangerous.
 *
 * The reading is by pattern over string literals, not a parser of each language: a command built
 * at run time is not found here, and the interpreter's own rating (code that runs commands is
 * dangerous) still holds for it. Pure; bounded by CODE_SCAN_LIMIT.
 */
import type { HookUse } from "./hooks.ts";
import { CODE_SCAN_LIMIT } from "./programs.ts";
import { bounded } from "./payload_options.ts";
import { shellQuote } from "../util/shell_words.ts";

const STRING = String.raw`'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"`;
const LIST = String.raw`\[\s*(?:(?:${STRING})\s*(?:,\s*)?)*\]|qw\s*[(\[{/][^)\]}/]*[)\]}/]`;

/** Calls whose first argument is a shell command line. */
const SHELL_CALLS = String
  .raw`(?:new\s+Deno\.Command|\bDeno\.run|\bBun\.spawn(?:Sync)?|\bos\.execute|\bio\.popen|\b(?:os\.system|os\.popen|popen|commands\.getoutput|subprocess\.getoutput|subprocess\.getstatusoutput|shell_exec|passthru|IO\.popen|Open3\.\w+|execSync|doShellScript|do shell script|exec|system|spawnSync|spawn|execFile|execFileSync|execvp?e?|execlp?e?|spawnvp?e?|spawnlp?e?|call|check_call|check_output|run|Popen|proc_open|Process\.spawn|pty\.spawn))`;

/** A call with a string and maybe a list or more strings after it. */
const CALL = new RegExp(
  String.raw`${SHELL_CALLS}\s*(?:\(\s*)?(${STRING}|${LIST})((?:\s*,\s*(?:${STRING}|${LIST}))*)`,
  "g",
);

const SPAWN_WITH_MODE = new RegExp(
  String
    .raw`\bos\.spawn[lv]p?e?\s*\(\s*(?:os\.)?P_\w+\s*,\s*((?:(?:${STRING}|${LIST})\s*(?:,\s*)?)+)`,
  "g",
);

/** Backticks and quote-like operators that run a shell command (perl, ruby, php). */
const BACKTICK =
  /`([^`]*)`|%x\(([^)]*)\)|%x\{([^}]*)\}|%x\[([^\]]*)\]|qx\(([^)]*)\)|qx\{([^}]*)\}|qx\/([^/]*)\//g;

const PIPES = new RegExp(
  String
    .raw`\|\s*("(?:[^"\\]|\\.)*")|("(?:[^"\\]|\\.)*")\s*\|\s*getline|\bopen\s*(?:\(\s*)?(?:my\s+)?\$?\w+\s*,\s*(?:['"][-+]?\|['"]\s*,\s*)(${STRING})|\bopen\s*(?:\(\s*)?(?:my\s+)?\$?\w+\s*,\s*['"]\s*\|\s*([^'"]+)['"]|\bopen\s*(?:\(\s*)?(?:my\s+)?\$?\w+\s*,\s*['"]([^'"|]+)\|\s*['"]`,
  "g",
);

/** Writing a file named by a literal (or the home plus a literal). */
const WRITES = [
  // python open(path, 'w'|'a'|'x'), ruby File.open/File.write
  /\b(?:open|File\.open|File\.write|IO\.write)\s*\(\s*((?:os\.path\.expanduser\(\s*)?(?:'[^']*'|"[^"]*"))\)?\s*,\s*(['"])[wax+]/g,
  // perl open(FH, '>path') / open(my $f, ">>", "path")
  /\bopen\s*(?:\(\s*)?(?:my\s+)?\$?\w+\s*,\s*['"]\s*>{1,2}\s*(?:['"]\s*,\s*)?['"]?([^'"]+)/g,
  // node fs.writeFileSync(path…), appendFileSync, createWriteStream
  /\b(?:writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream|write_text|write_bytes)\s*\(\s*((?:process\.env\.HOME|os\.homedir\(\))\s*\+\s*(?:'[^']*'|"[^"]*")|'[^']*'|"[^"]*"|`[^`]*`)/g,
  // python Path('…').write_text(…)
  /\bPath\(\s*('[^']*'|"[^"]*")\s*\)(?:\.expanduser\(\))?\.(?:write_text|write_bytes|open\(\s*['"][wa])/g,
];

function unquote(text: string): string {
  const t = text.trim();
  if ((t.startsWith("'") && t.endsWith("'")) || (t.startsWith('"') && t.endsWith('"'))) {
    return t.slice(1, -1).replace(/\\(["'\\])/g, "$1");
  }
  return t;
}

function listItems(text: string): string[] {
  const qw = /^qw\s*[(\[{/]([^)\]}/]*)/.exec(text);
  if (qw) return qw[1].trim().split(/\s+/).filter(Boolean);
  return [...text.matchAll(new RegExp(STRING, "g"))].map((m) => unquote(m[0]));
}

/** A path the code writes, as the shell would see it (`~`, `$HOME`); undefined when not a path. */
function writtenPath(expr: string): string {
  let t = expr.trim();
  const home = /^(?:process\.env\.HOME|os\.homedir\(\))\s*\+\s*/.exec(t);
  if (home) return "~" + unquote(t.slice(home[0].length)).replace(/^\/?/, "/");
  const expand = /^os\.path\.expanduser\(\s*/.exec(t);
  if (expand) t = t.slice(expand[0].length);
  if (t.startsWith("`")) {
    return t.slice(1, -1).replace(/^\$\{(?:process\.env\.HOME|os\.homedir\(\))\}/, "~");
  }
  return unquote(t);
}

/** Is a path written by code outside the folder it runs in (and not a scratch or null file)? */
function outsideProject(path: string, cwds: string[]): boolean {
  if (/^(\/tmp\/|\/var\/tmp\/|\/private\/tmp\/|\/dev\/(null|stdout|stderr)$)/.test(path)) {
    return false;
  }
  if (path.startsWith("~") || path.startsWith("$HOME") || path.startsWith("..")) return true;
  if (!path.startsWith("/")) return false;
  return cwds.every((cwd) => path !== cwd && !path.startsWith(cwd.replace(/\/?$/, "/")));
}

/** The commands and outside writes in a piece of inline code. */
export function codeShellouts(program: string, code: string, cwds: string[]): HookUse[] {
  return bounded(`${program} code`, shelloutsOf(program, code, cwds));
}

function shelloutsOf(program: string, code: string, cwds: string[]): HookUse[] {
  const text = code.slice(0, CODE_SCAN_LIMIT);
  const source = `${program} code`;
  const runs = "a command the code runs";
  const out: HookUse[] = [];
  const seen = new Set<string>();
  const add = (command: string) => {
    const c = command.trim();
    if (c === "" || seen.has(c)) return;
    seen.add(c);
    out.push({ source, runs, command: c });
  };
  // os.spawnlp(os.P_WAIT, "prog", "prog", "arg"…): the mode comes first.
  for (const m of text.matchAll(SPAWN_WITH_MODE)) {
    const items = listItems(m[1]);
    if (items.length > 1 && items[1] === items[0]) items.splice(1, 1);
    if (items.length > 0) add(items.map(shellQuote).join(" "));
  }
  for (const m of text.matchAll(CALL)) {
    const first = m[1];
    const more = m[2] ?? "";
    if (first.startsWith("[") || first.startsWith("qw")) {
      add(listItems(first).map(shellQuote).join(" "));
      continue;
    }
    const head = unquote(first);
    const rest = listItems(more);
    // execvp("sudo", ["sudo", "id"]): argv[0] repeats the program.
    if (rest.length > 0 && rest[0] === head) rest.shift();
    add([rest.length ? shellQuote(head) : head, ...rest.map(shellQuote)].join(" "));
  }
  if (!/^(node|nodejs|bun|deno|ts-node|tsx|python\d*(\.\d+)*|pypy\d*)$/.test(program)) {
    // In JavaScript and Python backticks are not commands.
    for (const m of text.matchAll(BACKTICK)) add(m.slice(1).find((g) => g !== undefined) ?? "");
  }
  // Pipes to and from commands: awk's `print | "cmd"` and `"cmd" | getline`, perl's and ruby's
  // `open(F, "| cmd")`, `open(F, "cmd |")`, `open(F, "-|", "cmd")`; Tcl's `exec`/`spawn` (expect).
  for (const m of text.matchAll(PIPES)) add(unquote(m.slice(1).find((g) => g !== undefined) ?? ""));
  if (/^(expect|tclsh|wish)$/.test(program)) {
    for (const m of text.matchAll(/(?:^|[;\n[{]\s*)(?:spawn|exec)\s+((?:-\S+\s+)*[^;\]\n}]+)/g)) {
      add(m[1].replace(/^(?:-\S+\s+)*/, ""));
    }
  }
  for (const re of WRITES) {
    for (const m of text.matchAll(re)) {
      const path = writtenPath(m[1]);
      if (path && outsideProject(path, cwds)) {
        out.push({
          source,
          runs: "a file the code writes",
          level: "dangerous",
          reason: `its ${program} code writes ${path}, outside the folder it runs in`,
        });
      }
    }
  }
  return out;
}
