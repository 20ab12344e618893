/*
 * units.c: parsing of the command line's durations and counts, and the
 * formatting of times, sizes and timestamps for reports.  Pure: integer
 * arithmetic only (no floating point), so results are exact and the same
 * on every platform.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "arraysize.h"
#include "msg.h"
#include "units.h"
#include "banned.h"

static int is_digit(char c)
{
  return c >= '0' && c <= '9';
}

int units_parse_duration(const char *s, int64_t *us, char *err, size_t errlen)
{
  const char *p = s;
  int64_t whole = 0, frac = 0, unit, scale;
  int digits = 0, round_up = 0, frac_digits = 0, unit_digits;

  if (!s || !*s) {
    msg_set(err, errlen, "empty duration (use e.g. 250ms, 1.5s)");
    return -1;
  }
  for (; is_digit(*p); p++, digits++) {
    if (whole > (INT64_MAX - (*p - '0')) / 10) {
      msg_set(err, errlen, "duration '%s' is too large", s);
      return -1;
    }
    whole = whole * 10 + (*p - '0');
  }
  if (*p == '.') {
    for (p++; is_digit(*p); p++, digits++, frac_digits++) {
      /* Kept below: up to 6 digits; the 7th decides the rounding. */
      if (frac_digits < 6)
        frac = frac * 10 + (*p - '0');
      else if (frac_digits == 6)
        round_up = *p >= '5';
    }
  }
  if (!strcmp(p, "us")) {
    unit = 1;
    unit_digits = 0;
  }
  else if (!strcmp(p, "ms")) {
    unit = 1000;
    unit_digits = 3;
  }
  else if (!strcmp(p, "s") || !*p) {
    unit = 1000000;
    unit_digits = 6;
  }
  else {
    unit = 0;
    unit_digits = 0;
  }
  if (!digits || !unit) {
    msg_set(err, errlen, "bad duration '%s' (use e.g. 250ms, 1.5s)", s);
    return -1;
  }
  if (whole > INT64_MAX / unit) {
    msg_set(err, errlen, "duration '%s' is too large", s);
    return -1;
  }
  /* frac holds min(frac_digits, 6) digits; scale it to microseconds,
   * which are unit_digits decimal places of the unit. */
  for (; frac_digits < 6; frac_digits++)
    frac *= 10;
  /* Now frac is in millionths of the unit; keep unit_digits of them. */
  for (scale = 1; unit_digits < 6; unit_digits++)
    scale *= 10;
  if (scale > 1)
    round_up = (frac % scale) * 2 >= scale;
  frac = frac / scale + round_up;
  if (whole * unit > INT64_MAX - frac) {
    msg_set(err, errlen, "duration '%s' is too large", s);
    return -1;
  }
  *us = whole * unit + frac;
  return 0;
}

int units_parse_duration_unit(const char *s, int64_t *us, char *err,
                              size_t errlen)
{
  size_t len = s ? strlen(s) : 0;
  int64_t v;

  /* Zero is zero in every unit: "--pause 0" stays valid. */
  if (len && (is_digit(s[len - 1]) || s[len - 1] == '.') &&
      units_parse_duration(s, &v, NULL, 0) == 0 && v) {
    msg_set(err, errlen, "'%s' has no unit: write %sms or %ss", s, s, s);
    return -1;
  }
  return units_parse_duration(s, us, err, errlen);
}

int units_parse_uint(const char *s, long min, long max, long *out, char *err,
                     size_t errlen)
{
  const char *p;
  long v = 0;

  if (!s || !*s) {
    msg_set(err, errlen, "empty number");
    return -1;
  }
  for (p = s; *p; p++) {
    if (!is_digit(*p)) {
      msg_set(err, errlen, "bad number '%s'", s);
      return -1;
    }
    if (v > (LONG_MAX - (*p - '0')) / 10) {
      msg_set(err, errlen, "'%s' is out of range (%ld..%ld)", s, min, max);
      return -1;
    }
    v = v * 10 + (*p - '0');
  }
  if (v < min || v > max) {
    msg_set(err, errlen, "'%s' is out of range (%ld..%ld)", s, min, max);
    return -1;
  }
  *out = v;
  return 0;
}

/* |v| without overflow for INT64_MIN. */
static uint64_t magnitude(int64_t v)
{
  return v < 0 ? (uint64_t)(-(v + 1)) + 1 : (uint64_t)v;
}

/* n / d rounded half up. */
static uint64_t div_round(uint64_t n, uint64_t d)
{
  return n / d + (n % d >= d - d / 2 ? 1 : 0);
}

void units_format_us(int64_t us, char *out, size_t len)
{
  uint64_t m = magnitude(us), v;
  const char *sign = us < 0 ? "-" : "";

  if (!len)
    return;
  v = div_round(m, 10); /* hundredths of a ms */
  if (v < 1000) {
    snprintf(out, len, "%s%u.%02u ms", sign, (unsigned)(v / 100),
             (unsigned)(v % 100));
    return;
  }
  v = div_round(m, 100); /* tenths of a ms */
  if (v < 1000) {
    snprintf(out, len, "%s%u.%u ms", sign, (unsigned)(v / 10),
             (unsigned)(v % 10));
    return;
  }
  v = div_round(m, 1000); /* ms */
  if (v < 10000) {
    snprintf(out, len, "%s%u ms", sign, (unsigned)v);
    return;
  }
  v = div_round(m, 100000); /* tenths of a s */
  snprintf(out, len, "%s%llu.%u s", sign, (unsigned long long)(v / 10),
           (unsigned)(v % 10));
}

void units_format_setting(int64_t us, char *out, size_t len)
{
  uint64_t m = magnitude(us);
  const char *sign = us < 0 ? "-" : "";

  if (!len)
    return;
  if (!m)
    snprintf(out, len, "0");
  else if (m % 1000000 == 0)
    snprintf(out, len, "%s%llus", sign, (unsigned long long)(m / 1000000));
  else if (m >= 1000000 && m % 100000 == 0)
    snprintf(out, len, "%s%llu.%us", sign, (unsigned long long)(m / 1000000),
             (unsigned)(m % 1000000 / 100000));
  else if (m % 1000 == 0)
    snprintf(out, len, "%s%llums", sign, (unsigned long long)(m / 1000));
  else
    snprintf(out, len, "%s%lluus", sign, (unsigned long long)m);
}

void units_format_bytes(int64_t bytes, char *out, size_t len)
{
  static const char *const names[] = {"KiB", "MiB", "GiB", "TiB"};
  uint64_t m = magnitude(bytes), d = 1024, tenths, whole;
  const char *sign = bytes < 0 ? "-" : "";
  size_t i;

  if (!len)
    return;
  if (m < 1024) {
    snprintf(out, len, "%s%u B", sign, (unsigned)m);
    return;
  }
  for (i = 0; i < ARRAY_SIZE(names); i++, d *= 1024) {
    /* m * 10 / d, rounded, without overflowing m * 10. */
    tenths = (m / d) * 10 + div_round((m % d) * 10, d);
    if (tenths < 100) {
      snprintf(out, len, "%s%u.%u %s", sign, (unsigned)(tenths / 10),
               (unsigned)(tenths % 10), names[i]);
      return;
    }
    whole = div_round(m, d);
    if (whole < 1024 || i + 1 == ARRAY_SIZE(names)) {
      snprintf(out, len, "%s%llu %s", sign, (unsigned long long)whole,
               names[i]);
      return;
    }
  }
}

void units_rfc3339_ms(int64_t epoch_ms, char *out, size_t len)
{
  int64_t secs = epoch_ms / 1000, ms = epoch_ms % 1000;
  time_t t;
  struct tm tm;

  if (!len)
    return;
  out[0] = '\0';
  /* Floor division, so -1 ms is 1969-12-31T23:59:59.999Z. */
  if (ms < 0) {
    ms += 1000;
    secs--;
  }
  t = (time_t)secs;
  if ((int64_t)t != secs || !gmtime_r(&t, &tm))
    return;
  snprintf(out, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
           tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
           (int)ms);
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar
 * (Howard Hinnant's days_from_civil). */
int64_t units_days_from_civil(int64_t y, int64_t m, int64_t d)
{
  int64_t era, yoe, doy, doe;

  y -= m <= 2;
  era = (y >= 0 ? y : y - 399) / 400;
  yoe = y - era * 400;
  doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

int units_parse_rfc3339_ms(const char *s, int64_t *ms)
{
  int64_t f[7] = {0};
  static const int width[7] = {4, 2, 2, 2, 2, 2, 3};
  static const char sep[7] = {'-', '-', 'T', ':', ':', '.', 'Z'};
  int i, k;
  int64_t days;

  if (!s)
    return -1;
  for (i = 0; i < 7; i++) {
    for (k = 0; k < width[i]; k++, s++) {
      if (*s < '0' || *s > '9')
        return -1;
      f[i] = f[i] * 10 + (*s - '0');
    }
    if (*s++ != sep[i])
      return -1;
  }
  if (*s || f[1] < 1 || f[1] > 12 || f[2] < 1 || f[2] > 31 || f[3] > 23 ||
      f[4] > 59 || f[5] > 60)
    return -1;
  days = units_days_from_civil(f[0], f[1], f[2]);
  *ms = ((days * 24 + f[3]) * 60 + f[4]) * 60000 + f[5] * 1000 + f[6];
  return 0;
}
