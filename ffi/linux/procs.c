/*
 * The process and port half of the ABI on Linux, read from /proc: the
 * process table, one process's details, listening sockets with the
 * processes holding them, and killpg. Shared by libwisp.so and the test
 * build.
 */
#define _GNU_SOURCE
#include "../wisp_ffi.h"
#include "text.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

uint32_t wisp_abi_version(void) { return WISP_ABI_VERSION; }

/* Read a whole (small) file into a NUL-terminated malloc'd buffer; *len is its size. */
static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "re");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0) break;
    if (n + 1 >= cap) {
      char *bigger = realloc(buf, cap * 2);
      if (!bigger) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = bigger;
      cap *= 2;
    }
  }
  fclose(f);
  if (!buf) return NULL;
  buf[n] = 0;
  if (len) *len = n;
  return buf;
}

/* readlink into a malloc'd NUL-terminated string, or NULL. */
static char *read_link(const char *path) {
  char buf[4096];
  ssize_t n = readlink(path, buf, sizeof buf - 1);
  if (n < 0) return NULL;
  buf[n] = 0;
  return strdup(buf);
}

typedef struct {
  int pid, ppid;
  long long uid;
  char state;
  char name[256];
  unsigned long long cpu_ticks, start_ticks;
  long long rss_pages;
} stat_t;

/* Parse /proc/PID/stat; the name sits in parentheses and may hold spaces or ')'. */
static int read_stat(int pid, stat_t *s) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/stat", pid);
  char *text = read_file(path, NULL);
  if (!text) return 0;
  char *open = strchr(text, '(');
  char *close = strrchr(text, ')');
  int ok = 0;
  if (open && close && close > open) {
    size_t n = (size_t)(close - open - 1);
    if (n >= sizeof s->name) n = sizeof s->name - 1;
    memcpy(s->name, open + 1, n);
    s->name[n] = 0;
    s->pid = pid;
    char state;
    unsigned long long utime, stime, start;
    long long rss;
    /* fields 3.. : state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
       utime stime cutime cstime priority nice threads itrealvalue starttime vsize rss */
    ok = sscanf(close + 2,
                "%c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %*d %*d %*d %*d %*d %*d "
                "%llu %*u %lld",
                &state, &s->ppid, &utime, &stime, &start, &rss) == 6;
    s->cpu_ticks = utime + stime;
    s->start_ticks = start;
    s->rss_pages = rss;
    s->state = state;
    /* The owner of /proc/PID is the process's real user. */
    struct stat owner;
    snprintf(path, sizeof path, "/proc/%d", pid);
    s->uid = stat(path, &owner) == 0 ? (long long)owner.st_uid : -1;
  }
  free(text);
  return ok;
}

/*
 * The boot time in Unix seconds (btime in /proc/stat), read once: /proc/stat
 * is long, and reading it made one process's details cost twice the
 * TypeScript reads (bench/ffi_bench.ts).
 */
static long long btime;
static pthread_once_t btime_once = PTHREAD_ONCE_INIT;

static void read_boot_time(void) {
  char *text = read_file("/proc/stat", NULL);
  if (!text) return;
  char *line = strstr(text, "\nbtime ");
  if (line) btime = atoll(line + 7);
  free(text);
}

static long long boot_time(void) {
  pthread_once(&btime_once, read_boot_time);
  return btime;
}

static void add_stat_fields(text_t *t, const stat_t *s, long long boot, long ticks, long page) {
  text_addf(t, "\"pid\":%d,\"ppid\":%d,\"uid\":%lld,\"state\":\"%c\",\"name\":", s->pid,
            s->ppid, s->uid, s->state > ' ' && s->state != '"' && s->state != '\\' ? s->state : '?');
  text_json_string(t, s->name);
  text_addf(t, ",\"rssBytes\":%lld,\"cpuMs\":%llu,\"startTime\":%lld", s->rss_pages * page,
            s->cpu_ticks * 1000ULL / (unsigned long long)ticks,
            boot + (long long)(s->start_ticks / (unsigned long long)ticks));
}

static int is_pid(const char *name) {
  if (!*name) return 0;
  for (const char *p = name; *p; p++)
    if (!isdigit((unsigned char)*p)) return 0;
  return 1;
}

int64_t wisp_process_table(char *out, uint64_t cap) {
  DIR *proc = opendir("/proc");
  if (!proc) return -WISP_ERR_INTERNAL;
  long long boot = boot_time();
  long ticks = sysconf(_SC_CLK_TCK), page = sysconf(_SC_PAGESIZE);
  text_t t = {0};
  text_add(&t, "[");
  int first = 1;
  struct dirent *entry;
  while ((entry = readdir(proc))) {
    if (!is_pid(entry->d_name)) continue;
    stat_t s;
    if (!read_stat(atoi(entry->d_name), &s)) continue; /* it ended meanwhile */
    text_add(&t, first ? "{" : ",{");
    first = 0;
    add_stat_fields(&t, &s, boot, ticks, page);
    text_add(&t, "}");
  }
  closedir(proc);
  text_add(&t, "]");
  return text_copy_out(&t, out, cap);
}

int64_t wisp_process_details(int32_t pid, char *out, uint64_t cap) {
  stat_t s;
  if (pid <= 0 || !read_stat(pid, &s)) return -WISP_ERR_NOT_FOUND;
  long ticks = sysconf(_SC_CLK_TCK), page = sysconf(_SC_PAGESIZE);
  char path[64];
  text_t t = {0};
  text_add(&t, "{");
  add_stat_fields(&t, &s, boot_time(), ticks, page);
  snprintf(path, sizeof path, "/proc/%d/exe", pid);
  char *exe = read_link(path);
  text_add(&t, ",\"path\":");
  text_json_string(&t, exe);
  free(exe);
  snprintf(path, sizeof path, "/proc/%d/cwd", pid);
  char *cwd = read_link(path);
  text_add(&t, ",\"cwd\":");
  text_json_string(&t, cwd);
  free(cwd);
  snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
  size_t len = 0;
  char *cmdline = read_file(path, &len);
  text_add(&t, ",\"args\":");
  if (!cmdline) {
    text_add(&t, "null");
  } else {
    text_add(&t, "[");
    for (size_t at = 0; at < len; at += strlen(cmdline + at) + 1) {
      if (at) text_add(&t, ",");
      text_json_string(&t, cmdline + at);
    }
    text_add(&t, "]");
    free(cmdline);
  }
  text_add(&t, "}");
  return text_copy_out(&t, out, cap);
}

/* socket inode -> pids, from every visible /proc/PID/fd link. */
typedef struct {
  unsigned long inode;
  int pid;
} owner_t;

static owner_t *socket_owners(size_t *count) {
  size_t n = 0, cap = 256;
  owner_t *owners = malloc(cap * sizeof *owners);
  DIR *proc = opendir("/proc");
  if (!proc || !owners) {
    if (proc) closedir(proc);
    free(owners);
    return NULL;
  }
  struct dirent *entry;
  while ((entry = readdir(proc))) {
    if (!is_pid(entry->d_name)) continue;
    int pid = atoi(entry->d_name);
    char fd_dir[64];
    snprintf(fd_dir, sizeof fd_dir, "/proc/%d/fd", pid);
    DIR *fds = opendir(fd_dir);
    if (!fds) continue; /* another user's, or gone */
    struct dirent *fd;
    while ((fd = readdir(fds))) {
      if (!is_pid(fd->d_name)) continue;
      char link[128], target[128];
      snprintf(link, sizeof link, "%s/%d", fd_dir, atoi(fd->d_name));
      ssize_t len = readlink(link, target, sizeof target - 1);
      if (len <= 0) continue;
      target[len] = 0;
      unsigned long inode;
      if (sscanf(target, "socket:[%lu]", &inode) != 1) continue;
      if (n == cap) {
        owner_t *bigger = realloc(owners, cap * 2 * sizeof *owners);
        if (!bigger) break;
        owners = bigger;
        cap *= 2;
      }
      owners[n].inode = inode;
      owners[n].pid = pid;
      n++;
    }
    closedir(fds);
  }
  closedir(proc);
  *count = n;
  return owners;
}

/* The address in /proc/net's hex (each 32-bit word in host order) as inet_ntop writes it. */
static void decode_address(const char *hex, int v6, char *out, size_t size) {
  unsigned char bytes[16];
  int words = v6 ? 4 : 1;
  for (int w = 0; w < words; w++) {
    unsigned int word = 0;
    sscanf(hex + w * 8, "%8x", &word);
    memcpy(bytes + w * 4, &word, 4); /* the kernel printed the word in host order */
  }
  if (!inet_ntop(v6 ? AF_INET6 : AF_INET, bytes, out, (socklen_t)size)) snprintf(out, size, "?");
}

static void add_listeners(text_t *t, int *first, const char *proto, const owner_t *owners,
                          size_t owner_count) {
  char path[32];
  snprintf(path, sizeof path, "/proc/net/%s", proto);
  char *text = read_file(path, NULL);
  if (!text) return;
  int v6 = strchr(proto, '6') != NULL;
  /* TCP listens in state 0A; an unconnected UDP socket sits in 07. */
  unsigned int listening = proto[0] == 't' ? 0x0A : 0x07;
  char *line = strchr(text, '\n'); /* skip the heading */
  while (line && *++line) {
    char local[64], remote[64];
    unsigned int port, state;
    unsigned long inode;
    if (sscanf(line, " %*d: %63[0-9A-Fa-f]:%x %63[0-9A-Fa-f]:%*x %x %*s %*s %*s %*d %*d %lu",
               local, &port, remote, &state, &inode) == 5 &&
        state == listening) {
      char address[64];
      decode_address(local, v6, address, sizeof address);
      text_add(t, *first ? "{" : ",{");
      *first = 0;
      text_add(t, "\"proto\":");
      text_json_string(t, proto);
      text_add(t, ",\"address\":");
      text_json_string(t, address);
      text_addf(t, ",\"port\":%u,\"pids\":[", port);
      int any = 0;
      for (size_t i = 0; i < owner_count; i++) {
        if (owners[i].inode != inode) continue;
        text_addf(t, "%s%d", any ? "," : "", owners[i].pid);
        any = 1;
      }
      text_add(t, "]}");
    }
    line = strchr(line, '\n');
  }
  free(text);
}

int64_t wisp_listening_ports(char *out, uint64_t cap) {
  size_t owner_count = 0;
  owner_t *owners = socket_owners(&owner_count);
  text_t t = {0};
  text_add(&t, "[");
  int first = 1;
  const char *protos[] = {"tcp", "tcp6", "udp", "udp6"};
  for (int i = 0; i < 4; i++) add_listeners(&t, &first, protos[i], owners, owner_count);
  text_add(&t, "]");
  free(owners);
  return text_copy_out(&t, out, cap);
}

int32_t wisp_killpg(int32_t pgid, int32_t sig) {
  if (pgid <= 1) return EINVAL; /* never the caller's own group by 0, never init */
  return killpg(pgid, sig) == 0 ? 0 : errno;
}
