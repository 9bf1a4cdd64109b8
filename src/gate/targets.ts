/**
 * The paths a part writes, deletes or changes: redirection targets, tee's
 * files, the destination of cp/mv/install/ln/rsync, the files of rm, touch,
 * chmod, sed -i, dd of=, curl -o, tar -C and the like. The policy checks them
 * against wisp's home.
 */
import type { Part } from "./analyse.ts";
import { literal, litWord, type Segment, type Word } from "./words.ts";
import { isLongOption } from "./options.ts";
import { GIT_READ_ONLY_VERBS } from "./git_verbs.ts";
import { awkEffects, sedEffects } from "./script_writes.ts";

function positionals(words: Word[], withValue: Set<string> = new Set()): Word[] {
  const out: Word[] = [];
  let options = true;
  for (let i = 0; i < words.length; i++) {
    const l = literal(words[i]);
    if (options && l === "--") {
      options = false;
      continue;
    }
    if (options && l !== undefined && l.startsWith("-") && l !== "-") {
      if (withValue.has(l)) i++;
      continue;
    }
    out.push(words[i]);
  }
  return out;
}

/** The rest of a word after a literal prefix (`of=$HOME/x` after `of=`), keeping what is dynamic. */
function afterPrefix(word: Word, prefix: string): Word | undefined {
  const first = word.segs[0];
  if (!first || first.kind !== "lit" || !first.text.startsWith(prefix)) return undefined;
  const rest = first.text.slice(prefix.length);
  const segs = rest ? [{ ...first, text: rest }, ...word.segs.slice(1)] : word.segs.slice(1);
  // A tilde right after the prefix expands, as the shell does for `of=~/x` in assignments.
  if (segs[0]?.kind === "lit" && /^~(\/|$)/.test(segs[0].text)) {
    const text = segs[0].text.slice(1);
    return {
      raw: word.raw.slice(prefix.length),
      segs: [
        { kind: "tilde", user: "" },
        ...(text ? [{ ...segs[0], text }] : []),
        ...segs.slice(1),
      ],
    };
  }
  return { raw: word.raw.slice(prefix.length), segs };
}

function optionValues(words: Word[], names: string[]): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < words.length; i++) {
    const l = literal(words[i]);
    for (const n of names) {
      if (l === n && words[i + 1]) {
        out.push(words[i + 1]);
        continue;
      }
      if (n.startsWith("--")) {
        const w = afterPrefix(words[i], n + "=");
        if (w) out.push(w);
      } else if (n.length === 2) {
        const first = words[i].segs[0];
        if (
          first?.kind === "lit" && first.text.startsWith(n) && first.text.length > 2 &&
          !first.text.startsWith("--") && !/^-[a-zA-Z]{3,}$/.test(l ?? "")
        ) {
          const w = afterPrefix(words[i], n);
          if (w) out.push(w);
        }
      }
    }
  }
  return out;
}

/** Options that take a value, per program (so the value is not taken for a file). */
const VALUE_OPTIONS: Record<string, Set<string>> = {
  truncate: new Set(["-s", "--size", "-r", "--reference"]),
  touch: new Set(["-r", "--reference", "-d", "--date", "-t"]),
  mkdir: new Set(["-m", "--mode"]),
  mkfifo: new Set(["-m", "--mode"]),
  shred: new Set(["-n", "--iterations", "-s", "--size"]),
};

export interface Target {
  word: Word;
  how: string;
}

/** How one family of programs names what it writes. */
interface TargetInput {
  part: Part;
  prog: string;
  args: Word[];
}

/** Collects targets: each word, with how it is written. */
type AddTargets = (words: Word[], how: string) => void;

/**
 * The programs whose operands or options name what they write: one rule per
 * family that names its targets alike (the programs' names separated by
 * spaces).
 */
const TARGET_RULES: ReadonlyArray<
  readonly [programs: string, rule: (input: TargetInput, add: AddTargets) => void]
> = [
  ["tee", teeTargets],
  ["cp install ln rsync ditto gcp", copyTargets],
  ["mv gmv", moveTargets],
  ["rm rmdir unlink shred truncate touch mkdir srm mkfifo", fileOperandTargets],
  ["chmod chown chgrp chflags setfacl", permissionTargets],
  ["vim vi nvim nano emacs ed ex code subl", editorTargets],
  ["xattr", xattrTargets],
  ["sed gsed", sedTargets],
  ["perl ruby", inPlaceTargets],
  ["dd", ddTargets],
  ["curl", curlTargets],
  ["wget", wgetTargets],
  ["tar gtar bsdtar", tarTargets],
  ["unzip", unzipTargets],
  ["zip script", firstOperandTargets],
  ["tcpdump tshark", captureFileTargets],
  ["awk gawk mawk nawk", awkTargets],
  ["uniq xxd", secondOperandTargets],
  ["split csplit", splitTargets],
  ["find gfind", findTargets],
  ["git", gitTargets],
];

const TARGET_RULE_OF = new Map(
  TARGET_RULES.flatMap(([programs, rule]) =>
    programs.split(" ").map((program) => [program, rule] as const)
  ),
);

/** Every path the part may write, delete or change. */
export function writeTargets(part: Part): Target[] {
  const targets: Target[] = [];
  const add: AddTargets = (words, how) => {
    for (const word of words) targets.push({ word, how });
  };
  for (const r of part.cmd.redirects) {
    if (r.target && r.op.includes(">")) add([r.target], "redirects output into");
  }
  const prog = part.program;
  const args = part.words.slice(1);
  TARGET_RULE_OF.get(prog)?.({ part, prog, args }, add);
  genericOutputTargets(prog, args, add);
  if (part.wrappers.includes("find -exec")) targets.push(...foundPathTargets(part, targets));
  // A wrapper's own output file (strace -o, ltrace -o, GNU time -o) is written too.
  if (part.wrappers.length > 0) add(wrapperOutputs(part), "writes its output into");
  if (prog === "sort") {
    add(optionValues(args, ["-o", "--output"]), "writes");
    add(clusterValues(args, "o", "koSTt"), "writes");
  }
  // openssl and other single-dash long options: -out FILE, -keyout FILE.
  for (let i = 0; i < args.length - 1; i++) {
    if (/^-(out|keyout|outfile)$/.test(literal(args[i]) ?? "")) {
      add([args[i + 1]], "writes its output into");
    }
  }
  return targets;
}

/** Output options any program may take (--output, --out-dir, -o FILE, …). */
function genericOutputTargets(prog: string, args: Word[], add: AddTargets): void {
  if (
    !["curl", "wget", "tar", "gtar", "bsdtar", "unzip", "cp", "install", "ln", "mv", "git", "sort"]
      .includes(prog)
  ) {
    const values = optionValues(args, [
      "--output",
      "--out",
      "--outdir",
      "--out-dir",
      "--output-dir",
      "--target-dir",
      "--log-file",
      "--dest",
      "--destination",
      "--prefix",
    ]);
    add(values, "writes its output into");
    if (
      ![
        "gcc",
        "clang",
        "cc",
        "g++",
        "clang++",
        "sed",
        "awk",
        "find",
        "grep",
        "rg",
        "ssh",
        "kill",
        "ps",
      ].includes(prog)
    ) {
      // `-o FILE` is an output file for most programs that take it.
      add(
        optionValues(args, ["-o"]).filter((w) => /[/.~]/.test(literal(w) ?? "/")),
        "writes its output into",
      );
    } else if (prog !== "ssh" && prog !== "ps" && prog !== "kill") {
      add(optionValues(args, ["-o"]), "writes its output into");
    }
  }
}

/** find … -exec cp x {}/y: `{}` is each path found under find's start folders. */
function foundPathTargets(part: Part, written: Target[]): Target[] {
  const expanded: Target[] = [];
  const starts = findStarts(part.cmd.words);
  for (const t of written) {
    if (!t.word.segs.some((seg) => seg.kind === "lit" && seg.text.includes("{}"))) continue;
    for (const start of starts) {
      for (const found of [start.segs, [...start.segs, SLASH, ANY]]) {
        const segs = t.word.segs.flatMap((seg) => {
          if (seg.kind !== "lit" || !seg.text.includes("{}")) return [seg];
          return seg.text.split("{}").flatMap((text, k) => [
            ...(k > 0 ? found : []),
            ...(text ? [{ ...seg, text }] : []),
          ]);
        });
        expanded.push({ word: { raw: t.word.raw, segs }, how: t.how });
      }
    }
  }
  return expanded;
}

/** The files tee copies its input into. */
function teeTargets({ args }: TargetInput, add: AddTargets): void {
  add(positionals(args), "writes (tee)");
}

/** Where cp, install, ln, rsync and ditto copy or link into. */
function copyTargets({ prog, args }: TargetInput, add: AddTargets): void {
  const t = [
    ...optionValues(args, ["-t", "--target-directory"]),
    ...clusterValues(args, "t", "tmogSZ"),
  ];
  if (t.length) add(t, `${prog} into`);
  else {
    const pos = positionals(
      args,
      new Set(["-m", "--mode", "-o", "-g", "--owner", "--group", "-S", "--suffix"]),
    );
    if (pos.length) add([pos[pos.length - 1]], `${prog} into`);
    if (prog === "ln" && pos.length === 1) add(pos, "links");
    if (pos.length >= 2) add(intoFolder(pos.slice(0, -1), pos[pos.length - 1]), `${prog} into`);
  }
}

/** What mv moves, and where to. */
function moveTargets({ args }: TargetInput, add: AddTargets): void {
  const pos = positionals(args, new Set(["-t", "--target-directory", "-S", "--suffix"]));
  add(pos, "moves");
  add(optionValues(args, ["-t", "--target-directory"]), "moves into");
  if (pos.length >= 2) add(intoFolder(pos.slice(0, -1), pos[pos.length - 1]), "moves into");
}

/** The operands of programs that delete or change the files they name. */
function fileOperandTargets({ prog, args }: TargetInput, add: AddTargets): void {
  add(
    positionals(args, VALUE_OPTIONS[prog] ?? new Set()),
    prog === "rm" || prog === "rmdir" || prog === "unlink" || prog === "shred"
      ? "deletes"
      : "changes",
  );
}

/** The files whose permissions or owners change (the first operand is the mode or owner). */
function permissionTargets({ args }: TargetInput, add: AddTargets): void {
  add(positionals(args).slice(1), "changes permissions of");
}

/** The files an editor opens. */
function editorTargets({ args }: TargetInput, add: AddTargets): void {
  add(positionals(args), "edits");
}

/** The files xattr changes the attributes of (-w, -d, -c; without them it lists). */
function xattrTargets({ args }: TargetInput, add: AddTargets): void {
  // Only -w, -d, -c and -r change anything; without them xattr lists.
  if (args.some((a) => /^-[a-zA-Z]*[wdc]/.test(literal(a) ?? ""))) {
    add(
      positionals(args).slice(args.some((a) => /^-[a-zA-Z]*w/.test(literal(a) ?? "")) ? 2 : 1),
      "changes attributes of",
    );
  }
}

/** sed's `w` files, and with -i the files it edits. */
function sedTargets({ part, args }: TargetInput, add: AddTargets): void {
  add(sedScriptEffects(part).writes, "writes (sed's w)");
  inPlaceTargets({ args }, add);
}

/** With -i, the files edited in place. */
function inPlaceTargets({ args }: Pick<TargetInput, "args">, add: AddTargets): void {
  if (
    args.some((a) =>
      /^-[a-zA-Z]*i/.test(literal(a) ?? "") || (literal(a) ?? "").startsWith("--in-place")
    )
  ) {
    add(positionals(args, new Set(["-e", "-f", "--expression", "--file"])), "edits in place");
  }
}

/** dd's of= file. */
function ddTargets({ args }: TargetInput, add: AddTargets): void {
  for (const a of args) {
    const w = afterPrefix(a, "of=");
    if (w) add([w], "writes (dd)");
  }
}

/** Where curl downloads, and the files its headers, cookies, traces and errors go to. */
function curlTargets({ args }: TargetInput, add: AddTargets): void {
  add(optionValues(args, ["-o", "--output", "--output-dir"]), "downloads into");
  // Headers, cookies, traces and its own errors go to files too.
  add(
    optionValues(args, [
      "-D",
      "--dump-header",
      "-c",
      "--cookie-jar",
      "--trace",
      "--trace-ascii",
      "--stderr",
      "--libcurl",
      "--etag-save",
      "--hsts",
      "--alt-svc",
    ]),
    "writes",
  );
  add(clusterValues(args, "o", CURL_VALUE_LETTERS), "downloads into");
}

/** Where wget downloads and logs. */
function wgetTargets({ args }: TargetInput, add: AddTargets): void {
  add(
    optionValues(args, [
      "-O",
      "--output-document",
      "-P",
      "--directory-prefix",
      "-o",
      "--output-file",
      "-a",
      "--append-output",
    ]),
    "downloads into",
  );
  add(clusterValues(args, "OPoa", WGET_VALUE_LETTERS), "downloads into");
}

/** Where tar unpacks, and with -c the archive it writes. */
function tarTargets({ args }: TargetInput, add: AddTargets): void {
  add(optionValues(args, ["-C", "--directory"]), "unpacks into");
  if (
    args.some((a) => /^-?[a-zA-Z]*c/.test(literal(a) ?? "") && !(literal(a) ?? "").startsWith("--"))
  ) add(optionValues(args, ["-f", "--file"]), "writes");
}

/** Where unzip unpacks. */
function unzipTargets({ args }: TargetInput, add: AddTargets): void {
  add(optionValues(args, ["-d"]), "unpacks into");
}

/** zip ARCHIVE FILES…, script [FILE]: the first operand is written. */
function firstOperandTargets({ args }: TargetInput, add: AddTargets): void {
  // zip ARCHIVE FILES…, script [FILE]: the first operand is written.
  const pos = positionals(
    args,
    new Set([
      "-c",
      "--command",
      "-E",
      "--echo",
      "-T",
      "--log-timing",
      "-t",
      "--timing",
      "-I",
      "--log-in",
      "-O",
      "--log-out",
      "-B",
      "--log-io",
      "-b",
      "-n",
      "-P",
      "-x",
      "-i",
      "-Z",
    ]),
  );
  if (pos.length) add([pos[0]], "writes");
}

/** The capture file (-w). */
function captureFileTargets({ args }: TargetInput, add: AddTargets): void {
  add(optionValues(args, ["-w"]), "writes");
}

/** awk's `print >` files, and with gawk -i inplace every input file. */
function awkTargets({ part, args }: TargetInput, add: AddTargets): void {
  add(awkProgramEffects(part).writes, "writes (awk's print >)");
  // gawk -i inplace rewrites every input file.
  if (
    args.some((a, i) =>
      /^(-i|--include)$/.test(literal(a) ?? "") && literal(args[i + 1]) === "inplace" ||
      /^(-iinplace|--include=inplace)$/.test(literal(a) ?? "")
    )
  ) add(awkInputFiles(args), "edits in place");
}

/** uniq and xxd: the second file named is the output. */
function secondOperandTargets({ prog, args }: TargetInput, add: AddTargets): void {
  // The second file named is the output.
  const pos = positionals(
    args,
    prog === "uniq" ? new Set(["-f", "-s", "-w"]) : new Set(["-c", "-g", "-l", "-o", "-s", "-n"]),
  );
  if (pos.length >= 2) add([pos[1]], "writes");
}

/** Output files are PREFIX followed by a suffix. */
function splitTargets({ prog, args }: TargetInput, add: AddTargets): void {
  // Output files are PREFIX followed by a suffix.
  const pos = positionals(args, new Set(["-l", "-b", "-C", "-n", "-a", "-f", "-b"]));
  const prefix = prog === "csplit" ? optionValues(args, ["-f", "--prefix"]) : pos.slice(1, 2);
  for (const w of prefix) {
    add([{ raw: w.raw + "*", segs: [...w.segs, { kind: "glob", text: "*" }] }], "writes");
  }
}

/** What find deletes or runs a command on, and the files -fprint and -fls write. */
function findTargets({ args }: TargetInput, add: AddTargets): void {
  const lits = args.map((a) => literal(a) ?? "");
  if (
    lits.some((l) =>
      l === "-delete" || /^-(exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/.test(l)
    )
  ) {
    const starts: Word[] = [];
    for (const a of args) {
      const l = literal(a);
      if (l !== undefined && (l.startsWith("-") || l === "(" || l === "!")) break;
      starts.push(a);
    }
    add(
      starts.length ? starts : [litWord(".")],
      lits.includes("-delete") ? "deletes under" : "runs a command on files under",
    );
  }
  // -fprint FILE, -fprint0 FILE, -fprintf FILE FORMAT, -fls FILE: the list goes to FILE.
  for (let i = 0; i < lits.length - 1; i++) {
    if (/^-(fprint|fprint0|fprintf|fls)$/.test(lits[i])) {
      add([args[i + 1]], "writes its list to");
    }
  }
}

/** What git changes: the repository it is pointed at, --output files, archive's and format-patch's folders, clone's target. */
function gitTargets({ args }: TargetInput, add: AddTargets): void {
  const c = optionValues(args, ["-C", "--git-dir", "--work-tree"]);
  const lits = args.map((a) => literal(a) ?? "");
  const verb = lits.find((l, i) =>
    !l.startsWith("-") && !["-C", "-c", "--git-dir", "--work-tree"].includes(lits[i - 1] ?? "")
  );
  // branch, tag, remote and config change names and settings, not the files of the
  // repository they are pointed at; whether they may is rated by their own rules.
  const readOnly = GIT_READ_ONLY_VERBS.includes(verb ?? "") ||
    ["branch", "tag", "remote", "config"].includes(verb ?? "");
  // fsck --lost-found is the one read-only verb's option that writes (into .git/lost-found).
  const lostFound = verb === "fsck" && lits.some((l) => isLongOption(l, "lost-found"));
  if (!readOnly || lostFound) add(c, "changes the repository in");
  // diff, log, show, format-patch, archive …: --output FILE (any start of it), and -o for
  // archive and format-patch.
  for (let i = 0; i < args.length; i++) {
    const first = args[i].segs[0];
    const l = first?.kind === "lit" ? first.text : "";
    // `--outp` may stand for --output; `--output-indicator-new` is another option.
    const given = l.slice(2).split("=")[0];
    if (!isLongOption(l, "output") || given.length < 2) continue;
    const eq = l.indexOf("=");
    if (eq > 0) {
      const w = afterPrefix(args[i], l.slice(0, eq + 1));
      if (w) add([w], "writes its output to");
    } else if (args[i + 1]) add([args[i + 1]], "writes its output to");
  }
  if (verb === "archive" || verb === "format-patch") {
    add(optionValues(args, ["-o", "--output-directory"]), "writes its output to");
  }
  if (verb === "clone") {
    const pos = positionals(
      args.slice(lits.indexOf("clone") + 1),
      new Set(["-b", "--branch", "-o", "--origin", "--depth", "--reference", "-c", "--config"]),
    );
    if (pos.length >= 2) add([pos[pos.length - 1]], "clones into");
  }
}

/** Short options of curl and wget that take a value (the rest of a cluster, or the next word). */
const CURL_VALUE_LETTERS = "AbcCdDeEFHKmoPQrTtuUwxXyYz";
const WGET_VALUE_LETTERS = "OoaPetTwUQlARDIXiB";

/**
 * Values of short options written inside a cluster (`-sSLo FILE`, `-qO/tmp/x`), as getopt reads
 * them: letters are flags until one that takes a value, whose value is the rest of the word or
 * the next word. `letters` are the options wanted; `valued` all that take a value. A cluster that
 * starts with the option itself (`-oFILE`) is optionValues' already.
 */
function clusterValues(args: Word[], letters: string, valued: string): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const first = args[i].segs[0];
    if (first?.kind !== "lit" || !/^-[A-Za-z0-9]{2,}/.test(first.text)) continue;
    const text = first.text;
    for (let k = 1; k < text.length; k++) {
      const c = text[k];
      if (!/[A-Za-z0-9]/.test(c)) break;
      if (!valued.includes(c)) continue;
      if (k > 1 && letters.includes(c)) {
        const rest = afterPrefix(args[i], text.slice(0, k + 1));
        if (rest && rest.segs.length > 0) out.push(rest);
        else if (args[i + 1]) out.push(args[i + 1]);
      }
      break;
    }
  }
  return out;
}

const SLASH: Segment = { kind: "lit", text: "/", quoted: true };
const ANY: Segment = { kind: "glob", text: "*" };

/** The folders a find command starts from (its operands before the first test), or `.`. */
function findStarts(words: Word[]): Word[] {
  const at = words.findIndex((w) => /^g?find$/.test((literal(w) ?? "").split("/").pop() ?? ""));
  const starts: Word[] = [];
  for (const w of words.slice(at + 1)) {
    const l = literal(w);
    if (l !== undefined && (l.startsWith("-") || l === "(" || l === "!")) break;
    starts.push(w);
  }
  return starts.length ? starts : [litWord(".")];
}

/** Wrappers that write a log of the program they run, and the options that name the file. */
const WRAPPER_OUTPUTS: Record<string, string[]> = {
  strace: ["-o", "--output"],
  ltrace: ["-o", "--output"],
  time: ["-o", "--output"],
};

/** The files the part's wrappers write, read from the command's words before the program. */
function wrapperOutputs(part: Part): Word[] {
  const out: Word[] = [];
  const words = part.cmd.words;
  for (let i = 0; i < words.length; i++) {
    const name = (literal(words[i]) ?? "").split("/").pop() ?? "";
    const options = Object.hasOwn(WRAPPER_OUTPUTS, name) ? WRAPPER_OUTPUTS[name] : undefined;
    if (!options || !part.wrappers.includes(name)) continue;
    // Its options run up to the program it wraps (the same word the unwrapping found).
    const end = part.words[0] ? words.indexOf(part.words[0], i + 1) : -1;
    out.push(...optionValues(words.slice(i + 1, end < 0 ? words.length : end), options));
  }
  return out;
}

/** `cp a b DIR/`: each source lands in the folder under its own name. */
function intoFolder(sources: Word[], dest: Word): Word[] {
  const out: Word[] = [];
  const last = dest.segs[dest.segs.length - 1];
  const slash = last?.kind === "lit" && last.text.endsWith("/") ? "" : "/";
  for (const src of sources.slice(0, 16)) {
    const l = literal(src);
    if (l === undefined) continue;
    const name = l.replace(/\/+$/, "").split("/").pop() ?? "";
    if (l.endsWith("/") || name === "." || name === "") {
      // rsync src/ DEST, cp -r src/. DEST: the folder's contents, under names not known here.
      out.push({
        raw: `${dest.raw}${slash}*`,
        segs: [...dest.segs, { kind: "lit", text: slash, quoted: true }, {
          kind: "glob",
          text: "*",
        }],
      });
      continue;
    }
    if (name === "..") continue;
    out.push({
      raw: `${dest.raw}${slash}${name}`,
      segs: [...dest.segs, { kind: "lit", text: `${slash}${name}`, quoted: true }],
    });
  }
  return out;
}

/** The sed script a part runs (its -e and --expression values, or its first operand). */
export function sedScriptEffects(
  part: Part,
): ReturnType<typeof sedEffects> & { fromFile: boolean } {
  const args = part.words.slice(1);
  const scripts: string[] = [];
  const pieces: Segment[] = [];
  // A script word with variables in it: each unknown piece stands as a marker (script_writes.ts).
  const text = (w: Word | undefined) =>
    (w?.segs ?? []).map((seg) => {
      if (seg.kind === "lit") return seg.text;
      pieces.push(seg);
      return `\u0001${pieces.length - 1}\u0001`;
    }).join("");
  let fromFile = false;
  let firstOperand: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const l = literal(args[i]);
    if (l === undefined) {
      if (firstOperand === undefined && scripts.length === 0) firstOperand = text(args[i]);
      continue;
    }
    if (l === "-e" || l === "--expression") {
      scripts.push(text(args[i + 1]));
      i++;
    } else if (l.startsWith("--expression=")) scripts.push(l.slice(13));
    else if (/^-[nrEsuz]*e./.test(l)) scripts.push(l.slice(l.indexOf("e") + 1));
    else if (l === "-f" || l === "--file" || /^-[nrEsuz]*f$/.test(l) || l.startsWith("--file=")) {
      fromFile = true;
      if (!l.includes("=")) i++;
    } else if (l === "-l" || l === "--line-length") i++;
    else if (l.startsWith("-") && l !== "-") continue;
    else if (firstOperand === undefined) firstOperand = l;
  }
  if (scripts.length === 0 && !fromFile && firstOperand !== undefined) scripts.push(firstOperand);
  return { ...sedEffects(scripts.join("\n"), pieces), fromFile };
}

/** The input files of an awk command: the operands after its program (not `name=value`). */
function awkInputFiles(args: Word[]): Word[] {
  let program = false;
  const out: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const l = literal(args[i]);
    if (!program) {
      if (l !== undefined && /^(-v|-F|-i|-f|-l|--assign|--include|--file|--load)$/.test(l)) i++;
      else if (l === undefined || !l.startsWith("-")) program = true;
      continue;
    }
    if (l !== undefined && /^[A-Za-z_]\w*=/.test(l)) continue;
    out.push(args[i]);
  }
  return out;
}

/** The awk program a part runs, with its -v assignments; fromFile for -f. */
export function awkProgramEffects(
  part: Part,
): ReturnType<typeof awkEffects> & { fromFile: boolean } {
  const args = part.words.slice(1);
  const assigned = new Map<string, Word>();
  let program: string | undefined;
  let fromFile = false;
  for (let i = 0; i < args.length; i++) {
    const l = literal(args[i]);
    if (l === "-v" || l === "--assign") {
      const w = args[i + 1];
      const m = w ? /^([A-Za-z_]\w*)=/.exec(w.segs[0]?.kind === "lit" ? w.segs[0].text : "") : null;
      if (w && m) {
        const value = afterPrefix(w, m[0]);
        if (value) assigned.set(m[1], value);
      }
      i++;
      continue;
    }
    if (l === "-F" || l === "-i" || l === "--include" || l === "-l" || l === "--load") {
      i++;
      continue;
    }
    if (l === "-f" || l === "--file" || l?.startsWith("--file=")) {
      fromFile = true;
      if (!l.includes("=")) i++;
      continue;
    }
    if (l !== undefined && l.startsWith("-") && l !== "-" && l !== "--") continue;
    if (l === "--") continue;
    program = l ?? "";
    break;
  }
  if (fromFile || program === undefined) return { writes: [], runs: false, fromFile };
  return { ...awkEffects(program, assigned), fromFile };
}
