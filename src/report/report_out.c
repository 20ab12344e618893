/*
 * report_out.c: output files written as users expect (hopsplit(1) OUTPUT, see
 * report.h).  Input: a path given with -o.  Output: the file, replaced
 * atomically when it is a regular file, written through when it is
 * anything else.  Temporary files are listed in a small table that a
 * signal handler or exit() can empty without allocating.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arraysize.h"
#include "msg.h"
#include "report.h"
#include "xalloc.h"
#include "banned.h"

#define MAX_TEMPS 16
#define MAX_LINKS 40

/* Temporary files being written; a slot is NULL when free.  Written only
 * outside signal handlers, read inside them. */
static char *volatile temps[MAX_TEMPS];
static int exit_hook_set;

void report_out_unlink_temps(void)
{
  int i;

  for (i = 0; i < MAX_TEMPS; i++) {
    char *t = temps[i];

    if (t)
      unlink(t);
  }
}

static void at_exit(void)
{
  report_out_unlink_temps();
}

static int temp_register(char *tmp)
{
  int i;

  if (!exit_hook_set) {
    atexit(at_exit);
    exit_hook_set = 1;
  }
  for (i = 0; i < MAX_TEMPS; i++)
    if (!temps[i]) {
      temps[i] = tmp;
      return i;
    }
  return -1;
}

static void temp_forget(struct report_out *o)
{
  if (o->slot >= 0)
    temps[o->slot] = NULL;
  o->slot = -1;
}

static void on_signal(int sig)
{
  report_out_unlink_temps();
  signal(sig, SIG_DFL);
  raise(sig);
}

void report_out_catch_signals(void)
{
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction sa;
  size_t i;

  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (i = 0; i < ARRAY_SIZE(sigs); i++)
    sigaction(sigs[i], &sa, NULL);
}

/* The descriptor a path names by itself: /dev/stdout, /dev/fd/1, ...;
 * -1 for any other path.  Writing to the descriptor keeps its offset, so
 * -o /dev/stdout appends to what stdout has been given. */
static int named_fd(const char *path)
{
  static const char *const dirs[] = {"/dev/fd/", "/proc/self/fd/"};
  size_t i;

  if (!strcmp(path, "/dev/stdout"))
    return 1;
  if (!strcmp(path, "/dev/stderr"))
    return 2;
  for (i = 0; i < ARRAY_SIZE(dirs); i++) {
    size_t n = strlen(dirs[i]);
    const char *p = path + n;
    long fd = 0;

    if (strncmp(path, dirs[i], n) || !*p)
      continue;
    for (; *p >= '0' && *p <= '9' && fd < 100000; p++)
      fd = fd * 10 + (*p - '0');
    if (!*p)
      return (int)fd;
  }
  return -1;
}

static char *dir_of(const char *path)
{
  const char *slash = strrchr(path, '/');

  if (!slash)
    return xstrdup(".");
  if (slash == path)
    return xstrdup("/");
  return xstrndup(path, (size_t)(slash - path));
}

/* path with its symlinks followed (also a dangling one, to the file it
 * would create); NULL with errno set (ELOOP) when they do not end. */
static char *follow(const char *path)
{
  char *p = xstrdup(path);
  int i;

  for (i = 0; i < MAX_LINKS; i++) {
    struct stat st;
    char target[4096];
    ssize_t n;
    char *dir, *next;

    if (lstat(p, &st) < 0 || !S_ISLNK(st.st_mode))
      return p;
    n = readlink(p, target, sizeof(target) - 1);
    if (n < 0)
      return p;
    target[n] = '\0';
    if (target[0] == '/') {
      next = xstrdup(target);
    }
    else {
      dir = dir_of(p);
      next = xasprintf("%s/%s", dir, target);
      free(dir);
    }
    free(p);
    p = next;
  }
  free(p);
  errno = ELOOP;
  return NULL;
}

static mode_t umask_now(void)
{
  mode_t m = umask(022);

  umask(m);
  return m;
}

int report_check_path(const char *path)
{
  struct stat st;
  char *dest, *dir;
  int rc = 0;

  if (named_fd(path) >= 0)
    return 0;
  dest = follow(path);
  if (!dest)
    return msg_error("cannot write '%s': %s", path, strerror(errno));
  if (stat(dest, &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode))
      rc = msg_error("cannot write '%s': %s", path, strerror(EISDIR));
    else if (access(dest, W_OK) < 0)
      rc = msg_error("cannot write '%s': %s", path, strerror(errno));
    free(dest);
    return rc;
  }
  dir = dir_of(dest);
  if (access(dir, W_OK | X_OK) < 0)
    rc = msg_error("cannot write '%s': directory '%s': %s", path, dir,
                   strerror(errno));
  free(dir);
  free(dest);
  return rc;
}

static void out_clear(struct report_out *o)
{
  free(o->path);
  free(o->dest);
  free(o->tmp);
  memset(o, 0, sizeof(*o));
  o->fd = -1;
  o->slot = -1;
}

int report_out_open(struct report_out *o, const char *path, int in_place)
{
  struct stat st;
  int fd = named_fd(path), have;

  memset(o, 0, sizeof(*o));
  o->fd = -1;
  o->slot = -1;
  o->path = xstrdup(path);
  if (fd >= 0) {
    o->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    if (o->fd < 0)
      goto fail;
    return 0;
  }
  o->dest = follow(path);
  if (!o->dest)
    goto fail;
  have = stat(o->dest, &st) == 0;
  if (have && S_ISDIR(st.st_mode)) {
    errno = EISDIR;
    goto fail;
  }
  if ((have && !S_ISREG(st.st_mode)) || in_place) {
    /* Devices, FIFOs and sockets are written through; so are streams.
     * No O_TRUNC on what is not a regular file. */
    o->fd = open(o->dest,
                 O_WRONLY | O_CLOEXEC | O_NOCTTY |
                     (have && !S_ISREG(st.st_mode) ? 0 : O_CREAT | O_TRUNC),
                 0666);
    FREE_AND_NULL(o->dest);
    if (o->fd < 0)
      goto fail;
    return 0;
  }
  o->mode = have ? (int)(st.st_mode & 07777) : (int)(0666 & ~umask_now());
  o->tmp = xasprintf("%s.tmp.XXXXXX", o->dest);
  o->fd = mkstemp(o->tmp);
  if (o->fd < 0) {
    FREE_AND_NULL(o->tmp);
    goto fail;
  }
  o->slot = temp_register(o->tmp);
  if (have && geteuid() == 0 && fchown(o->fd, st.st_uid, st.st_gid) < 0)
    msg_info("'%s': cannot keep its owner: %s", path, strerror(errno));
  return 0;
fail:
  msg_error("cannot write '%s': %s", path, strerror(errno));
  out_clear(o);
  return -1;
}

void report_out_abort(struct report_out *o)
{
  if (o->fd >= 0)
    close(o->fd);
  if (o->tmp)
    unlink(o->tmp);
  temp_forget(o);
  out_clear(o);
}

int report_out_commit(struct report_out *o)
{
  int rc = -1;

  if (o->tmp) {
    if (fsync(o->fd) < 0 || fchmod(o->fd, (mode_t)o->mode) < 0)
      goto out;
  }
  if (close(o->fd) < 0) {
    o->fd = -1;
    goto out;
  }
  o->fd = -1;
  if (o->tmp && rename(o->tmp, o->dest) < 0)
    goto out;
  if (o->tmp) {
    temp_forget(o);
    FREE_AND_NULL(o->tmp);
  }
  rc = 0;
out:
  if (rc < 0) {
    msg_error("cannot write '%s': %s", o->path, strerror(errno));
    report_out_abort(o);
    return -1;
  }
  out_clear(o);
  return 0;
}

int report_write_rendered(const char *path, const struct report_ctx *c,
                          enum report_format f)
{
  struct report_out o;
  struct buf b;

  if (report_out_open(&o, path, 0) < 0)
    return -1;
  buf_init_sink(&b, o.fd);
  report_render_path(c, f, path, &b);
  if (buf_flush(&b) < 0) {
    msg_error("cannot write '%s': %s", path, strerror(b.sink_errno));
    buf_release(&b);
    report_out_abort(&o);
    return -1;
  }
  buf_release(&b);
  return report_out_commit(&o);
}
