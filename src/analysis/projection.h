/*
 * projection.h: each target's median cold and warm samples projected onto
 * the networks of --project (hopsplit(1) PROJECTION): the sample's own
 * structure (its hops, the round trips of DNS, TCP, TLS and the request,
 * the body's slow-start rounds, the bytes each way) replayed at another
 * round-trip time and other rates, with the server's time kept.  Findings
 * and comparison verdicts are re-ranked there.  Pure: no I/O.
 */
#ifndef HOPSPLIT_PROJECTION_H
#define HOPSPLIT_PROJECTION_H

#include <stddef.h>
#include <stdint.h>

#include "netprofile.h"
#include "sample.h"
#include "verdict.h"

struct analysis;
struct plan;
struct results;

/* The model's constants (hopsplit(1) PROJECTION gives each). */
#define PROJ_MSS           1448    /* payload bytes of a full segment */
#define PROJ_INIT_WINDOW   10      /* segments, RFC 6928 (Linux's default) */
#define PROJ_TLS_FLIGHT    2000    /* server's TLS handshake flight, bytes */
#define PROJ_TLS_RECORD    16384   /* a full TLS record of the response */
#define PROJ_HEADER        52      /* IPv4 and TCP headers of a segment */
#define PROJ_TLS_RESUMED   400     /* the same, resumed */
#define PROJ_TLS_HELLO     520     /* ClientHello and Finished, bytes */
#define PROJ_TLS13_TICKETS 500     /* TLS 1.3 session tickets, bytes */
#define PROJ_REQUEST_BASE  60      /* request line and fixed headers */
#define PROJ_RTO_MIN_US    200000  /* Linux's minimum RTO */
#define PROJ_SYN_RTO_US    1000000 /* the SYN's first retransmission */
#define PROJ_ROUNDS_MAX    64

/* The measured round trip a hop's phases rest on and the server time in
 * its wait, from one place (projection_measured): wait less the minimum
 * round trip of the hop's connection (TCP_INFO's min_rtt_us,
 * hop_server_us) when it was read, else less one round trip as the
 * connection's connect measured it (QUIC, saved results without it). */
struct proj_basis {
  int64_t rtt_us;    /* the hop's measured round trip, -1 unknown */
  int64_t server_us; /* wait - rtt_us, at least 0 */
  const char *how;   /* in words for the outputs */
};

struct proj_hop {
  int64_t phases[PHASE_COUNT];   /* projected; total is their sum */
  int64_t measured[PHASE_COUNT]; /* the sample's */
  int64_t rtt_us;                /* the network's RTT for this hop's host */
  int64_t server_us;             /* kept from the measurement */
  int64_t response_bytes;        /* headers and body */
  int64_t window_bytes;          /* congestion window at the response */
  int32_t round_trips;           /* of this hop, body rounds included */
  int32_t body_rounds;           /* windows the response took */
};

/* One target, mode and network. */
struct projection {
  int present;
  long sample; /* index of the projected (median) sample */
  struct proj_hop *hops;
  size_t n_hops;
  int64_t other_us;    /* between hops, kept */
  int64_t total_us;    /* projected */
  int64_t measured_us; /* the sample's total */
  int32_t round_trips;
  int64_t floor_us; /* round_trips x the profile's RTT: never above total */
  const char *server_basis;
};

/* A finding of the target, with its saving on the network. */
struct proj_finding {
  size_t finding;    /* index into the target's findings */
  int64_t saving_us; /* on the network */
  int scaled;        /* 1: the saving scales with the network (round trips,
                      * bytes); 0: kept in ms (server time, distance) */
};

struct target_projection {
  struct projection modes[MODE_COUNT];
  struct proj_finding *findings; /* ranked by saving on the network */
  size_t n_findings;
};

/* A comparison verdict on the network: the projected difference of the two
 * medians, with the measured paired interval carried around it. */
struct proj_comparison {
  size_t comparison; /* index into the analysis's comparisons */
  size_t net;
  int64_t median_diff_us;
  int64_t ci_low_us, ci_high_us;
  double change_pct; /* of the baseline's projected total; NAN if 0 */
  enum compare_verdict verdict;
};

/* All projections of a run: per target t and network k at
 * targets[t * n_nets + k]. */
struct projections {
  const struct net_profile *nets; /* the options' */
  size_t n_nets;
  struct target_projection *targets;
  size_t n_targets;
  struct proj_comparison *comparisons;
  size_t n_comparisons;
};

/* The network as the model takes it, and a sample's position in it. */
struct proj_net {
  int64_t rtt_us, down_bps, up_bps;
  int32_t loss_ppm;
};

/*
 * Time to deliver bytes of response once the server starts sending, over a
 * path of round trip rtt_us and rate down_bps, from a congestion window of
 * window bytes that doubles every round trip (slow start): each window's
 * bytes are serialised at the rate, and a window waits for the ACK of the
 * first segment of the one before.  *first_us (may be NULL) gets the time
 * the first `first` bytes are in, *rounds the windows it took, *window_end
 * the window it ends with (a warm connection's next one).  Pure; exposed
 * for the unit tests.
 */
int64_t projection_body_us(int64_t bytes, int64_t first, int64_t rtt_us,
                           int64_t down_bps, int64_t window, int64_t *first_us,
                           int32_t *rounds, int64_t *window_end);

/* The TLS handshake's round trips on a new connection: 2 for a full
 * TLS 1.2 one, 1 for TLS 1.3 or a resumed one, 0 for QUIC (its one round
 * trip is the connect phase's); -1 for no TLS. */
int projection_tls_rounds(const struct hop *h);

/* The measured basis of hop k of s (see struct proj_basis); cold is the
 * target's median cold sample (NULL without one), for a warm hop whose
 * connection was opened before the sample. */
void projection_measured(const struct sample *s, size_t k,
                         const struct sample *cold, struct proj_basis *out);

/*
 * Project sample s (cold: the target's median cold sample or NULL) onto
 * net.  rtt_min_us is the smallest round trip measured in the run: each
 * host keeps what it measured beyond it (its distance), on top of the
 * network's RTT, as Lighthouse's Lantern keeps each origin's additional
 * RTT.  request_bytes: the request's headers and body.  Fills out (owns
 * out->hops; projection_release frees them).
 */
void projection_sample(const struct sample *s, const struct sample *cold,
                       const struct proj_net *net, int64_t rtt_min_us,
                       int64_t request_bytes, struct projection *out);
void projection_release(struct projection *pj);

/* Every projection of the run, after the findings and comparisons (a->proj;
 * nothing when the options name no network). */
void projections_build(const struct plan *p, const struct results *r,
                       struct analysis *a);
void projections_release(struct projections *ps);

#endif
