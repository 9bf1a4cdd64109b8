/**
 * Private key blocks: PEM (PKCS#1, PKCS#8, EC, DSA, encrypted), OpenSSH and
 * PGP. The span is the whole block, header to footer. A block whose body is
 * a stand-in (`...`, `<key>`) or too short to be a key is not reported; a
 * block cut off before its footer (a truncated log) still is, when enough
 * body follows. A key inside a GCP service-account JSON is reported as that.
 */
import type { Candidate, Rule } from "./types.ts";
import { PRIORITY } from "./regex_rule.ts";
import { isRepetitive } from "./entropy.ts";

const BEGIN = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----/g;
/** The furthest a footer may be from its header (a 16k-bit RSA key is ~12 KiB). */
const MAX_BLOCK = 64 * 1024;
/** Fewer base64 characters than this cannot be a key. */
const MIN_BODY = 64;

function kindOf(label: string, block: boolean, text: string, start: number): string {
  if (block || label.includes("PGP")) return "pgp-private-key";
  if (label.includes("OPENSSH")) return "openssh-private-key";
  const before = text.slice(Math.max(0, start - 40), start);
  if (/"private_key"\s*:\s*"$/.test(before)) {
    const context = text.slice(Math.max(0, start - 4096), start);
    if (context.includes("service_account")) return "gcp-service-account";
  }
  return "private-key";
}

/** The body's base64 characters, once JSON escapes, quotes and headers are removed. */
function keyBodyCharacters(body: string): number {
  const cleaned = body
    .replace(/\\n|\\r/g, "\n")
    .split("\n")
    .filter((line) => !/^\s*[A-Za-z-]+:\s/.test(line)) // Proc-Type:, Version:, Comment:
    .join("")
    .replace(/[^A-Za-z0-9+/=]/g, "");
  return cleaned.length;
}

export const privateKeyRule: Rule = {
  id: "private-key",
  category: "credential",
  keywords: ["PRIVATE KEY"],
  find(text: string): Candidate[] {
    const out: Candidate[] = [];
    const begin = BEGIN; // shared, so it stays compiled (see generic.ts)
    begin.lastIndex = 0;
    let match: RegExpExecArray | null;
    while ((match = begin.exec(text)) !== null) {
      const label = match[1] ?? "";
      const block = match[2] !== undefined;
      const bodyStart = match.index + match[0].length;
      const footer = `-----END ${label}PRIVATE KEY${block ? " BLOCK" : ""}-----`;
      const limit = Math.min(text.length, bodyStart + MAX_BLOCK);
      const footerAt = text.indexOf(footer, bodyStart);
      let end: number;
      let body: string;
      if (footerAt !== -1 && footerAt < limit) {
        body = text.slice(bodyStart, footerAt);
        end = footerAt + footer.length;
      } else {
        // No footer: take the base64 lines that follow, as far as they go.
        const tail = /^(?:(?:\\n|\r?\n)[ \t]*[A-Za-z0-9+/=]{16,}[ \t]*)+/.exec(
          text.slice(bodyStart, limit),
        );
        if (!tail) continue;
        body = tail[0];
        end = bodyStart + body.length;
      }
      if (/\.\.\.|\u2026|<[^>]*>|\$\{|\{\{|EXAMPLE|xxxxxxxx|XXXXXXXX/.test(body)) continue;
      if (isRepetitive(body.replace(/[^A-Za-z0-9+/]/g, ""))) continue;
      if (keyBodyCharacters(body) < MIN_BODY) continue;
      out.push({
        kind: kindOf(label, block, text, match.index),
        category: "credential",
        start: match.index,
        end,
        priority: PRIORITY.specific,
        visible: match[0].length, // the header is public; the body is not
      });
      begin.lastIndex = end;
    }
    return out;
  },
};
