/**
 * The one pass's automaton stepped in WebAssembly: four automata at once, one over each quarter of
 * a text's ASCII bytes (docs/adr/0702). The automaton is the one `anchorSet` builds; this module
 * only runs its table faster than JavaScript does. Each step of an automaton waits on the table
 * entry the last step chose, so independent automata overlap those waits; in JavaScript a third
 * and a fourth automaton gained little (ADR 0690), in WebAssembly, where a step is a few plain
 * loads, four run in about two thirds of the time of JavaScript's two (ADR 0702).
 *
 * The WebAssembly code only records, per quarter, where the automaton stands in a state where some
 * literal ends; the caller (anchors.ts) turns those into hits exactly as its own search does. When
 * a quarter has more such places than its record holds (or the memory cannot grow to the text),
 * the machine returns nothing and the caller searches that text itself.
 *
 * The module is written here as bytes by a few small helpers (there is no WebAssembly toolchain on
 * the machines this builds on); the function is listed op by op with what each step does.
 */
import type { AnchorSet } from "./anchors.ts";

/** Places a quarter may record before the search gives the text back (a text dense with hits). */
const RECORD_PLACES = 16 * 1024;

/** Where things sit in the machine's memory. */
const CLASS_AT = 0; // 256 bytes: each byte's class, times 4 (a byte offset into a table row)
const TABLE_AT = 256; // the table: per state and class, the next state's row, as a byte offset

/** What a search left: for each quarter, the places (step index) and states recorded. */
export interface MachineRecord {
  /** Index of quarter k's first step in the bytes. */
  starts: number[];
  /** Places recorded per quarter. */
  counts: number[];
  /** Step index within its quarter, and the state there, of quarter k's place p: at `slot(k, p)`. */
  words: Int32Array;
  /** Where quarter k's place p sits in `words` (its step; its state is the next word). */
  slot(k: number, p: number): number;
  /** The state `anchorSet` numbers, from a recorded state word. */
  state(word: number): number;
}

/** A compiled machine for one anchor set. */
export interface AnchorMachine {
  /**
   * Step four automata over `bytes` (ASCII, or any bytes: a byte beyond ASCII is a character no
   * literal uses), each from `back` bytes before its quarter; undefined when a quarter recorded
   * more places than it can hold.
   */
  run(bytes: Uint8Array, back: number): MachineRecord | undefined;
}

const machines = new WeakMap<AnchorSet, AnchorMachine | null>();
let compiled: WebAssembly.Module | null | undefined;

/** The machine for `set`, built once; undefined where WebAssembly cannot run. */
export function anchorMachine(set: AnchorSet): AnchorMachine | undefined {
  const known = machines.get(set);
  if (known !== undefined) return known ?? undefined;
  let machine: AnchorMachine | null = null;
  try {
    machine = buildMachine(set);
  } catch {
    machine = null; // no WebAssembly here (or no memory for it): the caller searches in JavaScript
  }
  machines.set(set, machine);
  return machine ?? undefined;
}

function buildMachine(set: AnchorSet): AnchorMachine {
  compiled ??= new WebAssembly.Module(searchModule());
  const rowShift = set.shift + 2; // a row of 4-byte entries
  // The states where a literal ends get rows from `reporting` on, a power of two above every
  // other row, so one bit of a row's offset tells them: the four automata are checked with one
  // test of their offsets or-ed together.
  const states = set.table.length >> set.shift;
  let reporting = 1;
  while (reporting < Math.max(set.firstReporting, states - set.firstReporting)) reporting *= 2;
  const rowOf = (state: number) =>
    state < set.firstReporting ? state : reporting + state - set.firstReporting;
  const tableBytes = 2 * reporting << rowShift;
  const countsAt = TABLE_AT + tableBytes;
  const recordAt = countsAt + 16;
  const recordBytes = 4 * RECORD_PLACES * 8;
  const dataAt = recordAt + recordBytes;
  const page = 64 * 1024;
  const memory = new WebAssembly.Memory({ initial: Math.ceil((dataAt + page) / page) });
  const instance = new WebAssembly.Instance(compiled, { machine: { memory } });
  const search = instance.exports.search as (
    ...args: number[]
  ) => number;

  const classes = new Uint8Array(memory.buffer);
  for (let b = 0; b < 256; b++) classes[CLASS_AT + b] = set.byteClass[b] * 4;
  const table = new Int32Array(memory.buffer);
  const width = 1 << set.shift;
  for (let state = 0; state < states; state++) {
    const row = (TABLE_AT >> 2) + (rowOf(state) << set.shift);
    for (let c = 0; c < width; c++) {
      table[row + c] = rowOf(set.table[(state << set.shift) | c]) << rowShift;
    }
  }
  const reportingBit = reporting << rowShift;

  return {
    run(bytes, back) {
      const length = bytes.length;
      const quarter = Math.ceil(length / 4);
      const starts = [0, 1, 2, 3].map((k) => Math.max(0, k * quarter - back));
      // Every quarter takes the same steps: its own bytes and the `back` before them. The last
      // one runs a few bytes past the end, over zeros: byte 0 is in no literal, so no state there
      // reports.
      const steps = quarter + Math.min(back, quarter * 3);
      const end = Math.max(starts[3] + steps, length);
      if (memory.buffer.byteLength < dataAt + end) {
        try {
          memory.grow(Math.ceil((dataAt + end - memory.buffer.byteLength) / page));
        } catch {
          return undefined; // no memory for a text this long: the caller searches it
        }
      }
      const view = new Uint8Array(memory.buffer);
      view.set(bytes, dataAt);
      view.fill(0, dataAt + length, dataAt + end);
      const outcome = search(
        dataAt + starts[0],
        dataAt + starts[1],
        dataAt + starts[2],
        dataAt + starts[3],
        steps,
        reportingBit,
        recordAt,
        RECORD_PLACES,
        countsAt,
      );
      if (outcome !== 0) return undefined;
      const words = new Int32Array(memory.buffer);
      const counts = [0, 1, 2, 3].map((k) => words[countsAt / 4 + k]);
      return {
        starts,
        counts,
        words,
        slot: (k, p) => (recordAt >> 2) + k * RECORD_PLACES * 2 + p * 2,
        state: (word) => {
          const row = word >> rowShift;
          return row < reporting ? row : row - reporting + set.firstReporting;
        },
      };
    },
  };
}

// --- The module's bytes -----------------------------------------------------------------------

/** Unsigned LEB128, as the format writes sizes, counts and indexes. */
function unsigned(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** Signed LEB128, as the format writes constants. */
function signed(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    const done = (n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

const vector = (items: number[][]) => [...unsigned(items.length), ...items.flat()];
const section = (id: number, body: number[]) => [id, ...unsigned(body.length), ...body];
const name = (text: string) => [...unsigned(text.length), ...new TextEncoder().encode(text)];

const I32 = 0x7f;
const op = {
  get: (local: number) => [0x20, ...unsigned(local)],
  set: (local: number) => [0x21, ...unsigned(local)],
  tee: (local: number) => [0x22, ...unsigned(local)],
  const: (n: number) => [0x41, ...signed(n)],
  /** Load one byte (unsigned) from the address on the stack plus `offset`. */
  load8: (offset: number) => [0x2d, 0, ...unsigned(offset)],
  /** Load a 4-byte word from the address on the stack plus `offset`. */
  load32: (offset: number) => [0x28, 2, ...unsigned(offset)],
  /** Store a 4-byte word (value on top, address below it) at the address plus `offset`. */
  store32: (offset: number) => [0x36, 2, ...unsigned(offset)],
  add: [0x6a],
  mul: [0x6c],
  or: [0x72],
  and: [0x71],
  geU: [0x4f],
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  if: [0x04, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, ...unsigned(depth)],
  brIf: (depth: number) => [0x0d, ...unsigned(depth)],
  return: [0x0f],
};

/**
 * The module: one imported memory (`machine.memory`) and one function,
 * `search(p0, p1, p2, p3, steps, reportingBit, record, places, counts) -> 0 | -1`: four automata
 * step `steps` times, automaton k over the bytes from address pk; wherever one stands in a state
 * whose row offset has `reportingBit`, it records its step and state in its own part of
 * `record` (`places` entries of two words each). The counts go to `counts` (four words). -1 when a
 * part is full.
 */
export function searchModule(): Uint8Array<ArrayBuffer> {
  // Parameters 0–8, then the locals: four states, the step, four counts.
  const [P0, STEPS, BIT, RECORD, PLACES, COUNTS] = [0, 4, 5, 6, 7, 8];
  const STATE0 = 9;
  const STEP = 13;
  const COUNT0 = 14;
  const ADDRESS = 18;
  const code: number[] = [];
  code.push(...op.block, ...op.loop);
  code.push(...op.get(STEP), ...op.get(STEPS), ...op.geU, ...op.brIf(1)); // done after `steps`
  for (let k = 0; k < 4; k++) {
    // state_k = table[state_k + class[byte at p_k + step]]
    code.push(...op.get(STATE0 + k));
    code.push(...op.get(P0 + k), ...op.get(STEP), ...op.add, ...op.load8(0), ...op.load8(CLASS_AT));
    code.push(...op.add, ...op.load32(TABLE_AT), ...op.set(STATE0 + k));
  }
  // Most steps end here: no automaton in a reporting state.
  for (let k = 0; k < 4; k++) {
    code.push(...op.get(STATE0 + k));
    if (k > 0) code.push(...op.or);
  }
  code.push(...op.get(BIT), ...op.and, ...op.if);
  for (let k = 0; k < 4; k++) {
    code.push(...op.get(STATE0 + k), ...op.get(BIT), ...op.and, ...op.if);
    // A full part gives the text back to the caller.
    code.push(...op.get(COUNT0 + k), ...op.get(PLACES), ...op.geU, ...op.if);
    code.push(...op.const(-1), ...op.return, ...op.end);
    // address = record + (k * places + count_k) * 8; store the step, then the state.
    code.push(...op.get(PLACES), ...op.const(k), ...op.mul, ...op.get(COUNT0 + k), ...op.add);
    code.push(...op.const(8), ...op.mul, ...op.get(RECORD), ...op.add, ...op.tee(ADDRESS));
    code.push(...op.get(STEP), ...op.store32(0));
    code.push(...op.get(ADDRESS), ...op.get(STATE0 + k), ...op.store32(4));
    code.push(...op.get(COUNT0 + k), ...op.const(1), ...op.add, ...op.set(COUNT0 + k));
    code.push(...op.end);
  }
  code.push(...op.end);
  code.push(...op.get(STEP), ...op.const(1), ...op.add, ...op.set(STEP), ...op.br(0));
  code.push(...op.end, ...op.end);
  for (let k = 0; k < 4; k++) {
    code.push(...op.get(COUNTS), ...op.get(COUNT0 + k), ...op.store32(4 * k));
  }
  code.push(...op.const(0), ...op.end);

  // Locals: four states, the step, four counts, one address (ten i32).
  const body = [...vector([[...unsigned(10), I32]]), ...code];
  const params = vector(new Array(9).fill([I32]));
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
    ...section(1, vector([[0x60, ...params, ...vector([[I32]])]])), // the function's type
    ...section(2, vector([[...name("machine"), ...name("memory"), 0x02, 0x00, 0x01]])), // memory
    ...section(3, vector([[0]])), // one function, of type 0
    ...section(7, vector([[...name("search"), 0x00, 0]])), // exported as `search`
    ...section(10, vector([[...unsigned(body.length), ...body]])), // its code
  ]);
}
