/**
 * The one place wisp asks which operating system it runs on. It sits in util,
 * not in platform, because wisp's home and config (a floor below platform)
 * need one fact from it: whether files carry POSIX mode bits. Everything else
 * that differs by OS lives in src/platform/, which re-exports these two.
 */

/** The OS wisp runs on, as Deno names it ("linux", "darwin", …). */
export function hostOs(): string {
  return Deno.build.os;
}

/** Whether files on `os` carry POSIX mode bits that chmod can set (all but Windows). */
export function hasModeBits(os: string = hostOs()): boolean {
  return os !== "windows";
}
