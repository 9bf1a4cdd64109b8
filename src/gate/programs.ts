/**
 * What the rules know about programs: the read-only list, per-program verb
 * knowledge (git, cargo, npm, docker, …), and the options that make an
 * otherwise harmless program write. Pure data and small pure functions.
 */
import type { Level } from "../config/schema.ts";
import { isLongOption, optionArgs } from "./options.ts";
import { GIT_READ_ONLY_VERBS } from "./git_verbs.ts";

export interface Rating {
  level: Level;
  reason: string;
}

export const safe = (reason: string): Rating => ({ level: "safe", reason });
export const moderate = (reason: string): Rating => ({ level: "moderate", reason });
export const dangerous = (reason: string): Rating => ({ level: "dangerous", reason });

/** Programs that only read and print: rated safe, and no model classifier is asked. */
export const READ_ONLY = new Set([
  "ls",
  "cat",
  "head",
  "tail",
  "wc",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "ag",
  "ack",
  "pwd",
  "echo",
  "printf",
  "date",
  "cal",
  "whoami",
  "id",
  "groups",
  "uname",
  "hostname",
  "which",
  "whereis",
  "type",
  "file",
  "stat",
  "du",
  "df",
  "tree",
  "diff",
  "cmp",
  "comm",
  "cut",
  "tr",
  "nl",
  "column",
  "jq",
  "yq",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "printenv",
  "true",
  "false",
  "test",
  "[",
  "[[",
  "sleep",
  "seq",
  "ps",
  "pgrep",
  "fuser",
  "uptime",
  "free",
  "md5sum",
  "md5",
  "sha1sum",
  "sha256sum",
  "sha512sum",
  "shasum",
  "cksum",
  "b2sum",
  "strings",
  "od",
  "hexdump",
  "less",
  "more",
  "man",
  "info",
  "tldr",
  "cd",
  "pushd",
  "popd",
  "dirs",
  "export",
  "unset",
  "set",
  "shopt",
  "alias",
  "unalias",
  "local",
  "declare",
  "typeset",
  "readonly",
  "read",
  "wait",
  "jobs",
  "hash",
  "history",
  "fc",
  "getconf",
  "locale",
  "tty",
  "nproc",
  "lscpu",
  "lsblk",
  "lsusb",
  "lspci",
  "sw_vers",
  "system_profiler",
  "vm_stat",
  "iostat",
  "vmstat",
  "mdfind",
  "mdls",
  "otool",
  "nm",
  "objdump",
  "ldd",
  "readelf",
  "size",
  "lipo",
  "codesign",
  "pkgutil",
  "fd",
  "fdfind",
  "bat",
  "batcat",
  "exa",
  "eza",
  "fzf",
  "look",
  "fold",
  "fmt",
  "expand",
  "unexpand",
  "rev",
  "tac",
  "paste",
  "join",
  "numfmt",
  "factor",
  "expr",
  "bc",
  "dc",
  "units",
  "envsubst",
  "iconv",
  "base64",
  "base32",
  "xxd",
  "zcat",
  "zless",
  "zgrep",
  "bzcat",
  "xzcat",
  "lsof",
  "w",
  "who",
  "last",
  "finger",
  "dig",
  "nslookup",
  "host",
  "ping",
  "traceroute",
  "ifconfig",
  "ip",
  "netstat",
  "ss",
  "route",
  "arp",
  "scutil",
  "sysctl",
  "ulimit",
  "umask",
  "times",
  "time",
  "command",
  "builtin",
  "colordiff",
  "delta",
  "difft",
  "wdiff",
  "sort",
  "uniq",
  "awk",
  "gawk",
  "mawk",
  "nawk",
  "sed",
  "find",
  "xargs",
  "tee",
  "env",
  "locate",
  "apropos",
  "whatis",
  "shellcheck",
  "tokei",
  "cloc",
  "scc",
  "top",
  "htop",
  "btop",
  "pstree",
  "stty",
  "tput",
  "clear",
  "reset",
  "logname",
  "users",
  "arch",
  "getent",
  "plutil",
  "xcode-select",
  "swift-demangle",
  "c++filt",
  "addr2line",
  ":",
  "zipinfo",
]);

/** Interpreters: inline code runs anything; remembered by exact text only. */
export const INTERPRETERS = new Set([
  "python",
  "python2",
  "python3",
  "pypy",
  "pypy3",
  "node",
  "nodejs",
  "deno",
  "bun",
  "perl",
  "ruby",
  "php",
  "lua",
  "luajit",
  "osascript",
  "Rscript",
  "R",
  "tclsh",
  "wish",
  "julia",
  "swift",
  "groovy",
  "scala",
  "kotlin",
  "jshell",
  "irb",
  "pwsh",
  "powershell",
  "expect",
  "ts-node",
  "tsx",
  "jrunscript",
]);

/** Options that carry inline code, per interpreter. */
export const INLINE_CODE_OPTIONS: Record<string, string[]> = {
  python: ["-c"],
  python2: ["-c"],
  python3: ["-c"],
  pypy: ["-c"],
  pypy3: ["-c"],
  node: ["-e", "--eval", "-p", "--print"],
  nodejs: ["-e", "--eval", "-p", "--print"],
  deno: ["eval"],
  bun: ["-e", "--eval", "-p", "--print"],
  perl: ["-e", "-E"],
  ruby: ["-e"],
  php: ["-r"],
  lua: ["-e"],
  luajit: ["-e"],
  osascript: ["-e"],
  Rscript: ["-e"],
  R: ["-e"],
  julia: ["-e", "--eval"],
  swift: ["-e"],
  groovy: ["-e"],
  pwsh: ["-c", "-Command"],
  powershell: ["-c", "-Command"],
  expect: ["-c"],
  "ts-node": ["-e", "--eval"],
  tsx: ["-e", "--eval"],
};

/**
 * How much of inline code or a script the patterns read: enough for any real
 * one-liner, and it keeps the patterns' running time bounded on a 64 KiB line.
 */
export const CODE_SCAN_LIMIT = 8192;

/** Inline code that runs commands, deletes, or reaches the network: dangerous. */
export const RISKY_CODE =
  /(?<![A-Za-z0-9_])(os\.system|os\.popen|os\.exec\w*|os\.spawn\w*|subprocess|popen|pty\.spawn|child_process|execSync|spawnSync|exec\(|execFile|system\s*[("']|exec\s+["']|qx[{(/]|`[^`]+`|%x\{|shutil\.rmtree|rmtree|os\.remove|os\.unlink|os\.rmdir|unlinkSync|rmSync|rmdirSync|fs\.rm|File\.delete|FileUtils\.rm|\bunlink\b|remove_tree|rmdir\s*\(|fork\b|socket|urllib|urlopen|requests\.|http\.client|fetch\(|XMLHttpRequest|net\.connect|Net::HTTP|LWP|IO::Socket|do shell script|do script|Deno\.(run|Command|remove|writeFile)|Bun\.spawn|eval\s*\(|__import__|importlib|ctypes|chmod|chown|setuid|kill\s*\()/i;

/** Inline code that writes files. */
export const WRITING_CODE =
  /\b(open\([^)]*['"][wax+]|write_text|write_bytes|writeFile|appendFile|createWriteStream|File\.write|File\.open\([^)]*['"][wa]|IO\.write|fwrite|file_put_contents|\.write\(|rename|os\.replace|shutil\.(copy|move)|mkdir|makedirs|touch\()/i;

/** Privilege escalation: always refused by the policy. */
export const PRIVILEGE = new Set([
  "sudo",
  "doas",
  "su",
  "pkexec",
  "sudoedit",
  "run0",
  "gosu",
  "su-exec",
  "calife",
  "runas",
  "dzdo",
  "pbrun",
  "ksu",
  "runuser",
  "sg",
  "newgrp",
]);

/** System folders whose recursive removal the policy refuses. */
/** Folders in the home whose loss is as bad as the home's (refused like a system folder). */
export const HOME_DIRS = [
  "Library",
  "Documents",
  "Desktop",
  "Pictures",
  "Music",
  "Movies",
  ".config",
  ".local",
];

export const SYSTEM_DIRS = [
  "/",
  "/bin",
  "/boot",
  "/dev",
  "/etc",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/opt",
  "/proc",
  "/root",
  "/run",
  "/sbin",
  "/srv",
  "/sys",
  "/usr",
  "/var",
  "/home",
  "/mnt",
  "/media",
  "/snap",
  "/nix",
  "/System",
  "/Library",
  "/Applications",
  "/Users",
  "/Volumes",
  "/private",
  "/cores",
  "/Network",
  "/usr/bin",
  "/usr/lib",
  "/usr/local",
  "/usr/sbin",
  "/usr/share",
  "/usr/include",
  "/var/lib",
  "/var/log",
  "/etc/ssh",
  "/private/etc",
  "/private/var",
  "/System/Library",
  "/usr/local/bin",
  "/opt/homebrew",
];

// -- verb programs ------------------------------------------------------------

export interface VerbProgram {
  /** Options before the verb that take a value. */
  globalsWithValue?: string[];
  safe?: string[];
  dangerous?: string[];
  /** Verbs whose next word is part of the verb (docker compose up, gh pr create). */
  groups?: string[];
  /** Reason for a verb not listed as safe or dangerous. */
  moderateReason?: string;
  /** Closer rules for a verb and its arguments; undefined falls back to the lists. */
  special?: (verb: string, args: string[]) => Rating | undefined;
}

/** Any of the options `names`, long ones also abbreviated or with `=value` (GNU getopt). */
const has = (args: string[], ...names: string[]) =>
  args.some((a) => names.includes(a)) ||
  optionArgs(args).some((a) =>
    names.some((n) => n.startsWith("--") && a.startsWith("--") && isLongOption(a, n.slice(2)))
  );
const shortHas = (args: string[], letter: string) =>
  args.some((a) => /^-[a-zA-Z]+$/.test(a) && a.includes(letter));

export const VERB_PROGRAMS: Record<string, VerbProgram> = {
  git: {
    globalsWithValue: [
      "-C",
      "-c",
      "--git-dir",
      "--work-tree",
      "--namespace",
      "--exec-path",
      "--config-env",
    ],
    safe: [...GIT_READ_ONLY_VERBS],
    dangerous: [
      "filter-branch",
      "filter-repo",
      "update-ref",
      "replace",
      "credential",
      "credential-store",
      "credential-cache",
      "credential-osxkeychain",
    ],
    groups: [
      "stash",
      "remote",
      "worktree",
      "submodule",
      "lfs",
      "config",
      "notes",
      "bisect",
      "reflog",
      "sparse-checkout",
    ],
    moderateReason: "changes the repository",
    special: (verb, args) => {
      const [v, sub] = verb.split(" ");
      return Object.hasOwn(GIT_VERB_RULES, v) ? GIT_VERB_RULES[v](args, sub, v) : undefined;
    },
  },
  cargo: {
    globalsWithValue: ["--manifest-path", "--config", "-Z", "--color", "-C"],
    safe: [
      "tree",
      "metadata",
      "search",
      "version",
      "--version",
      "-V",
      "help",
      "--help",
      "locate-project",
      "pkgid",
      "verify-project",
      "read-manifest",
      "--list",
      "info",
    ],
    dangerous: ["publish", "yank", "owner", "login", "logout"],
    moderateReason: "builds or runs code, or changes the project's files",
  },
  npm: packageManager(),
  pnpm: packageManager(),
  yarn: packageManager(),
  bun: packageManager(),
  swift: {
    safe: ["--version", "-version", "--help", "help"],
    groups: ["package"],
    moderateReason: "builds or runs code",
    special: (verb) => {
      if (
        /^package (describe|show-dependencies|dump-package|show-executables|compute-checksum)$/
          .test(verb)
      ) return safe("describes the package");
      if (/^package (clean|reset|purge-cache)$/.test(verb)) return moderate("removes build state");
      return undefined;
    },
  },
  go: {
    safe: ["version", "list", "doc", "vet", "help", "--help"],
    groups: ["mod", "env", "work", "tool"],
    moderateReason: "builds, runs or fetches code",
    special: (verb, args) => {
      if (verb.startsWith("env")) {
        return has(args, "-w", "-u") || /^env -[wu]/.test(verb)
          ? moderate("changes Go's settings")
          : safe("shows Go's settings");
      }
      if (verb === "mod graph" || verb === "mod why" || verb === "mod verify") {
        return safe("reads module information");
      }
      if (verb === "clean" && has(args, "-modcache", "-cache")) {
        return moderate("empties Go's caches");
      }
      return undefined;
    },
  },
  pip: pipLike(),
  pip3: pipLike(),
  uv: {
    safe: ["--version", "version", "tree", "help", "--help"],
    groups: ["pip", "python", "tool", "cache", "self"],
    dangerous: ["publish"],
    moderateReason: "installs packages or changes the environment",
    special: (verb) => {
      if (
        /^pip (list|show|freeze|check|tree)$/.test(verb) || /^python (list|find|dir)$/.test(verb) ||
        /^tool (list|dir)$/.test(verb) || verb === "cache dir"
      ) return safe("lists what is installed");
      return undefined;
    },
  },
  brew: {
    safe: [
      "list",
      "ls",
      "info",
      "search",
      "--version",
      "config",
      "doctor",
      "outdated",
      "deps",
      "uses",
      "leaves",
      "cat",
      "desc",
      "--prefix",
      "--cellar",
      "--repository",
      "--cache",
      "--env",
      "tap-info",
      "commands",
      "missing",
      "log",
      "help",
      "--help",
      "formulae",
      "casks",
      "shellenv",
    ],
    groups: ["services"],
    moderateReason: "installs, upgrades or removes software",
    special: (
      verb,
    ) => (verb === "services list" || verb === "services info"
      ? safe("lists services")
      : undefined),
  },
  docker: containerTool(),
  podman: containerTool(),
  kubectl: {
    globalsWithValue: [
      "-n",
      "--namespace",
      "--context",
      "--kubeconfig",
      "--cluster",
      "--user",
      "-s",
      "--server",
    ],
    safe: [
      "get",
      "describe",
      "logs",
      "explain",
      "version",
      "api-resources",
      "api-versions",
      "cluster-info",
      "top",
      "diff",
      "events",
      "--help",
      "help",
    ],
    dangerous: ["delete", "drain", "replace", "taint"],
    groups: ["config", "auth", "rollout"],
    moderateReason: "changes resources in the cluster",
    special: (verb, args) => {
      if (
        /^(get|describe|edit)$/.test(verb) && args.some((a) => /^(secrets?|secret\/.*)$/i.test(a))
      ) {
        return dangerous("reads the cluster's secrets");
      }
      if (verb === "config view" && args.some((a) => a === "--raw" || a === "--flatten")) {
        return dangerous("prints cluster credentials");
      }
      if (
        /^config (view|get-contexts|current-context|get-clusters|get-users)$/.test(verb) ||
        verb === "auth can-i" || verb === "auth whoami" || /^rollout (status|history)$/.test(verb)
      ) return safe("reads cluster state");
      if (/^config (delete-\w+|unset)$/.test(verb)) {
        return dangerous("deletes cluster configuration");
      }
      return undefined;
    },
  },
  gh: {
    globalsWithValue: ["-R", "--repo"],
    safe: ["status", "search", "--version", "version", "help", "--help"],
    groups: [
      "pr",
      "issue",
      "repo",
      "run",
      "release",
      "workflow",
      "gist",
      "label",
      "auth",
      "secret",
      "variable",
      "ssh-key",
      "gpg-key",
      "config",
      "alias",
      "cache",
      "codespace",
      "project",
      "extension",
      "ruleset",
      "org",
    ],
    moderateReason: "changes something on GitHub",
    special: (verb, args) => {
      const [g, s] = verb.split(" ");
      if (g === "api") {
        if (
          has(args, "-X", "--method") &&
          args.some((a) =>
            /^(DELETE|PUT|PATCH|POST)$/i.test(a) || /^--method=(DELETE|PUT|PATCH|POST)$/i.test(a)
          )
        ) {
          return args.some((a) => /DELETE/i.test(a))
            ? dangerous("deletes something through the GitHub API")
            : moderate("changes something through the GitHub API");
        }
        if (has(args, "-f", "-F", "--field", "--raw-field", "--input")) {
          return moderate("sends data to the GitHub API");
        }
        return safe("reads from the GitHub API");
      }
      if (g === "auth") {
        return s === "status"
          ? safe("shows the login state")
          : dangerous("handles your GitHub credentials");
      }
      if (g === "secret" || g === "ssh-key" || g === "gpg-key") {
        return s === "list"
          ? moderate("lists secrets or keys")
          : dangerous("changes secrets or keys on GitHub");
      }
      if (
        s === "list" || s === "view" || s === "status" || s === "diff" || s === "checks" ||
        s === "watch" || s === "get"
      ) return safe("reads from GitHub");
      if (
        s === "delete" || s === "archive" || (g === "pr" && s === "merge") ||
        (g === "repo" && s === "edit" && has(args, "--visibility")) ||
        (g === "release" && s === "create") || (g === "repo" && s === "rename")
      ) {
        return dangerous("makes a change on GitHub that is hard to undo");
      }
      return undefined;
    },
  },
  make: {
    globalsWithValue: ["-C", "-f", "--file", "--directory", "-j", "--jobs", "-l", "-o", "-W"],
    moderateReason: "runs the Makefile's recipes",
    special: (_verb, args) => {
      if (
        has(
          args,
          "-n",
          "--dry-run",
          "--just-print",
          "--recon",
          "-q",
          "--question",
          "-p",
          "--print-data-base",
          "--version",
          "-v",
          "--help",
          "-h",
        )
      ) return safe("only prints what make would do");
      return undefined;
    },
  },
  apt: distroPackages(),
  "apt-get": distroPackages(),
  dnf: distroPackages(),
  yum: distroPackages(),
  apk: distroPackages(),
  pacman: {
    moderateReason: "changes installed packages",
    special: (
      _v,
      args,
    ) => (args.some((a) => /^-(Q|Ss|Si)/.test(a)) ? safe("queries packages") : undefined),
  },
  systemctl: {
    safe: [
      "status",
      "list-units",
      "list-unit-files",
      "is-active",
      "is-enabled",
      "is-failed",
      "show",
      "cat",
      "list-timers",
      "list-sockets",
      "list-dependencies",
      "help",
      "--version",
    ],
    dangerous: ["mask", "kill", "isolate", "daemon-reexec"],
    moderateReason: "starts, stops or changes a service",
  },
  launchctl: {
    safe: [
      "list",
      "print",
      "print-disabled",
      "blame",
      "version",
      "help",
      "getenv",
      "managerpid",
      "managername",
      "dumpstate",
    ],
    moderateReason: "loads, unloads or changes a launch agent",
    special: (verb) =>
      /^(load|unload|bootstrap|bootout|enable|disable|kickstart|submit|remove|setenv|config)$/.test(
          verb,
        )
        ? dangerous("changes what the system starts on its own (launchd)")
        : undefined,
  },
  defaults: {
    safe: ["read", "read-type", "domains", "find", "help", "export"],
    dangerous: ["delete"],
    moderateReason: "changes macOS preferences",
  },
  diskutil: {
    safe: ["list", "info", "activity", "listFilesystems"],
    moderateReason: "changes disks or volumes",
  },
  rustup: {
    safe: ["show", "--version", "which", "help"],
    groups: ["toolchain", "target", "component"],
    moderateReason: "installs or changes Rust toolchains",
    special: (v) => (/ list$/.test(v) ? safe("lists toolchains") : undefined),
  },
  deno: {
    safe: [
      "--version",
      "-V",
      "info",
      "doc",
      "help",
      "--help",
      "lint",
      "check",
      "types",
      "completions",
    ],
    moderateReason: "runs or changes code",
    special: (verb) => (verb === "eval" ? dangerous("runs inline code") : undefined),
  },
  terraform: {
    safe: [
      "plan",
      "show",
      "output",
      "validate",
      "version",
      "providers",
      "graph",
      "-version",
      "--version",
      "help",
    ],
    dangerous: ["destroy", "apply", "import", "taint", "force-unlock"],
    groups: ["state", "workspace"],
    moderateReason: "changes infrastructure state",
    special: (
      verb,
      args,
    ) => (verb === "plan" && args.some((a) => a === "-out" || a.startsWith("-out="))
      ? moderate("writes a plan file")
      : /^state (list|show|pull)$/.test(verb) || /^workspace (list|show)$/.test(verb)
      ? safe("reads state")
      : /^state (rm|mv|push|replace-provider)$/.test(verb)
      ? dangerous("changes infrastructure state directly")
      : undefined),
  },
  helm: {
    safe: [
      "list",
      "ls",
      "status",
      "history",
      "get",
      "show",
      "search",
      "version",
      "template",
      "lint",
      "env",
      "help",
    ],
    dangerous: ["uninstall", "delete", "rollback"],
    moderateReason: "changes releases in the cluster",
  },
  gem: {
    safe: [
      "list",
      "search",
      "info",
      "query",
      "contents",
      "environment",
      "--version",
      "help",
      "which",
      "specification",
      "outdated",
    ],
    dangerous: ["push", "yank", "owner", "signin"],
    moderateReason: "installs or removes gems",
  },
  composer: {
    safe: [
      "show",
      "info",
      "outdated",
      "validate",
      "diagnose",
      "licenses",
      "depends",
      "why",
      "why-not",
      "--version",
      "help",
      "list",
      "search",
    ],
    moderateReason: "installs packages or runs scripts",
  },
  conda: {
    safe: ["list", "info", "search", "--version", "help"],
    groups: ["env"],
    moderateReason: "changes environments",
    special: (v) => (v === "env list" ? safe("lists environments") : undefined),
  },
  poetry: {
    safe: ["show", "check", "--version", "version", "help", "list", "about"],
    dangerous: ["publish"],
    moderateReason: "changes the environment or the lock file",
  },
  gradle: {
    safe: ["--version", "tasks", "dependencies", "projects", "help", "properties"],
    moderateReason: "builds or runs code",
  },
  gradlew: {
    safe: ["--version", "tasks", "dependencies", "projects", "help", "properties"],
    moderateReason: "builds or runs code",
  },
  mvn: {
    safe: ["--version", "-v", "help:effective-pom", "dependency:tree"],
    dangerous: ["deploy", "release:perform"],
    moderateReason: "builds or runs code",
  },
  dotnet: {
    safe: ["--version", "--info", "--list-sdks", "--list-runtimes", "help", "list"],
    dangerous: ["nuget push"],
    moderateReason: "builds or runs code",
  },
  xcodebuild: {
    safe: ["-version", "-list", "-showsdks", "-showBuildSettings", "-help"],
    moderateReason: "builds code",
  },
  tmux: {
    safe: [
      "ls",
      "list-sessions",
      "list-windows",
      "list-panes",
      "display-message",
      "show-options",
      "-V",
    ],
    dangerous: ["kill-server"],
    moderateReason: "changes tmux sessions",
  },
  aws: { moderateReason: "acts on your AWS account", special: (verb, args) => awsLike(verb, args) },
  gcloud: {
    moderateReason: "acts on your Google Cloud account",
    special: (verb, args) => awsLike(verb, args),
  },
  az: {
    moderateReason: "acts on your Azure account",
    special: (verb, args) => awsLike(verb, args),
  },
  crontab: {
    moderateReason: "changes scheduled jobs",
    special: (verb, args) => {
      const all = [verb, ...args];
      if (has(all, "-l")) return safe("lists scheduled jobs");
      if (has(all, "-r")) return dangerous("removes every scheduled job");
      if (has(all, "-e")) return moderate("opens the scheduled jobs in an editor");
      return dangerous("installs scheduled jobs that run on their own, unwatched");
    },
  },
  security: {
    safe: ["list-keychains", "default-keychain", "show-keychain-info", "help"],
    moderateReason: "changes keychains or certificates",
    special: (
      verb,
    ) => (/^(find-\w+-password|dump-keychain|export|unlock-keychain|delete-\w+|add-\w+-password|set-\w+)/
        .test(verb)
      ? dangerous("reads or changes secrets in your keychain")
      : undefined),
  },
};

function packageManager(): VerbProgram {
  return {
    globalsWithValue: ["--prefix", "-C", "--dir", "--cwd", "--filter", "-w", "--workspace"],
    safe: [
      "ls",
      "list",
      "ll",
      "la",
      "view",
      "info",
      "show",
      "outdated",
      "--version",
      "-v",
      "help",
      "--help",
      "search",
      "explain",
      "why",
      "root",
      "prefix",
      "bin",
      "doctor",
      "ping",
      "fund",
      "licenses",
      "query",
      "audit",
    ],
    dangerous: [
      "publish",
      "unpublish",
      "deprecate",
      "owner",
      "token",
      "login",
      "adduser",
      "logout",
      "access",
      "dist-tag",
    ],
    groups: ["run", "run-script", "config", "cache", "audit", "workspace", "pm", "npm", "pkg"],
    moderateReason: "installs packages or runs the project's scripts",
    special: (verb, args) => {
      if (verb === "pkg get") return safe("reads package.json");
      if (/^npm (publish|login|logout|tag)/.test(verb)) {
        return dangerous("publishes or handles your registry account");
      }
      if (/^config (get|list|ls)$/.test(verb) || verb === "config") {
        return safe("reads package-manager settings");
      }
      if (verb === "audit" || verb === "audit signatures") {
        return safe("checks packages for known problems");
      }
      if (verb === "cache ls" || verb === "cache list" || verb === "cache verify") {
        return safe("reads the cache");
      }
      if (
        /^(install|i|add|ci|update|upgrade|up|remove|rm|uninstall|un)$/.test(verb) &&
        has(args, "-g", "--global", "--location=global")
      ) {
        return moderate("installs or removes a package for every project");
      }
      if (verb === "pack" && has(args, "--dry-run")) return safe("shows what would be packed");
      return undefined;
    },
  };
}

function pipLike(): VerbProgram {
  return {
    safe: [
      "list",
      "show",
      "freeze",
      "check",
      "--version",
      "-V",
      "help",
      "search",
      "debug",
      "inspect",
      "index",
    ],
    groups: ["config", "cache"],
    moderateReason: "installs or removes Python packages",
    special: (
      verb,
    ) => (/^config (list|get|debug)$/.test(verb) || /^cache (dir|info|list)$/.test(verb)
      ? safe("reads pip's settings")
      : undefined),
  };
}

function distroPackages(): VerbProgram {
  return {
    safe: [
      "list",
      "search",
      "show",
      "policy",
      "info",
      "--version",
      "depends",
      "rdepends",
      "madison",
      "check-update",
      "repolist",
      "provides",
      "whatprovides",
    ],
    dangerous: ["purge", "autopurge"],
    moderateReason: "changes the system's installed packages",
  };
}

function containerTool(): VerbProgram {
  return {
    globalsWithValue: ["-H", "--host", "--context", "-c", "--config", "-l", "--log-level"],
    safe: [
      "ps",
      "images",
      "inspect",
      "logs",
      "version",
      "info",
      "stats",
      "top",
      "history",
      "search",
      "diff",
      "port",
      "events",
      "--version",
      "help",
      "--help",
    ],
    dangerous: ["push", "login"],
    groups: [
      "compose",
      "container",
      "image",
      "network",
      "volume",
      "system",
      "buildx",
      "context",
      "builder",
      "machine",
      "plugin",
      "secret",
      "swarm",
      "service",
      "stack",
      "node",
    ],
    moderateReason: "changes containers, images or their data",
    special: (verb, args) => {
      const [g, s] = verb.split(" ");
      if (
        (g === "run" || g === "create" || (g === "container" && (s === "run" || s === "create"))) &&
        (has(
          args,
          "--privileged",
          "--pid=host",
          "--net=host",
          "--network=host",
          "--ipc=host",
          "--userns=host",
          "--cap-add=ALL",
          "--cap-add=SYS_ADMIN",
        ) ||
          args.some((a) => /^(--volume|-v)=?(\/|\/var\/run\/docker\.sock|~)(:|$)/.test(a)) ||
          args.some((a, i) =>
            (args[i - 1] === "-v" || args[i - 1] === "--volume" || args[i - 1] === "--mount") &&
            /^(\/|\/var\/run\/docker\.sock|~|\$HOME)(:|,|$)|source=\/(,|$)/.test(a)
          ))
      ) {
        return dangerous("runs a container with access to the host");
      }
      if (
        s === "prune" || verb === "system prune" ||
        (g === "volume" && (s === "rm" || s === "remove")) ||
        (g === "compose" && s === "down" && has(args, "-v", "--volumes", "--rmi"))
      ) {
        return dangerous("deletes containers, images or volumes with their data");
      }
      if (
        (g === "rm" || g === "rmi" || (g === "container" && s === "rm") ||
          (g === "image" && s === "rm")) && has(args, "-f", "--force")
      ) {
        return dangerous("force-removes containers or images");
      }
      if (
        s &&
        /^(ls|list|inspect|ps|logs|config|top|images|version|history|port|df|info|show|events)$/
          .test(s) &&
        g !== "plugin"
      ) return safe("reads container state");
      if (
        g === "compose" && s === "push" || g === "image" && s === "push" ||
        g === "buildx" && has(args, "--push")
      ) return dangerous("publishes an image");
      return undefined;
    },
  };
}

function awsLike(verb: string, args: string[]): Rating | undefined {
  const all = [verb, ...args].join(" ");
  if (/\b(delete|remove|terminate|destroy|purge|rb|rm)\b/.test(all)) {
    return dangerous("deletes cloud resources");
  }
  // Credentials and secrets first: "get-secret-value" is a read, and the most sensitive one.
  if (
    /\b(configure|login|auth|credentials?|secretsmanager|get-secret-value|get-parameters?|get-session-token|get-login-password|print-access-token|print-identity-token|get-federation-token|assume-role|decrypt|export-credentials|keyvault secret)\b/
      .test(all)
  ) return dangerous("handles cloud credentials or secrets");
  if (
    /\b(describe|list|get|ls|show|whoami|info|version|help)\b|--version|sts get-caller-identity/
      .test(all) &&
    !/\b(put|create|update|set|cp|mv|sync|run|start|stop|deploy|attach|detach)\b/.test(all)
  ) return safe("reads cloud resources");
  return undefined;
}

/**
 * git's verbs whose rating hangs on their options or their sub-verb: one rule
 * per verb (or per verbs rated alike), given the options and operands after
 * the verb, the sub-verb, and the verb itself.
 */
const GIT_VERB_RULES: Record<
  string,
  (args: string[], sub: string | undefined, v: string) => Rating | undefined
> = {
  "": gitNoVerb,
  push: gitPush,
  reset: gitReset,
  clean: gitClean,
  checkout: gitCheckout,
  restore: gitRestore,
  switch: gitSwitch,
  branch: gitBranch,
  tag: gitTag,
  stash: gitStash,
  remote: gitRemote,
  worktree: gitWorktree,
  config: gitConfig,
  reflog: gitReflog,
  submodule: gitSubmodule,
  notes: gitNotes,
  bisect: gitBisect,
  lfs: gitLfs,
  "sparse-checkout": gitSparseCheckout,
  gc: gitGc,
  prune: gitPrune,
  clone: gitDownload,
  fetch: gitDownload,
  pull: gitDownload,
  log: gitOutputFile,
  diff: gitOutputFile,
  show: gitOutputFile,
  "format-patch": gitOutputFile,
  commit: gitCommit,
  rebase: gitRebase,
  rm: gitRm,
  archive: gitArchive,
  apply: gitApply,
  am: gitApply,
};

function gitNoVerb(): Rating {
  // No verb: git prints its usage (its settings and options are rated as hooks).
  return safe("prints git's usage");
}

function gitPush(args: string[]): Rating {
  if (
    has(
      args,
      "-f",
      "--force",
      "--force-with-lease",
      "--force-if-includes",
      "--mirror",
      "--delete",
      "-d",
      "--prune",
    ) || shortHas(args, "f") || args.some((a) => /^\+/.test(a) || /^:/.test(a))
  ) {
    return dangerous("force-pushes or deletes on a remote, which can lose others' work");
  }
  return moderate("pushes commits to a remote");
}

function gitReset(args: string[]): Rating {
  if (has(args, "--hard", "--merge", "--keep")) {
    return dangerous("discards uncommitted changes (reset --hard)");
  }
  return moderate("moves the branch or unstages changes");
}

function gitClean(args: string[]): Rating {
  if (shortHas(args, "n") || has(args, "--dry-run")) {
    return safe("lists what git clean would remove");
  }
  return dangerous("deletes untracked files");
}

function gitCheckout(args: string[]): Rating {
  if (has(args, "-f", "--force", ".", "--", "-p", "--patch") || args.includes(":/")) {
    return dangerous("overwrites uncommitted changes in the working tree");
  }
  return moderate("switches branches or restores files");
}

function gitRestore(args: string[]): Rating {
  if (has(args, "--staged", "-S") && !has(args, "--worktree", "-W")) {
    return moderate("unstages changes");
  }
  return dangerous("discards uncommitted changes in the working tree");
}

function gitSwitch(args: string[]): Rating {
  if (has(args, "--discard-changes", "-f", "--force")) {
    return dangerous("discards uncommitted changes");
  }
  return moderate("switches branches");
}

function gitBranch(args: string[]): Rating {
  if (has(args, "-D") || (has(args, "-d", "--delete") && has(args, "-f", "--force"))) {
    return dangerous("deletes a branch that may hold unmerged work");
  }
  if (
    has(
      args,
      "-d",
      "--delete",
      "-m",
      "-M",
      "--move",
      "-c",
      "-C",
      "--copy",
      "-u",
      "--set-upstream-to",
      "--unset-upstream",
      "--edit-description",
    )
  ) return moderate("changes branches");
  if (
    args.filter((a) => !a.startsWith("-")).length === 0 ||
    has(
      args,
      "-a",
      "-r",
      "-v",
      "-vv",
      "--list",
      "-l",
      "--show-current",
      "--contains",
      "--merged",
      "--no-merged",
      "--all",
      "--remotes",
    )
  ) return safe("lists branches");
  return moderate("creates a branch");
}

function gitTag(args: string[]): Rating {
  if (has(args, "-d", "--delete")) return moderate("deletes a tag");
  if (
    args.filter((a) => !a.startsWith("-")).length === 0 ||
    has(args, "-l", "--list", "-n", "--contains", "--points-at")
  ) return safe("lists tags");
  return moderate("creates a tag");
}

function gitStash(_args: string[], sub: string | undefined): Rating {
  if (sub === "list" || sub === "show") return safe("shows stashes");
  if (sub === "drop" || sub === "clear") {
    return dangerous("throws away stashed changes for good");
  }
  return moderate("stashes or restores changes");
}

function gitRemote(_args: string[], sub: string | undefined): Rating {
  if (
    sub === undefined || sub === "show" || sub === "get-url" || sub === "-v" ||
    sub === "--verbose"
  ) return safe("lists remotes");
  return moderate("changes the repository's remotes");
}

function gitWorktree(args: string[], sub: string | undefined): Rating {
  if (sub === "list") return safe("lists worktrees");
  if (sub === "remove" && has(args, "-f", "--force")) {
    return dangerous("removes a worktree with its changes");
  }
  return moderate("changes worktrees");
}

function gitConfig(args: string[], sub: string | undefined): Rating {
  const all = [sub ?? "", ...args];
  if (
    all.some((a) =>
      /^(alias\.|core\.(pager|editor|sshcommand|hookspath|fsmonitor|askpass|gitproxy)|credential\.|diff\..*\.(command|textconv)|filter\.|merge\..*\.driver|sequence\.editor|gpg\.program|url\.)/i
        .test(a)
    ) && !has(all, "--get", "--get-all", "--list", "-l", "--get-regexp", "get", "list")
  ) {
    return dangerous("sets a command git will run, or where credentials come from");
  }
  if (
    has(
      all,
      "--get",
      "--get-all",
      "--list",
      "-l",
      "--get-regexp",
      "--show-origin",
      "get",
      "list",
    ) || all.filter((a) => !a.startsWith("-")).length <= 1
  ) return safe("reads git configuration");
  if (has(all, "--global", "--system")) {
    return moderate("changes your git configuration for every repository");
  }
  return moderate("changes git configuration");
}

function gitReflog(_args: string[], sub: string | undefined): Rating {
  if (sub === "expire" || sub === "delete") {
    return dangerous("deletes reflog entries, the way back to lost commits");
  }
  return safe("shows the reflog");
}

function gitSubmodule(_args: string[], sub: string | undefined): Rating {
  if (sub === "status" || sub === "summary" || sub === undefined) {
    return safe("shows submodules");
  }
  return moderate("changes submodules");
}

function gitNotes(_args: string[], sub: string | undefined): Rating {
  if (sub === "list" || sub === "show" || sub === undefined) return safe("shows notes");
  return moderate("changes notes");
}

function gitBisect(_args: string[], sub: string | undefined): Rating {
  if (sub === "log" || sub === "visualize" || sub === "view") {
    return safe("shows the bisect state");
  }
  return moderate("moves through history (bisect)");
}

function gitLfs(_args: string[], sub: string | undefined): Rating {
  if (sub === "ls-files" || sub === "status" || sub === "env" || sub === "version") {
    return safe("shows Git LFS state");
  }
  return moderate("changes Git LFS state");
}

function gitSparseCheckout(_args: string[], sub: string | undefined): Rating {
  if (sub === "list") return safe("lists the sparse-checkout patterns");
  return moderate("changes which files are checked out");
}

function gitGc(args: string[]): Rating {
  if (args.some((a) => /^--prune(=now)?$/.test(a))) {
    return dangerous("prunes unreachable objects for good");
  }
  return moderate("packs the repository");
}

function gitPrune(): Rating {
  return dangerous("deletes unreachable objects for good");
}

function gitDownload(_args: string[], _sub: string | undefined, v: string): Rating {
  return moderate(
    v === "clone" ? "downloads a repository" : "fetches from a remote and may change the branch",
  );
}

function gitOutputFile(args: string[], _sub: string | undefined, v: string): Rating | undefined {
  if (args.some((a) => /^--output(=|$)/.test(a) || a === "-o")) {
    return moderate("writes its output to a file");
  }
  if (v === "format-patch") return moderate("writes patch files");
  return undefined;
}

function gitCommit(args: string[]): Rating {
  if (has(args, "--amend")) return moderate("rewrites the last commit");
  return moderate("records a commit");
}

function gitRebase(): Rating {
  return moderate("rewrites the branch's history");
}

function gitRm(args: string[]): Rating {
  if (has(args, "--cached")) return moderate("untracks files");
  if (has(args, "-f", "--force") || args.some((a) => /^-[a-zA-Z]*f/.test(a))) {
    return dangerous("deletes files with their uncommitted changes (git rm -f)");
  }
  return moderate("deletes tracked files");
}

function gitArchive(): Rating {
  return moderate("writes an archive");
}

function gitApply(args: string[]): Rating {
  if (has(args, "--check", "--stat", "--numstat", "--summary")) {
    return safe("checks a patch");
  }
  return moderate("applies a patch to the files");
}
