/**
 * The environment every command starts with (commandPolicy.sandbox.environment).
 * wisp's own environment holds what its caller had — an MCP client's tokens,
 * the person's cloud keys — and a command that prints `env` hands all of it to
 * whoever reads the result. So a command gets, by default, only a core set of
 * variables that say where things are and how to behave, never who the person
 * is to a service (docs/adr/0260-command-environment.md):
 *
 * 1. the base: `inherit` "core" (CORE_VARIABLES), "all", or "none";
 * 2. the base loses every variable that looks like a credential
 *    (CREDENTIAL_PATTERNS) or names a host program's address (ADDRESS_VARIABLES),
 *    and every variable whose value carries a password in a URL;
 * 3. `include` adds the variables the person names, from wisp's environment,
 *    whatever they look like (naming one is the person's decision);
 * 4. `exclude` removes what it names, whatever step added it;
 * 5. `set` gives variables fixed values last.
 *
 * Patterns are variable names with `*` (any run of characters) and `?` (one
 * character), matched whole and regardless of case.
 */

/** How the base set is chosen. */
export type Inherit = "core" | "all" | "none";

/** commandPolicy.sandbox.environment, defaults applied. */
export interface EnvironmentPolicy {
  inherit: Inherit;
  include: string[];
  exclude: string[];
  set: Record<string, string>;
}

/**
 * The core set: who and where (home, user, shell, search path, temporary and
 * XDG folders, wisp's home), language and terminal, the network's own
 * configuration (proxies, certificate bundles), and where toolchains live.
 */
const CORE_VARIABLES: readonly string[] = [
  // who and where
  "HOME",
  "USER",
  "LOGNAME",
  "USERNAME",
  "SHELL",
  "PATH",
  "TMPDIR",
  "TMP",
  "TEMP",
  "WISP_HOME",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "XDG_CONFIG_DIRS",
  "XDG_DATA_DIRS",
  // language and terminal
  "LANG",
  "LANGUAGE",
  "LC_*",
  "TZ",
  "TERM",
  "COLORTERM",
  "NO_COLOR",
  "FORCE_COLOR",
  "CLICOLOR",
  "CLICOLOR_FORCE",
  "COLUMNS",
  "LINES",
  // the network's configuration (a proxy URL with a password is withheld all the same)
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "FTP_PROXY",
  "ALL_PROXY",
  "NO_PROXY",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "REQUESTS_CA_BUNDLE",
  "CURL_CA_BUNDLE",
  "NODE_EXTRA_CA_CERTS",
  "GIT_SSL_CAINFO",
  "PIP_CERT",
  // where toolchains live
  "JAVA_HOME",
  "GOPATH",
  "GOROOT",
  "GOBIN",
  "CARGO_HOME",
  "RUSTUP_HOME",
  "DENO_DIR",
  "NVM_DIR",
  "VIRTUAL_ENV",
  "CONDA_PREFIX",
  "PYENV_ROOT",
  "GEM_HOME",
  "GEM_PATH",
  "PNPM_HOME",
  "BUN_INSTALL",
  "ANDROID_HOME",
  "ANDROID_SDK_ROOT",
];

/** Names that look like credentials: withheld from the base whatever `inherit` says. */
const CREDENTIAL_PATTERNS: readonly string[] = [
  "*KEY*",
  "*SECRET*",
  "*TOKEN*",
  "*PASSWORD*",
  "*PASSWD*",
  "*PASSPHRASE*",
  "*CREDENTIAL*",
  // *AUTH* would take GIT_AUTHOR_NAME too: the spellings credentials use instead
  "*AUTH",
  "*AUTH_*",
  "*AUTHORIZATION*",
  "*AUTHTOKEN*",
  "*COOKIE*",
  "*PRIVATE*",
  "*_PAT",
  "*_PASS",
  "*_PWD",
  "*_DSN",
  // providers whose every variable may carry or point at a credential
  "AWS_*",
  "AZURE_*",
  "GOOGLE_APPLICATION_*",
  "GITHUB_TOKEN",
  "GH_TOKEN",
  "GITLAB_TOKEN",
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "NPM_TOKEN",
  "NODE_AUTH_TOKEN",
  "HF_TOKEN",
  "VAULT_*",
  "KUBECONFIG",
  "DOCKER_CONFIG",
  "MYSQL_PWD",
  "PGPASSFILE",
  "DATABASE_URL",
];

/**
 * Names that tell a command where a host program listens for orders: the
 * terminal multiplexer, the display, the agents, the editor, the container
 * engine. Their sockets are hidden (src/platform/paths.ts daemonSockets); the
 * addresses are withheld too.
 */
const ADDRESS_VARIABLES: readonly string[] = [
  "TMUX",
  "TMUX_PANE",
  "STY",
  "DISPLAY",
  "WAYLAND_DISPLAY",
  "XAUTHORITY",
  "DBUS_SESSION_BUS_ADDRESS",
  "DBUS_SYSTEM_BUS_ADDRESS",
  "SSH_AUTH_SOCK",
  "SSH_AGENT_PID",
  "GPG_AGENT_INFO",
  "SSH_ASKPASS",
  "SUDO_ASKPASS",
  "GIT_ASKPASS",
  "KITTY_LISTEN_ON",
  "WEZTERM_UNIX_SOCKET",
  "NVIM",
  "NVIM_LISTEN_ADDRESS",
  "VSCODE_IPC_HOOK*",
  "VSCODE_GIT_IPC_HANDLE",
  "VSCODE_GIT_ASKPASS_*",
  "DOCKER_HOST",
  "CONTAINER_HOST",
  "XDG_RUNTIME_DIR",
];

/** The defaults: the core set, nothing added, nothing removed, nothing set. */
export const DEFAULT_POLICY: EnvironmentPolicy = {
  inherit: "core",
  include: [],
  exclude: [],
  set: {},
};

/** A pattern's regular-expression text: `*` any run, `?` one character, the rest literal. */
function patternSource(pattern: string): string {
  return [...pattern].map((c) =>
    c === "*" ? ".*" : c === "?" ? "." : c.replace(/[.+^${}()|[\]\\/-]/g, "\\$&")
  ).join("");
}

/** One matcher for a list of patterns, each matched against the whole name, regardless of case. */
export function namesMatcher(patterns: readonly string[]): (name: string) => boolean {
  if (patterns.length === 0) return () => false;
  const regex = new RegExp(`^(?:${patterns.map(patternSource).join("|")})$`, "i");
  return (name) => regex.test(name);
}

/** A URL that carries a password (`scheme://user:password@host`), anywhere in a value. */
const URL_WITH_PASSWORD = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/:@]*:[^\s/@]+@/;

/** Whether a value carries a password in a URL (a proxy or database address with credentials). */
export function carriesUrlPassword(value: string): boolean {
  return URL_WITH_PASSWORD.test(value);
}

const isCore = namesMatcher(CORE_VARIABLES);
const looksSecret = namesMatcher([...CREDENTIAL_PATTERNS, ...ADDRESS_VARIABLES]);

/** What a command's environment is, and the names wisp held back from it. */
export interface CommandEnvironment {
  env: Record<string, string>;
  /** Variables of wisp's environment the command does not get (sorted). */
  withheld: string[];
}

/** The environment a command starts with, from wisp's own (pure). */
export function commandEnvironment(
  policy: EnvironmentPolicy,
  source: Record<string, string>,
): CommandEnvironment {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    const inBase = policy.inherit === "all" || (policy.inherit === "core" && isCore(name));
    if (inBase && !looksSecret(name) && !carriesUrlPassword(value)) env[name] = value;
  }
  const included = namesMatcher(policy.include);
  for (const [name, value] of Object.entries(source)) {
    if (included(name)) env[name] = value;
  }
  const excluded = namesMatcher(policy.exclude);
  for (const name of Object.keys(env)) {
    if (excluded(name)) delete env[name];
  }
  for (const [name, value] of Object.entries(policy.set)) env[name] = value;
  const withheld = Object.keys(source).filter((name) => !(name in env)).sort();
  return { env, withheld };
}

let cached: { key: string; result: CommandEnvironment } | undefined;

/** wisp's own environment, or an empty one when it cannot be read. */
function ownEnvironment(): Record<string, string> {
  try {
    return Deno.env.toObject();
  } catch {
    return {};
  }
}

/**
 * The environment for a command started now: commandEnvironment of wisp's
 * own, computed once per distinct environment and policy.
 */
export function environmentFor(policy: EnvironmentPolicy): CommandEnvironment {
  const source = ownEnvironment();
  const key = JSON.stringify([policy, source]);
  if (cached?.key !== key) cached = { key, result: commandEnvironment(policy, source) };
  return cached.result;
}

/**
 * The absolute path of `program` on wisp's own search path. A command's
 * environment may set another PATH, and Deno looks a program up on the PATH
 * it is given: the launcher is found where the permission fence found it.
 */
export function resolveOnOwnPath(program: string): string {
  if (program.includes("/")) return program;
  let path = "";
  try {
    path = Deno.env.get("PATH") ?? "";
  } catch { /* no PATH: Deno's own lookup decides */ }
  for (const dir of path.split(":")) {
    if (!dir.startsWith("/")) continue;
    const candidate = `${dir}/${program}`;
    try {
      const info = Deno.statSync(candidate);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return candidate;
    } catch { /* not here */ }
  }
  return program;
}
