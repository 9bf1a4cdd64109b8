/**
 * json_shape: the structure of a JSON document (or JSON Lines) without its
 * data — each object's keys with their types, which keys are optional (and
 * how often present), array lengths with their elements' shapes merged,
 * unions such as `string | null`, and the few values a short string field
 * takes when it takes few (an enum). Rendered as an indented outline,
 * bounded in depth and keys.
 */

export type Shape =
  | { t: "null" }
  | { t: "boolean" }
  | { t: "number"; int: boolean }
  | { t: "string"; values: Set<string> | null; samples: number }
  | { t: "array"; lengths: [number, number]; count: number; item?: Shape }
  | { t: "object"; keys: Map<string, { shape: Shape; count: number }>; count: number }
  | { t: "union"; of: Shape[] };

/** Distinct values kept per string field to call it an enum. */
const ENUM_VALUES = 6;
const ENUM_MAX_LENGTH = 24;

/** The shape of one value. */
export function shapeOfValue(value: unknown): Shape {
  if (value === null) return { t: "null" };
  if (typeof value === "boolean") return { t: "boolean" };
  if (typeof value === "number") return { t: "number", int: Number.isInteger(value) };
  if (typeof value === "string") {
    return {
      t: "string",
      values: value.length <= ENUM_MAX_LENGTH ? new Set([value]) : null,
      samples: 1,
    };
  }
  if (Array.isArray(value)) {
    let item: Shape | undefined;
    for (const v of value) item = absorb(item, v);
    return { t: "array", lengths: [value.length, value.length], count: 1, item };
  }
  const keys = new Map<string, { shape: Shape; count: number }>();
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    keys.set(k, { shape: shapeOfValue(v), count: 1 });
  }
  return { t: "object", keys, count: 1 };
}

type Kind = Shape["t"];

function kindOf(value: unknown): Kind {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  const type = typeof value;
  return type === "boolean" || type === "number" || type === "string" ? type : "object";
}

/**
 * `merge(shape, shapeOfValue(value))`, built without the value's own shape:
 * `shape` is updated in place and returned (or a union holding it). The
 * accumulator of a document or of JSON Lines owns every shape in it, so
 * nothing else sees the change. Building a throw-away shape per record and
 * copying every map and set on each merge took most of json_shape's time on
 * large inputs (docs/adr/0280); the test holds the two equal on random values.
 */
export function absorb(shape: Shape | undefined, value: unknown): Shape {
  if (shape === undefined) return shapeOfValue(value);
  const kind = kindOf(value);
  if (shape.t === "union") {
    const i = shape.of.findIndex((p) => p.t === kind);
    if (i >= 0) shape.of[i] = absorb(shape.of[i], value);
    else shape.of.push(shapeOfValue(value));
    return shape;
  }
  if (shape.t !== kind) return { t: "union", of: [shape, shapeOfValue(value)] };
  switch (shape.t) {
    case "null":
    case "boolean":
      return shape;
    case "number":
      shape.int = shape.int && Number.isInteger(value);
      return shape;
    case "string": {
      const text = value as string;
      if (shape.values) {
        if (text.length > ENUM_MAX_LENGTH) shape.values = null;
        else {
          shape.values.add(text);
          if (shape.values.size > ENUM_VALUES) shape.values = null;
        }
      }
      shape.samples++;
      return shape;
    }
    case "array": {
      const list = value as unknown[];
      if (list.length < shape.lengths[0]) shape.lengths[0] = list.length;
      if (list.length > shape.lengths[1]) shape.lengths[1] = list.length;
      shape.count++;
      for (const v of list) shape.item = absorb(shape.item, v);
      return shape;
    }
    case "object": {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        const had = shape.keys.get(k);
        if (had) {
          had.shape = absorb(had.shape, v);
          had.count++;
        } else shape.keys.set(k, { shape: shapeOfValue(v), count: 1 });
      }
      shape.count++;
      return shape;
    }
  }
}

function sameKind(a: Shape, b: Shape): boolean {
  return a.t === b.t;
}

/** Two shapes as one: same kinds merge, different kinds make (or join) a union. */
export function merge(a: Shape, b: Shape): Shape {
  if (a.t === "union" || b.t === "union") {
    const parts = [...(a.t === "union" ? a.of : [a])];
    for (const s of b.t === "union" ? b.of : [b]) {
      const i = parts.findIndex((p) => sameKind(p, s));
      if (i >= 0) parts[i] = merge(parts[i], s);
      else parts.push(s);
    }
    return parts.length === 1 ? parts[0] : { t: "union", of: parts };
  }
  if (!sameKind(a, b)) return { t: "union", of: [a, b] };
  switch (a.t) {
    case "null":
    case "boolean":
      return a;
    case "number":
      return { t: "number", int: a.int && (b as typeof a).int };
    case "string": {
      const o = b as typeof a;
      let values: Set<string> | null = null;
      if (a.values && o.values) {
        values = new Set([...a.values, ...o.values]);
        if (values.size > ENUM_VALUES) values = null;
      }
      return { t: "string", values, samples: a.samples + o.samples };
    }
    case "array": {
      const o = b as typeof a;
      const item = a.item && o.item ? merge(a.item, o.item) : a.item ?? o.item;
      return {
        t: "array",
        lengths: [Math.min(a.lengths[0], o.lengths[0]), Math.max(a.lengths[1], o.lengths[1])],
        count: a.count + o.count,
        item,
      };
    }
    case "object": {
      const o = b as typeof a;
      const keys = new Map(a.keys);
      for (const [k, v] of o.keys) {
        const had = keys.get(k);
        keys.set(k, had ? { shape: merge(had.shape, v.shape), count: had.count + v.count } : v);
      }
      return { t: "object", keys, count: a.count + o.count };
    }
  }
}

export interface RenderOptions {
  maxDepth?: number;
  maxKeys?: number;
}

function scalar(s: Shape): string | undefined {
  switch (s.t) {
    case "null":
      return "null";
    case "boolean":
      return "boolean";
    case "number":
      return s.int ? "integer" : "number";
    case "string":
      // An enum only when the few values were seen more than once each on average.
      return s.values && s.samples >= 2 * s.values.size && s.samples >= 4
        ? [...s.values].sort().map((v) => JSON.stringify(v)).join(" | ")
        : "string";
    default:
      return undefined;
  }
}

function lengths(s: { lengths: [number, number]; count: number }): string {
  const [lo, hi] = s.lengths;
  return lo === hi ? `${lo}` : `${lo}–${hi}`;
}

function render(
  s: Shape,
  indent: string,
  depth: number,
  opts: Required<RenderOptions>,
  out: string[],
  head: string,
): void {
  const simple = scalar(s);
  if (simple !== undefined) {
    out.push(`${indent}${head}${simple}`);
    return;
  }
  if (s.t === "union") {
    const simples = s.of.map(scalar);
    if (simples.every((x) => x !== undefined)) {
      out.push(`${indent}${head}${simples.join(" | ")}`);
      return;
    }
    const named = s.of.filter((x) => scalar(x) !== undefined).map(scalar).join(" | ");
    out.push(`${indent}${head}one of${named ? ` ${named} or` : ""}:`);
    for (const part of s.of.filter((x) => scalar(x) === undefined)) {
      render(part, indent + "  ", depth + 1, opts, out, "- ");
    }
    return;
  }
  if (s.t !== "array" && s.t !== "object") return;
  if (depth >= opts.maxDepth) {
    out.push(
      `${indent}${head}${
        s.t === "array" ? `array (${lengths(s)})` : `object (${s.keys.size} keys)`
      } …`,
    );
    return;
  }
  if (s.t === "array") {
    if (!s.item) {
      out.push(`${indent}${head}[] (empty)`);
      return;
    }
    const itemSimple = scalar(s.item);
    if (itemSimple !== undefined) {
      out.push(`${indent}${head}[${itemSimple}] (${lengths(s)})`);
      return;
    }
    out.push(`${indent}${head}array (${lengths(s)}) of:`);
    render(s.item, indent + "  ", depth + 1, opts, out, "");
    return;
  }
  // A map (many keys, each value of one kind of container: a lockfile's packages, a dictionary by id) is shown by
  // its merged value, not key by key.
  const values = [...s.keys.values()];
  if (
    s.keys.size >= 8 &&
    values.every((v) =>
      v.shape.t === values[0].shape.t && (v.shape.t === "object" || v.shape.t === "array")
    )
  ) {
    let merged = values[0].shape;
    for (const v of values.slice(1)) merged = merge(merged, v.shape);
    const example = JSON.stringify([...s.keys.keys()][0]);
    out.push(`${indent}${head}map of ${s.keys.size} keys (such as ${example}) to:`);
    render(merged, indent + "  ", depth + 1, opts, out, "");
    return;
  }
  out.push(`${indent}${head}object${s.count > 1 ? ` (${s.count} seen)` : ""}:`);
  let shown = 0;
  for (const [key, v] of s.keys) {
    if (shown++ >= opts.maxKeys) {
      out.push(`${indent}  … ${s.keys.size - opts.maxKeys} more keys (held back)`);
      break;
    }
    const optional = v.count < s.count ? `? (in ${v.count} of ${s.count})` : "";
    render(v.shape, indent + "  ", depth + 1, opts, out, `${JSON.stringify(key)}${optional}: `);
  }
}

function renderShape(shape: Shape, opts: RenderOptions = {}): string {
  const out: string[] = [];
  render(shape, "", 0, { maxDepth: opts.maxDepth ?? 8, maxKeys: opts.maxKeys ?? 40 }, out, "");
  return out.join("\n");
}

export interface JsonShapeResult {
  kind: "json" | "jsonl";
  /** For JSON Lines, the records read. */
  records?: number;
  shape: Shape;
  text: string;
}

/** The shape of a JSON document, or of JSON Lines (one value per line); throws when it is neither. */
export function jsonShape(text: string, opts: RenderOptions = {}): JsonShapeResult {
  try {
    const shape = shapeOfValue(JSON.parse(text));
    return { kind: "json", shape, text: renderShape(shape, opts) };
  } catch (error) {
    const lines = text.split("\n").filter((l) => l.trim() !== "");
    if (lines.length < 2) throw new Error(`not JSON: ${(error as Error).message}`);
    let shape: Shape | undefined;
    for (const [i, line] of lines.entries()) {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new Error(`not JSON, nor JSON Lines: line ${i + 1} does not parse`);
      }
      shape = absorb(shape, value);
    }
    return {
      kind: "jsonl",
      records: lines.length,
      shape: shape!,
      text: `${lines.length} records, each:\n${renderShape(shape!, opts)}`,
    };
  }
}
