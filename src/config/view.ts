/**
 * The object `wisp config show` prints and the inspect tool's config view
 * shows: every setting in effect with its default applied, where the config
 * file is and whether it exists, and wisp's paths. It lives beside the schema,
 * not with the inspect tool, so `wisp config` loads nothing of the tools, the
 * audit reader or the gate (docs/adr/0410-start-up-by-construction.md).
 */
import type { Config } from "./schema.ts";
import type { HomePaths } from "./home.ts";

/** The object `wisp config show` prints and the config view shows. Pure. */
export function configView(
  config: Config,
  paths: HomePaths,
  exists: boolean,
): Record<string, unknown> {
  return { ...config, configFile: { path: paths.config, exists }, paths };
}
