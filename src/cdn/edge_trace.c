/*
 * edge_trace.c: Cloudflare's /cdn-cgi/trace answer (key=value lines:
 * colo, loc, ip, ...) parsed into a struct edge_trace, and whether it
 * hides where the client is.  Input: the body.  Pure.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arraysize.h"
#include "cdn_int.h"
#include "edge.h"
#include "xalloc.h"
#include "banned.h"

/* ---- /cdn-cgi/trace ---- */

void edge_trace_init(struct edge_trace *t)
{
  memset(t, 0, sizeof(*t));
}

void edge_trace_release(struct edge_trace *t)
{
  free(t->fl);
  free(t->h);
  free(t->ip);
  free(t->ts);
  free(t->visit_scheme);
  free(t->uag);
  free(t->colo);
  free(t->sliver);
  free(t->http);
  free(t->loc);
  free(t->tls);
  free(t->sni);
  free(t->warp);
  free(t->gateway);
  free(t->rbi);
  free(t->kex);
  edge_trace_init(t);
}

static char **trace_slot(struct edge_trace *t, const char *key, size_t len)
{
  const struct {
    const char *key;
    char **slot;
  } keys[] = {
      {"fl", &t->fl},
      {"h", &t->h},
      {"ip", &t->ip},
      {"ts", &t->ts},
      {"visit_scheme", &t->visit_scheme},
      {"uag", &t->uag},
      {"colo", &t->colo},
      {"sliver", &t->sliver},
      {"http", &t->http},
      {"loc", &t->loc},
      {"tls", &t->tls},
      {"sni", &t->sni},
      {"warp", &t->warp},
      {"gateway", &t->gateway},
      {"rbi", &t->rbi},
      {"kex", &t->kex},
  };
  size_t i;

  for (i = 0; i < ARRAY_SIZE(keys); i++)
    if (strlen(keys[i].key) == len && !memcmp(keys[i].key, key, len))
      return keys[i].slot;
  return NULL; /* unknown keys are ignored: fields get added over time */
}

int edge_trace_parse(const char *body, size_t len, struct edge_trace *out)
{
  size_t i, start;
  int rc = -1;

  edge_trace_init(out);
  if (!body || len > EDGE_TRACE_MAX)
    goto out;
  for (i = 0; i < len; i++) {
    unsigned char ch = (unsigned char)body[i];

    if ((ch < 0x20 && ch != '\n' && ch != '\r' && ch != '\t') || ch == 0x7f)
      goto out; /* binary, not a trace */
  }
  for (start = 0; start < len; start = i + 1) {
    const char *line = body + start, *eq;
    size_t llen;
    char **slot;

    for (i = start; i < len && body[i] != '\n'; i++)
      ;
    llen = i - start;
    if (llen && line[llen - 1] == '\r')
      llen--;
    /* Split at the first '=': values such as uag may contain more. */
    eq = memchr(line, '=', llen);
    if (!eq)
      continue;
    slot = trace_slot(out, line, (size_t)(eq - line));
    if (slot && !*slot)
      *slot = xstrndup(eq + 1, llen - (size_t)(eq - line) - 1);
  }
  if (!out->colo || strlen(out->colo) != 3 ||
      edge_upper_letters(out->colo, out->colo, 3) != 3)
    goto out;
  rc = 0;
out:
  if (rc)
    edge_trace_release(out);
  return rc;
}

int edge_trace_hides_client(const struct edge_trace *t)
{
  const char *v[3];
  size_t i;

  if (!t)
    return 0;
  v[0] = t->warp;
  v[1] = t->gateway;
  v[2] = t->rbi;
  for (i = 0; i < ARRAY_SIZE(v); i++)
    if (v[i] && *v[i] && strcasecmp(v[i], "off"))
      return 1;
  return 0;
}
