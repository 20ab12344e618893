/*
 * stats.h: order statistics and spread of integer microsecond values
 * (hopsplit(1) COMPARISON).  Pure functions: no I/O (wrk stats.c).
 *
 * Percentiles use the nearest-rank rule: the p-th percentile of n values
 * is the ceil(p/100 * n)-th smallest (p95 of 30 values is the 29th).
 * The median is p50 by the same rule (the lower middle value for even n).
 */
#ifndef HOPSPLIT_STATS_H
#define HOPSPLIT_STATS_H

#include <stddef.h>
#include <stdint.h>

struct stats {
  size_t n;
  int64_t min;
  int64_t p50;
  int64_t p95;
  int64_t max;
  int64_t mean;   /* rounded to the nearest microsecond */
  int64_t stddev; /* sample standard deviation (n - 1), 0 when n < 2 */
  int64_t mad;    /* median absolute deviation from p50, unscaled */
};

/* 1-based nearest rank of percentile p (0 < p <= 100) among n values. */
size_t stats_rank(size_t n, unsigned p);
/* The p-th percentile of sorted values; 0 when n == 0. */
int64_t stats_percentile(const int64_t *sorted, size_t n, unsigned p);
void stats_sort(int64_t *v, size_t n);
/* Sorts v in place and fills out; all zero when n == 0. */
void stats_compute(int64_t *v, size_t n, struct stats *out);

#endif
