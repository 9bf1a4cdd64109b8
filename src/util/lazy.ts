/**
 * Loading a command's modules only when it runs. Deno prepares every module
 * an `import("literal")` names — npm packages and all — before the program
 * starts, so a literal lazy import still costs its whole load on every
 * command (the MCP SDK, the shell parser, the model clients…). Going through
 * this function hides the specifier from that analysis; `deno task compile`
 * names src/ with --include so the binary carries the modules anyway
 * (docs/adr/0004-start-up-budget.md).
 *
 *   const { respond } = await load<typeof import("../faces/respond.ts")>(
 *     import.meta.resolve("../faces/respond.ts"),
 *   );
 */
export function load<T>(url: string): Promise<T> {
  return import(url) as Promise<T>;
}
