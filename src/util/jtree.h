/*
 * jtree.h: a small JSON reader into a tree, for re-reading saved results
 * (hopsplit report, one sample at a time through jt_reader).  Renderers
 * never use it: they read typed data through the field table
 * (report_fields.h).
 *
 * Numbers keep their text, so writing a tree back gives the same digits.
 * Object members keep their order.  jt_parse fills a tree the caller
 * releases with jt_release; lookups return borrowed pointers.
 */
#ifndef HOPSPLIT_JTREE_H
#define HOPSPLIT_JTREE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "buf.h"

enum jt_type {
  JT_NULL,
  JT_BOOL,
  JT_NUMBER,
  JT_STRING,
  JT_ARRAY,
  JT_OBJECT,
  JT_COUNT
};

struct jt {
  enum jt_type type;
  int b;        /* JT_BOOL */
  char *s;      /* JT_STRING (decoded UTF-8) or JT_NUMBER (its text) */
  struct jt *v; /* JT_ARRAY items or JT_OBJECT member values */
  char **k;     /* JT_OBJECT member names, n of them */
  size_t n;
};

/* Parse len bytes of text (one JSON value, whitespace around it).
 * Returns 0, or -1 with "line L: reason" in err and *root empty. */
int jt_parse(struct jt *root, const char *text, size_t len, char *err,
             size_t errlen);
void jt_release(struct jt *v);

/* Member of an object, or NULL when v is not an object or has none. */
const struct jt *jt_get(const struct jt *v, const char *key);
/* Item i of an array, or NULL. */
const struct jt *jt_at(const struct jt *v, size_t i);
/* Number of items or members (0 for scalars and NULL). */
size_t jt_len(const struct jt *v);
/* The string, or NULL when v is not a string. */
const char *jt_str(const struct jt *v);
/* Integer value: 0, or -1 when v is not an integer number. */
int jt_int(const struct jt *v, int64_t *out);
/* Any JSON number (also "9e-06", "1.5E3") times 10^scale, truncated
 * toward zero, exactly (no floating point): 0, -1 when v is not a number,
 * -2 when the magnitude exceeds max (max >= 0).  *inexact (may be NULL) is
 * set when non-zero digits were cut off. */
int jt_scaled(const struct jt *v, int scale, int64_t max, int64_t *out,
              int *inexact);
/* Number as a double: 0, or -1 when v is not a number. */
int jt_num(const struct jt *v, double *out);
/* Nested lookup by "a.b.0.c" (digits index arrays); NULL when absent. */
const struct jt *jt_path(const struct jt *v, const char *path);

/* Write v as compact JSON (no spaces), escaped as json.h does. */
void jt_write(struct buf *b, const struct jt *v);
/* Write v as a scalar's plain text: a string unquoted, a number's text,
 * true/false; null and containers write nothing. */
void jt_write_plain(struct buf *b, const struct jt *v);

/*
 * A document read from a stream one value at a time, so that a large
 * file (hopsplit report of 10,000 samples) never sits in memory whole:
 * jt_reader_begin enters an object or array; jt_reader_key gives the next
 * member's name (the caller frees it) and returns 1, or 0 at the closing
 * brace; jt_reader_item returns 1 before the next item of an array, 0 at
 * its end; jt_reader_value parses the value there into a tree (released
 * with jt_release).  Every function returns -1 on bad input with
 * "line L: reason" in r->err; jt_reader_end checks that only whitespace
 * follows.
 */
struct jt_reader {
  FILE *f;
  int have; /* the character peeked at, or -1 */
  size_t line;
  int first; /* no member or item read yet in the current container */
  int failed;
  char err[200];
};

void jt_reader_init(struct jt_reader *r, FILE *f);
int jt_reader_begin(struct jt_reader *r, int object);
/* Whether the next value is an object (nothing is consumed but space). */
int jt_reader_at_object(struct jt_reader *r);
int jt_reader_key(struct jt_reader *r, char **key);
int jt_reader_item(struct jt_reader *r);
int jt_reader_value(struct jt_reader *r, struct jt *out);
int jt_reader_end(struct jt_reader *r);

#endif
