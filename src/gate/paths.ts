/**
 * Where a path really leads: the real path of its longest existing prefix,
 * with the rest appended, so a link anywhere along the way is followed even
 * when the file itself does not exist yet.
 */
import { dirname, join } from "node:path";

export function realPathPrefix(path: string): string | undefined {
  let current = path;
  const rest: string[] = [];
  for (let i = 0; i < 64; i++) {
    try {
      const real = Deno.realPathSync(current);
      return rest.length ? join(real, ...rest.reverse()) : real;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound) && !(error instanceof Deno.errors.NotADirectory)) return undefined;
      const parent = dirname(current);
      if (parent === current) return undefined;
      rest.push(current.slice(parent.length).replace(/^\/+/, ""));
      current = parent;
    }
  }
  return undefined;
}

/** The real path of a path that exists; undefined when it does not (nothing to read there). */
export function realPathExisting(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch {
    return undefined;
  }
}
