/**
 * The one list of credential files and folders: what the gate rates dangerous to read or write
 * whatever program touches it, what read_file and the search tools ask about before opening,
 * what the search walk leaves out, and what the condensing tools refuse to read.
 *
 * Each entry is a path pattern read the same way whether the path is absolute (`/home/u/.netrc`),
 * written from the home (`~/.netrc`) or relative (`.netrc`): it matches at the start of the
 * path or after a `/`, never in the middle of a name. Matching ignores case (macOS file systems
 * do), and a path whose name is on the not-a-secret list (public keys, `.env.example`) is never
 * a credential path, even inside a credential folder.
 */

/** One kind of credential file or folder. */
export interface CredentialEntry {
  /** A regular expression source matched against a path (see the module comment). */
  pattern: string;
  /** What the file holds, for a person reading the list. */
  holds: string;
  /** Paths it matches, relative to the home (or absolute): for matching globs against. */
  examples: string[];
}

/** A segment boundary: the start of the path or a `/`. */
const AT = "(^|/)";

/** Every credential file and folder wisp knows. */
export const CREDENTIAL_ENTRIES: readonly CredentialEntry[] = [
  /** OpenSSH's folder: private keys, agent sockets, the hosts and keys it trusts. */
  {
    pattern: `${AT}\\.ssh(/|$)`,
    holds: "ssh private keys and trust",
    examples: [".ssh/id_rsa", ".ssh/id_ed25519", ".ssh/id_ecdsa", ".ssh/config"],
  },
  /** Private keys by their usual names, wherever they are kept. */
  {
    pattern: `${AT}id_[a-z0-9_]+$`,
    holds: "a private key",
    examples: ["id_rsa"],
  },
  /** Key and certificate stores by extension (PEM, PKCS#12, PuTTY, Java key stores, KeePass). */
  {
    pattern: `\\.(pem|key|p12|pfx|ppk|jks|keystore|kdbx)$`,
    holds: "keys or a password database",
    examples: ["server.pem", "key.pem"],
  },
  /** Which keys the ssh server accepts and which hosts ssh trusts. */
  {
    pattern: `${AT}(authorized_keys|known_hosts)$`,
    holds: "ssh trust",
    examples: [".ssh/authorized_keys"],
  },
  /** GnuPG's home: secret keys and the trust database. */
  {
    pattern: `${AT}\\.gnupg(/|$)`,
    holds: "GnuPG secret keys",
    examples: [".gnupg/private-keys-v1.d/x.key"],
  },
  /** AWS CLI and SDKs: access keys, session tokens, SSO caches. */
  {
    pattern: `${AT}\\.aws(/|$)`,
    holds: "AWS access keys",
    examples: [".aws/credentials", ".aws/config"],
  },
  /** Google Cloud SDK: OAuth tokens and service-account keys. */
  {
    pattern: `${AT}\\.config/gcloud(/|$)`,
    holds: "Google Cloud tokens",
    examples: [".config/gcloud/credentials.db"],
  },
  /** Azure CLI: tokens and service principals. */
  {
    pattern: `${AT}\\.azure(/|$)`,
    holds: "Azure tokens",
    examples: [".azure/msal_token_cache.json"],
  },
  /** Other cloud CLIs' credential stores: Oracle, DigitalOcean, Hetzner, Alibaba, IBM, Linode. */
  {
    pattern:
      `${AT}(\\.oci|\\.aliyun|\\.bluemix|\\.config/(doctl|hcloud|linode-cli|scw))(/|$)|${AT}\\.s3cfg$|${AT}\\.boto$|${AT}\\.databrickscfg$`,
    holds: "cloud credentials",
    examples: [".oci/config", ".config/doctl/config.yaml", ".s3cfg"],
  },
  /** Kubernetes cluster credentials. */
  {
    pattern: `${AT}\\.kube/config$`,
    holds: "cluster credentials",
    examples: [".kube/config"],
  },
  /** Docker registry logins. */
  {
    pattern: `${AT}\\.docker/config\\.json$`,
    holds: "registry logins",
    examples: [".docker/config.json"],
  },
  /** Package registry tokens: npm, PyPI, RubyGems, Cargo, Maven. */
  {
    pattern:
      `${AT}\\.npmrc$|${AT}\\.pypirc$|${AT}\\.gem/credentials$|${AT}\\.cargo/credentials(\\.toml)?$|${AT}\\.m2/settings(-security)?\\.xml$`,
    holds: "package registry tokens",
    examples: [".npmrc", ".pypirc", ".cargo/credentials.toml"],
  },
  /** Logins for any host: netrc (curl, git, ftp) and PostgreSQL's and MySQL's password files. */
  {
    pattern: `${AT}[._]netrc$|${AT}\\.pgpass$|${AT}\\.my\\.cnf$`,
    holds: "logins for hosts",
    examples: [".netrc", ".pgpass"],
  },
  /** Git's stored credentials (the store helper's files). */
  {
    pattern: `${AT}\\.git-credentials$|${AT}\\.config/git/credentials$`,
    holds: "git passwords and tokens",
    examples: [".git-credentials"],
  },
  /** GitHub, GitLab and hub CLIs' tokens. */
  {
    pattern: `${AT}\\.config/(gh/hosts\\.yml|glab-cli/config\\.yml|hub)$`,
    holds: "forge tokens",
    examples: [".config/gh/hosts.yml"],
  },
  /** Terraform Cloud tokens. */
  {
    pattern: `${AT}\\.terraform\\.d/credentials\\.tfrc\\.json$`,
    holds: "Terraform Cloud tokens",
    examples: [".terraform.d/credentials.tfrc.json"],
  },
  /** Coding agents' logins: Claude Code, Codex, Gemini CLI. */
  {
    pattern:
      `${AT}\\.claude/\\.credentials\\.json$|${AT}\\.codex/auth\\.json$|${AT}\\.gemini/oauth_creds\\.json$`,
    holds: "coding agents' tokens",
    examples: [".claude/.credentials.json", ".codex/auth.json"],
  },
  /** Tokens of other tools kept in the home: Vault, Hugging Face, rclone. */
  {
    pattern:
      `${AT}\\.vault-token$|${AT}(\\.cache/)?\\.?huggingface/token$|${AT}\\.config/rclone/rclone\\.conf$`,
    holds: "service tokens",
    examples: [".vault-token", ".cache/huggingface/token"],
  },
  /** Files named as holding secrets in any project. */
  {
    pattern: `${AT}\\.?credentials\\.json$|${AT}secrets?\\.(ya?ml|json|toml)$`,
    holds: "secrets by name",
    examples: ["credentials.json"],
  },
  /** dotenv files (`.env`, `.env.local`, `.env.production`); the examples a project ships are not. */
  {
    pattern: `${AT}\\.env(\\.[^/]*)?$`,
    holds: "environment secrets",
    examples: [".env", ".env.local", ".env.production"],
  },
  /** Keychains: macOS's (~/Library/Keychains, *.keychain-db), GNOME Keyring, KWallet. */
  {
    pattern:
      `${AT}keychains?(/|$)|\\.keychain(-db)?$|${AT}\\.local/share/(keyrings|kwalletd)(/|$)|${AT}\\.kde4?/share/apps/kwallet(/|$)`,
    holds: "keychains",
    examples: ["Library/Keychains/login.keychain-db", ".local/share/keyrings/login.keyring"],
  },
  /** Password managers' stores: pass, 1Password's and Bitwarden's CLIs. */
  {
    pattern: `${AT}\\.password-store(/|$)|${AT}\\.config/(op|Bitwarden CLI)(/|$)`,
    holds: "a password store",
    examples: [".password-store/email.gpg"],
  },
  /** Browser profiles (saved passwords, cookies, session tokens): Chromium's family, Firefox, Safari. */
  {
    pattern:
      `${AT}\\.config/(google-chrome|chromium|BraveSoftware|microsoft-edge|vivaldi|opera)(/|$)|${AT}\\.mozilla/firefox(/|$)|${AT}snap/(firefox|chromium)(/|$)|${AT}Library/Application Support/(Google/Chrome|Chromium|BraveSoftware|Microsoft Edge|Vivaldi|Firefox|com\\.operasoftware\\.Opera)(/|$)|${AT}Library/(Safari|Cookies)(/|$)|${AT}(Login Data|Cookies|logins\\.json|key[34]\\.db|cookies\\.sqlite)$`,
    holds: "browser passwords and cookies",
    examples: [
      ".config/google-chrome/Default/Login Data",
      ".mozilla/firefox/x.default/logins.json",
      "Library/Safari/History.db",
    ],
  },
  /** The system's password hashes and who may become root. */
  {
    pattern: `${AT}g?shadow-?$|${AT}sudoers(\\.d)?(/|$)`,
    holds: "password hashes",
    examples: ["/etc/shadow"],
  },
];

/**
 * Names that look like credentials but are published on purpose: public keys, and the
 * example dotenv files a project ships for others to copy.
 */
const NOT_CREDENTIALS = /\.pub$|(^|\/)\.env\.(example|sample|template)$/i;

const ANY_CREDENTIAL = new RegExp(CREDENTIAL_ENTRIES.map((e) => `(?:${e.pattern})`).join("|"), "i");

/** Is this path (absolute, `~/…` or relative) a credential file or folder? */
export function isCredentialPath(path: string): boolean {
  return ANY_CREDENTIAL.test(path) && !NOT_CREDENTIALS.test(path);
}

/** Absolute examples of every entry under a home, for matching a glob against. */
export function credentialExamples(userHome: string): string[] {
  const home = userHome.replace(/\/+$/, "");
  return CREDENTIAL_ENTRIES.flatMap((e) =>
    e.examples.map((x) => (x.startsWith("/") ? x : `${home}/${x}`))
  );
}

/** Examples as names in a working folder, for matching a relative glob against. */
export const RELATIVE_CREDENTIALS: readonly string[] = [
  ".env",
  ".env.local",
  ".env.production",
  "server.pem",
  "key.pem",
  "id_rsa",
  ".netrc",
  ".npmrc",
  ".pypirc",
  ".ssh",
  ".aws",
  ".kube",
  ".docker",
  ".gnupg",
  ".git-credentials",
  "credentials.json",
];

/** What separates the paths written inside a longer text. */
const SEPARATORS = /["'`\s()\[\],;=:<>]+/;

/**
 * Does a longer text name a credential path inside it (`open("/home/u/.netrc")`,
 * `--identity=~/.ssh/id_rsa`)? The text is cut at quotes, spaces, brackets, `=`, `,` and `:`,
 * and each piece is matched on its own.
 */
export function mentionsCredentialPath(text: string, limit = 16 * 1024): boolean {
  const slice = text.length > limit ? text.slice(0, limit) : text;
  for (const piece of slice.split(SEPARATORS)) {
    if (piece !== "" && isCredentialPath(piece)) return true;
  }
  return false;
}
