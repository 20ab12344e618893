/*
 * edge.c: the CDN edge of a hop and its distance from the client, the
 * per-hop result (struct edge_result) that joins the other edge files:
 * the vendor (edge_vendor.c), the POP (edge_pop.c), the trace
 * (edge_trace.c), the client (edge_client.c) and the place and distance
 * (edge_place.c).  Input: a hop's diagnostic headers and CNAME chain, the
 * parsed /cdn-cgi/trace of its host, the client's location and the
 * measured connect time.  Output: a struct edge_result per hop.  Pure.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "cdn_int.h"
#include "edge.h"
#include "xalloc.h"
#include "banned.h"

const char *const edge_source_names[EDGE_SOURCE_COUNT] = {"none", "header",
                                                          "trace", "cname"};
const char *const edge_client_source_names[EDGE_CLIENT_SOURCE_COUNT] = {
    "none", "option", "trace"};

/* ---- the per-hop result ---- */

void edge_result_init(struct edge_result *r)
{
  memset(r, 0, sizeof(*r));
  r->lat = r->lon = (double)NAN;
  r->distance_km = r->floor_rtt_ms = r->connect_p50_ms = (double)NAN;
  r->nearest_km = (double)NAN;
  r->source = EDGE_SOURCE_NONE;
  r->distant = -1;
}

void edge_result_release(struct edge_result *r)
{
  free(r->host);
  free(r->vendor);
  free(r->pop);
  free(r->upstream);
  free(r->city);
  free(r->country);
  free(r->distant_why);
  free(r->nearest);
  edge_result_init(r);
}

/* Where a POP code is: an airport or metro row, a Bunny country PoP, or a
 * CDN77 "cityCC" name (country centroid). */
static void place_pop(struct edge_result *r)
{
  const struct edge_pop *p = edge_pop_lookup(r->pop);
  const struct edge_country *c = NULL;
  size_t len = strlen(r->pop);

  if (p) {
    r->city = xstrdup(p->city);
    r->country = xstrdup(p->country);
    r->lat = p->lat;
    r->lon = p->lon;
    return;
  }
  if (len == 2)
    c = edge_country_lookup(r->pop);
  else if (len > 2 && r->vendor && !strcmp(r->vendor, "cdn77") &&
           isupper((unsigned char)r->pop[len - 2]) &&
           isupper((unsigned char)r->pop[len - 1]))
    c = edge_country_lookup(r->pop + len - 2);
  if (c) {
    r->country = xstrdup(c->cc);
    r->lat = c->lat;
    r->lon = c->lon;
  }
}

static void say_why(struct edge_result *r, const struct edge_client *client)
{
  struct buf b;
  int by_rtt = !isnan(r->connect_p50_ms) &&
               r->connect_p50_ms > EDGE_DISTANT_FACTOR * r->floor_rtt_ms +
                                       EDGE_DISTANT_SLACK_MS;

  buf_init(&b, 0);
  if (r->distance_km > EDGE_DISTANT_KM &&
      (!client->country[0] || !r->country ||
       strcasecmp(client->country, r->country)))
    buf_printf(&b, "edge %s (%s%s%s) is %.0f km from the client%s%s", r->pop,
               r->city ? r->city : "", r->city ? ", " : "",
               r->country ? r->country : "?", r->distance_km,
               client->country[0] ? " in " : "", client->country);
  if (by_rtt)
    buf_printf(&b, "%sconnect p50 %.1f ms is far above the %.1f ms floor",
               b.len ? "; " : "", r->connect_p50_ms, r->floor_rtt_ms);
  r->distant_why = buf_detach(&b);
}

void edge_locate(const struct hop *hop, int hop_no,
                 const struct edge_trace *trace,
                 const struct edge_client *client, double connect_p50_ms,
                 struct edge_result *out)
{
  struct edge_id id;
  struct edge_client none;

  edge_result_init(out);
  if (!client) {
    edge_client_init(&none);
    client = &none;
  }
  out->hop = hop_no;
  out->host = hop->info->host ? xstrdup(hop->info->host) : NULL;
  out->connect_p50_ms = connect_p50_ms;
  edge_identify(hop->info->headers, hop->info->n_headers, hop->dns->cnames,
                hop->dns->n_cnames, &id);
  /* Only Cloudflare answers /cdn-cgi/trace with a colo; a trace is no use
   * for a hop another CDN serves. */
  if (trace && trace->colo && !id.pop[0] &&
      (!id.vendor || !strcmp(id.vendor, "cloudflare"))) {
    id.vendor = "cloudflare";
    edge_set_code(id.pop, sizeof(id.pop), trace->colo, strlen(trace->colo));
    id.source = EDGE_SOURCE_TRACE;
  }
  out->vendor = id.vendor ? xstrdup(id.vendor) : NULL;
  out->source = id.source;
  if (id.upstream[0])
    out->upstream = xstrdup(id.upstream);
  out->hidden = client->hidden || edge_trace_hides_client(trace);
  if (!id.pop[0])
    return;
  out->pop = xstrdup(id.pop);
  place_pop(out);
  if (isnan(out->lat) || isnan(client->lat))
    return;
  out->distance_km =
      edge_distance_km(client->lat, client->lon, out->lat, out->lon);
  out->floor_rtt_ms = edge_floor_rtt_ms(out->distance_km);
  if (out->vendor && !strcmp(out->vendor, "cloudflare")) {
    const struct edge_pop *near = edge_pop_nearest(
        EDGE_POP_CLOUDFLARE, client->lat, client->lon, client->country);

    if (near) {
      out->nearest = xstrdup(near->code);
      out->nearest_km =
          edge_distance_km(client->lat, client->lon, near->lat, near->lon);
    }
  }
  /* Behind WARP or Gateway the colo follows the egress, not the user. */
  if (out->hidden)
    return;
  out->distant =
      edge_is_distant(out->distance_km, out->floor_rtt_ms, connect_p50_ms,
                      client->country, out->country);
  if (out->distant == 1)
    say_why(out, client);
}
