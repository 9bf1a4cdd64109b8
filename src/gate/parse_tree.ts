/**
 * The full shell reader: tree-sitter-bash, walked into the gate's simple
 * commands through pipelines, lists, subshells, groups, command and process
 * substitution, here-docs and here-strings, functions and compound
 * statements. parse.ts loads this module only when a line is more than the
 * quick reader (quick_parse.ts) takes on, so a process that checks only plain
 * lines never starts tree-sitter's WebAssembly or Deno's Node layer for it.
 */
import { createRequire } from "node:module";
import { Language, type Node, Parser } from "web-tree-sitter";
import {
  decodeAnsiC,
  decodeDoubleQuoted,
  type Segment,
  splitUnquoted,
  type Word,
} from "./words.ts";
import { braces, mergeLits } from "./parse_segments.ts";
import type { FunctionDef, Loop, ParsedLine, Redirect, SimpleCommand } from "./parse.ts";
import type { Assignment } from "./parse.ts";

let parser: Parser | undefined;

/**
 * Lines parsed once when the parser starts. V8 compiles a WebAssembly function
 * at its first call, and tree-sitter-bash's lexer and scanner are large, so
 * the first line a process parses used to pay most of the parser's start-up
 * (about 100 ms here). These lines take the grammar through the paths
 * ordinary lines use — pipelines, lists, quotes of every kind, expansions,
 * substitutions, redirections, assignments, compound commands, a function and
 * a here-doc — through the walker below, so that cost is paid when the parser loads (docs/adr/0410-start-up-by-construction.md).
 */
const WARM_UP_LINES = [
  `cd "$HOME/src" && FOO=1 ls -la ./a\ b 2>/dev/null | grep -v 'x y' >> out.txt; ` +
  `echo $(date +%s) \`pwd\` \${X:-y} $'\n' "$@" &\n`,
  `for f in *.ts; do [ -f "$f" ] && cat -- "$f" | wc -l || true; done; ` +
  `if test 1 -eq 1; then (exit 0); fi\n`,
  `f() { local a=(1 2); echo "\${a[@]}" <<< "$((1 + 2))"; }; ` +
  `case $1 in a|b) f ;; *) : ;; esac; x=$(<in) git commit -m "a $b"\n`,
  `cat <<'EOF' > /tmp/x && sh -c 'echo hi' | tee >(wc -c) && ! [[ -n $PATH && $x =~ ^a ]]\n` +
  `body $x\nEOF\n`,
];

/** Load the grammar, and take it through the common paths once (parse.ts calls this once). */
export async function loadTreeParser(): Promise<void> {
  const require = createRequire(import.meta.url);
  const wasm = require.resolve("tree-sitter-bash/tree-sitter-bash.wasm");
  // The grammar's bytes are read while tree-sitter's own module starts.
  const grammar = Deno.readFile(wasm);
  grammar.catch(() => {}); // awaited below; a failure is reported there
  await Parser.init();
  const language = await Language.load(await grammar);
  const p = new Parser();
  p.setLanguage(language);
  parser = p;
  // Through the walker too: its code is compiled at first use as well.
  for (const line of WARM_UP_LINES) treeParseLine(line);
}

const MAX_DEPTH = 200;

/**
 * Parse a line with tree-sitter (after `loadTreeParser`). parse.ts has already
 * refused a line that is too long or holds a NUL byte.
 */
export function treeParseLine(line: string): ParsedLine {
  if (!parser) throw new Error("the shell parser is not loaded; await loadTreeParser() first");
  // tree-sitter-bash takes several times longer over a pipeline that stops at the end of the
  // input than over one ended by a newline (`a | b | c`: about 70 µs against 15 µs), so it is
  // given one. Bash reads both the same, but tree-sitter does not always: a line that ends in a
  // backslash or a blank (`\` joins the next line, `\ ` is an escaped blank), or holds a here-doc
  // (whose body a final newline would end), is parsed as it is. Offsets are unchanged, and every
  // text is taken from the line itself. A line that does not parse with the newline is parsed
  // again as it is, so what the policy recovers from a broken line does not depend on it.
  const withNewline = /[^\s\\]$/.test(line) && !line.includes("<<");
  let tree = parser.parse(withNewline ? line + "\n" : line);
  if (tree?.rootNode.hasError && withNewline) {
    tree.delete();
    tree = parser.parse(line);
  }
  if (!tree) {
    return { line, ok: false, error: "the shell parser gave up", commands: [], functions: [] };
  }
  try {
    const walker = new Walker(line);
    walker.walk(tree.rootNode, walker.rootCtx());
    let ok = !tree.rootNode.hasError && !walker.tooDeep && walker.strayToken === null;
    let error: string | undefined;
    if (tree.rootNode.hasError) error = describeError(tree.rootNode, line);
    else if (walker.tooDeep) error = "the line nests too deeply to check";
    else if (walker.strayToken) error = `${walker.strayToken} appears outside a case statement`;
    if (ok && walker.commands.length === 0 && line.trim() !== "" && !/^\s*(#.*)?$/s.test(line)) {
      // Something parsed but nothing runs? Only comments may do that.
      ok = walker.sawStatement;
      if (!ok) error = "no command found";
    }
    return { line, ok, error, commands: walker.commands, functions: walker.functions };
  } finally {
    tree.delete();
  }
}

/** The loop a node starts (while, until, for, for ((…))), or null for any other node. */
function loopOf(node: Node, line: string): Loop | null {
  const text = (n: Node) => line.slice(n.startIndex, n.endIndex);
  if (node.type === "while_statement") {
    const until = node.child(0)?.type === "until";
    const condition = node.childrenForFieldName("condition")
      .filter((c): c is Node => !!c && c.isNamed).map(text).join(" ").trim();
    const always = /^(true|:|\/(usr\/)?bin\/true|\[\s*1\s*\]|\(\(\s*1\s*\)\)|test 1)$/;
    const never = /^(false|\/(usr\/)?bin\/false|! (true|:)|\(\(\s*0\s*\)\))$/;
    return { endless: until ? never.test(condition) : always.test(condition), rounds: null };
  }
  if (node.type === "c_style_for_statement") {
    const condition = node.childForFieldName("condition");
    return { endless: !condition || /^\s*1\s*$/.test(text(condition)), rounds: null };
  }
  if (node.type === "for_statement") {
    const values = node.childrenForFieldName("value").filter((c): c is Node => !!c);
    if (values.length === 0) return { endless: false, rounds: null };
    let rounds = 0;
    for (const v of values) {
      const t = text(v);
      const range = /^\{(-?\d+)\.\.(-?\d+)(\.\.-?\d+)?\}$/.exec(t);
      const seq = /^\$\(\s*seq\s+(?:-\S+\s+)*(-?\d+)(?:\s+(-?\d+))?(?:\s+(-?\d+))?\s*\)$/.exec(t);
      if (range) rounds += Math.abs(Number(range[2]) - Number(range[1])) + 1;
      else if (seq) {
        const [first, step, last] = seq[3] !== undefined
          ? [Number(seq[1]), Number(seq[2]), Number(seq[3])]
          : seq[2] !== undefined
          ? [Number(seq[1]), 1, Number(seq[2])]
          : [1, 1, Number(seq[1])];
        rounds += step === 0 ? Infinity : Math.floor(Math.abs(last - first) / Math.abs(step)) + 1;
      } else if (v.type === "command_substitution" || /[*?[]/.test(t)) {
        return { endless: false, rounds: null };
      } else rounds += 1;
    }
    return { endless: rounds === Infinity, rounds: rounds === Infinity ? null : rounds };
  }
  return null;
}

function describeError(root: Node, line: string): string {
  let found: Node | null = null;
  const visit = (n: Node) => {
    if (found) return;
    if (n.type === "ERROR" || n.isMissing) {
      found = n;
      return;
    }
    for (const c of n.children) if (c) visit(c);
  };
  visit(root);
  if (!found) return "the shell parser could not read it";
  const n = found as Node;
  const near = line.slice(n.startIndex, Math.min(n.endIndex, n.startIndex + 20)).replace(
    /\s+/g,
    " ",
  );
  return n.isMissing
    ? `the line is incomplete (missing ${n.type})`
    : `the shell parser could not read it near ${JSON.stringify(near || line.slice(-10))}`;
}

interface Ctx {
  substitutionOf: number | null;
  functionName: string | null;
  depth: number;
  /** Redirections of an enclosing statement (apply to every command inside). */
  inherited: Redirect[];
  pipeIn: boolean;
  upstream: number[];
  loop?: Loop | null;
}

class Walker {
  commands: SimpleCommand[] = [];
  functions: FunctionDef[] = [];
  tooDeep = false;
  sawStatement = false;
  /** A case terminator (;;) outside a case: bash refuses it, tree-sitter does not. */
  strayToken: string | null = null;

  readonly mayHoldTerminator: boolean;

  constructor(readonly line: string) {
    this.mayHoldTerminator = line.includes(";;") || line.includes(";&");
  }

  rootCtx(): Ctx {
    return {
      substitutionOf: null,
      functionName: null,
      depth: 0,
      inherited: [],
      pipeIn: false,
      upstream: [],
    };
  }

  text(node: Node): string {
    return this.line.slice(node.startIndex, node.endIndex);
  }

  /** Walk a statement-level node; returns the ids of the commands it holds (not substitutions). */
  walk(node: Node, ctx: Ctx): number[] {
    if (ctx.depth > MAX_DEPTH) {
      this.tooDeep = true;
      return [];
    }
    const deeper: Ctx = { ...ctx, depth: ctx.depth + 1 };
    // Every case terminator holds ";;" or ";&": a line without either has none to look for.
    if (this.mayHoldTerminator && node.type !== "case_item" && node.type !== "case_statement") {
      for (const child of node.children) {
        if (
          child && !child.isNamed &&
          (child.type === ";;" || child.type === ";&" || child.type === ";;&")
        ) {
          this.strayToken = child.type;
        }
      }
    }
    switch (node.type) {
      case "command":
        return [this.command(node, ctx)];
      case "variable_assignment":
      case "variable_assignments":
        return [this.bareAssignment(node, ctx)];
      case "declaration_command":
      case "unset_command":
        return [this.declaration(node, ctx)];
      case "pipeline":
        return this.pipeline(node, deeper);
      case "redirected_statement":
        return this.redirected(node, deeper);
      case "function_definition": {
        const nameNode = node.childForFieldName("name");
        const name = nameNode ? this.text(nameNode) : "";
        const ids: number[] = [];
        for (const child of node.namedChildren) {
          if (!child || (nameNode && child.id === nameNode.id) || child.type === "word") continue;
          ids.push(...this.walk(child, { ...deeper, functionName: name }));
        }
        this.functions.push({ name, body: ids });
        this.sawStatement = true;
        return [];
      }
      case "comment":
        return [];
      case "test_command":
      case "arithmetic_expansion":
      case "binary_expression":
      case "unary_expression":
        this.sawStatement = true;
        this.scanWords(node, deeper, null);
        return [];
      default: {
        const loop = loopOf(node, this.line);
        const inner: Ctx = loop ? { ...deeper, loop } : deeper;
        if (
          node.type === "for_statement" || node.type === "c_style_for_statement" ||
          node.type === "case_statement" || node.type === "case_item"
        ) {
          // Their value/word lists can hold substitutions.
          this.sawStatement = true;
        }
        const ids: number[] = [];
        for (const child of node.namedChildren) {
          if (!child) continue;
          if (isWordNode(child.type)) this.scanWords(child, inner, null);
          else {
            const walked = this.walk(child, inner);
            // `cmd &`: the statement before a lone & runs in the background.
            if (child.nextSibling?.type === "&") {
              for (const id of walked) this.commands[id].background = true;
            }
            ids.push(...walked);
          }
        }
        return ids;
      }
    }
  }

  pipeline(node: Node, ctx: Ctx): number[] {
    const all: number[] = [];
    let upstream = [...ctx.upstream];
    let first = true;
    for (const stage of node.namedChildren) {
      if (!stage || stage.type === "comment") continue;
      const stageCtx: Ctx = first ? ctx : { ...ctx, pipeIn: true, upstream };
      const ids = this.walk(stage, stageCtx);
      all.push(...ids);
      upstream = [...upstream, ...ids];
      first = false;
    }
    return all;
  }

  redirected(node: Node, ctx: Ctx): number[] {
    const body = node.childForFieldName("body");
    const redirects: Redirect[] = [];
    const continuations: Node[] = [];
    const firstNew = this.commands.length;
    let heredoc: { body: string; expands: boolean } | null = null;
    let herestring: Word | null = null;
    for (const child of node.namedChildren) {
      if (!child || (body && child.id === body.id)) continue;
      if (child.type === "heredoc_redirect") {
        const h = this.heredoc(child, ctx, continuations, redirects);
        heredoc = h;
      } else if (child.type === "herestring_redirect") {
        herestring = this.herestring(child, ctx);
      } else if (child.type === "file_redirect") {
        redirects.push(this.fileRedirect(child, ctx));
      } else if (!isWordNode(child.type)) {
        continuations.push(child);
      }
    }
    const inner: Ctx = { ...ctx, inherited: [...ctx.inherited, ...redirects] };
    const lastRedirectCmd = this.commands.length;
    const ids = body ? this.walk(body, inner) : [];
    // Substitutions in the statement's redirections (bash < <(curl …)) belong to its command.
    if (ids.length > 0) {
      for (let k = firstNew; k < lastRedirectCmd; k++) {
        const c = this.commands[k];
        if (c.substitutionOf === (ctx.substitutionOf ?? -1)) c.substitutionOf = ids[0];
      }
    }
    // Input redirections of a compound statement feed every command inside it.
    for (const id of ids) {
      const cmd = this.commands[id];
      if (heredoc && !cmd.heredoc) cmd.heredoc = heredoc;
      if (herestring && !cmd.herestring) cmd.herestring = herestring;
    }
    // tree-sitter-bash hangs `cat <<EOF | sh` as a pipeline inside the here-doc
    // redirect: what follows is fed by the body.
    let upstream = [...ids];
    for (const cont of continuations) {
      const contIds = this.walk(cont, { ...ctx, pipeIn: true, upstream });
      ids.push(...contIds);
      upstream = [...upstream, ...contIds];
    }
    return ids;
  }

  heredoc(
    node: Node,
    ctx: Ctx,
    continuations: Node[],
    redirects: Redirect[],
  ): { body: string; expands: boolean } {
    let start = "";
    let body = "";
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === "heredoc_start") start = this.text(child);
      else if (child.type === "heredoc_body") {
        body = this.text(child);
        // Substitutions in an unquoted here-doc run.
        this.scanWords(child, ctx, null);
      } else if (child.type === "file_redirect") redirects.push(this.fileRedirect(child, ctx));
      else if (child.type === "heredoc_end") continue;
      else continuations.push(child);
    }
    const expands = !/['"\\]/.test(start);
    return { body, expands };
  }

  herestring(node: Node, ctx: Ctx): Word | null {
    for (const child of node.namedChildren) {
      if (child && isWordNode(child.type)) return this.word(child, ctx, null);
    }
    return null;
  }

  fileRedirect(node: Node, ctx: Ctx): Redirect {
    let op = "";
    let fd: number | null = null;
    let target: Word | null = null;
    let dupFd: number | undefined;
    for (const child of node.children) {
      if (!child) continue;
      if (!child.isNamed) {
        if (/^[<>&|]+-?$/.test(child.type)) op += child.type;
        continue;
      }
      if (child.type === "file_descriptor") fd = Number(this.text(child));
      else if (isWordNode(child.type)) {
        const w = this.word(child, ctx, null);
        if ((op === ">&" || op === "<&") && /^\d+-?$|^-$/.test(this.text(child))) {
          dupFd = Number.parseInt(this.text(child), 10);
        } else target = w;
      }
    }
    return { op, fd, target, ...(dupFd !== undefined ? { dupFd } : {}) };
  }

  newCommand(node: Node, ctx: Ctx): SimpleCommand {
    const cmd: SimpleCommand = {
      id: this.commands.length,
      text: this.text(node).trim(),
      start: node.startIndex,
      words: [],
      assignments: [],
      standaloneAssignments: false,
      redirects: [...ctx.inherited],
      pipeIn: ctx.pipeIn,
      upstream: ctx.upstream,
      substitutionOf: ctx.substitutionOf,
      functionName: ctx.functionName,
      heredoc: null,
      herestring: null,
      background: false,
      loop: ctx.loop ?? null,
    };
    this.commands.push(cmd);
    this.sawStatement = true;
    return cmd;
  }

  command(node: Node, ctx: Ctx): number {
    const cmd = this.newCommand(node, ctx);
    for (const child of node.namedChildren) {
      if (!child) continue;
      switch (child.type) {
        case "variable_assignment":
          cmd.assignments.push(this.assignment(child, ctx, cmd.id));
          break;
        case "command_name": {
          const inner = child.namedChildren[0];
          if (inner) cmd.words.push(this.word(inner, ctx, cmd.id));
          break;
        }
        case "file_redirect":
          cmd.redirects.push(this.fileRedirect(child, { ...ctx, substitutionOf: cmd.id }));
          break;
        case "herestring_redirect":
          cmd.herestring = this.herestring(child, { ...ctx, substitutionOf: cmd.id });
          break;
        case "comment":
          break;
        default:
          cmd.words.push(this.word(child, ctx, cmd.id));
      }
    }
    return cmd.id;
  }

  bareAssignment(node: Node, ctx: Ctx): number {
    const cmd = this.newCommand(node, ctx);
    cmd.standaloneAssignments = true;
    const list = node.type === "variable_assignments" ? node.namedChildren : [node];
    for (const a of list) {
      if (a && a.type === "variable_assignment") {
        cmd.assignments.push(this.assignment(a, ctx, cmd.id));
      }
    }
    return cmd.id;
  }

  declaration(node: Node, ctx: Ctx): number {
    const cmd = this.newCommand(node, ctx);
    cmd.standaloneAssignments = true;
    const keyword = this.text(node).trim().split(/\s+/)[0];
    cmd.words.push({ raw: keyword, segs: [{ kind: "lit", text: keyword, quoted: false }] });
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === "variable_assignment") {
        cmd.assignments.push(this.assignment(child, ctx, cmd.id));
      } else if (child.type === "variable_name") {
        const t = this.text(child);
        cmd.words.push({ raw: t, segs: [{ kind: "lit", text: t, quoted: false }] });
      } else cmd.words.push(this.word(child, ctx, cmd.id));
    }
    return cmd.id;
  }

  assignment(node: Node, ctx: Ctx, owner: number): Assignment {
    const nameNode = node.childForFieldName("name");
    const valueNode = node.childForFieldName("value");
    const name = nameNode ? this.text(nameNode) : "";
    return { name, value: valueNode ? this.word(valueNode, ctx, owner) : null };
  }

  /** Find substitutions inside nodes that are not words of a command. */
  scanWords(node: Node, ctx: Ctx, owner: number | null): void {
    if (node.type === "command_substitution" || node.type === "process_substitution") {
      this.substitution(node, ctx, owner);
      return;
    }
    for (const child of node.namedChildren) if (child) this.scanWords(child, ctx, owner);
  }

  substitution(node: Node, ctx: Ctx, owner: number | null): void {
    const inner: Ctx = {
      substitutionOf: owner ?? ctx.substitutionOf ?? -1,
      functionName: ctx.functionName,
      depth: ctx.depth + 1,
      inherited: [],
      pipeIn: false,
      upstream: [],
      loop: ctx.loop,
    };
    if (inner.depth > MAX_DEPTH) {
      this.tooDeep = true;
      return;
    }
    for (const child of node.namedChildren) if (child) this.walk(child, inner);
  }

  /** Build a Word from a word-like node, walking any substitution inside it. */
  word(node: Node, ctx: Ctx, owner: number | null): Word {
    const segs: Segment[] = [];
    this.segments(node, ctx, owner, segs, false, true);
    return { raw: this.text(node), segs: mergeLits(braces(segs)) };
  }

  segments(
    node: Node,
    ctx: Ctx,
    owner: number | null,
    out: Segment[],
    quoted: boolean,
    atStart: boolean,
  ): void {
    const text = this.text(node);
    switch (node.type) {
      case "word":
      case "number":
      case "variable_name":
      case "special_variable_name":
      case "test_operator":
      case "extglob_pattern":
      case "regex":
        if (quoted) out.push({ kind: "lit", text, quoted: true });
        else out.push(...splitUnquoted(text, atStart));
        return;
      case "raw_string":
        out.push({ kind: "lit", text: text.slice(1, -1), quoted: true });
        return;
      case "ansi_c_string":
        out.push({ kind: "lit", text: decodeAnsiC(text.slice(2, -1)), quoted: true });
        return;
      case "string_content":
        out.push({ kind: "lit", text: decodeDoubleQuoted(text), quoted: true });
        return;
      case "string":
      case "translated_string": {
        const open = node.type === "string" ? 1 : 2;
        let pos = node.startIndex + open;
        const end = node.endIndex - 1;
        let empty = true;
        for (const child of node.namedChildren) {
          if (!child) continue;
          if (child.startIndex > pos) {
            out.push({
              kind: "lit",
              text: decodeDoubleQuoted(this.line.slice(pos, child.startIndex)),
              quoted: true,
            });
          }
          this.segments(child, ctx, owner, out, true, false);
          pos = Math.max(pos, child.endIndex);
          empty = false;
        }
        if (end > pos) {
          out.push({
            kind: "lit",
            text: decodeDoubleQuoted(this.line.slice(pos, end)),
            quoted: true,
          });
        } else if (empty) out.push({ kind: "lit", text: "", quoted: true });
        return;
      }
      case "simple_expansion": {
        const name = text.slice(1);
        out.push({ kind: "var", name, quoted, plain: true });
        return;
      }
      case "expansion": {
        const m = /^\$\{([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])\}$/.exec(text);
        const nameMatch = /^\$\{[#!]?([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(text);
        out.push({
          kind: "var",
          name: m ? m[1] : nameMatch ? nameMatch[1] : "?",
          quoted,
          plain: !!m,
        });
        // ${x:-$(cmd)} runs cmd
        this.scanWords(node, ctx, owner);
        return;
      }
      case "command_substitution":
      case "process_substitution":
        out.push({ kind: "sub", text, quoted });
        this.substitution(node, ctx, owner);
        return;
      case "arithmetic_expansion":
        out.push({ kind: "arith", text });
        this.scanWords(node, ctx, owner);
        return;
      case "brace_expression":
        out.push({ kind: "glob", text });
        return;
      case "concatenation": {
        let pos = node.startIndex;
        let first = true;
        for (const child of node.namedChildren) {
          if (!child) continue;
          if (child.startIndex > pos) {
            const gap = this.line.slice(pos, child.startIndex);
            out.push(...splitUnquoted(gap, first && atStart));
            first = false;
          }
          this.segments(child, ctx, owner, out, quoted, first && atStart);
          pos = Math.max(pos, child.endIndex);
          first = false;
        }
        if (node.endIndex > pos) {
          out.push(...splitUnquoted(this.line.slice(pos, node.endIndex), false));
        }
        return;
      }
      case "array": {
        // Elements are kept apart by a space: `(sudo id)` reads as "sudo id", not "sudoid".
        let first = true;
        for (const child of node.namedChildren) {
          if (!child) continue;
          if (!first) out.push({ kind: "lit", text: " ", quoted: true });
          this.segments(child, ctx, owner, out, quoted, false);
          first = false;
        }
        return;
      }
      default:
        // Anything else (a heredoc body, an expression): keep it as text, walk substitutions.
        out.push({ kind: "lit", text, quoted });
        this.scanWords(node, ctx, owner);
    }
  }
}

function isWordNode(type: string): boolean {
  return type === "word" || type === "string" || type === "raw_string" ||
    type === "ansi_c_string" ||
    type === "concatenation" || type === "simple_expansion" || type === "expansion" ||
    type === "command_substitution" || type === "process_substitution" || type === "number" ||
    type === "arithmetic_expansion" || type === "translated_string" ||
    type === "brace_expression" ||
    type === "heredoc_body";
}
