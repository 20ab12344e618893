/*
 * report_fields.c: the field tables (see report_fields.h).  Input: the
 * typed sample, hop, facts, statistics and comparisons.  Output: values,
 * and their JSON, plain and human forms.  Accessors read, never compute.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "json.h"
#include "option_table.h"
#include "strpool.h"
#include "report_fields.h"
#include "transport.h"
#include "units.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

static void set_int(struct field_value *v, int64_t i)
{
  v->i = i;
}

static void set_text(struct field_value *v, const char *s)
{
  v->s = s;
  v->null = s == NULL;
}

static void set_owned(struct field_value *v, char *s)
{
  v->owned = s;
  set_text(v, s);
}

/* --- samples ------------------------------------------------------------ */

#define S (r->s)

static void g_index(const struct field_row *r, struct field_value *v)
{
  set_int(v, (int64_t)r->index);
}
static void g_target(const struct field_row *r, struct field_value *v)
{
  set_text(v, r->c->plan->targets[S->target].name);
}
static void g_mode(const struct field_row *r, struct field_value *v)
{
  set_text(v, sample_mode_names[S->mode]);
}
static void g_round(const struct field_row *r, struct field_value *v)
{
  set_int(v, S->round);
}
static void g_position(const struct field_row *r, struct field_value *v)
{
  set_int(v, S->position);
}
static void g_started(const struct field_row *r, struct field_value *v)
{
  set_int(v, S->started_at_ms);
}
static void g_ok(const struct field_row *r, struct field_value *v)
{
  set_int(v, S->ok);
}
static void g_err_class(const struct field_row *r, struct field_value *v)
{
  set_text(v, S->ok ? NULL : err_class_names[S->err]);
}
static void g_err_message(const struct field_row *r, struct field_value *v)
{
  set_text(v, S->ok ? NULL : sample_rare(S)->err_message);
}
static void g_total(const struct field_row *r, struct field_value *v)
{
  set_int(v, S->total_us);
}
static void g_redirect(const struct field_row *r, struct field_value *v)
{
  set_int(v, S->redirect_us);
}
static void g_other(const struct field_row *r, struct field_value *v)
{
  set_int(v, S->other_us);
}
static void g_primed(const struct field_row *r, struct field_value *v)
{
  const struct sample_rare *rare = sample_rare(S);
  size_t i;

  if (!rare->n_primed)
    return;
  v->owned_v = xcalloc(rare->n_primed, sizeof(*v->owned_v));
  for (i = 0; i < rare->n_primed; i++)
    v->owned_v[i] = report_url(r->c, rare->primed[i]);
  v->v = (const char *const *)v->owned_v;
  v->n = rare->n_primed;
}
static void g_prime_error(const struct field_row *r, struct field_value *v)
{
  set_text(v, sample_rare(S)->prime_error);
}
static void g_idle(const struct field_row *r, struct field_value *v)
{
  v->null = S->idle_us < 0;
  set_int(v, S->idle_us);
}

static void g_interference(const struct field_row *r, struct field_value *v)
{
  set_int(v, S->interference_us);
}
static void g_interfered(const struct field_row *r, struct field_value *v)
{
  set_int(v, S->interfered);
}
/* The parts of interference_us: null when not measured (-1). */
static void g_late(const struct field_row *r, struct field_value *v)
{
  v->null = S->late_us < 0;
  set_int(v, S->late_us);
}
static void g_own(const struct field_row *r, struct field_value *v)
{
  v->null = S->own_us < 0;
  set_int(v, S->own_us);
}
static void g_runq(const struct field_row *r, struct field_value *v)
{
  v->null = S->runq_us < 0;
  set_int(v, S->runq_us);
}
static void g_lock(const struct field_row *r, struct field_value *v)
{
  v->null = S->lock_us < 0;
  set_int(v, S->lock_us);
}
static void g_output_us(const struct field_row *r, struct field_value *v)
{
  v->null = S->output_us < 0;
  set_int(v, S->output_us);
}
static void g_output(const struct field_row *r, struct field_value *v)
{
  v->null = S->output_bytes < 0;
  set_int(v, S->output_bytes);
}
static void g_control(const struct field_row *r, struct field_value *v)
{
  set_int(v, S->control);
}

static void g_final_status(const struct field_row *r, struct field_value *v)
{
  v->null = S->status == 0;
  set_int(v, S->status);
}

/* Readers of a saved document (report_read.c checks each value against
 * the row's type and bounds first). */
#define IN_S (in->s)

#define SET_TEXT(fn, lhs)                                                     \
  static const char *fn(struct field_in *in, const struct field_value *v)     \
  {                                                                           \
    lhs = strpool_intern(v->s);                                               \
    return NULL;                                                              \
  }
/* A number, dflt when absent or null. */
#define SET_INT(fn, lhs, type, dflt)                                          \
  static const char *fn(struct field_in *in, const struct field_value *v)     \
  {                                                                           \
    lhs = v->null ? (dflt) : (type)v->i;                                      \
    return NULL;                                                              \
  }
/* true or false, never absent. */
#define SET_BOOL(fn, lhs)                                                     \
  static const char *fn(struct field_in *in, const struct field_value *v)     \
  {                                                                           \
    if (v->null)                                                              \
      return "expected true or false";                                        \
    lhs = v->i != 0;                                                          \
    return NULL;                                                              \
  }
/* true or false, dflt when absent (documents from before it). */
#define SET_OPT_BOOL(fn, lhs, dflt)                                           \
  static const char *fn(struct field_in *in, const struct field_value *v)     \
  {                                                                           \
    lhs = v->null ? (dflt) : v->i != 0;                                       \
    return NULL;                                                              \
  }

static const char *s_target(struct field_in *in, const struct field_value *v)
{
  size_t i;

  for (i = 0; v->s && i < in->plan->n_targets; i++)
    if (in->plan->targets[i].name &&
        !strcmp(in->plan->targets[i].name, v->s)) {
      IN_S->target = (uint32_t)i;
      return NULL;
    }
  return "not the name of a target";
}
static const char *s_mode(struct field_in *in, const struct field_value *v)
{
  enum sample_mode m = v->s ? sample_mode_from_name(v->s) : MODE_COUNT;

  IN_S->mode = (uint8_t)(m == MODE_COUNT ? MODE_COLD : m);
  return m == MODE_COUNT ? "unknown mode" : NULL;
}
/* The error of a failed sample (a successful one's is null). */
static const char *s_err_class(struct field_in *in,
                               const struct field_value *v)
{
  enum err_class e = v->s ? err_class_from_name(v->s) : ERR_COUNT;

  if (IN_S->ok)
    return NULL;
  if (e == ERR_COUNT || e == ERR_NONE) {
    IN_S->err = ERR_HTTP;
    return "unknown error class";
  }
  IN_S->err = (uint8_t)e;
  return NULL;
}
static const char *s_err_message(struct field_in *in,
                                 const struct field_value *v)
{
  if (!IN_S->ok)
    sample_set_err_message(IN_S, strpool_intern(v->s));
  return NULL;
}
static const char *s_primed(struct field_in *in, const struct field_value *v)
{
  const char **p;
  size_t i;

  if (!v->n)
    return NULL;
  if (v->n > FIELD_MAX_HOPS)
    return "too many URLs";
  p = xcalloc(v->n, sizeof(*p));
  for (i = 0; i < v->n; i++)
    p[i] = strpool_intern(v->v[i]);
  sample_set_primed(IN_S, strpool_intern_blob(p, v->n * sizeof(*p)),
                    (uint32_t)v->n);
  free(p);
  return NULL;
}
SET_INT(s_round, IN_S->round, int32_t, 0)
SET_INT(s_position, IN_S->position, int32_t, 0)
SET_INT(s_started, IN_S->started_at_ms, int64_t, 0)
SET_BOOL(s_ok, IN_S->ok)
SET_INT(s_total, IN_S->total_us, int64_t, 0)
SET_INT(s_redirect, IN_S->redirect_us, int64_t, 0)
SET_INT(s_other, IN_S->other_us, int64_t, 0)
/* Documents without it: the last hop's (report_read.c). */
SET_INT(s_status, IN_S->status, int32_t, 0)
static const char *s_prime_error(struct field_in *in,
                                 const struct field_value *v)
{
  sample_set_prime_error(IN_S, strpool_intern(v->s));
  return NULL;
}
SET_INT(s_idle, IN_S->idle_us, int64_t, -1)
/* Documents from before the event loop have neither. */
SET_INT(s_interference, IN_S->interference_us, int64_t, 0)
SET_OPT_BOOL(s_interfered, IN_S->interfered, 0)
/* Documents from before these parts were counted: unknown. */
SET_INT(s_late, IN_S->late_us, int64_t, -1)
SET_INT(s_own, IN_S->own_us, int64_t, -1)
SET_INT(s_runq, IN_S->runq_us, int64_t, -1)
SET_INT(s_lock, IN_S->lock_us, int64_t, -1)
SET_INT(s_output_us, IN_S->output_us, int64_t, -1)
SET_INT(s_output, IN_S->output_bytes, int64_t, -1)
SET_OPT_BOOL(s_control, IN_S->control, 0)

#undef IN_S

#define US_RANGE  0, FIELD_MAX_US /* a duration that is never negative */
#define INT32_POS 0, INT32_MAX

const struct field report_sample_fields[FS_COUNT + 1] = {
    [FS_INDEX] = {"index", "sample", FIELD_INT, g_index, 0, 0, NULL,
                  FIELD_NO_READ},
    [FS_TARGET] = {"target", "target", FIELD_TEXT, g_target, 0, 0, NULL,
                   s_target, 0, 0},
    [FS_MODE] = {"mode", "mode", FIELD_TEXT, g_mode, 0, 0, NULL, s_mode, 0, 0},
    [FS_ROUND] = {"round", "round", FIELD_INT, g_round, 0, 0, NULL, s_round,
                  INT32_POS},
    [FS_POSITION] = {"position", "position in the round", FIELD_INT,
                     g_position, 0, 0, NULL, s_position, INT32_POS},
    [FS_STARTED_AT] = {"started_at", "started at", FIELD_TIME, g_started, 0, 0,
                       NULL, s_started, 0, 0},
    [FS_OK] = {"ok", "succeeded", FIELD_BOOL, g_ok, 0, 0, NULL, s_ok, 0, 0},
    [FS_ERROR_CLASS] = {"error.class", "error", FIELD_TEXT, g_err_class,
                        FIELD_NULL_OBJECT, 0, NULL, s_err_class, 0, 0},
    [FS_ERROR_MESSAGE] = {"error.message", "error message", FIELD_TEXT,
                          g_err_message, FIELD_NULL_OBJECT, 0, NULL,
                          s_err_message, 0, 0},
    [FS_TOTAL_US] = {"total_us", "total", FIELD_US, g_total, 0, 0, NULL,
                     s_total, US_RANGE},
    [FS_REDIRECT_US] = {"redirect_us", "redirects", FIELD_US, g_redirect, 0, 0,
                        NULL, s_redirect, US_RANGE},
    /* The time between hops, a signed difference. */
    [FS_OTHER_US] = {"other_us", "other", FIELD_US, g_other, 0, 0, NULL,
                     s_other, -FIELD_MAX_US, FIELD_MAX_US},
    [FS_STATUS] = {"status", "final HTTP status", FIELD_INT, g_final_status, 0,
                   0, NULL, s_status, 0, 999},
    [FS_PRIMED] = {"primed", "fetched before it", FIELD_TEXTS, g_primed, 0, 0,
                   NULL, s_primed, 0, 0},
    [FS_PRIME_ERROR] = {"prime_error", "prime failed", FIELD_TEXT,
                        g_prime_error, 0, 0, NULL, s_prime_error, 0, 0},
    [FS_IDLE_US] = {"idle_us", "connection idle before", FIELD_US, g_idle, 0,
                    0, NULL, s_idle, US_RANGE},
    [FS_INTERFERENCE_US] = {"interference_us", "most its stamps can be late",
                            FIELD_US, g_interference, 0, 0, NULL,
                            s_interference, US_RANGE},
    [FS_INTERFERED] = {"interfered", "interference past the threshold",
                       FIELD_BOOL, g_interfered, 0, 0, NULL, s_interfered, 0,
                       0},
    [FS_LATE_US] = {"interference_late_us", "the loop's lateness", FIELD_US,
                    g_late, 0, 0, NULL, s_late, US_RANGE},
    [FS_OWN_US] = {"interference_own_us", "own work in libcurl's callbacks",
                   FIELD_US, g_own, 0, 0, NULL, s_own, US_RANGE},
    [FS_RUNQ_US] = {"interference_runq_us", "wait for a CPU", FIELD_US, g_runq,
                    0, 0, NULL, s_runq, US_RANGE},
    [FS_LOCK_US] = {"interference_lock_us", "wait for hopsplit's locks",
                    FIELD_US, g_lock, 0, 0, NULL, s_lock, US_RANGE},
    [FS_OUTPUT_US] = {"interference_output_us", "writing output", FIELD_US,
                      g_output_us, 0, 0, NULL, s_output_us, US_RANGE},
    [FS_OUTPUT_BYTES] = {"interference_output_bytes", "output written",
                         FIELD_INT, g_output, 0, 0, NULL, s_output, 0,
                         INT64_MAX},
    [FS_CONTROL] = {"control", "serial control of --parallel", FIELD_BOOL,
                    g_control, 0, 0, NULL, s_control, 0, 0},
    [FS_COUNT] = {NULL, NULL, FIELD_TYPE_COUNT, NULL, 0, 0, NULL,
                  FIELD_NO_READ}};

/* Not part of the sample object of hopsplit/1 (its hops say it); for the
 * views that show a sample in one row: CSV, Prometheus, HTML. */
const struct field report_sample_status = {
    "status", "final HTTP status", FIELD_INT, g_final_status, 0, 0,
    NULL,     FIELD_NO_READ};

#undef S

/* --- hops --------------------------------------------------------------- */

#define H (r->h)

static void g_hop(const struct field_row *r, struct field_value *v)
{
  set_int(v, (int64_t)r->k + 1);
}
static void g_url(const struct field_row *r, struct field_value *v)
{
  set_owned(v, report_url(r->c, H->info->url));
}
static void g_method(const struct field_row *r, struct field_value *v)
{
  set_text(v, H->info->method);
}
static void g_host(const struct field_row *r, struct field_value *v)
{
  set_text(v, H->info->host);
}
static void g_status(const struct field_row *r, struct field_value *v)
{
  v->null = H->info->status == 0;
  set_int(v, H->info->status);
}
static void g_http_version(const struct field_row *r, struct field_value *v)
{
  set_text(v, H->info->http_version);
}
static void g_remote_ip(const struct field_row *r, struct field_value *v)
{
  set_text(v, H->info->remote_ip);
}
static void g_remote_port(const struct field_row *r, struct field_value *v)
{
  v->null = H->info->remote_port == 0;
  set_int(v, H->info->remote_port);
}
static void g_reused(const struct field_row *r, struct field_value *v)
{
  set_int(v, H->reused);
}
static void g_start(const struct field_row *r, struct field_value *v)
{
  set_int(v, H->start_us);
}
/* The kernel's view of the connection (hopsplit(1) TRANSPORT): -1 is not
 * measured, and a hop without it has none. */
#define TCP_GETTER(fn, member)                                                \
  static void fn(const struct field_row *r, struct field_value *v)            \
  {                                                                           \
    v->null = !H->tcp_valid || H->tcp.member < 0;                             \
    set_int(v, H->tcp.member);                                                \
  }
TCP_GETTER(g_tcp_min_rtt, min_rtt_us)
TCP_GETTER(g_tcp_rtt, rtt_us)
TCP_GETTER(g_tcp_rttvar, rttvar_us)
TCP_GETTER(g_tcp_rcv_rtt, rcv_rtt_us)
TCP_GETTER(g_tcp_retrans, retransmits)
TCP_GETTER(g_tcp_ooo, rcv_ooopack)
TCP_GETTER(g_tcp_bytes_in, bytes_in)
TCP_GETTER(g_tcp_bytes_out, bytes_out)
TCP_GETTER(g_tcp_segs_in, segs_in)
TCP_GETTER(g_tcp_segs_out, segs_out)
TCP_GETTER(g_tcp_delivery, flow->delivery_rate)
TCP_GETTER(g_tcp_busy, flow->busy_us)
TCP_GETTER(g_tcp_rwnd, flow->rwnd_limited_us)
TCP_GETTER(g_tcp_sndbuf, flow->sndbuf_limited_us)
TCP_GETTER(g_tcp_last_rate, flow->last_round_rate)
#undef TCP_GETTER
static void g_tcp_rounds(const struct field_row *r, struct field_value *v)
{
  v->null = !H->tcp_valid || !H->tcp.flow->n_rounds;
  set_int(v, H->tcp.flow->n_rounds);
}
static void g_tcp_round_list(const struct field_row *r, struct field_value *v)
{
  v->n = hop_rounds_kept(H);
}
static void g_tcp_missing(const struct field_row *r, struct field_value *v)
{
  set_text(v, H->tcp_valid ? NULL : H->tcp.flow->missing);
}
static void g_server_us(const struct field_row *r, struct field_value *v)
{
  int64_t s = hop_server_us(H);

  v->null = s < 0;
  set_int(v, s);
}
static void g_network_us(const struct field_row *r, struct field_value *v)
{
  int64_t s = hop_server_us(H);

  v->null = s < 0;
  set_int(v, H->phases[PHASE_TOTAL] - s);
}
static void g_server_timing(const struct field_row *r, struct field_value *v)
{
  int64_t s = transport_server_timing_us(hop_header(H, "server-timing"));

  v->null = s < 0;
  set_int(v, s);
}
static void g_local_port(const struct field_row *r, struct field_value *v)
{
  v->null = H->local_port == 0;
  set_int(v, H->local_port);
}
static const char *family_name(int family)
{
  return family == 6 ? "ipv6" : family == 4 ? "ipv4" : NULL;
}
static void g_family(const struct field_row *r, struct field_value *v)
{
  set_text(v, family_name(H->info->family));
}
static void g_fb_address(const struct field_row *r, struct field_value *v)
{
  set_text(v, H->info->fallback ? H->info->fallback->address : NULL);
}
static void g_fb_family(const struct field_row *r, struct field_value *v)
{
  set_text(v, !H->info->fallback               ? NULL
              : H->info->fallback->family == 6 ? "ipv6"
                                               : "ipv4");
}
static void g_fb_reason(const struct field_row *r, struct field_value *v)
{
  set_text(v, H->info->fallback ? H->info->fallback->reason : NULL);
}
static void g_fb_lost(const struct field_row *r, struct field_value *v)
{
  if (H->info->fallback)
    set_int(v, H->info->fallback->lost_us);
  else
    v->null = 1;
}
static void g_h3_fallback(const struct field_row *r, struct field_value *v)
{
  set_text(v, H->info->h3_fallback);
}
static void g_alt_svc(const struct field_row *r, struct field_value *v)
{
  set_text(v, H->info->alt_svc);
}
static void g_alt_svc_port(const struct field_row *r, struct field_value *v)
{
  v->null = H->info->alt_svc_port == 0;
  set_int(v, H->info->alt_svc_port);
}
static void g_alt_svc_ma(const struct field_row *r, struct field_value *v)
{
  v->null = H->info->alt_svc_ma < 0;
  set_int(v, H->info->alt_svc_ma);
}
static void g_tls_library(const struct field_row *r, struct field_value *v)
{
  set_text(v, H->tls->library);
}
static void g_earlydata(const struct field_row *r, struct field_value *v)
{
  v->null = !H->tls->version || H->info->earlydata < 0;
  set_int(v, H->info->earlydata);
}
static void g_anomaly(const struct field_row *r, struct field_value *v)
{
  set_text(v, H->info->timing_anomaly);
}
static void g_tls_offered(const struct field_row *r, struct field_value *v)
{
  v->null = H->tls->offered < 0;
  set_int(v, H->tls->offered > 0);
}
static void g_tls_not_offered(const struct field_row *r, struct field_value *v)
{
  set_text(v, H->tls->not_offered);
}
static void g_dns_failed(const struct field_row *r, struct field_value *v)
{
  v->n = H->dns->n_failed;
}
static void g_tls_version(const struct field_row *r, struct field_value *v)
{
  set_text(v, H->tls->version);
}
static void g_tls_cipher(const struct field_row *r, struct field_value *v)
{
  set_text(v, H->tls->cipher);
}
static void g_tls_alpn(const struct field_row *r, struct field_value *v)
{
  set_text(v, H->tls->alpn);
}
static void g_tls_resumed(const struct field_row *r, struct field_value *v)
{
  v->null = H->tls->resumed < 0;
  set_int(v, H->tls->resumed > 0);
}
static void g_dns_us(const struct field_row *r, struct field_value *v)
{
  set_int(v, H->dns_us);
}
static void g_dns_server(const struct field_row *r, struct field_value *v)
{
  set_text(v, H->dns->server);
}
static void g_dns_addresses(const struct field_row *r, struct field_value *v)
{
  v->v = H->dns->addresses;
  v->n = H->dns->n_addresses;
}
static void g_dns_cnames(const struct field_row *r, struct field_value *v)
{
  v->v = H->dns->cnames;
  v->n = H->dns->n_cnames;
}
static void g_dns_ttl(const struct field_row *r, struct field_value *v)
{
  v->null = H->dns->ttl < 0;
  set_int(v, H->dns->ttl);
}
static void g_dns_pinned(const struct field_row *r, struct field_value *v)
{
  set_int(v, H->dns->pinned);
}
static void g_dns_cached(const struct field_row *r, struct field_value *v)
{
  set_int(v, H->dns->cached);
}
static void g_dns_literal(const struct field_row *r, struct field_value *v)
{
  set_int(v, H->dns->literal);
}

#define PHASE_GETTER(fn, ph)                                                  \
  static void fn(const struct field_row *r, struct field_value *v)            \
  {                                                                           \
    set_int(v, H->phases[ph]);                                                \
  }
PHASE_GETTER(g_ph_dns, PHASE_DNS)
PHASE_GETTER(g_ph_connect, PHASE_CONNECT)
PHASE_GETTER(g_ph_tls, PHASE_TLS)
PHASE_GETTER(g_ph_send, PHASE_SEND)
PHASE_GETTER(g_ph_wait, PHASE_WAIT)
PHASE_GETTER(g_ph_transfer, PHASE_TRANSFER)
PHASE_GETTER(g_ph_total, PHASE_TOTAL)

#define CURL_GETTER(fn, member)                                               \
  static void fn(const struct field_row *r, struct field_value *v)            \
  {                                                                           \
    v->null = H->curl.member < 0;                                             \
    set_int(v, H->curl.member);                                               \
  }
CURL_GETTER(g_c_namelookup, namelookup)
CURL_GETTER(g_c_connect, connect)
CURL_GETTER(g_c_appconnect, appconnect)
CURL_GETTER(g_c_pretransfer, pretransfer)
CURL_GETTER(g_c_posttransfer, posttransfer)
CURL_GETTER(g_c_starttransfer, starttransfer)
CURL_GETTER(g_c_total, total)

static void g_cache(const struct field_row *r, struct field_value *v)
{
  set_text(v, r->fact ? cache_verdict_names[r->fact->verdict] : NULL);
}
static void g_cache_inferred(const struct field_row *r, struct field_value *v)
{
  v->null = r->fact == NULL;
  set_int(v, r->fact ? r->fact->inferred : 0);
}
static void g_cache_vendor(const struct field_row *r, struct field_value *v)
{
  set_text(v, r->fact && r->fact->n_layers && r->fact->layers[0].vendor[0]
                  ? r->fact->layers[0].vendor
                  : NULL);
}
static void g_cache_layers(const struct field_row *r, struct field_value *v)
{
  v->n = r->fact ? r->fact->n_layers : 0;
}
static void g_vendor(const struct field_row *r, struct field_value *v)
{
  set_text(v, r->fact ? r->fact->vendor : NULL);
}
static void g_pop(const struct field_row *r, struct field_value *v)
{
  set_text(v, r->fact ? r->fact->pop : NULL);
}
static void g_size_download(const struct field_row *r, struct field_value *v)
{
  set_int(v, H->info->size_download);
}
static void g_size_decoded(const struct field_row *r, struct field_value *v)
{
  set_int(v, H->info->size_decoded);
}
static void g_size_header(const struct field_row *r, struct field_value *v)
{
  set_int(v, H->info->size_header);
}
static void g_location(const struct field_row *r, struct field_value *v)
{
  if (!H->info->location)
    v->null = 1;
  else
    set_owned(v, report_header_value(r->c, "location", H->info->location));
}
static void g_headers(const struct field_row *r, struct field_value *v)
{
  (void)r;
  (void)v;
}

#define IN_H (in->h)

static const char *family_of(const struct field_value *v, int *family)
{
  if (v->null)
    return NULL;
  if (!strcmp(v->s, "ipv4") || !strcmp(v->s, "ipv6")) {
    *family = v->s[3] == '6' ? 6 : 4;
    return NULL;
  }
  return "expected one of \"ipv4\", \"ipv6\"";
}
/* Absent when the hop never connected. */
static const char *h_family(struct field_in *in, const struct field_value *v)
{
  int family = 0;
  const char *what = family_of(v, &family);

  hop_info_edit(IN_H)->family = (uint8_t)family;
  return what;
}
static const char *h_fb_family(struct field_in *in,
                               const struct field_value *v)
{
  in->fb.family = 4;
  in->has_fb = 1;
  return family_of(v, &in->fb.family);
}
static const char *h_fb_address(struct field_in *in,
                                const struct field_value *v)
{
  in->fb.address = strpool_intern(v->s);
  in->has_fb = 1;
  return NULL;
}
static const char *h_fb_reason(struct field_in *in,
                               const struct field_value *v)
{
  in->fb.reason = strpool_intern(v->s);
  in->has_fb = 1;
  return NULL;
}
static const char *h_fb_lost(struct field_in *in, const struct field_value *v)
{
  in->fb.lost_us = v->null ? 0 : v->i;
  in->has_fb = 1;
  return NULL;
}
/* TEXTS into a hop's pooled vector. */
#define SET_TEXTS(fn, vec, count)                                             \
  static const char *fn(struct field_in *in, const struct field_value *v)     \
  {                                                                           \
    size_t i;                                                                 \
                                                                              \
    for (i = 0; i < v->n; i++)                                                \
      hop_strv_push(&(vec), &(count), v->v[i]);                               \
    return NULL;                                                              \
  }
/* The types whose JSON is not one value (headers, failed resolvers) are
 * read by report_read.c by their type, as value_json writes them. */
static const char *h_by_type(struct field_in *in, const struct field_value *v)
{
  (void)in;
  (void)v;
  return NULL;
}
SET_TEXT(h_url, hop_info_edit(IN_H)->url)
SET_TEXT(h_method, hop_info_edit(IN_H)->method)
SET_TEXT(h_host, hop_info_edit(IN_H)->host)
SET_INT(h_status, hop_info_edit(IN_H)->status, int32_t, 0)
SET_TEXT(h_http_version, hop_info_edit(IN_H)->http_version)
SET_TEXT(h_remote_ip, hop_info_edit(IN_H)->remote_ip)
SET_INT(h_remote_port, hop_info_edit(IN_H)->remote_port, uint16_t, 0)
SET_BOOL(h_reused, IN_H->reused)
SET_INT(h_start, IN_H->start_us, int64_t, 0)
SET_INT(h_local_port, IN_H->local_port, uint16_t, 0)
SET_TEXT(h_anomaly, hop_info_edit(IN_H)->timing_anomaly)
SET_TEXT(h_tls_version, hop_tls_edit(IN_H)->version)
SET_TEXT(h_tls_cipher, hop_tls_edit(IN_H)->cipher)
SET_TEXT(h_tls_alpn, hop_tls_edit(IN_H)->alpn)
SET_OPT_BOOL(h_tls_resumed, hop_tls_edit(IN_H)->resumed, -1)
SET_OPT_BOOL(h_tls_offered, hop_tls_edit(IN_H)->offered, -1)
SET_TEXT(h_tls_not_offered, hop_tls_edit(IN_H)->not_offered)
SET_TEXT(h_tls_library, hop_tls_edit(IN_H)->library)
SET_INT(h_earlydata, hop_info_edit(IN_H)->earlydata, int32_t, -1)
SET_TEXT(h_h3_fallback, hop_info_edit(IN_H)->h3_fallback)
SET_TEXT(h_alt_svc, hop_info_edit(IN_H)->alt_svc)
SET_INT(h_alt_svc_port, hop_info_edit(IN_H)->alt_svc_port, uint16_t, 0)
SET_INT(h_alt_svc_ma, hop_info_edit(IN_H)->alt_svc_ma, int64_t, -1)
SET_INT(h_dns_us, IN_H->dns_us, int64_t, 0)
SET_TEXT(h_dns_server, hop_dns_edit(IN_H)->server)
SET_TEXTS(h_dns_addresses, hop_dns_edit(IN_H)->addresses,
          hop_dns_edit(IN_H)->n_addresses)
SET_TEXTS(h_dns_cnames, hop_dns_edit(IN_H)->cnames,
          hop_dns_edit(IN_H)->n_cnames)
SET_INT(h_dns_ttl, hop_dns_edit(IN_H)->ttl, int32_t, -1)
SET_BOOL(h_dns_pinned, hop_dns_edit(IN_H)->pinned)
SET_BOOL(h_dns_cached, hop_dns_edit(IN_H)->cached)
SET_BOOL(h_dns_literal, hop_dns_edit(IN_H)->literal)
SET_INT(h_ph_dns, IN_H->phases[PHASE_DNS], int64_t, 0)
SET_INT(h_ph_connect, IN_H->phases[PHASE_CONNECT], int64_t, 0)
SET_INT(h_ph_tls, IN_H->phases[PHASE_TLS], int64_t, 0)
SET_INT(h_ph_send, IN_H->phases[PHASE_SEND], int64_t, 0)
SET_INT(h_ph_wait, IN_H->phases[PHASE_WAIT], int64_t, 0)
SET_INT(h_ph_transfer, IN_H->phases[PHASE_TRANSFER], int64_t, 0)
SET_INT(h_ph_total, IN_H->phases[PHASE_TOTAL], int64_t, 0)
/* curl's seconds; -1 when absent, as the probe leaves an unknown one. */
SET_INT(h_c_namelookup, IN_H->curl.namelookup, int64_t, -1)
SET_INT(h_c_connect, IN_H->curl.connect, int64_t, -1)
SET_INT(h_c_appconnect, IN_H->curl.appconnect, int64_t, -1)
SET_INT(h_c_pretransfer, IN_H->curl.pretransfer, int64_t, -1)
SET_INT(h_c_posttransfer, IN_H->curl.posttransfer, int64_t, -1)
SET_INT(h_c_starttransfer, IN_H->curl.starttransfer, int64_t, -1)
SET_INT(h_c_total, IN_H->curl.total, int64_t, -1)
SET_INT(h_size_download, hop_info_edit(IN_H)->size_download, int64_t, 0)
SET_INT(h_size_decoded, hop_info_edit(IN_H)->size_decoded, int64_t, 0)
SET_INT(h_size_header, hop_info_edit(IN_H)->size_header, int64_t, 0)
SET_TEXT(h_location, hop_info_edit(IN_H)->location)
/* A tcp object that is there says the hop's connection was read. */
static const char *h_tcp_min_rtt(struct field_in *in,
                                 const struct field_value *v)
{
  IN_H->tcp_valid = 1;
  hop_flow_edit(IN_H)->missing = NULL;
  IN_H->tcp.min_rtt_us = v->null ? -1 : (int32_t)v->i;
  return NULL;
}
SET_INT(h_tcp_rtt, IN_H->tcp.rtt_us, int32_t, -1)
SET_INT(h_tcp_rttvar, IN_H->tcp.rttvar_us, int32_t, -1)
SET_INT(h_tcp_rcv_rtt, IN_H->tcp.rcv_rtt_us, int32_t, -1)
SET_INT(h_tcp_retrans, IN_H->tcp.retransmits, int32_t, -1)
SET_INT(h_tcp_ooo, IN_H->tcp.rcv_ooopack, int32_t, -1)
SET_INT(h_tcp_bytes_in, IN_H->tcp.bytes_in, int64_t, -1)
SET_INT(h_tcp_bytes_out, IN_H->tcp.bytes_out, int64_t, -1)
SET_INT(h_tcp_segs_in, IN_H->tcp.segs_in, int32_t, -1)
SET_INT(h_tcp_segs_out, IN_H->tcp.segs_out, int32_t, -1)
SET_INT(h_tcp_delivery, hop_flow_edit(IN_H)->delivery_rate, int64_t, -1)
SET_INT(h_tcp_busy, hop_flow_edit(IN_H)->busy_us, int64_t, -1)
SET_INT(h_tcp_rwnd, hop_flow_edit(IN_H)->rwnd_limited_us, int64_t, -1)
SET_INT(h_tcp_sndbuf, hop_flow_edit(IN_H)->sndbuf_limited_us, int64_t, -1)
SET_INT(h_tcp_rounds, hop_flow_edit(IN_H)->n_rounds, uint32_t, 0)
SET_INT(h_tcp_last_rate, hop_flow_edit(IN_H)->last_round_rate, int64_t, -1)
static const char *h_tcp_missing(struct field_in *in,
                                 const struct field_value *v)
{
  if (!IN_H->tcp_valid)
    hop_flow_edit(IN_H)->missing = v->null ? NULL : strpool_intern(v->s);
  return NULL;
}

#undef IN_H

#define PORT  0, 65535
#define BYTES 0, FIELD_MAX_INT
/* Cache and edge are the analysis's: computed again, not read. */
const struct field report_hop_fields[FH_COUNT + 1] = {
    [FH_HOP] = {"hop", "hop", FIELD_INT, g_hop, 0, 0, NULL, FIELD_NO_READ},
    [FH_URL] = {"url", "URL", FIELD_TEXT, g_url, 0, 0, NULL, h_url, 0, 0},
    [FH_METHOD] = {"method", "method", FIELD_TEXT, g_method, 0, 0, NULL,
                   h_method, 0, 0},
    [FH_HOST] = {"host", "host", FIELD_TEXT, g_host, 0, 0, NULL, h_host, 0, 0},
    [FH_STATUS] = {"status", "HTTP status", FIELD_INT, g_status, 0, 0, NULL,
                   h_status, 0, 999},
    [FH_HTTP_VERSION] = {"http_version", "HTTP version", FIELD_TEXT,
                         g_http_version, 0, 0, NULL, h_http_version, 0, 0},
    [FH_REMOTE_IP] = {"remote_ip", "address", FIELD_TEXT, g_remote_ip, 0, 0,
                      NULL, h_remote_ip, 0, 0},
    [FH_REMOTE_PORT] = {"remote_port", "port", FIELD_INT, g_remote_port, 0, 0,
                        NULL, h_remote_port, PORT},
    [FH_REUSED] = {"reused", "connection reused", FIELD_BOOL, g_reused, 0, 0,
                   NULL, h_reused, 0, 0},
    [FH_START_US] = {"start_us", "starts at", FIELD_US, g_start, 0, 0, NULL,
                     h_start, US_RANGE},
    [FH_LOCAL_PORT] = {"local_port", "local port", FIELD_INT, g_local_port, 0,
                       0, NULL, h_local_port, PORT},
    [FH_FAMILY] = {"family", "address family", FIELD_TEXT, g_family, 0, 0,
                   NULL, h_family, 0, 0},
    [FH_FALLBACK_ADDRESS] = {"fallback.address", "first address tried",
                             FIELD_TEXT, g_fb_address, FIELD_NULL_OBJECT, 0,
                             NULL, h_fb_address, 0, 0},
    [FH_FALLBACK_FAMILY] = {"fallback.family", "its family", FIELD_TEXT,
                            g_fb_family, FIELD_NULL_OBJECT, 0, NULL,
                            h_fb_family, 0, 0},
    [FH_FALLBACK_REASON] = {"fallback.reason", "why it lost", FIELD_TEXT,
                            g_fb_reason, FIELD_NULL_OBJECT, 0, NULL,
                            h_fb_reason, 0, 0},
    [FH_FALLBACK_LOST_US] = {"fallback.lost_us", "time lost", FIELD_US,
                             g_fb_lost, FIELD_NULL_OBJECT, 0, NULL, h_fb_lost,
                             US_RANGE},
    [FH_H3_FALLBACK] = {"h3_fallback", "why --http3 ended on TCP", FIELD_TEXT,
                        g_h3_fallback, FIELD_OPTIONAL, 0, NULL, h_h3_fallback,
                        0, 0},
    [FH_ALT_SVC_PROTOCOL] = {"alt_svc.protocol", "Alt-Svc offer", FIELD_TEXT,
                             g_alt_svc, FIELD_NULL_OBJECT, 0, NULL, h_alt_svc,
                             0, 0},
    [FH_ALT_SVC_PORT] = {"alt_svc.port", "Alt-Svc port", FIELD_INT,
                         g_alt_svc_port, FIELD_NULL_OBJECT, 0, NULL,
                         h_alt_svc_port, 0, 65535},
    [FH_ALT_SVC_MAX_AGE] = {"alt_svc.max_age", "Alt-Svc max-age (s)",
                            FIELD_INT, g_alt_svc_ma, FIELD_NULL_OBJECT, 0,
                            NULL, h_alt_svc_ma, 0, INT64_MAX},
    [FH_TIMING_ANOMALY] = {"timing_anomaly", "timing anomaly", FIELD_TEXT,
                           g_anomaly, 0, 0, NULL, h_anomaly, 0, 0},
    [FH_TLS_VERSION] = {"tls.version", "TLS version", FIELD_TEXT,
                        g_tls_version, 0, 0, NULL, h_tls_version, 0, 0},
    [FH_TLS_CIPHER] = {"tls.cipher", "TLS cipher", FIELD_TEXT, g_tls_cipher, 0,
                       0, NULL, h_tls_cipher, 0, 0},
    [FH_TLS_ALPN] = {"tls.alpn", "ALPN", FIELD_TEXT, g_tls_alpn, 0, 0, NULL,
                     h_tls_alpn, 0, 0},
    [FH_TLS_RESUMED] = {"tls.resumed", "TLS resumed", FIELD_BOOL,
                        g_tls_resumed, 0, 0, NULL, h_tls_resumed, 0, 0},
    [FH_TLS_OFFERED] = {"tls.offered", "TLS session offered", FIELD_BOOL,
                        g_tls_offered, 0, 0, NULL, h_tls_offered, 0, 0},
    [FH_TLS_NOT_OFFERED] = {"tls.not_offered", "why no session was offered",
                            FIELD_TEXT, g_tls_not_offered, 0, 0, NULL,
                            h_tls_not_offered, 0, 0},
    [FH_TLS_LIBRARY] = {"tls.library",
                        "TLS library (when not the linked OpenSSL)",
                        FIELD_TEXT, g_tls_library, FIELD_OPTIONAL, 0, NULL,
                        h_tls_library, 0, 0},
    [FH_TLS_EARLYDATA] = {"tls_earlydata", "TLS early data bytes (0-RTT)",
                          FIELD_INT, g_earlydata, FIELD_OPTIONAL, 0, NULL,
                          h_earlydata, 0, INT32_MAX},
    [FH_DNS_US] = {"dns.us", "time in c-ares", FIELD_US, g_dns_us, 0, 0, NULL,
                   h_dns_us, US_RANGE},
    [FH_DNS_SERVER] = {"dns.server", "resolver", FIELD_TEXT, g_dns_server, 0,
                       0, NULL, h_dns_server, 0, 0},
    [FH_DNS_ADDRESSES] = {"dns.addresses", "addresses", FIELD_TEXTS,
                          g_dns_addresses, 0, 0, NULL, h_dns_addresses, 0, 0},
    [FH_DNS_CNAMES] = {"dns.cnames", "CNAMEs", FIELD_TEXTS, g_dns_cnames, 0, 0,
                       NULL, h_dns_cnames, 0, 0},
    [FH_DNS_TTL] = {"dns.ttl", "TTL", FIELD_INT, g_dns_ttl, 0, 0, NULL,
                    h_dns_ttl, -1, INT32_MAX},
    [FH_DNS_PINNED] = {"dns.pinned", "pinned by --resolve", FIELD_BOOL,
                       g_dns_pinned, 0, 0, NULL, h_dns_pinned, 0, 0},
    [FH_DNS_CACHED] = {"dns.cached", "cached answer", FIELD_BOOL, g_dns_cached,
                       0, 0, NULL, h_dns_cached, 0, 0},
    [FH_DNS_LITERAL] = {"dns.literal", "IP literal", FIELD_BOOL, g_dns_literal,
                        0, 0, NULL, h_dns_literal, 0, 0},
    [FH_DNS_FAILED_SERVERS] = {"dns.failed_servers", "resolvers that failed",
                               FIELD_DNS_FAILED, g_dns_failed, 0, 0, NULL,
                               h_by_type, 0, 0},
    [FH_PHASES_US_DNS] = {"phases_us.dns", "DNS", FIELD_US, g_ph_dns, 0, 0,
                          NULL, h_ph_dns, US_RANGE},
    [FH_PHASES_US_CONNECT] = {"phases_us.connect", "connect", FIELD_US,
                              g_ph_connect, 0, 0, NULL, h_ph_connect,
                              US_RANGE},
    [FH_PHASES_US_TLS] = {"phases_us.tls", "TLS", FIELD_US, g_ph_tls, 0, 0,
                          NULL, h_ph_tls, US_RANGE},
    [FH_PHASES_US_SEND] = {"phases_us.send", "send", FIELD_US, g_ph_send, 0, 0,
                           NULL, h_ph_send, US_RANGE},
    [FH_PHASES_US_WAIT] = {"phases_us.wait", "server wait", FIELD_US,
                           g_ph_wait, 0, 0, NULL, h_ph_wait, US_RANGE},
    [FH_PHASES_US_TRANSFER] = {"phases_us.transfer", "transfer", FIELD_US,
                               g_ph_transfer, 0, 0, NULL, h_ph_transfer,
                               US_RANGE},
    [FH_PHASES_US_TOTAL] = {"phases_us.total", "hop total", FIELD_US,
                            g_ph_total, 0, 0, NULL, h_ph_total, US_RANGE},
    [FH_CURL_TIME_NAMELOOKUP] = {"curl.time_namelookup",
                                 "curl time_namelookup", FIELD_SECONDS,
                                 g_c_namelookup, 0, 0, NULL, h_c_namelookup,
                                 US_RANGE},
    [FH_CURL_TIME_CONNECT] = {"curl.time_connect", "curl time_connect",
                              FIELD_SECONDS, g_c_connect, 0, 0, NULL,
                              h_c_connect, US_RANGE},
    [FH_CURL_TIME_APPCONNECT] = {"curl.time_appconnect",
                                 "curl time_appconnect", FIELD_SECONDS,
                                 g_c_appconnect, 0, 0, NULL, h_c_appconnect,
                                 US_RANGE},
    [FH_CURL_TIME_PRETRANSFER] = {"curl.time_pretransfer",
                                  "curl time_pretransfer", FIELD_SECONDS,
                                  g_c_pretransfer, 0, 0, NULL, h_c_pretransfer,
                                  US_RANGE},
    [FH_CURL_TIME_POSTTRANSFER] = {"curl.time_posttransfer",
                                   "curl time_posttransfer", FIELD_SECONDS,
                                   g_c_posttransfer, 0, 0, NULL,
                                   h_c_posttransfer, US_RANGE},
    [FH_CURL_TIME_STARTTRANSFER] = {"curl.time_starttransfer",
                                    "curl time_starttransfer", FIELD_SECONDS,
                                    g_c_starttransfer, 0, 0, NULL,
                                    h_c_starttransfer, US_RANGE},
    [FH_CURL_TIME_TOTAL] = {"curl.time_total", "curl time_total",
                            FIELD_SECONDS, g_c_total, 0, 0, NULL, h_c_total,
                            US_RANGE},
    [FH_TCP_MIN_RTT_US] = {"tcp.min_rtt_us", "minimum RTT (kernel)", FIELD_US,
                           g_tcp_min_rtt, FIELD_NULL_OBJECT, 0, NULL,
                           h_tcp_min_rtt, INT32_POS},
    [FH_TCP_RTT_US] = {"tcp.rtt_us", "smoothed RTT (kernel)", FIELD_US,
                       g_tcp_rtt, FIELD_NULL_OBJECT, 0, NULL, h_tcp_rtt,
                       INT32_POS},
    [FH_TCP_RTTVAR_US] = {"tcp.rttvar_us", "RTT variation (kernel)", FIELD_US,
                          g_tcp_rttvar, FIELD_NULL_OBJECT, 0, NULL,
                          h_tcp_rttvar, INT32_POS},
    [FH_TCP_RCV_RTT_US] = {"tcp.rcv_rtt_us", "receiver's RTT (kernel)",
                           FIELD_US, g_tcp_rcv_rtt, FIELD_NULL_OBJECT, 0, NULL,
                           h_tcp_rcv_rtt, INT32_POS},
    [FH_TCP_RETRANSMITS] = {"tcp.retransmits", "segments retransmitted",
                            FIELD_INT, g_tcp_retrans, FIELD_NULL_OBJECT, 0,
                            NULL, h_tcp_retrans, INT32_POS},
    [FH_TCP_RCV_OOOPACK] = {"tcp.rcv_ooopack",
                            "segments received out of order", FIELD_INT,
                            g_tcp_ooo, FIELD_NULL_OBJECT, 0, NULL, h_tcp_ooo,
                            INT32_POS},
    [FH_TCP_BYTES_IN] = {"tcp.bytes_in", "bytes received (TCP)", FIELD_BYTES,
                         g_tcp_bytes_in, FIELD_NULL_OBJECT, 0, NULL,
                         h_tcp_bytes_in, BYTES},
    [FH_TCP_BYTES_OUT] = {"tcp.bytes_out", "bytes sent (TCP)", FIELD_BYTES,
                          g_tcp_bytes_out, FIELD_NULL_OBJECT, 0, NULL,
                          h_tcp_bytes_out, BYTES},
    [FH_TCP_SEGS_IN] = {"tcp.segs_in", "segments received", FIELD_INT,
                        g_tcp_segs_in, FIELD_NULL_OBJECT, 0, NULL,
                        h_tcp_segs_in, INT32_POS},
    [FH_TCP_SEGS_OUT] = {"tcp.segs_out", "segments sent", FIELD_INT,
                         g_tcp_segs_out, FIELD_NULL_OBJECT, 0, NULL,
                         h_tcp_segs_out, INT32_POS},
    [FH_TCP_DELIVERY_RATE] = {"tcp.delivery_rate",
                              "upload delivery rate (bytes/s)", FIELD_INT,
                              g_tcp_delivery,
                              FIELD_NULL_OBJECT | FIELD_OPTIONAL, 0, NULL,
                              h_tcp_delivery, 0, FIELD_MAX_INT},
    [FH_TCP_BUSY_TIME_US] = {"tcp.busy_time_us", "upload busy time", FIELD_US,
                             g_tcp_busy, FIELD_NULL_OBJECT | FIELD_OPTIONAL, 0,
                             NULL, h_tcp_busy, US_RANGE},
    [FH_TCP_RWND_LIMITED_US] = {"tcp.rwnd_limited_us",
                                "upload limited by the receive window",
                                FIELD_US, g_tcp_rwnd,
                                FIELD_NULL_OBJECT | FIELD_OPTIONAL, 0, NULL,
                                h_tcp_rwnd, US_RANGE},
    [FH_TCP_SNDBUF_LIMITED_US] = {"tcp.sndbuf_limited_us",
                                  "upload limited by the send buffer",
                                  FIELD_US, g_tcp_sndbuf,
                                  FIELD_NULL_OBJECT | FIELD_OPTIONAL, 0, NULL,
                                  h_tcp_sndbuf, US_RANGE},
    [FH_TCP_ROUNDS] = {"tcp.rounds", "body rounds", FIELD_INT, g_tcp_rounds,
                       FIELD_NULL_OBJECT, 0, NULL, h_tcp_rounds, 0,
                       UINT32_MAX},
    [FH_TCP_LAST_ROUND_RATE] = {"tcp.last_round_rate",
                                "last full round's rate (bytes/s)", FIELD_INT,
                                g_tcp_last_rate, FIELD_NULL_OBJECT, 0, NULL,
                                h_tcp_last_rate, 0, FIELD_MAX_INT},
    [FH_TCP_ROUND_LIST] = {"tcp.round_list", "rounds", FIELD_ROUNDS,
                           g_tcp_round_list, FIELD_NULL_OBJECT, 0, NULL,
                           h_by_type, 0, 0},
    [FH_TCP_MISSING] = {"tcp_missing", "why no TCP facts", FIELD_TEXT,
                        g_tcp_missing, FIELD_OPTIONAL, 0, NULL, h_tcp_missing,
                        0, 0},
    [FH_SERVER_US] = {"server_us", "server time (wait - min RTT)", FIELD_US,
                      g_server_us, 0, 0, NULL, FIELD_NO_READ},
    [FH_NETWORK_US] = {"network_us", "network time (total - server)", FIELD_US,
                       g_network_us, 0, 0, NULL, FIELD_NO_READ},
    [FH_SERVER_TIMING_US] = {"server_timing_us", "Server-Timing duration",
                             FIELD_US, g_server_timing, FIELD_OPTIONAL, 0,
                             NULL, FIELD_NO_READ},
    [FH_CACHE_VERDICT] = {"cache.verdict", "cache", FIELD_TEXT, g_cache, 0, 0,
                          NULL, FIELD_NO_READ},
    [FH_CACHE_INFERRED] = {"cache.inferred", "cache verdict inferred",
                           FIELD_BOOL, g_cache_inferred, 0, 0, NULL,
                           FIELD_NO_READ},
    [FH_CACHE_VENDOR] = {"cache.vendor", "cache nearest the user", FIELD_TEXT,
                         g_cache_vendor, 0, 0, NULL, FIELD_NO_READ},
    [FH_CACHE_LAYERS] = {"cache.layers", "cache layers", FIELD_LAYERS,
                         g_cache_layers, 0, 0, NULL, FIELD_NO_READ},
    [FH_EDGE_VENDOR] = {"edge.vendor", "CDN", FIELD_TEXT, g_vendor, 0, 0, NULL,
                        FIELD_NO_READ},
    [FH_EDGE_POP] = {"edge.pop", "edge location", FIELD_TEXT, g_pop, 0, 0,
                     NULL, FIELD_NO_READ},
    [FH_SIZE_DOWNLOAD] = {"size_download", "body on the wire", FIELD_BYTES,
                          g_size_download, 0, 0, NULL, h_size_download, BYTES},
    [FH_SIZE_DECODED] = {"size_decoded", "body decoded", FIELD_BYTES,
                         g_size_decoded, 0, 0, NULL, h_size_decoded, BYTES},
    [FH_SIZE_HEADER] = {"size_header", "headers", FIELD_BYTES, g_size_header,
                        0, 0, NULL, h_size_header, BYTES},
    [FH_LOCATION] = {"location", "Location", FIELD_TEXT, g_location, 0, 0,
                     NULL, h_location, 0, 0},
    [FH_HEADERS] = {"headers", "response headers", FIELD_HEADERS, g_headers, 0,
                    0, NULL, h_by_type, 0, 0},
    [FH_COUNT] = {NULL, NULL, FIELD_TYPE_COUNT, NULL, 0, 0, NULL,
                  FIELD_NO_READ}};

/* ---- Hop fields no document writes (libhopsplit's, hopsplit(3)):
 * what a client such as hopsplit serve reads of a hop besides the
 * documents' rows, found by hs_field_find only.  No renderer iterates
 * this table, so no output of the CLI changes with it. ---- */

static void g_content_length(const struct field_row *r, struct field_value *v)
{
  v->null = !H->info->status || H->info->content_length < 0;
  set_int(v, H->info->content_length);
}
static void g_cert_expiry(const struct field_row *r, struct field_value *v)
{
  v->null = !H->tls->version || !H->tls->cert_expiry;
  set_int(v, H->tls->cert_expiry);
}
static void g_chain_expiry(const struct field_row *r, struct field_value *v)
{
  v->null = !H->tls->version || !H->tls->chain_expiry;
  set_int(v, H->tls->chain_expiry);
}
#define LEAF_GETTER(fn, member)                                               \
  static void fn(const struct field_row *r, struct field_value *v)            \
  {                                                                           \
    set_text(v, H->tls->version ? H->tls->member : NULL);                     \
  }
LEAF_GETTER(g_leaf_sha256, leaf_sha256)
LEAF_GETTER(g_leaf_subject, leaf_subject)
LEAF_GETTER(g_leaf_issuer, leaf_issuer)
LEAF_GETTER(g_leaf_serial, leaf_serial)
LEAF_GETTER(g_leaf_dns_names, leaf_dns_names)
static void g_dns_preferred(const struct field_row *r, struct field_value *v)
{
  const struct plan *p = r->c ? r->c->plan : NULL;
  const struct options *o = NULL;

  if (p && r->s->target < p->n_targets)
    o = p->targets[r->s->target].opts;
  if (!o && p)
    o = p->opts;
  if (!H->dns->n_addresses || !o) {
    v->null = 1;
    return;
  }
  set_text(v, H->dns->addresses[sample_preferred_address(
                  H->dns->addresses, H->dns->n_addresses, o->ip_prefer)]);
}
static void g_response_head(const struct field_row *r, struct field_value *v)
{
  set_text(v, H->info->head_in);
}
static void g_body_scanned(const struct field_row *r, struct field_value *v)
{
  set_int(v, H->info->body_scanned != 0);
}
static void g_body_matched(const struct field_row *r, struct field_value *v)
{
  v->null = !H->info->body_scanned;
  set_int(v, (int64_t)H->info->body_matched);
}
static void g_body_limited(const struct field_row *r, struct field_value *v)
{
  set_int(v, H->info->body_limited != 0);
}

const struct field report_hop_lib_fields[FHL_COUNT + 1] = {
    [FHL_CONTENT_LENGTH] = {"content_length", "Content-Length", FIELD_INT,
                            g_content_length, 0, 0, NULL, FIELD_NO_READ},
    [FHL_CERT_EXPIRY] = {"tls.cert_expiry", "earliest certificate expiry",
                         FIELD_INT, g_cert_expiry, 0, 0, NULL, FIELD_NO_READ},
    [FHL_CHAIN_EXPIRY] = {"tls.chain_expiry", "verified chain's expiry",
                          FIELD_INT, g_chain_expiry, 0, 0, NULL,
                          FIELD_NO_READ},
    [FHL_LEAF_SHA256] = {"tls.leaf.sha256", "leaf certificate's SHA-256",
                         FIELD_TEXT, g_leaf_sha256, 0, 0, NULL, FIELD_NO_READ},
    [FHL_LEAF_SUBJECT] = {"tls.leaf.subject", "leaf certificate's subject",
                          FIELD_TEXT, g_leaf_subject, 0, 0, NULL,
                          FIELD_NO_READ},
    [FHL_LEAF_ISSUER] = {"tls.leaf.issuer", "leaf certificate's issuer",
                         FIELD_TEXT, g_leaf_issuer, 0, 0, NULL, FIELD_NO_READ},
    [FHL_LEAF_SERIAL] = {"tls.leaf.serial", "leaf certificate's serial",
                         FIELD_TEXT, g_leaf_serial, 0, 0, NULL, FIELD_NO_READ},
    [FHL_LEAF_DNS_NAMES] = {"tls.leaf.dns_names",
                            "leaf certificate's DNS names", FIELD_TEXT,
                            g_leaf_dns_names, 0, 0, NULL, FIELD_NO_READ},
    [FHL_DNS_PREFERRED] = {"dns.preferred", "the address --ip-prefer picks",
                           FIELD_TEXT, g_dns_preferred, 0, 0, NULL,
                           FIELD_NO_READ},
    [FHL_RESPONSE_HEAD] = {"response_head", "response head as received",
                           FIELD_TEXT, g_response_head, 0, 0, NULL,
                           FIELD_NO_READ},
    [FHL_BODY_SCANNED] = {"body.scanned", "body searched", FIELD_BOOL,
                          g_body_scanned, 0, 0, NULL, FIELD_NO_READ},
    [FHL_BODY_MATCHED] = {"body.matched", "body patterns matched", FIELD_INT,
                          g_body_matched, 0, 0, NULL, FIELD_NO_READ},
    [FHL_BODY_LIMITED] = {"body.limited", "body past its limit", FIELD_BOOL,
                          g_body_limited, 0, 0, NULL, FIELD_NO_READ},
    [FHL_COUNT] = {NULL, NULL, FIELD_TYPE_COUNT, NULL, 0, 0, NULL,
                   FIELD_NO_READ}};

/* Renderers index the phases as FH_PHASES_US_DNS + phase. */
_Static_assert(FH_PHASES_US_TOTAL - FH_PHASES_US_DNS == PHASE_TOTAL &&
                   PHASE_DNS == 0,
               "the phases_us rows are in enum phase order");

#undef PORT
#undef BYTES
#undef US_RANGE
#undef INT32_POS
#undef H

/* --- statistics and comparisons ------------------------------------------ */

#define STAT_GETTER(fn, member)                                               \
  static void fn(const struct field_row *r, struct field_value *v)            \
  {                                                                           \
    v->null = r->st->n == 0;                                                  \
    set_int(v, r->st->member);                                                \
  }
STAT_GETTER(g_min, min)
STAT_GETTER(g_p50, p50)
STAT_GETTER(g_p95, p95)
STAT_GETTER(g_max, max)
STAT_GETTER(g_mean, mean)
STAT_GETTER(g_stddev, stddev)
STAT_GETTER(g_mad, mad)

static void g_n(const struct field_row *r, struct field_value *v)
{
  set_int(v, (int64_t)r->st->n);
}

const struct field report_stat_fields[FT_COUNT + 1] = {
    [FT_N] = {"n", "samples", FIELD_INT, g_n, 0, 0, NULL, FIELD_NO_READ},
    [FT_MIN_US] = {"min_us", "min", FIELD_US, g_min, 0, 0, "0", FIELD_NO_READ},
    [FT_P50_US] = {"p50_us", "median", FIELD_US, g_p50, 0, 0, "0.5",
                   FIELD_NO_READ},
    [FT_P95_US] = {"p95_us", "95th percentile", FIELD_US, g_p95, 0, 0, "0.95",
                   FIELD_NO_READ},
    [FT_MAX_US] = {"max_us", "max", FIELD_US, g_max, 0, 0, "1", FIELD_NO_READ},
    [FT_MEAN_US] = {"mean_us", "mean", FIELD_US, g_mean, 0, 0, NULL,
                    FIELD_NO_READ},
    [FT_STDDEV_US] = {"stddev_us", "standard deviation", FIELD_US, g_stddev, 0,
                      0, NULL, FIELD_NO_READ},
    [FT_MAD_US] = {"mad_us", "median absolute deviation", FIELD_US, g_mad, 0,
                   0, NULL, FIELD_NO_READ},
    [FT_COUNT] = {NULL, NULL, FIELD_TYPE_COUNT, NULL, 0, 0, NULL,
                  FIELD_NO_READ}};

#define CR (r->cr)

static void g_pairs(const struct field_row *r, struct field_value *v)
{
  set_int(v, (int64_t)CR->n_pairs);
}
static void g_dropped(const struct field_row *r, struct field_value *v)
{
  set_int(v, (int64_t)CR->n_dropped);
}
static void g_paired(const struct field_row *r, struct field_value *v)
{
  v->null = !CR->unpaired;
}
static void g_cmp_method(const struct field_row *r, struct field_value *v)
{
  set_text(v, CR->unpaired ? "unpaired: Hodges-Lehmann shift, Mann-Whitney "
                             "95 % interval (normal approximation)"
                           : NULL);
}
static void g_n_base(const struct field_row *r, struct field_value *v)
{
  v->null = !CR->unpaired;
  set_int(v, (int64_t)CR->n_base);
}
static void g_n_target(const struct field_row *r, struct field_value *v)
{
  v->null = !CR->unpaired;
  set_int(v, (int64_t)CR->n_target);
}
static void g_diff(const struct field_row *r, struct field_value *v)
{
  v->null = !CR->n_pairs;
  set_int(v, CR->median_diff_us);
}
static void g_lo(const struct field_row *r, struct field_value *v)
{
  v->null = !CR->n_pairs;
  set_int(v, CR->ci_low_us);
}
static void g_hi(const struct field_row *r, struct field_value *v)
{
  v->null = !CR->n_pairs;
  set_int(v, CR->ci_high_us);
}
static void g_level(const struct field_row *r, struct field_value *v)
{
  v->d = CR->ci_level;
}
static void g_available(const struct field_row *r, struct field_value *v)
{
  set_int(v, CR->ci_available);
}
static void g_change(const struct field_row *r, struct field_value *v)
{
  v->d = CR->change_pct;
  v->null = isnan(CR->change_pct);
}
static void g_verdict(const struct field_row *r, struct field_value *v)
{
  set_text(v, compare_verdict_names[CR->verdict]);
}

const struct field report_compare_fields[FC_COUNT + 1] = {
    [FC_N_PAIRS] = {"n_pairs", "pairs", FIELD_INT, g_pairs, 0, 0, NULL,
                    FIELD_NO_READ},
    [FC_N_DROPPED] = {"n_dropped", "rounds left out", FIELD_INT, g_dropped, 0,
                      0, NULL, FIELD_NO_READ},
    /* hopsplit merge: places do not pair by round (only then). */
    [FC_PAIRED] = {"paired", "paired by round", FIELD_BOOL, g_paired,
                   FIELD_OPTIONAL, 0, NULL, FIELD_NO_READ},
    [FC_METHOD] = {"method", "method", FIELD_TEXT, g_cmp_method,
                   FIELD_OPTIONAL, 0, NULL, FIELD_NO_READ},
    [FC_N_BASELINE] = {"n_baseline", "baseline samples", FIELD_INT, g_n_base,
                       FIELD_OPTIONAL, 0, NULL, FIELD_NO_READ},
    [FC_N_TARGET] = {"n_target", "target samples", FIELD_INT, g_n_target,
                     FIELD_OPTIONAL, 0, NULL, FIELD_NO_READ},
    [FC_MEDIAN_DIFF_US] = {"median_diff_us", "median difference", FIELD_US,
                           g_diff, 0, 0, NULL, FIELD_NO_READ},
    [FC_CI_LOW_US] = {"ci_low_us", "interval from", FIELD_US, g_lo, 0, 0, NULL,
                      FIELD_NO_READ},
    [FC_CI_HIGH_US] = {"ci_high_us", "interval to", FIELD_US, g_hi, 0, 0, NULL,
                       FIELD_NO_READ},
    [FC_CI_LEVEL] = {"ci_level", "coverage", FIELD_DOUBLE, g_level, 0, 4, NULL,
                     FIELD_NO_READ},
    [FC_CI_AVAILABLE] = {"ci_available", "95 % interval", FIELD_BOOL,
                         g_available, 0, 0, NULL, FIELD_NO_READ},
    [FC_CHANGE_PCT] = {"change_pct", "change %", FIELD_DOUBLE, g_change, 0, 1,
                       NULL, FIELD_NO_READ},
    [FC_VERDICT] = {"verdict", "verdict", FIELD_TEXT, g_verdict, 0, 0, NULL,
                    FIELD_NO_READ},
    [FC_COUNT] = {NULL, NULL, FIELD_TYPE_COUNT, NULL, 0, 0, NULL,
                  FIELD_NO_READ}};

#undef CR

/* --- -w/--write-out: curl's variables ------------------------------------ */

/* What curl's tool_writeout.c variables[] gives for a transfer, from the
 * typed sample.  With -L curl reports the last transfer's response and
 * adds up each transfer's times (libcurl's Curl_pgrsTime adds each one's
 * offset from its own start): so the last hop's status, address and body
 * size, and time_connect the sum over the hops of each hop's time to its
 * connection, and so on, with hopsplit's c-ares lookup as the name
 * lookup.  Where curl has a value with nothing known ("000", 0, "" or
 * "0"), so do these rows; the texts curl leaves out are null. */

#define S (r->s)

typedef void field_get_fn(const struct field_row *r, struct field_value *v);

/* Hop field get of the last hop; v stays null without hops. */
static void last_hop(const struct field_row *r, struct field_value *v,
                     field_get_fn *get)
{
  struct field_row h = *r;

  v->null = 1;
  if (!S->n_hops)
    return;
  v->null = 0;
  field_row_hop(&h, S->n_hops - 1);
  get(&h, v);
}

/* The offsets of the end of phase last from each hop's start, summed
 * over the hops (only hops with TLS when tls_only). */
static int64_t upto(const struct sample *s, enum phase last, int tls_only)
{
  int64_t t = 0;
  size_t i;
  int ph;

  for (i = 0; i < s->n_hops; i++) {
    const struct hop *h = &s->hops[i];

    if (tls_only && !h->tls->version)
      continue;
    for (ph = 0; ph <= (int)last; ph++)
      t += h->phases[ph];
  }
  return t;
}

#define UPTO_GETTER(fn, ph, tls_only)                                         \
  static void fn(const struct field_row *r, struct field_value *v)            \
  {                                                                           \
    set_int(v, upto(S, ph, tls_only));                                        \
  }
UPTO_GETTER(w_namelookup, PHASE_DNS, 0)
UPTO_GETTER(w_connect, PHASE_CONNECT, 0)
/* curl gives 0 for time_appconnect of a transfer without TLS. */
UPTO_GETTER(w_appconnect, PHASE_TLS, 1)
UPTO_GETTER(w_pretransfer, PHASE_TLS, 0)

/* time_posttransfer (libcurl >= 8.10): to the last request byte sent;
 * null when a hop has no such stamp (libcurl 7.88, or a hop that failed
 * before libcurl ran it). */
static void w_posttransfer(const struct field_row *r, struct field_value *v)
{
  size_t i;
  int ph;

  for (i = 0; i < S->n_hops; i++) {
    const struct hop *h = &S->hops[i];

    if (h->curl.posttransfer < 0) {
      v->null = 1;
      return;
    }
    /* A hop that never sent its request adds 0, as in curl. */
    for (ph = 0; h->curl.posttransfer > 0 && ph <= (int)PHASE_SEND; ph++)
      v->i += h->phases[ph];
  }
}
/* time_queue (libcurl >= 8.6): held in libcurl's queue, summed over the
 * hops as curl adds each transfer's; null before 8.6. */
static void w_queue(const struct field_row *r, struct field_value *v)
{
  size_t i;

  v->null = 1;
  for (i = 0; i < S->n_hops; i++)
    if (S->hops[i].curl.queue >= 0) {
      v->null = 0;
      v->i += S->hops[i].curl.queue;
    }
}
/* libcurl 8's values of the last transfer, as curl's -w (null where the
 * library has none: before 8.2 for the ids, 8.11 for early data). */
#define LAST_HOP_INT(fn, field)                                               \
  static void fn(const struct field_row *r, struct field_value *v)            \
  {                                                                           \
    const struct hop *h = S->n_hops ? &S->hops[S->n_hops - 1] : NULL;         \
                                                                              \
    if (h && h->field >= 0)                                                   \
      set_int(v, h->field);                                                   \
    else                                                                      \
      v->null = 1;                                                            \
  }
LAST_HOP_INT(w_conn_id, conn_id)
LAST_HOP_INT(w_xfer_id, xfer_id)
LAST_HOP_INT(w_earlydata, info->earlydata)
/* num_certs and certs: 0 and "" without TLS, as curl prints them. */
static void w_num_certs(const struct field_row *r, struct field_value *v)
{
  const struct hop *h = S->n_hops ? &S->hops[S->n_hops - 1] : NULL;

  set_int(v, h && h->info->num_certs > 0 ? h->info->num_certs : 0);
}
static void w_certs(const struct field_row *r, struct field_value *v)
{
  const struct hop *h = S->n_hops ? &S->hops[S->n_hops - 1] : NULL;

  set_text(v, h && h->info->certs ? h->info->certs : "");
}
/* hopsplit never retries (a failure is a sample) and never uses a proxy:
 * curl's num_retries and proxy_used are 0. */
static void w_zero(const struct field_row *r, struct field_value *v)
{
  (void)r;
  set_int(v, 0);
}
UPTO_GETTER(w_starttransfer, PHASE_WAIT, 0)

const char *field_final_headers(const char *head, size_t *len)
{
  const char *p, *blk = NULL, *end;

  if (!head)
    return NULL;
  for (p = head; *p;) {
    end = strstr(p, "\r\n\r\n");
    blk = p;
    if (!end)
      break;
    p = end + 4;
  }
  if (!blk) {
    *len = 0;
    return head;
  }
  end = strstr(blk, "\r\n\r\n");
  if (!end)
    end = blk + strlen(blk);
  p = strstr(blk, "\r\n");
  if (!p || p >= end) {
    *len = 0;
    return end;
  }
  *len = (size_t)(end - (p + 2));
  return p + 2;
}
/* num_headers: the final response's header lines (the status line is not
 * one); null unless the header blocks were kept (a format naming it keeps
 * them: options_heads). */
static void w_num_headers(const struct field_row *r, struct field_value *v)
{
  const struct hop *h = S->n_hops ? &S->hops[S->n_hops - 1] : NULL;
  const char *f;
  size_t len = 0, i;

  f = h ? field_final_headers(h->info->head_in, &len) : NULL;
  if (!f) {
    v->null = 1;
    return;
  }
  for (i = 0; i < len; i++)
    if (f[i] == '\n' || i + 1 == len)
      v->i++;
}
/* referer: the Referer the last request sent ("" for none), from the
 * request block as sent; null unless it was kept. */
static void w_referer(const struct field_row *r, struct field_value *v)
{
  const struct hop *h = S->n_hops ? &S->hops[S->n_hops - 1] : NULL;
  const char *p;

  if (!h || !h->info->head_out) {
    v->null = 1;
    return;
  }
  for (p = h->info->head_out; p && *p;
       p = strstr(p, "\r\n") ? strstr(p, "\r\n") + 2 : NULL) {
    if (!strncasecmp(p, "Referer:", 8)) {
      const char *s = p + 8, *e = strstr(s, "\r\n");
      size_t n;

      while (*s == ' ' || *s == '\t')
        s++;
      n = e ? (size_t)(e - s) : strlen(s);
      set_owned(v, xstrndup(s, n));
      return;
    }
    if (p[0] == '\r' && p[1] == '\n')
      break;
  }
  set_text(v, "");
}
static void w_local_ip(const struct field_row *r, struct field_value *v)
{
  const struct hop *h = S->n_hops ? &S->hops[S->n_hops - 1] : NULL;

  set_text(v, h && h->info->local_ip ? h->info->local_ip : "");
}
/* size_request: every request's bytes, summed over the hops as curl sums
 * them when it follows redirects; null when libcurl did not say. */
static void w_size_request(const struct field_row *r, struct field_value *v)
{
  size_t i;

  for (i = 0; i < S->n_hops; i++) {
    if (S->hops[i].info->size_request < 0) {
      v->null = 1;
      return;
    }
    v->i += S->hops[i].info->size_request;
  }
}
static void w_size_upload(const struct field_row *r, struct field_value *v)
{
  const struct hop *h = S->n_hops ? &S->hops[S->n_hops - 1] : NULL;

  set_int(v, h && h->info->size_upload > 0 ? h->info->size_upload : 0);
}
/* speed_download and speed_upload: bytes per second of the last
 * transfer, as libcurl's SPEED_*_T (its bytes over its total time). */
static void w_speed(const struct field_row *r, struct field_value *v, int up)
{
  const struct hop *h = S->n_hops ? &S->hops[S->n_hops - 1] : NULL;
  int64_t bytes, t;

  set_int(v, 0);
  if (!h)
    return;
  bytes = up ? h->info->size_upload : h->info->size_download;
  t = h->phases[PHASE_TOTAL];
  if (bytes > 0 && t > 0)
    v->i = (int64_t)((double)bytes * 1e6 / (double)t);
}
static void w_speed_download(const struct field_row *r, struct field_value *v)
{
  w_speed(r, v, 0);
}
static void w_speed_upload(const struct field_row *r, struct field_value *v)
{
  w_speed(r, v, 1);
}

static void w_redirect(const struct field_row *r, struct field_value *v)
{
  g_redirect(r, v);
  if (S->n_hops < 2)
    set_int(v, 0);
}
static void w_code(const struct field_row *r, struct field_value *v)
{
  g_final_status(r, v);
  v->null = 0; /* "000" */
}
static void w_exitcode(const struct field_row *r, struct field_value *v)
{
  set_int(v, S->ok ? 0 : 3); /* hopsplit's exit status for a failure */
}
static void w_num_redirects(const struct field_row *r, struct field_value *v)
{
  set_int(v, S->n_hops > 1 ? (int64_t)S->n_hops - 1 : 0);
}
static void w_num_connects(const struct field_row *r, struct field_value *v)
{
  size_t i;

  for (i = 0; i < S->n_hops; i++)
    if (!S->hops[i].reused && S->hops[i].info->remote_ip)
      v->i++;
}
static void w_size_header(const struct field_row *r, struct field_value *v)
{
  size_t i;

  for (i = 0; i < S->n_hops; i++)
    v->i += S->hops[i].info->size_header;
}
static void w_size_download(const struct field_row *r, struct field_value *v)
{
  last_hop(r, v, g_size_download);
  v->null = 0;
}
static void w_remote_ip(const struct field_row *r, struct field_value *v)
{
  last_hop(r, v, g_remote_ip);
  if (!v->s)
    set_text(v, "");
}
static void w_remote_port(const struct field_row *r, struct field_value *v)
{
  last_hop(r, v, g_remote_port);
  v->null = 0;
}
static void w_http_version(const struct field_row *r, struct field_value *v)
{
  last_hop(r, v, g_http_version);
  if (!v->s)
    set_text(v, "0");
}
static void w_method(const struct field_row *r, struct field_value *v)
{
  last_hop(r, v, g_method);
  if (!v->s)
    set_text(v, "");
}
static const char *target_url(const struct field_row *r)
{
  return r->c->plan->targets[S->target].url;
}
static void w_url(const struct field_row *r, struct field_value *v)
{
  set_owned(v, report_url(r->c, target_url(r)));
}
static void w_url_effective(const struct field_row *r, struct field_value *v)
{
  if (S->n_hops)
    last_hop(r, v, g_url);
  else
    w_url(r, v);
}
/* curl 8.1's url.NAME and urle.NAME: a part of the target's URL and of
 * the last hop's, from the URL as reports print it (credentials redacted
 * as everywhere, where curl prints them), split by libcurl's URL API as
 * curl does.  Null (empty) when the URL has no such part. */
static void url_part_value(struct field_value *v, char *url, const char *name)
{
  set_owned(v, url_curl_part(url, name));
  free(url);
}
static char *effective_url(const struct field_row *r)
{
  const struct hop *h = S->n_hops ? &S->hops[S->n_hops - 1] : NULL;

  return report_url(r->c, h && h->info->url ? h->info->url : target_url(r));
}
#define URL_PART(NAME)                                                        \
  static void w_url_##NAME(const struct field_row *r, struct field_value *v)  \
  {                                                                           \
    url_part_value(v, report_url(r->c, target_url(r)), #NAME);                \
  }                                                                           \
  static void w_urle_##NAME(const struct field_row *r, struct field_value *v) \
  {                                                                           \
    url_part_value(v, effective_url(r), #NAME);                               \
  }
URL_PART(fragment)
URL_PART(host)
URL_PART(options)
URL_PART(password)
URL_PART(path)
URL_PART(port)
URL_PART(query)
URL_PART(scheme)
URL_PART(user)
URL_PART(zoneid)
#undef URL_PART
/* Where the last response pointed, when it was a redirect that was not
 * followed (--no-follow or --max-redirs). */
static void w_redirect_url(const struct field_row *r, struct field_value *v)
{
  const struct hop *h = S->n_hops ? &S->hops[S->n_hops - 1] : NULL;

  if (h && h->info->location)
    set_owned(v, report_url(r->c, h->info->location));
  else
    v->null = 1;
}
/* -1 without a connection, as curl 8 prints it (7.88 printed 0). */
static void w_local_port(const struct field_row *r, struct field_value *v)
{
  last_hop(r, v, g_local_port);
  if (v->null || !v->i)
    set_int(v, -1);
  v->null = 0;
}
/* The last response's Content-Type (the last one, as libcurl keeps). */
static void w_content_type(const struct field_row *r, struct field_value *v)
{
  const struct hop *h = S->n_hops ? &S->hops[S->n_hops - 1] : NULL;
  const char *ct = NULL;
  uint32_t i;

  for (i = 0; h && i < h->info->n_headers; i++)
    if (!strcasecmp(h->info->headers[i].name, "content-type"))
      ct = h->info->headers[i].value;
  if (ct)
    set_owned(v, report_header_value(r->c, "content-type", ct));
  else
    v->null = 1;
}
/* curl's index of the URL on its command line: the target's, from 0. */
static void w_urlnum(const struct field_row *r, struct field_value *v)
{
  set_int(v, (int64_t)S->target);
}
/* Lower case, as curl 8 prints it (7.88 printed "HTTPS"). */
static void w_scheme(const struct field_row *r, struct field_value *v)
{
  const char *u = S->n_hops ? S->hops[S->n_hops - 1].info->url : target_url(r);

  set_text(v, !strncmp(u, "https:", 6) ? "https" : "http");
}

const struct field report_writeout_fields[] = {
    {"certs", "certificate chain", FIELD_TEXT, w_certs, 0, 0, NULL,
     FIELD_NO_READ},
    {"conn_id", "libcurl connection id", FIELD_INT, w_conn_id, 0, 0, NULL,
     FIELD_NO_READ},
    {"content_type", "Content-Type", FIELD_TEXT, w_content_type, 0, 0, NULL,
     FIELD_NO_READ},
    {"error_class", "error", FIELD_TEXT, g_err_class, 0, 0, NULL,
     FIELD_NO_READ},
    {"errormsg", "error message", FIELD_TEXT, g_err_message, 0, 0, NULL,
     FIELD_NO_READ},
    {"exitcode", "exit status", FIELD_INT, w_exitcode, 0, 0, NULL,
     FIELD_NO_READ},
    {"http_code", "final HTTP status", FIELD_INT, w_code, FIELD_CURL_CODE, 0,
     NULL, FIELD_NO_READ},
    {"http_connect", "proxy CONNECT status (never)", FIELD_INT, w_zero,
     FIELD_CURL_CODE, 0, NULL, FIELD_NO_READ},
    {"http_version", "HTTP version", FIELD_TEXT, w_http_version, 0, 0, NULL,
     FIELD_NO_READ},
    {"local_ip", "local address", FIELD_TEXT, w_local_ip, 0, 0, NULL,
     FIELD_NO_READ},
    {"local_port", "local port", FIELD_INT, w_local_port, 0, 0, NULL,
     FIELD_NO_READ},
    {"method", "method", FIELD_TEXT, w_method, 0, 0, NULL, FIELD_NO_READ},
    {"mode", "mode", FIELD_TEXT, g_mode, 0, 0, NULL, FIELD_NO_READ},
    {"num_certs", "certificates", FIELD_INT, w_num_certs, 0, 0, NULL,
     FIELD_NO_READ},
    {"num_connects", "new connections", FIELD_INT, w_num_connects, 0, 0, NULL,
     FIELD_NO_READ},
    {"num_headers", "response header lines", FIELD_INT, w_num_headers, 0, 0,
     NULL, FIELD_NO_READ},
    {"num_redirects", "redirects followed", FIELD_INT, w_num_redirects, 0, 0,
     NULL, FIELD_NO_READ},
    {"num_retries", "retries (never)", FIELD_INT, w_zero, 0, 0, NULL,
     FIELD_NO_READ},
    {"proxy_ssl_verify_result", "proxy certificate check (never)", FIELD_INT,
     w_zero, 0, 0, NULL, FIELD_NO_READ},
    {"proxy_used", "through a proxy (never)", FIELD_INT, w_zero, 0, 0, NULL,
     FIELD_NO_READ},
    {"redirect_url", "redirect not followed", FIELD_TEXT, w_redirect_url, 0, 0,
     NULL, FIELD_NO_READ},
    {"referer", "Referer sent", FIELD_TEXT, w_referer, 0, 0, NULL,
     FIELD_NO_READ},
    {"remote_ip", "address", FIELD_TEXT, w_remote_ip, 0, 0, NULL,
     FIELD_NO_READ},
    {"remote_port", "port", FIELD_INT, w_remote_port, 0, 0, NULL,
     FIELD_NO_READ},
    {"response_code", "final HTTP status", FIELD_INT, w_code, FIELD_CURL_CODE,
     0, NULL, FIELD_NO_READ},
    {"round", "round", FIELD_INT, g_round, 0, 0, NULL, FIELD_NO_READ},
    {"scheme", "scheme", FIELD_TEXT, w_scheme, 0, 0, NULL, FIELD_NO_READ},
    {"size_download", "body on the wire", FIELD_BYTES, w_size_download, 0, 0,
     NULL, FIELD_NO_READ},
    {"size_header", "headers of every hop", FIELD_BYTES, w_size_header, 0, 0,
     NULL, FIELD_NO_READ},
    {"size_request", "request bytes of every hop", FIELD_BYTES, w_size_request,
     0, 0, NULL, FIELD_NO_READ},
    {"size_upload", "body uploaded", FIELD_BYTES, w_size_upload, 0, 0, NULL,
     FIELD_NO_READ},
    {"speed_download", "download bytes per second", FIELD_INT,
     w_speed_download, 0, 0, NULL, FIELD_NO_READ},
    {"speed_upload", "upload bytes per second", FIELD_INT, w_speed_upload, 0,
     0, NULL, FIELD_NO_READ},
    {"target", "target", FIELD_TEXT, g_target, 0, 0, NULL, FIELD_NO_READ},
    {"time_appconnect", "until TLS done", FIELD_SECONDS, w_appconnect, 0, 0,
     NULL, FIELD_NO_READ},
    {"time_connect", "until connected", FIELD_SECONDS, w_connect, 0, 0, NULL,
     FIELD_NO_READ},
    {"time_namelookup", "until resolved", FIELD_SECONDS, w_namelookup, 0, 0,
     NULL, FIELD_NO_READ},
    {"time_posttransfer", "until the request was sent", FIELD_SECONDS,
     w_posttransfer, 0, 0, NULL, FIELD_NO_READ},
    {"time_pretransfer", "until the request went", FIELD_SECONDS,
     w_pretransfer, 0, 0, NULL, FIELD_NO_READ},
    {"time_queue", "queued in libcurl", FIELD_SECONDS, w_queue, 0, 0, NULL,
     FIELD_NO_READ},
    {"time_redirect", "redirects", FIELD_SECONDS, w_redirect, 0, 0, NULL,
     FIELD_NO_READ},
    {"time_starttransfer", "until the first byte", FIELD_SECONDS,
     w_starttransfer, 0, 0, NULL, FIELD_NO_READ},
    {"time_total", "total", FIELD_SECONDS, g_total, 0, 0, NULL, FIELD_NO_READ},
    {"tls_earlydata", "TLS early data bytes", FIELD_INT, w_earlydata, 0, 0,
     NULL, FIELD_NO_READ},
    {"url", "target URL", FIELD_TEXT, w_url, 0, 0, NULL, FIELD_NO_READ},
    {"url.fragment", "fragment of the target URL", FIELD_TEXT, w_url_fragment,
     FIELD_FLAT_NAME, 0, NULL, FIELD_NO_READ},
    {"url.host", "host of the target URL", FIELD_TEXT, w_url_host,
     FIELD_FLAT_NAME, 0, NULL, FIELD_NO_READ},
    {"url.options", "options of the target URL", FIELD_TEXT, w_url_options,
     FIELD_FLAT_NAME, 0, NULL, FIELD_NO_READ},
    {"url.password", "password of the target URL", FIELD_TEXT, w_url_password,
     FIELD_FLAT_NAME, 0, NULL, FIELD_NO_READ},
    {"url.path", "path of the target URL", FIELD_TEXT, w_url_path,
     FIELD_FLAT_NAME, 0, NULL, FIELD_NO_READ},
    {"url.port", "port of the target URL", FIELD_TEXT, w_url_port,
     FIELD_FLAT_NAME, 0, NULL, FIELD_NO_READ},
    {"url.query", "query of the target URL", FIELD_TEXT, w_url_query,
     FIELD_FLAT_NAME, 0, NULL, FIELD_NO_READ},
    {"url.scheme", "scheme of the target URL", FIELD_TEXT, w_url_scheme,
     FIELD_FLAT_NAME, 0, NULL, FIELD_NO_READ},
    {"url.user", "user of the target URL", FIELD_TEXT, w_url_user,
     FIELD_FLAT_NAME, 0, NULL, FIELD_NO_READ},
    {"url.zoneid", "zoneid of the target URL", FIELD_TEXT, w_url_zoneid,
     FIELD_FLAT_NAME, 0, NULL, FIELD_NO_READ},
    {"url_effective", "last URL", FIELD_TEXT, w_url_effective, 0, 0, NULL,
     FIELD_NO_READ},
    {"urle.fragment", "fragment of the last URL", FIELD_TEXT, w_urle_fragment,
     FIELD_FLAT_NAME, 0, NULL, FIELD_NO_READ},
    {"urle.host", "host of the last URL", FIELD_TEXT, w_urle_host,
     FIELD_FLAT_NAME, 0, NULL, FIELD_NO_READ},
    {"urle.options", "options of the last URL", FIELD_TEXT, w_urle_options,
     FIELD_FLAT_NAME, 0, NULL, FIELD_NO_READ},
    {"urle.password", "password of the last URL", FIELD_TEXT, w_urle_password,
     FIELD_FLAT_NAME, 0, NULL, FIELD_NO_READ},
    {"urle.path", "path of the last URL", FIELD_TEXT, w_urle_path,
     FIELD_FLAT_NAME, 0, NULL, FIELD_NO_READ},
    {"urle.port", "port of the last URL", FIELD_TEXT, w_urle_port,
     FIELD_FLAT_NAME, 0, NULL, FIELD_NO_READ},
    {"urle.query", "query of the last URL", FIELD_TEXT, w_urle_query,
     FIELD_FLAT_NAME, 0, NULL, FIELD_NO_READ},
    {"urle.scheme", "scheme of the last URL", FIELD_TEXT, w_urle_scheme,
     FIELD_FLAT_NAME, 0, NULL, FIELD_NO_READ},
    {"urle.user", "user of the last URL", FIELD_TEXT, w_urle_user,
     FIELD_FLAT_NAME, 0, NULL, FIELD_NO_READ},
    {"urle.zoneid", "zoneid of the last URL", FIELD_TEXT, w_urle_zoneid,
     FIELD_FLAT_NAME, 0, NULL, FIELD_NO_READ},
    {"urlnum", "target number, from 0", FIELD_INT, w_urlnum, 0, 0, NULL,
     FIELD_NO_READ},
    {"xfer_id", "libcurl transfer id", FIELD_INT, w_xfer_id, 0, 0, NULL,
     FIELD_NO_READ},
    {NULL, NULL, FIELD_TYPE_COUNT, NULL, 0, 0, NULL, FIELD_NO_READ}};

#undef S

void field_curl(const struct field *f, const struct field_value *v,
                struct buf *out)
{
  if (v->null)
    return;
  if (f->type == FIELD_SECONDS)
    buf_printf(out, "%lld.%06lld", (long long)(v->i / 1000000),
               (long long)(v->i % 1000000));
  else if (f->flags & FIELD_CURL_CODE)
    buf_printf(out, "%03lld", (long long)v->i);
  else
    field_plain(f, v, out);
}

/* --- use ---------------------------------------------------------------- */

const struct field *field_find(const struct field *t, const char *name)
{
  for (; t->name; t++)
    if (!strcmp(t->name, name))
      return t;
  BUG("no field '%s'", name);
  return NULL;
}

void field_get(const struct field *f, const struct field_row *r,
               struct field_value *v)
{
  memset(v, 0, sizeof(*v));
  f->get(r, v);
}

void field_value_release(struct field_value *v)
{
  size_t i;

  if (v->owned_v)
    for (i = 0; i < v->n; i++)
      free(v->owned_v[i]);
  free(v->owned_v);
  free(v->owned);
  memset(v, 0, sizeof(*v));
}

void field_row_sample(struct field_row *r, const struct report_ctx *c,
                      const struct sample *s, size_t index,
                      const struct hop_fact *facts)
{
  memset(r, 0, sizeof(*r));
  r->c = c;
  r->s = s;
  r->index = index;
  r->facts = facts;
}

void field_row_hop(struct field_row *r, size_t k)
{
  r->k = k;
  r->h = &r->s->hops[k];
  r->fact = r->facts ? &r->facts[k] : NULL;
}

const struct hop_fact *field_facts(const struct report_ctx *c, size_t index)
{
  const struct analysis *a = c->analysis;

  if (!a || !a->facts || index >= a->n_samples)
    return NULL;
  return a->facts[index];
}

void field_plain(const struct field *f, const struct field_value *v,
                 struct buf *out)
{
  size_t i;

  if (v->null)
    return;
  switch (f->type) {
  case FIELD_INT:
  case FIELD_US:
  case FIELD_BYTES:
  case FIELD_SECONDS:
    buf_put_int(out, v->i);
    return;
  case FIELD_BOOL:
    buf_puts(out, v->i ? "true" : "false");
    return;
  case FIELD_TIME: {
    char t[64];

    units_rfc3339_ms(v->i, t, sizeof(t));
    buf_puts(out, t);
    return;
  }
  case FIELD_DOUBLE:
    if (!isnan(v->d))
      buf_printf(out, "%.*f", f->decimals, v->d);
    return;
  case FIELD_TEXTS:
    for (i = 0; i < v->n; i++)
      buf_printf(out, "%s%s", i ? " " : "", v->v[i]);
    return;
  case FIELD_TEXT:
    if (v->s)
      buf_puts(out, v->s);
    return;
  case FIELD_LAYERS:
    /* Needs the row; see field_plain_row. */
  case FIELD_ROUNDS:
  case FIELD_HEADERS:
  case FIELD_DNS_FAILED:
  case FIELD_TYPE_COUNT:
    return;
  }
}

void field_plain_row(const struct field *f, const struct field_row *r,
                     const struct field_value *v, struct buf *out)
{
  size_t i;

  if (f->type == FIELD_ROUNDS) {
    /* "BYTES@START_US+US ...": each round's bytes and when they came. */
    for (i = 0; r->h && i < hop_rounds_kept(r->h); i++)
      buf_printf(out, "%s%lld@%ld+%ld", i ? " " : "",
                 (long long)r->h->tcp.flow->rounds[i].bytes,
                 (long)r->h->tcp.flow->rounds[i].start_us,
                 (long)r->h->tcp.flow->rounds[i].us);
    return;
  }
  if (f->type != FIELD_LAYERS) {
    field_plain(f, v, out);
    return;
  }
  for (i = 0; r->fact && i < r->fact->n_layers; i++)
    buf_printf(out, "%s%s:%s", i ? " " : "",
               r->fact->layers[i].vendor[0] ? r->fact->layers[i].vendor : "-",
               cache_verdict_names[r->fact->layers[i].verdict]);
}

void field_human(const struct field *f, const struct field_value *v,
                 struct buf *out)
{
  char t[UNITS_FMT_SIZE];

  if (v->null || (f->type == FIELD_TEXT && !v->s)) {
    buf_putc(out, '-');
    return;
  }
  switch (f->type) {
  case FIELD_US:
  case FIELD_SECONDS:
    units_format_us(v->i, t, sizeof(t));
    buf_puts(out, t);
    return;
  case FIELD_BYTES:
    units_format_bytes(v->i, t, sizeof(t));
    buf_puts(out, t);
    return;
  case FIELD_BOOL:
    buf_puts(out, v->i ? "yes" : "no");
    return;
  default:
    field_plain(f, v, out);
    return;
  }
}

/* Headers by lowercase name; repeated headers are joined with ", " as RFC
 * 9110 5.3 allows (Set-Cookie is redacted as a whole). */
static void headers_obj(struct json *j, const char *key,
                        const struct field_row *r)
{
  const struct hop *h = r->h;
  size_t i;

  json_object_begin(j, key);
  for (i = 0; i < h->info->n_headers; i++) {
    char *name, *value = report_header_joined(r->c, h, i, &name);

    if (!value)
      continue;
    json_string(j, name, value);
    free(name);
    free(value);
  }
  json_object_end(j);
}

static void value_json(struct json *j, const char *key, const struct field *f,
                       const struct field_value *v, const struct field_row *r)
{
  size_t i;
  char t[64];

  if (f->type == FIELD_HEADERS) {
    headers_obj(j, key, r);
    return;
  }
  if (f->type == FIELD_LAYERS) {
    json_array_begin(j, key);
    for (i = 0; r->fact && i < r->fact->n_layers; i++) {
      json_object_begin(j, NULL);
      json_string(j, "vendor",
                  r->fact->layers[i].vendor[0] ? r->fact->layers[i].vendor
                                               : NULL);
      json_string(j, "verdict",
                  cache_verdict_names[r->fact->layers[i].verdict]);
      json_object_end(j);
    }
    json_array_end(j);
    return;
  }
  if (f->type == FIELD_ROUNDS) {
    json_array_begin(j, key);
    for (i = 0; i < hop_rounds_kept(r->h); i++) {
      json_object_begin(j, NULL);
      json_int(j, "start_us", r->h->tcp.flow->rounds[i].start_us);
      json_int(j, "us", r->h->tcp.flow->rounds[i].us);
      json_int(j, "bytes", r->h->tcp.flow->rounds[i].bytes);
      json_object_end(j);
    }
    json_array_end(j);
    return;
  }
  if (f->type == FIELD_DNS_FAILED) {
    json_array_begin(j, key);
    for (i = 0; i < r->h->dns->n_failed; i++) {
      json_object_begin(j, NULL);
      json_string(j, "server", r->h->dns->failed[i].server);
      json_string(j, "rcode", r->h->dns->failed[i].rcode);
      json_int(j, "us", r->h->dns->failed[i].us);
      json_string(j, "query", r->h->dns->failed[i].query);
      json_object_end(j);
    }
    json_array_end(j);
    return;
  }
  if (f->type == FIELD_TEXTS) {
    json_array_begin(j, key);
    for (i = 0; i < v->n; i++)
      json_string(j, NULL, v->v[i]);
    json_array_end(j);
    return;
  }
  if (v->null) {
    json_null(j, key);
    return;
  }
  switch (f->type) {
  case FIELD_INT:
  case FIELD_US:
  case FIELD_BYTES:
    json_int(j, key, v->i);
    return;
  case FIELD_SECONDS:
    json_us_seconds(j, key, v->i);
    return;
  case FIELD_BOOL:
    json_bool(j, key, (int)v->i);
    return;
  case FIELD_TIME:
    units_rfc3339_ms(v->i, t, sizeof(t));
    json_string(j, key, t);
    return;
  case FIELD_DOUBLE:
    json_double(j, key, v->d, f->decimals);
    return;
  case FIELD_TEXT:
    json_string(j, key, v->s);
    return;
  case FIELD_TEXTS:
  case FIELD_HEADERS:
  case FIELD_DNS_FAILED:
  case FIELD_LAYERS:
  case FIELD_ROUNDS:
  case FIELD_TYPE_COUNT:
    return;
  }
}

void field_json(struct json *j, const struct field *t, const char *prefix,
                const struct field_row *r)
{
  size_t plen = prefix ? strlen(prefix) : 0;
  char group[64] = "";
  int open = 0, null_group = 0;

  for (; t->name; t++) {
    const char *name = t->name, *dot;
    struct field_value v;
    size_t glen;

    if (prefix) {
      if (strncmp(name, prefix, plen))
        continue;
      name += plen;
    }
    dot = (t->flags & FIELD_FLAT_NAME) ? NULL : strchr(name, '.');
    glen = dot ? (size_t)(dot - name) : 0;
    if (open && (glen != strlen(group) || strncmp(name, group, glen))) {
      if (!null_group)
        json_object_end(j);
      open = null_group = 0;
    }
    if (dot && !open) {
      if (glen >= sizeof(group))
        BUG("field group too long: %s", name);
      memcpy(group, name, glen);
      group[glen] = '\0';
      open = 1;
      null_group = 0;
      if (t->flags & FIELD_NULL_OBJECT) {
        struct field_value first;

        field_get(t, r, &first);
        null_group = first.null;
        field_value_release(&first);
      }
      if (null_group)
        json_null(j, group);
      else
        json_object_begin(j, group);
    }
    if (null_group)
      continue;
    field_get(t, r, &v);
    if ((t->flags & FIELD_OPTIONAL) && v.null) {
      field_value_release(&v);
      continue;
    }
    value_json(j, dot ? dot + 1 : name, t, &v, r);
    field_value_release(&v);
  }
  if (open && !null_group)
    json_object_end(j);
}
