/**
 * Passwords told in a sentence, as chat exports, mails and tickets hold them: `staging db pw is
 * …`, `the password was …`. A sentence names the value by `is`/`was` rather than by `=` or `:`,
 * which the assignment reader leaves alone; here the value must look chosen (long enough, letters
 * with digits or symbols), so `the password is in the vault` is not read.
 */
import type { Rule } from "./types.ts";
import { PRIORITY, regexRule } from "./regex_rule.ts";
import { isPlaceholder, isTemplateReference, isWellKnownPassword } from "./allowlist.ts";
import { classCount, shannonEntropy } from "./entropy.ts";

/** A password written into a sentence: eight or more characters of at least two kinds, one a digit or symbol. */
function toldPassword(value: string): boolean {
  return value.length >= 8 && classCount(value) >= 2 && /[^A-Za-z]/.test(value) &&
    /[A-Za-z]/.test(value) && !/^[$%{<]/.test(value) && !isPlaceholder(value) &&
    !isTemplateReference(value) && !isWellKnownPassword(value) && shannonEntropy(value) >= 2.5 &&
    // A URL, a path or a host is where a password is, not what it is.
    !/^(?:https?:|\/|\.\/|~\/)|^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/i.test(value);
}

/** `password is …`, `pw was …` in running text, the value quoted or ending at a space or a stop. */
export const toldPasswordRule: Rule = regexRule({
  kind: "password",
  pattern:
    /\b(?:[Pp]assword|PASSWORD|[Pp]asswd|[Pp]assphrase|pw|PW)[ \t]+(?:is|was|is now)[ \t]+(["'`]?)([^\s"'`]+?)\1(?=[.,;!?)]?(?:\s|$|\\n|"))/gd,
  group: 2,
  keywords: ["assword is", "assword was", "asswd is", "assphrase is", "pw is", "PW is", "pw was"],
  priority: PRIORITY.header,
  validate: (v) => toldPassword(v),
});
