/**
 * `wisp config` — show, get, list, set and unset settings. Reading never
 * creates wisp's home; set and unset create it, validate the change against
 * the whole schema, keep the rest of the file as it was, and audit it.
 */
import { load } from "./lazy.ts";
import type { Command } from "commander";

function renderValue(value: unknown): string {
  if (value === undefined) return "(unset)";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** `wisp config show`. */
export async function show(): Promise<void> {
  const { readContext } = await load<typeof import("./read_context.ts")>(
    import.meta.resolve("./read_context.ts"),
  );
  const { outLine } = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  const { configView } = await load<typeof import("../config/view.ts")>(
    import.meta.resolve("../config/view.ts"),
  );
  const { loaded, paths } = await readContext();
  // The same object the model's inspect tool shows (what: config).
  outLine(JSON.stringify(configView(loaded.config, paths, loaded.exists), null, 2));
}

/** `wisp config get KEY`. */
export async function get(key: string): Promise<void> {
  const { readContext } = await load<typeof import("./read_context.ts")>(
    import.meta.resolve("./read_context.ts"),
  );
  const { outLine } = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  const { valueAtPath } = await load<typeof import("../config/value_path.ts")>(
    import.meta.resolve("../config/value_path.ts"),
  );
  const { keyPath } = await load<typeof import("../config/settings.ts")>(
    import.meta.resolve("../config/settings.ts"),
  );
  const { UsageError } = await load<typeof import("../util/errors.ts")>(
    import.meta.resolve("../util/errors.ts"),
  );
  const { loaded } = await readContext();
  const path = keyPath(key);
  const effective = valueAtPath(loaded.config, path);
  const inFile = loaded.raw ? valueAtPath(loaded.raw, path) : undefined;
  if (effective === undefined && inFile === undefined) {
    const { findSetting } = await load<typeof import("../config/settings.ts")>(
      import.meta.resolve("../config/settings.ts"),
    );
    if (!findSetting(key)) {
      throw new UsageError(
        `unknown setting '${key}'; wisp config list shows the settings you can change`,
      );
    }
  }
  outLine(
    `${renderValue(effective)}\t${inFile !== undefined ? "set in config.json" : "the default"}`,
  );
}

/** One row of `config list`: a setting, or one instance of a patterned one. */
interface ListRow {
  key: string;
  /** The value in effect (defaults applied); absent for a pattern's own row. */
  value?: unknown;
  /** Whether config.json sets it. */
  inFile: boolean;
  description: string;
  /** Why it would be ignored, when its feature is not built yet. */
  notBuilt?: string;
}

/** `wisp config list [--json]`. */
export async function list(options: { json?: boolean }): Promise<void> {
  const { readContext } = await load<typeof import("./read_context.ts")>(
    import.meta.resolve("./read_context.ts"),
  );
  const { out, outLine } = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  const { SETTINGS, keyPath } = await load<typeof import("../config/settings.ts")>(
    import.meta.resolve("../config/settings.ts"),
  );
  const { valueAtPath } = await load<typeof import("../config/value_path.ts")>(
    import.meta.resolve("../config/value_path.ts"),
  );
  const { unbuiltEntry } = await load<typeof import("../config/unbuilt.ts")>(
    import.meta.resolve("../config/unbuilt.ts"),
  );
  const { renderTable, terminalWidth } = await load<typeof import("../util/table.ts")>(
    import.meta.resolve("../util/table.ts"),
  );
  const { loaded } = await readContext();
  const rows: ListRow[] = [];
  const row = (key: string, path: string[] | undefined, description: string): ListRow => {
    const inFile = path !== undefined && loaded.raw !== undefined &&
      valueAtPath(loaded.raw, path) !== undefined;
    const value = path === undefined ? undefined : valueAtPath(loaded.config, path);
    // A whole setting not built yet, or the value the file gives one that is not.
    const entry = path === undefined
      ? undefined
      : unbuiltEntry(path, undefined) ?? (inFile ? unbuiltEntry(path, value) : undefined);
    return {
      key,
      ...(value !== undefined ? { value } : {}),
      inFile,
      description,
      ...(entry ? { notBuilt: entry.missing } : {}),
    };
  };
  for (const setting of SETTINGS) {
    if (setting.pattern) {
      // One row per instance set in the file, then the pattern itself.
      const prefix = setting.key.slice(0, setting.key.indexOf("<")).replace(/\.$/, "").split(".");
      const suffix = setting.key.slice(setting.key.indexOf(">") + 1).replace(/^\./, "");
      const entries = loaded.raw ? valueAtPath(loaded.raw, prefix) : undefined;
      if (entries && typeof entries === "object") {
        for (const name of Object.keys(entries as Record<string, unknown>)) {
          const path = [...prefix, name, ...(suffix ? suffix.split(".") : [])];
          if (valueAtPath(loaded.raw, path) !== undefined) {
            rows.push(row(path.join("."), path, setting.description));
          }
        }
      }
      rows.push(row(setting.key, undefined, setting.description));
      continue;
    }
    rows.push(row(setting.key, keyPath(setting.key), setting.description));
  }
  if (options.json) {
    outLine(JSON.stringify({ settings: rows }, null, 2));
    return;
  }
  const width = terminalWidth();
  out(
    renderTable({
      headers: ["SETTING", "VALUE", "WHAT IT DOES"],
      rows: rows.map((r) => [
        r.key,
        r.inFile ? renderValue(r.value) : "(default)",
        r.notBuilt ? `(ignored: ${r.notBuilt}) ${r.description}` : r.description,
      ]),
      terminal: width !== undefined,
      width,
    }),
  );
}

/**
 * Make one change as `wisp config set|unset` does — planned and checked
 * against the whole schema, a model asked of its server, audited before it
 * applies — and return the lines that say what happened. `words` undefined
 * unsets. `source` is who asked (the CLI, or chat's /config).
 */
export async function applyConfigChange(
  key: string,
  words: string[] | undefined,
  source: "cli" | "chat" | "tui",
): Promise<string[]> {
  const { homePaths } = await load<typeof import("../config/home.ts")>(
    import.meta.resolve("../config/home.ts"),
  );
  const { planSet, planUnset } = await load<typeof import("../config/edit.ts")>(
    import.meta.resolve("../config/edit.ts"),
  );
  const { commitConfigChange } = await load<typeof import("../audit/config_change.ts")>(
    import.meta.resolve("../audit/config_change.ts"),
  );
  const paths = homePaths();
  const plan = words === undefined
    ? planUnset(paths.config, key)
    : planSet(paths.config, key, words);
  if (!plan) return [`${key} is not set in config.json; its default applies`];
  // The model is asked of its server: a name no server has is refused with the near ones.
  let modelNote: string | undefined;
  if (key === "model" && words !== undefined) {
    const { requireResolvableModel } = await load<typeof import("../models/validate.ts")>(
      import.meta.resolve("../models/validate.ts"),
    );
    modelNote = await requireResolvableModel(String(plan.to), plan.config);
  }
  // Audited first; if the event cannot be written, nothing changes.
  commitConfigChange(paths, plan, source);
  const lines = [
    words === undefined
      ? `unset ${key}; its default applies (${renderValue(plan.to)}) from the next session`
      : `set ${key} to ${renderValue(plan.to)}; it applies from the next session`,
  ];
  if (plan.weakens) lines.push(`note: ${plan.weakens}`);
  if (plan.note) lines.push(`note: ${plan.note}`);
  if (modelNote) lines.push(`note: ${modelNote}`);
  return lines;
}

async function change(key: string, words: string[] | undefined): Promise<void> {
  const { errLine } = await load<typeof import("./io.ts")>(import.meta.resolve("./io.ts"));
  for (const line of await applyConfigChange(key, words, "cli")) errLine(line);
}

export function register(program: Command): void {
  const config = program
    .command("config")
    .description("show and change settings (config.json in wisp's home)");
  config.command("show", { isDefault: true })
    .description(
      "print every setting in effect, defaults applied, with the paths wisp uses, as JSON",
    )
    .action(show);
  config.command("get")
    .description("print one setting's value and whether it is set in config.json or the default")
    .argument("<key>", "the setting, e.g. approval.threshold")
    .action(get);
  config.command("list")
    .description("list the settings set can change: each value or (default), and what it does")
    .option("--json", 'print {"settings": [{"key", "value", "inFile", "description"}]}')
    .action((options: { json?: boolean }) => list(options));
  config.command("set")
    .description(
      "change a setting (a list takes words or a JSON array); checked before it is written",
    )
    .argument("<key>", "the setting")
    .argument("<value...>", "the value")
    .allowUnknownOption()
    .action((key: string, value: string[]) => change(key, value));
  config.command("unset")
    .description("remove a setting from config.json so its default applies")
    .argument("<key>", "the setting")
    .action((key: string) => change(key, undefined));
}
