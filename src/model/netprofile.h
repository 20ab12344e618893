/*
 * netprofile.h: the networks a run is projected onto (--project, a
 * profile's project:; hopsplit(1) PROJECTION): named presets with Chrome
 * DevTools' and Lighthouse's figures, or a custom
 * rtt=150ms,down=1.6Mbit,up=750kbit[,loss=1%][,name=NAME].  Pure.
 */
#ifndef HOPSPLIT_NETPROFILE_H
#define HOPSPLIT_NETPROFILE_H

#include <stddef.h>
#include <stdint.h>

/* At most this many networks in one run; names at most this long. */
#define NETPROFILES_MAX     8
#define NETPROFILE_NAME_MAX 48

struct net_profile {
  char name[NETPROFILE_NAME_MAX]; /* the preset's, name=, or "custom-N" */
  int64_t rtt_us;                 /* round-trip time */
  int64_t down_bps;               /* bits per second, server to client */
  int64_t up_bps;                 /* bits per second, client to server */
  /* Loss of packets, in parts per million (10000: 1 %); 0 none. */
  int32_t loss_ppm;
  int8_t preset; /* index into netprofile_presets, -1 custom */
};

struct net_preset {
  const char *name;
  int64_t rtt_us, down_bps, up_bps;
  const char *source; /* where the figures come from (hopsplit(1)) */
};
extern const struct net_preset netprofile_presets[];
extern const size_t netprofile_n_presets;

/*
 * Parse a --project value: comma-separated parts, each a preset name
 * (slow-4g, fast-4g, 3g, slow-3g) or a key=value of a custom network
 * (rtt, down, up, loss, name).  A run of key=value parts is one custom
 * network; it ends at a preset's name or at a key it already has.  rtt,
 * down and up are required, each with its unit (ms, s, us; bit, kbit,
 * Mbit, Gbit, optionally "/s"); loss in percent.  Fills out[0..*n) (at
 * most NETPROFILES_MAX); returns 0, or -1 with a message in err that
 * names the part that is wrong.
 */
int netprofile_parse_list(const char *val, struct net_profile *out, size_t *n,
                          char *err, size_t errlen);

/* The value netprofile_parse_list reads back to p: the preset's name, or
 * "rtt=...,down=...,up=...[,loss=...],name=..." (for the recorded
 * settings); into out, at most len bytes. */
void netprofile_format(const struct net_profile *p, char *out, size_t len);

/* A rate in bits per second as hopsplit(1) prints it: "1.6 Mbit/s",
 * "750 kbit/s". */
void netprofile_format_rate(int64_t bps, char *out, size_t len);

#endif
