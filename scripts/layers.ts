/**
 * The layering check: every import in `src/` points down the data path.
 *
 * wisp's folders sit on floors, from the command line at the top to the
 * small shared helpers at the bottom. A module may import from its own
 * folder and from any folder on a lower floor; never from a floor above
 * it, and never sideways into another folder on its own floor. The floors,
 * and the few file-to-file arrows allowed besides them (each with its
 * reason), are written here and nowhere else; docs/architecture.md shows
 * them as a picture.
 *
 * Every kind of import counts: `import … from`, `export … from`, `import
 * type`, `import("…")` and the lazy `import.meta.resolve("…")`. Comments are
 * not code, so an example in a doc comment is not an import.
 *
 * Run it alone with `deno run -A scripts/layers.ts` (exit 1 and one line per
 * wrong import); the test suite runs it over the tree in
 * test/scripts/layers_test.ts.
 */
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The floors, top first. Folders are paths under `src/` (`main.ts` and the
 * files directly in `src/` are named as they are).
 */
export const FLOORS: readonly (readonly string[])[] = [
  // The entry point: answers --version, hands the rest to the command line.
  ["main.ts"],
  // The command line: argv in, exit code out.
  ["cli"],
  // What a person or a client talks to, and doctor's report.
  ["faces", "doctor"],
  // What every face opens first and shares between its conversations.
  ["session"],
  // The conversation turn and the model's loop.
  ["agent"],
  // What a conversation remembers: its store, composition and condensing,
  // facts, and the memory tool.
  ["context"],
  // The tools a model is offered.
  ["tools"],
  // The readers, condensers and scanners the tools and faces are built on.
  ["condense", "secrets"],
  // Whether a command line may run, and under what approval.
  ["gate"],
  // Running commands; the model clients; posting notifications.
  ["exec", "models", "notify"],
  // The verbatim record: the audit log and the output store.
  ["audit"],
  // What differs between operating systems.
  ["platform"],
  // The native library's bindings (ffi/ through Deno FFI).
  ["ffi"],
  // wisp's home and its configuration.
  ["config"],
  // Small shared pieces with no knowledge of wisp's parts.
  ["util", "version.ts", "build_info.ts"],
];

/**
 * Arrows allowed besides the floors: `from` file (or folder) → `to` file.
 * Each is a pure check the configuration's schema borrows from the part
 * that owns the knowledge, so that a setting is refused when it is set, not
 * when it is first used.
 */
export const ALLOWED: readonly { from: string; to: string; why: string }[] = [
  {
    from: "config/schema.ts",
    to: "models/names.ts",
    why: "the model setting is checked by the parser of model names",
  },
  {
    from: "config/unbuilt.ts",
    to: "models/names.ts",
    why: "a model of a backend not built here is named by the same parser",
  },
  {
    from: "config/unbuilt.ts",
    to: "models/system.ts",
    why: "why the system model is not offered here is the system model's to say",
  },
  {
    from: "config/schema.ts",
    to: "models/host.ts",
    why: "a model server's address is checked (loopback, normal form) when it is set",
  },
  {
    from: "config/schema.ts",
    to: "tools/custom_validate.ts",
    why: "custom tools are checked against the built-in names when they are set",
  },
  // The quick check mirrors the schema without zod (ADR 0640), with the schema's own checks.
  {
    from: "config/quick_check.ts",
    to: "models/names.ts",
    why: "as config/schema.ts: the model setting is checked by the parser of model names",
  },
  {
    from: "config/quick_check.ts",
    to: "models/host.ts",
    why: "as config/schema.ts: a model server's address is checked when it is set",
  },
  {
    from: "config/quick_check.ts",
    to: "tools/custom_validate.ts",
    why: "as config/schema.ts: custom tools are checked against the built-in names",
  },
];

/** One import that points the wrong way. */
export interface Violation {
  /** The importing file, relative to the repository. */
  file: string;
  /** The imported file, relative to the repository. */
  target: string;
  line: number;
  reason: string;
}

/**
 * The source as a skeleton: comments blanked out, each string or template
 * literal replaced by a numbered placeholder (`"0"`, `"1"`, …), line breaks
 * kept so line numbers hold. Text inside a string is then never mistaken
 * for an import.
 */
export function skeleton(source: string): { code: string; strings: string[] } {
  let code = "";
  const strings: string[] = [];
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i];
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      while (i < n && source[i] !== "\n") i++;
      continue;
    }
    if (c === "/" && next === "*") {
      i += 2;
      while (i < n && !(source[i] === "*" && source[i + 1] === "/")) {
        if (source[i] === "\n") code += "\n";
        i++;
      }
      i += 2;
      continue;
    }
    if (c === "/" && startsRegex(code)) {
      // A regular expression literal: skip it whole (quotes in it are not strings).
      let inClass = false;
      i++;
      while (i < n && source[i] !== "\n" && (inClass || source[i] !== "/")) {
        if (source[i] === "\\") i++;
        else if (source[i] === "[") inClass = true;
        else if (source[i] === "]") inClass = false;
        i++;
      }
      i++;
      code += "/./";
      continue;
    }
    if (c === '"' || c === "'" || c === "`") {
      let text = "";
      i++;
      while (i < n && source[i] !== c) {
        if (source[i] === "\\") {
          i++;
          text += source[i] ?? "";
        } else {
          if (source[i] === "\n") code += "\n";
          text += source[i];
        }
        i++;
      }
      i++;
      // A template literal is never a specifier here; keep only plain strings.
      code += `"${strings.length}"`;
      strings.push(c === "`" ? "" : text);
      continue;
    }
    code += c;
    i++;
  }
  return { code, strings };
}

/** Whether a `/` after this code starts a regular expression rather than a division. */
function startsRegex(code: string): boolean {
  const before = code.trimEnd();
  if (before === "") return true;
  if (/[(,=:[!&|?{};+\-*%<>~^]$/.test(before)) return true;
  return /\b(return|typeof|case|do|else|in|of|new|delete|void|throw|yield|await)$/.test(before);
}

/** The relative specifiers a module imports, with their line numbers. */
export function importsOf(source: string): { specifier: string; line: number }[] {
  const { code, strings } = skeleton(source);
  const found: { specifier: string; line: number }[] = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\.meta\.resolve\(\s*|\bimport\s+)"(\d+)"/g;
  for (const match of code.matchAll(pattern)) {
    const specifier = strings[Number(match[1])];
    if (!/^\.{1,2}\//.test(specifier)) continue;
    const line = code.slice(0, match.index).split("\n").length;
    found.push({ specifier, line });
  }
  return found;
}

/** Where a path under `src/` (or main.ts) sits: its floor and its folder's name, or null. */
export function placeOf(path: string): { floor: number; folder: string } | null {
  const parts = path.split("/");
  let folder: string;
  if (parts.length === 1) folder = parts[0]; // main.ts
  else if (parts[0] !== "src") return null;
  else folder = parts[1];
  const floor = FLOORS.findIndex((names) => names.includes(folder));
  return floor < 0 ? null : { floor, folder };
}

/** Why an import from `file` to `target` (both relative to the repository) is wrong, or null. */
export function wrongImport(file: string, target: string): string | null {
  const from = placeOf(file);
  const to = placeOf(target);
  if (!from) return `${file} is in no floor; add its folder to FLOORS in scripts/layers.ts`;
  if (!to) {
    // Outside src/ (deno.json, the fixtures of a test) is not wisp's code.
    return target.startsWith("src/") ? `${target} is in no floor; add its folder to FLOORS` : null;
  }
  if (from.folder === to.folder || to.floor > from.floor) return null;
  const inner = (p: string) => p.replace(/^src\//, "");
  const allowed = ALLOWED.some((arrow) =>
    (inner(file) === arrow.from || inner(file).startsWith(`${arrow.from}/`)) &&
    inner(target) === arrow.to
  );
  if (allowed) return null;
  return to.floor === from.floor
    ? `${from.folder}/ and ${to.folder}/ share a floor and must not import each other`
    : `${from.folder}/ may not import ${to.folder}/, which is above it in the data path`;
}

/** Every wrong import in the modules under `root` (a repository with main.ts and src/). */
export function violations(root: string): Violation[] {
  const found: Violation[] = [];
  const files = ["main.ts", ...walk(join(root, "src")).map((p) => relative(root, p))];
  for (const file of files) {
    let source: string;
    try {
      source = Deno.readTextFileSync(join(root, file));
    } catch {
      continue;
    }
    for (const { specifier, line } of importsOf(source)) {
      const target = normalize(join(dirname(file), specifier));
      const reason = wrongImport(file, target);
      if (reason) found.push({ file, target, line, reason });
    }
  }
  return found;
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...walk(path));
    else if (entry.isFile && /\.(ts|tsx|js|mjs)$/.test(entry.name)) out.push(path);
  }
  return out.sort();
}

if (import.meta.main) {
  const root = Deno.args[0] ?? fileURLToPath(new URL("..", import.meta.url));
  const wrong = violations(root);
  for (const v of wrong) console.log(`${v.file}:${v.line}: imports ${v.target}: ${v.reason}`);
  if (wrong.length > 0) {
    console.log(`${wrong.length} import(s) point up the data path (scripts/layers.ts)`);
    Deno.exit(1);
  }
  console.log("every import points down the data path");
}
