/**
 * The supervisor: a few lines of POSIX shell that run inside the launcher and
 * own the command's lifetime, because wisp itself cannot signal a process
 * group (Deno.kill needs an unscoped --allow-run, which the permission fence
 * does not grant; docs/adr/0111-supervisor-inside-the-sandbox.md).
 *
 * It runs the command line as `sh -c LINE` with stdin from /dev/null and the
 * default signal dispositions (under a small perl waiter when capturing, to
 * tell an exit status from a signal), and
 * - on a line `stop` on its standard input (wisp's control pipe): SIGTERM to
 *   every process of the command, SIGKILL two seconds later; `kill`: SIGKILL
 *   at once; the pipe's end while the command runs: SIGKILL at once, because
 *   wisp closes it only after the launcher exits, so an early end means wisp
 *   is gone (killed, or quit without waiting) and nothing it started may
 *   outlive it — neither the command nor the launcher around the supervisor.
 *   ("pidns" repeats the kill every tenth of a second until the supervisor
 *   ends: the end can come before the command has even started.);
 * - with a time limit: a `sleep` of its own fires the same TERM-then-KILL, so
 *   the limit holds however busy wisp's event loop is;
 * - when capturing, one start mark on stderr, `\x1ewisp-start`, written
 *   before the command can write anything and as its time limit begins, so
 *   wisp's own backstop timer counts from the command's start, not from the
 *   launcher's (which may take a while to set up a sandbox);
 * - when the shell exits, for any reason: SIGKILL to everything left, so no
 *   background job or TERM-ignoring child outlives the command; then one
 *   trailer line on stderr, `\x1ewisp-exit STATUS WHY KIND`, which wisp
 *   strips (KIND: whether the command exited or was killed, as the waiter
 *   below saw it).
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

/**
 * How the command ended as the waiter saw it: by `exit` (the status is the
 * one it chose, 129–159 included), by a `signal` (the status is 128+N), or
 * `-` when there was no waiter to ask (perl missing, or killed with the
 * command), and the status is read the shells' way.
 */
export type EndKind = "exit" | "signal" | "-";

export const TRAILER_MARK = "\x1ewisp-exit ";
/** The longest trailer: the mark, a status of up to 3 digits, a reason, a kind, a line feed. */
export const TRAILER_MAX_BYTES = TRAILER_MARK.length + 3 + 1 + 7 + 1 + 6 + 1;

/**
 * The waiter: a few lines of perl between the supervisor and the command,
 * because a shell's `$?` says 130 both for `exit 130` and for a death by
 * SIGINT, and perl's `$?` is the raw wait status
 * (docs/adr/0330-exit-status-or-signal.md). It ignores the signals a stop or a
 * time limit sends (the command gets back the dispositions it came with),
 * runs the command as its child, writes `exit` or `signal` on its fd 3, and
 * exits with the shell's reading of the status, so the supervisor's status is
 * the same with or without it. No module is loaded: perl starts in about the
 * time a shell does. No single quote inside: the scripts quote it with them.
 */
const WAITER = [
  // Run with -t, which ignores PERL5OPT and PERL5LIB (a -M in the person's PERL5OPT must not stop
  // the waiter, and the command still gets them); what -t would warn about is nobody's business.
  "BEGIN { $SIG{__WARN__} = sub {} }",
  // Not "perl" in the process table, so a command that kills every perl (pkill -9 perl) spares
  // the waiter, whose death would end the command with it.
  '$0 = "wisp-waiter";',
  "my %d = map { ($_, $SIG{$_}) } qw(HUP INT QUIT TERM);",
  '$SIG{$_} = "IGNORE" for keys %d;',
  // A copy of fd 3 that the command does not inherit (perl marks it
  // close-on-exec), then fd 3 itself closed.
  'my $ok = open(my $k, ">&", 3); if ($ok) { open(my $c, ">&=", 3); close $c }',
  "my $p = $ok ? fork : undef;",
  'if (!$p) { $SIG{$_} = $d{$_} // "DEFAULT" for keys %d; exec { $ARGV[0] } @ARGV; exit 127 }',
  "waitpid($p, 0) == $p or exit 126;",
  "my $s = $?;",
  'syswrite $k, ($s & 127 ? "signal\\n" : "exit\\n");',
  "exit($s & 127 ? 128 + ($s & 127) : $s >> 8);",
].join(" ");

const PIDNS = `trap 'w=timeout' USR1
trap 'w=stop' USR2
w=-
if [ "$3" = capture ]; then
  exec 3<&0
  {
    trap '' TERM
    while read -r m; do
      case $m in
        stop) kill -USR2 1; kill -TERM -1; { command -p sleep 2; kill -KILL -1; } & ;;
        kill) kill -KILL -1 ;;
      esac
    done
    while :; do kill -KILL -1; command -p sleep 0.1; done
  } <&3 >/dev/null 2>&1 &
  exec 3<&-
fi
[ "$3" = capture ] && printf '\\036wisp-start\\n' >&2
if [ "$2" -gt 0 ]; then
  { trap '' TERM; command -p sleep "$2"; kill -USR1 1; kill -TERM -1; command -p sleep 2; kill -KILL -1; } </dev/null >/dev/null 2>&1 &
fi
exec 4>&2 2>/dev/null
k=-
if [ "$3" != capture ]; then (exec /bin/sh -c "$1") 2>&4 4>&-
elif [ -x /usr/bin/perl ]; then k=$(exec /usr/bin/perl -t -e '${WAITER}' -- /bin/sh -c "$1" </dev/null 3>&1 >&5 2>&4 4>&- 5>&-) 5>&1
else (exec /bin/sh -c "$1") </dev/null 2>&4 4>&-; fi
s=$?
kill -KILL -1
[ "$3" = capture ] && printf '\\036wisp-exit %s %s %s\\n' "$s" "$w" "\${k:--}" >&4
exit "$s"
`;

// bash (macOS /bin/sh is bash 3.2): `set -m` gives the background job its own
// process group without a terminal, and does not ignore SIGINT in it. Why it
// ended (timeout, stop) goes through a private temporary file, not a signal:
// a trap that interrupts bash's `wait` can make the next wait hang.
const PGROUP = `f=$(command -p mktemp "\${TMPDIR:-/tmp}/wisp-supervisor.XXXXXX" 2>/dev/null) || f=
exec 3<&0
[ "$3" = capture ] && printf '\\036wisp-start\\n' >&2
set -m
exec 4>&2 2>/dev/null
if [ "$3" != capture ]; then /bin/sh -c "$1" 2>&4 3<&- 4>&- &
elif [ -n "$f" ] && [ -x /usr/bin/perl ]; then /usr/bin/perl -t -e '${WAITER}' -- /bin/sh -c "$1" </dev/null 2>&4 3>>"$f" 4>&- &
else /bin/sh -c "$1" </dev/null 2>&4 3<&- 4>&- & fi
p=$!
set +m
r=
if [ "$3" = capture ]; then
  {
    trap '' TERM
    while read -r m; do
      case $m in
        stop) [ -n "$f" ] && echo stop >> "$f"; kill -TERM -$p; { command -p sleep 2; kill -KILL -$p; } & ;;
        kill) kill -KILL -$p ;;
      esac
    done
    kill -KILL -$p
  } <&3 >/dev/null 2>&1 4>&- &
  r=$!
fi
exec 3<&-
t=
if [ "$2" -gt 0 ]; then
  { trap '' TERM; command -p sleep "$2"; [ -n "$f" ] && echo timeout >> "$f"; kill -TERM -$p; command -p sleep 2; kill -KILL -$p; } </dev/null >/dev/null 2>&1 4>&- &
  t=$!
fi
wait $p
s=$?
# Kill the group until no live process is left in it (for up to two
# seconds). A zombie still counts for kill(2), so ask ps when it can run (it
# cannot under Seatbelt, being setuid; there launchd reaps orphans at once).
alive() {
  if l=$(command -p ps -A -o pgid= -o stat= 2>/dev/null); then
    echo "$l" | command -p awk -v g="$p" '$1 == g && $2 !~ /^Z/ { n++ } END { exit n > 0 ? 0 : 1 }'
  else
    kill -0 -$p 2>/dev/null
  fi
}
n=0
while kill -KILL -$p 2>/dev/null && alive && [ $n -lt 20 ]; do command -p sleep 0.1; n=$((n+1)); done
[ -n "$r$t" ] && kill -KILL $r $t
# The file holds, one a line, why the supervisor ended the command (the last
# one counts) and how the waiter saw it end.
w=- k=-
if [ -n "$f" ]; then
  while read -r l; do case $l in stop|timeout) w=$l ;; exit|signal) k=$l ;; esac; done < "$f" 2>/dev/null
  command -p rm -f "$f"
fi
[ "$3" = capture ] && printf '\\036wisp-exit %s %s %s\\n' "$s" "$w" "$k" >&4
exit "$s"
`;

function supervisorScript(flavour: SupervisorFlavour): string {
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

/** What the supervisor's trailer says: the status, why it ended, and how. */
export interface Trailer {
  status: number;
  reason: EndReason;
  kind: EndKind;
}

// deno-lint-ignore no-control-regex
const TRAILER_PATTERN = /\x1ewisp-exit (\d{1,3}) (timeout|stop|-) (exit|signal|-)\n$/;

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
    trailer: {
      status: Number(match[1]),
      reason: match[2] as EndReason,
      kind: match[3] as EndKind,
    },
  };
}

/** The line the supervisor writes first on stderr when capturing, as its command starts. */
export const START_MARK = "\x1ewisp-start\n";
const START_MARK_BYTES = new TextEncoder().encode(START_MARK);

/**
 * Takes the supervisor's start mark off the front of stderr as the bytes
 * arrive, and calls `onStart` the moment it is seen. Only the very first
 * bytes count: the supervisor writes the mark before its command runs, so a
 * look-alike the command prints stays in its output. A stream that does not
 * begin with the mark (a launcher's own error, before any supervisor ran)
 * passes through whole, and `onStart` is never called.
 */
export class StartMarkReader {
  /** Bytes that may still be the start of the mark; null once decided. */
  #pending: Uint8Array | null = new Uint8Array(0);

  constructor(readonly onStart: () => void) {}

  /** The part of `chunk` that is the stream's own (possibly empty). */
  take(chunk: Uint8Array): Uint8Array {
    const pending = this.#pending;
    if (pending === null) return chunk;
    const merged = pending.length === 0 ? chunk : concatBytes(pending, chunk);
    const compared = Math.min(merged.length, START_MARK_BYTES.length);
    for (let i = 0; i < compared; i++) {
      if (merged[i] !== START_MARK_BYTES[i]) {
        this.#pending = null;
        return merged;
      }
    }
    if (merged.length < START_MARK_BYTES.length) {
      // A copy: the caller may reuse the chunk's buffer for its next read.
      this.#pending = merged.slice();
      return new Uint8Array(0);
    }
    this.#pending = null;
    this.onStart();
    return merged.subarray(START_MARK_BYTES.length);
  }

  /** At the stream's end: the bytes held back that turned out not to be the mark. */
  finish(): Uint8Array {
    const pending = this.#pending ?? new Uint8Array(0);
    this.#pending = null;
    return pending;
  }
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return joined;
}
