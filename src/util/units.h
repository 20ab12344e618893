/*
 * units.h: parsing and formatting of durations, counts, byte sizes and
 * timestamps (wrk units.c).  Pure: no I/O, no library types.  Times are
 * int64 microseconds everywhere.
 *
 * Parsers return 0, or -1 with a lowercase message in err (err may be
 * NULL).  Formatters write a NUL-terminated string into the caller's
 * buffer, truncating to len; UNITS_FMT_SIZE bytes always suffice.
 */
#ifndef HOPSPLIT_UNITS_H
#define HOPSPLIT_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Large enough for any output of the formatters below. */
#define UNITS_FMT_SIZE 40

/*
 * Parse a duration: a non-negative decimal number ("250", "1.5", ".5")
 * with an optional suffix "us", "ms" or "s"; a bare number means seconds,
 * as in curl.  Digits beyond microsecond precision are rounded half up.
 * Rejects empty strings, signs, whitespace, other suffixes and values that
 * overflow int64 microseconds.  The result goes to *us.
 */
int units_parse_duration(const char *s, int64_t *us, char *err, size_t errlen);

/*
 * As units_parse_duration, but the unit is required: a bare number ("200";
 * zero excepted, the same in every unit) is an error whose text says how to
 * write it ("write 200ms or 200s"). hopsplit(1): only curl's own options (-m,
 * --connect-timeout) take a bare number as seconds; hopsplit's own (--pause, a
 * profile check's max/min) would silently read 200 as 200 s.
 */
int units_parse_duration_unit(const char *s, int64_t *us, char *err,
                              size_t errlen);

/*
 * Parse a strict decimal integer (digits only: no sign, no whitespace, no
 * hex) within min..max into *out.
 */
int units_parse_uint(const char *s, long min, long max, long *out, char *err,
                     size_t errlen);

/*
 * Human text for a duration in microseconds, in ms below 10 s and in s
 * from there: "0.85 ms", "9.99 ms", "12.3 ms", "123 ms", "9999 ms",
 * "12.3 s".  The precision is chosen after rounding, so 9999 us is
 * "10.0 ms", not "10.00 ms".  Negative values (differences) get a '-'.
 */
void units_format_us(int64_t us, char *out, size_t len);

/*
 * A duration as an option or a profile takes it back: "0", "300us",
 * "250ms", "1.5s", "10s" (the largest unit that writes it exactly, to a
 * tenth of a second at most), so that a plan lists every setting in one
 * style (--dry-run) and each line can be pasted as the option's value.
 * Negative values get a '-'.
 */
void units_format_setting(int64_t us, char *out, size_t len);

/*
 * Human text for a byte count in binary units (1 KiB = 1024 B): "850 B",
 * "1.5 KiB", "454 KiB", "12 MiB", up to TiB.  One decimal below 10 of a
 * unit, none above.  Negative values get a '-'.
 */
void units_format_bytes(int64_t bytes, char *out, size_t len);

/*
 * RFC 3339 UTC timestamp with milliseconds, "2026-11-30T03:55:56.123Z",
 * for milliseconds since the epoch (negative values are before 1970).
 * Writes "" if the time cannot be represented.
 */
void units_rfc3339_ms(int64_t epoch_ms, char *out, size_t len);

/* "2024-05-01T12:00:00.123Z" (as units_rfc3339_ms writes) -> ms since
 * the epoch; 0, or -1 when s has another form. */
int units_parse_rfc3339_ms(const char *s, int64_t *ms);
/* Days from 1970-01-01 to the date y-m-d (proleptic Gregorian; m 1..12). */
int64_t units_days_from_civil(int64_t y, int64_t m, int64_t d);

#endif
