/*
 * compare_unpaired.c: the Hodges-Lehmann shift and Mann-Whitney interval
 * of two independent sets of values (compare.h), for comparisons across
 * vantage points, whose samples share no rounds.  Pure: integers in, a
 * struct compare_result out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "xalloc.h"
#include "banned.h"

/* Above this many values a side is thinned (N = nb * nt stays < 1e6). */
#define SIDE_MAX 1000

static int cmp_i64(const void *a, const void *b)
{
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

  return (x > y) - (x < y);
}

/* A sorted copy of v, every k-th value when there are more than SIDE_MAX:
 * its length in *out_n. */
static int64_t *sorted_side(const int64_t *v, size_t n, size_t *out_n)
{
  int64_t *all = xmalloc((n ? n : 1) * sizeof(*all));
  size_t step, i, m = 0;

  memcpy(all, v, n * sizeof(*all));
  qsort(all, n, sizeof(*all), cmp_i64);
  step = n > SIDE_MAX ? (n + SIDE_MAX - 1) / SIDE_MAX : 1;
  for (i = 0; i < n; i += step)
    all[m++] = all[i];
  *out_n = m;
  return all;
}

/* log C(n, k) from log-gamma. */
static double log_choose(size_t n, size_t k)
{
  return lgamma((double)n + 1) - lgamma((double)k + 1) -
         lgamma((double)(n - k) + 1);
}

void compare_unpaired(const int64_t *base, size_t nb, const int64_t *target,
                      size_t nt, struct compare_result *out)
{
  int64_t *b, *t, *d;
  size_t mb, mt, n, i, j, k;
  double sd, w;

  memset(out, 0, sizeof(*out));
  out->unpaired = 1;
  out->n_base = nb;
  out->n_target = nt;
  out->change_pct = (double)NAN;
  out->verdict = COMPARE_NO_CLEAR_DIFFERENCE;
  if (!nb || !nt)
    return;
  b = sorted_side(base, nb, &mb);
  t = sorted_side(target, nt, &mt);
  n = mb * mt;
  d = xmalloc(n * sizeof(*d));
  for (i = 0, k = 0; i < mb; i++)
    for (j = 0; j < mt; j++)
      d[k++] = t[j] - b[i];
  qsort(d, n, sizeof(*d), cmp_i64);
  out->n_pairs = n;
  out->median_diff_us = d[(n + 1) / 2 - 1];
  if (b[(mb + 1) / 2 - 1])
    out->change_pct =
        (double)out->median_diff_us / (double)b[(mb + 1) / 2 - 1] * 100.0;
  sd = sqrt((double)mb * (double)mt * (double)(mb + mt + 1) / 12.0);
  w = floor((double)n / 2.0 - 1.959964 * sd);
  if (w >= 0 && (size_t)w < n / 2) {
    size_t lo = (size_t)w; /* D(w + 1), 0-based w */

    out->ci_available = 1;
    out->ci_low_us = d[lo];
    out->ci_high_us = d[n - 1 - lo];
    out->ci_level =
        1.0 -
        2.0 * 0.5 * erfc(-((w + 0.5 - (double)n / 2.0) / sd) / sqrt(2.0));
    if (out->ci_high_us < 0)
      out->verdict = COMPARE_FASTER;
    else if (out->ci_low_us > 0)
      out->verdict = COMPARE_SLOWER;
  }
  else {
    out->ci_low_us = d[0];
    out->ci_high_us = d[n - 1];
    out->ci_level = 1.0 - 2.0 * exp(-log_choose(mb + mt, mb));
    if (out->ci_level < 0)
      out->ci_level = 0;
  }
  free(d);
  free(b);
  free(t);
}
