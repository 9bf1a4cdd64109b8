/**
 * Whether a path exists, asked many times per check by the gate (most words
 * on a command line name no file). A failed Deno call builds and throws an
 * error object, several times dearer than the question; node:fs's
 * `existsSync` answers without one but starts Deno's Node compatibility layer
 * (node:fs alone costs more than 20 ms of start-up, docs/adr/0680). So the C
 * library's `access` answers when wisp may call it, and a stat otherwise.
 */
import { cString, libcCalls } from "./libc.ts";

/** access()'s mode that asks for existence only (0 on Linux and macOS). */
const F_OK = 0;

/** Whether `path` exists, links followed (a dangling link does not); never throws. */
export function pathExists(path: string): boolean {
  // A NUL would end the C string early and ask about another path; no file name holds one.
  if (path === "" || path.includes("\0")) return false;
  const c = libcCalls("access");
  if (c) return c.access(cString(path), F_OK) === 0;
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}
