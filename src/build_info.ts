/**
 * What kind of build this is. Running from source it stays as committed
 * (`source`), and the version is read from the working tree's git state at
 * run time; `deno task compile` rewrites this file for the binary it builds
 * (scripts/compile.ts) and restores it afterwards.
 */
export interface BuildInfo {
  kind: "source" | "dev" | "release";
  commit?: string;
  modified?: boolean;
}

export const BUILD: BuildInfo = { kind: "source" };
