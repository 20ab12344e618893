/*
 * compare.h: paired comparison of a target against the baseline, and drift
 * over rounds (hopsplit(1) COMPARISON, the comparison[] and drift[] shapes of
 * hopsplit(1) OUTPUT). Part of the analysis stage, pure: plain int64_t
 * microseconds in, plain structs and numbers out; no I/O and no library types.
 *
 * Pairing.  Round r pairs the baseline's value base[r] with the target's
 * value target[r] (a total or one phase, in the same mode).  A round where
 * either side failed is marked invalid by the caller; it is left out and
 * counted in n_dropped.  The differences are d = target - baseline, so a
 * negative difference means the target is faster.
 *
 * Percentiles use nearest rank, as in the rest of the tool: the p-th
 * percentile of n values is the ceil(p/100 * n)-th smallest; the median is
 * the ceil(n/2)-th smallest (the lower median when n is even).
 *
 * Confidence interval (for the man page).  The 95 % interval of the median
 * paired difference is the distribution-free sign-test interval: with the n
 * differences sorted, d(1) <= ... <= d(n), it is [d(k), d(n-k+1)] for the
 * largest k such that P(B <= k-1) <= 2.5 %, B ~ Binomial(n, 1/2).  Its exact
 * coverage, 1 - 2 P(B <= k-1), is at least 95 % and is stored in ci_level
 * (e.g. n = 6: [d(1), d(6)], 96.9 %; n = 10: [d(2), d(9)], 97.85 %; n = 30:
 * [d(10), d(21)], 95.7 %).  No bootstrap and no random numbers are involved,
 * so the same samples always give the same interval.  With fewer than 6
 * pairs no interval reaches 95 % (n = 5 gives 93.75 % at best): then
 * ci_available is 0, ci_low_us and ci_high_us hold [min, max] of the
 * differences with their actual coverage 1 - 2^(1-n) in ci_level, and the
 * verdict is "no clear difference".  The verdict is "faster" when the whole
 * interval is below 0, "slower" when it is above 0, and "no clear
 * difference" when it contains 0.
 */
#ifndef HOPSPLIT_COMPARE_H
#define HOPSPLIT_COMPARE_H

#include "verdict.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The nominal level of the confidence interval. */
#define COMPARE_CI_LEVEL 0.95

/* Fewest pairs for which a 95 % sign-test interval exists. */
#define COMPARE_CI_MIN_PAIRS 6

/* Drift is worth a warning from this |rho| on, with this many rounds, when
 * the trend is also significant at this two-sided level's normal quantile
 * (2.576: 1 %). */
#define COMPARE_DRIFT_RHO   0.5
#define COMPARE_DRIFT_MIN_N 10
#define COMPARE_DRIFT_Z     2.576

/* The result of one paired comparison; plain values, nothing to free. */
struct compare_result {
  size_t n_pairs;         /* rounds where both sides are valid */
  size_t n_dropped;       /* rounds left out because a side failed */
  int64_t median_diff_us; /* nearest-rank median of target - baseline */
  int64_t ci_low_us;      /* d(k); [min, max] when !ci_available */
  int64_t ci_high_us;     /* d(n-k+1) */
  /* median_diff_us / median of the paired baseline values * 100; NAN when
   * there are no pairs or that median is 0. */
  double change_pct;
  enum compare_verdict verdict;
  int ci_available; /* 1 when [ci_low_us, ci_high_us] covers >= 95 % */
  double ci_level;  /* exact coverage of [ci_low_us, ci_high_us], 0..1 */
  /* compare_unpaired only: 1, and the sizes of the two sides (n_pairs is
   * then the number of (baseline, target) combinations compared). */
  int unpaired;
  size_t n_base;
  size_t n_target;
};

/*
 * Nearest-rank percentile (pct in 0..100; 0 gives the minimum) of the n
 * values of v, which need not be sorted and are not modified.  Returns 0
 * when n is 0.  Allocates a scratch copy internally (fatal on OOM).
 */
int64_t compare_percentile(const int64_t *v, size_t n, unsigned pct);

/* compare_percentile(v, n, 50): the ceil(n/2)-th smallest. */
int64_t compare_median(const int64_t *v, size_t n);

/*
 * The rank k of the sign-test interval [d(k), d(n-k+1)] for n sorted
 * differences: the largest k with exact coverage 1 - 2 P(B <= k-1) >= 95 %,
 * B ~ Binomial(n, 1/2).  The coverage is stored in *coverage when coverage
 * is not NULL.  Returns 0 when no interval reaches 95 % (n < 6); *coverage
 * is then that of [d(1), d(n)], or 0 for n = 0.  Exact for any n: the
 * binomial tail is summed from log-gamma terms, and small n are checked
 * against integer arithmetic in the unit tests.
 */
size_t compare_ci_rank(size_t n, double *coverage);

/*
 * Compare target against base over n_rounds rounds.  valid[r] says whether
 * round r is usable (both sides succeeded); valid may be NULL when every
 * round is.  The arrays are read only; the result is written to *out, which
 * the caller owns.  Cannot fail (scratch memory is allocated with xmalloc).
 * With no valid round, out->n_pairs is 0, the differences and interval are
 * 0, change_pct is NAN and the verdict is "no clear difference".
 */
void compare_paired(const int64_t *base, const int64_t *target,
                    const bool *valid, size_t n_rounds,
                    struct compare_result *out);

/* The comparison the other way round (baseline against target): the
 * differences negated, the interval swapped, faster and slower exchanged,
 * change_pct NAN (it would need the other side's median). */
void compare_result_flip(const struct compare_result *in,
                         struct compare_result *out);

/*
 * Unpaired comparison, for samples that cannot be paired by round (runs
 * from different places, hopsplit merge): the Hodges-Lehmann shift (the
 * nearest-rank median of every difference target[j] - base[i]) and the
 * distribution-free interval of the Mann-Whitney test, [D(w+1), D(N-w)]
 * of the N = nb * nt sorted differences, with w the largest value whose
 * P(U <= w) is at most 2.5 % for the rank-sum statistic U: exact (the
 * Gaussian binomial coefficients) up to N = 10000, else by the normal
 * approximation, w = floor(N/2 - 1.96 sqrt(nb nt (nb + nt + 1) / 12)).
 * ci_level is the coverage 1 - 2 P(U <= w).  When no w exists (too few
 * samples: 4 and 4 is the least) ci_available is 0 and the interval is
 * [min, max] of the differences, with its coverage 1 - 2 / C(nb + nt, nb).
 * Sides of more than 1000 values are thinned to every k-th sorted value
 * so that N is at most a million.  The verdict rule is compare_paired's.
 * out->unpaired is 1.
 */
void compare_unpaired(const int64_t *base, size_t nb, const int64_t *target,
                      size_t nt, struct compare_result *out);

/*
 * Spearman's rank correlation of x and y (n pairs): Pearson's correlation of
 * their ranks, with tied values given the average of their ranks.  Returns
 * NAN when n < 3 or when either side is constant.  Inputs are read only.
 */
double compare_spearman(const int64_t *x, const int64_t *y, size_t n);

/*
 * Drift: Spearman's rho of the values against their round index, over the
 * rounds where valid[r] is set (valid may be NULL: all rounds).  The number
 * of values used is stored in *n_used when n_used is not NULL.  Returns NAN
 * when fewer than 3 values remain or they are all equal.
 */
double compare_drift_rho(const int64_t *values, const bool *valid,
                         size_t n_rounds, size_t *n_used);

/* 1 when a drift of rho over n values deserves a warning: n >= 10,
 * |rho| >= 0.5, and no chance trend at the 1 % level, by the normal
 * approximation of Fieller, Hartley and Pearson (1957) for Spearman's rho:
 * sqrt((n - 3) / 1.06) * atanh(|rho|) >= 2.576.  That asks |rho| >= 0.76
 * at n = 10, 0.57 at 20, 0.51 at 25, the floor of 0.5 from 27 rounds on.
 * 0 otherwise, always 0 for NAN. */
int compare_drift_warning(double rho, size_t n);

/* A drift worth a warning must also be large enough to matter: a fitted
 * change over the run of at least this share of the median total and at
 * least this many microseconds. */
#define COMPARE_DRIFT_MIN_PCT 5.0
#define COMPARE_DRIFT_MIN_US  1000

/*
 * The size of a drift: the Theil-Sen slope of the values against their
 * round (the median of the slopes between every two valid rounds; above
 * 300 valid rounds, between rounds half the run apart), times the rounds
 * from the first valid one to the last: the change a straight line fitted
 * robustly would make over the run.  The slope, in microseconds per
 * round, goes to *slope when slope is not NULL.  0 (and slope 0) with
 * fewer than 2 valid values.  Inputs are read only.
 */
int64_t compare_drift_change(const int64_t *values, const bool *valid,
                             size_t n_rounds, double *slope);

/* 1 when a fitted change of change_us over a run whose median is
 * median_us matters: |change| >= COMPARE_DRIFT_MIN_PCT % of the median
 * and >= COMPARE_DRIFT_MIN_US.  0 otherwise (also for median <= 0). */
int compare_drift_matters(int64_t change_us, int64_t median_us);

#endif
