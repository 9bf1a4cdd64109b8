/* The text buffer behind every JSON answer of the Linux library. */
#include "text.h"
#include "../wisp_ffi.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void grow(text_t *t, size_t more) {
  if (t->failed || t->len + more + 1 <= t->cap) return;
  size_t cap = t->cap ? t->cap : 256;
  while (cap < t->len + more + 1) cap *= 2;
  char *data = realloc(t->data, cap);
  if (!data) {
    t->failed = 1;
    return;
  }
  t->data = data;
  t->cap = cap;
}

void text_addn(text_t *t, const char *s, size_t n) {
  grow(t, n);
  if (t->failed) return;
  memcpy(t->data + t->len, s, n);
  t->len += n;
  t->data[t->len] = 0;
}

void text_add(text_t *t, const char *s) { text_addn(t, s, strlen(s)); }

void text_addf(text_t *t, const char *format, ...) {
  char small[256];
  va_list args;
  va_start(args, format);
  int n = vsnprintf(small, sizeof small, format, args);
  va_end(args);
  if (n < 0) {
    t->failed = 1;
    return;
  }
  if ((size_t)n < sizeof small) {
    text_addn(t, small, (size_t)n);
    return;
  }
  char *big = malloc((size_t)n + 1);
  if (!big) {
    t->failed = 1;
    return;
  }
  va_start(args, format);
  vsnprintf(big, (size_t)n + 1, format, args);
  va_end(args);
  text_addn(t, big, (size_t)n);
  free(big);
}

void text_json_string(text_t *t, const char *s) {
  if (!s) {
    text_add(t, "null");
    return;
  }
  text_add(t, "\"");
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    switch (*p) {
      case '"': text_add(t, "\\\""); break;
      case '\\': text_add(t, "\\\\"); break;
      case '\n': text_add(t, "\\n"); break;
      case '\r': text_add(t, "\\r"); break;
      case '\t': text_add(t, "\\t"); break;
      default:
        if (*p < 0x20) text_addf(t, "\\u%04x", *p);
        else text_addn(t, (const char *)p, 1);
    }
  }
  text_add(t, "\"");
}

void text_free(text_t *t) {
  free(t->data);
  t->data = NULL;
  t->len = t->cap = 0;
}

int64_t text_copy_out(text_t *t, char *out, uint64_t cap) {
  if (t->failed) {
    text_free(t);
    return -WISP_ERR_INTERNAL;
  }
  int64_t len = (int64_t)t->len;
  if (out && (uint64_t)len <= cap && len > 0) memcpy(out, t->data, t->len);
  text_free(t);
  return len;
}
