/**
 * Where a search tool looks: the path the model gave, resolved from the
 * working directory, checked to exist, and passed through the same gate
 * read_file uses when it names a credential path (the gate fails closed when
 * there is no gate to ask).
 */
import { resolve } from "node:path";
import { isCredentialPath } from "../../util/credential_paths.ts";
import type { ToolContext } from "../tool.ts";
import { quoteWord } from "../../util/shell_words.ts";

export interface SearchTarget {
  /** Absolute path as given (resolved against cwd). */
  absolute: string;
  /** Its real path. */
  real: string;
  isFile: boolean;
}

/**
 * Whether a search of `given` (from `cwd`) names a credential path, given or
 * real, and so asks the gate first: the search tools' `gatesBeforeEffect`,
 * and the test searchTarget itself makes. A path that does not resolve asks
 * nothing (the search fails on it).
 */
export function namesCredentialPath(given: string | undefined, cwd: string): boolean {
  const absolute = resolve(cwd, given ?? ".");
  if (isCredentialPath(absolute)) return true;
  try {
    return isCredentialPath(Deno.realPathSync(absolute));
  } catch {
    return false;
  }
}

export async function searchTarget(
  given: string | undefined,
  ctx: ToolContext,
  tool: string,
  approvalLine: (quotedPath: string) => string,
): Promise<SearchTarget | { error: string }> {
  const absolute = resolve(ctx.cwd, given ?? ".");
  let real: string;
  let info: Deno.FileInfo;
  try {
    real = Deno.realPathSync(absolute);
    info = Deno.statSync(real);
  } catch {
    return {
      error: `${given ?? absolute} does not exist; give a path from ${ctx.cwd} or an absolute one`,
    };
  }
  if (namesCredentialPath(given, ctx.cwd)) {
    if (!ctx.gate) {
      return {
        error:
          `${tool} of a credential path needs the person's approval, and no one can be asked here`,
      };
    }
    const verdict = await ctx.gate.check(approvalLine(quoteWord(given ?? absolute)), {
      cwd: ctx.cwd,
      root: ctx.root,
      origin: "model",
    });
    if (!verdict.allowed) {
      return { error: verdict.refusal?.replace(/^error: /, "") ?? "not approved" };
    }
  }
  return { absolute, real, isFile: info.isFile };
}
