/*
 * report_projection.c: --project in every format (report_projection.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "report_projection.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

/* Callers hold t < n_targets and k < n_nets. */
static const struct target_projection *tproj(const struct report_ctx *c,
                                             size_t t, size_t k)
{
  const struct projections *ps = &c->analysis->proj;

  return &ps->targets[t * ps->n_nets + k];
}

static void msv(char *out, size_t len, int64_t us)
{
  snprintf(out, len, "%.1f", (double)us / 1000.0);
}

static void msd(char *out, size_t len, int64_t us)
{
  snprintf(out, len, "%+.1f", (double)us / 1000.0);
}

/* "slow-4g (RTT 150 ms, 1.6 Mbit/s down, 750 kbit/s up)" */
static void net_words(const struct net_profile *np, char *out, size_t len)
{
  char rtt[UNITS_FMT_SIZE], down[24], up[24];

  units_format_us(np->rtt_us, rtt, sizeof(rtt));
  netprofile_format_rate(np->down_bps, down, sizeof(down));
  netprofile_format_rate(np->up_bps, up, sizeof(up));
  if (np->loss_ppm)
    snprintf(out, len, "%s (RTT %s, %s down, %s up, loss %g %%)", np->name,
             rtt, down, up, np->loss_ppm / 10000.0);
  else
    snprintf(out, len, "%s (RTT %s, %s down, %s up)", np->name, rtt, down, up);
}

static const char *const cols[] = {"dns",  "connect",  "tls",  "send",
                                   "wait", "transfer", "total"};

void report_projection_text(const struct report_ctx *c, struct buf *b,
                            size_t t)
{
  const struct projections *ps = &c->analysis->proj;
  const struct target_analysis *ta = &c->analysis->targets[t];
  size_t k, i, h;
  int m;

  for (k = 0; k < ps->n_nets; k++) {
    const struct target_projection *tp = tproj(c, t, k);
    char words[256];

    net_words(&ps->nets[k], words, sizeof(words));
    buf_printf(b, "\n  projected onto %s\n", words);
    for (m = 0; m < MODE_COUNT; m++) {
      const struct projection *pj = &tp->modes[m];
      char a[32], bb[32], f[32];

      if (!pj->present)
        continue;
      buf_printf(b, "    %-5s %-4s", sample_mode_names[m], "hop");
      for (i = 0; i < 7; i++)
        buf_printf(b, " %9s", cols[i]);
      buf_printf(b, " %6s  (ms)\n", "rtts");
      for (h = 0; h < pj->n_hops; h++) {
        const struct proj_hop *ph = &pj->hops[h];

        buf_printf(b, "    %-5s %-4zu", "", h + 1);
        for (i = 0; i < PHASE_COUNT; i++) {
          msv(a, sizeof(a), ph->phases[i]);
          buf_printf(b, " %9s", a);
        }
        buf_printf(b, " %6d\n", (int)ph->round_trips);
      }
      units_format_us(pj->total_us, a, sizeof(a));
      units_format_us(pj->measured_us, bb, sizeof(bb));
      units_format_us(pj->floor_us, f, sizeof(f));
      buf_printf(b,
                 "    %-5s total %s projected, %s measured; %d round trips "
                 "(at least %s); server time: %s\n",
                 "", a, bb, (int)pj->round_trips, f,
                 pj->server_basis ? pj->server_basis : "-");
    }
    if (tp->n_findings) {
      buf_printf(b, "    findings on %s (largest saving there first):\n",
                 ps->nets[k].name);
      for (i = 0; i < tp->n_findings; i++) {
        const struct proj_finding *pf = &tp->findings[i];
        const struct finding *fd = &ta->findings[pf->finding];
        char s1[32], s2[32];

        units_format_us(pf->saving_us, s1, sizeof(s1));
        units_format_us(fd->saving_us, s2, sizeof(s2));
        buf_printf(b,
                   "    %zu. [%s] saving up to %s there (%s measured, #%zu "
                   "measured%s): %s\n",
                   i + 1, finding_kind_names[fd->kind], s1, s2,
                   pf->finding + 1, pf->scaled ? "" : "; kept in ms",
                   report_vis(fd->title));
      }
    }
  }
}

void report_projection_comparisons_text(const struct report_ctx *c,
                                        struct buf *b)
{
  const struct projections *ps = &c->analysis->proj;
  size_t i;

  if (!ps->n_comparisons)
    return;
  buf_puts(b, "\ncomparison on each network (each round's pair projected; "
              "median difference and 95 % interval of the pairs)\n");
  for (i = 0; i < ps->n_comparisons; i++) {
    const struct proj_comparison *pc = &ps->comparisons[i];
    const struct comparison *cmp = &c->analysis->comparisons[pc->comparison];
    const struct compare_result *cr = &cmp->phases[SUM_TOTAL];
    char d[32], lo[32], hi[32], md[32];

    msd(d, sizeof(d), pc->median_diff_us);
    msd(lo, sizeof(lo), pc->ci_low_us);
    msd(hi, sizeof(hi), pc->ci_high_us);
    msd(md, sizeof(md), cr->median_diff_us);
    buf_printf(b,
               "  %-10s %-12s vs %-12s %-5s %9s ms [%s, %s] %s "
               "(measured %s ms, %s)\n",
               ps->nets[pc->net].name,
               report_vis(c->plan->targets[cmp->target].name),
               report_vis(c->plan->targets[cmp->baseline].name),
               sample_mode_names[cmp->mode], d, lo, hi,
               compare_verdict_name(pc->verdict), md,
               compare_verdict_name(cr->verdict));
  }
}

void report_projection_brief(const struct report_ctx *c, struct buf *b)
{
  const struct projections *ps = &c->analysis->proj;
  size_t t, k;
  int m;

  for (t = 0; t < ps->n_targets; t++)
    for (k = 0; k < ps->n_nets; k++)
      for (m = 0; m < MODE_COUNT; m++) {
        const struct projection *pj = &tproj(c, t, k)->modes[m];
        char a[32], bb[32];

        if (!pj->present)
          continue;
        units_format_us(pj->total_us, a, sizeof(a));
        units_format_us(pj->measured_us, bb, sizeof(bb));
        buf_printf(b, "%s %s on %s: %s projected (%s measured)\n",
                   report_vis(c->plan->targets[t].name), sample_mode_names[m],
                   ps->nets[k].name, a, bb);
      }
}

static void json_net(struct json *j, const struct net_profile *np)
{
  json_string(j, "network", np->name);
  json_int(j, "rtt_us", np->rtt_us);
  json_int(j, "down_bps", np->down_bps);
  json_int(j, "up_bps", np->up_bps);
  json_double(j, "loss_pct", np->loss_ppm / 10000.0, 4);
}

void report_projection_json(const struct report_ctx *c, struct json *j,
                            size_t t)
{
  const struct projections *ps = &c->analysis->proj;
  const struct target_analysis *ta = &c->analysis->targets[t];
  size_t k, h, i;
  int m;

  if (!ps->n_nets)
    return;
  json_array_begin(j, "projection");
  for (k = 0; k < ps->n_nets; k++) {
    const struct target_projection *tp = tproj(c, t, k);

    for (m = 0; m < MODE_COUNT; m++) {
      const struct projection *pj = &tp->modes[m];

      if (!pj->present)
        continue;
      json_object_begin(j, NULL);
      json_net(j, &ps->nets[k]);
      json_string(j, "mode", sample_mode_names[m]);
      json_int(j, "sample", (int64_t)pj->sample);
      json_int(j, "measured_total_us", pj->measured_us);
      json_int(j, "total_us", pj->total_us);
      json_int(j, "other_us", pj->other_us);
      json_int(j, "round_trips", pj->round_trips);
      json_int(j, "floor_us", pj->floor_us);
      json_string(j, "server_basis", pj->server_basis);
      json_array_begin(j, "hops");
      for (h = 0; h < pj->n_hops; h++) {
        const struct proj_hop *ph = &pj->hops[h];

        json_object_begin(j, NULL);
        json_int(j, "hop", (int64_t)h + 1);
        json_object_begin(j, "phases_us");
        for (i = 0; i < PHASE_COUNT; i++)
          json_int(j, phase_names[i], ph->phases[i]);
        json_object_end(j);
        json_object_begin(j, "measured_us");
        for (i = 0; i < PHASE_COUNT; i++)
          json_int(j, phase_names[i], ph->measured[i]);
        json_object_end(j);
        json_int(j, "rtt_us", ph->rtt_us);
        json_int(j, "server_us", ph->server_us);
        json_int(j, "response_bytes", ph->response_bytes);
        json_int(j, "window_bytes", ph->window_bytes);
        json_int(j, "round_trips", ph->round_trips);
        json_int(j, "body_rounds", ph->body_rounds);
        json_object_end(j);
      }
      json_array_end(j);
      if (m == MODE_COLD) {
        json_array_begin(j, "findings");
        for (i = 0; i < tp->n_findings; i++) {
          const struct proj_finding *pf = &tp->findings[i];
          const struct finding *fd = &ta->findings[pf->finding];

          json_object_begin(j, NULL);
          json_string(j, "kind", finding_kind_names[fd->kind]);
          json_int(j, "hop", fd->hop);
          json_int(j, "rank", (int64_t)i + 1);
          json_int(j, "measured_rank", (int64_t)pf->finding + 1);
          json_int(j, "saving_us", pf->saving_us);
          json_int(j, "measured_saving_us", fd->saving_us);
          json_string(j, "basis", pf->scaled ? "projected" : "kept");
          json_object_end(j);
        }
        json_array_end(j);
      }
      json_object_end(j);
    }
  }
  json_array_end(j);
}

void report_projection_json_settings(const struct report_ctx *c,
                                     struct json *j)
{
  const struct options *o = c->plan->opts;
  size_t k;

  if (!o->n_project)
    return;
  json_array_begin(j, "project");
  for (k = 0; k < o->n_project; k++) {
    char v[200];

    netprofile_format(&o->project[k], v, sizeof(v));
    json_string(j, NULL, v);
  }
  json_array_end(j);
}

void report_projection_json_top(const struct report_ctx *c, struct json *j)
{
  const struct projections *ps = &c->analysis->proj;
  size_t i;

  if (!ps->n_nets)
    return;
  json_array_begin(j, "projected_comparison");
  for (i = 0; i < ps->n_comparisons; i++) {
    const struct proj_comparison *pc = &ps->comparisons[i];
    const struct comparison *cmp = &c->analysis->comparisons[pc->comparison];
    const struct compare_result *cr = &cmp->phases[SUM_TOTAL];

    json_object_begin(j, NULL);
    json_string(j, "network", ps->nets[pc->net].name);
    json_string(j, "target", c->plan->targets[cmp->target].name);
    json_string(j, "baseline", c->plan->targets[cmp->baseline].name);
    json_string(j, "mode", sample_mode_names[cmp->mode]);
    json_int(j, "median_diff_us", pc->median_diff_us);
    json_int(j, "ci_low_us", pc->ci_low_us);
    json_int(j, "ci_high_us", pc->ci_high_us);
    if (isnan(pc->change_pct))
      json_null(j, "change_pct");
    else
      json_double(j, "change_pct", pc->change_pct, 1);
    json_string(j, "verdict", compare_verdict_name(pc->verdict));
    json_int(j, "measured_median_diff_us", cr->median_diff_us);
    json_int(j, "measured_ci_low_us", cr->ci_low_us);
    json_int(j, "measured_ci_high_us", cr->ci_high_us);
    json_string(j, "measured_verdict", compare_verdict_name(cr->verdict));
    json_object_end(j);
  }
  json_array_end(j);
}

void report_projection_html(const struct report_ctx *c, struct buf *b,
                            size_t t)
{
  const struct projections *ps = &c->analysis->proj;
  size_t k, i;
  int m;

  if (!ps->n_nets)
    return;
  for (m = 0; m < MODE_COUNT; m++) {
    const struct projection *first = &tproj(c, t, 0)->modes[m];

    if (!first->present)
      continue;
    buf_printf(b,
               "<h3>Projection (%s)</h3>\n<table class=\"proj\"><tr>"
               "<th>phase</th><th>measured</th>",
               sample_mode_names[m]);
    for (k = 0; k < ps->n_nets; k++) {
      char words[256];
      struct buf e;

      net_words(&ps->nets[k], words, sizeof(words));
      buf_init(&e, 0);
      for (const char *p = words; *p; p++)
        if (*p == '<')
          buf_puts(&e, "&lt;");
        else if (*p == '&')
          buf_puts(&e, "&amp;");
        else
          buf_putc(&e, *p);
      buf_printf(b, "<th>%s</th>", e.s);
      buf_release(&e);
    }
    buf_puts(b, "</tr>\n");
    for (i = 0; i < PHASE_COUNT; i++) {
      int64_t meas = 0;
      size_t h;

      for (h = 0; h < first->n_hops; h++)
        meas += first->hops[h].measured[i];
      if (i == PHASE_TOTAL)
        meas = first->measured_us;
      buf_printf(b, "<tr><td>%s</td><td>%.1f ms</td>", phase_names[i],
                 (double)meas / 1000.0);
      for (k = 0; k < ps->n_nets; k++) {
        const struct projection *pj = &tproj(c, t, k)->modes[m];
        int64_t v = 0;

        for (h = 0; h < pj->n_hops; h++)
          v += pj->hops[h].phases[i];
        if (i == PHASE_TOTAL)
          v = pj->total_us;
        buf_printf(b, "<td>%.1f ms</td>", (double)v / 1000.0);
      }
      buf_puts(b, "</tr>\n");
    }
    buf_puts(b, "</table>\n");
  }
}
