/*
 * json.h: a small streaming JSON writer into struct buf.  Keys are given
 * with each value (NULL inside arrays).  Strings are escaped and invalid
 * UTF-8 becomes U+FFFD, so any bytes a server sends give valid JSON.
 */
#ifndef HOPSPLIT_JSON_H
#define HOPSPLIT_JSON_H

#include <stdint.h>

#include "buf.h"

#define JSON_MAX_DEPTH 32

struct json {
  struct buf *b;
  int depth;
  int count[JSON_MAX_DEPTH]; /* values written at each level */
  int pretty;
};

void json_init(struct json *j, struct buf *b, int pretty);
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
/* val NULL writes null. */
void json_string(struct json *j, const char *key, const char *val);
void json_int(struct json *j, const char *key, int64_t v);
/* NaN or infinity write null. */
void json_double(struct json *j, const char *key, double v, int decimals);
/* A count of microseconds as seconds with 6 decimals: the bytes
 * json_double(j, k, us / 1e6, 6) writes, without printf. */
void json_us_seconds(struct json *j, const char *k, int64_t us);
void json_bool(struct json *j, const char *key, int v);
void json_null(struct json *j, const char *key);
/* Append s as a quoted, escaped JSON string to b. */
void json_quote(struct buf *b, const char *s);

#endif
