/**
 * Permanent facts: the facts the person admitted (`wisp facts keep`, or
 * `/fact ID permanent` in chat), kept in wisp's home as facts.json and
 * offered to every later conversation. The file is written whole through a
 * temporary file and a rename (0600), so a reader sees the old list or the
 * new one; a file wisp cannot read is reported, never overwritten.
 *
 *   { "version": 1, "facts": [ { "id": "p1a2b3c4", "subject": "entity",
 *     "name": "release codename", "key": "release codename",
 *     "value": "BLUE HERON", "keptAt": "…", "from": { … } } ] }
 */
import { z } from "zod";
import { writeFileAtomicSync } from "../../util/atomic.ts";
import { randomHex } from "../../util/random_id.ts";
import { FactError, type OfferedFact } from "./book.ts";

const permanentFact = z.object({
  id: z.string().regex(/^p[0-9a-f]{8}$/),
  subject: z.string().min(1),
  name: z.string(),
  key: z.string(),
  value: z.string().min(1),
  keptAt: z.string(),
  /** Where it was said: the MCP client and thread, the fact's id there and its source line. */
  from: z.looseObject({
    client: z.string().optional(),
    thread: z.string().optional(),
    factId: z.string().optional(),
    source: z.string().optional(),
  }).optional(),
  /** How it was admitted: terminal (wisp facts keep), server (for a closed thread), chat. */
  via: z.string().optional(),
});

const factsFile = z.object({ version: z.literal(1), facts: z.array(permanentFact) });

/** One permanent fact as facts.json holds it. */
export type PermanentFact = z.infer<typeof permanentFact>;

/** Read facts.json: [] when it does not exist; a sentence (FactError) when it cannot be read. */
export function readPermanentFacts(path: string): PermanentFact[] {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    const why = error instanceof Deno.errors.PermissionDenied ? "permission denied" : "unreadable";
    throw new FactError(`${path} cannot be read (${why}); it must be yours and 0600`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new FactError(
      `${path} is not JSON, so wisp keeps no permanent facts until it is mended or moved aside`,
    );
  }
  const parsed = factsFile.safeParse(value);
  if (!parsed.success) {
    throw new FactError(
      `${path} is not a facts file wisp wrote (${parsed.error.issues[0].path.join(".") || "top"}: ${
        parsed.error.issues[0].message.replace(/^Invalid input: /, "")
      }); mend it or move it aside`,
    );
  }
  return parsed.data.facts;
}

/** The permanent facts as a conversation's book is offered them; none when the file cannot be read. */
export function offeredFacts(path: string): OfferedFact[] {
  try {
    return readPermanentFacts(path).map((f) => ({
      subject: f.subject,
      name: f.name,
      value: f.value,
      keptAt: f.keptAt,
    }));
  } catch {
    return [];
  }
}

/** What is admitted: the fact, and where it came from. */
export type NewPermanentFact = Omit<PermanentFact, "id" | "keptAt"> & { keptAt?: string };

/**
 * Admit a fact to facts.json. A fact with the same subject and key is
 * replaced (the person's newer word wins); the same value again changes
 * nothing. Returns the fact as kept and whether it was already there.
 */
export function keepPermanentFact(
  path: string,
  fact: NewPermanentFact,
): { fact: PermanentFact; already: boolean } {
  const facts = readPermanentFacts(path);
  const same = facts.find((f) => f.subject === fact.subject && f.key === fact.key);
  if (same && same.value === fact.value) return { fact: same, already: true };
  const kept: PermanentFact = {
    ...fact,
    id: same?.id ?? `p${randomHex(4)}`,
    keptAt: fact.keptAt ?? new Date().toISOString(),
  };
  const next = [...facts.filter((f) => f !== same), kept];
  writeFileAtomicSync(path, JSON.stringify({ version: 1, facts: next }, null, 2) + "\n");
  return { fact: kept, already: false };
}
