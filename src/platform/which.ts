/** Finding a program on PATH the way a shell would, without starting one. */
import { join } from "node:path";

/** Where a program would be found on PATH, or undefined. */
export function whichProgram(
  program: string,
  pathEnv = Deno.env.get("PATH") ?? "",
): string | undefined {
  for (const dir of pathEnv.split(":")) {
    if (!dir) continue;
    const candidate = join(dir, program);
    try {
      const info = Deno.statSync(candidate);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111)) return candidate;
    } catch { /* not here */ }
  }
  return undefined;
}
