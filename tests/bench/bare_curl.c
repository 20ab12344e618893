/*
 * bare_curl.c: the plain control of tests/bench/measured_path.  One easy
 * handle, no callbacks of its own (libcurl's default write function into
 * /dev/null), N transfers of URL; for each, libcurl's own stamps as the
 * phases hopsplit reports (hopsplit(1) MEASUREMENT): dns, connect, tls,
 * send (pretransfer to posttransfer), wait (to the first byte) and
 * transfer (to the last), integer microseconds, one line each:
 *   dns connect tls send wait transfer total
 * The first transfer opens the connection (warm: it is not printed, as
 * hopsplit's priming request is not a sample); cold makes a new handle per
 * transfer.
 *
 *   bare_curl URL N warm|cold 1.1|2 RESOLVE CAFILE
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static curl_off_t t(CURL *e, CURLINFO what)
{
  curl_off_t v = 0;

  curl_easy_getinfo(e, what, &v);
  return v;
}

static CURL *handle(const char *url, long ver, struct curl_slist *res,
                    const char *ca, FILE *sink)
{
  CURL *e = curl_easy_init();

  if (!e)
    return NULL;
  curl_easy_setopt(e, CURLOPT_URL, url);
  curl_easy_setopt(e, CURLOPT_HTTP_VERSION, ver);
  curl_easy_setopt(e, CURLOPT_RESOLVE, res);
  curl_easy_setopt(e, CURLOPT_CAINFO, ca);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, sink);
  curl_easy_setopt(e, CURLOPT_NOPROXY, "*");
  return e;
}

int main(int argc, char **argv)
{
  struct curl_slist *res;
  FILE *sink;
  CURL *e = NULL;
  long n, i, ver;
  int cold;

  if (argc != 7) {
    fprintf(stderr, "usage: bare_curl URL N warm|cold 1.1|2 RESOLVE CA\n");
    return 2;
  }
  n = strtol(argv[2], NULL, 10);
  cold = !strcmp(argv[3], "cold");
  ver = !strcmp(argv[4], "2") ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_1_1;
  sink = fopen("/dev/null", "wb");
  if (!sink || curl_global_init(CURL_GLOBAL_DEFAULT))
    return 1;
  res = curl_slist_append(NULL, argv[5]);
  for (i = cold ? 0 : -1; i < n; i++) {
    curl_off_t nl, co, ap, post, st, tot;
    CURLcode rc;

    if (!e || cold) {
      if (e)
        curl_easy_cleanup(e);
      e = handle(argv[1], ver, res, argv[6], sink);
      if (!e)
        return 1;
    }
    rc = curl_easy_perform(e);
    if (rc != CURLE_OK) {
      fprintf(stderr, "bare_curl: %s\n", curl_easy_strerror(rc));
      return 1;
    }
    if (i < 0)
      continue;
    nl = t(e, CURLINFO_NAMELOOKUP_TIME_T);
    co = t(e, CURLINFO_CONNECT_TIME_T);
    ap = t(e, CURLINFO_APPCONNECT_TIME_T);
#if LIBCURL_VERSION_NUM >= 0x080a00
    post = t(e, CURLINFO_POSTTRANSFER_TIME_T);
#else
    post = 0;
#endif
    st = t(e, CURLINFO_STARTTRANSFER_TIME_T);
    tot = t(e, CURLINFO_TOTAL_TIME_T);
    {
      /* hopsplit's phases from the same stamps (probe_phases.c): from
       * the name lookup on, each phase from the previous one's end. */
      long conns = 0;
      curl_off_t cur = nl > 0 ? nl : 0, ph[6] = {0, 0, 0, 0, 0, 0};

      curl_easy_getinfo(e, CURLINFO_NUM_CONNECTS, &conns);
      ph[0] = nl;
      if (conns > 0) {
        ph[1] = co > cur ? co - cur : 0;
        cur = co > cur ? co : cur;
        if (ap > 0) {
          ph[2] = ap > cur ? ap - cur : 0;
          cur = ap > cur ? ap : cur;
        }
      }
      /* libcurl 8 may stamp posttransfer after the first byte (its send
       * state ends late on a fast path): then sending is counted in
       * wait, as probe_phases_checked does. */
      if (post > st && st > 0)
        post = 0;
      if (post > 0) {
        ph[3] = post > cur ? post - cur : 0;
        cur = post > cur ? post : cur;
      }
      ph[4] = st > cur ? st - cur : 0;
      cur = st > cur ? st : cur;
      ph[5] = tot > cur ? tot - cur : 0;
      printf("%lld %lld %lld %lld %lld %lld %lld\n", (long long)ph[0],
             (long long)ph[1], (long long)ph[2], (long long)ph[3],
             (long long)ph[4], (long long)ph[5],
             (long long)(ph[1] + ph[2] + ph[3] + ph[4] + ph[5]));
    }
  }
  curl_easy_cleanup(e);
  curl_slist_free_all(res);
  curl_global_cleanup();
  fclose(sink);
  return 0;
}
