/*
 * transport.h: what the kernel's view of a connection is made into
 * (hopsplit(1) TRANSPORT): the arrivals of a body's bytes, recorded as
 * they come into preallocated storage, grouped into rounds after the
 * transfer; the time a smaller body would have taken on the same
 * connection; the server's own time a Server-Timing header states.
 * Pure.
 */
#ifndef HOPSPLIT_TRANSPORT_H
#define HOPSPLIT_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

#include "sample.h"

/* Arrivals closer together than merge_us are kept as one entry (first,
 * last, bytes) of at most 2 merge_us from its first, so that a long body
 * costs a fixed number of entries and no entry spans a round. */
struct tcp_arrival {
  int64_t first_us, last_us; /* monotonic microseconds */
  int64_t bytes;
};
#define TCP_ARRIVALS_MAX 256

struct tcp_arrivals {
  int64_t merge_us; /* entries closer than this are merged */
  size_t n;
  struct tcp_arrival a[TCP_ARRIVALS_MAX];
};

/* Start recording: no arrival yet, entries merged below merge_us. */
void tcp_arrivals_init(struct tcp_arrivals *t, int64_t merge_us);
/* When the storage is full: merge_us doubles and the entries closer than
 * it are merged, until at most half of it is used (rare: a long body). */
void tcp_arrivals_squeeze(struct tcp_arrivals *t);

/* bytes arrived at now_us (monotonic): a few instructions, on the
 * measured path. */
static inline void tcp_arrivals_add(struct tcp_arrivals *t, int64_t now_us,
                                    int64_t bytes)
{
  struct tcp_arrival *e;

  if (t->n && now_us - t->a[t->n - 1].last_us < t->merge_us &&
      now_us - t->a[t->n - 1].first_us < 2 * t->merge_us) {
    e = &t->a[t->n - 1];
    e->last_us = now_us;
    e->bytes += bytes;
    return;
  }
  if (t->n == TCP_ARRIVALS_MAX)
    tcp_arrivals_squeeze(t);
  e = &t->a[t->n++];
  e->first_us = e->last_us = now_us;
  e->bytes = bytes;
}

/*
 * Group the arrivals a[0..n) into the rounds of a transfer whose round
 * trip is rtt_us, from t0_us (its first response byte): a round starts at
 * the first arrival, after a silence of more than half the round trip,
 * or a whole round trip after the start of the one before (a link that
 * never goes quiet, a paced sender, or TLS records that end in the next
 * round deliver a window per round trip).  At most max
 * rounds are written (the rest is added to the last); returns how many
 * there were.  0 for no arrivals or rtt_us <= 0.
 */
size_t tcp_rounds_group(const struct tcp_arrival *a, size_t n, int64_t t0_us,
                        int64_t rtt_us, struct hop_round *out, size_t max);

/* From the rounds r[0..n) of a body: how long, from the first response
 * byte, its first bytes bytes took to arrive (inside a round at that
 * round's own rate); -1 when the rounds do not reach that many bytes. */
int64_t tcp_rounds_time_for(const struct hop_round *r, size_t n,
                            int64_t bytes);

/* The server's time a Server-Timing value states (W3C Server Timing): the
 * dur of its "total" metric when there is one, else the sum of the durs;
 * -1 when no metric has a dur. */
int64_t transport_server_timing_us(const char *value);

#endif
