/*
 * compare.c: paired comparison against the baseline and drift over rounds
 * (hopsplit(1) COMPARISON).  Analysis stage, pure: reads int64_t microseconds,
 * writes plain structs.  The interval rule is stated in compare.h, for the man
 * page to cite.
 *
 * Why the sign-test interval rather than a bootstrap: it needs no
 * assumption about the shape of the differences (network timings are
 * skewed and heavy-tailed), it is exact for small n, where a bootstrap is
 * least trustworthy, and it needs no random numbers, so a report can be
 * recomputed from its samples to the microsecond.
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "xalloc.h"

#include "banned.h"

static int cmp_int64(const void *a, const void *b)
{
  int64_t x = *(const int64_t *)a;
  int64_t y = *(const int64_t *)b;

  return (x > y) - (x < y);
}

/* Nearest rank on sorted values: the ceil(pct/100 * n)-th smallest, at
 * least the first.  n > 0. */
static int64_t nearest_rank(const int64_t *sorted, size_t n, unsigned pct)
{
  size_t rank;

  if (pct > 100)
    pct = 100;
  rank = (pct * n + 99) / 100;
  if (!rank)
    rank = 1;
  return sorted[rank - 1];
}

int64_t compare_percentile(const int64_t *v, size_t n, unsigned pct)
{
  int64_t *tmp;
  int64_t result;

  if (!n)
    return 0;
  tmp = xmalloc(n * sizeof(*tmp));
  memcpy(tmp, v, n * sizeof(*tmp));
  qsort(tmp, n, sizeof(*tmp), cmp_int64);
  result = nearest_rank(tmp, n, pct);
  free(tmp);
  return result;
}

int64_t compare_median(const int64_t *v, size_t n)
{
  return compare_percentile(v, n, 50);
}

/*
 * P(B = i) for B ~ Binomial(n, 1/2) is C(n, i) / 2^n.  The terms are formed
 * in the log domain from log-gamma, whose relative error stays near 1e-15
 * times log(n!), i.e. about 1e-11 for n = 10 000 where 2^-n itself would
 * underflow a double.  The tail is summed from the smallest term upwards.
 * P(B <= k-1) is a multiple of 2^-n and 2.5 % is not, so they are never
 * equal, and the unit tests check the resulting k against exact integer
 * arithmetic.
 */
size_t compare_ci_rank(size_t n, double *coverage)
{
  double alpha_half = (1.0 - COMPARE_CI_LEVEL) / 2;
  double dn = (double)n;
  double lfact_n = lgamma(dn + 1);
  double log_half_n = -dn * log(2.0);
  double cdf = 0; /* P(B <= k-1) */
  size_t k = 0;
  size_t i;

  if (!n) {
    if (coverage)
      *coverage = 0;
    return 0;
  }
  for (i = 0; i <= n / 2; i++) {
    double di = (double)i;
    double lp = lfact_n - lgamma(di + 1) - lgamma(dn - di + 1) + log_half_n;
    double next = cdf + exp(lp);

    if (next > alpha_half)
      break;
    cdf = next;
    k = i + 1;
  }
  if (coverage) {
    if (k)
      *coverage = 1 - 2 * cdf;
    else
      /* Only n < 6 gets here.  [d(1), d(n)] misses the median only when
       * all n differences fall on one side of it: 2 * 2^-n. */
      *coverage = 1 - ldexp(1.0, 1 - (int)n);
  }
  return k;
}

void compare_paired(const int64_t *base, const int64_t *target,
                    const bool *valid, size_t n_rounds,
                    struct compare_result *out)
{
  int64_t *diff;
  int64_t *bsorted;
  int64_t base_median;
  size_t n = 0;
  size_t k;
  size_t r;
  double coverage;

  memset(out, 0, sizeof(*out));
  out->change_pct = (double)NAN;
  out->verdict = COMPARE_NO_CLEAR_DIFFERENCE;
  if (!n_rounds)
    return;

  diff = xmalloc(n_rounds * sizeof(*diff));
  bsorted = xmalloc(n_rounds * sizeof(*bsorted));
  for (r = 0; r < n_rounds; r++) {
    if (valid && !valid[r])
      continue;
    diff[n] = target[r] - base[r];
    bsorted[n] = base[r];
    n++;
  }
  out->n_pairs = n;
  out->n_dropped = n_rounds - n;
  if (!n)
    goto out;

  qsort(diff, n, sizeof(*diff), cmp_int64);
  qsort(bsorted, n, sizeof(*bsorted), cmp_int64);
  out->median_diff_us = nearest_rank(diff, n, 50);
  base_median = nearest_rank(bsorted, n, 50);
  if (base_median)
    out->change_pct =
        (double)out->median_diff_us / (double)base_median * 100.0;

  k = compare_ci_rank(n, &coverage);
  out->ci_level = coverage;
  if (k) {
    out->ci_available = 1;
    out->ci_low_us = diff[k - 1];
    out->ci_high_us = diff[n - k];
    if (out->ci_high_us < 0)
      out->verdict = COMPARE_FASTER;
    else if (out->ci_low_us > 0)
      out->verdict = COMPARE_SLOWER;
  }
  else {
    /* Too few pairs for 95 %: show the range with its real coverage, but
     * never call a winner on it. */
    out->ci_low_us = diff[0];
    out->ci_high_us = diff[n - 1];
  }

out:
  free(diff);
  free(bsorted);
}

struct ranked {
  int64_t value;
  size_t index;
};

static int cmp_ranked(const void *a, const void *b)
{
  const struct ranked *x = a;
  const struct ranked *y = b;

  if (x->value != y->value)
    return (x->value > y->value) - (x->value < y->value);
  return (x->index > y->index) - (x->index < y->index);
}

/* Store in c[i] twice the centred average rank of v[i]: 2 * rank - (n + 1).
 * Average ranks always sum to n(n+1)/2, so the mean rank is (n+1)/2 with or
 * without ties, and doubling keeps every value an integer (a tie group
 * spanning sorted positions i..j, 0-based, has average rank (i+j+2)/2). */
static void centred_ranks(const int64_t *v, size_t n, double *c)
{
  struct ranked *tmp = xmalloc(n * sizeof(*tmp));
  size_t i;
  size_t j;

  for (i = 0; i < n; i++) {
    tmp[i].value = v[i];
    tmp[i].index = i;
  }
  qsort(tmp, n, sizeof(*tmp), cmp_ranked);
  for (i = 0; i < n; i = j + 1) {
    size_t g;
    double twice_centred;

    j = i;
    while (j + 1 < n && tmp[j + 1].value == tmp[i].value)
      j++;
    twice_centred = (double)(i + j + 2) - (double)(n + 1);
    for (g = i; g <= j; g++)
      c[tmp[g].index] = twice_centred;
  }
  free(tmp);
}

double compare_spearman(const int64_t *x, const int64_t *y, size_t n)
{
  double *cx;
  double *cy;
  double sxy = 0;
  double sxx = 0;
  double syy = 0;
  double rho = (double)NAN;
  size_t i;

  if (n < 3)
    return (double)NAN;
  cx = xmalloc(n * sizeof(*cx));
  cy = xmalloc(n * sizeof(*cy));
  centred_ranks(x, n, cx);
  centred_ranks(y, n, cy);
  for (i = 0; i < n; i++) {
    sxy += cx[i] * cy[i];
    sxx += cx[i] * cx[i];
    syy += cy[i] * cy[i];
  }
  if (sxx > 0 && syy > 0) {
    rho = sxy / (sqrt(sxx) * sqrt(syy));
    /* Rounding may step just past +-1 for a perfect monotone relation. */
    if (rho > 1)
      rho = 1;
    else if (rho < -1)
      rho = -1;
  }
  free(cx);
  free(cy);
  return rho;
}

double compare_drift_rho(const int64_t *values, const bool *valid,
                         size_t n_rounds, size_t *n_used)
{
  int64_t *v;
  int64_t *idx;
  size_t n = 0;
  size_t r;
  double rho;

  if (n_used)
    *n_used = 0;
  if (!n_rounds)
    return (double)NAN;
  v = xmalloc(n_rounds * sizeof(*v));
  idx = xmalloc(n_rounds * sizeof(*idx));
  for (r = 0; r < n_rounds; r++) {
    if (valid && !valid[r])
      continue;
    v[n] = values[r];
    idx[n] = (int64_t)r;
    n++;
  }
  rho = compare_spearman(v, idx, n);
  if (n_used)
    *n_used = n;
  free(v);
  free(idx);
  return rho;
}

int compare_drift_warning(double rho, size_t n)
{
  double r = fabs(rho);

  if (isnan(rho) || n < COMPARE_DRIFT_MIN_N || r < COMPARE_DRIFT_RHO)
    return 0;
  /* |rho| = 1 is a perfect trend (atanh would be infinite). */
  return r >= 1.0 ||
         sqrt((double)(n - 3) / 1.06) * atanh(r) >= COMPARE_DRIFT_Z;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return x < y ? -1 : x > y;
}

int64_t compare_drift_change(const int64_t *values, const bool *valid,
                             size_t n_rounds, double *slope)
{
  size_t *idx, n = 0, r, i, j, m = 0, cap;
  double *s, med;
  int64_t change;

  if (slope)
    *slope = 0;
  if (n_rounds < 2)
    return 0;
  idx = xmalloc(n_rounds * sizeof(*idx));
  for (r = 0; r < n_rounds; r++)
    if (!valid || valid[r])
      idx[n++] = r;
  if (n < 2) {
    free(idx);
    return 0;
  }
  /* Every pair up to 300 values (45,000 slopes); beyond, the
   * pairs half the run apart, which keeps the estimate robust and the
   * work linear. */
  cap = n <= 300 ? n * (n - 1) / 2 : n - n / 2;
  s = xmalloc(cap * sizeof(*s));
  if (n <= 300) {
    for (i = 0; i < n; i++)
      for (j = i + 1; j < n; j++)
        s[m++] = (double)(values[idx[j]] - values[idx[i]]) /
                 (double)(idx[j] - idx[i]);
  }
  else {
    for (i = 0; i + n / 2 < n; i++) {
      j = i + n / 2;
      s[m++] = (double)(values[idx[j]] - values[idx[i]]) /
               (double)(idx[j] - idx[i]);
    }
  }
  qsort(s, m, sizeof(*s), cmp_double);
  /* The median slope, the mean of the two middle ones for an even count. */
  med = m % 2 ? s[m / 2] : (s[m / 2 - 1] + s[m / 2]) / 2.0;
  change = (int64_t)llround(med * (double)(idx[n - 1] - idx[0]));
  if (slope)
    *slope = med;
  free(s);
  free(idx);
  return change;
}

int compare_drift_matters(int64_t change_us, int64_t median_us)
{
  int64_t a = change_us < 0 ? -change_us : change_us;

  if (median_us <= 0)
    return 0;
  return a >= COMPARE_DRIFT_MIN_US &&
         (double)a * 100.0 >= COMPARE_DRIFT_MIN_PCT * (double)median_us;
}

void compare_result_flip(const struct compare_result *in,
                         struct compare_result *out)
{
  *out = *in;
  out->median_diff_us = -in->median_diff_us;
  out->ci_low_us = -in->ci_high_us;
  out->ci_high_us = -in->ci_low_us;
  out->change_pct = (double)NAN;
  if (in->verdict == COMPARE_FASTER)
    out->verdict = COMPARE_SLOWER;
  else if (in->verdict == COMPARE_SLOWER)
    out->verdict = COMPARE_FASTER;
}
