/**
 * The supervisor: a few lines of POSIX shell that run inside the launcher and
 * own the command's lifetime, because wisp itself cannot signal a process
 * group (Deno.kill needs an unscoped --allow-run, which the permission fence
 * does not grant; docs/adr/0111-supervisor-inside-the-sandbox.md).
 *
 * It runs the command line as `sh -c LINE` with stdin from /dev/null and the
 * default signal dispositions, and
 * - on a line `stop` on its standard input (wisp's control pipe): SIGTERM to
 *   every process of the command, SIGKILL two seconds later; `kill`: SIGKILL
 *   at once;
 * - with a time limit: a `sleep` of its own fires the same TERM-then-KILL, so
 *   the limit holds however busy wisp's event loop is;
 * - when the shell exits, for any reason: SIGKILL to everything left, so no
 *   background job or TERM-ignoring child outlives the command; then one
 *   trailer line on stderr, `\x1ewisp-exit STATUS WHY`, which wisp strips.
 *   The supervisor's own stderr goes to /dev/null (the command keeps the
 *   real one as fd 2), so the shell's "Killed" notices never reach the output;
 *   the command runs as a subshell because dash applies a simple command's
 *   redirections in the parent while it waits, and would print there.
 *
 * Two flavours. "pidns" (Linux): the supervisor is PID 1 of the command's own
 * PID namespace, so `kill -1` reaches every process the command started
 * (setsid'ed ones included) and none can signal the supervisor; when it exits
 * the kernel kills whatever is left. "pgroup" (macOS, no PID namespaces):
 * bash's job control puts the command in a process group of its own, which
 * the supervisor signals and then kills until it is empty.
 */

export type SupervisorFlavour = "pidns" | "pgroup";

/** Why the supervisor ended the command, as its trailer says. */
export type EndReason = "timeout" | "stop" | "-";

export const TRAILER_MARK = "\x1ewisp-exit ";
/** The longest trailer: the mark, a status of up to 3 digits, a reason, a line feed. */
export const TRAILER_MAX_BYTES = TRAILER_MARK.length + 3 + 1 + 7 + 1;

const PIDNS = `trap 'w=timeout' USR1
trap 'w=stop' USR2
w=-
if [ "$3" = capture ]; then
  exec 3<&0
  {
    trap '' TERM
    while read -r m; do
      case $m in
        stop) kill -USR2 1; kill -TERM -1; { sleep 2; kill -KILL -1; } & ;;
        kill) kill -KILL -1 ;;
      esac
    done
  } <&3 >/dev/null 2>&1 &
  exec 3<&-
fi
if [ "$2" -gt 0 ]; then
  { trap '' TERM; sleep "$2"; kill -USR1 1; kill -TERM -1; sleep 2; kill -KILL -1; } </dev/null >/dev/null 2>&1 &
fi
exec 4>&2 2>/dev/null
if [ "$3" = capture ]; then (exec sh -c "$1") </dev/null 2>&4 4>&-; else (exec sh -c "$1") 2>&4 4>&-; fi
s=$?
kill -KILL -1
[ "$3" = capture ] && printf '\\036wisp-exit %s %s\\n' "$s" "$w" >&4
exit "$s"
`;

// bash (macOS /bin/sh is bash 3.2): `set -m` gives the background job its own
// process group without a terminal, and does not ignore SIGINT in it. Why it
// ended (timeout, stop) goes through a private temporary file, not a signal:
// a trap that interrupts bash's `wait` can make the next wait hang.
const PGROUP = `f=$(mktemp "\${TMPDIR:-/tmp}/wisp-supervisor.XXXXXX" 2>/dev/null) || f=
exec 3<&0
set -m
exec 4>&2 2>/dev/null
if [ "$3" = capture ]; then sh -c "$1" </dev/null 2>&4 3<&- 4>&- & else sh -c "$1" 2>&4 3<&- 4>&- & fi
p=$!
set +m
r=
if [ "$3" = capture ]; then
  {
    trap '' TERM
    while read -r m; do
      case $m in
        stop) [ -n "$f" ] && echo stop > "$f"; kill -TERM -$p; { sleep 2; kill -KILL -$p; } & ;;
        kill) kill -KILL -$p ;;
      esac
    done
  } <&3 >/dev/null 2>&1 4>&- &
  r=$!
fi
exec 3<&-
t=
if [ "$2" -gt 0 ]; then
  { trap '' TERM; sleep "$2"; [ -n "$f" ] && echo timeout > "$f"; kill -TERM -$p; sleep 2; kill -KILL -$p; } </dev/null >/dev/null 2>&1 4>&- &
  t=$!
fi
wait $p
s=$?
# Kill the group until no live process is left in it (for up to two
# seconds). A zombie still counts for kill(2), so ask ps when it can run (it
# cannot under Seatbelt, being setuid; there launchd reaps orphans at once).
alive() {
  if l=$(ps -A -o pgid= -o stat= 2>/dev/null); then
    echo "$l" | awk -v g="$p" '$1 == g && $2 !~ /^Z/ { n++ } END { exit n > 0 ? 0 : 1 }'
  else
    kill -0 -$p 2>/dev/null
  fi
}
n=0
while kill -KILL -$p 2>/dev/null && alive && [ $n -lt 20 ]; do sleep 0.1; n=$((n+1)); done
[ -n "$r$t" ] && kill -KILL $r $t
w=-
[ -n "$f" ] && read -r w < "$f" 2>/dev/null; [ -n "$f" ] && rm -f "$f"
[ -z "$w" ] && w=-
[ "$3" = capture ] && printf '\\036wisp-exit %s %s\\n' "$s" "$w" >&4
exit "$s"
`;

export function supervisorScript(flavour: SupervisorFlavour): string {
  return flavour === "pidns" ? PIDNS : PGROUP;
}

/**
 * The argv that runs `line` under the supervisor: `sh -c SCRIPT wisp-supervisor
 * LINE SECONDS capture|passthrough`. capture: stdin is wisp's control pipe
 * (the command gets /dev/null) and a trailer ends stderr; passthrough (wisp
 * sandbox): the command inherits stdin, and there is no trailer. Passing the line as an argument keeps it out
 * of the script's text, so no line can change what the supervisor does.
 */
export function supervisorArgv(
  flavour: SupervisorFlavour,
  line: string,
  timeoutSeconds: number,
  capture: boolean,
): string[] {
  const shell = flavour === "pgroup" ? "/bin/bash" : "/bin/sh";
  return [
    shell,
    "-c",
    supervisorScript(flavour),
    "wisp-supervisor",
    line,
    String(Math.max(0, Math.ceil(timeoutSeconds))),
    capture ? "capture" : "passthrough",
  ];
}

export interface Trailer {
  status: number;
  reason: EndReason;
}

// deno-lint-ignore no-control-regex
const TRAILER_PATTERN = /\x1ewisp-exit (\d{1,3}) (timeout|stop|-)\n$/;

/**
 * Split the supervisor's trailer off the end of stderr's last bytes. Only the
 * very end counts: the supervisor writes it after everything else is dead, so
 * a command that prints a look-alike earlier cannot be mistaken for it.
 */
export function splitTrailer(tail: Uint8Array): { rest: Uint8Array; trailer?: Trailer } {
  const text = new TextDecoder("latin1").decode(tail);
  const match = TRAILER_PATTERN.exec(text);
  if (!match) return { rest: tail };
  // latin1 decoding keeps one char per byte, so the index is a byte offset.
  return {
    rest: tail.subarray(0, match.index),
    trailer: { status: Number(match[1]), reason: match[2] as EndReason },
  };
}
