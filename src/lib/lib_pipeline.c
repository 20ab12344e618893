/*
 * lib_pipeline.c: what a run does around its samples for the command line
 * (hopsplit(1)), and the report it writes: the checks before it measures
 * (hs_run_preflight, hs_options_outputs), the streams while it measures
 * (ndjson lines and -w), the warnings after, the report to stdout and to
 * every -o FILE (hs_results_write), the failures said once
 * (hs_results_log_failures).  The same for the URL form, profile runs,
 * report and merge, so that all behave alike.
 */
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <poll.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "arraysize.h"
#include "buf.h"
#include "lib_int.h"
#include "msg.h"
#include "option_table.h"
#include "report.h"
#include "stall.h"
#include "strpool.h"
#include "units.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

/* Whether text on stdout gets colour (--color, NO_COLOR, a TTY). */
static int want_color(const struct options *o)
{
  const char *nc = getenv("NO_COLOR");

  if (o->color == TRI_ALWAYS)
    return 1;
  if (o->color == TRI_NEVER || (nc && *nc))
    return 0;
  return isatty(STDOUT_FILENO) && o->format == FORMAT_TEXT;
}

/* Every -o file (and -D FILE) of o can be written; 0 or -1 (logged). */
static int check_outputs(const struct options *o)
{
  size_t i;

  for (i = 0; i < o->n_outputs; i++)
    if (report_check_path(o->outputs[i].path) < 0)
      return -1;
  if (o->dump_header && strcmp(o->dump_header, "-") &&
      report_check_path(o->dump_header) < 0)
    return -1;
  return 0;
}

/* The nearest existing ancestor of path's directory is a writable
 * directory: a profile run creates the rest (make_parents). */
static int creatable(const char *path)
{
  char *d = xstrdup(path);
  char *slash;
  int rc = -1;
  struct stat st;

  for (;;) {
    slash = strrchr(d, '/');
    if (!slash) {
      rc = access(".", W_OK | X_OK) == 0 ? 0 : -1;
      break;
    }
    *slash = '\0';
    if (!*d) {
      rc = access("/", W_OK | X_OK) == 0 ? 0 : -1;
      break;
    }
    if (stat(d, &st) == 0) {
      rc = S_ISDIR(st.st_mode) && access(d, W_OK | X_OK) == 0 ? 0 : -1;
      break;
    }
  }
  if (rc < 0)
    msg_error("cannot write '%s': no writable directory to create it in",
              path);
  free(d);
  return rc;
}

static int check_outputs_dry(const struct options *o)
{
  size_t i;

  for (i = 0; i < o->n_outputs; i++)
    if (creatable(o->outputs[i].path) < 0)
      return -1;
  return 0;
}

/* A file or directory an option (or, env set, a variable) names: there,
 * readable, of the kind. */
static int check_named_file(const char *opt, const char *env, const char *path,
                            int dir)
{
  struct stat st;
  char who[64];

  if (env)
    snprintf(who, sizeof(who), "%s", env);
  else
    snprintf(who, sizeof(who), "option %s", opt);
  if (stat(path, &st) < 0)
    return msg_error("%s: cannot read '%s': %s", who, path, strerror(errno));
  if (dir && !S_ISDIR(st.st_mode))
    return msg_error("%s: '%s' is not a directory", who, path);
  if (!dir && S_ISDIR(st.st_mode))
    return msg_error(
        "%s: '%s' is a directory%s", who, path,
        strcmp(opt, "--cacert") ? "" : " (--capath takes directories)");
  if (access(path, dir ? (R_OK | X_OK) : R_OK) < 0)
    return msg_error("%s: cannot read '%s': %s", who, path, strerror(errno));
  return 0;
}

static int check_target_files(const struct options *o)
{
  int rc = 0;
  char err[512];

  if (o->cacert &&
      check_named_file("--cacert", o->cacert_env, o->cacert, 0) < 0)
    rc = -1;
  if (o->capath &&
      check_named_file("--capath", o->capath_env, o->capath, 1) < 0)
    rc = -1;
  if (o->tls_cert && check_named_file("--cert", NULL, o->tls_cert, 0) < 0)
    rc = -1;
  if (o->tls_key && check_named_file("--key", NULL, o->tls_key, 0) < 0)
    rc = -1;
  if (o->write_out &&
      report_writeout_check(o->write_out, err, sizeof(err)) < 0)
    rc = msg_error("option --write-out: %s", err);
  return rc;
}

/* "HOST:PORT:" of url appended to keys (*n of them) unless there. */
static void add_key(char ***keys, size_t *n, const char *url)
{
  struct url u;
  char err[256];
  char *k;
  size_t i;

  memset(&u, 0, sizeof(u));
  if (url_parse(&u, url, err, sizeof(err)) < 0) {
    url_release(&u);
    return;
  }
  k = xasprintf("%s:%d:", u.host, u.port);
  url_release(&u);
  for (i = 0; i < *n; i++)
    if (!strcasecmp((*keys)[i], k)) {
      free(k);
      return;
    }
  *keys = xrealloc(*keys, (*n + 1) * sizeof(**keys));
  (*keys)[(*n)++] = k;
}

/* A batch's median total this much above its serial control's (and by
 * more than PARALLEL_SLOWER_MIN_US) says the lanes slowed each other: a
 * link or a server they share, whose saturation changes phases. */
#define PARALLEL_SLOWER_PCT    25.0
#define PARALLEL_SLOWER_MIN_US 1000

/* --parallel: one warning for the run when the lanes' interference or a
 * shared link's saturation could have changed its phases, with what the
 * serial control cost (hopsplit(1) INTERFERENCE). */
static void warn_parallel(const struct plan *p, const struct results *r,
                          const struct analysis *a)
{
  size_t i, t, m, n_batch = 0, n_late = 0, n_ctl = 0, n_slower = 0;
  int64_t late = 0, c0 = INT64_MAX, c1 = 0, parts[IP_COUNT] = {0};
  enum interference_part by = IP_COUNT;
  double worst = 0;
  struct buf b;

  if (p->opts->parallel <= 1)
    return;
  for (i = 0; i < r->n; i++) {
    const struct sample *s = &r->samples[i];

    if (s->control) {
      int64_t start = s->started_at_ms * 1000;

      n_ctl++;
      if (start < c0)
        c0 = start;
      if (start + s->total_us > c1)
        c1 = start + s->total_us;
      continue;
    }
    n_batch++;
    if (s->interfered) {
      n_late++;
      if (s->interference_us > late)
        late = s->interference_us;
      /* The parts in interference_us (not the run-queue delay): which
       * weighed most over the flagged samples. */
      for (m = 0; m < IP_COUNT; m++) {
        int64_t v = sample_interference_part(s, (enum interference_part)m);

        if (m != IP_RUNQ && v > 0)
          parts[m] += v;
      }
    }
  }
  for (m = 0; m < IP_COUNT; m++)
    if (parts[m] > 0 && (by == IP_COUNT || parts[m] > parts[by]))
      by = (enum interference_part)m;
  for (t = 0; t < a->n_targets; t++)
    for (m = 0; m < p->n_modes; m++) {
      const struct mode_summary *ms = &a->targets[t].modes[p->modes[m]];

      if (!ms->control.n || !ms->phases[SUM_TOTAL].n ||
          ms->control_diff_us <= PARALLEL_SLOWER_MIN_US ||
          ms->control_diff_pct <= PARALLEL_SLOWER_PCT)
        continue;
      n_slower++;
      if (ms->control_diff_pct > worst)
        worst = ms->control_diff_pct;
    }
  if (!n_late && !n_slower)
    return;
  buf_init(&b, 0);
  buf_printf(&b, "--parallel %ld may have changed the phases it measured:",
             p->opts->parallel);
  if (n_late)
    buf_printf(&b,
               " %zu of %zu samples were interfered with, mostly by %s "
               "(stamps up to %.1f ms late; %s)",
               n_late, n_batch,
               by < IP_COUNT ? interference_part_says[by]
                             : "the loop busy with other work",
               (double)late / 1000.0,
               p->opts->keep_interfered ? "kept, --keep-interfered"
                                        : "left out");
  if (n_slower)
    buf_printf(&b,
               "%s %zu target and mode%s took longer in the batch than alone "
               "(median total up to %+.0f %% against the serial control: "
               "lanes sharing a link or a server slow each other)",
               n_late ? ";" : "", n_slower, n_slower == 1 ? "" : "s", worst);
  if (n_ctl && c1 > c0)
    buf_printf(&b,
               "; the serial control (%zu sample%s alone, before the batch) "
               "took %.2f s of the run's %.2f s",
               n_ctl, n_ctl == 1 ? "" : "s", (double)(c1 - c0) / 1e6,
               (double)(r->finished_at_ms - r->started_at_ms) / 1000.0);
  msg_warn("%s", b.s);
  buf_release(&b);
}

/* At most this many warnings of unused --resolve entries, then a count. */
#define RESOLVE_WARN_MAX 10

/* HOST:PORT of each --resolve entry of o against keys; what; says why. */
static void warn_unused_resolve(const struct options *o, char *const *keys,
                                size_t n_keys, const char *why, size_t *warned)
{
  size_t i, k;

  for (i = 0; i < o->n_resolve; i++) {
    const char *r = o->resolve[i];
    int used = 0;

    for (k = 0; k < n_keys && !used; k++)
      used = !strncasecmp(r, keys[k], strlen(keys[k]));
    if (!used && (*warned)++ < RESOLVE_WARN_MAX)
      msg_warn("--resolve '%s' matches no target%s", r, why);
  }
}

/* The --resolve entries of the plan (its options, and a target's own
 * when they differ) that match none of keys, each a warning. */
static void warn_unused_resolves(const struct plan *p, char *const *keys,
                                 size_t n_keys, const char *why)
{
  size_t t, warned = 0;

  warn_unused_resolve(p->opts, keys, n_keys, why, &warned);
  for (t = 0; t < p->n_targets; t++) {
    const struct options *o = p->targets[t].opts;

    if (o && o != p->opts && o->n_resolve != p->opts->n_resolve)
      warn_unused_resolve(o, keys, n_keys, why, &warned);
  }
  if (warned > RESOLVE_WARN_MAX)
    msg_warn("%zu more --resolve entries match no target",
             warned - RESOLVE_WARN_MAX);
}

/*
 * After a run: a --resolve entry is unused when no hop of any sample went
 * to its HOST:PORT (a redirect that leads there uses it) and no target's
 * URL names it (a sample that failed before its first hop still would
 * have).  The keys are "HOST:PORT:" of each target and of every hop of
 * every sample, each parsed once per distinct URL run.
 */
static void warn_unused_resolve_run(const struct plan *p,
                                    const struct results *r)
{
  char **keys = NULL;
  const char *last = NULL;
  size_t n = 0, i, h, any = p->opts->n_resolve;

  for (i = 0; i < p->n_targets && !any; i++)
    any = p->targets[i].opts ? p->targets[i].opts->n_resolve : 0;
  if (!any)
    return;
  for (i = 0; i < p->n_targets; i++)
    add_key(&keys, &n, p->targets[i].url);
  for (i = 0; i < r->n; i++)
    for (h = 0; h < r->samples[i].n_hops; h++) {
      const char *u = r->samples[i].hops[h].info->url;

      /* Pooled: the same URL is the same pointer, parsed once in a row. */
      if (u && u != last)
        add_key(&keys, &n, u);
      last = u;
    }
  warn_unused_resolves(p, keys, n,
                       ", and no redirect led there: no request used it");
  for (i = 0; i < n; i++)
    free(keys[i]);
  free(keys);
}

int lib_preflight(const struct plan *p)
{
  size_t t;
  int rc = 0;

  if (check_target_files(p->opts) < 0)
    rc = -1;
  for (t = 0; t < p->n_targets; t++) {
    const struct options *o = p->targets[t].opts;

    if (o && o != p->opts && check_target_files(o) < 0)
      rc = -1;
  }
  /* A run says which entries no request used once it has measured
   * (lib_warn_unused_resolve); --dry-run can only say which match no target.
   */
  if (rc == 0 && p->opts->dry_run) {
    char **keys = NULL;
    size_t n = 0;

    for (t = 0; t < p->n_targets; t++)
      add_key(&keys, &n, p->targets[t].url);
    warn_unused_resolves(p, keys, n,
                         " (HOST:PORT of a URL given); it is used only if "
                         "a redirect leads there");
    for (t = 0; t < n; t++)
      free(keys[t]);
    free(keys);
  }
  return rc;
}

/*
 * ndjson streaming (hopsplit(1) OUTPUT): while a plan is measured, each
 * sample's line goes to stdout (--format ndjson) and to every -o FILE.ndjson
 * as the sample ends (rendered and written on the loop between samples,
 * below), written whole (through EINTR and short writes),
 * so that a killed run keeps every finished sample.  These files are written
 * in place, not through a temporary file (report_out_open in_place);
 * lib_write then adds the summary line and closes them.  A line
 * needs only the sample and its hops' facts, never an analysis of the
 * run.  One measurement runs at a time, so the state is file-local.
 */
struct stream {
  struct report_out out; /* out.fd is 1 for stdout */
  int is_stdout;
  int failed;
};

static struct {
  struct stream *s;
  size_t n;
  struct hs_results *res;
} streams;

/* The NDJSON line's buffer, kept from one line to the next (one line is
 * rendered at a time: the queue's head, writer.busy); freed with the
 * streams. */
static struct buf stream_line;

static void streams_close(void)
{
  size_t i;

  buf_release(&stream_line);
  for (i = 0; i < streams.n; i++)
    if (!streams.s[i].is_stdout && streams.s[i].out.fd >= 0)
      report_out_abort(&streams.s[i].out);
  free(streams.s);
  memset(&streams, 0, sizeof(streams));
}

static struct stream *streams_add(void)
{
  struct stream *st;

  streams.s = xrealloc(streams.s, (streams.n + 1) * sizeof(*streams.s));
  st = &streams.s[streams.n++];
  memset(st, 0, sizeof(*st));
  st->out.fd = -1;
  st->out.slot = -1;
  return st;
}

static void streams_open(const struct options *o)
{
  size_t i;

  if (o->format == FORMAT_NDJSON) {
    struct stream *st = streams_add();

    st->is_stdout = 1;
    st->out.fd = STDOUT_FILENO;
  }
  for (i = 0; i < o->n_outputs; i++) {
    struct report_out out;

    if (o->outputs[i].format != FORMAT_NDJSON)
      continue;
    if (report_out_open(&out, o->outputs[i].path, 1) < 0)
      msg_warn("'%s' is written at the end instead", o->outputs[i].path);
    else
      streams_add()->out = out;
  }
}

/* The stream of r's run for path (NULL: stdout), or NULL when it is not
 * streamed. */
static struct stream *streams_find(const struct hs_results *r,
                                   const char *path)
{
  size_t i;

  if (streams.res != r)
    return NULL;
  for (i = 0; i < streams.n; i++) {
    struct stream *st = &streams.s[i];

    if (st->out.fd < 0)
      continue;
    if (!path ? st->is_stdout : !st->is_stdout && !strcmp(path, st->out.path))
      return st;
  }
  return NULL;
}

static void writer_waited(int64_t ns);

/* Linux's F_GETPIPE_SZ (fcntl(2)), which <fcntl.h> declares only under
 * _GNU_SOURCE. */
#ifndef F_GETPIPE_SZ
#define F_GETPIPE_SZ 1032
#endif

/* Whether writing len bytes to fd now waits for its reader: a pipe
 * without room for them (its unread bytes, FIONREAD, against its size;
 * poll() says a pipe writable while one 4 KiB slot is free), or any fd
 * poll() says cannot take more.  Not the write's time: on a loaded
 * machine a write that only copies can take milliseconds. */
static int stream_would_wait(int fd, size_t len)
{
  struct pollfd pf = {.fd = fd, .events = POLLOUT};
  struct stat st;
  int unread = 0, size;

  if (poll(&pf, 1, 0) == 0)
    return 1;
  if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) &&
      ioctl(fd, FIONREAD, &unread) == 0 &&
      (size = fcntl(fd, F_GETPIPE_SZ)) > 0 && unread >= 0 && unread <= size)
    return (size_t)(size - unread) < len;
  return 0;
}

/* buf_write_fd; when it waits for the reader (stream_would_wait), its
 * time is added to *ns and *waited set. */
static int stream_fd_write(int fd, const char *s, size_t len, int64_t *ns,
                           int *waited)
{
  int64_t t0;
  int rc;

  if (!stream_would_wait(fd, len))
    return buf_write_fd(fd, s, len);
  *waited = 1;
  t0 = stall_now_ns();
  rc = buf_write_fd(fd, s, len);
  *ns += stall_now_ns() - t0;
  return rc;
}

/* A sample's -w output and ndjson line, rendered and written (on the loop
 * between samples, or by the writer thread of the test hook). */
static void stream_write(const struct plan *p, const struct sample *s,
                         size_t index, int counted)
{
  struct buf *line = &stream_line;
  struct report_ctx ctx;
  struct hop_fact *facts;
  int64_t ns = 0;
  int waited = 0;
  size_t i;

  if (p->opts->write_out) {
    /* -w: after each sample, as curl after each transfer. */
    struct buf o, e;

    lib_context(streams.res, &ctx);
    buf_init(&o, 0);
    buf_init(&e, 0);
    report_writeout(&ctx, p->opts->write_out, s, &o, &e);
    fflush(stdout);
    if (stream_fd_write(STDOUT_FILENO, o.s, o.len, &ns, &waited) < 0 ||
        stream_fd_write(STDERR_FILENO, e.s, e.len, &ns, &waited) < 0)
      msg_error("cannot write the -w output: %s", strerror(errno));
    buf_release(&o);
    buf_release(&e);
  }
  if (streams.n) {
    lib_context(streams.res, &ctx);
    facts = s->n_hops ? xcalloc(s->n_hops, sizeof(*facts)) : NULL;
    if (facts)
      analysis_hop_facts(p, s, facts);
    if (!line->s)
      buf_init(line, 0);
    buf_reset(line);
    report_ndjson_sample(&ctx, s, index, facts, line);
    for (i = 0; i < streams.n; i++) {
      struct stream *st = &streams.s[i];

      if (st->out.fd < 0 || st->failed)
        continue;
      if (stream_fd_write(st->out.fd, line->s, line->len, &ns, &waited) < 0) {
        msg_error("cannot write '%s': %s",
                  st->is_stdout ? "stdout" : st->out.path, strerror(errno));
        st->failed = 1;
      }
    }
    /* A line past 64 KiB (many hops, long headers) is not kept. */
    if (line->alloc > 64 * 1024)
      buf_release(line);
    free(facts);
  }
  /* Written by the loop (no writer thread): a sample whose writes waited
   * for a reader counts once. */
  if (counted && waited)
    writer_waited(ns);
}

/*
 * Where the lines are rendered and written (SPEC 8, nothing on the
 * measured path): on the loop, between one sample's end and the next
 * one's start, when no phase of any sample is being measured (under
 * --parallel the runner hands lines over only while no sample is in
 * flight, runner.c tell).
 *
 * A line takes some 95,000 instructions (206,000 before eec54d9,
 * tests/bench/README.md).  A writer thread of idle priority (SCHED_IDLE)
 * that rendered it beside the next request moved that request's wait by
 * +18 us [+5, +27] on a quiet machine, against +1 [-1, +5] when the loop
 * writes between samples (tests/bench/measured_path, load 0.4): on two
 * cores the thread took the CPU the server or the loop wanted, however low
 * its priority.  At load 2 to 8 the two did not differ beyond the noise,
 * which is why the thread was the default until then.  So the loop
 * writes; a slow reader (a pipe) makes it wait between samples, and those
 * waits are counted (stream_write) and said at the end.
 *
 * The writer thread, kept for the benchmark's comparison
 * (HOPSPLIT_TEST_WRITER_THREAD=1): the loop hands it each finished sample,
 * a copy of the struct (whose hops and strings live in the results'
 * arena, which never moves what it stores), through a bounded queue, and
 * goes on at once; the lines are rendered and written in the order
 * handed, at idle priority.  A thread of idle priority can starve on a
 * busy machine, so neither the run nor the output waits on it for more
 * than a line: only the head of the queue is ever rendered, by whoever
 * claims it (busy), the writer or, when the queue is full, the loop
 * itself; and at the end (writer_drain) the writer stops after its line
 * and the caller writes the rest.  The loop's time spent so counts as
 * output time (stall_output_add).  writer_drain writes every line handed
 * before the run's report or exit, also after an interrupt.
 */
#define WRITER_QUEUE 256

/* Linux's SCHED_IDLE (sched(7)), which <sched.h> declares only under
 * _GNU_SOURCE (the build defines _POSIX_C_SOURCE alone). */
#ifndef SCHED_IDLE
#define SCHED_IDLE 5
#endif

/* Test hooks (tests/bench/measured_path, tests/integration): a whole
 * number from 0 to 10^6 in the variable, else -1. */
static long test_env(const char *name)
{
  const char *v = getenv(name);
  char *end;
  long n;

  if (!v || !*v)
    return -1;
  errno = 0;
  n = strtol(v, &end, 10);
  return errno || *end || n < 0 || n > 1000000 ? -1 : n;
}

struct writer_item {
  struct sample s; /* a copy: the results' array may move, its hops not */
  size_t index;
  int64_t handed_ns; /* stall_now_ns() when handed over */
};

/* A line the writer has not taken this long after it was handed over is
 * written by the loop at its next hand-over, between samples: an
 * idle-priority thread on a busy machine may not run for seconds, and a
 * second SIGINT (which leaves at once) must not lose a line measured long
 * before (hostile/interrupt under load lost every one). */
#define WRITER_STALE_NS (100 * 1000 * 1000)

static struct {
  pthread_t th;
  int running;
  pthread_mutex_t mu;
  pthread_cond_t more, room;
  struct writer_item *q;
  size_t cap, head, n;
  int busy;    /* the head is being rendered (by the writer or the loop) */
  int closing; /* the writer takes no more lines */
  const struct plan *p;
  /* The loop's waits for room: how many, how long in all (ns). */
  size_t n_waits;
  int64_t wait_ns;
} writer = {.mu = PTHREAD_MUTEX_INITIALIZER,
            .more = PTHREAD_COND_INITIALIZER,
            .room = PTHREAD_COND_INITIALIZER};

/* With writer.mu held, the head not claimed and the queue not empty:
 * claim the head, render and write it without the lock, and take it off
 * the queue.  Returns with writer.mu held. */
static void writer_write_head(void)
{
  struct writer_item *it = &writer.q[writer.head];

  writer.busy = 1;
  pthread_mutex_unlock(&writer.mu);
  stream_write(writer.p, &it->s, it->index, 0);
  pthread_mutex_lock(&writer.mu);
  writer.head = (writer.head + 1) % writer.cap;
  writer.n--;
  writer.busy = 0;
  pthread_cond_broadcast(&writer.room);
}

static void *writer_main(void *ud)
{
  struct sched_param sp;

  (void)ud;
  /* Only CPU time nothing else wants (above); unprivileged, and a thread
   * that cannot have it still writes, at normal priority. */
  memset(&sp, 0, sizeof(sp));
  if (test_env("HOPSPLIT_TEST_WRITER_NORMAL") != 1)
    pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp);
  pthread_mutex_lock(&writer.mu);
  for (;;) {
    while (!writer.closing && (!writer.n || writer.busy))
      pthread_cond_wait(&writer.more, &writer.mu);
    if (writer.closing)
      break;
    writer_write_head();
  }
  pthread_mutex_unlock(&writer.mu);
  /* The hop facts' strings went to this thread's own arena. */
  strpool_release_all();
  return NULL;
}

/* Start the writer thread for p's run when the test hook asks for it
 * (0), or -1: the lines are written on the loop (1 without the hook). */
static int writer_start(const struct plan *p)
{
  long cap = test_env("HOPSPLIT_TEST_WRITER_QUEUE");
  sigset_t all, was;
  pthread_attr_t a;
  int rc;

  if (test_env("HOPSPLIT_TEST_WRITER_THREAD") != 1)
    return 1;
  writer.cap = cap > 0 && cap < WRITER_QUEUE ? (size_t)cap : WRITER_QUEUE;
  writer.q = xcalloc(writer.cap, sizeof(*writer.q));
  writer.head = writer.n = 0;
  writer.busy = writer.closing = 0;
  writer.p = p;
  /* Signals stay the main thread's (cmd_signals.c). */
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &was);
  pthread_attr_init(&a);
  pthread_attr_setstacksize(&a, 256 * 1024);
  rc = pthread_create(&writer.th, &a, writer_main, NULL);
  pthread_attr_destroy(&a);
  pthread_sigmask(SIG_SETMASK, &was, NULL);
  if (rc) {
    free(writer.q);
    writer.q = NULL;
    return -1;
  }
  writer.running = 1;
  return 0;
}

/* Every line handed written (the writer's line in progress by it, the
 * rest here at once), then the writer ends; says how often the measuring
 * waited for the output, if it did.  The lines are written before the
 * join: an idle-priority writer on a busy machine may not run for
 * seconds, and a second SIGINT meanwhile must find them written
 * (hostile/interrupt under load found none). */
static void writer_waited(int64_t ns)
{
  writer.n_waits++;
  writer.wait_ns += ns;
}

static void writer_drain(void)
{
  if (writer.running) {
    pthread_mutex_lock(&writer.mu);
    writer.closing = 1;
    pthread_cond_signal(&writer.more);
    while (writer.n) {
      while (writer.busy)
        pthread_cond_wait(&writer.room, &writer.mu);
      if (writer.n)
        writer_write_head();
    }
    pthread_mutex_unlock(&writer.mu);
    pthread_join(writer.th, NULL);
    writer.running = 0;
    free(writer.q);
    writer.q = NULL;
  }
  if (writer.n_waits) {
    char t[UNITS_FMT_SIZE];

    units_format_us(writer.wait_ns / 1000, t, sizeof(t));
    msg_warn("the output did not keep up: measuring waited for it %zu "
             "time%s, %s in all, between samples (no phase was being "
             "measured meanwhile; the run took that much longer)",
             writer.n_waits, writer.n_waits == 1 ? "" : "s", t);
    writer.n_waits = 0;
    writer.wait_ns = 0;
  }
}

void lib_stream_sample(const struct plan *p, const struct sample *s, void *ud)
{
  size_t index = (size_t)(s - lib_samples(streams.res)->samples);

  (void)ud;
  if (!p->opts->write_out && !streams.n)
    return;
  if (!writer.running) {
    stream_write(p, s, index, 1);
    return;
  }
  stall_lock(&writer.mu);
  if (writer.n == writer.cap) {
    /* Full: the line in progress ends, then, unless the writer took the
     * next at once, the loop writes the head itself: room without waiting
     * on a thread that may not get the CPU. */
    int64_t t0 = stall_now_ns(), ns;

    while (writer.n == writer.cap && writer.busy)
      pthread_cond_wait(&writer.room, &writer.mu);
    if (writer.n == writer.cap)
      writer_write_head();
    ns = stall_now_ns() - t0;
    stall_output_add(ns);
    writer_waited(ns);
  }
  if (writer.n && !writer.busy &&
      stall_now_ns() - writer.q[writer.head].handed_ns > WRITER_STALE_NS) {
    /* Stale: the loop writes what the writer has not taken. */
    int64_t t0 = stall_now_ns(), ns;

    while (writer.n && !writer.busy &&
           t0 - writer.q[writer.head].handed_ns > WRITER_STALE_NS)
      writer_write_head();
    ns = stall_now_ns() - t0;
    stall_output_add(ns);
    writer_waited(ns);
  }
  writer.q[(writer.head + writer.n) % writer.cap] = (struct writer_item){
      .s = *s, .index = index, .handed_ns = stall_now_ns()};
  writer.n++;
  pthread_cond_signal(&writer.more);
  pthread_mutex_unlock(&writer.mu);
}

void lib_streams_open(struct hs_results *r)
{
  const struct options *o = lib_plan(r)->opts;

  writer_drain();
  streams_close();
  streams_open(o);
  streams.res = r;
  writer.n_waits = 0;
  writer.wait_ns = 0;
  /* --parallel writes on the loop whatever the hook: its runner hands
   * lines over only while no sample is in flight (runner.c, tell), and a
   * thread writing them later would write inside the next batch's
   * phases. */
  if ((o->write_out || streams.n) &&
      !(o->parallel > 1 && lib_plan(r)->n_targets > 1) &&
      writer_start(lib_plan(r)) < 0)
    msg_warn("cannot start the output thread: the lines are written between "
             "samples, on the measuring thread");
}

void lib_streams_drain(const struct hs_results *r)
{
  if (streams.res == r)
    writer_drain();
}

void lib_streams_close(const struct hs_results *r)
{
  if (streams.res == r) {
    writer_drain();
    streams_close();
  }
}

/* -D FILE: the response headers, written as the reports are (atomically,
 * FILE named in any error). */
static int write_heads(const struct report_ctx *c, const char *path)
{
  struct report_out f;
  struct buf b;
  int rc = -1;

  if (report_out_open(&f, path, 0) < 0)
    return -1;
  buf_init_sink(&b, f.fd);
  report_heads(c, 0, &b);
  if (buf_flush(&b) < 0) {
    msg_error("cannot write '%s': %s", path, strerror(b.sink_errno));
    report_out_abort(&f);
  }
  else if (report_out_commit(&f) == 0) {
    rc = 0;
  }
  buf_release(&b);
  return rc;
}

int lib_write(struct hs_results *r, const struct options *o)
{
  struct report_ctx ctx;
  struct stream *st;
  struct buf out;
  size_t i;
  int rc = 0;

  lib_context(r, &ctx);
  ctx.color = want_color(o);
  ctx.brief = o->brief;
  /* stdout gets the report as it is rendered, never whole in memory, and
   * written whole through EINTR and short writes.  With -w it carries the
   * write-out lines, as curl's does, and the report only when --format
   * asks for it. */
  fflush(stdout);
  if (o->include || o->dump_header || o->verbosity > 0)
    report_heads_note(&ctx);
  if (o->verbosity > 0) {
    /* curl's -v: the request and response headers on stderr. */
    buf_init_sink(&out, STDERR_FILENO);
    report_heads(&ctx, 1, &out);
    buf_flush(&out);
    buf_release(&out);
  }
  if (o->dump_header && strcmp(o->dump_header, "-") &&
      write_heads(&ctx, o->dump_header) < 0)
    rc = -1;
  buf_init_sink(&out, STDOUT_FILENO);
  /* curl's -i (and -D -): the response headers first on stdout. */
  if (o->include || (o->dump_header && !strcmp(o->dump_header, "-")))
    report_heads(&ctx, 0, &out);
  st = o->format == FORMAT_NDJSON ? streams_find(r, NULL) : NULL;
  if (o->write_out && !lib_format_given(o))
    ;
  else if (st && st->failed)
    rc = -1;
  else if (st)
    report_ndjson_summary(&ctx, &out);
  else
    report_render(&ctx, o->format, &out);
  if (buf_flush(&out) < 0)
    rc = msg_error("cannot write the report to stdout: %s",
                   strerror(out.sink_errno));
  buf_release(&out);
  ctx.color = 0;
  ctx.brief = 0; /* files get the whole report */
  /* Every output is tried: one that fails does not stop the others. */
  for (i = 0; i < o->n_outputs; i++) {
    st = o->outputs[i].format == FORMAT_NDJSON
             ? streams_find(r, o->outputs[i].path)
             : NULL;
    if (st) {
      buf_init_sink(&out, st->out.fd);
      report_ndjson_summary(&ctx, &out);
      if (st->failed || buf_flush(&out) < 0) {
        if (!st->failed)
          msg_error("cannot write '%s': %s", o->outputs[i].path,
                    strerror(out.sink_errno));
        report_out_abort(&st->out);
        rc = -1;
      }
      else if (report_out_commit(&st->out) < 0) {
        rc = -1;
      }
      buf_release(&out);
      continue;
    }
    if (report_write_rendered(o->outputs[i].path, &ctx, o->outputs[i].format) <
        0)
      rc = -1;
  }
  return rc;
}

/* What to do about a failure of class e whose message is msg (may be
 * NULL): one static sentence, for the lines of hs_results_log_failures;
 * NULL when msg already says it. */
static const char *failure_hint(enum err_class e, const char *msg)
{
  static const char *const fixes[] = {" -k", "try ", "ulimit", "check the"};
  size_t i;

  /* The probe's own words often end in the fix already (probe_hops.c
   * describe: "give its CA with --cacert FILE, or skip verification with
   * -k", "try http://HOST:PORT"): said once is enough. */
  for (i = 0; msg && i < ARRAY_SIZE(fixes); i++)
    if (strstr(msg, fixes[i]))
      return NULL;
  switch (e) {
  case ERR_DNS:
    return "check the host name, or pin its address with --resolve "
           "HOST:PORT:ADDR or ask other resolvers with --dns-server";
  case ERR_CONNECT:
    return "check that a server listens at that address and port and that "
           "no firewall drops the connection";
  case ERR_TLS:
    return "check the server's TLS set-up (openssl s_client -connect "
           "HOST:PORT shows the handshake)";
  case ERR_TIMEOUT:
    return "the limit is -m/--max-time per hop and --connect-timeout per "
           "connection (bare numbers are seconds, as in curl)";
  case ERR_HTTP:
    return "the answer is not the HTTP hopsplit asked for: try "
           "--http1.1, or look at it with curl -v";
  case ERR_REDIRECT:
    return "follow more with --max-redirs N, or measure the first hop "
           "alone with --no-follow";
  case ERR_HTTP_STATUS:
    return "the final status is 400 or more and -f fails such samples: "
           "check the URL, or leave out -f to measure the error response";
  case ERR_UPLOAD:
    return "every sample sends the same bytes: leave the file of -T or "
           "--data-binary @FILE unchanged while hopsplit runs";
  case ERR_QUIC:
    return "no HTTP/3 over QUIC: the server may not listen on UDP (an "
           "Alt-Svc header says where it does), a firewall may drop UDP, "
           "or libcurl3-gnutls with HTTP/3 is missing (hopsplit -V); "
           "--http3 falls back to TCP";
  case ERR_NONE:
  case ERR_COUNT:
    break;
  }
  return "see the report for the samples that failed";
}

/* As curl says "curl: (7) ...": per target and error class, the modes
 * whose first message of that class is the same share one line with
 * their counts, the message, and what to do.  Whatever the stdout format
 * (also -w, --format json); silenced by -s alone, kept by -s -S
 * (msg_note).  Nothing when every sample succeeded. */
void hs_results_log_failures(struct hs_results *r)
{
  const struct plan *p = lib_plan(r);
  size_t t, i, j;
  int e;

  lib_analyse(r);
  if (!r->analysis.n_failed)
    return;
  for (t = 0; t < p->n_targets; t++) {
    const struct target_analysis *ta = &r->analysis.targets[t];

    for (e = ERR_NONE + 1; e < ERR_COUNT; e++) {
      int said[MODE_COUNT] = {0};

      for (i = 0; i < p->n_modes; i++) {
        const struct mode_summary *m = &ta->modes[p->modes[i]];
        const char *msg = m->first_error[e];
        size_t failed = 0, n = 0, modes = 0;
        const char *hint;
        struct buf by;

        if (!m->failed_by_class[e] || said[p->modes[i]])
          continue;
        /* This mode and every later one whose first message of the
         * class is the same: one distinct failure. */
        buf_init(&by, 0);
        for (j = i; j < p->n_modes; j++) {
          const struct mode_summary *o = &ta->modes[p->modes[j]];

          if (!o->failed_by_class[e] || said[p->modes[j]] ||
              (j > i &&
               (!msg || !o->first_error[e] || strcmp(msg, o->first_error[e]))))
            continue;
          said[p->modes[j]] = 1;
          failed += o->failed_by_class[e];
          n += o->n_samples;
          buf_printf(&by, "%s%zu of %zu %s", modes++ ? ", " : "",
                     o->failed_by_class[e], o->n_samples,
                     sample_mode_names[p->modes[j]]);
        }
        hint = failure_hint(e, msg);
        if (modes > 1)
          msg_note("(%s) %s: %zu of %zu samples failed (%s): %s%s%s",
                   err_class_names[e], p->targets[t].name, failed, n, by.s,
                   msg ? msg : "no detail", hint ? "; " : "",
                   hint ? hint : "");
        else
          msg_note("(%s) %s: %s samples failed: %s%s%s", err_class_names[e],
                   p->targets[t].name, by.s, msg ? msg : "no detail",
                   hint ? "; " : "", hint ? hint : "");
        buf_release(&by);
      }
    }
  }
}

/* mkdir -p of the directories above path; a failure is left for the
 * check of the file to report. */
static void make_parents(const char *path)
{
  char *d = xstrdup(path);
  char *p;

  for (p = strchr(d + 1, '/'); p; p = strchr(p + 1, '/')) {
    *p = '\0';
    if (mkdir(d, 0777) < 0 && errno != EEXIST) {
      *p = '/';
      break;
    }
    *p = '/';
  }
  free(d);
}

enum hs_code hs_options_outputs(const struct hs_options *ho,
                                enum hs_outputs what)
{
  const struct options *o = lib_opts(ho);
  size_t i;

  switch (what) {
  case HS_OUTPUTS_WRITABLE:
    return check_outputs(o) < 0 ? HS_E_IO : HS_OK;
  case HS_OUTPUTS_CREATABLE:
    return check_outputs_dry(o) < 0 ? HS_E_IO : HS_OK;
  case HS_OUTPUTS_MAKE_DIRS:
    for (i = 0; i < o->n_outputs; i++)
      make_parents(o->outputs[i].path);
    return HS_OK;
  }
  return HS_E_BAD_VALUE;
}

void hs_unlink_temps(void)
{
  report_out_unlink_temps();
}

enum hs_code hs_results_write(struct hs_results *r, const struct hs_options *o)
{
  struct arena *was;
  int rc;

  lib_analyse(r);
  was = strpool_use(lib_arena(r));
  rc = lib_write(r, lib_opts(o));
  strpool_use(was);
  return rc < 0 ? HS_E_IO : HS_OK;
}

void lib_warn_unused_resolve(struct hs_results *r)
{
  warn_unused_resolve_run(lib_plan(r), lib_samples(r));
}

void lib_warn_parallel(struct hs_results *r)
{
  warn_parallel(lib_plan(r), lib_samples(r), &r->analysis);
}
