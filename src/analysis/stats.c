/*
 * stats.c: nearest-rank percentiles, mean, standard deviation and MAD over
 * int64 microseconds.  Input: a value array (sorted in place).  Output:
 * struct stats.  Pure.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "xalloc.h"
#include "banned.h"

size_t stats_rank(size_t n, unsigned p)
{
  size_t r;

  if (!n)
    return 0;
  if (p > 100)
    p = 100;
  /* ceil(p * n / 100) in integers, so 95 % of 20 is exactly 19. */
  r = (p * n + 99) / 100;
  if (r < 1)
    r = 1;
  if (r > n)
    r = n;
  return r;
}

int64_t stats_percentile(const int64_t *sorted, size_t n, unsigned p)
{
  if (!n)
    return 0;
  return sorted[stats_rank(n, p) - 1];
}

static int cmp64(const void *a, const void *b)
{
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

  return (x > y) - (x < y);
}

void stats_sort(int64_t *v, size_t n)
{
  if (n > 1)
    qsort(v, n, sizeof(*v), cmp64);
}

void stats_compute(int64_t *v, size_t n, struct stats *out)
{
  long double sum = 0, sq = 0, mean;
  int64_t *dev;
  size_t i;

  memset(out, 0, sizeof(*out));
  if (!n)
    return;
  stats_sort(v, n);
  out->n = n;
  out->min = v[0];
  out->max = v[n - 1];
  out->p50 = stats_percentile(v, n, 50);
  out->p95 = stats_percentile(v, n, 95);
  for (i = 0; i < n; i++)
    sum += (long double)v[i];
  mean = sum / (long double)n;
  out->mean = (int64_t)llroundl(mean);
  if (n > 1) {
    for (i = 0; i < n; i++) {
      long double d = (long double)v[i] - mean;

      sq += d * d;
    }
    out->stddev = (int64_t)llroundl(sqrtl(sq / (long double)(n - 1)));
  }
  dev = xmalloc(n * sizeof(*dev));
  for (i = 0; i < n; i++)
    dev[i] = v[i] > out->p50 ? v[i] - out->p50 : out->p50 - v[i];
  stats_sort(dev, n);
  out->mad = stats_percentile(dev, n, 50);
  free(dev);
}
