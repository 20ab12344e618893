/*
 * serve_http.c: the HTTP side of "hopsplit serve", on libmicrohttpd in its
 * event mode: one thread waits on epoll for every connection (no
 * FD_SETSIZE limit), and a /probe request suspends its connection while
 * serve_work.c measures; the answer is sent when the probe ends
 * (MHD_resume_connection).  Output: the answers of /probe, /metrics and
 * /, and the server's counters.
 *
 * Routes:
 *   GET /probe?target=URL[&module=NAME][&debug=true]   serve_probe.c
 *   GET /metrics   the server's own counters (Prometheus text)
 *   GET /          a page that links both and lists the modules
 * A missing target is a 400, as blackbox_exporter answers; a bad target
 * or an unknown module is probe_success 0, with the reason under
 * debug=true.  At most --max-concurrent probes run at once; one more waits
 * for a place until its deadline, then gets a 503.  While the server
 * drains (SIGTERM) a new probe gets a 503 and the connection is closed.
 */
#include <errno.h>
#include <math.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "arraysize.h"
#include "clock.h"
#include "serve_int.h"
#include "serve_msg.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

#define CT_PROM SERVE_CT_PROM
#define CT_TEXT SERVE_CT_TEXT
#define CT_HTML "text/html; charset=utf-8"

/* Upper bounds of the probe duration histogram, seconds. */
static const double buckets[] = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
                                 1,     2.5,  5,     10,   30,  60,   120};
#define N_BUCKETS (ARRAY_SIZE(buckets))

static struct {
  /* The modules in use: replaced whole by serve_http_set_config on a
   * reload (read with serve_http_config); a probe keeps the one it began
   * with (struct req). */
  const struct serve_config *cfg;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  unsigned active; /* requests from their headers to their answer sent */
  int draining;
  unsigned long long probes, failures, rejected, unknown_module, bad_requests,
      requests;
  unsigned long long bucket[N_BUCKETS];
  double duration_sum;
  double started_at; /* wall clock, seconds since the epoch */
} S = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

static MHD_socket quiesced_fd = MHD_INVALID_SOCKET;

void serve_http_init(const struct serve_config *c)
{
  __atomic_store_n(&S.cfg, c, __ATOMIC_RELEASE);
  S.started_at = (double)clock_wall_us() / 1e6;
}

void serve_http_set_config(const struct serve_config *c)
{
  __atomic_store_n(&S.cfg, c, __ATOMIC_RELEASE);
}

static const struct serve_config *serve_http_config(void)
{
  return __atomic_load_n(&S.cfg, __ATOMIC_ACQUIRE);
}

unsigned serve_http_in_flight(void)
{
  unsigned n, w;

  serve_work_counts(&n, &w);
  return n + w;
}

unsigned long long serve_http_probes(void)
{
  unsigned long long n;

  pthread_mutex_lock(&S.mu);
  n = S.probes;
  pthread_mutex_unlock(&S.mu);
  return n;
}

void serve_http_drain(void)
{
  pthread_mutex_lock(&S.mu);
  S.draining = 1;
  pthread_cond_broadcast(&S.cv);
  pthread_mutex_unlock(&S.mu);
  serve_work_drain();
}

int serve_http_wait_idle(int64_t until_us)
{
  int idle;

  pthread_mutex_lock(&S.mu);
  if (S.active && clock_mono_us() < until_us) {
    /* One wait of at most 100 ms: the caller loops, and watches for a
     * second signal in between. */
    struct timespec ts = clock_wall_after_us(100000);

    pthread_cond_timedwait(&S.cv, &S.mu, &ts);
  }
  idle = S.active == 0;
  pthread_mutex_unlock(&S.mu);
  return idle;
}

int serve_budget(const char *header, double offset, double *out)
{
  double t = SERVE_DEFAULT_TIMEOUT, b;

  if (header) {
    char *end;

    errno = 0;
    t = strtod(header, &end);
    while (*end == ' ' || *end == '\t')
      end++;
    if (errno || end == header || *end || !(t > 0 && t < 1e6))
      return -1;
  }
  /* As blackbox_exporter: the scrape timeout less the offset, so the
   * answer reaches Prometheus in time; a timeout smaller than the offset
   * is taken whole. */
  b = t - offset;
  *out = b > 0 ? b : t;
  return 0;
}

/* Queue body (malloc'd, handed over) with status and content type, and
 * one more header when name is not NULL. */
static enum MHD_Result answer_with(struct MHD_Connection *con, unsigned status,
                                   const char *ctype, char *body, size_t len,
                                   int close, const char *name,
                                   const char *value)
{
  struct MHD_Response *r;
  enum MHD_Result ret;

  r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
  if (!r) {
    free(body);
    return MHD_NO;
  }
  MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
  if (close)
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
  if (name)
    MHD_add_response_header(r, name, value);
  ret = MHD_queue_response(con, status, r);
  MHD_destroy_response(r);
  return ret;
}

static enum MHD_Result answer(struct MHD_Connection *con, unsigned status,
                              const char *ctype, char *body, size_t len,
                              int close)
{
  return answer_with(con, status, ctype, body, len, close, NULL, NULL);
}

static enum MHD_Result answer_text(struct MHD_Connection *con, unsigned status,
                                   const char *text, int close)
{
  return answer(con, status, CT_TEXT, xstrdup(text), strlen(text), close);
}

static void count_bad(void)
{
  pthread_mutex_lock(&S.mu);
  S.bad_requests++;
  pthread_mutex_unlock(&S.mu);
}

/* One request, from its headers to its answer sent. */
struct req {
  struct MHD_Connection *con;
  const struct serve_config *cfg; /* the modules its probe began with */
  struct serve_job job;
  int prepared;  /* job.sp holds a probe */
  int submitted; /* handed to serve_work.c: answer when resumed */
};

/* The job has run or was refused (on the engine's or the expiry thread):
 * wake its connection, whose handler renders and queues the answer. */
static void job_done(struct serve_job *j)
{
  struct req *r = j->ud;

  MHD_resume_connection(r->con);
}

static void count_probe(const struct serve_probe *sp)
{
  double d = (double)sp->duration_us / 1e6;
  size_t i;

  pthread_mutex_lock(&S.mu);
  S.probes++;
  if (!sp->success)
    S.failures++;
  if (!sp->module)
    S.unknown_module++;
  for (i = 0; i < N_BUCKETS; i++)
    if (d <= buckets[i])
      S.bucket[i]++;
  S.duration_sum += d;
  pthread_mutex_unlock(&S.mu);
}

/* The answer of a probe that was measured, or decided without measuring
 * (a bad module or target): analysis, verdict, metrics. */
static enum MHD_Result answer_probe(struct MHD_Connection *con, struct req *r)
{
  const struct serve_config *c = r->cfg;
  struct serve_probe *sp = &r->job.sp;
  struct buf out;
  size_t len;

  serve_probe_finish(sp);
  buf_init(&out, 0);
  if (r->job.debug)
    serve_probe_debug(sp, c, &out);
  else
    serve_probe_metrics(sp, c, &out);
  count_probe(sp);
  if (serve_verbose() > 0) {
    char *shown = url_redact(sp->target);

    if (sp->success)
      serve_info("probe %s (module %s, budget %.3f s): success in %.3f s",
                 shown, sp->module_name, sp->budget_s,
                 (double)sp->duration_us / 1e6);
    else
      serve_info("probe %s (module %s, budget %.3f s): failed in %.3f s: %s",
                 shown, sp->module_name, sp->budget_s,
                 (double)sp->duration_us / 1e6, sp->reason ? sp->reason : "");
    free(shown);
  }
  /* The probe's strings go with its results. */
  serve_probe_release(sp);
  r->prepared = 0;
  len = out.len;
  return answer(con, MHD_HTTP_OK, r->job.debug ? CT_TEXT : CT_PROM,
                buf_detach(&out), len, 0);
}

static enum MHD_Result answer_refused(struct MHD_Connection *con,
                                      struct req *r)
{
  char msg[160];

  serve_probe_release(&r->job.sp);
  r->prepared = 0;
  if (r->job.draining)
    return answer_text(con, MHD_HTTP_SERVICE_UNAVAILABLE,
                       "hopsplit serve is shutting down\n", 1);
  pthread_mutex_lock(&S.mu);
  S.rejected++;
  pthread_mutex_unlock(&S.mu);
  snprintf(msg, sizeof(msg),
           "too many probes under way (--max-concurrent %u) until the "
           "deadline\n",
           serve_http_config()->max_concurrent);
  return answer_text(con, MHD_HTTP_SERVICE_UNAVAILABLE, msg, 0);
}

static enum MHD_Result handle_probe(struct MHD_Connection *con, struct req *r)
{
  const struct serve_config *c = serve_http_config();
  const char *target =
      MHD_lookup_connection_value(con, MHD_GET_ARGUMENT_KIND, "target");
  const char *module =
      MHD_lookup_connection_value(con, MHD_GET_ARGUMENT_KIND, "module");
  const char *debug =
      MHD_lookup_connection_value(con, MHD_GET_ARGUMENT_KIND, "debug");
  const char *hdr = MHD_lookup_connection_value(
      con, MHD_HEADER_KIND, "X-Prometheus-Scrape-Timeout-Seconds");
  double budget;
  int draining;

  if (!target || !*target) {
    count_bad();
    return answer_text(con, MHD_HTTP_BAD_REQUEST,
                       "Target parameter is missing\n", 0);
  }
  if (serve_budget(hdr, c->timeout_offset, &budget) < 0) {
    count_bad();
    return answer_text(con, MHD_HTTP_BAD_REQUEST,
                       "X-Prometheus-Scrape-Timeout-Seconds is not a "
                       "positive number of seconds\n",
                       0);
  }
  pthread_mutex_lock(&S.mu);
  draining = S.draining;
  pthread_mutex_unlock(&S.mu);
  if (draining)
    return answer_text(con, MHD_HTTP_SERVICE_UNAVAILABLE,
                       "hopsplit serve is shutting down\n", 1);
  r->con = con;
  r->cfg = c;
  r->job.debug = debug && !strcmp(debug, "true");
  r->job.done = job_done;
  r->job.ud = r;
  r->prepared = 1;
  if (!serve_probe_prepare(&r->job.sp, c, module, target, budget,
                           r->job.debug))
    return answer_probe(con, r);
  r->submitted = 1;
  /* Suspended before the job can end and resume it. */
  MHD_suspend_connection(con);
  serve_work_submit(&r->job);
  return MHD_YES;
}

/* Resident set size in bytes, from /proc/self/statm; -1 unknown. */
static long long rss_bytes(void)
{
  FILE *f = fopen("/proc/self/statm", "r");
  long long size, res = -1;

  if (!f)
    return -1;
  if (fscanf(f, "%lld %lld", &size, &res) != 2)
    res = -1;
  fclose(f);
  return res < 0 ? -1 : res * sysconf(_SC_PAGESIZE);
}

static enum MHD_Result handle_metrics(struct MHD_Connection *con)
{
  const struct serve_config *c = serve_http_config();
  struct buf out;
  int64_t cpu_us;
  long long rss = rss_bytes();
  unsigned in_flight, waiting;
  struct serve_lateness late;
  size_t i, len;

  serve_work_counts(&in_flight, &waiting);
  buf_init(&out, 0);
  pthread_mutex_lock(&S.mu);
  prom_family(&out, "hopsplit_serve_probes_total", "counter",
              "Probes answered.");
  buf_printf(&out, "hopsplit_serve_probes_total %llu\n", S.probes);
  prom_family(&out, "hopsplit_serve_probe_failures_total", "counter",
              "Probes answered with probe_success 0.");
  buf_printf(&out, "hopsplit_serve_probe_failures_total %llu\n", S.failures);
  prom_family(&out, "hopsplit_serve_unknown_module_total", "counter",
              "Probes that named an unknown module.");
  buf_printf(&out, "hopsplit_serve_unknown_module_total %llu\n",
             S.unknown_module);
  prom_family(&out, "hopsplit_serve_probes_rejected_total", "counter",
              "Probes refused with 503: no place under --max-concurrent "
              "before their deadline.");
  buf_printf(&out, "hopsplit_serve_probes_rejected_total %llu\n", S.rejected);
  prom_family(&out, "hopsplit_serve_bad_requests_total", "counter",
              "Requests answered 4xx (no target, bad timeout header, "
              "unknown path or method).");
  buf_printf(&out, "hopsplit_serve_bad_requests_total %llu\n", S.bad_requests);
  prom_family(&out, "hopsplit_serve_http_requests_total", "counter",
              "HTTP requests answered, every path.");
  buf_printf(&out, "hopsplit_serve_http_requests_total %llu\n", S.requests);
  prom_family(&out, "hopsplit_serve_probes_in_flight", "gauge",
              "Probes measuring now.");
  buf_printf(&out, "hopsplit_serve_probes_in_flight %u\n", in_flight);
  prom_family(&out, "hopsplit_serve_probes_waiting", "gauge",
              "Probes waiting for a place under --max-concurrent.");
  buf_printf(&out, "hopsplit_serve_probes_waiting %u\n", waiting);
  prom_family(&out, "hopsplit_serve_max_concurrent", "gauge",
              "The limit of probes under way (--max-concurrent).");
  buf_printf(&out, "hopsplit_serve_max_concurrent %u\n", c->max_concurrent);
  prom_family(&out, "hopsplit_serve_max_connections", "gauge",
              "The limit of open HTTP connections (from the open-file "
              "limit).");
  buf_printf(&out, "hopsplit_serve_max_connections %u\n", c->max_connections);
  serve_work_lateness(&late);
  prom_family(&out, "hopsplit_serve_loop_lateness_seconds", "summary",
              "Delays between a socket or timer of the measuring loop "
              "being ready and its handling.");
  buf_puts(&out, "hopsplit_serve_loop_lateness_seconds_sum ");
  prom_seconds(&out, late.sum_us);
  buf_printf(&out, "\nhopsplit_serve_loop_lateness_seconds_count %llu\n",
             (unsigned long long)late.count);
  prom_family(&out, "hopsplit_serve_loop_lateness_max_seconds", "gauge",
              "The largest such delay so far.");
  buf_puts(&out, "hopsplit_serve_loop_lateness_max_seconds ");
  prom_seconds(&out, late.max_us);
  buf_putc(&out, '\n');
  prom_family(&out, "hopsplit_serve_probe_duration_seconds", "histogram",
              "Wall time of answered probes.");
  for (i = 0; i < N_BUCKETS; i++)
    buf_printf(&out,
               "hopsplit_serve_probe_duration_seconds_bucket{le=\"%g\"} "
               "%llu\n",
               buckets[i], S.bucket[i]);
  buf_printf(&out,
             "hopsplit_serve_probe_duration_seconds_bucket{le=\"+Inf\"} "
             "%llu\n",
             S.probes);
  buf_printf(&out, "hopsplit_serve_probe_duration_seconds_sum %.6f\n",
             S.duration_sum);
  buf_printf(&out, "hopsplit_serve_probe_duration_seconds_count %llu\n",
             S.probes);
  pthread_mutex_unlock(&S.mu);
  prom_family(&out, "hopsplit_serve_info", "gauge",
              "Version, vantage point and modules of this server.");
  buf_puts(&out, "hopsplit_serve_info{");
  prom_label(&out, "version", HOPSPLIT_VERSION, 1);
  prom_label(&out, "vantage", c->vantage, 0);
  buf_printf(&out, ",modules=\"%zu\"} 1\n", c->n_modules);
  if (rss >= 0) {
    prom_family(&out, "process_resident_memory_bytes", "gauge",
                "Resident memory size in bytes.");
    buf_printf(&out, "process_resident_memory_bytes %lld\n", rss);
  }
  if ((cpu_us = clock_cpu_us()) >= 0) {
    prom_family(&out, "process_cpu_seconds_total", "counter",
                "Total user and system CPU time spent in seconds.");
    buf_printf(&out, "process_cpu_seconds_total %.6f\n", (double)cpu_us / 1e6);
  }
  prom_family(&out, "process_start_time_seconds", "gauge",
              "Start time of the process since unix epoch in seconds.");
  buf_printf(&out, "process_start_time_seconds %.3f\n", S.started_at);
  len = out.len;
  return answer(con, MHD_HTTP_OK, CT_PROM, buf_detach(&out), len, 0);
}

static enum MHD_Result handle_index(struct MHD_Connection *con)
{
  const struct serve_config *c = serve_http_config();
  struct buf b;
  size_t i, len;

  buf_init(&b, 0);
  buf_puts(&b, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
               "<title>hopsplit serve</title></head><body>\n"
               "<h1>hopsplit serve</h1>\n<p>A prober for Prometheus in the "
               "manner of blackbox_exporter, version " HOPSPLIT_VERSION
               ", vantage point <b>");
  buf_put_html(&b, c->vantage);
  buf_puts(&b, "</b>.</p>\n<form action=\"probe\" method=\"get\">"
               "<p>Probe <input name=\"target\" size=\"60\" "
               "placeholder=\"https://example.com/\"> with module <select "
               "name=\"module\">");
  for (i = 0; i < c->n_modules; i++) {
    buf_puts(&b, "<option");
    if (i == c->default_module)
      buf_puts(&b, " selected");
    buf_puts(&b, ">");
    buf_put_html(&b, c->modules[i].name);
    buf_puts(&b, "</option>");
  }
  buf_puts(&b, "</select> <label><input type=\"checkbox\" name=\"debug\" "
               "value=\"true\"> debug</label> <button>Probe</button></p>"
               "</form>\n<p><a href=\"metrics\">Metrics</a> (this server's "
               "own counters)</p>\n<h2>Modules</h2>\n<ul>\n");
  for (i = 0; i < c->n_modules; i++) {
    buf_puts(&b, "<li><b>");
    buf_put_html(&b, c->modules[i].name);
    buf_puts(&b, "</b>: ");
    buf_put_html(&b, c->modules[i].about);
    if (i == c->default_module)
      buf_puts(&b, " (the default, also called http_2xx)");
    buf_puts(&b, "</li>\n");
  }
  buf_puts(&b, "</ul>\n</body></html>\n");
  len = b.len;
  return answer(con, MHD_HTTP_OK, CT_HTML, buf_detach(&b), len, 0);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *con,
                                  const char *url, const char *method,
                                  const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **req_cls)
{
  struct req *r = *req_cls;

  (void)cls;
  (void)version;
  (void)upload_data;
  /* The first call has the headers only: answer on the next one, after
   * any body (ignored) has been read. */
  if (!r) {
    *req_cls = xcalloc(1, sizeof(struct req));
    pthread_mutex_lock(&S.mu);
    S.active++;
    pthread_mutex_unlock(&S.mu);
    return MHD_YES;
  }
  if (*upload_data_size) {
    *upload_data_size = 0;
    return MHD_YES;
  }
  if (r->submitted) {
    /* Resumed: the probe has run, or was refused. */
    r->submitted = 0;
    if (r->job.rejected)
      return answer_refused(con, r);
    return answer_probe(con, r);
  }
  pthread_mutex_lock(&S.mu);
  S.requests++;
  pthread_mutex_unlock(&S.mu);
  if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
    count_bad();
    return answer_with(con, MHD_HTTP_METHOD_NOT_ALLOWED, CT_TEXT,
                       xstrdup("only GET and HEAD\n"), 18, 0,
                       MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
  }
  if (!strcmp(url, "/probe"))
    return handle_probe(con, r);
  if (!strcmp(url, "/metrics"))
    return handle_metrics(con);
  if (!strcmp(url, "/"))
    return handle_index(con);
  count_bad();
  return answer_text(con, MHD_HTTP_NOT_FOUND,
                     "not found: see / (/probe?target=URL, /metrics)\n", 0);
}

/* A request is over: its answer was sent, or the client went away.  The
 * drain waits for this, not only for the probe, so that a probe measured
 * during the drain is also delivered. */
static void on_completed(void *cls, struct MHD_Connection *con, void **req_cls,
                         enum MHD_RequestTerminationCode toe)
{
  struct req *r = *req_cls;

  (void)cls;
  (void)con;
  (void)toe;
  if (!r)
    return;
  *req_cls = NULL;
  if (r->prepared) {
    /* The client went away before its answer was rendered. */
    serve_probe_release(&r->job.sp);
  }
  free(r);
  pthread_mutex_lock(&S.mu);
  S.active--;
  pthread_cond_broadcast(&S.cv);
  pthread_mutex_unlock(&S.mu);
}

/* libmicrohttpd's own messages (a malformed request, a failed accept):
 * through msg, so each is one line in one write(2) with hopsplit's prefix
 * and its control characters escaped, like every other line on stderr
 * (its default logger writes the text as it is). */
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
  char line[512];
  size_t len;

  (void)cls;
  if (vsnprintf(line, sizeof(line), fmt, ap) < 0)
    return;
  len = strlen(line);
  while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
    line[--len] = '\0';
  serve_note("serve: libmicrohttpd: %s", line);
}

struct MHD_Daemon *serve_http_start(const struct sockaddr *sa, int ipv6,
                                    unsigned *port)
{
  const struct serve_config *c = serve_http_config();
  struct MHD_Daemon *d;
  const union MHD_DaemonInfo *info;
  unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME |
                   MHD_USE_ERROR_LOG;

  if (ipv6)
    flags |= MHD_USE_IPv6;
  /* One thread on epoll for every connection; a probe's connection is
   * suspended (it costs a descriptor and its buffer, no thread) until its
   * answer is ready.  Prometheus keeps a connection per target, so the
   * limit on connections is wide (serve_limits); an idle connection is
   * closed after 5 minutes (a suspended one never times out: its probe
   * is bounded by its own deadline).  The listen backlog takes a burst of
   * thousands of scrapes at once (the kernel caps it at somaxconn). */
  d = MHD_start_daemon(flags, 0, NULL, NULL, on_request, NULL,
                       MHD_OPTION_SOCK_ADDR, sa, MHD_OPTION_CONNECTION_LIMIT,
                       c->max_connections, MHD_OPTION_CONNECTION_TIMEOUT,
                       (unsigned)300, MHD_OPTION_LISTEN_BACKLOG_SIZE,
                       (unsigned)65535, MHD_OPTION_NOTIFY_COMPLETED,
                       on_completed, NULL, MHD_OPTION_EXTERNAL_LOGGER, mhd_log,
                       NULL, MHD_OPTION_END);
  if (!d)
    return NULL;
  info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
  *port = info ? info->port : 0;
  return d;
}

void serve_http_stop(struct MHD_Daemon *d)
{
  if (quiesced_fd == MHD_INVALID_SOCKET)
    quiesced_fd = MHD_quiesce_daemon(d);
  /* MHD_stop_daemon joins the connection threads; the probes under way
   * have been waited for by then. */
  MHD_stop_daemon(d);
  if (quiesced_fd != MHD_INVALID_SOCKET)
    close(quiesced_fd);
  quiesced_fd = MHD_INVALID_SOCKET;
}

void serve_http_quiesce(struct MHD_Daemon *d)
{
  /* Stop accepting.  The socket itself is closed by serve_http_stop
   * after MHD_stop_daemon, as the manual requires with internal threads;
   * until then it is shut down, so that the kernel refuses new
   * connections instead of queueing them unanswered. */
  quiesced_fd = MHD_quiesce_daemon(d);
  if (quiesced_fd != MHD_INVALID_SOCKET)
    shutdown(quiesced_fd, SHUT_RDWR);
}
