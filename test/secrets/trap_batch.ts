/**
 * A batch of files that hold no credential and no personal data, only things shaped like them, as
 * real repositories and home folders hold them: lockfiles and their integrity hashes, subresource
 * integrity, minified bundles and source maps, `data:` URIs, notebook outputs, public certificates
 * and keys, hashed passwords, encrypted stores, object ids and digests, checksum files, fixtures
 * with documented example values, documentation with placeholders in many styles, code that
 * handles a password without holding one, translations, logs that mask what they print, and values
 * marked as allowed inline in every spelling the docs give. It was written before the rules were
 * read, from what such files look like; every file is generated from a seed, so each run can draw
 * fresh hashes, ids and keys. Nothing in it may be reported, with or without personal data.
 *
 * What counts as personal data here (decided for this batch, and written in docs/secrets.md): an
 * address at an example domain (RFC 2606), a service's no-reply address, `user@host` logins in
 * SSH, scp and git remotes, package `name@version` specifiers and `@2x` image names are not e-mail
 * addresses; documentation addresses (RFC 5737, RFC 3849), loopback, unspecified and broadcast
 * addresses, netmasks, version numbers and OIDs are not IP addresses of anyone (a private network
 * block such as `10.0.0.0/8` is, as the corpus labels it: it maps a site's network); the fictional 555-0100 to 555-0199 range, ISBNs, dates, timestamps and
 * coordinates are not phone numbers. A real person's address in a public project's author lines is
 * personal data, so none is written here.
 */
import { ALNUM, B64, B64URL, DIGIT, rng, UPPER, Values } from "./corpus_values.ts";

/** Crockford's base32 alphabet, as ULIDs use it. */
/** Nix's base32 alphabet (no e, o, t, u). */
const NIX32 = "0123456789abcdfghijklmnpqrsvwxyz";

/** The batch for one seed: path → text. */
export function trapBatch(seed: number): Record<string, string> {
  const v = new Values(rng(seed));
  const hex = (n: number) => v.hex(n);
  const b64 = (n: number) => v.mixed(B64, n);
  const sri = (alg: "sha256" | "sha384" | "sha512") =>
    `${alg}-${b64({ sha256: 43, sha384: 64, sha512: 86 }[alg])}${
      { sha256: "=", sha384: "", sha512: "==" }[alg]
    }`;
  const uuid = () => v.uuid();
  const ulid = () => v.ulid();
  const nixHash = () => v.chars(NIX32, 32);
  const wrap = (body: string, width = 64) => body.match(new RegExp(`.{1,${width}}`, "g"))!;
  const certBody = (bytes: number) => wrap("MII" + b64(Math.ceil(bytes * 4 / 3) - 3));
  const certificate = (bytes = 900) =>
    ["-----BEGIN CERTIFICATE-----", ...certBody(bytes), "-----END CERTIFICATE-----"].join("\n");
  const ed25519 = () => "AAAAC3NzaC1lZDI1NTE5AAAAI" + b64(43);
  const rsaPub = () => "AAAAB3NzaC1yc2EAAAADAQABAAABgQ" + b64(510);
  const ecdsaPub = () => "AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB" + b64(87) + "=";
  const skEd25519 = () => "AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29tAAAAI" + b64(60) + "=";
  const png = (n: number) =>
    "iVBORw0KGgoAAAANSUhEUgAAA" + b64(n) + v.pick(["=", "==", "AAAAAElFTkSuQmCC"]);
  const bcrypt = (cost: string, variant = "2b") =>
    `$${variant}$${cost}$${v.mixed(ALNUM + "./", 53)}`;
  const semver = () => `${v.int(0, 12)}.${v.int(0, 40)}.${v.int(0, 30)}`;
  // Values a real file would hold, used only on lines marked as allowed.
  const ghp = () => "ghp_" + v.mixed(ALNUM, 36);
  const awsSecret = () => v.mixed(B64, 40);
  const chosenPassword = () =>
    `Quartz${v.pick(["#", "!", "%"])}${v.mixed(ALNUM, 7)}${v.int(10, 99)}`;
  const longSecret = () => v.mixed(ALNUM, 32);

  const f: Record<string, string> = {};

  // --- lockfiles ----------------------------------------------------------------------------

  f["web/package-lock.json"] = `{
  "name": "storefront",
  "version": "${semver()}",
  "lockfileVersion": 3,
  "requires": true,
  "packages": {
    "": {
      "name": "storefront",
      "dependencies": { "@babel/core": "^7.24.5", "jsonwebtoken": "^9.0.2", "bcryptjs": "^2.4.3" }
    },
    "node_modules/@babel/core": {
      "version": "7.24.5",
      "resolved": "https://registry.npmjs.org/@babel/core/-/core-7.24.5.tgz",
      "integrity": "${sri("sha512")}",
      "license": "MIT"
    },
    "node_modules/jsonwebtoken": {
      "version": "9.0.2",
      "resolved": "https://registry.npmjs.org/jsonwebtoken/-/jsonwebtoken-9.0.2.tgz",
      "integrity": "${sri("sha512")}",
      "dependencies": { "jws": "^3.2.2", "lodash.includes": "^4.3.0" }
    },
    "node_modules/secret-handshake": {
      "version": "1.1.20",
      "resolved": "https://registry.npmjs.org/secret-handshake/-/secret-handshake-1.1.20.tgz",
      "integrity": "sha1-${b64(27)}="
    },
    "node_modules/internal-ui": {
      "version": "2.3.0",
      "resolved": "git+ssh://git@github.com/acme-corp/internal-ui.git#${hex(40)}",
      "license": "UNLICENSED"
    },
    "node_modules/password-validator": {
      "version": "5.3.0",
      "resolved": "https://registry.npmjs.org/password-validator/-/password-validator-5.3.0.tgz",
      "integrity": "${sri("sha512")}"
    }
  }
}
`;

  f["web/yarn.lock"] = `# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.
# yarn lockfile v1


"@babel/code-frame@^7.24.2":
  version "7.24.2"
  resolved "https://registry.yarnpkg.com/@babel/code-frame/-/code-frame-7.24.2.tgz#${hex(40)}"
  integrity ${sri("sha512")}
  dependencies:
    "@babel/highlight" "^7.24.2"
    picocolors "^1.0.0"

keygrip@~1.1.0:
  version "1.1.0"
  resolved "https://registry.yarnpkg.com/keygrip/-/keygrip-1.1.0.tgz#${hex(40)}"
  integrity ${sri("sha512")}
  dependencies:
    tsscmp "1.0.6"

"token-types@^5.0.1":
  version "5.0.1"
  resolved "https://registry.yarnpkg.com/token-types/-/token-types-5.0.1.tgz#${hex(40)}"
  integrity ${sri("sha512")}
`;

  f["web/.yarn/berry.lock"] = `__metadata:
  version: 8
  cacheKey: 10c0

"safe-buffer@npm:5.2.1":
  version: 5.2.1
  resolution: "safe-buffer@npm:5.2.1"
  checksum: 10c0/${hex(128)}
  languageName: node
  linkType: hard

"passport-jwt@npm:^4.0.1":
  version: 4.0.1
  resolution: "passport-jwt@npm:4.0.1"
  checksum: 10c0/${hex(128)}
  languageName: node
  linkType: hard
`;

  f["web/pnpm-lock.yaml"] = `lockfileVersion: '9.0'

settings:
  autoInstallPeers: true
  excludeLinksFromLockfile: false

importers:
  .:
    dependencies:
      jose:
        specifier: ^5.2.4
        version: 5.2.4

packages:
  jose@5.2.4:
    resolution: {integrity: ${sri("sha512")}}

  '@noble/hashes@1.4.0':
    resolution: {integrity: ${sri("sha512")}}
    engines: {node: '>= 16'}

  otpauth@9.2.3:
    resolution: {integrity: ${sri("sha512")}}

  private-ui@https://codeload.github.com/acme-corp/private-ui/tar.gz/${hex(40)}:
    resolution: {tarball: https://codeload.github.com/acme-corp/private-ui/tar.gz/${hex(40)}}
    version: 0.4.1
`;

  f["svc/go.sum"] = [
    "github.com/golang-jwt/jwt/v5",
    "golang.org/x/crypto",
    "github.com/hashicorp/vault/api",
    "github.com/aws/aws-sdk-go-v2/credentials",
  ].flatMap((mod) => {
    const ver = `v${semver()}`;
    return [`${mod} ${ver} h1:${b64(43)}=`, `${mod} ${ver}/go.mod h1:${b64(43)}=`];
  }).join("\n") + "\n";

  f["crates/Cargo.lock"] = `# This file is automatically @generated by Cargo.
# It is not intended for manual editing.
version = 3

[[package]]
name = "argon2"
version = "0.5.3"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "${hex(64)}"
dependencies = [
 "base64ct",
 "password-hash",
]

[[package]]
name = "password-hash"
version = "0.5.0"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "${hex(64)}"

[[package]]
name = "secrecy"
version = "0.8.0"
source = "git+https://github.com/iqlusioninc/crates?rev=${hex(40)}#${hex(40)}"
`;

  f["py/poetry.lock"] =
    `# This file is automatically @generated by Poetry 1.8.2 and should not be changed by hand.

[[package]]
name = "cryptography"
version = "42.0.7"
description = "cryptography is a package which provides cryptographic recipes and primitives to Python developers."
optional = false
python-versions = ">=3.7"
files = [
    {file = "cryptography-42.0.7-cp37-abi3-macosx_10_12_universal2.whl", hash = "sha256:${
      hex(64)
    }"},
    {file = "cryptography-42.0.7.tar.gz", hash = "sha256:${hex(64)}"},
]

[[package]]
name = "keyring"
version = "25.2.1"
description = "Store and access your passwords safely."
optional = false
python-versions = ">=3.8"
files = [
    {file = "keyring-25.2.1-py3-none-any.whl", hash = "sha256:${hex(64)}"},
]

[metadata]
lock-version = "2.0"
python-versions = "^3.11"
content-hash = "${hex(64)}"
`;

  f["py/requirements.txt"] = `# pip-compile --generate-hashes
bcrypt==4.1.3 \\
    --hash=sha256:${hex(64)} \\
    --hash=sha256:${hex(64)}
python-jose[cryptography]==3.3.0 \\
    --hash=sha256:${hex(64)}
`;

  f["py/Pipfile.lock"] = `{
    "_meta": {
        "hash": { "sha256": "${hex(64)}" },
        "pipfile-spec": 6,
        "sources": [{ "name": "pypi", "url": "https://pypi.org/simple", "verify_ssl": true }]
    },
    "default": {
        "pyjwt": {
            "hashes": ["sha256:${hex(64)}", "sha256:${hex(64)}"],
            "version": "==2.8.0"
        }
    }
}
`;

  f["rb/Gemfile.lock"] = `GIT
  remote: https://github.com/acme-corp/devise-two-factor.git
  revision: ${hex(40)}
  branch: main
  specs:
    devise-two-factor (5.0.0)

GEM
  remote: https://rubygems.org/
  specs:
    bcrypt (3.1.20)
    jwt (2.8.1)
      base64

PLATFORMS
  x86_64-linux

CHECKSUMS
  bcrypt (3.1.20) sha256=${hex(64)}
  jwt (2.8.1) sha256=${hex(64)}

BUNDLED WITH
   2.5.9
`;

  f["php/composer.lock"] = `{
    "_readme": ["This file locks the dependencies of your project to a known state"],
    "content-hash": "${hex(32)}",
    "packages": [
        {
            "name": "firebase/php-jwt",
            "version": "v6.10.0",
            "source": {
                "type": "git",
                "url": "https://github.com/firebase/php-jwt.git",
                "reference": "${hex(40)}"
            },
            "dist": {
                "type": "zip",
                "url": "https://api.github.com/repos/firebase/php-jwt/zipball/${hex(40)}",
                "reference": "${hex(40)}",
                "shasum": ""
            }
        }
    ],
    "plugin-api-version": "2.6.0"
}
`;

  f["terraform/.terraform.lock.hcl"] = `# This file is maintained automatically by "terraform init".
provider "registry.terraform.io/hashicorp/aws" {
  version     = "5.49.0"
  constraints = "~> 5.0"
  hashes = [
    "h1:${b64(43)}=",
    "zh:${hex(64)}",
    "zh:${hex(64)}",
  ]
}

provider "registry.terraform.io/hashicorp/random" {
  version = "3.6.1"
  hashes = [
    "h1:${b64(43)}=",
    "zh:${hex(64)}",
  ]
}
`;

  f["ios/Podfile.lock"] = `PODS:
  - Alamofire (5.9.1)
  - KeychainAccess (4.2.2)

SPEC CHECKSUMS:
  Alamofire: ${hex(40)}
  KeychainAccess: ${hex(40)}

PODFILE CHECKSUM: ${hex(40)}

COCOAPODS: 1.15.2
`;

  f["dotnet/packages.lock.json"] = `{
  "version": 1,
  "dependencies": {
    "net8.0": {
      "Microsoft.IdentityModel.Tokens": {
        "type": "Direct",
        "requested": "[7.5.1, )",
        "resolved": "7.5.1",
        "contentHash": "${b64(86)}=="
      },
      "System.Security.Cryptography.ProtectedData": {
        "type": "Transitive",
        "resolved": "8.0.0",
        "contentHash": "${b64(86)}=="
      }
    }
  }
}
`;

  f["elixir/mix.lock"] = `%{
  "bcrypt_elixir": {:hex, :bcrypt_elixir, "3.1.0", "${
    hex(64)
  }", [:make, :mix], [{:comeonin, "~> 5.3", [hex: :comeonin, repo: "hexpm", optional: false]}], "hexpm", "${
    hex(64)
  }"},
  "guardian": {:hex, :guardian, "2.3.2", "${hex(64)}", [:mix], [], "hexpm", "${hex(64)}"},
}
`;

  f["gradle/verification-metadata.xml"] = `<?xml version="1.0" encoding="UTF-8"?>
<verification-metadata xmlns="https://schema.gradle.org/dependency-verification">
   <configuration>
      <verify-metadata>true</verify-metadata>
      <verify-signatures>false</verify-signatures>
   </configuration>
   <components>
      <component group="io.jsonwebtoken" name="jjwt-api" version="0.12.5">
         <artifact name="jjwt-api-0.12.5.jar">
            <sha256 value="${hex(64)}" origin="Generated by Gradle"/>
         </artifact>
      </component>
      <component group="org.bouncycastle" name="bcprov-jdk18on" version="1.78.1">
         <artifact name="bcprov-jdk18on-1.78.1.jar">
            <sha256 value="${hex(64)}" origin="Generated by Gradle"/>
            <sha512 value="${hex(128)}" origin="Generated by Gradle"/>
         </artifact>
      </component>
   </components>
</verification-metadata>
`;

  f["nix/flake.lock"] = `{
  "nodes": {
    "nixpkgs": {
      "locked": {
        "lastModified": ${v.int(1_700_000_000, 1_760_000_000)},
        "narHash": "sha256-${b64(43)}=",
        "owner": "NixOS",
        "repo": "nixpkgs",
        "rev": "${hex(40)}",
        "type": "github"
      },
      "original": { "owner": "NixOS", "ref": "nixos-24.05", "repo": "nixpkgs", "type": "github" }
    },
    "root": { "inputs": { "nixpkgs": "nixpkgs" } }
  },
  "root": "root",
  "version": 7
}
`;

  f["nix/default.nix"] = `{ lib, stdenv, fetchurl, fetchFromGitHub, openssl }:

stdenv.mkDerivation rec {
  pname = "keyvault-cli";
  version = "${semver()}";

  src = fetchFromGitHub {
    owner = "acme-corp";
    repo = pname;
    rev = "v\${version}";
    hash = "sha256-${b64(43)}=";
  };

  patches = [
    (fetchurl {
      url = "https://github.com/acme-corp/keyvault-cli/commit/${hex(40)}.patch";
      sha256 = "${v.chars(NIX32, 52)}";
    })
  ];

  cargoHash = "sha256-${b64(43)}=";
  buildInputs = [ openssl ];
  # Built against /nix/store/${nixHash()}-openssl-3.0.13-dev
  meta.license = lib.licenses.mit;
}
`;

  f["release/SHA256SUMS"] = [
    "wisp-x86_64-unknown-linux-gnu.tar.gz",
    "wisp-aarch64-apple-darwin.tar.gz",
    "wisp-x86_64-pc-windows-msvc.zip",
    "wisp_1.4.2_amd64.deb",
  ].map((name) => `${hex(64)}  ${name}`).join("\n") + "\n";

  f["release/checksums.txt"] = `# SHA512
${hex(128)} *keyring-agent-${semver()}.tar.xz
# MD5 (legacy mirrors)
MD5 (keyring-agent.dmg) = ${hex(32)}
SHA1(keyring-agent.msi)= ${hex(40)}
`;

  // --- web assets ---------------------------------------------------------------------------

  f["site/index.html"] = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="google-site-verification" content="${v.mixed(B64URL, 43)}">
  <meta name="msvalidate.01" content="${hex(32).toUpperCase()}">
  <link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/bootstrap@5.3.3/dist/css/bootstrap.min.css"
        integrity="${sri("sha384")}" crossorigin="anonymous">
  <script src="https://cdn.jsdelivr.net/npm/zxcvbn@4.4.2/dist/zxcvbn.js"
          integrity="${sri("sha384")}" crossorigin="anonymous" defer></script>
  <script type="module" src="/assets/app-${hex(8)}.js" integrity="${sri("sha256")}"></script>
  <link rel="icon" href="data:image/png;base64,${png(120)}">
</head>
<body>
  <form id="login" method="post" action="/session">
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password"
           pattern="(?=.*\\d)(?=.*[a-z])(?=.*[A-Z]).{12,}" placeholder="••••••••" required>
    <input type="hidden" name="password_strength" value="0">
    <div class="password-meter password-meter--weak" data-token-field="session_token"></div>
  </form>
  <img alt="logo" src="/img/logo@2x.png" srcset="/img/logo.png 1x, /img/logo@2x.png 2x, /img/logo@3x.png 3x">
  <img alt="" width="1" height="1" src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7">
</body>
</html>
`;

  f["site/assets/app.min.js"] =
    `"use strict";(()=>{var e=Object.defineProperty,t=(t,n)=>{for(var r in n)e(t,r,{get:n[r],enumerable:!0})};` +
    `const n="${v.mixed(B64URL, 64)}",r=new Uint8Array(atob("${
      b64(240)
    }=").split("").map(e=>e.charCodeAt(0)));` +
    `function a(e){return e.password.length>=12&&/[A-Z]/.test(e.password)&&/\\d/.test(e.password)}` +
    `function o(e,t){return fetch("/api/session",{method:"POST",headers:{"Content-Type":"application/json",Authorization:"Bearer "+t},body:JSON.stringify({password:e})})}` +
    `const s={apiKey:"",authDomain:"",tokenKey:"auth.token",passwordKey:"auth.password.label"};` +
    `window.__BUILD__={id:"${hex(40)}",chunk:"${v.mixed(ALNUM, 20)}",ts:${
      v.int(1_700_000_000_000, 1_760_000_000_000)
    }};` +
    `})();\n//# sourceMappingURL=data:application/json;charset=utf-8;base64,${b64(600)}\n`;

  f["site/assets/app.min.js.map"] =
    `{"version":3,"file":"app.min.js","sources":["../src/auth/login.ts","../src/auth/strength.ts"],` +
    `"sourcesContent":["export async function login(form: HTMLFormElement, token: string) {\\n  const password = new FormData(form).get(\\"password\\") as string;\\n  return fetch(\\"/api/session\\", { method: \\"POST\\", headers: { Authorization: \\"Bearer \\" + token }, body: JSON.stringify({ password }) });\\n}\\n",` +
    `"export const isStrong = (password: string) => password.length >= 12 && /[A-Z]/.test(password);\\n"],` +
    `"names":["login","form","token","password","isStrong"],"mappings":"${
      Array.from({ length: 60 }, () => v.mixed(ALNUM + "+/", v.int(4, 9))).join(",")
    };${Array.from({ length: 40 }, () => v.mixed(ALNUM + "+/", v.int(4, 9))).join(",")}",` +
    `"debugId":"${uuid()}"}\n`;

  f["site/styles/fonts.css"] = `@font-face {
  font-family: "Inter";
  font-display: swap;
  src: url(data:font/woff2;charset=utf-8;base64,d09GMgABAAAAA${b64(700)}=) format("woff2");
}
.password-strength--weak { color: #c0392b; }
.password-strength--strong { color: #27ae60; }
.token-input, .secret-banner__text { font-family: "JetBrains Mono", monospace; }
.icon-key { background-image: url("data:image/svg+xml;base64,${
    btoa(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><path d="M8 1a4 4 0 1 0 0 8"/></svg>',
    )
  }"); }
.hero { background: url(/img/hero@2x.jpg) center / cover; }
@media (min-resolution: 2dppx) { .logo { background-image: url(/img/logo@2x.png); } }
`;

  f["site/img/badge.svg"] =
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="120" height="20">
  <title>security: passing</title>
  <image width="14" height="14" x="3" y="3" xlink:href="data:image/png;base64,${png(400)}"/>
  <path fill="#4c1" d="M${v.int(10, 99)}.5 0h${v.int(10, 99)}v20H55.5z"/>
  <text x="83" y="14">passing</text>
</svg>
`;

  f["notebooks/exploration.ipynb"] = JSON.stringify(
    {
      cells: [
        {
          cell_type: "code",
          execution_count: 3,
          id: hex(8),
          metadata: {},
          outputs: [
            {
              data: {
                "image/png": png(3000) + "\n",
                "text/plain": ["<Figure size 640x480 with 1 Axes>"],
              },
              metadata: {},
              output_type: "display_data",
            },
          ],
          source: [
            "import getpass, os\n",
            "password = getpass.getpass('Warehouse password: ')\n",
            "token = os.environ['WAREHOUSE_TOKEN']\n",
            "df.plot(x='created_at', y='orders')",
          ],
        },
        {
          cell_type: "code",
          execution_count: 4,
          id: hex(8),
          metadata: {},
          outputs: [{
            name: "stdout",
            output_type: "stream",
            text: [`run id ${uuid()}\n`, `artifact sha256:${hex(64)}\n`],
          }],
          source: ["print(f'run id {run.id}')"],
        },
      ],
      metadata: { kernelspec: { display_name: "Python 3", language: "python", name: "python3" } },
      nbformat: 4,
      nbformat_minor: 5,
    },
    null,
    1,
  ) + "\n";

  // --- public keys and certificates -----------------------------------------------------------

  f["certs/ca-bundle.pem"] = `# Acme Corp internal root and issuing CA (public)
${certificate(950)}
${certificate(1100)}
-----BEGIN X509 CRL-----
${certBody(400).join("\n")}
-----END X509 CRL-----
`;

  f["certs/server.csr"] = `-----BEGIN CERTIFICATE REQUEST-----
${certBody(650).join("\n")}
-----END CERTIFICATE REQUEST-----
`;

  f["certs/jwt-signing.pub"] = `-----BEGIN PUBLIC KEY-----
${wrap("MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA" + b64(348) + "IDAQAB").join("\n")}
-----END PUBLIC KEY-----
-----BEGIN RSA PUBLIC KEY-----
${wrap("MIIBCgKCAQEA" + b64(340) + "AgMBAAE=").join("\n")}
-----END RSA PUBLIC KEY-----
`;

  f["certs/dhparam.pem"] = `-----BEGIN DH PARAMETERS-----
${wrap("MIIBCAKCAQEA" + b64(340) + "AgEC").join("\n")}
-----END DH PARAMETERS-----
`;

  f["auth/.well-known/jwks.json"] = `{
  "keys": [
    {
      "kty": "RSA",
      "use": "sig",
      "alg": "RS256",
      "kid": "${hex(16)}",
      "n": "${v.mixed(B64URL, 342)}",
      "e": "AQAB"
    },
    {
      "kty": "EC",
      "use": "sig",
      "crv": "P-256",
      "kid": "${v.mixed(B64URL, 43)}",
      "x": "${v.mixed(B64URL, 43)}",
      "y": "${v.mixed(B64URL, 43)}"
    }
  ]
}
`;

  f["home/.ssh/authorized_keys"] = `# deploy keys, managed by ansible
ssh-ed25519 ${ed25519()} deploy@ci-runner-01
ssh-rsa ${rsaPub()} backup@files01
from="192.0.2.0/24,198.51.100.7",command="/usr/local/bin/rrsync -ro /srv/backup",no-pty ssh-ed25519 ${ed25519()} restore-job
sk-ssh-ed25519@openssh.com ${skEd25519()} yubikey-5c
ecdsa-sha2-nistp256 ${ecdsaPub()}
`;

  f["home/.ssh/known_hosts"] = `|1|${b64(27)}=|${b64(27)}= ssh-ed25519 ${ed25519()}
|1|${b64(27)}=|${b64(27)}= ecdsa-sha2-nistp256 ${ecdsaPub()}
github.com ssh-ed25519 ${ed25519()}
[git.acme-corp.io]:2222 ssh-rsa ${rsaPub()}
@cert-authority *.acme-corp.io ssh-ed25519 ${ed25519()}
@revoked * ssh-ed25519 ${ed25519()}
[127.0.0.1]:2222 ssh-ed25519 ${ed25519()}
`;

  f["home/.ssh/config"] = `Host bastion
  HostName bastion.acme-corp.io
  User deploy
  IdentityFile ~/.ssh/id_ed25519
  IdentitiesOnly yes

Host *.internal
  ProxyJump deploy@bastion.acme-corp.io
  UserKnownHostsFile ~/.ssh/known_hosts.d/internal
`;

  f["keys/release-signing.asc"] = `-----BEGIN PGP PUBLIC KEY BLOCK-----
Comment: Acme Corp release signing key
Comment: ${hex(40).toUpperCase().replace(/(.{4})/g, "$1 ").trim()}

${v.base64Lines(1200).join("\n")}
=${v.chars(B64, 4)}
-----END PGP PUBLIC KEY BLOCK-----
`;

  f["git/tag-v2.4.0.txt"] = `object ${hex(40)}
type commit
tag v2.4.0
tagger Release Bot <release-bot@users.noreply.github.com> ${
    v.int(1_700_000_000, 1_760_000_000)
  } +0000

Release 2.4.0
-----BEGIN PGP SIGNATURE-----

${v.base64Lines(560).join("\n")}
=${v.chars(B64, 4)}
-----END PGP SIGNATURE-----
`;

  f["git/commit-signed.txt"] = `tree ${hex(40)}
parent ${hex(40)}
author dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com> ${
    v.int(1_700_000_000, 1_760_000_000)
  } +0000
committer GitHub <noreply@github.com> ${v.int(1_700_000_000, 1_760_000_000)} +0000
gpgsig -----BEGIN SSH SIGNATURE-----
 ${v.base64Lines(290, 70).join("\n ")}
 -----END SSH SIGNATURE-----

build(deps): bump jsonwebtoken from 9.0.1 to 9.0.2

Bumps [jsonwebtoken](https://github.com/auth0/node-jsonwebtoken) from 9.0.1 to 9.0.2.
- [Commits](https://github.com/auth0/node-jsonwebtoken/compare/v9.0.1...v9.0.2)
`;

  // --- hashed passwords ---------------------------------------------------------------------

  f["test/fixtures/etc/shadow"] = `root:$6$${v.mixed(ALNUM, 16)}$${
    v.mixed(ALNUM + "./", 86)
  }:19820:0:99999:7:::
daemon:*:19820:0:99999:7:::
nobody:!:19820:0:99999:7:::
deploy:$y$j9T$${v.mixed(ALNUM + "./", 22)}$${v.mixed(ALNUM + "./", 43)}:19821:0:99999:7:::
legacy:$5$rounds=5000$${v.mixed(ALNUM, 16)}$${v.mixed(ALNUM + "./", 43)}:18000:0:99999:7:::
oldbox:$1$${v.mixed(ALNUM, 8)}$${v.mixed(ALNUM + "./", 22)}:15000:0:99999:7:::
locked:!$6$${v.mixed(ALNUM, 16)}$${v.mixed(ALNUM + "./", 86)}:19822:0:99999:7:::
`;

  f["web/.htpasswd"] = `admin:$apr1$${v.mixed(ALNUM, 8)}$${v.mixed(ALNUM + "./", 22)}
ci:${bcrypt("10", "2y")}
monitor:{SHA}${b64(27)}=
`;

  f["app/fixtures/users.json"] = `[
  {
    "model": "auth.user",
    "pk": 1,
    "fields": {
      "username": "admin",
      "email": "admin@example.com",
      "password": "pbkdf2_sha256$720000$${v.mixed(ALNUM, 22)}$${b64(43)}=",
      "is_superuser": true
    }
  },
  {
    "model": "auth.user",
    "pk": 2,
    "fields": {
      "username": "editor",
      "email": "editor@example.org",
      "password": "argon2$argon2id$v=19$m=102400,t=2,p=8$${b64(22)}$${b64(43)}",
      "is_superuser": false
    }
  },
  {
    "model": "auth.user",
    "pk": 3,
    "fields": {
      "username": "viewer",
      "email": "viewer@example.net",
      "password": "bcrypt_sha256$${bcrypt("12")}",
      "is_superuser": false
    }
  }
]
`;

  f["db/seeds/accounts.sql"] =
    `-- Seed accounts for the staging database (passwords are stored hashed).
INSERT INTO accounts (id, email, password_hash, api_key_id, created_at) VALUES
  ('${uuid()}', 'qa-bot@example.com', '${bcrypt("12")}', '${uuid()}', '2024-05-14 09:12:44+00'),
  ('${uuid()}', 'support@example.org', '$argon2id$v=19$m=65536,t=3,p=4$${b64(22)}$${
      b64(43)
    }', '${uuid()}', '2024-05-14 09:12:45+00');
UPDATE accounts SET password_hash = crypt('placeholder', gen_salt('bf')) WHERE id IS NULL;
`;

  // --- encrypted stores ---------------------------------------------------------------------

  const sopsValue = (n: number) =>
    `ENC[AES256_GCM,data:${b64(n)}=,iv:${b64(43)}=,tag:${b64(22)}==,type:str]`;
  f["deploy/secrets.enc.yaml"] = `database:
  password: ${sopsValue(24)}
  url: ${sopsValue(80)}
stripe_secret_key: ${sopsValue(44)}
sops:
  kms: []
  age:
    - recipient: age1${v.chars("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58)}
      enc: |
        -----BEGIN AGE ENCRYPTED FILE-----
        ${v.base64Lines(240).join("\n        ")}
        -----END AGE ENCRYPTED FILE-----
  pgp:
    - fp: ${hex(40).toUpperCase()}
  lastmodified: "2024-05-14T09:12:44Z"
  mac: ENC[AES256_GCM,data:${b64(86)}==,iv:${b64(43)}=,tag:${b64(22)}==,type:str]
  unencrypted_suffix: _unencrypted
  version: 3.8.1
`;

  f["deploy/.env.enc.json"] = `{
  "DB_PASSWORD": "${sopsValue(20)}",
  "API_TOKEN": "${sopsValue(40)}",
  "sops": {
    "lastmodified": "2024-05-14T09:12:44Z",
    "mac": "ENC[AES256_GCM,data:${b64(86)}==,iv:${b64(43)}=,tag:${b64(22)}==,type:str]",
    "version": "3.8.1"
  }
}
`;

  const vaultLines = (n: number) => Array.from({ length: n }, () => hex(80));
  f["ansible/host_vars/web1.yml"] = `ansible_host: web1.acme-corp.io
nginx_worker_processes: 4
db_password: !vault |
  $ANSIBLE_VAULT;1.1;AES256
  ${vaultLines(5).join("\n  ")}
api_token: !vault |
  $ANSIBLE_VAULT;1.2;AES256;prod
  ${vaultLines(4).join("\n  ")}
`;

  f["k8s/sealed-db.yaml"] = `apiVersion: bitnami.com/v1alpha1
kind: SealedSecret
metadata:
  name: db-credentials
  namespace: ledger
spec:
  encryptedData:
    password: Ag${b64(680)}==
    api-token: Ag${b64(680)}==
  template:
    metadata:
      name: db-credentials
    type: Opaque
`;

  f["k8s/external-secret.yaml"] = `apiVersion: external-secrets.io/v1beta1
kind: ExternalSecret
metadata:
  name: ledger-db
spec:
  refreshInterval: 1h
  secretStoreRef:
    name: aws-secrets-manager
    kind: ClusterSecretStore
  target:
    name: ledger-db
  data:
    - secretKey: password
      remoteRef:
        key: prod/ledger/db
        property: password
    - secretKey: api-token
      remoteRef:
        key: arn:aws:secretsmanager:eu-central-1:123456789012:secret:prod/ledger/api-${
    v.mixed(ALNUM, 6)
  }
`;

  f[".gitattributes"] = `*.png binary
secrets/** filter=git-crypt diff=git-crypt
config/credentials.env filter=git-crypt diff=git-crypt
`;

  // git-crypt's header, then ciphertext: what a clone without the key holds.
  f["secrets/credentials.env"] = "\u0000GITCRYPT\u0000" +
    Array.from({ length: 180 }, () => String.fromCharCode(v.int(0x80, 0xff))).join("") + "\n";

  // --- ids and digests ----------------------------------------------------------------------

  f["deploy/compose.yaml"] = `services:
  api:
    image: ghcr.io/acme-corp/ledger-api@sha256:${hex(64)}
    environment:
      DATABASE_PASSWORD_FILE: /run/secrets/db_password
      API_TOKEN: \${API_TOKEN:?set API_TOKEN in .env}
      SESSION_SECRET: \${SESSION_SECRET}
      REQUEST_ID_HEADER: X-Request-Id
    secrets:
      - db_password
  db:
    image: postgres:16.3@sha256:${hex(64)}
    environment:
      POSTGRES_PASSWORD_FILE: /run/secrets/db_password
    healthcheck:
      test: ["CMD-SHELL", "pg_isready -U postgres"]
secrets:
  db_password:
    file: ./secrets/db_password.txt
`;

  f["docs/RELEASING.md"] = `# Releasing

1. Tag the release commit: \`git tag -s v2.4.0 ${hex(40)}\`.
2. The build publishes \`ghcr.io/acme-corp/ledger-api:2.4.0\`
   (\`sha256:${hex(64)}\`); pin by digest in production:
   \`ghcr.io/acme-corp/ledger-api@sha256:${hex(64)}\`.
3. The run's id is \`${uuid()}\`; its trace is \`${ulid()}\`.
4. Nix users get it from \`/nix/store/${nixHash()}-ledger-api-2.4.0\`
   (narHash \`sha256-${b64(43)}=\`).
5. Check the archive: \`sha256sum -c SHA256SUMS\` must print \`OK\` for
   \`${hex(64)}  ledger-api-2.4.0.tar.gz\`.

Commit ${hex(7)} ("fix token refresh") and ${hex(12)} ("rotate signing key id") are in this
release; the previous one was ${hex(40)}.

Pin actions by commit: \`uses: actions/checkout@${hex(40)} # v4.1.6\`.
`;

  f["logs/worker.log"] = Array.from({ length: 8 }, (_, i) => {
    const ts = `2024-05-14T09:${String(10 + i).padStart(2, "0")}:${
      String(v.int(0, 59)).padStart(2, "0")
    }.${v.digits(3)}Z`;
    return v.pick([
      () =>
        `${ts} INFO job=${ulid()} request_id=${uuid()} trace_id=${hex(32)} span_id=${
          hex(16)
        } took=${v.int(3, 900)}ms`,
      () => `${ts} INFO login ok user_id=${v.int(1, 99999)} password=[FILTERED] token=***`,
      () => `${ts} WARN retrying upload object_key=uploads/2024/05/${uuid()}.pdf etag="${hex(32)}"`,
      () =>
        `${ts} INFO Authorization: Bearer [REDACTED] api_key=<redacted> session=${"*".repeat(12)}`,
      () => `${ts} DEBUG cache_key=session:${hex(40)} idempotency_key=${uuid()} hit=true`,
    ])();
  }).join("\n") + "\n";

  f["logs/rails-production.log"] = `I, [2024-05-14T09:12:44.123456 #${
    v.int(1000, 99999)
  }]  INFO -- : [${uuid()}] Started POST "/users/sign_in" for 127.0.0.1 at 2024-05-14 09:12:44 +0000
I, [2024-05-14T09:12:44.124000 #${
    v.int(1000, 99999)
  }]  INFO -- : [${uuid()}]   Parameters: {"authenticity_token"=>"[FILTERED]", "user"=>{"email"=>"[FILTERED]", "password"=>"[FILTERED]", "remember_me"=>"0"}, "commit"=>"Log in"}
I, [2024-05-14T09:12:44.150000 #${
    v.int(1000, 99999)
  }]  INFO -- : [${uuid()}] Completed 302 Found in 26ms (ActiveRecord: 3.1ms | Allocations: 4210)
`;

  f["terraform/plan.txt"] = `Terraform will perform the following actions:

  # aws_db_instance.ledger will be updated in-place
  ~ resource "aws_db_instance" "ledger" {
        id                     = "ledger"
      ~ password               = (sensitive value)
        username               = "ledger"
        kms_key_id             = "arn:aws:kms:eu-central-1:123456789012:key/${uuid()}"
        # (42 unchanged attributes hidden)
    }

  # random_password.api will be created
  + resource "random_password" "api" {
      + bcrypt_hash = (sensitive value)
      + id          = (known after apply)
      + length      = 32
      + result      = (sensitive value)
    }

Plan: 1 to add, 1 to change, 0 to destroy.
`;

  // --- fixtures with documented example values ----------------------------------------------

  f["tests/test_aws_config.py"] =
    `"""Parsing of AWS config files, with the example keys from AWS's own documentation."""

EXAMPLE_ACCESS_KEY_ID = "AKIAIOSFODNN7EXAMPLE"
EXAMPLE_SECRET_ACCESS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
OTHER_EXAMPLE_KEY_ID = "AKIAI44QH8DHBEXAMPLE"
OTHER_EXAMPLE_SECRET = "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"

# jwt.io's sample token (HS256, secret "your-256-bit-secret")
SAMPLE_JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"


def test_reads_profile(tmp_path):
    (tmp_path / "credentials").write_text(
        "[default]\\n"
        f"aws_access_key_id = {EXAMPLE_ACCESS_KEY_ID}\\n"
        f"aws_secret_access_key = {EXAMPLE_SECRET_ACCESS_KEY}\\n"
    )
    assert load(tmp_path).secret_key == EXAMPLE_SECRET_ACCESS_KEY
`;

  f["tests/fixtures/payments.json"] = `{
  "stripe": {
    "publishable_key": "pk_test_${v.mixed(ALNUM, 99)}",
    "secret_key": "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
    "test_cards": ["4242 4242 4242 4242", "4000 0566 5566 5556", "5555555555554444"]
  },
  "sepa": { "iban": "DE89 3704 0044 0532 0130 00", "other": "GB82 WEST 1234 5698 7654 32" },
  "customer": { "name": "Jane Doe", "email": "jane.doe@example.com", "phone": "+1 202-555-0143" },
  "ssn_examples": ["123-45-6789", "078-05-1120"],
  "api_key": "test-api-key",
  "webhook_secret": "whsec_test_secret_for_unit_tests",
  "password": "not-a-real-password"
}
`;

  f["tests/fixtures/emulators.env"] = `# Local emulators' published development credentials
AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;
COSMOS_EMULATOR_KEY=C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==
MINIO_ROOT_USER=minioadmin
MINIO_ROOT_PASSWORD=minioadmin
RABBITMQ_URL=amqp://guest:guest@localhost:5672/
`;

  f["tests/fixtures/fake_secrets.yaml"] = `# Obviously fake values for the redaction tests.
api_key: 0000000000000000000000000000000000000000
secret: deadbeefdeadbeefdeadbeefdeadbeef
token: 1234567890abcdef1234567890abcdef
client_secret: aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee
github_token: ghp_000000000000000000000000000000000000
slack_token: xoxb-not-a-real-token-this-will-not-work
aws_access_key_id: AKIAXXXXXXXXXXXXXXXX
stripe_key: sk_live_XXXXXXXXXXXXXXXXXXXXXXXX
password: dummy-password
db_password: fake_db_password_for_tests
`;

  f["docs/docker-quickstart.md"] = `# Running the stack locally

The images' own documentation uses these throwaway passwords; change them for anything shared.

\`\`\`sh
docker run --name some-postgres -e POSTGRES_PASSWORD=mysecretpassword -d postgres
docker run --name some-mysql -e MYSQL_ROOT_PASSWORD=my-secret-pw -d mysql:8.4
docker run -e "ACCEPT_EULA=Y" -e "MSSQL_SA_PASSWORD=yourStrong(!)Password" -p 1433:1433 -d mcr.microsoft.com/mssql/server:2022-latest
docker run -p 9000:9000 -e MINIO_ROOT_USER=minioadmin -e MINIO_ROOT_PASSWORD=minioadmin minio/minio server /data
\`\`\`

Or with compose:

\`\`\`yaml
services:
  db:
    image: postgres
    environment:
      POSTGRES_PASSWORD: example
\`\`\`

Redis's sample config ships with \`requirepass foobared\` commented out; leave it so.
`;

  // --- documentation with placeholders ------------------------------------------------------

  f["docs/api/authentication.md"] = `# Authentication

Every request carries a token in the \`Authorization\` header:

\`\`\`http
GET /v2/orders HTTP/1.1
Host: api.example.com
Authorization: Bearer <YOUR_TOKEN>
X-Api-Key: <your-api-key>
\`\`\`

Tokens look like \`lgr_live_\` followed by 40 characters (\`lgr_live_[A-Za-z0-9]{40}\`); test-mode
tokens start with \`lgr_test_\`. Shown once, then only as \`lgr_live_••••••••3f9a\`.

\`\`\`sh
export LEDGER_TOKEN=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
curl -H "Authorization: Bearer $LEDGER_TOKEN" https://api.example.com/v2/orders
curl -u "$LEDGER_USER:$LEDGER_PASSWORD" https://api.example.com/v2/orders
curl -u admin:**** https://api.example.com/v2/admin
curl https://user:<password>@api.example.com/v2/orders
\`\`\`

| setting          | example                                  |
| ---------------- | ---------------------------------------- |
| \`api_key\`        | \`REDACTED\`                               |
| \`password\`       | \`{{ secret }}\`                           |
| \`dsn\`            | \`postgres://ledger:%(password)s@db/ledger\` |
| \`token\`          | \`\${{ secrets.LEDGER_TOKEN }}\`            |
| \`client_secret\`  | \`ENV['LEDGER_CLIENT_SECRET']\`            |
| \`webhook_secret\` | \`os.environ["LEDGER_WEBHOOK_SECRET"]\`    |
| \`signing_key\`    | \`process.env.LEDGER_SIGNING_KEY\`         |
| \`db_password\`    | \`$PASSWORD\`                              |
| \`refresh_token\`  | \`********\`                               |
| \`secret_id\`      | \`op://Engineering/ledger/credential\`     |

A basic-auth header is \`Authorization: Basic base64(user:password)\`, for example
\`Authorization: Basic <base64-credentials>\`.

Send requests from 192.0.2.10 or 2001:db8::10 in the sandbox; production allows 203.0.113.0/24 and
198.51.100.0/24. Questions: support@example.com, or +1 (202) 555-0183.
`;

  f["docs/config-reference.md"] = `## Settings

\`\`\`ini
[database]
password = %(DB_PASSWORD)s
url = postgresql://ledger:\${DB_PASSWORD}@localhost/ledger

[smtp]
password = {{ vault_smtp_password }}
token = {env.SMTP_TOKEN}
\`\`\`

\`\`\`yaml
redis:
  password: \${REDIS_PASSWORD:-}
  url: redis://:\${REDIS_PASSWORD}@redis:6379/0
sentry:
  dsn: https://${hex(32)}@o${v.digits(6)}.ingest.sentry.io/${v.digits(7)}
\`\`\`

\`\`\`ruby
config.secret_key_base = ENV.fetch("SECRET_KEY_BASE")
config.api_token = Rails.application.credentials.dig(:ledger, :api_token)
\`\`\`

\`\`\`java
String password = System.getenv("DB_PASSWORD");
props.put("sasl.jaas.config", "... password=\\"" + System.getenv("KAFKA_PASSWORD") + "\\";");
\`\`\`

\`\`\`bat
set DB_PASSWORD=%DB_PASSWORD%
\`\`\`

Version 2.4.1.0 of the client, build 10.0.19045.4291; OID 1.3.6.1.4.1.311.21.7 marks the
template. Ports 8080-8089, netmask 255.255.255.0, default route 0.0.0.0/0, link-local fe80::/10.
`;

  // --- code that handles passwords without holding one --------------------------------------

  f["app/auth/views.py"] = `import os
import re
import secrets

from flask import request, abort
from werkzeug.security import generate_password_hash, check_password_hash

PASSWORD_MIN_LENGTH = 12
PASSWORD_PATTERN = r"^(?=.*[a-z])(?=.*[A-Z])(?=.*\\d)(?=.*[!@#$%^&*]).{12,}$"
STRONG_PASSWORD_RE = re.compile(r"^(?=.*[A-Z])(?=.*[0-9])(?=.*[#?!@$%^&*-]).{8,}$")
PASSWORD_RESET_URL = "/account/password/reset"
TOKEN_HEADER = "X-Ledger-Token"
API_KEY_HEADER = "X-Api-Key"
SECRET_NAME = "prod/ledger/api-key"


def register():
    password = request.form["password"]
    confirm_password = request.form["confirm_password"]
    if password != confirm_password:
        abort(400, "The passwords do not match.")
    if not re.match(PASSWORD_PATTERN, password):
        abort(400, "The password is too weak.")
    user.password_hash = generate_password_hash(password, method="scrypt")
    token = secrets.token_urlsafe(32)
    api_key = request.headers.get(API_KEY_HEADER)
    db_password = os.environ["DB_PASSWORD"]
    return {"token_type": "bearer", "expires_in": 3600}


def login():
    if not check_password_hash(user.password_hash, request.form.get("password", "")):
        abort(401)
`;

  f["app/src/auth.ts"] = `import { z } from "zod";

export const TOKEN_STORAGE_KEY = "ledger.auth.token";
export const PASSWORD_FIELD = "input[name=password]";
const SECRET_HEADER = "X-Hub-Signature-256";

export const signUp = z.object({
  email: z.string().email(),
  password: z.string().min(12).regex(/^(?=.*[A-Z])(?=.*\\d)(?=.*[^A-Za-z0-9]).+$/),
  confirmPassword: z.string(),
}).refine((v) => v.password === v.confirmPassword, { message: "Passwords differ" });

export async function handler(req: Request) {
  const { password, confirmPassword } = await req.json();
  if (password !== confirmPassword) return new Response("mismatch", { status: 400 });
  const dbPassword = process.env.DB_PASSWORD!;
  const apiKey = req.headers.get("x-api-key") ?? "";
  const token = localStorage.getItem(TOKEN_STORAGE_KEY);
  const signature = req.headers.get(SECRET_HEADER);
  return verify({ password, dbPassword, apiKey, token, signature });
}
`;

  f["app/src/main/java/com/acme/ledger/AuthConfig.java"] = `package com.acme.ledger;

@Configuration
public class AuthConfig {
    @Value("\${ledger.jwt.secret}")
    private String jwtSecret;

    private static final String PASSWORD_REGEX = "^(?=.*[0-9])(?=.*[a-z])(?=.*[A-Z])(?=.*[@#$%^&+=]).{8,}$";
    private static final String TOKEN_PREFIX = "Bearer ";
    private static final String API_KEY_PARAM = "api_key";

    @Bean
    PasswordEncoder passwordEncoder() {
        return new BCryptPasswordEncoder(12);
    }

    String dbPassword() {
        return System.getenv("DB_PASSWORD");
    }
}
`;

  f["app/android/app/build.gradle"] = `android {
    signingConfigs {
        release {
            storeFile file(System.getenv("KEYSTORE_PATH") ?: "release.jks")
            storePassword System.getenv("KEYSTORE_PASSWORD")
            keyAlias "release"
            keyPassword System.getenv("KEY_PASSWORD")
        }
    }
}
`;

  f[".github/workflows/release.yml"] = `name: release
on:
  push:
    tags: ["v*"]
jobs:
  publish:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@${hex(40)} # v4.1.6
      - uses: actions/setup-node@${hex(40)} # v4.0.2
        with:
          registry-url: https://registry.npmjs.org
      - run: npm publish --provenance
        env:
          NODE_AUTH_TOKEN: \${{ secrets.NPM_TOKEN }}
      - uses: docker/login-action@${hex(40)}
        with:
          registry: ghcr.io
          username: \${{ github.actor }}
          password: \${{ secrets.GITHUB_TOKEN }}
`;

  f["home/.npmrc"] = `registry=https://registry.npmjs.org/
//registry.npmjs.org/:_authToken=\${NPM_TOKEN}
@acme:registry=https://npm.pkg.github.com
//npm.pkg.github.com/:_authToken=\${GITHUB_PACKAGES_TOKEN}
`;

  f["home/.pypirc"] = `[distutils]
index-servers =
    pypi
    testpypi

[pypi]
username = __token__
password = <paste the token from https://pypi.org/manage/account/token/>

[testpypi]
repository = https://test.pypi.org/legacy/
username = __token__
`;

  f["home/.gitconfig"] = `[user]
	name = Release Bot
	email = release-bot@users.noreply.github.com
	signingkey = ${hex(16).toUpperCase()}
[gpg]
	format = openpgp
[url "git@github.com:"]
	insteadOf = https://github.com/
[credential]
	helper = osxkeychain
[credential "https://dev.azure.com"]
	useHttpPath = true
`;

  // --- translations and messages ------------------------------------------------------------

  f["app/config/locales/en.yml"] = `en:
  devise:
    passwords:
      send_instructions: "You will receive an email with instructions on how to reset your password in a few minutes."
      updated: "Your password has been changed successfully."
    failure:
      invalid_token: "Invalid authentication token."
  activerecord:
    attributes:
      user:
        password: "Password"
        password_confirmation: "Confirm password"
        api_token: "API token"
        secret_question: "Secret question"
    errors:
      models:
        user:
          attributes:
            password:
              too_short: "is too short (minimum is %{count} characters)"
`;

  f["app/src/i18n/de.json"] = `{
  "auth.password.label": "Passwort",
  "auth.password.placeholder": "Passwort eingeben",
  "auth.password.forgot": "Passwort vergessen?",
  "auth.apiKey.label": "API-Schlüssel",
  "settings.token.revoke": "Token widerrufen",
  "settings.secret.copy": "Geheimnis kopieren",
  "settings.twoFactor.recoveryCodes": "Wiederherstellungscodes"
}
`;

  f["app/src/main/resources/messages_fr.properties"] = `login.password=Mot de passe
login.password.forgot=Mot de passe oublié ?
login.token.expired=Votre jeton a expiré, reconnectez-vous.
account.apiKey.title=Clé d'API
account.secret.warning=Ne partagez jamais votre clé secrète.
`;

  // --- personal-data shapes that are not personal data --------------------------------------

  f["data/products.csv"] = "sku,isbn,ean,price,released_at,ts_ms,lat,lon,order_id\n" +
    Array.from({ length: 6 }, () => {
      const isbnBody = "978" + v.chars(DIGIT, 9);
      const isbnCheck = (10 - [...isbnBody].reduce(
            (s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3),
            0,
          ) % 10) % 10;
      const isbn = `${isbnBody.slice(0, 3)}-${isbnBody[3]}-${isbnBody.slice(4, 8)}-${
        isbnBody.slice(8)
      }-${isbnCheck}`;
      const eanBody = v.pick(["40", "50", "76", "87"]) + v.chars(DIGIT, 10);
      const eanCheck = (10 - [...eanBody].reduce(
            (s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3),
            0,
          ) % 10) % 10;
      const day = `2024-${String(v.int(1, 12)).padStart(2, "0")}-${
        String(v.int(1, 28)).padStart(2, "0")
      }`;
      const order = `${v.chars(DIGIT, 4)}-${v.chars(DIGIT, 4)}-${v.chars(DIGIT, 4)}`;
      return `${v.chars(UPPER, 3)}-${v.digits(5)},${isbn},${eanBody}${eanCheck},${v.int(1, 999)}.${
        v.digits(2)
      },${day},${v.int(1_700_000_000_000, 1_760_000_000_000)},${
        (v.int(-89_000_000, 89_000_000) / 1e6).toFixed(6)
      },${(v.int(-179_000_000, 179_000_000) / 1e6).toFixed(6)},ORD-${order}`;
    }).join("\n") + "\n";

  f["docs/networking.md"] = `# Network layout

| zone     | block           | gateway      | example host |
| -------- | --------------- | ------------ | ------------ |
| sandbox  | 192.0.2.0/24    | 192.0.2.1    | 192.0.2.25   |
| partners | 198.51.100.0/24 | 198.51.100.1 | 198.51.100.7 |
| public   | 203.0.113.0/24  | 203.0.113.1  | 203.0.113.80 |
| v6       | 2001:db8::/32   | 2001:db8::1  | 2001:db8:0:1::25 |

Services listen on 0.0.0.0:8080 and [::]:8080; health checks hit 127.0.0.1 and ::1. The subnet
mask is 255.255.255.0 and broadcasts go to 255.255.255.255. SNMP walks start at 1.3.6.1.2.1.1.

Clone with \`git clone git@github.com:acme-corp/ledger.git\` or
\`ssh://git@gitlab.example.com:2222/acme/ledger.git\`; copy backups with
\`scp backup@files.acme-corp.io:/srv/backup/latest.tar .\` and \`rsync -a deploy@web1.acme-corp.io:/var/log/ledger/ logs/\`.
Install \`npm i @acme/ui@2.3.0 lodash@4.17.21\`; the image is \`node@sha256:${hex(64)}\`.

The on-call rota is in the wiki; the switchboard's test line is +1-202-555-0100 and the fax
+44 20 7946 0958 (Ofcom's drama range). Times are UTC+02:00; the change window is
2024-05-14 22:00 to 2024-05-15 02:00, ticket CHG-2024-05-0042.
`;

  // --- values marked as allowed inline, in every spelling the docs give ----------------------

  f["config/.env.ci"] = `# fixtures for the CI job
GITHUB_TOKEN=${ghp()} # gitleaks:allow
AWS_SECRET_ACCESS_KEY=${awsSecret()} # pragma: allowlist secret
DB_PASSWORD=${chosenPassword()}  # wisp:allow throwaway database in the CI container
# wisp:allow-next-line
SESSION_SECRET=${longSecret()}
# pragma: allowlist nextline secret
WEBHOOK_SECRET=${longSecret()}
`;

  f["config/settings_test.py"] = `SECRET_KEY = "${longSecret()}"  # pragma: allowlist secret
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "PASSWORD": "${chosenPassword()}",  # gitleaks:allow CI service container
    }
}
`;

  f["config/client.test.ts"] = `// wisp:allow-next-line
const token = "${ghp()}";
const password = "${chosenPassword()}"; // gitleaks:allow
const secret = "${longSecret()}"; /* pragma: allowlist secret */
`;

  f["config/values.test.yaml"] = `auth:
  # pragma: allowlist nextline secret
  clientSecret: ${longSecret()}
  password: ${chosenPassword()} # wisp:allow chart test values
`;

  f["config/fixture.html"] = `<form>
  <input name="token" value="${ghp()}"> <!-- gitleaks:allow -->
  <!-- wisp:allow-next-line -->
  <input name="password" value="${chosenPassword()}">
</form>
`;

  f["config/seed.sql"] =
    `INSERT INTO settings (name, value) VALUES ('smtp_password', '${chosenPassword()}'); -- gitleaks:allow
-- wisp:allow-next-line
INSERT INTO settings (name, value) VALUES ('api_token', '${longSecret()}');
`;

  f["config/legacy.ini"] = `[smtp]
password = ${chosenPassword()} ; pragma: allowlist secret
; wisp:allow-next-line
api_key = ${longSecret()}
`;

  f["config/init.lua"] = `local token = "${ghp()}" -- gitleaks:allow
-- pragma: allowlist nextline secret
local password = "${chosenPassword()}"
`;

  f["config/deploy.bat"] = `@echo off
set API_TOKEN=${longSecret()}& REM wisp:allow test runner only
set DB_PASSWORD=${chosenPassword()} & REM gitleaks:allow
`;

  f["config/Settings.vb"] =
    `Public Const ApiToken As String = "${longSecret()}" ' pragma: allowlist secret
' wisp:allow-next-line
Public Const DbPassword As String = "${chosenPassword()}"
`;

  f["config/sys.config"] = `[{ledger, [
  {api_secret, "${longSecret()}"}, % gitleaks:allow
  % wisp:allow-next-line
  {db_password, "${chosenPassword()}"}
]}].
`;

  f["config/spellings.env"] =
    `# the spellings detect-secrets and gitleaks accept besides the usual ones
STRIPE_KEY=${"sk_live_" + v.mixed(ALNUM, 24)} #gitleaks:allow
SMTP_PASSWORD=${chosenPassword()} # pragma:allowlist secret
SIGNING_SECRET=${longSecret()} # pragma: allowlist-secret
LEGACY_TOKEN=${ghp()} # pragma: whitelist secret
`;

  f["config/theme.css"] = `:root {
  --map-token: "${ghp()}"; /* gitleaks:allow demo page only */
}
`;

  f["config/email.html.j2"] = `{# wisp:allow-next-line #}
{% set api_key = "${longSecret()}" %}
<p>{{ api_key | truncate(4) }}</p>
`;

  f["config/multiline_test.py"] = `CLIENT_SECRET = (  # gitleaks:allow
    "${longSecret()}"  # gitleaks:allow
)
# wisp:allow-next-line
PASSWORDS = {"ci": "${chosenPassword()}", "qa": "${chosenPassword()}"}
`;

  f["changes/ci-fixture.patch"] = `diff --git a/ci/.env.test b/ci/.env.test
index ${hex(7)}..${hex(7)} 100644
--- a/ci/.env.test
+++ b/ci/.env.test
@@ -1,3 +1,3 @@
 NODE_ENV=test
-API_TOKEN=${ghp()} # gitleaks:allow
+API_TOKEN=${ghp()} # gitleaks:allow
 DB_HOST=localhost
`;

  return f;
}
