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

/* Above this many values a side is thinned (N = nb * nt <= 1e6). */
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

/* Up to this N = nb * nt the rank-sum statistic's distribution is exact. */
#define EXACT_MAX 10000

/*
 * The exact distribution of the Mann-Whitney U for sizes m and n under no
 * difference: the coefficients of the Gaussian binomial [m+n choose m] in
 * q, prod_{k=1..m} (1 - q^(n+k)) / (1 - q^k), built one factor at a time.
 * Sets *w to the largest u with P(U <= u) <= 2.5 % (-1 when there is
 * none) and *coverage to 1 - 2 P(U <= *w) (or that of u = 0).
 */
static void exact_w(size_t m, size_t n, long *w, double *coverage)
{
  /* The product has degree k n + k before the k-th division: room for
   * m n + m coefficients. */
  size_t deg = m * n, k, u, top = 0;
  long double *c = xcalloc(deg + m + 1, sizeof(*c)), total = 0, cum = 0;

  c[0] = 1;
  for (k = 1; k <= m; k++) {
    size_t s = n + k;

    /* times (1 - q^s): from the top, so that c[u - s] is still old */
    for (u = top + s; u >= s; u--)
      c[u] -= c[u - s];
    top += s;
    /* divided by (1 - q^k): a running sum with stride k */
    for (u = k; u <= top; u++)
      c[u] += c[u - k];
    top -= k;
  }
  for (u = 0; u <= deg; u++)
    total += c[u];
  *w = -1;
  *coverage = (double)(1 - 2 * c[0] / total);
  for (u = 0; u <= deg; u++) {
    cum += c[u];
    if (cum / total > 0.025L)
      break;
    *w = (long)u;
    *coverage = (double)(1 - 2 * cum / total);
  }
  free(c);
}

/* The same by the normal approximation, for large N. */
static void normal_w(size_t m, size_t n, long *w, double *coverage)
{
  double mean = (double)m * (double)n / 2.0;
  double sd = sqrt((double)m * (double)n * (double)(m + n + 1) / 12.0);
  double x = floor(mean - 1.959964 * sd);

  *w = x < 0 ? -1 : (long)x;
  *coverage =
      1.0 - erfc(-((double)(x < 0 ? 0 : x) + 0.5 - mean) / sd / sqrt(2.0));
}

void compare_unpaired(const int64_t *base, size_t nb, const int64_t *target,
                      size_t nt, struct compare_result *out)
{
  int64_t *b, *t, *d;
  size_t mb, mt, n, i, j, k;
  long w;
  double coverage;

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
  if (n <= EXACT_MAX)
    exact_w(mb, mt, &w, &coverage);
  else
    normal_w(mb, mt, &w, &coverage);
  out->ci_level = coverage;
  if (w >= 0 && (size_t)w < n / 2) {
    size_t lo = (size_t)w; /* D(w + 1), 0-based */

    out->ci_available = 1;
    out->ci_low_us = d[lo];
    out->ci_high_us = d[n - 1 - lo];
    if (out->ci_high_us < 0)
      out->verdict = COMPARE_FASTER;
    else if (out->ci_low_us > 0)
      out->verdict = COMPARE_SLOWER;
  }
  else {
    /* Too few samples for 95 %: the range, with its real coverage, and
     * no winner called on it. */
    out->ci_low_us = d[0];
    out->ci_high_us = d[n - 1];
  }
  free(d);
  free(b);
  free(t);
}
