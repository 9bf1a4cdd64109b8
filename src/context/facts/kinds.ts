/**
 * Fact kinds: what a conversation's facts may be about, each with a class
 * (how long a fact of it lasts), a normaliser (which names are one), a
 * description (what the distiller is told such facts are), whether the
 * distiller is asked for them, and an optional share of the window their
 * lines may take. wisp's own kinds are below; `facts.kinds` in config.json
 * changes the fields it sets on a known kind and adds any other name as a
 * new kind, dynamic and casefold unless it says otherwise.
 */

/** How long a fact of a kind lasts. */
export const FACT_CLASSES = ["permanent", "dynamic", "ephemeral"] as const;
/**
 * - permanent: true for good once said (a codename, a preference); may be
 *   admitted to wisp's home and offered to later conversations;
 * - dynamic: true until a newer value replaces it (the branch, a test result);
 * - ephemeral: true only for the turn it was said in and the next.
 */
export type FactClass = (typeof FACT_CLASSES)[number];

/** How names under a kind are made one (normalise.ts). */
export const NORMALISERS = ["casefold", "trim", "single", "command", "path"] as const;
/** One of the normalisers. */
export type NormaliserName = (typeof NORMALISERS)[number];

/** One kind as wisp uses it: every field decided. */
export interface FactKind {
  name: string;
  class: FactClass;
  normaliser: NormaliserName;
  description: string;
  /** False: the tools record such facts; the distiller is not asked for them. */
  distil: boolean;
  /** The most of the window this kind's lines may take (0 to 0.5); absent: no bound of its own. */
  share?: number;
}

/** A `facts.kinds` entry as config.json gives it (the schema has checked the values). */
export interface FactKindSetting {
  name: string;
  class?: FactClass;
  normaliser?: NormaliserName;
  description?: string;
  distil?: boolean;
  share?: number;
}

/** wisp's own kinds, in the order their lines are shown. */
export const BUILTIN_KINDS: readonly FactKind[] = [
  {
    name: "task",
    class: "dynamic",
    normaliser: "single",
    description: "What the conversation is for, and what done looks like.",
    distil: true,
  },
  {
    name: "decision",
    class: "dynamic",
    normaliser: "casefold",
    description: "A choice the person or the model settled on, and why.",
    distil: true,
  },
  {
    name: "preference",
    class: "permanent",
    normaliser: "casefold",
    description: "How the person wants things done (a style, a tool, a habit).",
    distil: true,
  },
  {
    name: "entity",
    class: "permanent",
    normaliser: "casefold",
    description: "A named thing and its value: a codename, a version, a host, an address.",
    distil: true,
  },
  {
    name: "tests",
    class: "dynamic",
    normaliser: "command",
    description: "A test command and its latest result (passed, failed, how many).",
    distil: true,
  },
  {
    name: "file",
    class: "dynamic",
    normaliser: "path",
    description: "A file and what is known of it.",
    distil: false,
  },
  {
    name: "service",
    class: "dynamic",
    normaliser: "casefold",
    description: "A running service, its port or state.",
    distil: false,
  },
  {
    name: "machine",
    class: "permanent",
    normaliser: "casefold",
    description: "A fact about this machine (its system, memory, processor).",
    distil: false,
  },
  {
    name: "workdir",
    class: "dynamic",
    normaliser: "single",
    description: "The directory the work happens in.",
    distil: false,
  },
  {
    name: "branch",
    class: "dynamic",
    normaliser: "single",
    description: "The git branch the work is on.",
    distil: false,
  },
  {
    name: "answer",
    class: "ephemeral",
    normaliser: "casefold",
    description: "The person's answer to a question the model asked.",
    distil: false,
  },
];

/**
 * The kinds a conversation uses: wisp's own with config.json's entries laid
 * over them, in order (wisp's first, then new kinds in the order given). A
 * later entry with the same name changes the same kind again.
 */
export function resolveKinds(settings: readonly FactKindSetting[] = []): FactKind[] {
  const kinds = new Map<string, FactKind>(BUILTIN_KINDS.map((k) => [k.name, { ...k }]));
  for (const setting of settings) {
    const name = setting.name.trim().toLowerCase();
    const base: FactKind = kinds.get(name) ?? {
      name,
      class: "dynamic",
      normaliser: "casefold",
      description: `Facts of the kind "${name}".`,
      distil: true,
    };
    kinds.set(name, {
      ...base,
      ...(setting.class !== undefined ? { class: setting.class } : {}),
      ...(setting.normaliser !== undefined ? { normaliser: setting.normaliser } : {}),
      ...(setting.description !== undefined ? { description: setting.description } : {}),
      ...(setting.distil !== undefined ? { distil: setting.distil } : {}),
      ...(setting.share !== undefined ? { share: setting.share } : {}),
    });
  }
  return [...kinds.values()];
}

/** The kind named `name` (any case), or undefined. */
export function findKind(kinds: readonly FactKind[], name: string): FactKind | undefined {
  const wanted = name.trim().toLowerCase();
  return kinds.find((k) => k.name === wanted);
}
