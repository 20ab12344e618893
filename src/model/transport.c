/*
 * transport.c: a body's arrivals into rounds, the time of a smaller body
 * on the same connection, and Server-Timing's durations (transport.h).
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "transport.h"
#include "banned.h"

void tcp_arrivals_init(struct tcp_arrivals *t, int64_t merge_us)
{
  t->merge_us = merge_us > 0 ? merge_us : 1;
  t->n = 0;
}

void tcp_arrivals_squeeze(struct tcp_arrivals *t)
{
  while (t->n > TCP_ARRIVALS_MAX / 2 && t->merge_us < INT64_MAX / 4) {
    size_t i, w = 0;

    t->merge_us *= 2;
    for (i = 0; i < t->n; i++) {
      if (w && t->a[i].first_us - t->a[w - 1].last_us < t->merge_us &&
          t->a[i].last_us - t->a[w - 1].first_us < 2 * t->merge_us) {
        t->a[w - 1].last_us = t->a[i].last_us;
        t->a[w - 1].bytes += t->a[i].bytes;
      }
      else {
        t->a[w++] = t->a[i];
      }
    }
    t->n = w;
  }
}

static int32_t clamp32(int64_t v)
{
  return v < 0 ? 0 : v > INT32_MAX ? INT32_MAX : (int32_t)v;
}

size_t tcp_rounds_group(const struct tcp_arrival *a, size_t n, int64_t t0_us,
                        int64_t rtt_us, struct hop_round *out, size_t max)
{
  size_t i, count = 0;
  int64_t start = 0, last = 0;
  struct hop_round *cur = NULL;

  if (!n || rtt_us <= 0 || !max)
    return 0;
  for (i = 0; i < n; i++) {
    int64_t t = a[i].first_us;
    int fresh;

    if (!count)
      fresh = 1;
    else
      fresh = t - last > rtt_us / 2 || t - start >= rtt_us;
    if (!count && t0_us > 0 && t0_us <= t)
      t = t0_us; /* the first round starts at the first byte */
    if (fresh) {
      count++;
      start = t;
      if (count <= max) {
        cur = &out[count - 1];
        cur->start_us = clamp32(t - (t0_us > 0 ? t0_us : a[0].first_us));
        cur->us = 0;
        cur->bytes = 0;
      }
    }
    cur->bytes += a[i].bytes;
    cur->us = clamp32(a[i].last_us - (t0_us > 0 ? t0_us : a[0].first_us) -
                      cur->start_us);
    last = a[i].last_us;
  }
  return count;
}

int64_t tcp_rounds_time_for(const struct hop_round *r, size_t n, int64_t bytes)
{
  int64_t got = 0;
  size_t i;

  if (bytes <= 0)
    return 0;
  for (i = 0; i < n; i++) {
    if (got + r[i].bytes >= bytes) {
      double part =
          r[i].bytes > 0 ? (double)(bytes - got) / (double)r[i].bytes : 1.0;

      return r[i].start_us + (int64_t)llround(part * (double)r[i].us);
    }
    got += r[i].bytes;
  }
  return -1;
}

/* The dur= of one metric (its text up to a comma), in microseconds, or
 * -1; *name_total says whether the metric is called "total". */
static int64_t metric_dur(const char *m, size_t len, int *name_total)
{
  size_t i = 0, nl;
  int64_t dur = -1;

  while (i < len && (m[i] == ' ' || m[i] == '\t'))
    i++;
  nl = i;
  while (nl < len && m[nl] != ';' && m[nl] != ' ' && m[nl] != '\t')
    nl++;
  *name_total = nl - i == 5 && !strncasecmp(m + i, "total", 5);
  for (i = nl; i < len; i++) {
    if (m[i] != ';')
      continue;
    i++;
    while (i < len && (m[i] == ' ' || m[i] == '\t'))
      i++;
    if (len - i > 4 && !strncasecmp(m + i, "dur=", 4)) {
      char num[32];
      size_t k = 0, j = i + 4;
      char *end;
      double v;

      if (j < len && m[j] == '"')
        j++;
      while (j < len && k + 1 < sizeof(num) &&
             (isdigit((unsigned char)m[j]) || m[j] == '.'))
        num[k++] = m[j++];
      num[k] = '\0';
      v = strtod(num, &end);
      if (k && end != num && v >= 0 && v < 1e9)
        dur = (int64_t)llround(v * 1000.0); /* dur is in ms */
    }
  }
  return dur;
}

int64_t transport_server_timing_us(const char *value)
{
  int64_t sum = -1, total = -1;
  const char *p = value;

  if (!value)
    return -1;
  while (*p) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    int is_total = 0;
    int64_t d = metric_dur(p, len, &is_total);

    if (d >= 0) {
      if (is_total && total < 0)
        total = d;
      sum = (sum < 0 ? 0 : sum) + d;
    }
    p += len;
    if (*p == ',')
      p++;
  }
  return total >= 0 ? total : sum;
}
