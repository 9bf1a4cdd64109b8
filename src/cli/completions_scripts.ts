/**
 * The zsh, bash and fish completion scripts, rendered from the completion
 * tree (src/cli/completions_tree.ts). Each script is the same small walker in
 * its shell's own language over the same data: for every command path, its
 * subcommands, options, options that take a value, and arguments, each value
 * with a source: fixed words (`w:once session`), `wisp completions values
 * KIND [SETTING]` at Tab time (`k:settings`, `k:setting-values:0` for the
 * setting named by argument 0), file names (`f`), or nothing (`-`).
 *
 * The walker reads the words before the cursor: a known subcommand (before
 * any argument) moves down the tree, an option that takes a value skips its
 * value, and everything else is an argument. At the cursor it offers the
 * option's values, the options (when the word starts with -), or the
 * subcommands and the next argument's values.
 */
import type { CompletionNode, ValueSource } from "./completions_tree.ts";

export const SHELLS = ["zsh", "bash", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

/** The marker line every script carries near its top; install replaces only files that have it. */
export const MARKER = "# wisp completions:";

/** How many lines from the top the marker may be on (zsh's #compdef comes first). */
const MARKER_LINES = 5;

function specOf(values: ValueSource | undefined): string {
  if (!values) return "-";
  if ("files" in values) return "f";
  if ("words" in values) return `w:${values.words.join(" ")}`;
  return values.settingArgument === undefined
    ? `k:${values.kind}`
    : `k:${values.kind}:${values.settingArgument}`;
}

/** A description fit for one completion line. */
function shortText(text: string): string {
  // deno-lint-ignore no-control-regex
  const flat = text.replace(/[\x00-\x1f\x7f]+/g, " ").replace(/\s+/g, " ").trim();
  return flat.length > 70 ? `${flat.slice(0, 69)}…` : flat;
}

/** The four tables of one node, as lines of `name<TAB>rest`. */
interface NodeTables {
  key: string;
  subs: string[];
  opts: string[];
  valopts: string[];
  args: string[];
}

function tablesOf(node: CompletionNode): NodeTables {
  return {
    key: node.path.join(" "),
    subs: node.subcommands.map((s) => `${s.name}\t${shortText(s.description)}`),
    opts: node.options.flatMap((o) => o.names.map((n) => `${n}\t${shortText(o.description)}`)),
    valopts: node.options.filter((o) => o.takesValue).flatMap((o) =>
      o.names.map((n) => `${n}\t${specOf(o.values)}`)
    ),
    args: node.arguments.map((a) => `${a.variadic ? "+" : ""}${specOf(a.values)}`),
  };
}

/** A bash/zsh $'…' string. */
function ansiC(text: string): string {
  return `$'${
    text.replaceAll("\\", "\\\\").replaceAll("'", "\\'").replaceAll("\t", "\\t").replaceAll(
      "\n",
      "\\n",
    )
  }'`;
}

/** A POSIX single-quoted word (a case pattern). */
function single(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A fish single-quoted string (a tab inside stays a tab). */
function fishQuote(text: string): string {
  return `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

function header(shell: Shell, version: string): string[] {
  return [
    `${MARKER} ${shell}, generated from the command tree of wisp ${version}.`,
    `# Written by 'wisp completions ${shell}' (wisp completions install puts it where ${shell} looks);`,
    "# edits are lost when it is written again.",
  ];
}

/** The node function bash and zsh share: sets four variables for a command path. */
function posixNodeFunction(nodes: NodeTables[]): string {
  const cases = nodes.map((n) =>
    [
      `    ${single(n.key)})`,
      `      _wisp_subs=${ansiC(n.subs.join("\n"))}`,
      `      _wisp_opts=${ansiC(n.opts.join("\n"))}`,
      `      _wisp_valopts=${ansiC(n.valopts.join("\n"))}`,
      `      _wisp_args=${ansiC(n.args.join("\n"))}`,
      "      ;;",
    ].join("\n")
  );
  return [
    "# The tables of one command path: subcommands, options, options that take a value, arguments.",
    "_wisp_node() {",
    "  _wisp_subs='' _wisp_opts='' _wisp_valopts='' _wisp_args=''",
    '  case "$1" in',
    ...cases,
    "  esac",
    "}",
  ].join("\n");
}

function renderBash(nodes: NodeTables[], version: string): string {
  return [
    ...header("bash", version),
    "# Needs bash-completion 2 for names with colons (ollama:llama3.2); works without it otherwise.",
    "",
    posixNodeFunction(nodes),
    "",
    "# The field after the tab on the line of TABLE ($1) that starts with KEY ($2).",
    "_wisp_field() {",
    "  local line",
    "  while IFS= read -r line; do",
    `    if [[ "\${line%%$'\\t'*}" == "$2" ]]; then printf '%s\\n' "\${line#*$'\\t'}"; return 0; fi`,
    '  done <<< "$1"',
    "  return 1",
    "}",
    "",
    "# The candidates of a value source ($1), given the arguments so far ($3…); 2 means file names.",
    "_wisp_values() {",
    "  local spec=$1 program=$2 kind n IFS=$' \\t\\n'",
    "  shift 2",
    '  case "$spec" in',
    "    f) return 2 ;;",
    "    w:*) printf '%s\\n' ${spec#w:} ;;",
    "    k:*)",
    '      kind=${spec#k:} n=""',
    "      if [[ $kind == *:* ]]; then n=${kind#*:} kind=${kind%%:*}; fi",
    "      if [[ -n $n ]]; then",
    "        [[ -n ${@:n+1:1} ]] || return 0",
    '        "$program" completions values "$kind" "${@:n+1:1}" 2>/dev/null | cut -f1',
    "      else",
    '        "$program" completions values "$kind" 2>/dev/null | cut -f1',
    "      fi",
    "      ;;",
    "  esac",
    "  return 0",
    "}",
    "",
    "_wisp() {",
    "  local cur words cword",
    "  if declare -F _init_completion >/dev/null; then",
    "    _init_completion -n =: || return",
    "  else",
    '    words=("${COMP_WORDS[@]}") cword=$COMP_CWORD cur=${COMP_WORDS[COMP_CWORD]}',
    "  fi",
    '  local node=wisp i w spec="" waiting="" dashdash="" candidates="" found',
    "  local -a positionals=()",
    '  _wisp_node "$node"',
    "  for ((i = 1; i < cword; i++)); do",
    "    w=${words[i]}",
    '    if [[ -n $waiting ]]; then waiting=""; continue; fi',
    "    if [[ -z $dashdash && $w == -- ]]; then dashdash=1; continue; fi",
    "    if [[ -z $dashdash && $w == -* ]]; then",
    "      [[ $w == *=* ]] && continue",
    '      _wisp_field "$_wisp_valopts" "$w" >/dev/null && waiting=$w',
    "      continue",
    "    fi",
    '    if [[ ${#positionals[@]} -eq 0 ]] && _wisp_field "$_wisp_subs" "$w" >/dev/null; then',
    '      node="$node $w"',
    '      _wisp_node "$node"',
    "      continue",
    "    fi",
    '    positionals+=("$w")',
    "  done",
    "  if [[ -n $waiting ]]; then",
    '    spec=$(_wisp_field "$_wisp_valopts" "$waiting")',
    "  elif [[ -z $dashdash && $cur == -* ]]; then",
    '    candidates=$(cut -f1 <<< "$_wisp_opts")',
    "  else",
    '    [[ ${#positionals[@]} -eq 0 && -n $_wisp_subs ]] && candidates=$(cut -f1 <<< "$_wisp_subs")',
    "    local -a args=()",
    '    [[ -n $_wisp_args ]] && mapfile -t args <<< "$_wisp_args"',
    "    i=${#positionals[@]}",
    "    if (( i < ${#args[@]} )); then spec=${args[i]}",
    "    elif (( ${#args[@]} > 0 )) && [[ ${args[-1]} == +* ]]; then spec=${args[-1]}",
    "    fi",
    "    spec=${spec#+}",
    "  fi",
    "  if [[ -n $spec && $spec != - ]]; then",
    '    found=$(_wisp_values "$spec" "${words[0]}" "${positionals[@]}")',
    "    if [[ $? -eq 2 ]]; then",
    "      compopt -o filenames 2>/dev/null",
    '      mapfile -t COMPREPLY < <(compgen -f -- "$cur")',
    "      return 0",
    "    fi",
    "    candidates+=$'\\n'\"$found\"",
    "  fi",
    "  local IFS=$'\\n'",
    '  mapfile -t COMPREPLY < <(compgen -W "$candidates" -- "$cur")',
    '  declare -F __ltrim_colon_completions >/dev/null && __ltrim_colon_completions "$cur"',
    "  return 0",
    "}",
    "",
    "complete -F _wisp wisp",
    "",
  ].join("\n");
}

function renderZsh(nodes: NodeTables[], version: string): string {
  return [
    "#compdef wisp",
    ...header("zsh", version),
    "",
    posixNodeFunction(nodes),
    "",
    "# The field after the tab on the line of TABLE ($1) that starts with KEY ($2).",
    "_wisp_field() {",
    "  local line",
    '  for line in "${(@f)1}"; do',
    `    if [[ "\${line%%$'\\t'*}" == "$2" ]]; then print -r -- "\${line#*$'\\t'}"; return 0; fi`,
    "  done",
    "  return 1",
    "}",
    "",
    "# Offer TABLE's lines ($2, name<TAB>description) as candidates tagged $1.",
    "_wisp_offer() {",
    "  local line name",
    "  local -a described",
    '  for line in "${(@f)2}"; do',
    "    [[ -n $line ]] || continue",
    "    name=${line%%$'\\t'*}",
    "    if [[ $line == *$'\\t'* && -n ${line#*$'\\t'} ]]; then",
    "      described+=(\"${name//:/\\\\:}:${line#*$'\\t'}\")",
    "    else",
    '      described+=("${name//:/\\\\:}")',
    "    fi",
    "  done",
    "  (( ${#described} )) || return 1",
    '  _describe -t "$1" "$1" described',
    "}",
    "",
    "_wisp() {",
    '  local node=wisp w spec="" waiting="" dashdash="" i kind n found ret=1',
    "  local -a positionals args",
    '  _wisp_node "$node"',
    "  for (( i = 2; i < CURRENT; i++ )); do",
    "    w=${words[i]}",
    '    if [[ -n $waiting ]]; then waiting=""; continue; fi',
    "    if [[ -z $dashdash && $w == -- ]]; then dashdash=1; continue; fi",
    "    if [[ -z $dashdash && $w == -* ]]; then",
    "      [[ $w == *=* ]] && continue",
    '      _wisp_field "$_wisp_valopts" "$w" >/dev/null && waiting=$w',
    "      continue",
    "    fi",
    '    if (( ${#positionals} == 0 )) && _wisp_field "$_wisp_subs" "$w" >/dev/null; then',
    '      node="$node $w"',
    '      _wisp_node "$node"',
    "      continue",
    "    fi",
    '    positionals+=("$w")',
    "  done",
    "  local cur=${words[CURRENT]}",
    "  if [[ -n $waiting ]]; then",
    '    spec=$(_wisp_field "$_wisp_valopts" "$waiting")',
    "  elif [[ -z $dashdash && $cur == -* ]]; then",
    '    _wisp_offer options "$_wisp_opts" && ret=0',
    "    return $ret",
    "  else",
    '    (( ${#positionals} == 0 )) && _wisp_offer commands "$_wisp_subs" && ret=0',
    '    args=("${(@f)_wisp_args}")',
    "    [[ -z $_wisp_args ]] && args=()",
    "    i=$(( ${#positionals} + 1 ))",
    "    if (( i <= ${#args} )); then spec=${args[i]}",
    "    elif (( ${#args} > 0 )) && [[ ${args[-1]} == +* ]]; then spec=${args[-1]}",
    "    fi",
    "    spec=${spec#+}",
    "  fi",
    '  case "$spec" in',
    "    f) _files && ret=0 ;;",
    '    w:*) _wisp_offer values "${(F)${(s: :)spec#w:}}" && ret=0 ;;',
    "    k:*)",
    '      kind=${spec#k:} n=""',
    "      if [[ $kind == *:* ]]; then n=${kind#*:} kind=${kind%%:*}; fi",
    "      if [[ -n $n ]]; then",
    "        [[ -n ${positionals[n+1]} ]] || return $ret",
    '        found=$("${words[1]}" completions values "$kind" "${positionals[n+1]}" 2>/dev/null)',
    "      else",
    '        found=$("${words[1]}" completions values "$kind" 2>/dev/null)',
    "      fi",
    '      _wisp_offer values "$found" && ret=0',
    "      ;;",
    "  esac",
    "  return $ret",
    "}",
    "",
    "# Loaded from fpath, this file is _wisp's body; sourced, it registers _wisp.",
    'if [[ "${funcstack[1]}" == _wisp ]]; then',
    '  _wisp "$@"',
    "else",
    "  compdef _wisp wisp",
    "fi",
    "",
  ].join("\n");
}

function renderFish(nodes: NodeTables[], version: string): string {
  const list = (lines: string[]) => lines.map(fishQuote).join(" ");
  const cases = nodes.map((n) =>
    [
      `        case ${fishQuote(n.key)}`,
      `            set -g __wisp_subs ${list(n.subs)}`,
      `            set -g __wisp_opts ${list(n.opts)}`,
      `            set -g __wisp_valopts ${list(n.valopts)}`,
      `            set -g __wisp_args ${list(n.args)}`,
    ].join("\n")
  );
  return [
    ...header("fish", version),
    "",
    "# The tables of one command path: subcommands, options, options that take a value, arguments.",
    "function __wisp_node --argument-names key",
    "    set -g __wisp_subs",
    "    set -g __wisp_opts",
    "    set -g __wisp_valopts",
    "    set -g __wisp_args",
    "    switch $key",
    ...cases,
    "    end",
    "end",
    "",
    "# The field after the tab on the line (of the rest of the arguments) that starts with KEY.",
    "function __wisp_field --argument-names key",
    "    for line in $argv[2..-1]",
    "        set -l parts (string split -m 1 \\t -- $line)",
    '        if test "$parts[1]" = "$key"',
    "            echo $parts[2]",
    "            return 0",
    "        end",
    "    end",
    "    return 1",
    "end",
    "",
    "function __wisp_complete",
    "    set -l tokens (commandline -opc)",
    "    set -l cur (commandline -ct)",
    "    set -l node wisp",
    "    set -l waiting",
    "    set -l dashdash",
    "    set -l positionals",
    "    set -l spec",
    "    __wisp_node $node",
    "    for w in $tokens[2..-1]",
    '        if test -n "$waiting"',
    "            set waiting",
    "            continue",
    "        end",
    '        if test -z "$dashdash"; and test "$w" = --',
    "            set dashdash 1",
    "            continue",
    "        end",
    '        if test -z "$dashdash"; and string match -q -- "-*" $w',
    '            string match -q -- "*=*" $w; and continue',
    "            __wisp_field $w $__wisp_valopts >/dev/null; and set waiting $w",
    "            continue",
    "        end",
    "        if test (count $positionals) -eq 0; and __wisp_field $w $__wisp_subs >/dev/null",
    '            set node "$node $w"',
    "            __wisp_node $node",
    "            continue",
    "        end",
    "        set -a positionals $w",
    "    end",
    '    if test -n "$waiting"',
    "        set spec (__wisp_field $waiting $__wisp_valopts)",
    '    else if test -z "$dashdash"; and string match -q -- "-*" "$cur"',
    "        printf '%s\\n' $__wisp_opts",
    "        return",
    "    else",
    "        test (count $positionals) -eq 0; and printf '%s\\n' $__wisp_subs",
    "        set -l i (math (count $positionals) + 1)",
    "        if test $i -le (count $__wisp_args)",
    "            set spec $__wisp_args[$i]",
    "        else if test (count $__wisp_args) -gt 0; and string match -q -- '+*' $__wisp_args[-1]",
    "            set spec $__wisp_args[-1]",
    "        end",
    "        set spec (string replace -r -- '^\\+' '' \"$spec\")",
    "    end",
    '    switch "$spec"',
    "        case f",
    '            __fish_complete_path "$cur"',
    "        case 'w:*'",
    "            string split ' ' -- (string sub -s 3 -- $spec)",
    "        case 'k:*'",
    "            set -l parts (string split ':' -- $spec)",
    "            if set -q parts[3]",
    "                set -l at (math $parts[3] + 1)",
    "                set -q positionals[$at]; or return",
    "                $tokens[1] completions values $parts[2] $positionals[$at] 2>/dev/null",
    "            else",
    "                $tokens[1] completions values $parts[2] 2>/dev/null",
    "            end",
    "    end",
    "end",
    "",
    "complete -c wisp -f -a '(__wisp_complete)'",
    "",
  ].join("\n");
}

/** The completion script for `shell`, from the command tree's nodes. */
export function completionScript(shell: Shell, nodes: CompletionNode[], version: string): string {
  const tables = nodes.map(tablesOf);
  switch (shell) {
    case "bash":
      return renderBash(tables, version);
    case "zsh":
      return renderZsh(tables, version);
    case "fish":
      return renderFish(tables, version);
  }
}

/** Whether `text` is a script wisp wrote: the marker on one of its first lines. */
export function isWispScript(text: string): boolean {
  return text.split("\n", MARKER_LINES).some((line) => line.startsWith(MARKER));
}
