/* A growable UTF-8 text buffer for building JSON answers, and the copy-out rule. */
#ifndef WISP_TEXT_H
#define WISP_TEXT_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  char *data;
  size_t len;
  size_t cap;
  int failed; /* an allocation failed: the text is incomplete */
} text_t;

void text_add(text_t *t, const char *s);
void text_addn(text_t *t, const char *s, size_t n);
void text_addf(text_t *t, const char *format, ...);
/* Add `s` as a JSON string literal, quotes included. NULL becomes null. */
void text_json_string(text_t *t, const char *s);
void text_free(text_t *t);
/* Copy the text to the caller's buffer per the header's rule; frees it. */
int64_t text_copy_out(text_t *t, char *out, uint64_t cap);

#endif
