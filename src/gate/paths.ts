/**
 * Where a path really leads. A link anywhere along the way is followed, even
 * when the file itself does not exist yet: the real path of the longest
 * existing prefix, with the rest appended; a dangling link at the end leads
 * where it points. A `PathLookup` lives for one check and remembers its
 * answers, so a path named twice costs one system call; nothing is kept from
 * one check to the next, since the commands run between them change files.
 *
 * Existence is asked with `pathExists` (src/platform/exists.ts), which answers
 * false without throwing: a failed Deno call builds an error object and costs
 * ten times more, and most words on a command line name no file.
 */
import { pathExists } from "../platform/exists.ts";
import { dirname, isAbsolute, join, resolve } from "../util/path.ts";

export class PathLookup {
  #real = new Map<string, string | undefined>();
  #prefix = new Map<string, string | undefined>();

  /** The real path of an existing path; undefined when it does not exist. */
  realExisting(path: string): string | undefined {
    if (this.#real.has(path)) return this.#real.get(path);
    let real: string | undefined;
    try {
      // The fence refuses some paths outright (devices need --allow-all): those lead nowhere we check.
      if (pathExists(path)) real = Deno.realPathSync(path);
    } catch {
      real = undefined;
    }
    if (this.#real.size < 1024) this.#real.set(path, real);
    return real;
  }

  /**
   * The real path of the longest existing prefix, with the rest appended. Remembered for the
   * check: the policy asks about wisp's home for every part that writes, and a path that does
   * not exist costs a failed readlink, the dearest call here.
   */
  realPrefix(path: string): string | undefined {
    if (this.#prefix.has(path)) return this.#prefix.get(path);
    const real = this.#walkPrefix(path, 0);
    if (this.#prefix.size < 1024) this.#prefix.set(path, real);
    return real;
  }

  #walkPrefix(path: string, hops: number): string | undefined {
    let current = path;
    const rest: string[] = [];
    for (let i = 0; i < 64; i++) {
      const real = this.realExisting(current);
      if (real !== undefined) return rest.length ? join(real, ...rest.reverse()) : real;
      // Only an entry of an existing folder can be a dangling link; asking readlink about any
      // other path costs a failed call (an error object built and thrown) for nothing.
      if (i === 0 && hops < 8 && this.realExisting(dirname(current)) !== undefined) {
        // A dangling link: a write through it creates the file where it points.
        let target: string | undefined;
        try {
          target = Deno.readLinkSync(current);
        } catch { /* not a link */ }
        if (target !== undefined) {
          const next = isAbsolute(target) ? target : resolve(dirname(current), target);
          return this.#walkPrefix(next, hops + 1);
        }
      }
      const parent = dirname(current);
      if (parent === current) return undefined;
      rest.push(current.slice(parent.length).replace(/^\/+/, ""));
      current = parent;
    }
    return undefined;
  }
}

export function realPathExisting(path: string): string | undefined {
  return new PathLookup().realExisting(path);
}
