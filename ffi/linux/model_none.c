/*
 * The model half of the ABI in the shipped Linux libwisp: there is no
 * on-device model on Linux, and every model function says so.
 */
#include "../wisp_ffi.h"
#include "text.h"

int64_t wisp_model_availability(char *out, uint64_t cap) {
  text_t t = {0};
  text_add(&t, "{\"available\":false,\"reason\":\"unavailable: no on-device model on Linux\"}");
  return text_copy_out(&t, out, cap);
}

int32_t wisp_model_window(void) { return -WISP_ERR_UNAVAILABLE; }

int32_t wisp_model_token_count(const char *text) {
  (void)text;
  return -WISP_ERR_UNAVAILABLE;
}

int64_t wisp_session_open(const char *instructions, const char *tools_json) {
  (void)instructions;
  (void)tools_json;
  return -WISP_ERR_UNAVAILABLE;
}

int32_t wisp_session_send(uint64_t session, const char *prompt, const char *schema_json) {
  (void)session;
  (void)prompt;
  (void)schema_json;
  return WISP_ERR_NOT_FOUND;
}

int64_t wisp_session_next_event(uint64_t session, char *out, uint64_t cap) {
  (void)session;
  (void)out;
  (void)cap;
  return -WISP_ERR_NOT_FOUND;
}

int32_t wisp_session_tool_result(uint64_t session, const char *call_id, const char *result) {
  (void)session;
  (void)call_id;
  (void)result;
  return WISP_ERR_NOT_FOUND;
}

int32_t wisp_session_cancel(uint64_t session) {
  (void)session;
  return WISP_ERR_NOT_FOUND;
}

void wisp_session_close(uint64_t session) { (void)session; }
