/*
 * test_edge.c: unit tests of edge.c and the generated poptable.c: the
 * vendor and POP of every captured header block in tests/data/headers
 * ("# pop:", "# city:", "# upstream:" ... lines at the top of each file),
 * table lookups, haversine against known city pairs, the distant rule,
 * /cdn-cgi/trace parsing (good, oversize, binary, garbage), client
 * locations and the case of issue 3 end to end.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edge.h"
#include "sample.h"
#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

#include "check.h"

/* ---- captured header blocks ---- */

struct capture {
  char name[128];
  struct hop hop;
  const char *vendor, *edge_vendor, *pop, *city, *country, *upstream, *source;
  char *text;
};

static void add_cname(struct hop *h, const char *name)
{
  hop_strv_push(&hop_dns_edit(h)->cnames, &hop_dns_edit(h)->n_cnames, name);
}

static void on_key(const char *key, char *val, void *ud)
{
  struct capture *c = ud;

  if (!strcmp(key, "vendor"))
    c->vendor = val;
  else if (!strcmp(key, "edge-vendor"))
    c->edge_vendor = val;
  else if (!strcmp(key, "pop"))
    c->pop = val;
  else if (!strcmp(key, "city"))
    c->city = val;
  else if (!strcmp(key, "country"))
    c->country = val;
  else if (!strcmp(key, "upstream"))
    c->upstream = val;
  else if (!strcmp(key, "source"))
    c->source = val;
  else if (!strcmp(key, "cname"))
    add_cname(&c->hop, val);
  else if (!strcmp(key, "host"))
    hop_info_edit(&c->hop)->host = strpool_intern(val);
}

static void capture_load(const char *file, struct capture *c)
{
  memset(c, 0, sizeof(*c));
  hop_init(&c->hop);
  snprintf(c->name, sizeof(c->name), "%s", file);
  hop_info_edit(&c->hop)->host = strpool_intern("www.example.com");
  check_capture_read(file, &c->hop, &c->text, on_key, c);
  if (!c->vendor || !c->pop) {
    print_error("case %s: needs '# vendor:' and '# pop:' lines\n", file);
    fail();
  }
  if (!c->edge_vendor)
    c->edge_vendor = c->vendor;
}

static void capture_release(struct capture *c)
{
  hop_release(&c->hop);
  free(c->text);
}

static void check_capture(const char *file, size_t *with_pop)
{
  struct capture c;
  struct edge_result r;

  capture_load(file, &c);
  edge_locate(&c.hop, 1, NULL, NULL, (double)NAN, &r);
  CHECK_OPT(c.name, r.vendor, c.edge_vendor);
  CHECK_OPT(c.name, r.pop, c.pop);
  if (c.city)
    CHECK_OPT(c.name, r.city, c.city);
  if (c.country)
    CHECK_OPT(c.name, r.country, c.country);
  CHECK_OPT(c.name, r.upstream, c.upstream ? c.upstream : "null");
  if (c.source)
    CHECK_STR(c.name, edge_source_names[r.source], c.source);
  else
    CHECK_STR(c.name, edge_source_names[r.source],
              strcmp(c.edge_vendor, "null") ? "header" : "none");
  /* A POP that is an airport code always resolves to a place. */
  if (r.pop && strlen(r.pop) == 3 && isnan(r.lat)) {
    print_error("case %s: POP %s has no coordinates\n", c.name, r.pop);
    fail();
  }
  /* Without a client, nothing about distance is known. */
  assert_true(isnan(r.distance_km));
  CHECK_INT(c.name, r.distant, -1);
  CHECK_STR(c.name, r.host, c.hop.info->host);
  CHECK_INT(c.name, r.hop, 1);
  if (r.pop)
    (*with_pop)++;
  edge_result_release(&r);
  capture_release(&c);
}

static int cmp_names(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_captures(void **state)
{
  char dir[512];
  DIR *d;
  struct dirent *e;
  char **names = NULL;
  size_t n = 0, i, with_pop = 0;

  (void)state;
  snprintf(dir, sizeof(dir), "%s/headers", HOPSPLIT_TEST_DATA);
  d = opendir(dir);
  assert_non_null(d);
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);

    if (len < 5 || strcmp(e->d_name + len - 4, ".txt"))
      continue;
    names = xrealloc(names, (n + 1) * sizeof(*names));
    names[n++] = xstrdup(e->d_name);
  }
  closedir(d);
  qsort(names, n, sizeof(*names), cmp_names);
  assert_true(n >= 30);
  for (i = 0; i < n; i++) {
    check_capture(names[i], &with_pop);
    free(names[i]);
  }
  free(names);
  assert_true(with_pop >= 20);
}

/* ---- the case of issue 3 ---- */

static void load_key_case(struct capture *c)
{
  capture_load("cloudflare-bypass-nostore.txt", c);
}

static void test_key_case(void **state)
{
  struct capture c;
  struct edge_client client;
  struct edge_result r;
  char *err = NULL;

  (void)state;
  load_key_case(&c);
  assert_int_equal(edge_wants_trace(&c.hop), 1);
  assert_int_equal(edge_client_parse("KR", &client, &err), 0);
  assert_null(err);
  edge_locate(&c.hop, 1, NULL, &client, 45.0, &r);
  assert_string_equal(r.vendor, "cloudflare");
  assert_string_equal(r.pop, "HKG");
  assert_string_equal(r.city, "Hong Kong");
  assert_string_equal(r.country, "HK");
  assert_string_equal(r.host, "api.example.com");
  assert_int_equal(r.source, EDGE_SOURCE_HEADER);
  /* CDN.md 8: Korea centroid to HKG 2 019 km, floor about 20 ms. */
  CHECK_NEAR("KR-HKG", r.distance_km, 2019.0, 15.0);
  CHECK_NEAR("KR-HKG", r.floor_rtt_ms, 20.19, 0.15);
  CHECK_NEAR("KR-HKG", r.connect_p50_ms, 45.0, 0.0);
  assert_int_equal(r.distant, 1);
  assert_int_equal(r.hidden, 0);
  assert_non_null(r.distant_why);
  assert_non_null(strstr(r.distant_why, "Hong Kong"));
  assert_non_null(strstr(r.distant_why, " in KR"));
  /* The nearest Cloudflare colo to a Korean client is Seoul. */
  assert_string_equal(r.nearest, "ICN");
  assert_true(r.nearest_km < 300.0);
  edge_result_release(&r);
  assert_null(r.pop);
  assert_true(isnan(r.lat));

  /* A connect far above the floor is distant even within one country. */
  assert_int_equal(edge_client_parse("HK", &client, &err), 0);
  edge_locate(&c.hop, 1, NULL, &client, 180.0, &r);
  assert_int_equal(r.distant, 1);
  assert_non_null(strstr(r.distant_why, "far above"));
  edge_result_release(&r);
  edge_locate(&c.hop, 1, NULL, &client, 8.0, &r);
  assert_int_equal(r.distant, 0);
  assert_null(r.distant_why);
  edge_result_release(&r);
  capture_release(&c);
}

static const char trace_kr[] = "fl=80f263\n"
                               "h=api.example.com\n"
                               "ip=211.23.129.135\n"
                               "ts=1735200815.846\n"
                               "visit_scheme=https\n"
                               "uag=hopsplit/0.1.0 (a=b)\n"
                               "colo=HKG\n"
                               "sliver=none\n"
                               "http=http/2\n"
                               "loc=KR\n"
                               "tls=TLSv1.3\n"
                               "sni=plaintext\n"
                               "warp=off\n"
                               "gateway=off\n"
                               "rbi=off\n"
                               "kex=X25519MLKEM768\n";

/* The trace's colo and loc stand in when the headers say less. */
static void test_key_case_trace(void **state)
{
  struct edge_trace t;
  struct edge_client client;
  struct edge_result r;
  struct hop h;
  char *warp;

  (void)state;
  assert_int_equal(edge_trace_parse(trace_kr, strlen(trace_kr), &t), 0);
  edge_client_resolve(NULL, &t, &client);
  assert_int_equal(client.source, EDGE_CLIENT_TRACE);
  assert_string_equal(client.country, "KR");
  CHECK_NEAR("KR lat", client.lat, 35.907757, 1e-6);

  /* No cf-ray: the trace gives the POP. */
  hop_init(&h);
  hop_info_edit(&h)->host = strpool_intern("api.example.com");
  hop_add_header(&h, "server", "cloudflare");
  edge_locate(&h, 2, &t, &client, (double)NAN, &r);
  assert_int_equal(r.hop, 2);
  assert_string_equal(r.pop, "HKG");
  assert_int_equal(r.source, EDGE_SOURCE_TRACE);
  assert_int_equal(r.distant, 1);
  assert_true(isnan(r.connect_p50_ms));
  edge_result_release(&r);

  /* A hop another CDN serves ignores the trace. */
  hop_add_header(&h, "x-served-by", "cache-lhr7380-LHR");
  edge_locate(&h, 2, &t, &client, (double)NAN, &r);
  assert_string_equal(r.vendor, "cloudflare"); /* still outermost */
  assert_string_equal(r.pop, "HKG");
  edge_result_release(&r);
  hop_release(&h);
  hop_init(&h);
  hop_add_header(&h, "x-served-by", "cache-lhr7380-LHR");
  edge_locate(&h, 1, &t, &client, (double)NAN, &r);
  assert_string_equal(r.vendor, "fastly");
  assert_string_equal(r.pop, "LHR");
  assert_int_equal(r.source, EDGE_SOURCE_HEADER);
  edge_result_release(&r);

  /* WARP hides the client: say so instead of "distant". */
  warp = t.warp;
  t.warp = xstrdup("plus");
  edge_client_resolve(NULL, &t, &client);
  assert_int_equal(client.hidden, 1);
  hop_release(&h);
  hop_init(&h);
  hop_add_header(&h, "cf-ray", "8f2b3c4d5e6f7a8b-HKG");
  edge_locate(&h, 1, &t, &client, 45.0, &r);
  assert_int_equal(r.hidden, 1);
  assert_int_equal(r.distant, -1);
  assert_true(!isnan(r.distance_km));
  edge_result_release(&r);
  free(t.warp);
  t.warp = warp;
  hop_release(&h);
  edge_trace_release(&t);
}

/* ---- tables ---- */

static void test_tables(void **state)
{
  /* Codes CDN.md names for CloudFront, Fastly, Bunny and Vercel, and the
   * Cloudflare colos that are not large or medium airports (1.5). */
  static const char *const named[] = {
      "PHX", "SEA", "LHR", "NRT", "LAX", "CMH", "FRA", "PRG", "ICN", "JFK",
      "IAD", "SJC", "WDC", "BWI", "DCA", "HKG", "ARN", "BOM", "CDG", "CLE",
      "CPT", "DUB", "GRU", "HND", "KIX", "PDX", "SFO", "SIN", "SYD", "YUL",
      "TXL", "KIV", "FRU", "LLK", "ZDM", "QWJ", "CFC", "JDO", "SOD", "JRG",
      "JXG", "TPE", "AMS", "DME", "EZE", "JNB"};
  const struct edge_pop *p;
  size_t i, colos = 0;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(named); i++) {
    p = edge_pop_lookup(named[i]);
    if (!p) {
      print_error("POP %s missing from the table\n", named[i]);
      fail();
    }
    assert_true(*p->city);
    assert_true(p->lat >= -90 && p->lat <= 90);
    assert_true(p->lon >= -180 && p->lon <= 180);
  }
  for (i = 0; i < edge_n_pops; i++) {
    if (i)
      assert_true(strcmp(edge_pops[i - 1].code, edge_pops[i].code) < 0);
    assert_non_null(memchr(edge_pops[i].city, 0, EDGE_CITY_SIZE));
    if (edge_pops[i].flags & EDGE_POP_CLOUDFLARE)
      colos++;
  }
  assert_true(edge_n_pops > 4500);
  assert_true(colos >= 339);
  assert_int_equal(edge_n_countries, 249);
  for (i = 0; i < edge_n_countries; i++) {
    assert_non_null(memchr(edge_countries[i].name, 0, EDGE_COUNTRY_SIZE));
    if (i)
      assert_true(strcmp(edge_countries[i - 1].cc, edge_countries[i].cc) < 0);
  }

  p = edge_pop_lookup("hkg");
  assert_non_null(p);
  assert_string_equal(p->code, "HKG");
  assert_string_equal(p->country, "HK");
  assert_string_equal(p->city, "Hong Kong");
  CHECK_NEAR("HKG lat", p->lat, 22.31184, 1e-6);
  assert_true(p->flags & EDGE_POP_CLOUDFLARE);
  p = edge_pop_lookup("WDC");
  assert_non_null(p);
  assert_true(p->flags & EDGE_POP_METRO);
  assert_string_equal(p->country, "US");
  assert_null(edge_pop_lookup(NULL));
  assert_null(edge_pop_lookup(""));
  assert_null(edge_pop_lookup("HK"));
  assert_null(edge_pop_lookup("HKGX"));
  assert_null(edge_pop_lookup("H1G"));

  assert_string_equal(edge_country_lookup("kr")->name, "South Korea");
  assert_non_null(edge_country_lookup("XK"));
  assert_null(edge_country_lookup("ZZ"));
  assert_null(edge_country_lookup("KOR"));
  assert_null(edge_country_lookup(NULL));

  /* Nearest colo: mainland China colos only for clients in CN. */
  p = edge_pop_nearest(EDGE_POP_CLOUDFLARE, 31.2, 121.5, "JP");
  assert_non_null(p);
  assert_string_not_equal(p->country, "CN");
  p = edge_pop_nearest(EDGE_POP_CLOUDFLARE, 31.2, 121.5, "CN");
  assert_non_null(p);
  assert_string_equal(p->country, "CN");
  assert_null(edge_pop_nearest(EDGE_POP_CLOUDFLARE, (double)NAN, 0, NULL));
}

/* ---- distance ---- */

struct km_case {
  const char *row;
  double lat1, lon1, lat2, lon2;
  double km, tol;
};

static void test_haversine(void **state)
{
  /* CDN.md 8 worked examples (airport coordinates of the shared data). */
  static const struct km_case cases[] = {
      {"ICN-HKG", 37.469101, 126.450996, 22.31184, 113.914862, 2070, 10},
      {"ICN-NRT", 37.469101, 126.450996, 35.76858, 140.388714, 1257, 8},
      {"KR centroid-HKG", 35.907757, 127.766922, 22.31184, 113.914862, 2019,
       10},
      {"LHR-JFK", 51.4706, -0.461941, 40.639447, -73.779317, 5540, 25},
      {"same point", 10, 20, 10, 20, 0, 1e-9},
      {"quarter meridian", 0, 0, 90, 0, 10007.543, 0.01},
      {"antipodes", 0, 0, 0, 180, 20015.087, 0.01},
      {"across the date line", 0, 179.5, 0, -179.5, 111.195, 0.01},
  };
  size_t i;
  const struct edge_pop *a, *b;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(cases); i++) {
    const struct km_case *t = &cases[i];
    double km = edge_distance_km(t->lat1, t->lon1, t->lat2, t->lon2);
    double back = edge_distance_km(t->lat2, t->lon2, t->lat1, t->lon1);

    CHECK_NEAR(t->row, km, t->km, t->tol);
    CHECK_NEAR(t->row, back, km, 1e-9);
  }
  /* The same pairs through the table. */
  a = edge_pop_lookup("ICN");
  b = edge_pop_lookup("HKG");
  CHECK_NEAR("table ICN-HKG", edge_distance_km(a->lat, a->lon, b->lat, b->lon),
             2070, 10);
  CHECK_NEAR(
      "floor ICN-HKG",
      edge_floor_rtt_ms(edge_distance_km(a->lat, a->lon, b->lat, b->lon)),
      20.7, 0.1);
  a = edge_pop_lookup("LHR");
  b = edge_pop_lookup("JFK");
  CHECK_NEAR(
      "floor LHR-JFK",
      edge_floor_rtt_ms(edge_distance_km(a->lat, a->lon, b->lat, b->lon)),
      55.4, 0.3);
  CHECK_NEAR("floor 0", edge_floor_rtt_ms(0), 0, 0);
  assert_true(isnan(edge_distance_km((double)NAN, 0, 0, 0)));
  assert_true(isnan(edge_floor_rtt_ms((double)NAN)));
}

struct distant_case {
  const char *row;
  double km, floor_ms, connect_ms;
  const char *client_cc, *edge_cc;
  int want;
};

static void test_distant(void **state)
{
  static const struct distant_case cases[] = {
      {"KR to HK, 2019 km", 2019, 20.19, 45, "KR", "HK", 1},
      {"KR to HK, connect unknown", 2019, 20.19, (double)NAN, "KR", "HK", 1},
      {"US coast to coast, same country", 3900, 39, 75, "US", "US", 0},
      {"same country, connect far above", 3900, 39, 160, "US", "US", 1},
      {"neighbour country, 600 km", 600, 6, 20, "DE", "NL", 0},
      {"slack for the last mile", 10, 0.1, 25, "DE", "DE", 0},
      {"connect just above the line", 10, 0.1, 25.3, "DE", "DE", 1},
      {"client country unknown, far", 1500, 15, (double)NAN, "", "HK", 1},
      {"client country unknown, near", 900, 9, (double)NAN, NULL, "HK", 0},
      {"floor derived when NAN", 100, (double)NAN, 28, "DE", "DE", 1},
      {"distance unknown", (double)NAN, (double)NAN, 300, "KR", "HK", -1},
  };
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(cases); i++) {
    const struct distant_case *t = &cases[i];

    CHECK_INT(t->row,
              edge_is_distant(t->km, t->floor_ms, t->connect_ms, t->client_cc,
                              t->edge_cc),
              t->want);
  }
}

/* ---- /cdn-cgi/trace ---- */

static void test_trace_good(void **state)
{
  static const char crlf[] = "colo=nrt\r\nloc=JP\r\nwarp=on\r\n";
  struct edge_trace t;

  (void)state;
  assert_int_equal(edge_trace_parse(trace_kr, strlen(trace_kr), &t), 0);
  assert_string_equal(t.colo, "HKG");
  assert_string_equal(t.loc, "KR");
  assert_string_equal(t.ip, "211.23.129.135");
  assert_string_equal(t.http, "http/2");
  assert_string_equal(t.tls, "TLSv1.3");
  assert_string_equal(t.sni, "plaintext");
  assert_string_equal(t.kex, "X25519MLKEM768");
  assert_string_equal(t.fl, "80f263");
  assert_string_equal(t.h, "api.example.com");
  assert_string_equal(t.uag, "hopsplit/0.1.0 (a=b)"); /* first '=' only */
  assert_string_equal(t.visit_scheme, "https");
  assert_string_equal(t.sliver, "none");
  assert_int_equal(edge_trace_hides_client(&t), 0);
  edge_trace_release(&t);
  assert_null(t.colo);

  /* CRLF lines, a lower-case colo, no trailing newline needed. */
  assert_int_equal(edge_trace_parse(crlf, strlen(crlf) - 2, &t), 0);
  assert_string_equal(t.colo, "NRT");
  assert_string_equal(t.loc, "JP");
  assert_string_equal(t.warp, "on");
  assert_int_equal(edge_trace_hides_client(&t), 1);
  edge_trace_release(&t);
  assert_int_equal(edge_trace_hides_client(NULL), 0);
}

struct trace_bad {
  const char *row;
  const char *body;
  size_t len;
};

static void test_trace_bad(void **state)
{
  static const char nul[] = "colo=HKG\nloc=KR\0\n";
  static const struct trace_bad cases[] = {
      {"empty", "", 0},
      {"no colo", "fl=1\nloc=KR\nwarp=off\n", 0},
      {"colo not a code", "colo=H1\n", 0},
      {"colo too long", "colo=HKGX\n", 0},
      {"colo empty", "colo=\nloc=KR\n", 0},
      {"html", "<!DOCTYPE html><html><body>Not Found</body></html>\n", 0},
      {"NUL byte", nul, sizeof(nul) - 1},
      {"control byte", "colo=HKG\n\033[31mloc=KR\n", 0},
      {"DEL byte", "colo=HKG\x7f\n", 0},
  };
  struct edge_trace t;
  size_t i, big = 10u * 1024u * 1024u;
  char *body;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(cases); i++) {
    const struct trace_bad *c = &cases[i];
    size_t len = c->len ? c->len : strlen(c->body);

    CHECK_INT(c->row, edge_trace_parse(c->body, len, &t), -1);
    assert_null(t.colo);
    assert_null(t.loc);
    edge_trace_release(&t);
  }
  assert_int_equal(edge_trace_parse(NULL, 0, &t), -1);

  /* 10 MB of well-formed lines is refused by its size alone. */
  body = xmalloc(big);
  for (i = 0; i + 9 <= big; i += 9)
    memcpy(body + i, "colo=HKG\n", 9);
  memset(body + i, '\n', big - i);
  assert_int_equal(edge_trace_parse(body, big, &t), -1);
  assert_null(t.colo);
  /* The limit is exact: 16 KiB passes, one byte more does not. */
  memset(body, '\n', EDGE_TRACE_MAX + 1);
  memcpy(body, "colo=SIN\n", 9);
  assert_int_equal(edge_trace_parse(body, EDGE_TRACE_MAX, &t), 0);
  assert_string_equal(t.colo, "SIN");
  edge_trace_release(&t);
  assert_int_equal(edge_trace_parse(body, EDGE_TRACE_MAX + 1, &t), -1);
  /* Random bytes. */
  srand(3);
  for (i = 0; i < 4096; i++)
    body[i] = (char)(rand() & 0xff);
  assert_int_equal(edge_trace_parse(body, 4096, &t), -1);
  free(body);
}

/* ---- the client's location ---- */

struct client_case {
  const char *in;
  int rc;
  const char *cc;
  double lat, lon;
};

static void test_client_parse(void **state)
{
  static const struct client_case cases[] = {
      {"KR", 0, "KR", 35.907757, 127.766922},
      {"kr", 0, "KR", 35.907757, 127.766922},
      {"37.5665,126.978", 0, "", 37.5665, 126.978},
      {" -33.9 , 151.2 ", 0, "", -33.9, 151.2},
      {"90,-180", 0, "", 90, -180},
      {"91,0", -1, NULL, 0, 0},
      {"0,180.5", -1, NULL, 0, 0},
      {"nan,0", -1, NULL, 0, 0},
      {"1e999,0", -1, NULL, 0, 0},
      {"1,2,3", -1, NULL, 0, 0},
      {"12a,5", -1, NULL, 0, 0},
      {",5", -1, NULL, 0, 0},
      {"5,", -1, NULL, 0, 0},
      {"ZZ", -1, NULL, 0, 0},
      {"Korea", -1, NULL, 0, 0},
      {"", -1, NULL, 0, 0},
  };
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(cases); i++) {
    const struct client_case *t = &cases[i];
    struct edge_client c;
    char sentinel = 0, *err = &sentinel; /* must be reset */
    int rc = edge_client_parse(t->in, &c, &err);

    CHECK_INT(t->in, rc, t->rc);
    if (rc) {
      assert_non_null(err);
      /* The message names the value (not for the empty one). */
      if (*t->in && !strstr(err, t->in)) {
        print_error("case %s: message '%s' does not name it\n", t->in, err);
        fail();
      }
      assert_int_equal(c.source, EDGE_CLIENT_NONE);
      assert_true(isnan(c.lat));
      free(err);
      continue;
    }
    assert_null(err);
    CHECK_STR(t->in, c.country, t->cc);
    CHECK_NEAR(t->in, c.lat, t->lat, 1e-9);
    CHECK_NEAR(t->in, c.lon, t->lon, 1e-9);
    CHECK_INT(t->in, c.source, EDGE_CLIENT_OPTION);
  }
}

static void test_client_resolve(void **state)
{
  static const char xx[] = "colo=LAX\nloc=XX\n";
  static const char gw[] = "colo=LAX\nloc=US\ngateway=on\n";
  struct edge_client opt, c;
  struct edge_trace t;
  char *err;

  (void)state;
  edge_client_resolve(NULL, NULL, &c);
  assert_int_equal(c.source, EDGE_CLIENT_NONE);
  assert_true(isnan(c.lat));
  assert_string_equal(edge_client_source_names[c.source], "none");

  assert_int_equal(edge_trace_parse(xx, strlen(xx), &t), 0);
  edge_client_resolve(NULL, &t, &c);
  assert_int_equal(c.source, EDGE_CLIENT_NONE); /* XX is unknown */
  edge_trace_release(&t);

  assert_int_equal(edge_trace_parse(gw, strlen(gw), &t), 0);
  assert_int_equal(edge_client_parse("48.85,2.35", &opt, &err), 0);
  edge_client_resolve(&opt, &t, &c);
  assert_int_equal(c.source, EDGE_CLIENT_OPTION); /* the option wins */
  CHECK_NEAR("opt lat", c.lat, 48.85, 1e-9);
  assert_int_equal(c.hidden, 1); /* but the trace still says Gateway */
  assert_string_equal(edge_client_source_names[c.source], "option");
  edge_client_resolve(NULL, &t, &c);
  assert_int_equal(c.source, EDGE_CLIENT_TRACE);
  assert_string_equal(c.country, "US");
  edge_trace_release(&t);
}

/* ---- CNAME chains ---- */

struct cname_case {
  const char *name;
  const char *vendor; /* NULL: none */
};

static void test_cnames(void **state)
{
  static const struct cname_case cases[] = {
      {"www.example.com.cdn.cloudflare.net", "cloudflare"},
      {"example.pages.dev.", "cloudflare"},
      {"d111111abcdef8.cloudfront.net", "cloudfront"},
      {"dualstack.example.map.fastly.net.", "fastly"},
      {"example.global.ssl.fastly.net", "fastly"},
      {"www.example.com.edgekey.net", "akamai"},
      {"e14577.x.akamaiedge.net", "akamai"},
      {"a1234.b.akamai.net", "akamai"},
      {"example-h7b2c4d5e6f7.z01.azurefd.net", "azure"},
      {"example.azureedge.net", "azure"},
      {"example.b-cdn.net", "bunny"},
      {"example-hexid.kxcdn.com", "keycdn"},
      {"cname.vercel-dns.com.", "vercel"},
      {"76a8b9c0d1e2f3a4.vercel-dns-017.com", "vercel"},
      {"example.vercel.app", "vercel"},
      {"example.netlify.app", "netlify"},
      {"apex-loadbalancer.netlify.com", "netlify"},
      {"ghs.googlehosted.com", "google"},
      {"example.cdn77.org", "cdn77"},
      {"CNAME.EXAMPLE.GCDN.CO", "gcore"},
      {"example.trafficmanager.net", "azure"},
      {"notcloudfront.net", NULL},
      {"cloudfront.net", NULL},
      {"xcname.vercel-dns.com", NULL},
      {"vercel-dns-.com", NULL},
      {"www.example.com", NULL},
  };
  const char *chain[3];
  char a[] = "www.shop.example", b[] = "shop.trafficmanager.net",
       c2[] = "shop.cdn.cloudflare.net";
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(cases); i++) {
    char *name = xstrdup(cases[i].name);
    const char *one[1];
    const char *v;

    one[0] = name;
    v = edge_vendor_from_cnames(one, 1);
    if (cases[i].vendor)
      CHECK_STR(cases[i].name, v, cases[i].vendor);
    else if (v) {
      print_error("case %s: vendor %s, want none\n", cases[i].name, v);
      fail();
    }
    free(name);
  }
  /* A weak match yields to a strong one later in the chain. */
  chain[0] = a;
  chain[1] = b;
  chain[2] = c2;
  assert_string_equal(edge_vendor_from_cnames(chain, 3), "cloudflare");
  assert_string_equal(edge_vendor_from_cnames(chain, 2), "azure");
  assert_null(edge_vendor_from_cnames(chain, 1));
  assert_null(edge_vendor_from_cnames(NULL, 0));
}

/* ---- a hop with nothing to go on ---- */

static void test_unknown(void **state)
{
  struct hop h;
  struct edge_result r;
  struct edge_client c;
  char *err;

  (void)state;
  hop_init(&h);
  assert_int_equal(edge_wants_trace(&h), 0);
  assert_int_equal(edge_client_parse("DE", &c, &err), 0);
  edge_locate(&h, 3, NULL, &c, 12.5, &r);
  assert_int_equal(r.hop, 3);
  assert_null(r.host);
  assert_null(r.vendor);
  assert_null(r.pop);
  assert_null(r.city);
  assert_null(r.country);
  assert_null(r.nearest);
  assert_true(isnan(r.lat) && isnan(r.lon));
  assert_true(isnan(r.distance_km) && isnan(r.floor_rtt_ms));
  CHECK_NEAR("connect", r.connect_p50_ms, 12.5, 0);
  assert_int_equal(r.source, EDGE_SOURCE_NONE);
  assert_string_equal(edge_source_names[r.source], "none");
  assert_int_equal(r.distant, -1);
  edge_result_release(&r);
  hop_release(&h);
}

/* The hops of these tests point into the string pool. */
static int pool_teardown(void **state)
{
  (void)state;
  strpool_release_all();
  return 0;
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tables),
      cmocka_unit_test(test_haversine),
      cmocka_unit_test(test_distant),
      cmocka_unit_test(test_trace_good),
      cmocka_unit_test(test_trace_bad),
      cmocka_unit_test(test_client_parse),
      cmocka_unit_test(test_client_resolve),
      cmocka_unit_test(test_cnames),
      cmocka_unit_test(test_captures),
      cmocka_unit_test(test_key_case),
      cmocka_unit_test(test_key_case_trace),
      cmocka_unit_test(test_unknown),
  };

  return cmocka_run_group_tests(tests, NULL, pool_teardown);
}
