/*
 * edge_client.c: where the client is, from --client-location (a country
 * code or LAT,LON) or else from the trace's loc, for the edge distance.
 * Pure.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cdn_int.h"
#include "edge.h"
#include "xalloc.h"
#include "banned.h"

/* ---- client location ---- */

void edge_client_init(struct edge_client *c)
{
  memset(c, 0, sizeof(*c));
  c->lat = (double)NAN;
  c->lon = (double)NAN;
  c->source = EDGE_CLIENT_NONE;
}

static int parse_degrees(const char *s, size_t len, double max, double *out)
{
  char tmp[64], *end;
  double v;

  while (len && (*s == ' ' || *s == '\t')) {
    s++;
    len--;
  }
  while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
    len--;
  if (!len || len >= sizeof(tmp))
    return -1;
  memcpy(tmp, s, len);
  tmp[len] = '\0';
  v = strtod(tmp, &end);
  if (*end || !isfinite(v) || v < -max || v > max)
    return -1;
  *out = v;
  return 0;
}

int edge_client_parse(const char *arg, struct edge_client *out, char **err)
{
  const struct edge_country *c;
  const char *comma;

  edge_client_init(out);
  *err = NULL;
  if (!arg || !*arg) {
    *err = xstrdup("empty value: expected a country code such as KR, or "
                   "LAT,LON");
    return -1;
  }
  comma = strchr(arg, ',');
  if (!comma) {
    c = edge_country_lookup(arg);
    if (!c) {
      *err = xasprintf("'%s' is not a known ISO 3166 country code (such "
                       "as KR) nor LAT,LON",
                       arg);
      return -1;
    }
    memcpy(out->country, c->cc, sizeof(out->country));
    out->lat = c->lat;
    out->lon = c->lon;
    out->source = EDGE_CLIENT_OPTION;
    return 0;
  }
  if (strchr(comma + 1, ',')) {
    *err = xasprintf("'%s': expected LAT,LON with one comma", arg);
    return -1;
  }
  if (parse_degrees(arg, (size_t)(comma - arg), 90.0, &out->lat)) {
    *err = xasprintf("'%s': latitude must be a number from -90 to 90", arg);
    edge_client_init(out);
    return -1;
  }
  if (parse_degrees(comma + 1, strlen(comma + 1), 180.0, &out->lon)) {
    *err = xasprintf("'%s': longitude must be a number from -180 to 180", arg);
    edge_client_init(out);
    return -1;
  }
  out->source = EDGE_CLIENT_OPTION;
  return 0;
}

void edge_client_resolve(const struct edge_client *opt,
                         const struct edge_trace *trace,
                         struct edge_client *out)
{
  const struct edge_country *c;

  edge_client_init(out);
  if (opt && opt->source != EDGE_CLIENT_NONE)
    *out = *opt;
  else if (trace && trace->loc && strcasecmp(trace->loc, "XX") &&
           strcasecmp(trace->loc, "T1")) {
    c = edge_country_lookup(trace->loc);
    if (c) {
      memcpy(out->country, c->cc, sizeof(out->country));
      out->lat = c->lat;
      out->lon = c->lon;
      out->source = EDGE_CLIENT_TRACE;
    }
  }
  out->hidden = edge_trace_hides_client(trace);
}
