/**
 * Provider tokens that carry their own mark: a fixed prefix (`pplx-`, `glc_`, `HRKU-AA`), a fixed
 * shape around a marker (`…Q~…`, `….atlasv1.…`, `…-us12`), and a length and alphabet the provider
 * documents. Each row is written from the provider's published format (docs/secrets.md lists them
 * beside the gitleaks rule each answers); the value must be random past its prefix, so a
 * placeholder of the right shape is not reported.
 */
import type { Candidate, Rule } from "./types.ts";
import { PRIORITY, regexRule } from "./regex_rule.ts";
import { isPlaceholder } from "./allowlist.ts";
import { classCount, shannonEntropy } from "./entropy.ts";

/** Random enough to be generated: `minBits` per character over the part after any prefix. */
export function randomPart(value: string, prefixLength: number, minBits = 3): boolean {
  const rest = value.slice(prefixLength);
  return !isPlaceholder(value) && shannonEntropy(rest) >= minBits;
}

/** kind, pattern (the whole match is the value), literal prefixes, characters shown in previews. */
type Row = [string, RegExp, string[], number];

/**
 * Tokens found where their prefix is (the scanner's one pass finds every prefix). A pattern's
 * look-behind keeps a prefix inside a longer word from counting.
 */
const PREFIXED: Row[] = [
  [
    "discord-webhook",
    /https:\/\/(?:discord|discordapp)\.com\/api\/webhooks\/\d{10,25}\/[A-Za-z0-9_-]{40,}/g,
    ["https://discord.com/api/webhooks/", "https://discordapp.com/api/webhooks/"],
    34,
  ],
  [
    // A Google Chat space's incoming webhook: the key is the same in every such URL, the token
    // is the space's secret; the whole URL is one finding.
    "google-chat-webhook",
    /https:\/\/chat\.googleapis\.com\/v1\/spaces\/[A-Za-z0-9_-]+\/messages\?key=[A-Za-z0-9_-]{39}&token=[A-Za-z0-9_-]{40,}(?:%3D|=)?/g,
    ["https://chat.googleapis.com/v1/spaces/"],
    38,
  ],
  ["gcp-oauth-client-secret", /GOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])/g, ["GOCSPX-"], 7],
  ["gcp-oauth-token", /ya29\.[A-Za-z0-9_-]{30,}/g, ["ya29."], 5],
  ["shopify-token", /shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}(?![A-Za-z0-9])/g, [
    "shpat_",
    "shpss_",
    "shpca_",
    "shppa_",
  ], 6],
  ["digitalocean-token", /do[opr]_v1_[a-f0-9]{64}(?![A-Za-z0-9])/g, [
    "dop_v1_",
    "doo_v1_",
    "dor_v1_",
  ], 7],
  ["vault-token", /hv[sbr]\.[A-Za-z0-9_-]{24,}(?![A-Za-z0-9_-])/g, ["hvs.", "hvb.", "hvr."], 4],
  ["docker-hub-token", /dckr_pat_[A-Za-z0-9_-]{27,}(?![A-Za-z0-9_-])/g, ["dckr_pat_"], 9],
  ["postman-api-key", /PMAK-[a-f0-9]{24}-[a-f0-9]{34}(?![A-Za-z0-9])/g, ["PMAK-"], 5],
  ["linear-api-key", /lin_api_[A-Za-z0-9]{40}(?![A-Za-z0-9])/g, ["lin_api_"], 8],
  [
    "square-token",
    /sq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}(?![A-Za-z0-9_-])/g,
    ["sq0atp-", "sq0csp-"],
    7,
  ],
  ["databricks-token", /dapi[a-f0-9]{32}(?:-\d)?(?![A-Za-z0-9])/g, ["dapi"], 4],
  ["grafana-token", /glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}(?![A-Za-z0-9])/g, ["glsa_"], 5],
  ["age-secret-key", /AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}/g, [
    "AGE-SECRET-KEY-1",
  ], 15],
  [
    "onepassword-secret-key",
    /(?<![A-Za-z0-9-])A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}(?![A-Za-z0-9])/g,
    ["A3-"],
    3,
  ],
  ["onepassword-service-token", /ops_eyJ[A-Za-z0-9+/]{250,}={0,3}/g, ["ops_eyJ"], 4],
  ["adobe-client-secret", /(?<![A-Za-z0-9_-])p8e-[A-Za-z0-9]{32}(?![A-Za-z0-9])/g, ["p8e-"], 4],
  ["alibaba-access-key-id", /(?<![A-Za-z0-9])LTAI[A-Za-z0-9]{20}(?![A-Za-z0-9])/g, ["LTAI"], 4],
  [
    "artifactory-token",
    /(?<![A-Za-z0-9])(?:AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59})(?![A-Za-z0-9])/g,
    ["AKCp", "cmVmd"],
    4,
  ],
  ["atlassian-api-token", /(?<![A-Za-z0-9])ATATT3[A-Za-z0-9_=-]{180,200}(?![A-Za-z0-9_=-])/g, [
    "ATATT3",
  ], 6],
  [
    "authress-access-key",
    /(?<![A-Za-z0-9_])(?:sc|ext|scauth|authress)_[a-z0-9]{5,30}\.[a-z0-9]{4,6}\.acc[_-][a-z0-9-]{10,32}\.[A-Za-z0-9+/_=-]{30,120}/g,
    ["sc_", "ext_", "scauth_", "authress_"],
    3,
  ],
  ["clickhouse-api-secret", /(?<![A-Za-z0-9])4b1d[A-Za-z0-9]{38}(?![A-Za-z0-9])/g, ["4b1d"], 4],
  ["clojars-token", /(?<![A-Za-z0-9])CLOJARS_[A-Za-z0-9]{60}(?![A-Za-z0-9])/g, ["CLOJARS_"], 8],
  ["cloudflare-origin-ca-key", /(?<![A-Za-z0-9.])v1\.0-[a-f0-9]{24}-[a-f0-9]{146}(?![a-f0-9])/g, [
    "v1.0-",
  ], 5],
  [
    "doppler-token",
    /(?<![A-Za-z0-9])dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}(?![A-Za-z0-9])/g,
    ["dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."],
    6,
  ],
  ["duffel-token", /duffel_(?:test|live)_[A-Za-z0-9_=-]{43}(?![A-Za-z0-9_=-])/g, [
    "duffel_test_",
    "duffel_live_",
  ], 12],
  ["dynatrace-token", /dt0c01\.[A-Z0-9]{24}\.[A-Za-z0-9]{64}(?![A-Za-z0-9])/g, ["dt0c01."], 7],
  ["easypost-token", /(?<![A-Za-z0-9])EZ[AT]K[A-Za-z0-9]{54}(?![A-Za-z0-9])/g, ["EZAK", "EZTK"], 4],
  ["facebook-access-token", /(?<![A-Za-z0-9])EAA[MC][A-Za-z0-9]{100,}(?![A-Za-z0-9])/g, [
    "EAAM",
    "EAAC",
  ], 4],
  ["square-token", /(?<![A-Za-z0-9])EAAA[A-Za-z0-9_-]{56,60}(?![A-Za-z0-9_-])/g, ["EAAA"], 4],
  ["flutterwave-secret-key", /FLWSECK(?:_TEST)?-[a-h0-9]{32}-X/g, ["FLWSECK-", "FLWSECK_TEST-"], 8],
  [
    "flyio-token",
    /(?<![A-Za-z0-9_])(?:fo1_[A-Za-z0-9_-]{43}|fm1[ar]_[A-Za-z0-9+/]{100,}={0,3}|fm2_[A-Za-z0-9+/]{100,}={0,3})/g,
    ["fo1_", "fm1a_", "fm1r_", "fm2_"],
    4,
  ],
  ["frameio-token", /fio-u-[A-Za-z0-9_=-]{64}(?![A-Za-z0-9_=-])/g, ["fio-u-"], 6],
  [
    "grafana-token",
    /(?<![A-Za-z0-9])(?:eyJrIjoi[A-Za-z0-9]{70,400}={0,3}|glc_[A-Za-z0-9+/]{32,400}={0,3})(?![A-Za-z0-9+/=])/g,
    ["eyJrIjoi", "glc_"],
    4,
  ],
  [
    "harness-token",
    /(?<![A-Za-z0-9_])(?:pat|sat)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}(?![A-Za-z0-9])/g,
    ["pat.", "sat."],
    4,
  ],
  ["heroku-api-key", /(?<![A-Za-z0-9])HRKU-AA[A-Za-z0-9_-]{58}(?![A-Za-z0-9_-])/g, ["HRKU-AA"], 7],
  ["infracost-token", /(?<![A-Za-z0-9_-])ico-[A-Za-z0-9]{32}(?![A-Za-z0-9])/g, ["ico-"], 4],
  [
    "intra42-client-secret",
    /s-s4t2(?:ud|af)-[a-f0-9]{64}(?![a-f0-9])/g,
    ["s-s4t2ud-", "s-s4t2af-"],
    9,
  ],
  ["jwt", /(?<![A-Za-z0-9+/])ZXlKaGJHY2lPaU[A-Za-z0-9+/]{40,}={0,2}/g, ["ZXlKaGJHY2lPaU"], 4],
  ["mapbox-secret-token", /(?<![A-Za-z0-9])sk\.eyJ[A-Za-z0-9_-]{40,}\.[A-Za-z0-9_-]{20,}/g, [
    "sk.eyJ",
  ], 3],
  [
    "new-relic-key",
    /(?<![A-Za-z0-9])(?:NRAK-[A-Z0-9]{27}|NRII-[A-Za-z0-9-]{32}|NRJS-[a-f0-9]{19})(?![A-Za-z0-9])/g,
    ["NRAK-", "NRII-", "NRJS-"],
    5,
  ],
  [
    "notion-token",
    /(?<![A-Za-z0-9_])(?:ntn_\d{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43})(?![A-Za-z0-9])/g,
    ["ntn_", "secret_"],
    4,
  ],
  ["octopus-deploy-key", /(?<![A-Za-z0-9_-])API-[A-Z0-9]{26}(?![A-Za-z0-9])/g, ["API-"], 4],
  ["openshift-token", /sha256~[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g, ["sha256~"], 7],
  ["perplexity-api-key", /(?<![A-Za-z0-9_-])pplx-[A-Za-z0-9]{48}(?![A-Za-z0-9])/g, ["pplx-"], 5],
  ["planetscale-token", /pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}(?![A-Za-z0-9_=.-])/g, [
    "pscale_tkn_",
    "pscale_oauth_",
    "pscale_pw_",
  ], 7],
  ["prefect-api-key", /(?<![A-Za-z0-9_])pnu_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g, ["pnu_"], 4],
  ["pulumi-token", /(?<![A-Za-z0-9_-])pul-[a-f0-9]{40}(?![A-Za-z0-9])/g, ["pul-"], 4],
  ["readme-api-key", /(?<![A-Za-z0-9_])rdme_[a-z0-9]{70}(?![A-Za-z0-9])/g, ["rdme_"], 5],
  ["rubygems-token", /(?<![A-Za-z0-9_])rubygems_[a-f0-9]{48}(?![A-Za-z0-9])/g, ["rubygems_"], 9],
  ["scalingo-token", /(?<![A-Za-z0-9_-])tk-us-[A-Za-z0-9_-]{48}(?![A-Za-z0-9_-])/g, ["tk-us-"], 6],
  [
    "brevo-api-key",
    /(?<![A-Za-z0-9_-])x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}(?![A-Za-z0-9])/g,
    ["xkeysib-", "xsmtpsib-"],
    8,
  ],
  [
    "sentry-token",
    /(?<![A-Za-z0-9_])(?:sntryu_[a-f0-9]{64}|sntrys_eyJ[A-Za-z0-9+/=_]{60,})(?![A-Za-z0-9])/g,
    ["sntryu_", "sntrys_"],
    7,
  ],
  ["settlemint-token", /(?<![A-Za-z0-9_])sm_(?:aat|pat|sat)_[A-Za-z0-9]{16}(?![A-Za-z0-9])/g, [
    "sm_aat_",
    "sm_pat_",
    "sm_sat_",
  ], 7],
  ["shippo-token", /shippo_(?:live|test)_[a-f0-9]{40}(?![A-Za-z0-9])/g, [
    "shippo_live_",
    "shippo_test_",
  ], 12],
  [
    "sourcegraph-token",
    /(?<![A-Za-z0-9_])sgp_(?:(?:[a-f0-9]{16}|local)_)?[a-f0-9]{40}(?![A-Za-z0-9])/g,
    ["sgp_"],
    4,
  ],
  ["typeform-token", /(?<![A-Za-z0-9_])tfp_[A-Za-z0-9_.=-]{59}(?![A-Za-z0-9_.=-])/g, ["tfp_"], 4],
  ["yandex-api-key", /(?<![A-Za-z0-9])AQVN[A-Za-z0-9_-]{35,38}(?![A-Za-z0-9_-])/g, ["AQVN"], 4],
  [
    "dropbox-token",
    /(?<![A-Za-z0-9_.-])sl\.[A-Za-z0-9_=-]{130,140}(?![A-Za-z0-9_=-])/g,
    ["sl."],
    3,
  ], // Amazon Bedrock API keys: long-lived ones are `ABSK` + base64 of "BedrockAPIKey-…", short-lived
  // ones `bedrock-api-key-` + base64 of a presigned "bedrock.amazonaws.com" URL.
  [
    "aws-bedrock-api-key",
    /(?<![A-Za-z0-9+/])(?:ABSKQmVkcm9ja0FQSUtleS[A-Za-z0-9+/]{100,270}|bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/]{100,})={0,2}(?![A-Za-z0-9+/=])/g,
    ["ABSKQmVkcm9ja0FQSUtleS", "bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t"],
    4,
  ],
  // SonarQube and SonarCloud: user, project and global analysis tokens.
  [
    "sonar-token",
    /(?<![A-Za-z0-9_])sq[upa]_[a-f0-9]{40}(?![A-Za-z0-9])/g,
    ["squ_", "sqp_", "sqa_"],
    4,
  ],
  // Contentful's content-management personal access tokens.
  [
    "contentful-token",
    /(?<![A-Za-z0-9_-])CFPAT-[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g,
    ["CFPAT-"],
    6,
  ],
  // Defined Networking (managed Nebula) API keys.
  [
    "defined-networking-token",
    /(?<![A-Za-z0-9_-])dnkey-[a-z0-9=_-]{26}-[a-z0-9=_-]{52}(?![A-Za-z0-9=_-])/g,
    ["dnkey-"],
    6,
  ],
  // Plaid access tokens name their environment, then a UUID.
  [
    "plaid-access-token",
    /(?<![A-Za-z0-9_-])access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![A-Za-z0-9])/g,
    ["access-sandbox-", "access-development-", "access-production-"],
    7,
  ],
];

/**
 * Tokens whose mark is not at their start (a separator inside, a suffix): the rule runs over the
 * text only when its marker occurs.
 */
const MARKED: Row[] = [
  // Prefixes too short or too common to look for everywhere (`pat` starts "path", `key-` many
  // kebab-case names): these run only where the vendor or the tool is named, as gitleaks' do.
  // Airtable personal access tokens: `pat`, a 14-character id, a dot, 64 hex digits.
  [
    "airtable-token",
    /(?<![A-Za-z0-9])pat[A-Za-z0-9]{14}\.[a-f0-9]{64}(?![A-Za-z0-9])/g,
    ["airtable", "Airtable", "AIRTABLE"],
    3,
  ],
  // Mailgun's private API keys (`pubkey-…` is the public validation key, and is not matched).
  [
    "mailgun-api-key",
    /(?<![A-Za-z0-9_-])key-[a-f0-9]{32}(?![A-Za-z0-9])/g,
    ["mailgun", "Mailgun", "MAILGUN"],
    4,
  ],
  // crates.io API tokens, as `cargo login` stores them in credentials.toml.
  [
    "crates-io-token",
    /(?<![A-Za-z0-9])cio[A-Za-z0-9]{32}(?![A-Za-z0-9])/g,
    ["cargo", "CARGO", "crates", "[registr"],
    3,
  ],
  [
    "azure-ad-client-secret",
    /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g,
    ["Q~"],
    0,
  ],
  [
    "terraform-cloud-token",
    /(?<![A-Za-z0-9])[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}(?![A-Za-z0-9_=-])/g,
    [".atlasv1."],
    0,
  ],
  ["maxmind-license-key", /(?<![A-Za-z0-9_])[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk(?![A-Za-z0-9_])/g, [
    "_mmk",
  ], 0],
  [
    "telegram-bot-token",
    // Alone, or in the Bot API's URL, `https://api.telegram.org/bot<token>/sendMessage`.
    /(?:(?<=\/bot)|(?<![A-Za-z0-9]))\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/g,
    [":AA"],
    0,
  ],
  ["twitter-bearer-token", /(?<![A-Za-z0-9%])A{22}[A-Za-z0-9%]{80,100}(?![A-Za-z0-9%])/g, [
    "AAAAAAAAAAAAAAAAAAAAAA",
  ], 0],
  [
    "microsoft-teams-webhook",
    /https:\/\/[a-z0-9-]+\.webhook\.office\.com\/webhookb2\/[A-Za-z0-9@\/-]{100,}/g,
    ["webhook.office.com/webhookb2/"],
    0,
  ],
];

/**
 * Tokens whose marker sits a little way in (`…-us12`, `…AAAAAAAAAA…`) and is common enough in
 * ordinary text that running the pattern over a whole file on each occurrence would cost a pass:
 * the scanner's one pass finds the marker, the rule walks back over the characters a token is made
 * of to where it starts, and tries the pattern there.
 */
const BACK_MARKED: [string, RegExp, string, RegExp][] = [
  [
    "mailchimp-api-key",
    /(?<![A-Za-z0-9])[a-f0-9]{32}-us\d{1,2}(?![A-Za-z0-9])/y,
    "-us",
    /[a-f0-9]/,
  ],
  [
    "dropbox-token",
    /(?<![A-Za-z0-9])[A-Za-z0-9]{11}A{10}[A-Za-z0-9_=-]{43}(?![A-Za-z0-9_=-])/y,
    "AAAAAAAAAA",
    /[A-Za-z0-9]/,
  ],
];

function backMarkedRule([kind, sticky, marker, back]: [string, RegExp, string, RegExp]): Rule {
  return {
    id: kind,
    category: "credential",
    anchors: [marker],
    find(text: string): Candidate[] {
      const out: Candidate[] = [];
      for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + 1)) {
        const c = this.matchAt!(text, at, { thorough: false, extension: "" });
        if (c && !out.some((o) => o.start === c.start)) out.push(c);
      }
      return out;
    },
    matchAt(text: string, position: number): Candidate | null {
      let start = position;
      while (start > 0 && position - start < 64 && back.test(text[start - 1])) start--;
      // The marker itself may be part of the run (a run of A's): try from the run's start only.
      sticky.lastIndex = start;
      const m = sticky.exec(text);
      if (!m || m.index + m[0].length <= position) return null;
      if (!randomPart(m[0], 0) || classCount(m[0]) < 2) return null;
      return {
        kind,
        category: "credential",
        start: m.index,
        end: m.index + m[0].length,
        priority: PRIORITY.specific,
        visible: 0,
      };
    },
  };
}

/** Where a value's random part starts: after its prefix, or its first separator for marked ones. */
function prefixLength(value: string, anchors: string[]): number {
  const anchor = anchors.find((a) => value.startsWith(a));
  return anchor ? anchor.length : 0;
}

export const PROVIDER_RULES: Rule[] = [
  ...PREFIXED.map(([kind, pattern, anchors, visible]) =>
    regexRule({
      kind,
      pattern,
      anchors,
      visible,
      validate: (v) => randomPart(v, prefixLength(v, anchors)) && classCount(v) >= 2,
    })
  ),
  ...BACK_MARKED.map(backMarkedRule),
  ...MARKED.map(([kind, pattern, keywords, visible]) =>
    regexRule({
      kind,
      pattern,
      keywords,
      visible,
      validate: (v) => randomPart(v, 0) && classCount(v) >= 2,
    })
  ),
];
