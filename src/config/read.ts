/**
 * Reading config.json for the commands that only read settings, without
 * loading jsonc-parser or zod when the file is plain: the small JSONC reader
 * (jsonc_read.ts) and the quick check (quick_check.ts) take a file they are
 * sure of; any other file — a broken one included — goes to load.ts, loaded
 * only then, whose jsonc-parser and zod schema give the config or the error
 * sentence exactly as before (docs/adr/0640-config-read-without-npm.md).
 */
import type { Config } from "./schema.ts";
import { readJsoncObject } from "./jsonc_read.ts";
import { quickCheckConfig } from "./quick_check.ts";
import { WispError } from "../util/errors.ts";
import { load } from "../util/lazy.ts";

/** A config as read: the settings in effect and what the file held. */
export interface LoadedConfig {
  config: Config;
  /** Whether config.json exists. */
  exists: boolean;
  /** The file's text, when it exists. */
  text?: string;
  /** The object the file holds (before defaults), when it exists. */
  raw?: Record<string, unknown>;
  path: string;
}

/** Read the file's text; undefined when it does not exist. Unreadable is an error (exit 1). */
export function readConfigText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    if (error instanceof Deno.errors.IsADirectory) {
      throw new WispError(`${path} is a directory, not a file; move it aside`);
    }
    if (error instanceof Deno.errors.PermissionDenied) {
      throw new WispError(`${path} cannot be read (permission denied); check its owner and mode`);
    }
    if (error instanceof Deno.errors.NotCapable) {
      // Deno lets no program use /proc, /sys or /dev this way without --allow-all.
      throw new WispError(
        `${path} is in a system folder wisp may not use for its home; set WISP_HOME to a folder you own`,
      );
    }
    throw new WispError(`${path} cannot be read (${(error as Error).message})`);
  }
}

/**
 * Read config.json the way load.ts's loadConfig does, with the same result
 * and the same errors, loading jsonc-parser and zod only for a file the quick
 * reader and check are not sure of.
 */
export async function readConfig(path: string): Promise<LoadedConfig> {
  const text = readConfigText(path);
  const raw = text === undefined ? {} : readJsoncObject(text);
  const config = raw === undefined ? undefined : quickCheckConfig(raw);
  if (config !== undefined) {
    return text === undefined
      ? { config, exists: false, path }
      : { config, exists: true, text, raw, path };
  }
  const { loadConfigText } = await load<typeof import("./load.ts")>(
    import.meta.resolve("./load.ts"),
  );
  return loadConfigText(text, path);
}
