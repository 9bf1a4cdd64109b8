/*
 * wisp_ffi.h: the one C ABI between wisp (TypeScript, through Deno FFI) and
 * its native library, libwisp. macOS implements it in Swift (ffi/darwin/)
 * over FoundationModels and libproc; Linux in C (ffi/linux/) over /proc.
 *
 * Rules that hold for every function:
 *
 * - Text crosses the boundary as UTF-8. Structured answers are one JSON
 *   document (an object or an array), never C structs.
 * - Memory: the library never hands out memory of its own. A function that
 *   answers with text writes it into the caller's buffer `out` of `cap`
 *   bytes and returns the answer's full length in bytes (no NUL is written
 *   or counted). When that length is larger than `cap`, nothing usable was
 *   written and the call may be repeated with a buffer that large; for
 *   wisp_session_next_event the event stays queued until it fits. A negative
 *   result is an error code below, negated.
 * - Strings passed in (`const char *`, NUL-terminated) are borrowed for the
 *   duration of the call only; the library copies what it keeps.
 * - The caller owns every buffer; the library owns every session until
 *   wisp_session_close, after which its id means nothing.
 * - No callbacks: a reply is generated on a thread of the library's own and
 *   queued; the caller takes each event with wisp_session_next_event, which
 *   blocks until one is there (bind it as a non-blocking symbol).
 */
#ifndef WISP_FFI_H
#define WISP_FFI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI this header describes; a library answering another number is refused. */
#define WISP_ABI_VERSION 1

/* Error codes (returned negated where a function returns a length or an id). */
#define WISP_OK 0
#define WISP_ERR_UNAVAILABLE 1      /* no on-device model here, or not ready */
#define WISP_ERR_CONTEXT_WINDOW 2   /* the conversation no longer fits the window */
#define WISP_ERR_GUARDRAIL 3        /* the framework's safety guardrails refused */
#define WISP_ERR_CANCELLED 4        /* wisp_session_cancel stopped the reply */
#define WISP_ERR_BAD_INPUT 5        /* an argument was malformed (JSON, schema, id) */
#define WISP_ERR_SERVICE 6          /* the model service failed the request */
#define WISP_ERR_RATE_LIMITED 7     /* the framework asked to slow down */
#define WISP_ERR_LANGUAGE 8         /* the language or locale is not supported */
#define WISP_ERR_NOT_FOUND 9        /* no such session, call or process */
#define WISP_ERR_BUSY 10            /* the session is already replying */
#define WISP_ERR_INTERNAL 11        /* anything else */

/* The ABI version of this library (WISP_ABI_VERSION when it was built). */
uint32_t wisp_abi_version(void);

/* ---- the on-device model -------------------------------------------- */

/* {"available":true} or {"available":false,"reason":"<a sentence>"}. */
int64_t wisp_model_availability(char *out, uint64_t cap);

/* The model's context window in tokens; negative error when unavailable. */
int32_t wisp_model_window(void);

/* How many tokens `text` is to the model; negative error code. */
int32_t wisp_model_token_count(const char *text);

/*
 * Open a session with its instructions (may be "") and its tools as a JSON
 * array of {"name","description","parameters"} ("[]" for none). Returns the
 * session's id (> 0) or a negative error code.
 */
int64_t wisp_session_open(const char *instructions, const char *tools_json);

/*
 * Start a reply to `prompt`. `schema_json` is "" for free text, or a JSON
 * Schema the reply must match (guided generation). Returns WISP_OK at once;
 * the reply arrives through wisp_session_next_event.
 */
int32_t wisp_session_send(uint64_t session, const char *prompt, const char *schema_json);

/*
 * Wait for the session's next event and write it to `out` as one of:
 *   {"type":"text","text":"…"}                          a delta of the reply
 *   {"type":"tool_call","id":"…","name":"…","arguments":{…}}
 *                      the model waits for wisp_session_tool_result(id)
 *   {"type":"done","inputTokens":N,"outputTokens":N}    the reply ended
 *   {"type":"error","code":N,"message":"…"}             the reply failed
 * `done` and `error` end a reply. Blocks until an event is there.
 */
int64_t wisp_session_next_event(uint64_t session, char *out, uint64_t cap);

/* Answer the tool call `call_id` with its result text. */
int32_t wisp_session_tool_result(uint64_t session, const char *call_id, const char *result);

/* Stop the reply in progress; it ends with an error event WISP_ERR_CANCELLED. */
int32_t wisp_session_cancel(uint64_t session);

/* Stop and free the session. Any blocked next_event returns -WISP_ERR_NOT_FOUND. */
void wisp_session_close(uint64_t session);

/* ---- processes and ports -------------------------------------------- */

/*
 * Every process this user may see, as a JSON array of
 * {"pid","ppid","uid","state","name","rssBytes","cpuMs","startTime"}
 * (startTime in Unix seconds, cpuMs user plus system time, uid the real
 * user's id, state one letter as ps shows it: R running, S sleeping,
 * D waiting on a device, T stopped, Z ended but not reaped).
 */
int64_t wisp_process_table(char *out, uint64_t cap);

/*
 * One process: the table's fields and "path", "cwd", "args":[…]; a field it may not read is null. -WISP_ERR_NOT_FOUND
 * when there is no such process.
 */
int64_t wisp_process_details(int32_t pid, char *out, uint64_t cap);

/*
 * Listening sockets: a JSON array of {"proto":"tcp"|"tcp6"|"udp"|"udp6",
 * "address","port","pids":[…]} (pids: the processes this user may see
 * holding the socket).
 */
int64_t wisp_listening_ports(char *out, uint64_t cap);

/* Send signal `sig` to process group `pgid`; 0, or the errno of the failure. */
int32_t wisp_killpg(int32_t pgid, int32_t sig);

#ifdef __cplusplus
}
#endif

#endif /* WISP_FFI_H */
