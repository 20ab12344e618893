/*
 * probe_phases.c: a hop's phases from libcurl's timestamps (hopsplit(1)
 * MEASUREMENT). Input: the CURLINFO_*_TIME_T stamps copied into struct
 * curl_times, the lookup time c-ares measured, whether TLS was expected and
 * whether the connection was reused.  Output: the phase array.  Pure.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "probe.h"
#include "probe_int.h"

#include "banned.h"

static int64_t max64(int64_t a, int64_t b)
{
  return a > b ? a : b;
}

void probe_phases(const struct curl_times *c, int64_t dns_us, int tls_expected,
                  int reused, int64_t phases[PHASE_COUNT])
{
  int64_t cur = max64(c->namelookup, 0);
  int64_t tot = max64(c->total, 0);
  int i;

  for (i = 0; i < PHASE_COUNT; i++)
    phases[i] = 0;
  phases[PHASE_DNS] = dns_us > 0 ? dns_us : 0;
  tot = max64(tot, cur);
  /* libcurl's own look-up of the pinned address (time_namelookup) and
   * the set-up between handshake and request are not phases: they stay
   * outside the hop and end up in the sample's "other". */
  if (!reused) {
    if (c->connect <= 0) {
      phases[PHASE_CONNECT] = tot - cur; /* never connected */
      goto sum;
    }
    phases[PHASE_CONNECT] = max64(c->connect, cur) - cur;
    cur = max64(c->connect, cur);
    if (tls_expected) {
      if (c->appconnect <= 0) {
        phases[PHASE_TLS] = max64(tot, cur) - cur; /* handshake failed */
        goto sum;
      }
      phases[PHASE_TLS] = max64(c->appconnect, cur) - cur;
      cur = max64(c->appconnect, cur);
    }
  }
  /* cur is now when the connection was ready.  libcurl 7.88 stamps
   * time_pretransfer when its DO state ends, and on some paths (reused
   * connections, HTTP/2) that is only after the response has arrived, so
   * pretransfer cannot mark "request sent".  The request goes out right
   * after the connection is ready: wait counts from there, and includes
   * writing the request unless libcurl can tell (posttransfer, 8.10). */
  if (c->posttransfer > 0) {
    phases[PHASE_SEND] = max64(c->posttransfer, cur) - cur;
    cur = max64(c->posttransfer, cur);
  }
  if (c->starttransfer > 0) {
    phases[PHASE_WAIT] = max64(c->starttransfer, cur) - cur;
    cur = max64(c->starttransfer, cur);
    phases[PHASE_TRANSFER] = max64(tot, cur) - cur;
  }
  else {
    phases[PHASE_WAIT] = max64(tot, cur) - cur; /* no first byte */
  }
sum:
  for (i = 0; i < PHASE_TOTAL; i++)
    phases[PHASE_TOTAL] += phases[i];
}

/* Append one anomaly to buf (semicolon-separated). */
static void note(char *buf, size_t len, const char *what, int64_t a,
                 const char *other, int64_t b, const char *fallback)
{
  size_t used = strlen(buf);

  if (used + 1 >= len)
    return;
  snprintf(buf + used, len - used, "%s%s (%lld us) after %s (%lld us): %s",
           used ? "; " : "", what, (long long)a, other, (long long)b,
           fallback);
}

int probe_phases_checked(const struct curl_times *c, int64_t dns_us,
                         int tls_expected, int reused,
                         int64_t phases[PHASE_COUNT], char *why, size_t len)
{
  struct curl_times t = *c;
  int n = 0;

  if (len)
    why[0] = '\0';
  if (t.final_response > 0 && t.starttransfer > 0 &&
      t.final_response > t.starttransfer) {
    /* An interim response (100 Continue to an upload, 103 Early Hints)
     * was libcurl's first byte: wait lasts until the final response's. */
    t.starttransfer = t.total >= 0 && t.final_response > t.total
                          ? t.total
                          : t.final_response;
    if (t.posttransfer > t.starttransfer)
      t.posttransfer = t.starttransfer;
  }
  /* Each stamp that libcurl set must not come before an earlier one;
   * pretransfer is left out (7.88 stamps it late by design, see above). */
  if (!reused && t.connect > 0 && t.namelookup > t.connect) {
    /* Seen on a new connection after the server closed an idle one:
     * the lookup stamp is taken when the old connection is found dead,
     * after the new one began.  The lookup of a pinned address costs
     * nothing: connect is counted from the start of the transfer. */
    note(why, len, "time_namelookup", t.namelookup, "time_connect", t.connect,
         "connect counted from the start of the transfer");
    t.namelookup = 0;
    n++;
  }
  if (!reused && tls_expected && t.connect > 0 && t.appconnect > 0 &&
      t.connect > t.appconnect) {
    note(why, len, "time_connect", t.connect, "time_appconnect", t.appconnect,
         "the handshake is counted as connect");
    t.connect = t.appconnect;
    n++;
  }
  if (t.starttransfer > 0) {
    int64_t ready = reused                             ? t.namelookup
                    : tls_expected && t.appconnect > 0 ? t.appconnect
                                                       : t.connect;

    if (ready > t.starttransfer) {
      note(why, len, "the connection ready", ready, "time_starttransfer",
           t.starttransfer, "wait is 0");
      n++;
    }
    if (t.posttransfer > t.starttransfer) {
      /* libcurl 8 marks the request sent when its send state ends, which
       * on a fast path (a reused connection, HTTP/2 on loopback) can come
       * after the response arrived: the stamp cannot say when the bytes
       * went, so sending is counted in wait, as without libcurl 8.10.
       * Common and documented, so not an anomaly of this hop. */
      t.posttransfer = -1;
    }
    if (t.total >= 0 && t.starttransfer > t.total) {
      note(why, len, "time_starttransfer", t.starttransfer, "time_total",
           t.total, "transfer is 0");
      n++;
    }
  }
  probe_phases(&t, dns_us, tls_expected, reused, phases);
  return n;
}
