/**
 * hot_paths from a profile: pure readers for the two profile formats people
 * have at hand, each returning every function with its self and total time
 * and its place as file:line, and a ranking of the hottest.
 *
 * - V8's `.cpuprofile` JSON (`node --cpu-prof`, `deno run --cpu-prof`,
 *   Chrome DevTools): a call tree of nodes plus the sampled node of each tick
 *   and the time between ticks. Self time is the ticks that landed on a
 *   function; total time counts a tick once for every function on its stack,
 *   so recursion is not counted twice.
 * - Python's `cProfile` text (`python3 -m cProfile -s <key> script.py`): the
 *   table after the "ncalls tottime percall cumtime percall" header; tottime
 *   is self time, cumtime total time.
 */

export type ProfileFormat = "cpuprofile" | "cprofile";

export interface ProfiledFunction {
  name: string;
  /** file:line (1-based), or "" for native code and builtins that have no place. */
  location: string;
  selfMs: number;
  totalMs: number;
  /** Calls (cProfile counts them; a sampling profile does not). */
  calls?: number;
}

export interface Profile {
  format: ProfileFormat;
  /** The time the profile covers. */
  totalMs: number;
  /** Ticks sampled (.cpuprofile). */
  samples?: number;
  functions: ProfiledFunction[];
}

export class ProfileError extends Error {}

// ---------- V8 .cpuprofile

interface CallFrame {
  functionName?: string;
  url?: string;
  lineNumber?: number;
}
interface CpuNode {
  id: number;
  callFrame?: CallFrame;
  hitCount?: number;
  children?: number[];
  parent?: number;
}
interface CpuProfileJson {
  nodes: CpuNode[];
  startTime?: number;
  endTime?: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** Nodes that are not functions: the tree's root and the time the thread slept. */
const NOT_FUNCTIONS = new Set(["(root)", "(idle)"]);

function placeOf(frame: CallFrame): string {
  const url = (frame.url ?? "").replace(/^file:\/\//, "");
  if (url === "" || frame.lineNumber === undefined || frame.lineNumber < 0) return url;
  return `${url}:${frame.lineNumber + 1}`;
}

function isCpuProfile(value: unknown): value is CpuProfileJson {
  return typeof value === "object" && value !== null &&
    Array.isArray((value as CpuProfileJson).nodes);
}

/** Microseconds each node was seen running, from the samples and their time deltas (else hit counts). */
function selfMicros(p: CpuProfileJson): Map<number, number> {
  const self = new Map<number, number>();
  const samples = p.samples ?? [];
  const deltas = p.timeDeltas ?? [];
  if (samples.length > 0 && deltas.length === samples.length) {
    // Tick i lasts until tick i+1 (timeDeltas[i+1]); the last one until endTime.
    let at = p.startTime ?? 0;
    const stamps = deltas.map((d) => (at += d));
    for (let i = 0; i < samples.length; i++) {
      const next = i + 1 < samples.length ? stamps[i + 1] : (p.endTime ?? stamps[i]);
      const span = Math.max(0, next - stamps[i]);
      self.set(samples[i], (self.get(samples[i]) ?? 0) + span);
    }
    return self;
  }
  // An older profile without deltas: the hit counts share the profile's duration.
  const hits = p.nodes.reduce((n, node) => n + (node.hitCount ?? 0), 0);
  const perHit = hits > 0 ? Math.max(0, (p.endTime ?? 0) - (p.startTime ?? 0)) / hits : 0;
  for (const node of p.nodes) self.set(node.id, (node.hitCount ?? 0) * perHit);
  return self;
}

export function parseCpuProfile(text: string): Profile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ProfileError("the profile is not JSON; a .cpuprofile is what --cpu-prof writes");
  }
  if (!isCpuProfile(json)) {
    throw new ProfileError("the JSON has no nodes; a .cpuprofile is what --cpu-prof writes");
  }
  const byId = new Map<number, CpuNode>();
  for (const node of json.nodes) byId.set(node.id, node);
  const parent = new Map<number, number>();
  for (const node of json.nodes) {
    for (const child of node.children ?? []) parent.set(child, node.id);
    if (node.parent !== undefined) parent.set(node.id, node.parent);
  }
  const children = new Map<number, number[]>();
  for (const [child, of] of parent) {
    const list = children.get(of) ?? [];
    list.push(child);
    children.set(of, list);
  }
  const self = selfMicros(json);
  const keyOf = (node: CpuNode) => {
    const f = node.callFrame ?? {};
    return `${f.functionName || "(anonymous)"}\u0000${placeOf(f)}`;
  };

  // Walk the tree once: each node's subtree time, and whether it is the outermost
  // frame of its function on its stack (only those add to the function's total).
  const order: number[] = [];
  const outermost = new Set<number>();
  const onStack = new Map<string, number>();
  const stack: Array<[number, boolean]> = json.nodes.filter((n) => !parent.has(n.id)).map((
    n,
  ) => [n.id, false]);
  const seen = new Set<number>();
  while (stack.length > 0) {
    const [id, leaving] = stack.pop()!;
    const key = keyOf(byId.get(id) ?? { id });
    if (leaving) {
      onStack.set(key, onStack.get(key)! - 1);
      continue;
    }
    if (seen.has(id)) continue; // a malformed tree with a cycle: each node once
    seen.add(id);
    order.push(id);
    const depth = (onStack.get(key) ?? 0) + 1;
    onStack.set(key, depth);
    if (depth === 1) outermost.add(id);
    stack.push([id, true]);
    for (const child of children.get(id) ?? []) stack.push([child, false]);
  }
  const subtree = new Map<number, number>();
  for (let i = order.length - 1; i >= 0; i--) {
    const id = order[i];
    let sum = self.get(id) ?? 0;
    for (const child of children.get(id) ?? []) sum += subtree.get(child) ?? 0;
    subtree.set(id, sum);
  }

  const functions = new Map<string, ProfiledFunction>();
  let covered = 0;
  for (const id of order) {
    const node = byId.get(id)!;
    const name = node.callFrame?.functionName || "(anonymous)";
    covered += self.get(id) ?? 0;
    if (NOT_FUNCTIONS.has(name)) continue;
    const key = keyOf(node);
    const f = functions.get(key) ??
      { name, location: placeOf(node.callFrame ?? {}), selfMs: 0, totalMs: 0 };
    f.selfMs += (self.get(id) ?? 0) / 1000;
    if (outermost.has(id)) f.totalMs += (subtree.get(id) ?? 0) / 1000;
    functions.set(key, f);
  }
  const span = (json.endTime ?? 0) - (json.startTime ?? 0);
  return {
    format: "cpuprofile",
    totalMs: (span > 0 ? span : covered) / 1000,
    samples: json.samples?.length ?? json.nodes.reduce((n, x) => n + (x.hitCount ?? 0), 0),
    functions: [...functions.values()],
  };
}

// ---------- Python cProfile text

const CPROFILE_HEADER =
  /^\s*ncalls\s+tottime\s+percall\s+cumtime\s+percall\s+filename:lineno\(function\)\s*$/;
const CPROFILE_ROW =
  /^\s*(\d+)(?:\/\d+)?\s+(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)\s+(\S.*?)\s*$/;
const CPROFILE_TOTAL = /\bfunction calls(?: \(\d+ primitive calls\))? in (\d+(?:\.\d+)?) seconds/;
/** The profiler's own call that ends the profile, not the program's. */
const PROFILER_ITSELF = /^\{method 'disable' of '_lsprof\.Profiler' objects\}$/;

/** `file.py:12(name)`, `{built-in method builtins.exec}`, `~:0(<built-in method …>)`. */
function cprofilePlace(spec: string): { name: string; location: string } {
  if (spec.startsWith("{") && spec.endsWith("}")) return { name: spec.slice(1, -1), location: "" };
  const m = /^(.*):(\d+)\((.*)\)$/.exec(spec);
  if (!m) return { name: spec, location: "" };
  if (m[1] === "~" && m[2] === "0") return { name: m[3].replace(/^<(.*)>$/, "$1"), location: "" };
  return { name: m[3], location: `${m[1]}:${m[2]}` };
}

function isCProfileText(text: string): boolean {
  return text.split("\n", 400).some((line) => CPROFILE_HEADER.test(line));
}

export function parseCProfile(text: string): Profile {
  const lines = text.split("\n");
  const header = lines.findIndex((line) => CPROFILE_HEADER.test(line));
  if (header < 0) {
    throw new ProfileError(
      "no cProfile table found (the line starting ncalls tottime); print it with python3 -m cProfile -s cumulative",
    );
  }
  let totalSeconds = 0;
  for (const line of lines.slice(0, header)) {
    const m = CPROFILE_TOTAL.exec(line);
    if (m) totalSeconds = Number(m[1]);
  }
  const functions: ProfiledFunction[] = [];
  for (const line of lines.slice(header + 1)) {
    if (line.trim() === "") {
      if (functions.length > 0) break; // the table ends at its first blank line
      continue;
    }
    const m = CPROFILE_ROW.exec(line);
    if (!m) break;
    if (PROFILER_ITSELF.test(m[6])) continue;
    functions.push({
      ...cprofilePlace(m[6]),
      calls: Number(m[1]),
      selfMs: Number(m[2]) * 1000,
      totalMs: Number(m[4]) * 1000,
    });
  }
  return { format: "cprofile", totalMs: totalSeconds * 1000, functions };
}

// ---------- either, ranked and rendered

/** A .cpuprofile (JSON with nodes) or cProfile text, told apart by content, not by name. */
export function parseProfile(text: string): Profile {
  const start = text.trimStart();
  if (start.startsWith("{")) return parseCpuProfile(text);
  if (isCProfileText(text)) return parseCProfile(text);
  throw new ProfileError(
    "not a profile wisp reads: give a .cpuprofile (node or deno --cpu-prof) or the text python3 -m cProfile prints",
  );
}

export interface Hottest {
  bySelf: ProfiledFunction[];
  byTotal: ProfiledFunction[];
}

function byPlaceThenName(a: ProfiledFunction, b: ProfiledFunction): number {
  return a.location.localeCompare(b.location) || a.name.localeCompare(b.name);
}

export function hottest(profile: Profile, top = 15): Hottest {
  const fns = profile.functions;
  return {
    bySelf: fns.filter((f) => f.selfMs > 0)
      .sort((a, b) => b.selfMs - a.selfMs || byPlaceThenName(a, b)).slice(0, top),
    byTotal: fns.filter((f) => f.totalMs > 0)
      .sort((a, b) => b.totalMs - a.totalMs || byPlaceThenName(a, b)).slice(0, top),
  };
}

function ms(value: number): string {
  return value >= 100 ? `${Math.round(value)} ms` : `${value.toFixed(1)} ms`;
}

function share(part: number, whole: number): string {
  return whole > 0 ? ` (${Math.round((part / whole) * 100)}%)` : "";
}

function entry(f: ProfiledFunction, whole: number, lead: "self" | "total"): string {
  const where = f.location ? ` at ${f.location}` : "";
  const calls = f.calls !== undefined ? `, ${f.calls} ${f.calls === 1 ? "call" : "calls"}` : "";
  const numbers = lead === "self"
    ? `${ms(f.selfMs)} self${share(f.selfMs, whole)}, ${ms(f.totalMs)} total`
    : `${ms(f.totalMs)} total${share(f.totalMs, whole)}, ${ms(f.selfMs)} self`;
  return `  ${f.name}${where}: ${numbers}${calls}`;
}

export function renderProfile(profile: Profile, top = 15): { text: string; hottest: Hottest } {
  const h = hottest(profile, top);
  const what = profile.format === "cpuprofile"
    ? `V8 CPU profile, ${profile.samples ?? 0} samples over ${ms(profile.totalMs)}`
    : `cProfile, ${ms(profile.totalMs)}`;
  const lines = [`${what}; ${profile.functions.length} functions; the hottest:`];
  lines.push("by self time:");
  for (const f of h.bySelf) lines.push(entry(f, profile.totalMs, "self"));
  lines.push("by total time:");
  for (const f of h.byTotal) lines.push(entry(f, profile.totalMs, "total"));
  const held = profile.functions.filter((f) => f.selfMs > 0).length - h.bySelf.length;
  if (held > 0) lines.push(`  … ${held} more functions with self time (held back)`);
  return { text: lines.join("\n"), hottest: h };
}
