/*
 * serve_metrics.c: the answer of one /probe in the Prometheus text format
 * (0.0.4).  Input: struct serve_probe.  Output: text in a struct buf.
 *
 * First blackbox_exporter's probe_* series, where hopsplit measures the
 * same thing, from one sample: the median sample (by total) of the
 * module's first mode, else its last failed one; with the built-in module
 * that is the probe's only request.  probe_http_duration_seconds is summed
 * over the hops as blackbox does: resolve = dns, connect, tls, processing =
 * send + wait (blackbox's connection-ready to first byte), transfer = the
 * final hop's transfer only (blackbox reads no redirect body).  Unlike
 * blackbox, a later hop to an origin already connected reuses the
 * connection, as a client would, and then has no connect or tls.
 *
 * Then hopsplit's own series, labelled with the mode, the hop index and
 * the hop's host (never a URL, never free text): per hop phases (median
 * over the probe's samples of that mode), status, connection reuse, TLS
 * resumption, the cache verdict (samples per verdict, as --format prom
 * writes it: prom.c), the edge (vendor, POP, country), its distance (as
 * --format prom) and the fibre floor, and the findings' savings.
 */
#include <arpa/inet.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arraysize.h"
#include "blackbox.h"
#include "cache.h"
#include "prom.h"
#include "serve_int.h"
#include "banned.h"

/* The sample whose facts stand for mode m: its median sample, else its
 * last one; the probe's sample count when there is none. */
static size_t mode_sample(const struct serve_probe *sp, enum sample_mode m)
{
  const struct mode_summary *ms = &sp->analysis->targets[0].modes[m];
  size_t i, n = hs_results_samples(sp->res);

  if (ms->median_sample >= 0 && (size_t)ms->median_sample < n)
    return (size_t)ms->median_sample;
  for (i = n; i > 0; i--) {
    const char *mode = serve_get_text(sp->res, i - 1, 0, serve_fields()->mode);

    if (mode && !strcmp(mode, sample_mode_names[m]))
      return i - 1;
  }
  return n;
}

/* The sample the blackbox-named series describe (the first mode's), or
 * SIZE_MAX. */
static size_t ref_sample(const struct serve_probe *sp)
{
  size_t i;

  if (!sp->have_analysis || !sp->plan->n_items || !sp->analysis->n_targets)
    return SIZE_MAX;
  i = mode_sample(sp, sp->plan->items[0].mode);
  return i < hs_results_samples(sp->res) ? i : SIZE_MAX;
}

static void gauge_us(struct buf *out, const char *name, const char *help,
                     int64_t us)
{
  prom_family(out, name, "gauge", help);
  buf_printf(out, "%s ", name);
  prom_seconds(out, us);
  buf_putc(out, '\n');
}

static void gauge_num(struct buf *out, const char *name, const char *help,
                      const char *value)
{
  prom_family(out, name, "gauge", help);
  buf_printf(out, "%s %s\n", name, value);
}

/* The parts of the most disturbed sample's interference, a series for each
 * part that was measured (hopsplit(1) INTERFERENCE). */
static void interference_parts(struct buf *out, const struct serve_probe *sp)
{
  const struct serve_fields *F = serve_fields();
  size_t i, n = hs_results_samples(sp->res), most = n;
  int64_t most_us = 0;
  int k, done = 0;

  for (i = 0; i < n; i++) {
    int64_t us = serve_get_int(sp->res, i, 0, F->interference, 0);

    if (!serve_get_int(sp->res, i, 0, F->control, 0) &&
        (most == n || us > most_us)) {
      most = i;
      most_us = us;
    }
  }
  for (k = 0; most < n && k < SERVE_PARTS; k++) {
    int64_t v = serve_get_int(sp->res, most, 0, F->part[k], -1);

    if (v < 0)
      continue;
    prom_family_once(out, &done, "hopsplit_probe_interference_part_seconds",
                     "gauge",
                     "The parts of hopsplit_probe_interference_seconds, of "
                     "the probe's most disturbed sample: late (the loop busy "
                     "with other work), own (hopsplit's callbacks), runq "
                     "(waiting for a CPU), lock (waiting for hopsplit's "
                     "locks), output (writing output).");
    buf_puts(out, "hopsplit_probe_interference_part_seconds{");
    prom_label(out, "part", serve_part_names[k], 1);
    buf_puts(out, "} ");
    prom_seconds(out, v);
    buf_putc(out, '\n');
  }
}

/* "TLSv1.3" as blackbox writes it: "TLS 1.3". */
static void tls_version_label(char *dst, size_t n, const char *v)
{
  if (!strncmp(v, "TLSv", 4))
    snprintf(dst, n, "TLS %s", v + 4);
  else
    snprintf(dst, n, "%s", v);
}

/* blackbox's probe_ip_addr_hash: FNV-1a (32 bits) of the address's bytes,
 * 4 for IPv4, 16 for IPv6, in decimal into dst; 0 when ip is not an
 * address. */
static int ip_hash(const char *ip, char *dst, size_t n)
{
  unsigned char a[16];
  uint32_t h = 2166136261u;
  size_t len, i;

  if (inet_pton(AF_INET, ip, a) == 1)
    len = 4;
  else if (inet_pton(AF_INET6, ip, a) == 1)
    len = 16;
  else
    return 0;
  for (i = 0; i < len; i++) {
    h ^= a[i];
    h *= 16777619u;
  }
  snprintf(dst, n, "%lu", (unsigned long)h);
  return 1;
}

/* The target's address blackbox's probe_ip_* series describe: the first
 * hop's peer, or through a proxy the address resolved for the target (the
 * one the request named); NULL when none was (skip_resolve_phase_with_proxy:
 * blackbox writes none of them). */
static const char *target_address(const struct serve_probe *sp, size_t s)
{
  const struct serve_fields *F = serve_fields();

  if (s == SIZE_MAX || !hs_results_hops(sp->res, s))
    return NULL;
  if (!sp->have_opts || !sp->opts->proxy)
    return serve_get_text(sp->res, s, 0, F->remote_ip);
  if (sp->opts->proxy_skip_resolve)
    return NULL;
  return serve_get_text(sp->res, s, 0, F->dns_preferred);
}

/* Hop k of sample s's phase f, as stored (summed raw, as blackbox sums
 * its phases). */
static int64_t phase(const struct serve_probe *sp, size_t s, size_t k,
                     const struct hs_field *f)
{
  struct hs_value v;

  return hs_results_get(sp->res, s, k, f, &v) == HS_OK ? v.i : 0;
}

static void blackbox_series(const struct serve_probe *sp, struct buf *out)
{
  static const char *const names[] = {"connect", "processing", "resolve",
                                      "tls", "transfer"};
  const struct serve_fields *F = serve_fields();
  struct hs_results *res = sp->res;
  size_t s = ref_sample(sp);
  size_t hops = s != SIZE_MAX ? hs_results_hops(res, s) : 0;
  size_t f = hops ? hops - 1 : 0; /* the final hop, when hops */
  const char *ip = target_address(sp, s);
  const char *ver = hops ? serve_get_text(res, s, f, F->http_version) : NULL;
  const char *tls = hops ? serve_get_text(res, s, f, F->tls_version) : NULL;
  long status = hops ? (long)serve_get_int(res, s, f, F->status, 0) : 0;
  int resolved =
      !(sp->have_opts && sp->opts->proxy && sp->opts->proxy_skip_resolve);
  int64_t ph[5] = {0, 0, 0, 0, 0};
  size_t k, i;
  char v[64];

  for (k = 0; k < hops; k++) {
    ph[0] += phase(sp, s, k, F->ph_connect);
    ph[1] += phase(sp, s, k, F->ph_send) + phase(sp, s, k, F->ph_wait);
    ph[2] += phase(sp, s, k, F->ph_dns);
    ph[3] += phase(sp, s, k, F->ph_tls);
  }
  if (hops)
    ph[4] = phase(sp, s, f, F->ph_transfer);
  if (resolved)
    gauge_us(out, "probe_dns_lookup_time_seconds",
             "Returns the time taken for probe dns lookup in seconds",
             hops ? phase(sp, s, 0, F->ph_dns) : 0);
  gauge_us(out, "probe_duration_seconds",
           "Returns how long the probe took to complete in seconds",
           sp->duration_us);
  /* blackbox 0.23 writes it on every http probe, 0 without regexps. */
  gauge_num(out, "probe_failed_due_to_regex",
            "Indicates if probe failed due to regex",
            sp->regex_failed ? "1" : "0");
  /* blackbox: resp.ContentLength, -1 when the response had none; 0 when
   * no response came. */
  snprintf(v, sizeof(v), "%lld",
           status ? (long long)serve_get_int(res, s, f, F->content_length, -1)
                  : 0LL);
  gauge_num(out, "probe_http_content_length",
            "Length of http content response", v);
  prom_family(out, "probe_http_duration_seconds", "gauge",
              "Duration of http request by phase, summed over all "
              "redirects");
  for (i = 0; i < 5; i++) {
    buf_puts(out, "probe_http_duration_seconds{");
    prom_label(out, "phase", names[i], 1);
    buf_puts(out, "} ");
    prom_seconds(out, ph[i]);
    buf_putc(out, '\n');
  }
  /* blackbox counts a redirect it was told not to follow as one. */
  snprintf(v, sizeof(v), "%u",
           (unsigned)(hops ? hops - 1 : 0u) +
               (hops && sp->have_opts && !sp->opts->follow &&
                        serve_get_text(res, s, f, F->location) &&
                        status >= 300 && status <= 399
                    ? 1u
                    : 0u));
  gauge_num(out, "probe_http_redirects", "The number of redirects", v);
  gauge_num(out, "probe_http_ssl",
            "Indicates if SSL was used for the final redirect",
            tls ? "1" : "0");
  snprintf(v, sizeof(v), "%d", (int)status);
  gauge_num(out, "probe_http_status_code", "Response HTTP status code", v);
  {
    int64_t dec = hops ? phase(sp, s, f, F->size_decoded) : 0;

    snprintf(
        v, sizeof(v), "%lld",
        hops ? (long long)(dec > 0 ? dec : phase(sp, s, f, F->size_download))
             : 0LL);
  }
  gauge_num(out, "probe_http_uncompressed_body_length",
            "Length of uncompressed response body", v);
  gauge_num(out, "probe_http_version",
            "Returns the version of HTTP of the probe response",
            ver ? (!strcmp(ver, "1.0") ? "1" : ver) : "0");
  if (ip && ip_hash(ip, v, sizeof(v)))
    gauge_num(out, "probe_ip_addr_hash",
              "Specifies the hash of IP address. It's useful to detect if "
              "the IP address changes.",
              v);
  if (ip)
    gauge_num(out, "probe_ip_protocol",
              "Specifies whether probe ip protocol is IP4 or IP6",
              strchr(ip, ':') ? "6" : "4");
  /* blackbox's HELP texts, as 0.23 writes them (both say "last"). */
  if (hops && serve_get_int(res, s, f, F->cert_expiry, 0)) {
    snprintf(v, sizeof(v), "%lld",
             (long long)serve_get_int(res, s, f, F->cert_expiry, 0));
    gauge_num(out, "probe_ssl_earliest_cert_expiry",
              "Returns last SSL chain expiry in unixtime", v);
  }
  if (hops && serve_get_int(res, s, f, F->chain_expiry, 0)) {
    snprintf(v, sizeof(v), "%lld",
             (long long)serve_get_int(res, s, f, F->chain_expiry, 0));
    gauge_num(out, "probe_ssl_last_chain_expiry_timestamp_seconds",
              "Returns last SSL chain expiry in timestamp", v);
  }
  /* blackbox's labels of the final response's leaf certificate
   * (0.23's four, and serialnumber as blackbox 0.24 and later add it). */
  if (hops && serve_get_text(res, s, f, F->leaf_sha256)) {
    prom_family(out, "probe_ssl_last_chain_info", "gauge",
                "Contains SSL leaf certificate information");
    buf_puts(out, "probe_ssl_last_chain_info{");
    prom_label(out, "fingerprint_sha256",
               serve_get_text(res, s, f, F->leaf_sha256), 1);
    prom_label(out, "issuer", serve_get_text(res, s, f, F->leaf_issuer), 0);
    prom_label(out, "serialnumber", serve_get_text(res, s, f, F->leaf_serial),
               0);
    prom_label(out, "subject", serve_get_text(res, s, f, F->leaf_subject), 0);
    prom_label(out, "subjectalternative",
               serve_get_text(res, s, f, F->leaf_dns_names), 0);
    buf_puts(out, "} 1\n");
  }
  gauge_num(out, "probe_success",
            "Displays whether or not the probe was a success",
            sp->success ? "1" : "0");
  gauge_us(out, "hopsplit_probe_interference_seconds",
           "The most this probe's stamps can be late: the largest of its "
           "samples' interference, the sum of its parts (the loop's "
           "lateness, hopsplit's own work, waits for a CPU and for locks, "
           "output).",
           sp->interference_us);
  interference_parts(out, sp);
  if (sp->have_analysis) {
    char n[32];

    snprintf(n, sizeof(n), "%zu", sp->n_interfered);
    gauge_num(out, "hopsplit_probe_interfered",
              "Samples of this probe whose stamps may be late past the "
              "interference threshold (1 ms and 1 % of the sample's total); "
              "when no other sample of a mode was measured the durations "
              "are theirs.",
              n);
  }
  if (tls) {
    tls_version_label(v, sizeof(v), tls);
    prom_family(out, "probe_tls_version_info", "gauge",
                "Returns the TLS version used or NaN when unknown");
    buf_puts(out, "probe_tls_version_info{");
    prom_label(out, "version", v, 1);
    buf_puts(out, "} 1\n");
  }
}

/* The host of hop k (0-based) in the samples of mode m (any mode when m
 * is MODE_COUNT), or NULL. */
static const char *hop_host(const struct serve_probe *sp, enum sample_mode m,
                            size_t k)
{
  const struct serve_fields *F = serve_fields();
  size_t i, n = hs_results_samples(sp->res);

  for (i = 0; i < n; i++) {
    const char *mode;

    if (hs_results_hops(sp->res, i) <= k)
      continue;
    mode = m == MODE_COUNT ? NULL : serve_get_text(sp->res, i, 0, F->mode);
    if (m == MODE_COUNT || (mode && !strcmp(mode, sample_mode_names[m])))
      return serve_get_text(sp->res, i, k, F->host);
  }
  return NULL;
}

static void hop_labels(struct buf *out, const char *name, const char *mode,
                       size_t hop, const char *host)
{
  char h[32];

  snprintf(h, sizeof(h), "%zu", hop);
  buf_printf(out, "%s{", name);
  if (mode) {
    prom_label(out, "mode", mode, 1);
    prom_label(out, "hop", h, 0);
  }
  else {
    prom_label(out, "hop", h, 1);
  }
  prom_label(out, "host", host ? host : "", 0);
}

static void per_mode(const struct serve_probe *sp, struct buf *out)
{
  const struct target_analysis *ta = &sp->analysis->targets[0];
  size_t i, k, c;
  int ph, fam = 0;

  prom_family(out, "hopsplit_samples", "gauge",
              "Samples this probe measured, per mode.");
  for (i = 0; i < sp->plan->n_modes; i++) {
    enum sample_mode m = sp->plan->modes[i];

    buf_puts(out, "hopsplit_samples{");
    prom_label(out, "mode", sample_mode_names[m], 1);
    buf_printf(out, "} %zu\n", ta->modes[m].n_samples);
  }
  prom_family(out, "hopsplit_sample_failures", "gauge",
              "Failed samples of this probe, per mode and error class.");
  for (i = 0; i < sp->plan->n_modes; i++) {
    enum sample_mode m = sp->plan->modes[i];

    for (c = ERR_NONE + 1; c < ERR_COUNT; c++) {
      buf_puts(out, "hopsplit_sample_failures{");
      prom_label(out, "mode", sample_mode_names[m], 1);
      prom_label(out, "class", err_class_names[c], 0);
      buf_printf(out, "} %zu\n", ta->modes[m].failed_by_class[c]);
    }
  }
  for (i = 0; i < sp->plan->n_modes; i++) {
    enum sample_mode m = sp->plan->modes[i];

    /* A phase nothing measured has no series (never 0 s). */
    if (!ta->modes[m].phases[SUM_TOTAL].n)
      continue;
    prom_family_once(out, &fam, "hopsplit_duration_seconds", "gauge",
                     "Phases of the whole request (hops summed, plus redirect "
                     "and the time between hops), median over this probe's "
                     "successful samples of each mode.");
    for (ph = 0; ph < SUM_COUNT; ph++) {
      buf_puts(out, "hopsplit_duration_seconds{");
      prom_label(out, "mode", sample_mode_names[m], 1);
      prom_label(out, "phase", sum_phase_names[ph], 0);
      buf_puts(out, "} ");
      prom_seconds(out, ta->modes[m].phases[ph].p50);
      buf_putc(out, '\n');
    }
  }
  fam = 0;
  for (i = 0; i < sp->plan->n_modes; i++) {
    enum sample_mode m = sp->plan->modes[i];
    const struct mode_summary *ms = &ta->modes[m];

    for (k = 0; k < ms->n_hops; k++) {
      const struct hop_summary *hs = &ms->hops[k];

      if (!hs->phases[PHASE_TOTAL].n)
        continue;
      prom_family_once(out, &fam, "hopsplit_hop_duration_seconds", "gauge",
                       "Phase of one hop, median over this probe's successful "
                       "samples of the mode.");
      for (ph = 0; ph < PHASE_COUNT; ph++) {
        hop_labels(out, "hopsplit_hop_duration_seconds", sample_mode_names[m],
                   hs->hop, hop_host(sp, m, hs->hop - 1));
        prom_label(out, "phase", phase_names[ph], 0);
        buf_puts(out, "} ");
        prom_seconds(out, hs->phases[ph].p50);
        buf_putc(out, '\n');
      }
    }
  }
}

static void hop_facts(const struct serve_probe *sp, struct buf *out)
{
  static const struct {
    const char *name, *help;
  } fam[] = {
      {"hopsplit_hop_status_code", "HTTP status of the hop."},
      {"hopsplit_hop_reused",
       "1 when the hop reused a connection (no connect, no TLS)."},
      {"hopsplit_hop_tls_resumed",
       "1 when the hop's TLS session was resumed, 0 for a full handshake "
       "(TLS hops on a new connection only)."},
  };
  const struct serve_fields *F = serve_fields();
  size_t f, i, k;

  for (f = 0; f < ARRAY_SIZE(fam); f++) {
    int done = 0;

    for (i = 0; i < sp->plan->n_modes; i++) {
      enum sample_mode m = sp->plan->modes[i];
      size_t s = mode_sample(sp, m);
      size_t hops = hs_results_hops(sp->res, s);

      for (k = 0; k < hops; k++) {
        int reused = (int)serve_get_int(sp->res, s, k, F->reused, 0);
        int64_t resumed = serve_get_int(sp->res, s, k, F->tls_resumed, -1);

        if (f == 2 && (!serve_get_text(sp->res, s, k, F->tls_version) ||
                       reused || resumed < 0))
          continue;
        prom_family_once(out, &done, fam[f].name, "gauge", fam[f].help);
        hop_labels(out, fam[f].name, sample_mode_names[m], k + 1,
                   serve_get_text(sp->res, s, k, F->host));
        if (f == 0)
          buf_printf(out, "} %d\n",
                     (int)serve_get_int(sp->res, s, k, F->status, 0));
        else if (f == 1)
          buf_printf(out, "} %d\n", reused ? 1 : 0);
        else
          buf_printf(out, "} %d\n", (int)resumed);
      }
    }
  }
}

/* The transport of each mode's sample (hopsplit(1) TRANSPORT): server and
 * network time, the kernel's RTT, retransmits, out-of-order arrivals and
 * the body's rounds, per hop. */
static void hop_transport(const struct serve_probe *sp, struct buf *out)
{
  struct prom_hop_src v[MODE_COUNT];
  size_t i, k, n = 0;

  for (i = 0; i < sp->plan->n_modes && n < MODE_COUNT; i++) {
    enum sample_mode m = sp->plan->modes[i];

    v[n].target = NULL;
    v[n].mode = sample_mode_names[m];
    k = mode_sample(sp, m);
    v[n].s = k < hs_results_samples(sp->res) ? &sp->results->samples[k] : NULL;
    if (v[n].s)
      n++;
  }
  prom_transport(out, v, n);
}

static void cache_edge(const struct serve_probe *sp, struct buf *out)
{
  const struct target_analysis *ta = &sp->analysis->targets[0];
  size_t i;
  int fam = 0;

  prom_cache_verdict(out, &fam, NULL, ta);
  fam = 0;
  for (i = 0; i < ta->n_edge; i++) {
    const struct edge_result *e = &ta->edge[i];

    if (!e->vendor && !e->pop)
      continue;
    prom_family_once(out, &fam, "hopsplit_hop_edge_info", "gauge",
                     "The CDN edge that served a hop (vendor, POP and its "
                     "country), when known.");
    hop_labels(out, "hopsplit_hop_edge_info", NULL, (size_t)e->hop,
               e->host ? e->host
                       : hop_host(sp, MODE_COUNT, (size_t)e->hop - 1));
    prom_label(out, "vendor", e->vendor ? e->vendor : "", 0);
    prom_label(out, "pop", e->pop ? e->pop : "", 0);
    prom_label(out, "country", e->country ? e->country : "", 0);
    buf_puts(out, "} 1\n");
  }
  fam = 0;
  prom_edge_distance(out, &fam, NULL, ta);
  fam = 0;
  for (i = 0; i < ta->n_edge; i++) {
    const struct edge_result *e = &ta->edge[i];

    if (isnan(e->floor_rtt_ms))
      continue;
    prom_family_once(out, &fam, "hopsplit_hop_edge_floor_rtt_seconds", "gauge",
                     "Physical floor of the round trip to the edge of a hop "
                     "(distance over light in fibre, there and back).");
    hop_labels(
        out, "hopsplit_hop_edge_floor_rtt_seconds", NULL, (size_t)e->hop,
        e->host ? e->host : hop_host(sp, MODE_COUNT, (size_t)e->hop - 1));
    prom_label(out, "pop", e->pop ? e->pop : "", 0);
    buf_printf(out, "} %.6f\n", e->floor_rtt_ms / 1000.0);
  }
}

static void findings(const struct serve_probe *sp, struct buf *out)
{
  const struct target_analysis *ta = &sp->analysis->targets[0];
  size_t i;
  char h[32];
  int fam = 0;

  for (i = 0; i < ta->n_findings; i++) {
    const struct finding *f = &ta->findings[i];

    prom_family_once(
        out, &fam, "hopsplit_finding_saving_seconds", "gauge",
        "Estimated saving of a finding (hopsplit(1) FINDINGS), from this "
        "probe's medians; hop 0 is the whole request.");

    snprintf(h, sizeof(h), "%d", f->hop);
    buf_puts(out, "hopsplit_finding_saving_seconds{");
    prom_label(out, "kind", finding_kind_names[f->kind], 1);
    prom_label(out, "hop", h, 0);
    buf_puts(out, "} ");
    prom_seconds(out, f->saving_us);
    buf_putc(out, '\n');
  }
}

void serve_module_info(struct buf *out, const char *module,
                       const char *vantage)
{
  prom_family(out, "hopsplit_probe_info", "gauge",
              "Where and with which module this probe ran.");
  buf_puts(out, "hopsplit_probe_info{");
  prom_label(out, "module", module, 1);
  prom_label(out, "vantage", vantage, 0);
  prom_label(out, "version", HOPSPLIT_VERSION, 0);
  buf_puts(out, "} 1\n");
}

void serve_probe_metrics(const struct serve_probe *sp,
                         const struct serve_config *c, struct buf *out)
{
  blackbox_series(sp, out);
  if (sp->module) {
    buf_puts(out, sp->module->info);
  }
  else {
    serve_module_info(out, "unknown", c->vantage);
  }
  if (!sp->have_analysis || !sp->analysis->n_targets)
    return;
  per_mode(sp, out);
  hop_facts(sp, out);
  hop_transport(sp, out);
  cache_edge(sp, out);
  findings(sp, out);
}

void serve_probe_debug(const struct serve_probe *sp,
                       const struct serve_config *c, struct buf *out)
{
  buf_puts(out, "Logs for the probe:\n");
  buf_add(out, sp->log.s, sp->log.len);
  buf_puts(out, "\n\n\nMetrics that would have been returned:\n");
  serve_probe_metrics(sp, c, out);
  buf_puts(out, "\n\n\nModule configuration:\n");
  if (!sp->module) {
    buf_printf(out, "unknown module; the modules are:\n");
    {
      size_t i;

      for (i = 0; i < c->n_modules; i++)
        buf_printf(out, "  %s: %s\n", c->modules[i].name, c->modules[i].about);
    }
    return;
  }
  buf_printf(out, "module: %s (%s)\n", sp->module->name, sp->module->about);
  if (sp->have_plan) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    if (f) {
      plan_print(sp->plan, f);
      if (fclose(f) == 0)
        buf_add(out, text, len);
      free(text);
    }
  }
}
