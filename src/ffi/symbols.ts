/**
 * libwisp's symbols as Deno binds them: one entry per function of
 * ffi/wisp_ffi.h, with the same name and parameters in the same order (a
 * golden test reads the header and checks both). Every answer comes back in
 * a buffer of ours, so no call needs a pointer view or a callback and the
 * path-scoped `ffi` permission suffices (ADR 0570). The one call that waits,
 * for a session's next event, is non-blocking: Deno runs it on a thread of
 * its own and hands back a promise.
 */
export const LIBWISP_SYMBOLS = {
  wisp_abi_version: { parameters: [], result: "u32" },
  wisp_model_availability: { parameters: ["buffer", "u64"], result: "i64" },
  wisp_model_window: { parameters: [], result: "i32" },
  wisp_model_token_count: { parameters: ["buffer"], result: "i32" },
  wisp_session_open: { parameters: ["buffer", "buffer"], result: "i64" },
  wisp_session_send: { parameters: ["u64", "buffer", "buffer"], result: "i32" },
  wisp_session_next_event: {
    parameters: ["u64", "buffer", "u64"],
    result: "i64",
    nonblocking: true,
  },
  wisp_session_tool_result: { parameters: ["u64", "buffer", "buffer"], result: "i32" },
  wisp_session_cancel: { parameters: ["u64"], result: "i32" },
  wisp_session_close: { parameters: ["u64"], result: "void" },
  wisp_process_table: { parameters: ["buffer", "u64"], result: "i64" },
  wisp_process_details: { parameters: ["i32", "buffer", "u64"], result: "i64" },
  wisp_listening_ports: { parameters: ["buffer", "u64"], result: "i64" },
  wisp_killpg: { parameters: ["i32", "i32"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** The symbols' functions as Deno hands them out. */
export type LibwispSymbols = Deno.DynamicLibrary<typeof LIBWISP_SYMBOLS>["symbols"];

/** The ABI version these bindings speak (WISP_ABI_VERSION in the header). */
export const ABI_VERSION = 1;

/** The header's error codes, by the name wisp gives them. */
export const ABI_ERRORS = {
  1: "unavailable",
  2: "context-window",
  3: "guardrail",
  4: "cancelled",
  5: "bad-input",
  6: "service",
  7: "rate-limited",
  8: "language",
  9: "not-found",
  10: "busy",
  11: "internal",
} as const;

/** An error code's name, or "internal" for a code this ABI does not know. */
export type AbiError = (typeof ABI_ERRORS)[keyof typeof ABI_ERRORS];

/** The name of an error code (positive, as the header numbers them). */
export function abiErrorName(code: number): AbiError {
  return (ABI_ERRORS as Record<number, AbiError>)[code] ?? "internal";
}
