/**
 * markdownlint-cli's lines: `docs/a.md:7:27 error MD009/no-trailing-spaces
 * Trailing spaces [Expected: 0 or 2; Actual: 3]` — a place (its column only
 * where the rule has one), the level (older versions print none: an error),
 * the rule's code and names, and the description with its bracketed facts.
 * The same shape comes from markdownlint-cli2's default formatter.
 */
import { type Finding, finding } from "../findings.ts";
import { NO_CONTEXT, type ReadContext, type Reader, shapeOf } from "./reader.ts";
import { DOT, isDigit, isLower, isUpper, SLASH, UNDERSCORE } from "../chars.ts";

const LINE = /^(\S[^:]*?):(\d+)(?::(\d+))? (?:(error|warning) )?(MD\d{3})((?:\/[\w-]+)+) (.*)$/;

function readMarkdownlint(lines: string[], ctx: ReadContext = NO_CONTEXT): Finding[] {
  const out: Finding[] = [];
  const shape = shapeOf(lines, ctx);
  for (let i = 0; i < lines.length; i++) {
    // A path starts the line: a letter, a digit, `.`, `/` or `_` (not a rule, a bullet, a space).
    const c = shape.first[i];
    if (!isLower(c) && !isUpper(c) && !isDigit(c) && c !== DOT && c !== SLASH && c !== UNDERSCORE) {
      continue;
    }
    const line = lines[i];
    if (!line.includes(" MD")) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    ctx.explain(i);
    const place = m[3] ? `${m[1]}:${m[2]}:${m[3]}` : `${m[1]}:${m[2]}`;
    out.push(
      finding(m[4] === "warning" ? "warning" : "error", `${m[7]} (${m[5]}${m[6]})`, {
        location: place,
        at: i,
      }),
    );
  }
  return out;
}

export const markdownlint: Reader = { name: "markdownlint", read: readMarkdownlint };
