/*
 * report_prom.c: Prometheus text exposition format (0.0.4) for
 * node_exporter's textfile collector (written by prom.c's helpers, which
 * hopsplit serve shares).  Every family has
 * HELP and TYPE lines; durations are in seconds (the base unit), written
 * exactly from integer microseconds.  quantile "0" is the minimum and "1"
 * the maximum.  Label values are names (targets as given, modes, phases,
 * error classes, cache verdicts, POP codes, check numbers), never free
 * text: a verdict is a value (-1 faster, 0 no clear difference, 1
 * slower), so series do not churn between runs.
 *
 * Input: plan, results and analysis, through the field table for the
 * statistics (report_fields.h).  Per target and mode: phase quantiles,
 * sample and failure counts, a success gauge and the final HTTP status;
 * the cache, edge, comparison and check series when the run has them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arraysize.h"
#include "check.h"
#include "prom.h"
#include "report.h"
#include "report_fields.h"
#include "xalloc.h"
#include "banned.h"

/* "NAME{target="T",mode="M"" (the rest of the labels and the value are
 * the caller's). */
static void series(struct buf *out, const char *name, const char *target,
                   const char *mode)
{
  buf_printf(out, "%s{", name);
  prom_label(out, "target", target, 1);
  if (mode)
    prom_label(out, "mode", mode, 0);
}

static void phases(struct buf *out, const struct report_ctx *c)
{
  const struct plan *p = c->plan;
  const struct field *f, *n = &report_stat_fields[FT_N];
  struct field_row r;
  size_t t, m;
  int ph;

  prom_family(out, "hopsplit_phase_seconds", "summary",
              "Phase duration per target and mode over successful samples "
              "(quantile 0 is the minimum, 1 the maximum; no _sum).");
  memset(&r, 0, sizeof(r));
  for (t = 0; t < p->n_targets; t++)
    for (m = 0; m < p->n_modes; m++) {
      const struct mode_summary *ms =
          &c->analysis->targets[t].modes[p->modes[m]];
      const char *mode = sample_mode_names[p->modes[m]];

      for (ph = 0; ph < SUM_COUNT; ph++) {
        struct field_value v;

        r.st = &ms->phases[ph];
        for (f = report_stat_fields; f->name; f++) {
          if (!f->quantile)
            continue;
          field_get(f, &r, &v);
          if (!v.null) {
            series(out, "hopsplit_phase_seconds", p->targets[t].name, mode);
            prom_label(out, "phase", sum_phase_names[ph], 0);
            prom_label(out, "quantile", f->quantile, 0);
            buf_puts(out, "} ");
            prom_seconds(out, v.i);
            buf_putc(out, '\n');
          }
          field_value_release(&v);
        }
        field_get(n, &r, &v);
        series(out, "hopsplit_phase_seconds_count", p->targets[t].name, mode);
        prom_label(out, "phase", sum_phase_names[ph], 0);
        buf_printf(out, "} %lld\n", (long long)v.i);
      }
    }
}

/* The last sample measured of target t in mode (NULL if none). */
static const struct sample *last_sample(const struct results *res, size_t t,
                                        enum sample_mode mode)
{
  size_t i;

  for (i = res->n; i-- > 0;)
    if (res->samples[i].target == t && res->samples[i].mode == mode)
      return &res->samples[i];
  return NULL;
}

static void per_mode(struct buf *out, const struct report_ctx *c)
{
  const struct plan *p = c->plan;
  size_t t, m;
  int e, which;

  for (which = 0; which < 4; which++) {
    if (which == 0)
      prom_family(out, "hopsplit_samples_total", "counter",
                  "Samples measured per target and mode.");
    else if (which == 1)
      prom_family(out, "hopsplit_sample_failures_total", "counter",
                  "Failed samples per target, mode and error class.");
    else if (which == 2)
      prom_family(
          out, "hopsplit_success", "gauge",
          "1 when every sample of the target and mode succeeded, else 0.");
    else
      prom_family(
          out, "hopsplit_http_status", "gauge",
          "Final HTTP status of the last sample of the target and mode "
          "(0 without a response).");
    for (t = 0; t < p->n_targets; t++)
      for (m = 0; m < p->n_modes; m++) {
        const struct mode_summary *ms =
            &c->analysis->targets[t].modes[p->modes[m]];
        const char *name = p->targets[t].name;
        const char *mode = sample_mode_names[p->modes[m]];

        if (which == 0) {
          series(out, "hopsplit_samples_total", name, mode);
          buf_printf(out, "} %zu\n", ms->n_samples);
        }
        else if (which == 1) {
          for (e = ERR_NONE + 1; e < ERR_COUNT; e++) {
            series(out, "hopsplit_sample_failures_total", name, mode);
            prom_label(out, "class", err_class_names[e], 0);
            buf_printf(out, "} %zu\n", ms->failed_by_class[e]);
          }
        }
        else if (which == 2) {
          series(out, "hopsplit_success", name, mode);
          buf_printf(out, "} %d\n", ms->n_samples && !ms->n_failed ? 1 : 0);
        }
        else {
          const struct sample *s = last_sample(c->results, t, p->modes[m]);
          struct field_row r;
          struct field_value v;

          memset(&v, 0, sizeof(v));
          v.null = 1;
          if (s) {
            field_row_sample(&r, c, s, 0, NULL);
            field_get(&report_sample_status, &r, &v);
          }
          series(out, "hopsplit_http_status", name, mode);
          buf_printf(out, "} %lld\n", v.null ? 0LL : (long long)v.i);
        }
      }
  }
}

/* hopsplit_probe_interference_part_seconds{target,mode,part}, as serve
 * gives a probe's: the parts of the most disturbed sample of each target
 * and mode (the largest interference_us, the first of equals), one series
 * per part measured (none for a part not measured, none without a
 * sample). */
static void interference_parts(struct buf *out, const struct report_ctx *c)
{
  const struct plan *p = c->plan;
  size_t t, m, i;
  int done = 0, k;

  for (t = 0; t < p->n_targets; t++)
    for (m = 0; m < p->n_modes; m++) {
      const struct sample *most = NULL;

      for (i = 0; i < c->results->n; i++) {
        const struct sample *s = &c->results->samples[i];

        if (s->target == t && s->mode == p->modes[m] &&
            (!most || s->interference_us > most->interference_us))
          most = s;
      }
      for (k = 0; most && k < IP_COUNT; k++) {
        int64_t v = sample_interference_part(most, (enum interference_part)k);

        if (v < 0)
          continue;
        prom_family_once(
            out, &done, "hopsplit_probe_interference_part_seconds", "gauge",
            "The parts of hopsplit_probe_interference_seconds, of the most "
            "disturbed sample of the target and mode: late (the loop busy "
            "with other work), own (hopsplit's callbacks), runq (waiting "
            "for a CPU, not in the sum), lock (waiting for hopsplit's "
            "locks), output (writing output).");
        series(out, "hopsplit_probe_interference_part_seconds",
               p->targets[t].name, sample_mode_names[p->modes[m]]);
        prom_label(out, "part", interference_part_names[k], 0);
        buf_puts(out, "} ");
        prom_seconds(out, v);
        buf_putc(out, '\n');
      }
    }
}

/* The interference of the samples of each target and mode, named as
 * serve names a probe's (hopsplit_probe_interference_seconds, the
 * largest over the samples: the most any stamp can be late; no series
 * for a target and mode without a sample that has it), and how many
 * passed the threshold. */
static void interference(struct buf *out, const struct report_ctx *c)
{
  const struct plan *p = c->plan;
  size_t t, m, i;

  prom_family(
      out, "hopsplit_probe_interference_seconds", "gauge",
      "The most any of the samples' stamps can be late: the largest "
      "delay between one of their sockets or timers being ready and the "
      "measuring loop handling it, per target and mode.");
  for (t = 0; t < p->n_targets; t++)
    for (m = 0; m < p->n_modes; m++) {
      int64_t most = -1;

      for (i = 0; i < c->results->n; i++) {
        const struct sample *s = &c->results->samples[i];

        if (s->target == t && s->mode == p->modes[m] &&
            s->interference_us > most)
          most = s->interference_us;
      }
      /* No sample of this target and mode (an interrupted run), or none
       * with the figure (an old document): no series, never 0. */
      if (most < 0)
        continue;
      series(out, "hopsplit_probe_interference_seconds", p->targets[t].name,
             sample_mode_names[p->modes[m]]);
      buf_puts(out, "} ");
      prom_seconds(out, most);
      buf_puts(out, "\n");
    }
  interference_parts(out, c);
  prom_family(out, "hopsplit_interfered_samples_total", "counter",
              "Samples past the interference threshold, per target and mode "
              "(left out of the statistics unless --keep-interfered).");
  for (t = 0; t < p->n_targets; t++)
    for (m = 0; m < p->n_modes; m++) {
      series(out, "hopsplit_interfered_samples_total", p->targets[t].name,
             sample_mode_names[p->modes[m]]);
      buf_printf(out, "} %zu\n",
                 c->analysis->targets[t].modes[p->modes[m]].n_interfered);
    }
}

/* hopsplit_final_status_total: samples per final HTTP status ("0" when
 * no response came), per target and mode. */
static void statuses(struct buf *out, const struct report_ctx *c)
{
  const struct plan *p = c->plan;
  size_t t, m, k;

  prom_family(
      out, "hopsplit_final_status_total", "counter",
      "Samples per final HTTP status (0: no response), target and mode.");
  for (t = 0; t < p->n_targets; t++)
    for (m = 0; m < p->n_modes; m++) {
      const struct mode_summary *ms =
          &c->analysis->targets[t].modes[p->modes[m]];

      for (k = 0; k < ms->n_statuses; k++) {
        char code[24];

        snprintf(code, sizeof(code), "%ld", ms->statuses[k].status);
        series(out, "hopsplit_final_status_total", p->targets[t].name,
               sample_mode_names[p->modes[m]]);
        prom_label(out, "status", code, 0);
        buf_printf(out, "} %zu\n", ms->statuses[k].n);
      }
    }
}

/* hopsplit_cache_verdict and hopsplit_edge_distance_km of every target,
 * as hopsplit serve writes them (prom.c). */
static void cache_edge(struct buf *out, const struct report_ctx *c)
{
  const struct plan *p = c->plan;
  size_t t;
  int done = 0;

  for (t = 0; t < p->n_targets; t++)
    prom_cache_verdict(out, &done, p->targets[t].name,
                       &c->analysis->targets[t]);
  done = 0;
  for (t = 0; t < p->n_targets; t++)
    prom_edge_distance(out, &done, p->targets[t].name,
                       &c->analysis->targets[t]);
}

/* The transport of each target's median sample of each mode (its hop
 * chain in the text). */
static void transport(struct buf *out, const struct report_ctx *c)
{
  const struct plan *p = c->plan;
  struct prom_hop_src *v;
  size_t t, m, n = 0;

  v = xcalloc(p->n_targets * p->n_modes + 1, sizeof(*v));
  for (t = 0; t < p->n_targets; t++)
    for (m = 0; m < p->n_modes; m++) {
      const struct mode_summary *ms =
          &c->analysis->targets[t].modes[p->modes[m]];

      if (!ms->present || ms->median_sample < 0 ||
          (size_t)ms->median_sample >= c->results->n)
        continue;
      v[n].target = p->targets[t].name;
      v[n].mode = sample_mode_names[p->modes[m]];
      v[n++].s = &c->results->samples[ms->median_sample];
    }
  prom_transport(out, v, n);
  free(v);
}

/* The paired comparison to the baseline: the verdict as a number, the
 * median difference of totals and its interval. */
static void comparison(struct buf *out, const struct report_ctx *c)
{
  static const struct {
    const char *name;
    enum field_compare_id field;
    const char *help;
  } fams[] = {
      {"hopsplit_comparison_verdict", FC_VERDICT,
       "Verdict of the paired comparison of totals to the baseline: -1 "
       "faster, 0 no clear difference, 1 slower."},
      {"hopsplit_comparison_median_diff_seconds", FC_MEDIAN_DIFF_US,
       "Median paired difference of totals to the baseline (negative: "
       "faster)."},
      {"hopsplit_comparison_ci_low_seconds", FC_CI_LOW_US,
       "Lower end of the interval of the median paired difference."},
      {"hopsplit_comparison_ci_high_seconds", FC_CI_HIGH_US,
       "Upper end of the interval of the median paired difference."},
  };
  const struct analysis *a = c->analysis;
  size_t i, f;

  if (!a->n_comparisons)
    return;
  for (f = 0; f < ARRAY_SIZE(fams); f++) {
    const struct field *fld = &report_compare_fields[fams[f].field];

    prom_family(out, fams[f].name, "gauge", fams[f].help);
    for (i = 0; i < a->n_comparisons; i++) {
      const struct comparison *cmp = &a->comparisons[i];
      const struct compare_result *tot = &cmp->phases[SUM_TOTAL];
      struct field_row r;
      struct field_value v;

      memset(&r, 0, sizeof(r));
      r.cr = tot;
      r.cmp = cmp;
      field_get(fld, &r, &v);
      if (f > 0 && v.null) {
        field_value_release(&v);
        continue;
      }
      series(out, fams[f].name, c->plan->targets[cmp->target].name,
             sample_mode_names[cmp->mode]);
      prom_label(out, "baseline", c->plan->targets[cmp->baseline].name, 0);
      if (tot->unpaired)
        prom_label(out, "paired", "false", 0);
      buf_puts(out, "} ");
      if (f == 0)
        buf_puts(out, tot->verdict == COMPARE_FASTER   ? "-1"
                      : tot->verdict == COMPARE_SLOWER ? "1"
                                                       : "0");
      else
        prom_seconds(out, v.i);
      buf_putc(out, '\n');
      field_value_release(&v);
    }
  }
}

/* A profile run's checks: pass as 1/0 and the measured value, numbered
 * as in the profile. */
static void checks(struct buf *out, const struct report_ctx *c)
{
  const struct check_set *cs = c->plan->checks;
  size_t i;
  int pass;

  if (!cs || !cs->n || !cs->evaluated)
    return;
  for (pass = 1; pass >= 0; pass--) {
    if (pass)
      prom_family(
          out, "hopsplit_check_pass", "gauge",
          "1 when the profile check passed, 0 when it failed (check: its "
          "number in the profile).");
    else
      prom_family(out, "hopsplit_check_value_seconds", "gauge",
                  "What a metric or compare check measured.");
    for (i = 0; i < cs->n; i++) {
      const struct check *k = &cs->v[i];
      char num[24];

      if (!pass && !k->has_value)
        continue;
      snprintf(num, sizeof(num), "%zu", i + 1);
      series(out,
             pass ? "hopsplit_check_pass" : "hopsplit_check_value_seconds",
             c->plan->targets[k->target].name, check_mode_word(k));
      prom_label(out, "check", num, 0);
      prom_label(out, "kind", check_kind_names[k->kind], 0);
      buf_puts(out, "} ");
      if (pass)
        buf_puts(out, k->pass ? "1" : "0");
      else
        prom_seconds(out, k->value_us);
      buf_putc(out, '\n');
    }
  }
  prom_family(out, "hopsplit_checks_failed", "gauge",
              "Number of the profile's checks that failed.");
  buf_printf(out, "hopsplit_checks_failed %zu\n", cs->n_failed);
}

void report_prom(const struct report_ctx *c, struct buf *out)
{
  phases(out, c);
  per_mode(out, c);
  interference(out, c);
  statuses(out, c);
  cache_edge(out, c);
  transport(out, c);
  comparison(out, c);
  checks(out, c);
  prom_family(out, "hopsplit_tls_verify_disabled", "gauge",
              "1 when TLS certificates were not verified (-k).");
  buf_printf(out, "hopsplit_tls_verify_disabled %d\n",
             c->plan->opts->insecure ? 1 : 0);
  if (c->plan->vantage) {
    prom_family(out, "hopsplit_run_info", "gauge",
                "Where the run measured (--vantage, else the host name).");
    buf_puts(out, "hopsplit_run_info{");
    prom_label(out, "vantage", c->plan->vantage, 1);
    buf_puts(out, "} 1\n");
  }
  prom_family(out, "hopsplit_partial", "gauge",
              "1 when the run was interrupted before every sample ran.");
  buf_printf(out, "hopsplit_partial %d\n", c->results->partial ? 1 : 0);
  prom_family(out, "hopsplit_run_finished_timestamp_seconds", "gauge",
              "When the run finished, seconds since the epoch.");
  buf_printf(out, "hopsplit_run_finished_timestamp_seconds %lld.%03lld\n",
             (long long)(c->results->finished_at_ms / 1000),
             (long long)(c->results->finished_at_ms % 1000));
}
