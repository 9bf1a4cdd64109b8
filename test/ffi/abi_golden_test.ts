/**
 * The ABI is one list: every function ffi/wisp_ffi.h declares is defined,
 * with the same parameter and result types, by the Swift sources (@_cdecl),
 * by each Linux library's C sources, and bound in src/ffi/symbols.ts; and
 * none of them defines or binds a wisp_ function the header lacks. Read as
 * text, so it runs on any machine.
 */
import { assertEquals } from "../support/assert.ts";
import { join } from "node:path";
import { PROJECT_ROOT } from "../support/wisp.ts";
import { LINUX_LIBRARIES } from "../../scripts/native.ts";
import { LIBWISP_SYMBOLS } from "../../src/ffi/symbols.ts";

/** A signature reduced to the kinds that cross: "u32(…)" with cstr, buf, i32, u64 and so on. */
type Signatures = Map<string, string>;

const C_TYPES: [RegExp, string][] = [
  [/^const\s+char\s*\*$/, "cstr"],
  [/^char\s*\*$/, "buf"],
  [/^uint32_t$/, "u32"],
  [/^int32_t$/, "i32"],
  [/^uint64_t$/, "u64"],
  [/^int64_t$/, "i64"],
  [/^void$/, "void"],
];

function cType(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, " ");
  // Drop the parameter's name: what follows the last space or star.
  const typeOnly = trimmed.match(/^(.*[\s*])\w+$/)?.[1]?.trim() ?? trimmed;
  for (const [pattern, kind] of C_TYPES) if (pattern.test(typeOnly)) return kind;
  return `?${typeOnly}`;
}

function cSignatures(text: string, definitions: boolean): Signatures {
  const found: Signatures = new Map();
  const source = text.replace(/\/\*[\s\S]*?\*\//g, "");
  const pattern = definitions
    ? /^([\w ]+?\*?)\s*\b(wisp_\w+)\(([^)]*)\)\s*\{/gm
    : /^([\w ]+?\*?)\s*\b(wisp_\w+)\(([^)]*)\);/gm;
  for (const m of source.matchAll(pattern)) {
    const params = m[3].trim() === "void" || m[3].trim() === "" ? [] : m[3].split(",").map(cType);
    found.set(m[2], `${cType(m[1] + " x")}(${params.join(",")})`);
  }
  return found;
}

const SWIFT_TYPES: Record<string, string> = {
  "UnsafePointer<CChar>?": "cstr",
  "UnsafeMutablePointer<CChar>?": "buf",
  UInt32: "u32",
  Int32: "i32",
  UInt64: "u64",
  Int64: "i64",
};

function swiftSignatures(text: string): Signatures {
  const found: Signatures = new Map();
  const pattern = /@_cdecl\("(wisp_\w+)"\)\s*public func (\w+)\(([^)]*)\)(?:\s*->\s*([\w<>?]+))?/g;
  for (const m of text.matchAll(pattern)) {
    assertEquals(m[2], m[1], `the Swift function for ${m[1]} is named alike`);
    const params = m[3].trim() === "" ? [] : m[3].split(",").map((p) => {
      const type = p.split(":")[1]?.trim() ?? "";
      return SWIFT_TYPES[type] ?? `?${type}`;
    });
    const result = m[4] ? SWIFT_TYPES[m[4]] ?? `?${m[4]}` : "void";
    found.set(m[1], `${result}(${params.join(",")})`);
  }
  return found;
}

/** The bindings as signatures; a `buffer` parameter stands for either kind of C string. */
function bindingSignatures(): Signatures {
  const found: Signatures = new Map();
  for (const [name, symbol] of Object.entries(LIBWISP_SYMBOLS)) {
    const params = (symbol.parameters as readonly string[]).map((p) => p === "buffer" ? "buf" : p);
    found.set(name, `${symbol.result}(${params.join(",")})`);
  }
  return found;
}

const read = (...parts: string[]) => Deno.readTextFileSync(join(PROJECT_ROOT, ...parts));
const header = cSignatures(read("ffi", "wisp_ffi.h"), false);

Deno.test("the header declares the ABI's functions, in types the golden test knows", () => {
  assertEquals(header.size >= 14, true, `only ${header.size} functions read`);
  for (const [name, signature] of header) {
    assertEquals(signature.includes("?"), false, `${name}: ${signature}`);
  }
});

Deno.test("the Swift sources export every header function with its signature, and nothing else", () => {
  const swift: Signatures = new Map();
  for (const entry of Deno.readDirSync(join(PROJECT_ROOT, "ffi", "darwin"))) {
    if (!entry.name.endsWith(".swift")) continue;
    for (const [name, sig] of swiftSignatures(read("ffi", "darwin", entry.name))) {
      swift.set(name, sig);
    }
  }
  assertEquals(Object.fromEntries([...swift].sort()), Object.fromEntries([...header].sort()));
});

Deno.test("each Linux library's C sources define every header function with its signature", () => {
  for (const [library, sources] of Object.entries(LINUX_LIBRARIES)) {
    const defined: Signatures = new Map();
    for (const file of sources) {
      for (const [name, sig] of cSignatures(read("ffi", "linux", file), true)) {
        assertEquals(defined.has(name), false, `${library}: ${name} is defined twice`);
        defined.set(name, sig);
      }
    }
    assertEquals(
      Object.fromEntries([...defined].sort()),
      Object.fromEntries([...header].sort()),
      library,
    );
  }
});

Deno.test("src/ffi binds every header function with its parameters and result", () => {
  const expected = new Map(
    [...header].map(([name, sig]) => [name, sig.replaceAll("cstr", "buf")]),
  );
  assertEquals(
    Object.fromEntries([...bindingSignatures()].sort()),
    Object.fromEntries([...expected].sort()),
  );
});
