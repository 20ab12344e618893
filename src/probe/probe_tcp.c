/*
 * probe_tcp.c: the kernel's view of a hop's TCP connection (hopsplit(1)
 * TRANSPORT).  Input: the hop's socket, which hopsplit owns (libcurl's
 * open-socket callback, probe_conn.c), and the times its body's bytes
 * arrive.  Output: the hop's tcp facts (Linux TCP_INFO, deltas on a
 * reused connection) and the body's rounds.
 *
 * TCP_INFO is read when the connection is ready for the request and after
 * the last response byte: each read follows the event a phase ends on,
 * never sits between a phase's own events.  The first response byte is
 * only stamped: a read there (a getsockopt inside libcurl's header
 * callback, nothing read it) sat inside the transfer.  Arrivals go
 * into fixed storage (transport.h) and are grouped after the transfer.
 */
#include <errno.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "probe_int.h"
#include "strpool.h"
#include "banned.h"

/* Below this round trip (loopback, a LAN) the gaps between a body's
 * bursts are no longer than the process's own scheduling: no rounds. */
#define ROUNDS_MIN_RTT_US 1000

static void snap(int fd, struct tcp_snap *s, int *err)
{
  struct tcp_info ti;
  socklen_t len = sizeof(ti);

  memset(s, 0, sizeof(*s));
  if (fd < 0)
    return;
  memset(&ti, 0, sizeof(ti));
  if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0) {
    *err = errno;
    return;
  }
#define HAS(field) (len >= offsetof(struct tcp_info, field) + sizeof(ti.field))
#define GET(field) (HAS(field) ? (int64_t)ti.field : -1)
  s->ok = 1;
  s->min_rtt = GET(tcpi_min_rtt);
  s->rtt = GET(tcpi_rtt);
  s->rttvar = GET(tcpi_rttvar);
  s->rcv_rtt = GET(tcpi_rcv_rtt);
  s->total_retrans = GET(tcpi_total_retrans);
  s->rcv_ooopack = GET(tcpi_rcv_ooopack);
  s->bytes_received = GET(tcpi_bytes_received);
  s->bytes_sent = HAS(tcpi_bytes_sent) ? (int64_t)ti.tcpi_bytes_sent
                                       : GET(tcpi_bytes_acked);
  s->segs_in = GET(tcpi_segs_in);
  s->segs_out = GET(tcpi_segs_out);
  s->delivery_rate = GET(tcpi_delivery_rate);
  s->busy = GET(tcpi_busy_time);
  s->rwnd_limited = GET(tcpi_rwnd_limited);
  s->sndbuf_limited = GET(tcpi_sndbuf_limited);
#undef GET
#undef HAS
}

void probe_tcp_begin(struct tcp_watch *w, int upload)
{
  w->fd = -1;
  w->reused = 0;
  w->upload = upload;
  w->err = 0;
  w->start.ok = w->last.ok = 0;
  w->first_byte_us = 0;
  tcp_arrivals_init(&w->arr, 250);
}

void probe_tcp_ready(struct tcp_watch *w, int fd, int reused)
{
  if (fd < 0)
    return;
  w->fd = fd;
  w->reused = reused;
  snap(fd, &w->start, &w->err);
  /* Arrivals closer than an eighth of the round trip are one entry. */
  if (w->start.ok && w->start.min_rtt > 0) {
    int64_t m = w->start.min_rtt / 8;

    tcp_arrivals_init(&w->arr, m < 50 ? 50 : m > 2000 ? 2000 : m);
  }
}

void probe_tcp_first_byte(struct tcp_watch *w, int64_t now_us)
{
  if (w->first_byte_us)
    return;
  w->first_byte_us = now_us;
}

void probe_tcp_closing(struct tcp_watch *w, int fd)
{
  if (fd >= 0 && fd == w->fd && !w->last.ok) {
    snap(fd, &w->last, &w->err);
    w->fd = -1; /* gone: never read again */
  }
}

/* b - a for a counter both reads have, else -1. */
static int64_t delta(int64_t b, int64_t a)
{
  if (b < 0 || a < 0 || b < a)
    return -1;
  return b - a;
}

static int64_t known(int64_t v)
{
  return v > 0 ? v : -1;
}

/* A 32-bit counter or time of the kernel's (struct tcp_info's own size)
 * as the hop keeps it; a delta past INT32_MAX (2^31 segments, 35 minutes
 * of RTT) is held at INT32_MAX. */
static int32_t i32(int64_t v)
{
  return v > INT32_MAX ? INT32_MAX : (int32_t)v;
}

static void rounds(struct tcp_watch *w, struct hop *h)
{
  struct hop_round r[HOP_ROUNDS_MAX];
  int64_t rtt = h->tcp.min_rtt_us, body = 0;
  size_t i, n, kept;

  for (i = 0; i < w->arr.n; i++)
    body += w->arr.a[i].bytes;
  if (body <= 0 || rtt < ROUNDS_MIN_RTT_US)
    return;
  n = tcp_rounds_group(w->arr.a, w->arr.n, w->first_byte_us, rtt, r,
                       HOP_ROUNDS_MAX);
  kept = n < HOP_ROUNDS_MAX ? n : HOP_ROUNDS_MAX;
  /* Decoded bytes (--compressed) back to the bytes on the wire. */
  if (h->info->size_decoded > 0 && h->info->size_download > 0 &&
      h->info->size_download != h->info->size_decoded)
    for (i = 0; i < kept; i++)
      r[i].bytes =
          (int64_t)((double)r[i].bytes * (double)h->info->size_download /
                    (double)h->info->size_decoded);
  hop_set_rounds(h, r, kept, (uint32_t)n);
  if (kept >= 2 && n <= HOP_ROUNDS_MAX) {
    int64_t span = r[kept - 1].start_us - r[kept - 2].start_us;

    if (span > 0)
      hop_flow_edit(h)->last_round_rate = r[kept - 2].bytes * 1000000 / span;
  }
}

void probe_tcp_finish(struct tcp_watch *w, int fd, struct hop *h)
{
  struct hop_tcp *t = &h->tcp;
  struct tcp_snap zero, *base;
  const struct tcp_snap *end;

  if (h->info->http_version && !strcmp(h->info->http_version, "3")) {
    hop_flow_edit(h)->missing =
        strpool_intern("HTTP/3 runs over QUIC: libcurl exposes no "
                       "QUIC path statistics");
    return;
  }
  /* A reused connection whose ready read was missed (its socket not found
   * by its local port, or libcurl without a prerequest callback) has no
   * base to take deltas from: its counters stay unknown (-1), never the
   * connection's whole life said as this hop's. */
  if (h->reused)
    w->reused = 1;
  if (w->fd < 0 && !w->last.ok && fd >= 0)
    w->fd = fd; /* no ready read (libcurl without a prerequest callback) */
  if (!w->last.ok)
    snap(w->fd, &w->last, &w->err);
  end = &w->last;
  if (!end->ok) {
    char why[160];

    if (w->err == ENOPROTOOPT || w->err == EOPNOTSUPP)
      snprintf(why, sizeof(why), "the connection is not TCP");
    else if (w->err)
      snprintf(why, sizeof(why), "TCP_INFO could not be read: %s",
               strerror(w->err));
    else
      snprintf(why, sizeof(why), "no connection was made");
    hop_flow_edit(h)->missing = strpool_intern(why);
    return;
  }
  memset(&zero, 0, sizeof(zero));
  base = w->reused ? &w->start : &zero;
  h->tcp_valid = 1;
  t->min_rtt_us = i32(known(end->min_rtt));
  t->rtt_us = i32(known(end->rtt));
  t->rttvar_us = i32(end->rttvar >= 0 && end->rtt > 0 ? end->rttvar : -1);
  t->rcv_rtt_us = i32(known(end->rcv_rtt));
  if (!w->reused || w->start.ok) {
    t->retransmits = i32(delta(end->total_retrans, base->total_retrans));
    t->rcv_ooopack = i32(delta(end->rcv_ooopack, base->rcv_ooopack));
    t->bytes_in = delta(end->bytes_received, base->bytes_received);
    t->bytes_out = delta(end->bytes_sent, base->bytes_sent);
    t->segs_in = i32(delta(end->segs_in, base->segs_in));
    t->segs_out = i32(delta(end->segs_out, base->segs_out));
    if (w->upload) {
      hop_flow_edit(h)->delivery_rate = end->delivery_rate;
      hop_flow_edit(h)->busy_us = delta(end->busy, base->busy);
      hop_flow_edit(h)->rwnd_limited_us =
          delta(end->rwnd_limited, base->rwnd_limited);
      hop_flow_edit(h)->sndbuf_limited_us =
          delta(end->sndbuf_limited, base->sndbuf_limited);
    }
  }
  rounds(w, h);
}
