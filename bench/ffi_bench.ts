/**
 * The native library's cost, each beside a baseline measured in the same run:
 *
 * - one FFI round trip (wisp_abi_version, the smallest call) beside a plain
 *   TypeScript function call, and one JSON-answering call (a process's
 *   details) beside reading the same three /proc files in TypeScript;
 * - the whole process table through libwisp beside reading /proc/<pid>/stat
 *   for every process in TypeScript (what system_info's reader did in
 *   process, without the launcher's host view).
 *
 * Linux only (it builds the libraries first); prints the median of each and
 * the ratios.
 *
 *   deno run -A bench/ffi_bench.ts [--rounds N]
 */
import { join } from "node:path";
import { BUILD_DIR, buildNative } from "../scripts/native.ts";
import { openLibwisp, processDetails, processTable } from "../src/ffi/libwisp.ts";

if (Deno.build.os !== "linux") {
  console.log("ffi bench: Linux only (the /proc baseline)");
  Deno.exit(0);
}
const roundsArg = Deno.args.indexOf("--rounds");
const ROUNDS = roundsArg >= 0 ? Number(Deno.args[roundsArg + 1]) : 30;

await buildNative();
const lib = openLibwisp(join(BUILD_DIR, "libwisp.so"));

/** The median time of `fn` in microseconds, over `rounds` runs of `inner` calls each. */
function median(fn: () => unknown, rounds: number, inner: number): number {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) fn();
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    for (let i = 0; i < inner; i++) fn();
    times.push(((performance.now() - start) * 1000) / inner);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

let sink = 0;
const plain = (n: number) => n + 1;
function tsTable(): number {
  let n = 0;
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      n += Number(fields[1]) + Number(fields[11]) + Number(fields[21]);
    } catch { /* ended meanwhile */ }
  }
  return n;
}
function tsDetails(pid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  const cmdline = Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\0");
  const exe = Deno.readLinkSync(`/proc/${pid}/exe`);
  return stat.length + cmdline.length + exe.length;
}

const rows: [string, number, number][] = [
  [
    "round trip: wisp_abi_version vs a TS call",
    median(() => (sink += lib.symbols.wisp_abi_version()), ROUNDS, 10_000),
    median(() => (sink = plain(sink)), ROUNDS, 10_000),
  ],
  [
    "one process's details: libwisp vs TS /proc reads",
    median(() => processDetails(lib, Deno.pid), ROUNDS, 50),
    median(() => tsDetails(Deno.pid), ROUNDS, 50),
  ],
  [
    "process table: libwisp vs TS /proc/*/stat",
    median(() => processTable(lib), ROUNDS, 3),
    median(tsTable, ROUNDS, 3),
  ],
];
const processes = processTable(lib).length;
console.log(`ffi bench (${processes} processes, median of ${ROUNDS} rounds)`);
console.log(
  "case".padEnd(52) + "libwisp µs".padStart(12) + "baseline µs".padStart(13) + "ratio".padStart(8),
);
for (const [name, ours, base] of rows) {
  console.log(
    name.padEnd(52) + ours.toFixed(2).padStart(12) + base.toFixed(2).padStart(13) +
      (ours / base).toFixed(2).padStart(8),
  );
}
if (sink === -1) console.log(sink); // keeps the calls from being optimised away
