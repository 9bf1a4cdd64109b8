/**
 * A large tree for the secrets bench: copies of the labelled corpus (without
 * its diff) among code-like filler files that hold no secrets, with labels.
 */
import { generateCorpus, type Label } from "./make_corpus.ts";
import { expected } from "./corpus_eval.ts";
import { rng, Values } from "./corpus_values.ts";

/** Code-like filler with no secrets: identifiers, strings, numbers, hashes, ids, URLs, log lines. */
export function filler(v: Values, bytes: number): string {
  const words = [
    "user",
    "order",
    "invoice",
    "total",
    "client",
    "request",
    "cache",
    "config",
    "value",
    "item",
    "retry",
  ];
  const ident = () => v.pick(words) + v.pick(["", "Id", "Count", "Name", "List", "Map", "_v2"]);
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const line = v.pick([
      () =>
        `const ${ident()} = await ${ident()}.${ident()}("${v.pick(words)}", { timeout: ${
          v.int(1, 9000)
        } });`,
      () => `import { ${ident()} } from "../${v.pick(words)}/${v.pick(words)}.ts";`,
      () => `    if (${ident()} && ${ident()}.length > ${v.int(0, 99)}) return ${ident()};`,
      () =>
        `2026-11-${v.int(10, 28)}T0${v.int(0, 9)}:1${
          v.int(0, 9)
        }:02.311Z INFO request id=${crypto.randomUUID()} took ${v.int(1, 999)} ms`,
      () => `  "${ident()}": "${v.pick(words)}-${v.pick(words)}",`,
      () =>
        `sha256 ${v.hex(64)}  dist/${v.pick(words)}-${v.int(1, 9)}.${v.int(0, 20)}.${
          v.int(0, 9)
        }.tgz`,
      () =>
        `# ${words.slice(0, v.int(2, 10)).join(" ")} (see https://docs.acme-corp.io/${
          v.pick(words)
        })`,
      () =>
        `    ${ident()} = ${ident()}(${ident()}, key=${JSON.stringify(v.pick(words))}, max_tokens=${
          v.int(16, 4096)
        })`,
      () => `commit ${v.hex(40)}  Merge pull request #${v.int(1, 9999)} from acme/${v.pick(words)}`,
    ])();
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n") + "\n";
}

/** Every this many copies, one large file (a log of a dozen MB) joins the small ones. */
const LARGE_EVERY = 25;
const LARGE_BYTES = 12 * 1024 * 1024;

/**
 * The large tree: copies of the corpus (no diff) among filler files, one large filler file every
 * LARGE_EVERY copies (so a tree of 200 MB holds both many small files and some large ones, as real
 * repositories do), and its labels.
 */
export function largeTree(
  targetBytes: number,
): { files: Record<string, string>; labels: Record<string, Label[]> } {
  const v = new Values(rng(4242));
  const files: Record<string, string> = {};
  const labels: Record<string, Label[]> = {};
  let size = 0;
  let copy = 0;
  while (size < targetBytes) {
    const corpus = generateCorpus(1000 + copy);
    for (const [path, text] of Object.entries(corpus.files)) {
      if (path.endsWith(".diff")) continue;
      files[`copy${copy}/${path}`] = text;
      labels[`copy${copy}/${path}`] = expected(corpus.labels[path], false);
      size += text.length;
    }
    for (let i = 0; i < 12 && size < targetBytes; i++) {
      const text = filler(v, 96 * 1024);
      const path = `copy${copy}/src/module_${i}.${v.pick(["ts", "py", "go", "log", "json"])}`;
      files[path] = text;
      labels[path] = [];
      size += text.length;
    }
    if (copy % LARGE_EVERY === LARGE_EVERY - 1 && size < targetBytes) {
      const path = `copy${copy}/logs/server.log`;
      files[path] = filler(v, LARGE_BYTES);
      labels[path] = [];
      size += files[path].length;
    }
    copy++;
  }
  return { files, labels };
}
