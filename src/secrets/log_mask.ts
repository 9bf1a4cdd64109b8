/**
 * Text for the diagnostics log (src/util/log.ts) with every secret the
 * scanner finds masked, as `wisp redact` would mask it. The scanner is
 * loaded at the first call, so a command that logs nothing never loads it.
 */
export async function maskForLog(text: string): Promise<string> {
  const { redactText } = await import("./redact.ts");
  return redactText(text).text;
}
