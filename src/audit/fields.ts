/**
 * The few field checks the audit event catalogue (catalogue.ts) is written
 * with, spelt as zod spells them (`z.string().optional()`,
 * `z.number().int().nonnegative()`, `z.looseObject({…})`), so the catalogue
 * reads the same, but without zod: every command that writes the audit log
 * (`wisp sandbox` among them) loads this instead of zod's hundred modules
 * (docs/adr/0642-audit-catalogue-without-zod.md). They accept and refuse
 * exactly what zod's do (test/audit/fields_test.ts builds the catalogue with
 * both and compares); the sentences of a refusal are our own.
 */

/** One problem with an event's fields: where, and what was expected. */
export interface FieldIssue {
  path: PropertyKey[];
  message: string;
}

/** What `safeParse` answers, shaped as zod's answer is (the writer reads `issues`). */
export type FieldResult<T> =
  | { success: true; data: T }
  | { success: false; error: { issues: FieldIssue[] } };

/** A check of one value; `In` is the type a caller may give. */
export class Field<In> {
  /** The type a caller may give; only read by `input<>` below. */
  declare readonly _input: In;

  constructor(
    /** Pushes the problems with `value` (at `path`) onto `issues`. */
    readonly check: (value: unknown, path: PropertyKey[], issues: FieldIssue[]) => void,
    /** How the field is described in a problem's sentence. */
    readonly expected: string,
    /**
     * Whether an object may leave the field out. Only `.optional()` allows it: as with zod, a
     * field that takes anything (`unknown()`) must still be there, even if as undefined.
     */
    readonly mayBeAbsent = false,
  ) {}

  /** The field may be absent (undefined). */
  optional(): Field<In | undefined> {
    return new Field<In | undefined>(
      (value, path, issues) => {
        if (value !== undefined) this.check(value, path, issues);
      },
      `${this.expected} or nothing`,
      true,
    );
  }

  /** The field may be null. */
  nullable(): Field<In | null> {
    return new Field<In | null>(
      (value, path, issues) => {
        if (value !== null) this.check(value, path, issues);
      },
      `${this.expected} or null`,
      this.mayBeAbsent,
    );
  }

  /** Check a value as zod's safeParse does (the data is the value itself: nothing is changed). */
  safeParse(value: unknown): FieldResult<In> {
    const issues: FieldIssue[] = [];
    this.check(value, [], issues);
    return issues.length === 0
      ? { success: true, data: value as In }
      : { success: false, error: { issues } };
  }
}

/** The type a field accepts (as zod's `z.input`). */
export type input<F> = F extends Field<infer In> ? In : never;

/** A field that takes values for which `test` holds. */
function simple<T>(expected: string, test: (value: unknown) => boolean): Field<T> {
  return new Field<T>((value, path, issues) => {
    if (!test(value)) issues.push({ path, message: `expected ${expected}` });
  }, expected);
}

/** A number field, with zod's refinements of it. */
export class NumberField extends Field<number> {
  constructor(readonly tests: ReadonlyArray<{ expected: string; test: (n: number) => boolean }>) {
    super((value, path, issues) => {
      if (typeof value !== "number" || !Number.isFinite(value)) {
        issues.push({ path, message: "expected a number" });
        return;
      }
      for (const { expected, test } of tests) {
        if (!test(value)) issues.push({ path, message: `expected ${expected}` });
      }
    }, "a number");
  }

  /** A whole number (a safe integer, as zod's int). */
  int(): NumberField {
    return this.#and("a whole number", Number.isSafeInteger);
  }

  /** Zero or more. */
  nonnegative(): NumberField {
    return this.#and("a number of 0 or more", (n) => n >= 0);
  }

  /** More than zero. */
  positive(): NumberField {
    return this.#and("a number above 0", (n) => n > 0);
  }

  #and(expected: string, test: (n: number) => boolean): NumberField {
    return new NumberField([...this.tests, { expected, test }]);
  }
}

/** A string. */
export const string = (): Field<string> => simple("a string", (v) => typeof v === "string");

/** A finite number (refine with .int(), .nonnegative(), .positive()). */
export const number = (): NumberField => new NumberField([]);

/** true or false. */
export const boolean = (): Field<boolean> => simple("true or false", (v) => typeof v === "boolean");

/** Anything, absence included. */
export const unknown = (): Field<unknown> => new Field<unknown>(() => {}, "anything");

/** One of the given strings. */
function oneOf<const T extends readonly string[]>(values: T): Field<T[number]> {
  return simple(`one of ${values.join(", ")}`, (v) => typeof v === "string" && values.includes(v));
}
export { oneOf as enum };

/** A list whose every item passes `item`. */
export function array<In>(item: Field<In>): Field<In[]> {
  return new Field<In[]>((value, path, issues) => {
    if (!Array.isArray(value)) {
      issues.push({ path, message: "expected a list" });
      return;
    }
    value.forEach((entry, i) => item.check(entry, [...path, i], issues));
  }, `a list of ${item.expected}`);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** An object used as a map: every key passes `key`, every value `item`. */
export function record<In>(key: Field<string>, item: Field<In>): Field<Record<string, In>> {
  return new Field<Record<string, In>>((value, path, issues) => {
    if (!isObject(value)) {
      issues.push({ path, message: "expected an object" });
      return;
    }
    for (const name of Object.keys(value)) {
      key.check(name, [...path, name], issues);
      item.check(value[name], [...path, name], issues);
    }
  }, `an object of ${item.expected}`);
}

type Shape = Record<string, Field<unknown>>;
/** The keys of a shape whose fields accept absence. */
type OptionalKeys<S extends Shape> = {
  [K in keyof S]: undefined extends input<S[K]> ? K : never;
}[keyof S];
type Flatten<T> = { [K in keyof T]: T[K] };
/** What an object of `S` accepts: its required fields, its optional ones, and any others. */
type ObjectInput<S extends Shape> =
  & Flatten<
    & { [K in Exclude<keyof S, OptionalKeys<S>>]: input<S[K]> }
    & { [K in OptionalKeys<S>]?: input<S[K]> }
  >
  & { [key: string]: unknown };

/** An object with these fields; others are allowed (zod's looseObject). */
export function looseObject<S extends Shape>(shape: S): Field<ObjectInput<S>> {
  return new Field<ObjectInput<S>>((value, path, issues) => {
    if (!isObject(value)) {
      issues.push({ path, message: "expected an object" });
      return;
    }
    for (const [name, field] of Object.entries(shape)) {
      if (!(name in value) && !field.mayBeAbsent) {
        issues.push({ path: [...path, name], message: `expected ${field.expected}` });
      } else field.check(value[name], [...path, name], issues);
    }
  }, "an object");
}
