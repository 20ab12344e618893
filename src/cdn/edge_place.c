/*
 * edge_place.c: where an edge is.  The POP and country tables of
 * poptable.c looked up by code or by nearness, the great-circle distance
 * between two places, the round trip that distance costs light in fibre,
 * and whether a connect time says the edge is far from the client.  Also
 * the code helpers the other edge files share (cdn_int.h).  Pure.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cdn_int.h"
#include "edge.h"
#include "banned.h"

/* C11 without extensions has no M_PI. */
#define EDGE_PI 3.14159265358979323846

/* Copy the leading run of letters of s, upper-cased, into out (at most
 * max letters, out has room for max + 1).  Return the count. */
size_t edge_upper_letters(const char *s, char *out, size_t max)
{
  size_t i = 0;

  while (i < max && isalpha((unsigned char)s[i]) && !(s[i] & 0x80)) {
    out[i] = (char)toupper((unsigned char)s[i]);
    i++;
  }
  out[i] = '\0';
  return i;
}

void edge_set_code(char *dst, size_t size, const char *src, size_t len)
{
  size_t i;

  if (len >= size)
    len = size - 1;
  for (i = 0; i < len; i++)
    dst[i] = (char)toupper((unsigned char)src[i]);
  dst[len] = '\0';
}

/* ---- tables ---- */

static int cmp_pop(const void *key, const void *elt)
{
  return strcmp(key, ((const struct edge_pop *)elt)->code);
}

static int cmp_country(const void *key, const void *elt)
{
  return strcmp(key, ((const struct edge_country *)elt)->cc);
}

const struct edge_pop *edge_pop_lookup(const char *code)
{
  char key[4];

  if (!code || edge_upper_letters(code, key, 3) != 3 || code[3])
    return NULL;
  return bsearch(key, edge_pops, edge_n_pops, sizeof(edge_pops[0]), cmp_pop);
}

const struct edge_country *edge_country_lookup(const char *cc)
{
  char key[3];

  if (!cc || edge_upper_letters(cc, key, 2) != 2 || cc[2])
    return NULL;
  return bsearch(key, edge_countries, edge_n_countries,
                 sizeof(edge_countries[0]), cmp_country);
}

const struct edge_pop *edge_pop_nearest(unsigned flags, double lat, double lon,
                                        const char *client_country)
{
  const struct edge_pop *best = NULL;
  double best_km = (double)INFINITY;
  int in_cn = client_country && !strcasecmp(client_country, "CN");
  size_t i;

  if (isnan(lat) || isnan(lon))
    return NULL;
  for (i = 0; i < edge_n_pops; i++) {
    const struct edge_pop *p = &edge_pops[i];
    double km;

    if ((p->flags & flags) != flags)
      continue;
    if (!in_cn && !strcmp(p->country, "CN"))
      continue;
    km = edge_distance_km(lat, lon, p->lat, p->lon);
    if (km < best_km) {
      best_km = km;
      best = p;
    }
  }
  return best;
}

/* ---- distance ---- */

double edge_distance_km(double lat1, double lon1, double lat2, double lon2)
{
  const double d2r = EDGE_PI / 180.0;
  double p1 = lat1 * d2r, p2 = lat2 * d2r;
  double dp = p2 - p1, dl = (lon2 - lon1) * d2r;
  double h = sin(dp / 2) * sin(dp / 2) +
             cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2);

  if (isnan(h))
    return (double)NAN;
  if (h > 1.0)
    h = 1.0;
  return 2.0 * EDGE_EARTH_RADIUS_KM * asin(sqrt(h));
}

double edge_floor_rtt_ms(double km)
{
  return km / EDGE_FLOOR_KM_PER_MS;
}

int edge_is_distant(double distance_km, double floor_ms, double connect_ms,
                    const char *client_country, const char *edge_country)
{
  int other_country;

  if (isnan(distance_km))
    return -1;
  if (isnan(floor_ms))
    floor_ms = edge_floor_rtt_ms(distance_km);
  if (!isnan(connect_ms) &&
      connect_ms > EDGE_DISTANT_FACTOR * floor_ms + EDGE_DISTANT_SLACK_MS)
    return 1;
  other_country = !client_country || !*client_country || !edge_country ||
                  !*edge_country || strcasecmp(client_country, edge_country);
  return other_country && distance_km > EDGE_DISTANT_KM;
}
