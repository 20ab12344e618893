/*
 * projection.c: the samples of a run projected onto other networks
 * (projection.h, hopsplit(1) PROJECTION), and the findings and comparison
 * verdicts re-ranked there.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "projection.h"
#include "xalloc.h"
#include "banned.h"

/* Microseconds to serialise bytes of payload at bps: the rate counts IP
 * packets, each segment of PROJ_MSS bytes carries PROJ_HEADER bytes of
 * IPv4 and TCP headers. */
static int64_t ser_us(int64_t bytes, int64_t bps)
{
  int64_t wire;

  if (bytes <= 0 || bps <= 0)
    return 0;
  wire = bytes + (bytes + PROJ_MSS - 1) / PROJ_MSS * PROJ_HEADER;
  return (int64_t)((double)wire * 8e6 / (double)bps + 0.5);
}

int64_t projection_body_us(int64_t bytes, int64_t first, int64_t rtt_us,
                           int64_t down_bps, int64_t window, int64_t *first_us,
                           int32_t *rounds, int64_t *window_end)
{
  /* Times at the link's entry: window k may enter at sent, when the ACK
   * of the first packet of the window before has come back; the link
   * serialises one window after the other (begin..end). */
  int64_t left = bytes, done = 0, sent = 0, end = 0;
  int64_t pkt = ser_us(PROJ_MSS, down_bps);
  int32_t k = 0;

  if (window < PROJ_MSS)
    window = PROJ_MSS;
  if (first_us)
    *first_us = 0;
  /* Bounded: one window a turn, and the last turn takes the rest. */
  while (left > 0) {
    int64_t w = left < window || k == PROJ_ROUNDS_MAX - 1 ? left : window;
    int64_t begin = sent > end ? sent : end;

    end = begin + ser_us(w, down_bps);
    if (first_us && first > done && first <= done + w)
      *first_us = begin + ser_us(first - done, down_bps);
    sent = begin + pkt + rtt_us;
    done += w;
    left -= w;
    k++;
    if (left > 0 && window < INT64_C(1) << 40)
      window *= 2;
  }
  if (rounds)
    *rounds = k;
  if (window_end)
    *window_end = window;
  return end;
}

int projection_tls_rounds(const struct hop *h)
{
  if (!h->tls->version)
    return -1;
  if (h->info->http_version && !strcmp(h->info->http_version, "3"))
    return 0;
  if (h->tls->resumed == 1)
    return 1;
  if (!strcmp(h->tls->version, "TLSv1.2") ||
      !strcmp(h->tls->version, "TLSv1.1") || !strcmp(h->tls->version, "TLSv1"))
    return 2;
  return 1;
}

/* The connection of hop k is the one of hop j (same host and port). */
static int same_conn(const struct hop *a, const struct hop *b)
{
  if (a->conn_id >= 0 && b->conn_id >= 0)
    return a->conn_id == b->conn_id;
  return a->info->host && b->info->host &&
         !strcmp(a->info->host, b->info->host) &&
         a->info->remote_port == b->info->remote_port;
}

/* The round trip of a connection as its TCP (or QUIC) connect measured it,
 * from the hop that opened it, in s or in cold; -1 unknown. */
static int64_t conn_rtt(const struct sample *s, size_t k,
                        const struct sample *cold)
{
  const struct hop *h = &s->hops[k];
  size_t j;

  if (!h->reused)
    return h->phases[PHASE_CONNECT];
  for (j = k; j-- > 0;)
    if (!s->hops[j].reused && same_conn(&s->hops[j], h))
      return s->hops[j].phases[PHASE_CONNECT];
  if (cold)
    for (j = 0; j < cold->n_hops; j++)
      if (!cold->hops[j].reused && cold->hops[j].info->host && h->info->host &&
          !strcmp(cold->hops[j].info->host, h->info->host))
        return cold->hops[j].phases[PHASE_CONNECT];
  return -1;
}

void projection_measured(const struct sample *s, size_t k,
                         const struct sample *cold, struct proj_basis *out)
{
  const struct hop *h = &s->hops[k];
  int64_t server = hop_server_us(h), rtt;

  /* The one switch of the server time: the kernel's minimum round trip of
   * the connection (TCP_INFO, hopsplit(1) TRANSPORT) when it was read,
   * else one round trip as the connection's connect measured it. */
  if (server >= 0) {
    out->rtt_us = h->tcp.min_rtt_us;
    out->server_us = server;
    out->how = "wait - min RTT (TCP_INFO)";
    return;
  }
  rtt = conn_rtt(s, k, cold);
  out->rtt_us = rtt;
  out->server_us = h->phases[PHASE_WAIT] - (rtt > 0 ? rtt : 0);
  if (out->server_us < 0)
    out->server_us = 0;
  out->how = "wait - connect";
}

/* A DNS lookup happened on the network in this hop. */
static int looked_up(const struct hop *h)
{
  return h->dns_us > 0 && !h->dns->pinned && !h->dns->cached &&
         !h->dns->literal;
}

/* Expected cost of a handshake or request round trip with loss: lost
 * either way with probability 2 x loss, then a retransmission timeout. */
static int64_t loss_rt_us(const struct proj_net *n, int64_t rto)
{
  return (int64_t)(2.0 * n->loss_ppm / 1e6 * (double)rto + 0.5);
}

/* The window a connection has at hop k: a new one the initial window; a
 * reused one what its last response left. */
struct conn_state {
  const struct hop *opened;
  int64_t window;
};

void projection_sample(const struct sample *s, const struct sample *cold,
                       const struct proj_net *net, int64_t rtt_min_us,
                       int64_t request_bytes, struct projection *out)
{
  struct conn_state conns[16];
  size_t n_conns = 0, k, j;
  double loss = net->loss_ppm / 1e6;

  memset(out, 0, sizeof(*out));
  out->present = 1;
  out->n_hops = s->n_hops;
  out->hops = s->n_hops ? xcalloc(s->n_hops, sizeof(*out->hops)) : NULL;
  out->other_us = s->other_us > 0 ? s->other_us : 0;
  out->measured_us = s->total_us;
  if (rtt_min_us < 0)
    rtt_min_us = 0;
  for (k = 0; k < s->n_hops; k++) {
    const struct hop *h = &s->hops[k];
    struct proj_hop *ph = &out->hops[k];
    struct proj_basis b;
    int64_t extra, rtt, v, rto, resp, win = 0, body;
    int tls = projection_tls_rounds(h), quic;
    int32_t rt = 0;
    struct conn_state *cs = NULL;

    memcpy(ph->measured, h->phases, sizeof(ph->measured));
    projection_measured(s, k, cold, &b);
    out->server_basis = b.how;
    extra = b.rtt_us > rtt_min_us ? b.rtt_us - rtt_min_us : 0;
    rtt = net->rtt_us + extra;
    rto = rtt + PROJ_RTO_MIN_US;
    ph->rtt_us = rtt;
    ph->server_us = b.server_us;
    quic = h->info->http_version && !strcmp(h->info->http_version, "3");

    /* DNS: one round trip to the resolver (A and AAAA at once), and what
     * the lookup took beyond the smallest round trip of the run. */
    if (looked_up(h)) {
      v = h->phases[PHASE_DNS] - rtt_min_us;
      ph->phases[PHASE_DNS] =
          net->rtt_us + (v > 0 ? v : 0) + loss_rt_us(net, PROJ_SYN_RTO_US);
      rt++;
    }
    /* TCP (or QUIC's first flight): one round trip. */
    if (!h->reused) {
      ph->phases[PHASE_CONNECT] =
          rtt + loss_rt_us(net, PROJ_SYN_RTO_US) +
          (quic ? ser_us(1200, net->up_bps) + ser_us(1200, net->down_bps) : 0);
      rt++;
    }
    /* TLS: its round trips, the flights' bytes at the rates, and the
     * handshake's own computing (what the measured phase held beyond its
     * round trips). */
    if (!h->reused && tls >= 0) {
      int64_t local =
          h->phases[PHASE_TLS] - tls * (b.rtt_us > 0 ? b.rtt_us : 0);
      int64_t flight =
          h->tls->resumed == 1 ? PROJ_TLS_RESUMED : PROJ_TLS_FLIGHT;

      ph->phases[PHASE_TLS] =
          tls * rtt + (local > 0 ? local : 0) + ser_us(flight, net->down_bps) +
          ser_us(PROJ_TLS_HELLO, net->up_bps) + tls * loss_rt_us(net, rto);
      rt += tls;
    }
    /* The request's bytes at the upload rate. */
    ph->phases[PHASE_SEND] =
        h->phases[PHASE_SEND] + ser_us(request_bytes, net->up_bps);
    /* Wait: one round trip and the server's time, then the first record
     * of the response (below); with 0-RTT early data the request went
     * with the handshake. */
    v = rtt + b.server_us + loss_rt_us(net, rto);
    if (h->tls->resumed == 1 && h->info->earlydata > 0)
      v -= rtt;
    ph->phases[PHASE_WAIT] = v > b.server_us ? v : b.server_us;
    rt++;

    /* The connection's window. */
    for (j = 0; j < n_conns; j++)
      if (same_conn(conns[j].opened, h))
        cs = &conns[j];
    if (!cs && n_conns < sizeof(conns) / sizeof(conns[0])) {
      cs = &conns[n_conns++];
      cs->opened = h;
      cs->window = PROJ_INIT_WINDOW * PROJ_MSS;
      if (h->reused && s->mode != MODE_COLD) {
        /* Warm: the window the same response left on the connection the
         * sample before, whatever the idle time between them (BBR, the
         * lab's servers' congestion control, and Linux with
         * tcp_slow_start_after_idle=0 keep it; cubic with the default
         * restarts from 10 segments after an idle RTO: there the warm
         * projection is optimistic). */
        int64_t wend;

        projection_body_us(h->info->size_download + h->info->size_header, 0,
                           rtt, net->down_bps, cs->window, NULL, NULL, &wend);
        cs->window = wend;
      }
    }
    win = cs ? cs->window : PROJ_INIT_WINDOW * PROJ_MSS;
    ph->window_bytes = win;
    /* The response: TLS 1.3's session tickets first on a new connection,
     * then headers and body, in slow-start windows.  The first byte a
     * client sees is the end of the first TLS record (PROJ_TLS_RECORD
     * bytes, or all of a smaller response), or of the first segment
     * without TLS: wait gets the time to it, transfer the rest.  Expected
     * losses cost a round trip each.  Never below what was measured (a
     * server that streams slowly is slow on every network). */
    resp = h->info->size_download + h->info->size_header;
    ph->response_bytes = resp;
    {
      int64_t pre = 0, firstb, t_first = 0, t_all;

      if (!h->reused && h->tls->version &&
          !strcmp(h->tls->version, "TLSv1.3") && h->tls->resumed != 1 && !quic)
        pre = PROJ_TLS13_TICKETS;
      /* As nginx does (measured through the lab's link): HTTP/2 on a new
       * connection sends the response's HEADERS frame in a record of its
       * own; else the headers go with the body's first bytes. */
      if (h->info->http_version && !strcmp(h->info->http_version, "2") &&
          !h->reused)
        firstb = h->info->size_header;
      else if (h->tls->version)
        firstb = resp < PROJ_TLS_RECORD ? resp : PROJ_TLS_RECORD;
      else
        firstb = resp < PROJ_MSS ? resp : PROJ_MSS;
      t_all = projection_body_us(pre + resp, pre + firstb, rtt, net->down_bps,
                                 win, &t_first, &ph->body_rounds,
                                 cs ? &cs->window : NULL);
      ph->phases[PHASE_WAIT] += t_first;
      body = t_all - t_first;
    }
    body +=
        (int64_t)((double)(resp / PROJ_MSS + 1) * loss * (double)rtt + 0.5);
    ph->phases[PHASE_TRANSFER] =
        body > h->phases[PHASE_TRANSFER] ? body : h->phases[PHASE_TRANSFER];
    rt += ph->body_rounds > 1 ? ph->body_rounds - 1 : 0;
    ph->round_trips = rt;
    ph->phases[PHASE_TOTAL] = 0;
    for (j = 0; j < PHASE_TOTAL; j++)
      ph->phases[PHASE_TOTAL] += ph->phases[j];
    out->total_us += ph->phases[PHASE_TOTAL];
    out->round_trips += rt;
  }
  out->total_us += out->other_us;
  out->floor_us = (int64_t)out->round_trips * net->rtt_us;
}

void projection_release(struct projection *pj)
{
  free(pj->hops);
  pj->hops = NULL;
  pj->n_hops = 0;
}

/* The request's bytes: its line and headers (as libcurl writes them,
 * roughly) and its body. */
static int64_t request_bytes(const struct target *t)
{
  const struct options *o = t->opts;
  int64_t n = PROJ_REQUEST_BASE + (int64_t)strlen(t->url);
  size_t i;

  if (o->user_agent)
    n += (int64_t)strlen(o->user_agent);
  for (i = 0; i < o->n_headers; i++)
    n += (int64_t)strlen(o->headers[i]) + 2;
  if (o->body)
    n += (int64_t)o->body_len;
  else if (o->body_file && o->body_file_size > 0)
    n += o->body_file_size;
  return n;
}

/* The smallest round trip measured in the run: a connection's minimum RTT
 * (TCP_INFO) or connect, or a DNS lookup, of a median sample; -1 when
 * there is none. */
static int64_t run_rtt_min(const struct results *r, const struct analysis *a)
{
  int64_t best = -1;
  size_t t, k;
  int m;

  for (t = 0; t < a->n_targets; t++)
    for (m = 0; m < MODE_COUNT; m++) {
      const struct mode_summary *ms = &a->targets[t].modes[m];
      const struct sample *s;

      if (!ms->present || ms->median_sample < 0)
        continue;
      s = &r->samples[ms->median_sample];
      for (k = 0; k < s->n_hops; k++) {
        const struct hop *h = &s->hops[k];

        int64_t rtt = h->tcp_valid && h->tcp.min_rtt_us > 0 ? h->tcp.min_rtt_us
                      : !h->reused ? h->phases[PHASE_CONNECT]
                                   : 0;

        if (rtt > 0 && (best < 0 || rtt < best))
          best = rtt;
        if (looked_up(h) && (best < 0 || h->phases[PHASE_DNS] < best))
          best = h->phases[PHASE_DNS];
      }
    }
  return best;
}

/* Findings whose saving is time the network does not change: the server's
 * (server-wait, a cache's origin fetch) and the distance to a far edge,
 * which stays beyond the network's RTT. */
static int kept_in_ms(enum finding_kind k)
{
  return k == FINDING_SERVER_WAIT || k == FINDING_CACHE ||
         k == FINDING_DISTANT_EDGE;
}

static int64_t proj_cell(const struct projection *pj, size_t c, int measured)
{
  size_t hop = c / PHASE_COUNT;

  if (hop >= pj->n_hops)
    return pj->other_us; /* the last cell: between hops, kept */
  if (c % PHASE_COUNT == PHASE_TOTAL)
    return 0;
  return measured ? pj->hops[hop].measured[c % PHASE_COUNT]
                  : pj->hops[hop].phases[c % PHASE_COUNT];
}

static void project_findings(const struct target_analysis *ta,
                             struct target_projection *tp)
{
  const struct projection *pj = &tp->modes[MODE_COLD];
  size_t i, j, c;

  tp->n_findings = ta->n_findings;
  tp->findings =
      ta->n_findings ? xcalloc(ta->n_findings, sizeof(*tp->findings)) : NULL;
  for (i = 0; i < ta->n_findings; i++) {
    const struct finding *f = &ta->findings[i];
    struct proj_finding *pf = &tp->findings[i];
    const int64_t *rm =
        ta->removes && i < ta->n_removes ? ta->removes[i] : NULL;

    pf->finding = i;
    pf->saving_us = f->saving_us;
    if (!rm || !pj->present || kept_in_ms(f->kind) ||
        ta->n_cells != pj->n_hops * PHASE_COUNT + 1)
      continue;
    pf->scaled = 1;
    pf->saving_us = 0;
    for (c = 0; c < ta->n_cells; c++) {
      int64_t meas = proj_cell(pj, c, 1), proj = proj_cell(pj, c, 0);

      if (rm[c] <= 0)
        continue;
      if (meas > 0)
        pf->saving_us +=
            (int64_t)((double)rm[c] * (double)proj / (double)meas + 0.5);
      else
        pf->saving_us += rm[c];
    }
  }
  /* Ranked by the saving on the network (stable: ties keep the measured
   * rank).  Few findings: insertion sort. */
  for (i = 1; i < tp->n_findings; i++) {
    struct proj_finding x = tp->findings[i];

    for (j = i; j > 0 && tp->findings[j - 1].saving_us < x.saving_us; j--)
      tp->findings[j] = tp->findings[j - 1];
    tp->findings[j] = x;
  }
}

/* The projected total of every counted sample of target t in mode m, by
 * round (0 where there is none; valid says which are there). */
static void projected_by_round(const struct plan *p, const struct results *r,
                               const struct analysis *a, size_t t,
                               enum sample_mode m, const struct proj_net *net,
                               int64_t rtt_min, int64_t *tot, bool *valid,
                               size_t n_rounds)
{
  const struct mode_summary *cm = &a->targets[t].modes[MODE_COLD];
  const struct sample *cold = cm->present && cm->median_sample >= 0
                                  ? &r->samples[cm->median_sample]
                                  : NULL;
  int64_t req = request_bytes(&p->targets[t]);
  size_t i;

  for (i = 0; i < r->n; i++) {
    const struct sample *s = &r->samples[i];
    struct projection pj;

    if (s->target != t || s->mode != m || s->round < 1 ||
        (size_t)s->round > n_rounds || !s->n_hops ||
        !sample_counted(s, p->opts->keep_interfered))
      continue;
    projection_sample(s, cold, net, rtt_min, req, &pj);
    tot[s->round - 1] = pj.total_us;
    valid[s->round - 1] = 1;
    projection_release(&pj);
  }
}

static void project_comparisons(struct projections *ps, const struct plan *p,
                                const struct results *r,
                                const struct analysis *a, int64_t rtt_min)
{
  size_t i, k, j, n = 0, nr = p->rounds > 0 ? (size_t)p->rounds : 0;
  int64_t *bt = xcalloc(nr ? nr : 1, sizeof(*bt));
  int64_t *tt = xcalloc(nr ? nr : 1, sizeof(*tt));
  bool *bv = xcalloc(nr ? nr : 1, sizeof(*bv));
  bool *tv = xcalloc(nr ? nr : 1, sizeof(*tv));

  ps->comparisons = a->n_comparisons ? xcalloc(a->n_comparisons * ps->n_nets,
                                               sizeof(*ps->comparisons))
                                     : NULL;
  for (k = 0; k < ps->n_nets; k++)
    for (i = 0; i < a->n_comparisons; i++) {
      const struct comparison *cmp = &a->comparisons[i];
      const struct compare_result *cr = &cmp->phases[SUM_TOTAL];
      const struct projection *pt =
          &ps->targets[cmp->target * ps->n_nets + k].modes[cmp->mode];
      const struct projection *pb =
          &ps->targets[cmp->baseline * ps->n_nets + k].modes[cmp->mode];
      const struct net_profile *np = &ps->nets[k];
      struct proj_net net = {np->rtt_us, np->down_bps, np->up_bps,
                             np->loss_ppm};
      struct proj_comparison *pc;

      if (!pt->present || !pb->present || !cr->n_pairs)
        continue;
      pc = &ps->comparisons[n++];
      pc->comparison = i;
      pc->net = k;
      if (!cr->unpaired && nr) {
        /* Paired as measured: every round's two samples projected, and
         * the comparison of those pairs (median difference, sign-test
         * interval, verdict), so that the network moves each pair and the
         * pairs' spread stays theirs. */
        struct compare_result res;

        memset(bv, 0, nr * sizeof(*bv));
        memset(tv, 0, nr * sizeof(*tv));
        projected_by_round(p, r, a, cmp->baseline, cmp->mode, &net, rtt_min,
                           bt, bv, nr);
        projected_by_round(p, r, a, cmp->target, cmp->mode, &net, rtt_min, tt,
                           tv, nr);
        for (j = 0; j < nr; j++)
          bv[j] = bv[j] && tv[j];
        compare_paired(bt, tt, bv, nr, &res);
        pc->median_diff_us = res.median_diff_us;
        pc->ci_low_us = res.ci_low_us;
        pc->ci_high_us = res.ci_high_us;
        pc->change_pct = res.change_pct;
        pc->verdict = res.verdict;
        continue;
      }
      /* Unpaired (merged runs): the projected difference of the medians,
       * the measured interval carried around it. */
      pc->median_diff_us = pt->total_us - pb->total_us;
      pc->ci_low_us =
          pc->median_diff_us - (cr->median_diff_us - cr->ci_low_us);
      pc->ci_high_us =
          pc->median_diff_us + (cr->ci_high_us - cr->median_diff_us);
      pc->change_pct = pb->total_us ? 100.0 * (double)pc->median_diff_us /
                                          (double)pb->total_us
                                    : (double)NAN;
      if (!cr->ci_available)
        pc->verdict = COMPARE_NO_CLEAR_DIFFERENCE;
      else if (pc->ci_low_us > 0)
        pc->verdict = COMPARE_SLOWER;
      else if (pc->ci_high_us < 0)
        pc->verdict = COMPARE_FASTER;
      else
        pc->verdict = COMPARE_NO_CLEAR_DIFFERENCE;
    }
  ps->n_comparisons = n;
  free(bt);
  free(tt);
  free(bv);
  free(tv);
}

void projections_build(const struct plan *p, const struct results *r,
                       struct analysis *a)
{
  struct projections *ps = &a->proj;
  int64_t rtt_min;
  size_t t, k;
  int m;

  memset(ps, 0, sizeof(*ps));
  if (!p->opts->n_project || !a->n_targets)
    return;
  ps->nets = p->opts->project;
  ps->n_nets = p->opts->n_project;
  ps->n_targets = a->n_targets;
  ps->targets = xcalloc(a->n_targets * ps->n_nets, sizeof(*ps->targets));
  rtt_min = run_rtt_min(r, a);
  for (t = 0; t < a->n_targets; t++) {
    const struct target_analysis *ta = &a->targets[t];
    const struct mode_summary *cm = &ta->modes[MODE_COLD];
    const struct sample *cold = cm->present && cm->median_sample >= 0
                                    ? &r->samples[cm->median_sample]
                                    : NULL;
    int64_t req = request_bytes(&p->targets[t]);

    for (k = 0; k < ps->n_nets; k++) {
      struct target_projection *tp = &ps->targets[t * ps->n_nets + k];
      const struct net_profile *np = &ps->nets[k];
      struct proj_net net = {np->rtt_us, np->down_bps, np->up_bps,
                             np->loss_ppm};

      for (m = 0; m < MODE_COUNT; m++) {
        const struct mode_summary *ms = &ta->modes[m];

        if (!ms->present || ms->median_sample < 0 ||
            !r->samples[ms->median_sample].n_hops)
          continue;
        projection_sample(&r->samples[ms->median_sample], cold, &net, rtt_min,
                          req, &tp->modes[m]);
        tp->modes[m].sample = ms->median_sample;
      }
      project_findings(ta, tp);
    }
  }
  project_comparisons(ps, p, r, a, rtt_min);
}

void projections_release(struct projections *ps)
{
  size_t i;
  int m;

  for (i = 0; i < ps->n_targets * ps->n_nets; i++) {
    for (m = 0; m < MODE_COUNT; m++)
      projection_release(&ps->targets[i].modes[m]);
    free(ps->targets[i].findings);
  }
  free(ps->targets);
  free(ps->comparisons);
  memset(ps, 0, sizeof(*ps));
}
