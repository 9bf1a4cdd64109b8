/**
 * Diagnostics of the MCP server: stdout is the protocol, so everything else
 * goes to stderr, and only as far as WISP_LOG asks (debug, info or error;
 * unset: errors only).
 */
export type LogLevel = "debug" | "info" | "error";
const RANK: Record<LogLevel, number> = { debug: 0, info: 1, error: 2 };

export function logThreshold(value: string | undefined): LogLevel {
  return value === "debug" || value === "info" || value === "error" ? value : "error";
}

export type Logger = (level: LogLevel, text: string) => void;

export function stderrLogger(threshold: LogLevel): Logger {
  const encoder = new TextEncoder();
  return (level, text) => {
    if (RANK[level] < RANK[threshold]) return;
    try {
      Deno.stderr.writeSync(encoder.encode(`wisp mcp: ${level}: ${text}\n`));
    } catch { /* stderr closed */ }
  };
}
