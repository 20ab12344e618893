/*
 * report_json.c: the "hopsplit/1" JSON document (hopsplit(1) OUTPUT), the
 * stable machine contract.  Input: plan, results, analysis.  Output: JSON
 * text. Durations are integer microseconds with a _us suffix; libcurl's own
 * cumulative values keep curl's names and unit (seconds) under "curl".
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arraysize.h"
#include "json.h"
#include "report.h"
#include "report_checks_int.h"
#include "report_fields.h"
#include "units.h"
#include "url.h"
#include "xalloc.h"
#include "report_projection.h"
#include "banned.h"

static void time_field(struct json *j, const char *key, int64_t ms)
{
  char t[64];

  if (ms <= 0) {
    json_null(j, key);
    return;
  }
  units_rfc3339_ms(ms, t, sizeof(t));
  json_string(j, key, t);
}

static void stats_obj(struct json *j, const char *key, const struct stats *s)
{
  struct field_row r;

  memset(&r, 0, sizeof(r));
  r.st = s;
  json_object_begin(j, key);
  field_json(j, report_stat_fields, NULL, &r);
  json_object_end(j);
}

static void settings(struct json *j, const struct report_ctx *c)
{
  const struct plan *p = c->plan;
  const struct options *o = p->opts;
  size_t i;
  static const char *const http[] = {"default", "1.1", "2", "3", "3-only"};
  static const char *const trace[] = {"auto", "always", "never"};

  json_object_begin(j, "settings");
  json_int(j, "rounds", p->rounds);
  json_array_begin(j, "modes");
  for (i = 0; i < p->n_modes; i++)
    json_string(j, NULL, sample_mode_names[p->modes[i]]);
  json_array_end(j);
  json_string(j, "order", schedule_order_name(o->order));
  json_int(j, "seed", (int64_t)p->seed);
  json_int(j, "pause_us", o->pause_us);
  if (o->payload_size > 0)
    json_int(j, "payload_size", o->payload_size);
  else
    json_null(j, "payload_size");
  json_int(j, "parallel", o->parallel);
  json_bool(j, "keep_interfered", o->keep_interfered);
  json_int(j, "interference_max_us", SAMPLE_INTERFERENCE_MAX_US);
  json_int(j, "interference_max_pct", SAMPLE_INTERFERENCE_MAX_PCT);
  json_bool(j, "follow", o->follow);
  json_int(j, "max_redirs", o->max_redirs);
  json_string(j, "method", options_method(o));
  /* The body's size, never its bytes: it may hold credentials. */
  json_int(j, "body_bytes",
           o->body_file ? o->body_file_size : (int64_t)o->body_len);
  json_bool(j, "fail", o->fail);
  json_array_begin(j, "headers");
  for (i = 0; i < o->n_headers; i++) {
    char *line = o->show_secrets ? xstrdup(o->headers[i])
                                 : url_redact_header(o->headers[i]);

    json_string(j, NULL, line);
    free(line);
  }
  json_array_end(j);
  json_string(j, "user_agent", o->user_agent);
  json_bool(j, "compressed", o->compressed);
  json_array_begin(j, "resolve");
  for (i = 0; i < o->n_resolve; i++)
    json_string(j, NULL, o->resolve[i]);
  json_array_end(j);
  json_string(j, "dns_servers", o->dns_servers);
  json_int(j, "ip_family", o->ip_family);
  json_string(j, "http", http[o->http]);
  json_string(j, "cacert", o->cacert);
  json_string(j, "capath", o->capath);
  json_bool(j, "insecure", o->insecure);
  json_bool(j, "location_trusted", o->location_trusted);
  json_int(j, "connect_timeout_us", o->connect_timeout_us);
  json_int(j, "max_time_us", o->max_time_us);
  json_string(j, "trace", trace[o->trace]);
  json_string(j, "client_location", o->client_location);
  json_bool(j, "show_secrets", o->show_secrets);
  json_string(j, "baseline", p->targets[p->baseline].name);
  json_bool(j, "compare_all", p->compare_all);
  json_array_begin(j, "prime");
  for (i = 0; i < o->n_primes; i++) {
    char *u = o->show_secrets ? xstrdup(o->primes[i].url)
                              : url_redact(o->primes[i].url);
    char *v = o->primes[i].target ? xasprintf("%s=%s", o->primes[i].target, u)
                                  : xstrdup(u);

    json_string(j, NULL, v);
    free(u);
    free(v);
  }
  json_array_end(j);
  report_projection_json_settings(c, j);
  json_object_end(j);
}

static void mode_summary(struct json *j, const struct mode_summary *m)
{
  size_t k;
  int ph, e;

  json_int(j, "n", (int64_t)m->n_samples);
  json_int(j, "n_ok", (int64_t)m->n_ok);
  json_int(j, "n_failed", (int64_t)m->n_failed);
  json_int(j, "n_interfered", (int64_t)m->n_interfered);
  if (m->n_interfered)
    json_int(j, "interfered_max_us", m->interfered_max_us);
  else
    json_null(j, "interfered_max_us");
  json_bool(j, "interfered_kept", m->interfered_kept);
  /* Waited for a CPU past the threshold: said, kept (hopsplit(1)
   * INTERFERENCE). */
  json_int(j, "n_cpu_waited", (int64_t)m->n_cpu_waited);
  if (m->n_cpu_waited)
    json_int(j, "cpu_waited_max_us", m->cpu_waited_max_us);
  else
    json_null(j, "cpu_waited_max_us");
  if (m->control.n) {
    /* --parallel: the serial control and how far the batch is from it. */
    json_object_begin(j, "control");
    json_int(j, "n", (int64_t)m->control.n);
    json_int(j, "p50_us", m->control.p50);
    /* No batch sample counted (all failed or interfered): no difference,
     * never a 0 that reads as "the same". */
    if (m->phases[SUM_TOTAL].n) {
      json_int(j, "diff_us", m->control_diff_us);
      json_double(j, "diff_pct", m->control_diff_pct, 1);
    }
    else {
      json_null(j, "diff_us");
      json_null(j, "diff_pct");
    }
    json_object_end(j);
  }
  json_object_begin(j, "failures");
  for (e = ERR_NONE + 1; e < ERR_COUNT; e++)
    if (m->failed_by_class[e])
      json_int(j, err_class_names[e], (int64_t)m->failed_by_class[e]);
  json_object_end(j);
  /* Final statuses with their counts, "0" for no response. */
  json_object_begin(j, "statuses");
  for (k = 0; k < m->n_statuses; k++) {
    char code[24];

    snprintf(code, sizeof(code), "%ld", m->statuses[k].status);
    json_int(j, code, (int64_t)m->statuses[k].n);
  }
  json_object_end(j);
  if (m->median_sample >= 0)
    json_int(j, "median_sample", m->median_sample);
  else
    json_null(j, "median_sample");
  json_object_begin(j, "phases");
  for (ph = 0; ph < SUM_COUNT; ph++)
    stats_obj(j, sum_phase_names[ph], &m->phases[ph]);
  json_object_end(j);
  if (m->idle.n)
    stats_obj(j, "idle", &m->idle);
  else
    json_null(j, "idle");
  json_array_begin(j, "hops");
  for (k = 0; k < m->n_hops; k++) {
    json_object_begin(j, NULL);
    json_int(j, "hop", (int64_t)m->hops[k].hop);
    json_object_begin(j, "phases");
    for (ph = 0; ph < PHASE_COUNT; ph++)
      stats_obj(j, phase_names[ph], &m->hops[k].phases[ph]);
    json_object_end(j);
    json_object_end(j);
  }
  json_array_end(j);
}

/* A double that may be unknown (NAN): null then. */
static void num(struct json *j, const char *key, double v, int decimals)
{
  json_double(j, key, v, decimals);
}

static void cache_arr(struct json *j, const struct target_analysis *ta)
{
  size_t k, i, l;
  int v;

  json_array_begin(j, "cache");
  for (k = 0; k < ta->n_cache; k++) {
    const struct cache_hop *ch = &ta->cache[k];

    json_object_begin(j, NULL);
    json_int(j, "hop", (int64_t)ch->hop);
    json_string(j, "host", ch->host);
    json_string(j, "vendor", ch->result.vendor);
    json_string(j, "verdict", cache_verdict_names[ch->result.verdict]);
    json_bool(j, "inferred", ch->result.inferred);
    json_string(j, "raw", ch->result.raw);
    json_string(j, "source", ch->result.source);
    if (ch->result.age >= 0)
      json_int(j, "age", ch->result.age);
    else
      json_null(j, "age");
    json_array_begin(j, "reasons");
    for (i = 0; i < ch->result.n_reasons; i++)
      json_string(j, NULL, ch->result.reasons[i]);
    json_array_end(j);
    json_object_begin(j, "counts");
    for (v = 0; v < CACHE_VERDICT_COUNT; v++)
      if (ch->counts.n[v])
        json_int(j, cache_verdict_names[v], ch->counts.n[v]);
    json_object_end(j);
    /* hopsplit(1) OUTPUT: every cache the response passed, nearest the user
     * first. */
    json_array_begin(j, "layers");
    for (l = 0; l < ch->result.n_layers; l++) {
      const struct cache_layer *cl = &ch->result.layers[l];

      json_object_begin(j, NULL);
      json_string(j, "name", cl->name);
      json_string(j, "vendor", cl->vendor);
      json_string(j, "verdict", cache_verdict_names[cl->verdict]);
      json_bool(j, "inferred", cl->inferred);
      json_string(j, "raw", cl->raw);
      json_array_begin(j, "reasons");
      for (i = 0; i < cl->n_reasons; i++)
        json_string(j, NULL, cl->reasons[i]);
      json_array_end(j);
      json_object_end(j);
    }
    json_array_end(j);
    json_object_end(j);
  }
  json_array_end(j);
}

static void edge_arr(struct json *j, const struct target_analysis *ta)
{
  size_t k;

  json_array_begin(j, "edge");
  for (k = 0; k < ta->n_edge; k++) {
    const struct edge_result *e = &ta->edge[k];

    json_object_begin(j, NULL);
    json_int(j, "hop", (int64_t)k + 1);
    json_string(j, "host", e->host);
    json_string(j, "vendor", e->vendor);
    json_string(j, "pop", e->pop);
    json_string(j, "city", e->city);
    json_string(j, "country", e->country);
    num(j, "lat", e->lat, 4);
    num(j, "lon", e->lon, 4);
    num(j, "distance_km", e->distance_km, 0);
    num(j, "floor_rtt_ms", e->floor_rtt_ms, 1);
    num(j, "connect_p50_ms", e->connect_p50_ms, 2);
    json_string(j, "source",
                e->source == EDGE_SOURCE_NONE ? NULL
                                              : edge_source_names[e->source]);
    if (e->distant < 0)
      json_null(j, "distant");
    else
      json_bool(j, "distant", e->distant);
    json_string(j, "distant_reason", e->distant_why);
    json_bool(j, "client_hidden", e->hidden);
    json_string(j, "upstream", e->upstream);
    json_string(j, "nearest_pop", e->nearest);
    num(j, "nearest_km", e->nearest_km, 0);
    json_object_end(j);
  }
  json_array_end(j);
}

static void findings_arr(struct json *j, const struct report_ctx *c,
                         const struct target_analysis *ta)
{
  size_t k;

  json_array_begin(j, "findings");
  for (k = 0; k < ta->n_findings; k++) {
    const struct finding *f = &ta->findings[k];

    json_object_begin(j, NULL);
    json_string(j, "kind", finding_kind_names[f->kind]);
    json_string(j, "title", f->title);
    json_string(j, "detail", f->detail);
    json_int(j, "saving_us", f->saving_us);
    if (f->hop)
      json_int(j, "hop", f->hop);
    else
      json_null(j, "hop");
    if (f->group)
      json_int(j, "group", f->group);
    else
      json_null(j, "group");
    if (f->group) {
      size_t m;

      json_array_begin(j, "overlaps");
      for (m = 0; m < ta->n_findings; m++)
        if (m != k && ta->findings[m].group == f->group)
          json_int(j, NULL, (int64_t)m + 1);
      json_array_end(j);
    }
    json_string(j, "basis", f->basis ? finding_basis_names[f->basis] : NULL);
    json_bool(j, "part_of_total", f->of_total);
    json_object_end(j);
  }
  json_array_end(j);
  json_array_begin(j, "finding_groups");
  for (k = 0; k < ta->n_groups; k++) {
    size_t m;

    json_object_begin(j, NULL);
    json_int(j, "group", ta->groups[k].id);
    json_int(j, "saving_us", ta->groups[k].saving_us);
    json_array_begin(j, "members");
    for (m = 0; m < ta->n_findings; m++)
      if (ta->findings[m].group == ta->groups[k].id)
        json_int(j, NULL, (int64_t)m + 1);
    json_array_end(j);
    json_object_end(j);
  }
  json_array_end(j);
  json_int(j, "findings_nonoverlap_us", ta->nonoverlap_us);
  json_int(j, "findings_total_us", ta->cold_total_us);
  if (ta->check.present) {
    json_object_begin(j, "findings_check");
    json_string(j, "alternative",
                c->plan->targets[ta->check.alternative].name);
    json_int(j, "body_bytes", ta->check.body_bytes);
    json_int(j, "measured_us", ta->check.measured_us);
    json_int(j, "ci_low_us", ta->check.ci_low_us);
    json_int(j, "ci_high_us", ta->check.ci_high_us);
    json_int(j, "savings_us", ta->check.savings_us);
    json_bool(j, "agrees", ta->check.agrees);
    json_object_end(j);
  }
  else
    json_null(j, "findings_check");
}

static void client_obj(struct json *j, const struct analysis *a)
{
  const struct edge_client *cl = &a->client;

  json_object_begin(j, "client");
  json_string(j, "country", cl->country[0] ? cl->country : NULL);
  num(j, "lat", cl->lat, 4);
  num(j, "lon", cl->lon, 4);
  json_string(j, "source",
              cl->source == EDGE_CLIENT_NONE
                  ? NULL
                  : edge_client_source_names[cl->source]);
  json_bool(j, "hidden", cl->hidden);
  json_object_end(j);
}

/* The median difference and its interval of one phase. */
static void ci_fields(struct json *j, const struct compare_result *cr)
{
  static const enum field_compare_id ids[] = {FC_MEDIAN_DIFF_US, FC_CI_LOW_US,
                                              FC_CI_HIGH_US};
  struct field_row r;
  size_t i;

  memset(&r, 0, sizeof(r));
  r.cr = cr;
  for (i = 0; i < ARRAY_SIZE(ids); i++) {
    const struct field *f = &report_compare_fields[ids[i]];
    struct field_value v;

    field_get(f, &r, &v);
    if (v.null)
      json_null(j, f->name);
    else
      json_int(j, f->name, v.i);
  }
}

static void comparison_arr(struct json *j, const struct report_ctx *c)
{
  const struct analysis *a = c->analysis;
  struct field_row r;
  size_t i;
  int ph;

  json_array_begin(j, "comparison");
  for (i = 0; i < a->n_comparisons; i++) {
    const struct comparison *cmp = &a->comparisons[i];
    const struct compare_result *tot = &cmp->phases[SUM_TOTAL];

    json_object_begin(j, NULL);
    json_string(j, "target", c->plan->targets[cmp->target].name);
    json_string(j, "baseline", c->plan->targets[cmp->baseline].name);
    json_string(j, "mode", sample_mode_names[cmp->mode]);
    memset(&r, 0, sizeof(r));
    r.cr = tot;
    r.cmp = cmp;
    field_json(j, report_compare_fields, NULL, &r);
    /* Why the n_dropped rounds were left out. */
    json_int(j, "n_left_failed", (int64_t)cmp->n_left_failed);
    json_int(j, "n_left_interfered", (int64_t)cmp->n_left_interfered);
    if (cmp->n_left_interfered)
      json_int(j, "left_interfered_max_us", cmp->left_interfered_max_us);
    else
      json_null(j, "left_interfered_max_us");
    json_object_begin(j, "phases");
    for (ph = 0; ph < SUM_COUNT; ph++) {
      if (ph == SUM_TOTAL)
        continue;
      json_object_begin(j, sum_phase_names[ph]);
      ci_fields(j, &cmp->phases[ph]);
      json_object_end(j);
    }
    json_object_end(j);
    json_object_begin(j, "parts");
    for (ph = 0; ph < PART_COUNT; ph++) {
      json_object_begin(j, sample_part_names[ph]);
      ci_fields(j, &cmp->parts[ph]);
      json_object_end(j);
    }
    json_object_end(j);
    json_array_begin(j, "explained_by");
    for (ph = 0; ph < (int)cmp->n_explained; ph++) {
      json_object_begin(j, NULL);
      json_string(j, "part", sample_part_names[cmp->explained[ph]]);
      ci_fields(j, &cmp->parts[cmp->explained[ph]]);
      json_object_end(j);
    }
    json_array_end(j);
    json_object_end(j);
  }
  json_array_end(j);
  json_array_begin(j, "drift");
  for (i = 0; i < a->n_drifts; i++) {
    const struct drift *d = &a->drifts[i];

    json_object_begin(j, NULL);
    json_string(j, "target", c->plan->targets[d->target].name);
    json_string(j, "mode", sample_mode_names[d->mode]);
    json_double(j, "rho", d->rho, 3);
    json_int(j, "n", (int64_t)d->n);
    json_bool(j, "significant", d->significant);
    json_int(j, "change_us", d->change_us);
    json_int(j, "median_us", d->median_us);
    json_double(j, "change_pct", d->change_pct, 1);
    json_bool(j, "warning", d->warning);
    json_object_end(j);
  }
  json_array_end(j);
}

static void targets(struct json *j, const struct report_ctx *c)
{
  const struct plan *p = c->plan;
  size_t t, i;

  json_array_begin(j, "targets");
  for (t = 0; t < p->n_targets; t++) {
    const struct target_analysis *ta = &c->analysis->targets[t];
    char *u = report_url(c, p->targets[t].url);

    json_object_begin(j, NULL);
    json_string(j, "name", p->targets[t].name);
    json_string(j, "url", u);
    json_bool(j, "baseline", t == p->baseline);
    if (p->targets[t].vantage)
      json_string(j, "vantage", p->targets[t].vantage);
    free(u);
    json_object_begin(j, "summary");
    for (i = 0; i < p->n_modes; i++) {
      json_object_begin(j, sample_mode_names[p->modes[i]]);
      mode_summary(j, &ta->modes[p->modes[i]]);
      json_object_end(j);
    }
    json_object_end(j);
    cache_arr(j, ta);
    edge_arr(j, ta);
    findings_arr(j, c, ta);
    report_projection_json(c, j, t);
    json_object_end(j);
  }
  json_array_end(j);
}

void report_json_sample(const struct report_ctx *c, struct json *j,
                        const struct sample *s, size_t index,
                        const struct hop_fact *facts)
{
  struct field_row r;
  size_t k;

  field_row_sample(&r, c, s, index, facts);
  field_json(j, report_sample_fields, NULL, &r);
  json_array_begin(j, "hops");
  for (k = 0; k < s->n_hops; k++) {
    field_row_hop(&r, k);
    json_object_begin(j, NULL);
    field_json(j, report_hop_fields, NULL, &r);
    json_object_end(j);
  }
  json_array_end(j);
}

void report_json_head(const struct report_ctx *c, struct json *j)
{
  size_t i;

  json_string(j, "schema", "hopsplit/1");
  json_object_begin(j, "tool");
  json_string(j, "name", "hopsplit");
  json_string(j, "version", HOPSPLIT_VERSION);
  json_string(j, "libraries", c->libraries);
  json_object_end(j);
  settings(j, c);
  time_field(j, "started_at", c->results->started_at_ms);
  time_field(j, "finished_at", c->results->finished_at_ms);
  json_bool(j, "partial", c->results->partial);
  json_bool(j, "insecure", c->plan->opts->insecure);
  json_string(j, "vantage", c->plan->vantage);
  json_int(j, "n_samples", (int64_t)c->analysis->n_samples);
  json_int(j, "n_failed", (int64_t)c->analysis->n_failed);
  client_obj(j, c->analysis);
  targets(j, c);
  comparison_arr(j, c);
  report_projection_json_top(c, j);
  report_checks_json(c, j);
  json_array_begin(j, "traces");
  for (i = 0; i < c->results->n_traces; i++) {
    const struct trace_fetch *t = &c->results->traces[i];

    json_object_begin(j, NULL);
    json_string(j, "origin", t->origin);
    json_string(j, "host", t->host);
    if (t->status)
      json_int(j, "status", t->status);
    else
      json_null(j, "status");
    json_string(j, "error", t->error);
    json_string(j, "body", t->body);
    json_object_end(j);
  }
  json_array_end(j);
}

void report_json(const struct report_ctx *c, struct buf *out)
{
  struct json j;
  size_t i;

  json_init(&j, out, 1);
  json_object_begin(&j, NULL);
  report_json_head(c, &j);
  json_array_begin(&j, "samples");
  for (i = 0; i < c->results->n; i++) {
    json_object_begin(&j, NULL);
    report_json_sample(c, &j, &c->results->samples[i], i, field_facts(c, i));
    json_object_end(&j);
  }
  json_array_end(&j);
  json_object_end(&j);
}
