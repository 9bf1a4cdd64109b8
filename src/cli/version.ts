/**
 * The version wisp prints: bare for a release build; otherwise the version,
 * -dev, the commit it was built from, and " (modified)" when tracked files
 * differed. Running from source, "built from" is the working tree now.
 */

import { BUILD, type BuildInfo } from "../build_info.ts";
import { VERSION } from "../version.ts";
import { readGitState } from "../util/gitstate.ts";

export function formatVersion(version: string, build: BuildInfo): string {
  if (build.kind === "release") return version;
  if (!build.commit) return `${version}-dev`;
  return `${version}-dev+${build.commit.slice(0, 7)}${build.modified ? " (modified)" : ""}`;
}

/** The build this process is: compiled builds carry it; a source run reads git. */
function currentBuild(): BuildInfo {
  if (BUILD.kind !== "source") return BUILD;
  try {
    const url = new URL("../..", import.meta.url);
    if (url.protocol !== "file:") return { kind: "dev" };
    const state = readGitState(decodeURIComponent(url.pathname));
    return { kind: "dev", commit: state?.commit, modified: state?.modified };
  } catch {
    return { kind: "dev" };
  }
}

export function versionString(): string {
  return formatVersion(VERSION, currentBuild());
}
