/**
 * The paths a part writes, deletes or changes: redirection targets, tee's
 * files, the destination of cp/mv/install/ln/rsync, the files of rm, touch,
 * chmod, sed -i, dd of=, curl -o, tar -C and the like. The policy checks them
 * against wisp's home.
 */
import type { Part } from "./analyse.ts";
import { literal, litWord, type Word } from "./words.ts";

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
export function afterPrefix(word: Word, prefix: string): Word | undefined {
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

/** Every path the part may write, delete or change. */
export function writeTargets(part: Part): Target[] {
  const targets: Target[] = [];
  const add = (words: Word[], how: string) => {
    for (const word of words) targets.push({ word, how });
  };
  for (const r of part.cmd.redirects) {
    if (r.target && r.op.includes(">")) add([r.target], "redirects output into");
  }
  const prog = part.program;
  const args = part.words.slice(1);
  switch (prog) {
    case "tee":
      add(positionals(args), "writes (tee)");
      break;
    case "cp":
    case "install":
    case "ln":
    case "rsync":
    case "ditto":
    case "gcp": {
      const t = optionValues(args, ["-t", "--target-directory"]);
      if (t.length) add(t, `${prog} into`);
      else {
        const pos = positionals(
          args,
          new Set(["-m", "--mode", "-o", "-g", "--owner", "--group", "-S", "--suffix"]),
        );
        if (pos.length) add([pos[pos.length - 1]], `${prog} into`);
        if (prog === "ln" && pos.length === 1) add(pos, "links");
      }
      break;
    }
    case "mv":
    case "gmv":
      add(positionals(args, new Set(["-t", "--target-directory", "-S", "--suffix"])), "moves");
      add(optionValues(args, ["-t", "--target-directory"]), "moves into");
      break;
    case "rm":
    case "rmdir":
    case "unlink":
    case "shred":
    case "truncate":
    case "touch":
    case "mkdir":
    case "srm":
    case "mkfifo":
      add(
        positionals(args, VALUE_OPTIONS[prog] ?? new Set()),
        prog === "rm" || prog === "rmdir" || prog === "unlink" || prog === "shred"
          ? "deletes"
          : "changes",
      );
      break;
    case "chmod":
    case "chown":
    case "chgrp":
    case "chflags":
    case "setfacl":
      add(positionals(args).slice(1), "changes permissions of");
      break;
    case "vim":
    case "vi":
    case "nvim":
    case "nano":
    case "emacs":
    case "ed":
    case "ex":
    case "code":
    case "subl":
      add(positionals(args), "edits");
      break;
    case "xattr":
      add(positionals(args), "changes attributes of");
      break;
    case "sed":
    case "gsed":
    case "perl":
    case "ruby":
      if (
        args.some((a) =>
          /^-[a-zA-Z]*i/.test(literal(a) ?? "") || (literal(a) ?? "").startsWith("--in-place")
        )
      ) {
        add(positionals(args, new Set(["-e", "-f", "--expression", "--file"])), "edits in place");
      }
      break;
    case "dd":
      for (const a of args) {
        const w = afterPrefix(a, "of=");
        if (w) targets.push({ word: w, how: "writes (dd)" });
      }
      break;
    case "curl":
      add(optionValues(args, ["-o", "--output", "--output-dir"]), "downloads into");
      break;
    case "wget":
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
      break;
    case "tar":
    case "gtar":
    case "bsdtar":
      add(optionValues(args, ["-C", "--directory"]), "unpacks into");
      if (
        args.some((a) =>
          /^-?[a-zA-Z]*c/.test(literal(a) ?? "") && !(literal(a) ?? "").startsWith("--")
        )
      ) add(optionValues(args, ["-f", "--file"]), "writes");
      break;
    case "unzip":
      add(optionValues(args, ["-d"]), "unpacks into");
      break;
    case "find":
    case "gfind": {
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
      break;
    }
    case "git": {
      const c = optionValues(args, ["-C", "--git-dir", "--work-tree"]);
      const lits = args.map((a) => literal(a) ?? "");
      const verb = lits.find((l, i) =>
        !l.startsWith("-") && !["-C", "-c", "--git-dir", "--work-tree"].includes(lits[i - 1] ?? "")
      );
      const readOnly = [
        "status",
        "log",
        "diff",
        "show",
        "blame",
        "grep",
        "ls-files",
        "rev-parse",
        "describe",
        "branch",
        "tag",
        "remote",
        "config",
      ].includes(verb ?? "");
      if (!readOnly) add(c, "changes the repository in");
      if (verb === "clone") {
        const pos = positionals(
          args.slice(lits.indexOf("clone") + 1),
          new Set(["-b", "--branch", "-o", "--origin", "--depth", "--reference", "-c", "--config"]),
        );
        if (pos.length >= 2) add([pos[pos.length - 1]], "clones into");
      }
      break;
    }
  }
  // Generic output options of any program.
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
  if (prog === "sort") add(optionValues(args, ["-o", "--output"]), "writes");
  return targets;
}
