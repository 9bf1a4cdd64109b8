/*
 * The model half of the ABI in libwisp_test_model.so, a build for tests
 * only and never shipped: its "model" replays a script, so that wisp's FFI
 * model path (events from another thread, tool round trips, cancellation,
 * errors) runs end to end on Linux. The script is the file that
 * WISP_TEST_MODEL_SCRIPT names when a session opens, one step a line:
 *
 *   pause <ms>            wait this long before each word from now on
 *   say <text>            stream the text, a word at a time
 *   say-result            stream the last tool result
 *   echo-prompt           stream the prompt
 *   echo-schema           stream the schema the reply was asked to match
 *   echo-instructions     stream the session's instructions
 *   echo-tools            stream the session's tools JSON
 *   call <id> <name> <json arguments>
 *                         call a tool and wait for its result
 *   fail <code> <message> end the reply with that error
 *   end                   end the reply (done)
 *
 * Each wisp_session_send plays the steps from where the last reply stopped.
 */
#define _GNU_SOURCE
#include "../wisp_ffi.h"
#include "text.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TEST_WINDOW 8192

typedef struct event {
  struct event *next;
  text_t json;
} event_t;

typedef struct session {
  struct session *next;
  uint64_t id;
  pthread_mutex_t lock;
  pthread_cond_t changed;
  event_t *head, *tail;
  char **steps;
  size_t step_count, position;
  char *instructions, *tools, *prompt, *schema;
  char *call_id, *result;
  int replying, cancelled, closed, waiters, has_thread;
  long pause_ms;
  long output_tokens;
  pthread_t thread;
} session_t;

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static session_t *sessions;
static uint64_t next_id = 1;

static int count_words(const char *text) {
  int n = 0, in_word = 0;
  for (const char *p = text; p && *p; p++) {
    int space = *p == ' ' || *p == '\n' || *p == '\t';
    if (!space && !in_word) n++;
    in_word = !space;
  }
  return n;
}

int64_t wisp_model_availability(char *out, uint64_t cap) {
  text_t t = {0};
  text_add(&t, "{\"available\":true}");
  return text_copy_out(&t, out, cap);
}

int32_t wisp_model_window(void) { return TEST_WINDOW; }

int32_t wisp_model_token_count(const char *text) {
  return text ? count_words(text) : -WISP_ERR_BAD_INPUT;
}

static session_t *find(uint64_t id) {
  session_t *s = sessions;
  while (s && s->id != id) s = s->next;
  return s;
}

/* Queue an event (the session's lock is held). */
static void push(session_t *s, text_t json) {
  event_t *e = calloc(1, sizeof *e);
  if (!e) return;
  e->json = json;
  if (s->tail) s->tail->next = e;
  else s->head = e;
  s->tail = e;
  pthread_cond_broadcast(&s->changed);
}

static void push_error(session_t *s, int code, const char *message) {
  text_t t = {0};
  text_addf(&t, "{\"type\":\"error\",\"code\":%d,\"message\":", code);
  text_json_string(&t, message);
  text_add(&t, "}");
  push(s, t);
  s->replying = 0;
}

/* Wait `ms` or until cancelled (lock held); returns whether it was cancelled. */
static int wait_or_cancel(session_t *s, long ms) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += ms / 1000;
  until.tv_nsec += (ms % 1000) * 1000000L;
  if (until.tv_nsec >= 1000000000L) {
    until.tv_sec++;
    until.tv_nsec -= 1000000000L;
  }
  while (!s->cancelled && !s->closed) {
    if (pthread_cond_timedwait(&s->changed, &s->lock, &until) == ETIMEDOUT) break;
  }
  return s->cancelled || s->closed;
}

/* Stream `text` a word at a time; returns 0 when cancelled (lock held). */
static int say(session_t *s, const char *text) {
  const char *p = text ? text : "";
  while (*p) {
    const char *end = p;
    while (*end && *end != ' ') end++;
    while (*end == ' ') end++;
    if (s->pause_ms > 0 && wait_or_cancel(s, s->pause_ms)) return 0;
    if (s->cancelled || s->closed) return 0;
    char *word = strndup(p, (size_t)(end - p));
    text_t t = {0};
    text_add(&t, "{\"type\":\"text\",\"text\":");
    text_json_string(&t, word);
    text_add(&t, "}");
    free(word);
    push(s, t);
    s->output_tokens++;
    p = end;
  }
  return 1;
}

static void *play(void *arg) {
  session_t *s = arg;
  pthread_mutex_lock(&s->lock);
  while (s->replying) {
    if (s->cancelled || s->closed) {
      push_error(s, WISP_ERR_CANCELLED, "the reply was cancelled");
      break;
    }
    if (s->position >= s->step_count) {
      push_error(s, WISP_ERR_INTERNAL, "the test model's script ended");
      break;
    }
    char *step = s->steps[s->position++];
    int ok = 1;
    if (strncmp(step, "pause ", 6) == 0) {
      s->pause_ms = atol(step + 6);
    } else if (strncmp(step, "say ", 4) == 0) {
      ok = say(s, step + 4);
    } else if (strcmp(step, "say-result") == 0) {
      ok = say(s, s->result);
    } else if (strcmp(step, "echo-prompt") == 0) {
      ok = say(s, s->prompt);
    } else if (strcmp(step, "echo-schema") == 0) {
      ok = say(s, s->schema);
    } else if (strcmp(step, "echo-instructions") == 0) {
      ok = say(s, s->instructions);
    } else if (strcmp(step, "echo-tools") == 0) {
      ok = say(s, s->tools);
    } else if (strncmp(step, "call ", 5) == 0) {
      char id[128], name[128];
      int used = 0;
      if (sscanf(step + 5, "%127s %127s %n", id, name, &used) < 2 || used == 0) {
        push_error(s, WISP_ERR_BAD_INPUT, "the test model's call step is malformed");
        break;
      }
      free(s->call_id);
      free(s->result);
      s->call_id = strdup(id);
      s->result = NULL;
      text_t t = {0};
      text_add(&t, "{\"type\":\"tool_call\",\"id\":");
      text_json_string(&t, id);
      text_add(&t, ",\"name\":");
      text_json_string(&t, name);
      text_add(&t, ",\"arguments\":");
      text_add(&t, step + 5 + used);
      text_add(&t, "}");
      push(s, t);
      while (!s->result && !s->cancelled && !s->closed) pthread_cond_wait(&s->changed, &s->lock);
      ok = s->result != NULL;
    } else if (strncmp(step, "fail ", 5) == 0) {
      int code = atoi(step + 5);
      const char *message = strchr(step + 5, ' ');
      push_error(s, code, message ? message + 1 : "failed");
      break;
    } else if (strcmp(step, "end") == 0) {
      text_t t = {0};
      text_addf(&t, "{\"type\":\"done\",\"inputTokens\":%d,\"outputTokens\":%ld}",
                count_words(s->instructions) + count_words(s->prompt), s->output_tokens);
      push(s, t);
      s->replying = 0;
      break;
    }
    if (!ok) {
      push_error(s, WISP_ERR_CANCELLED, "the reply was cancelled");
      break;
    }
  }
  pthread_mutex_unlock(&s->lock);
  return NULL;
}

static int load_script(session_t *s) {
  const char *path = getenv("WISP_TEST_MODEL_SCRIPT");
  FILE *f = path ? fopen(path, "re") : NULL;
  if (!f) return 0;
  char *line = NULL;
  size_t size = 0;
  ssize_t n;
  while ((n = getline(&line, &size, f)) >= 0) {
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
    if (n == 0 || line[0] == '#') continue;
    char **steps = realloc(s->steps, (s->step_count + 1) * sizeof *steps);
    if (!steps) break;
    s->steps = steps;
    s->steps[s->step_count++] = strdup(line);
  }
  free(line);
  fclose(f);
  return 1;
}

int64_t wisp_session_open(const char *instructions, const char *tools_json) {
  session_t *s = calloc(1, sizeof *s);
  if (!s) return -WISP_ERR_INTERNAL;
  if (!load_script(s)) {
    free(s);
    return -WISP_ERR_UNAVAILABLE;
  }
  pthread_mutex_init(&s->lock, NULL);
  pthread_cond_init(&s->changed, NULL);
  s->instructions = strdup(instructions ? instructions : "");
  s->tools = strdup(tools_json ? tools_json : "[]");
  pthread_mutex_lock(&table_lock);
  s->id = next_id++;
  s->next = sessions;
  sessions = s;
  pthread_mutex_unlock(&table_lock);
  return (int64_t)s->id;
}

/* The session, its lock taken, with one more waiter counted; NULL if there is none. */
static session_t *enter(uint64_t id) {
  pthread_mutex_lock(&table_lock);
  session_t *s = find(id);
  if (s && !s->closed) {
    pthread_mutex_lock(&s->lock);
    s->waiters++;
  } else {
    s = NULL;
  }
  pthread_mutex_unlock(&table_lock);
  return s;
}

static void leave(session_t *s) {
  s->waiters--;
  pthread_cond_broadcast(&s->changed);
  pthread_mutex_unlock(&s->lock);
}

int32_t wisp_session_send(uint64_t session, const char *prompt, const char *schema_json) {
  session_t *s = enter(session);
  if (!s) return WISP_ERR_NOT_FOUND;
  if (s->replying) {
    leave(s);
    return WISP_ERR_BUSY;
  }
  if (s->has_thread) pthread_join(s->thread, NULL); /* the last reply's, already ended */
  free(s->prompt);
  free(s->schema);
  s->prompt = strdup(prompt ? prompt : "");
  s->schema = strdup(schema_json ? schema_json : "");
  s->replying = 1;
  s->cancelled = 0;
  s->output_tokens = 0;
  s->has_thread = pthread_create(&s->thread, NULL, play, s) == 0;
  int rc = s->has_thread ? WISP_OK : WISP_ERR_INTERNAL;
  if (!s->has_thread) s->replying = 0;
  leave(s);
  return rc;
}

int64_t wisp_session_next_event(uint64_t session, char *out, uint64_t cap) {
  session_t *s = enter(session);
  if (!s) return -WISP_ERR_NOT_FOUND;
  while (!s->head && !s->closed) pthread_cond_wait(&s->changed, &s->lock);
  int64_t result;
  if (s->closed || !s->head) { /* a closed session's queue is never read again */
    result = -WISP_ERR_NOT_FOUND;
  } else {
    event_t *e = s->head;
    result = (int64_t)e->json.len;
    if ((uint64_t)result <= cap) {
      memcpy(out, e->json.data, e->json.len);
      s->head = e->next;
      if (!s->head) s->tail = NULL;
      text_free(&e->json);
      free(e);
    }
  }
  leave(s);
  return result;
}

int32_t wisp_session_tool_result(uint64_t session, const char *call_id, const char *result) {
  session_t *s = enter(session);
  if (!s) return WISP_ERR_NOT_FOUND;
  int rc = WISP_ERR_NOT_FOUND;
  if (s->call_id && call_id && strcmp(s->call_id, call_id) == 0 && !s->result) {
    s->result = strdup(result ? result : "");
    rc = WISP_OK;
  }
  leave(s);
  return rc;
}

int32_t wisp_session_cancel(uint64_t session) {
  session_t *s = enter(session);
  if (!s) return WISP_ERR_NOT_FOUND;
  if (s->replying) s->cancelled = 1;
  leave(s);
  return WISP_OK;
}

void wisp_session_close(uint64_t session) {
  pthread_mutex_lock(&table_lock);
  session_t **at = &sessions;
  while (*at && (*at)->id != session) at = &(*at)->next;
  session_t *s = *at;
  if (s) *at = s->next; /* no new caller finds it */
  pthread_mutex_unlock(&table_lock);
  if (!s) return;
  pthread_mutex_lock(&s->lock);
  s->closed = 1;
  pthread_cond_broadcast(&s->changed);
  pthread_mutex_unlock(&s->lock);
  if (s->has_thread) pthread_join(s->thread, NULL);
  pthread_mutex_lock(&s->lock);
  while (s->waiters > 0) pthread_cond_wait(&s->changed, &s->lock);
  pthread_mutex_unlock(&s->lock);
  while (s->head) {
    event_t *e = s->head;
    s->head = e->next;
    text_free(&e->json);
    free(e);
  }
  for (size_t i = 0; i < s->step_count; i++) free(s->steps[i]);
  free(s->steps);
  free(s->instructions);
  free(s->tools);
  free(s->prompt);
  free(s->schema);
  free(s->call_id);
  free(s->result);
  pthread_cond_destroy(&s->changed);
  pthread_mutex_destroy(&s->lock);
  free(s);
}
