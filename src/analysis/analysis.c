/*
 * analysis.c: per target and mode, statistics of every phase over the
 * successful samples, per hop index, failure counts, and the median
 * sample.  Input: plan and results.  Output: struct analysis.  Pure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis.h"
#include "xalloc.h"
#include "banned.h"

static void count_status(struct mode_summary *m, long status)
{
  size_t i;

  for (i = 0; i < m->n_statuses && m->statuses[i].status < status; i++)
    ;
  if (i < m->n_statuses && m->statuses[i].status == status) {
    m->statuses[i].n++;
    return;
  }
  if (m->n_statuses == STATUS_KINDS_MAX)
    return;
  memmove(&m->statuses[i + 1], &m->statuses[i],
          (m->n_statuses - i) * sizeof(m->statuses[0]));
  m->statuses[i].status = status;
  m->statuses[i].n = 1;
  m->n_statuses++;
}

static void summarise(struct mode_summary *m, const struct results *r,
                      size_t target, enum sample_mode mode, int keep)
{
  int64_t *v = xmalloc((r->n ? r->n : 1) * sizeof(*v));
  size_t i, k, n, max_hops = 0;
  int ph;

  m->interfered_kept = keep;
  m->interfered_by = IP_COUNT;
  n = 0;
  for (i = 0; i < r->n; i++) {
    const struct sample *s = &r->samples[i];

    if (s->target == target && s->mode == mode && s->control && s->ok)
      v[n++] = s->total_us;
  }
  stats_compute(v, n, &m->control);
  for (i = 0; i < r->n; i++) {
    const struct sample *s = &r->samples[i];

    /* The serial control of --parallel is its own summary (above). */
    if (s->target != target || s->mode != mode || s->control)
      continue;
    m->n_samples++;
    if (s->interfered) {
      m->n_interfered++;
      if (s->interference_us > m->interfered_max_us)
        m->interfered_max_us = s->interference_us;
      for (k = 0; k < IP_COUNT; k++) {
        int64_t part = sample_interference_part(s, (enum interference_part)k);

        /* The run-queue delay is beside interference_us, not in it. */
        if (part > 0 && k != IP_RUNQ)
          m->interfered_parts_us[k] += part;
      }
    }
    if (sample_cpu_waited(s)) {
      m->n_cpu_waited++;
      if (s->runq_us > m->cpu_waited_max_us)
        m->cpu_waited_max_us = s->runq_us;
    }
    count_status(m, s->status);
    if (s->ok) {
      m->n_ok++;
      if (s->n_hops > max_hops)
        max_hops = s->n_hops;
    }
    else {
      m->n_failed++;
      m->failed_by_class[s->err] += 1;
      if (!m->first_error[s->err])
        m->first_error[s->err] = sample_rare(s)->err_message;
    }
  }
  for (ph = 0; ph < SUM_COUNT; ph++) {
    n = 0;
    for (i = 0; i < r->n; i++) {
      const struct sample *s = &r->samples[i];

      if (s->target == target && s->mode == mode && sample_counted(s, keep))
        v[n++] = sample_phase_sum(s, (enum sum_phase)ph);
    }
    stats_compute(v, n, &m->phases[ph]);
  }
  n = 0;
  for (i = 0; i < r->n; i++) {
    const struct sample *s = &r->samples[i];

    if (s->target == target && s->mode == mode && sample_counted(s, keep) &&
        s->idle_us >= 0)
      v[n++] = s->idle_us;
  }
  stats_compute(v, n, &m->idle);
  if (m->control.n && m->phases[SUM_TOTAL].n) {
    m->control_diff_us = m->phases[SUM_TOTAL].p50 - m->control.p50;
    if (m->control.p50 > 0)
      m->control_diff_pct =
          100.0 * (double)m->control_diff_us / (double)m->control.p50;
  }
  /* The median sample: the one whose total equals the median total; the
   * earliest such sample when several tie. */
  m->median_sample = -1;
  for (i = 0; i < r->n && m->n_ok; i++) {
    const struct sample *s = &r->samples[i];

    if (s->target == target && s->mode == mode && sample_counted(s, keep) &&
        s->total_us == m->phases[SUM_TOTAL].p50) {
      m->median_sample = (long)i;
      break;
    }
  }
  m->n_hops = max_hops;
  m->hops = max_hops ? xcalloc(max_hops, sizeof(*m->hops)) : NULL;
  for (k = 0; k < max_hops; k++) {
    m->hops[k].hop = k + 1;
    for (ph = 0; ph < PHASE_COUNT; ph++) {
      n = 0;
      for (i = 0; i < r->n; i++) {
        const struct sample *s = &r->samples[i];

        if (s->target == target && s->mode == mode &&
            sample_counted(s, keep) && s->n_hops > k)
          v[n++] = s->hops[k].phases[ph];
      }
      stats_compute(v, n, &m->hops[k].phases[ph]);
    }
  }
  for (k = 0; k < IP_COUNT; k++)
    if (m->interfered_parts_us[k] > 0 &&
        (m->interfered_by == IP_COUNT ||
         m->interfered_parts_us[k] > m->interfered_parts_us[m->interfered_by]))
      m->interfered_by = (enum interference_part)k;
  free(v);
}

void analysis_build(struct analysis *a, const struct plan *p,
                    const struct results *r)
{
  size_t t, i;

  memset(a, 0, sizeof(*a));
  a->n_targets = p->n_targets;
  a->targets = xcalloc(p->n_targets ? p->n_targets : 1, sizeof(*a->targets));
  for (t = 0; t < p->n_targets; t++) {
    for (i = 0; i < p->n_modes; i++) {
      struct mode_summary *m = &a->targets[t].modes[p->modes[i]];

      m->present = 1;
      summarise(m, r, t, p->modes[i], p->opts->keep_interfered);
    }
  }
  a->n_samples = r->n;
  for (i = 0; i < r->n; i++)
    if (!r->samples[i].ok)
      a->n_failed++;
  analysis_cdn_build(p, r, a);
  /* A --parallel batch is not interleaved by rounds: nothing pairs. */
  if (p->opts->parallel <= 1)
    analysis_compare_build(p, r, a);
  analysis_bodies(r, a);
  for (t = 0; t < p->n_targets; t++)
    findings_build(p, r, a, t);
  projections_build(p, r, a);
}

/* The final hop of the median sample of target t in mode m, or NULL. */
static const struct hop *median_body(const struct results *r,
                                     const struct analysis *a, size_t t,
                                     enum sample_mode m)
{
  long i = a->targets[t].modes[m].median_sample;

  if (i < 0 || !r->samples[i].n_hops)
    return NULL;
  return &r->samples[i].hops[r->samples[i].n_hops - 1];
}

void analysis_bodies(const struct results *r, struct analysis *a)
{
  size_t i;
  int k;

  for (i = 0; i < a->n_comparisons; i++) {
    struct comparison *c = &a->comparisons[i];
    size_t side[2] = {c->target, c->baseline};
    int64_t d;

    c->bodies_differ = 0;
    for (k = 0; k < 2; k++) {
      const struct hop *h = median_body(r, a, side[k], c->mode);
      const char *ct = h ? hop_header(h, "content-type") : NULL;

      c->body_bytes[k] = h ? h->info->size_download : -1;
      while (ct && *ct == ' ')
        ct++;
      snprintf(c->body_type[k], sizeof(c->body_type[k]), "%.*s",
               ct ? (int)strcspn(ct, "; ") : 0, ct ? ct : "");
    }
    if (c->body_bytes[0] < 0 || c->body_bytes[1] < 0)
      continue;
    d = c->body_bytes[0] - c->body_bytes[1];
    c->bodies_differ = (d < 0 ? -d : d) * 100 > c->body_bytes[1] ||
                       strcasecmp(c->body_type[0], c->body_type[1]);
  }
}

void analysis_release(struct analysis *a)
{
  size_t t, k;
  int m;

  for (t = 0; t < a->n_targets; t++) {
    struct target_analysis *ta = &a->targets[t];

    for (m = 0; m < MODE_COUNT; m++)
      free(ta->modes[m].hops);
    for (k = 0; k < ta->n_cache; k++) {
      free(ta->cache[k].host);
      cache_result_release(&ta->cache[k].result);
    }
    free(ta->cache);
    for (k = 0; k < ta->n_edge; k++)
      edge_result_release(&ta->edge[k]);
    free(ta->edge);
    for (k = 0; k < ta->n_findings; k++)
      finding_release(&ta->findings[k]);
    free(ta->findings);
    free(ta->groups);
    for (k = 0; k < ta->n_removes; k++)
      free(ta->removes ? ta->removes[k] : NULL);
    free(ta->removes);
  }
  projections_release(&a->proj);
  free(a->facts);
  free(a->comparisons);
  free(a->drifts);
  free(a->targets);
  memset(a, 0, sizeof(*a));
}
