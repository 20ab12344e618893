/*
 * serve_main.c: "hopsplit serve" from the command line to the exit
 * status.  Input: argv.  Output: a server on the listening address until
 * SIGTERM or SIGINT, then a drain: no new connection is accepted, a new
 * probe on an open connection gets 503, the probes under way finish (each
 * is bounded by its deadline), and the process exits 0.  A second signal
 * during the drain stops at once (exit 130).
 *
 * Signals are blocked in every thread (the daemon's threads inherit the
 * mask) and taken here with sigwait, so no handler runs inside a probe.
 *
 * SIGHUP reads the module file (--config) again, as blackbox_exporter
 * does: the probes that begin after it use the new modules, those under
 * way finish with theirs; a file that no longer reads keeps the modules
 * in use and says why.  Every set of modules read lives until the exit
 * (a probe under way may hold any of them; a reload costs the memory of
 * one set).
 *
 * At start the open-file limit is raised to its hard limit: each probe in
 * flight holds descriptors, and so does each connection.  The default
 * --max-concurrent and libmicrohttpd's connection limit are sized from it
 * (serve_limits).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "probe.h"
#include "serve.h"
#include "serve_int.h"
#include "serve_msg.h"
#include "xalloc.h"
#include "banned.h"

#define EXIT_OK          0
#define EXIT_USAGE       2
#define EXIT_SETUP       4
#define EXIT_INTERRUPTED 130

/* Longest drain: the largest budget a probe can have, and a margin. */
#define DRAIN_MAX_US ((int64_t)(SERVE_DEFAULT_TIMEOUT + 10) * 1000000)

/* "ADDR:PORT", "[ADDR6]:PORT" or ":PORT" (every IPv4 address) into ss. */
static int parse_listen(const char *s, struct sockaddr_storage *ss, int *v6)
{
  char host[128];
  const char *colon, *port;
  char *end;
  long p;
  size_t n;

  memset(ss, 0, sizeof(*ss));
  *v6 = 0;
  if (s[0] == '[') {
    const char *rb = strchr(s, ']');

    if (!rb || rb[1] != ':')
      goto bad;
    n = (size_t)(rb - s - 1);
    if (n >= sizeof(host))
      goto bad;
    memcpy(host, s + 1, n);
    host[n] = '\0';
    port = rb + 2;
    *v6 = 1;
  }
  else {
    colon = strrchr(s, ':');
    if (!colon || strchr(s, ':') != colon)
      goto bad;
    n = (size_t)(colon - s);
    if (n >= sizeof(host))
      goto bad;
    memcpy(host, s, n);
    host[n] = '\0';
    port = colon + 1;
  }
  errno = 0;
  p = strtol(port, &end, 10);
  if (errno || end == port || *end || p < 0 || p > 65535)
    goto bad;
  if (*v6) {
    struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

    a->sin6_family = AF_INET6;
    a->sin6_port = htons((uint16_t)p);
    if (inet_pton(AF_INET6, host, &a->sin6_addr) != 1)
      goto bad;
  }
  else {
    struct sockaddr_in *a = (struct sockaddr_in *)ss;

    a->sin_family = AF_INET;
    a->sin_port = htons((uint16_t)p);
    if (!*host)
      a->sin_addr.s_addr = htonl(INADDR_ANY);
    else if (inet_pton(AF_INET, host, &a->sin_addr) != 1)
      goto bad;
  }
  return 0;
bad:
  return serve_error("option --listen: '%s' is not ADDR:PORT (an IPv4 "
                     "address, or an IPv6 one in brackets, and a port from 0 "
                     "to 65535)",
                     s);
}

/* The command line, for a reload (cmd_serve). */
static int serve_argc;
static char **serve_argv;

/* The module sets replaced by a reload, freed at the exit. */
struct old_config {
  struct serve_config *c;
  struct old_config *next;
};

/* The modules' names (" a b (default)"), for one line on stderr; the
 * caller frees it. */
static char *module_list(const struct serve_config *c)
{
  struct buf b;
  size_t i;

  buf_init(&b, 64);
  for (i = 0; i < c->n_modules; i++)
    buf_printf(&b, " %s%s", c->modules[i].name,
               i == c->default_module ? " (default)" : "");
  return buf_detach(&b);
}

/* Parse every module's trust store and pay OpenSSL's one-time set-up
 * before the first connection, on this thread: the stores are shared by
 * the probes, which then only read them. */
static void prewarm(const struct serve_config *c)
{
  size_t i;

  for (i = 0; i < c->n_modules; i++) {
    struct plan_target_spec spec;
    struct plan plan;

    spec.name = c->modules[i].name;
    spec.url = "https://warmup.hopsplit.invalid/";
    spec.opts = &c->modules[i].opts;
    if (plan_build_targets(&plan, &c->modules[i].opts, &spec, 1) == 0) {
      probe_tls_warmup(&plan);
      plan_release(&plan);
    }
  }
}

/* Raise RLIMIT_NOFILE to its hard limit, then size the limits on it: by
 * default at most a quarter of the descriptors for probes in flight
 * (a probe may hold two, and its request's connection one more), and
 * the connections whatever the probes and a reserve of 64 leave. */
static void serve_limits(struct serve_config *c)
{
  struct rlimit rl;
  unsigned long long nofile = 1024, conns, probes_fds;

  if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
    if (rl.rlim_cur < rl.rlim_max) {
      rlim_t want = rl.rlim_max;

      rl.rlim_cur = want;
      if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
        serve_warn("serve: cannot raise the open-file limit to %llu: %s",
                   (unsigned long long)want, strerror(errno));
      getrlimit(RLIMIT_NOFILE, &rl);
    }
    nofile = rl.rlim_cur == RLIM_INFINITY ? 1048576ULL
                                          : (unsigned long long)rl.rlim_cur;
  }
  if (!c->max_concurrent_given) {
    unsigned long long q = nofile / 4;

    c->max_concurrent = SERVE_DEFAULT_MAX_CONCURRENT;
    if (q < c->max_concurrent)
      c->max_concurrent = q ? (unsigned)q : 1;
  }
  probes_fds = 2ULL * c->max_concurrent;
  conns = nofile > probes_fds + 64 + 16 ? nofile - probes_fds - 64 : 16;
  if (conns > 1000000)
    conns = 1000000;
  c->max_connections = (unsigned)conns;
  if (c->max_concurrent_given && probes_fds + c->max_connections > nofile)
    serve_warn("serve: --max-concurrent %u may need more descriptors than the "
               "open-file limit (%llu) leaves beside the connections",
               c->max_concurrent, nofile);
}

/* SIGHUP: the modules of --config read again into a new set, which the
 * probes beginning from now on use (serve_http_set_config); *cur becomes
 * it and the set it replaces goes on *old. */
static void reload(struct serve_config **cur, struct old_config **old)
{
  struct serve_config *n;
  struct old_config *o;

  if (!(*cur)->profile) {
    serve_warn("serve: SIGHUP: no --config to read again; the modules stay "
               "as they are");
    return;
  }
  n = xmalloc(sizeof(*n));
  if (serve_config_parse(n, serve_argc, serve_argv) != 0) {
    serve_error("serve: SIGHUP: cannot reload '%s'; the %zu module%s read "
                "before stay in use",
                (*cur)->profile, (*cur)->n_modules,
                (*cur)->n_modules == 1 ? "" : "s");
    free(n);
    return;
  }
  /* The limits are the server's, sized once at start. */
  n->max_concurrent = (*cur)->max_concurrent;
  n->max_concurrent_given = (*cur)->max_concurrent_given;
  n->max_connections = (*cur)->max_connections;
  prewarm(n);
  serve_http_set_config(n);
  o = xmalloc(sizeof(*o));
  o->c = *cur;
  o->next = *old;
  *old = o;
  *cur = n;
  if (serve_verbose() >= 0) {
    char *mods = module_list(n);

    serve_note("serve: SIGHUP: reloaded %s, modules:%s", n->profile, mods);
    free(mods);
  }
}

/* The sets replaced by reloads (the first, c0, is the caller's). */
static void free_old(struct old_config *old, struct serve_config *cur,
                     const struct serve_config *c0)
{
  while (old) {
    struct old_config *next = old->next;

    if (old->c != c0) {
      serve_config_release(old->c);
      free(old->c);
    }
    free(old);
    old = next;
  }
  if (cur != c0) {
    serve_config_release(cur);
    free(cur);
  }
}

int serve_run(struct serve_config *c)
{
  struct sockaddr_storage ss;
  struct MHD_Daemon *d;
  sigset_t set;
  unsigned port = 0;
  int v6, sig = 0, rc = EXIT_OK;
  int64_t until;
  char addr[INET6_ADDRSTRLEN] = "";
  struct serve_config *cur = c;
  struct old_config *old = NULL;

  if (parse_listen(c->listen, &ss, &v6) < 0)
    return EXIT_USAGE;
  if (probe_global_init() < 0) {
    serve_error("cannot initialise libcurl or c-ares");
    return EXIT_SETUP;
  }
  serve_limits(c);
  prewarm(c);
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &set, NULL);
  signal(SIGPIPE, SIG_IGN);
  serve_http_init(c);
  if (serve_work_start(c) < 0) {
    serve_error("cannot start the measuring threads: %s", strerror(errno));
    probe_global_cleanup();
    return EXIT_SETUP;
  }
  d = serve_http_start((const struct sockaddr *)&ss, v6, &port);
  if (!d) {
    serve_error("cannot listen on '%s': %s", c->listen,
                errno ? strerror(errno) : "libmicrohttpd refused");
    serve_work_stop();
    probe_global_cleanup();
    return EXIT_SETUP;
  }
  if (v6)
    inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr, addr,
              sizeof(addr));
  else
    inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, addr,
              sizeof(addr));
  if (serve_verbose() >= 0) {
    char *mods = module_list(c);

    serve_note("serve: listening on http://%s%s%s:%u/ (vantage %s, %u probes "
               "at once, %u connections, modules:%s)",
               v6 ? "[" : "", addr, v6 ? "]" : "", port, c->vantage,
               c->max_concurrent, c->max_connections, mods);
    free(mods);
  }
  /* SIGHUP reloads the modules (a terminal hang-up is no reason to stop
   * monitoring either). */
  for (;;) {
    if (sigwait(&set, &sig) != 0)
      sig = SIGTERM;
    if (sig != SIGHUP)
      break;
    reload(&cur, &old);
  }
  serve_note("serve: %s: draining %u probe%s under way, accepting no more",
             sig == SIGINT ? "SIGINT" : "SIGTERM", serve_http_in_flight(),
             serve_http_in_flight() == 1 ? "" : "s");
  serve_http_drain();
  serve_http_quiesce(d);
  until = clock_mono_us() + DRAIN_MAX_US;
  while (!serve_http_wait_idle(until)) {
    struct timespec zero = {0, 0};
    int s2 = sigtimedwait(&set, NULL, &zero);

    if (s2 == SIGTERM || s2 == SIGINT) {
      serve_warn("serve: second signal: stopping without waiting for %u "
                 "probe%s",
                 serve_http_in_flight(),
                 serve_http_in_flight() == 1 ? "" : "s");
      rc = EXIT_INTERRUPTED;
      break;
    }
    if (clock_mono_us() >= until)
      break;
  }
  if (rc == EXIT_INTERRUPTED || !serve_http_wait_idle(0)) {
    /* Probes still run and their connections are suspended: nothing may
     * be freed under them, and libmicrohttpd cannot stop with suspended
     * connections. */
    fflush(stderr);
    _exit(rc);
  }
  serve_http_stop(d);
  serve_work_stop();
  serve_trace_clear();
  free_old(old, cur, c);
  probe_global_cleanup();
  serve_note("serve: stopped after %llu probes", serve_http_probes());
  return rc;
}

int cmd_serve(int argc, char **argv)
{
  struct serve_config c;
  int rc = serve_config_parse(&c, argc, argv);

  serve_argc = argc;
  serve_argv = argv;
  if (rc < 0)
    return EXIT_USAGE;
  if (rc == 1)
    return EXIT_OK;
  rc = serve_run(&c);
  serve_config_release(&c);
  return rc;
}
