/*
 * probe_walk.c: one logical request of a sample (hopsplit(1) MEASUREMENT): hop
 * after hop on one client until a final response, an error, or a redirect
 * refused, each hop started when the one before ended (probe_hops.c runs a hop
 * on the engine).  Input: a client, a target and the sample to fill.  Output:
 * the sample's hops, its total, status and error, its accounts closed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "probe.h"
#include "msg.h"
#include "probe_int.h"
#include "strpool.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

/*
 * Method and body of the next hop, as libcurl switches them when it
 * follows (lib/transfer.c Curl_follow): after 301 and 302 a POST becomes a
 * GET without its body unless --post301/--post302; after 303 everything
 * but HEAD becomes GET unless it is a POST and --post303; 307 and 308 keep
 * both; an upload (-T) keeps PUT and its body after 301 and 302 and
 * becomes a GET after 303.  A method given with -X is sent on every hop, as
 * curl sends it, even when the body is dropped.
 */
static void next_request(const struct options *o, long status,
                         const char **method, int *with_body)
{
  int to_get = 0;

  if (status == 301 || status == 302)
    to_get = *with_body && !o->upload &&
             !(o->post_keep & (status == 301 ? 1u : 2u));
  else if (status == 303)
    to_get = *with_body ? o->upload || !(o->post_keep & 4u)
                        : strcmp(*method, "HEAD") != 0;
  if (!to_get)
    return;
  *with_body = 0;
  if (!o->method_set)
    *method = "GET";
}

static int is_redirect(long status)
{
  return status == 301 || status == 302 || status == 303 || status == 307 ||
         status == 308;
}

static char *strip_fragment(const char *url)
{
  const char *hash = strchr(url, '#');

  return hash ? xstrndup(url, (size_t)(hash - url)) : xstrdup(url);
}

static void fail(struct sample *s, enum err_class cls, const char *msg)
{
  s->ok = 0;
  s->err = (uint8_t)cls;
  sample_set_err_message(s, strpool_intern(msg));
}

/* One hop to go: remember the URL, add the hop, start it. */
static void walk_hop(struct walk *w);
static void on_walk_hop(void *ud, enum err_class cls);

/* The walk is over: the sample's totals and accounts, then the owner. */
static void walk_finish(struct walk *w)
{
  struct sample *s = w->s;
  const struct target *t = w->t;
  size_t i;

  s->total_us = probe_now_us() - w->t0;
  /* The total is taken: now the certificates the hops held are read
   * (hashing and formatting, off every phase and the total). */
  for (i = 0; w->grabs && i < s->n_hops; i++) {
    struct hop *h = &s->hops[i];
    struct hop_tls facts;

    /* The hop's facts are pooled by now: the pool's copy of the settled
     * ones takes their place (equal ones are stored once). */
    memcpy(&facts, h->tls, sizeof(facts));
    probe_tls_settle(&w->grabs[i], &facts);
    if (memcmp(&facts, h->tls, sizeof(facts)))
      h->tls = h->pooled ? strpool_intern_blob(&facts, sizeof(facts))
                         : memcpy(hop_tls_edit(h), &facts, sizeof(facts));
  }
  free(w->grabs);
  w->grabs = NULL;
  for (i = 0; i < w->n_visited; i++)
    free(w->visited[i]);
  free(w->visited);
  free(w->url);
  free(w->first_origin);
  w->visited = NULL;
  w->n_visited = 0;
  w->url = w->first_origin = NULL;
  if (s->n_hops)
    s->status = s->hops[s->n_hops - 1].info->status;
  if (s->ok && t->opts->fail && s->status >= 400) {
    /* curl -f: the transfer worked, the answer is a failure. */
    char msg[1200];
    const struct hop *h = &s->hops[s->n_hops - 1];
    char *shown = t->opts->show_secrets ? xstrdup(h->info->url)
                                        : url_redact(h->info->url);

    snprintf(msg, sizeof(msg), "HTTP %d from '%.1000s' (--fail)",
             (int)s->status, shown);
    free(shown);
    fail(s, ERR_HTTP_STATUS, msg);
  }
  w->c->last_end_us = probe_now_us();
  sample_close_accounts(s);
  w->done(w->ud);
}

/* Whether url names the host and port of first, scheme aside. */
static int same_host(const char *url, const char *first)
{
  struct url a, b;
  char err[16];
  int same = 0;

  if (url_parse(&a, url, err, sizeof(err)) < 0)
    return 0;
  if (url_parse(&b, first, err, sizeof(err)) == 0) {
    same = !strcasecmp(a.host, b.host) && a.port == b.port;
    url_release(&b);
  }
  url_release(&a);
  return same;
}

static void walk_hop(struct walk *w)
{
  const struct options *o = w->t->opts;
  struct sample *s = w->s;
  struct hop *h;
  char *origin;

  w->visited = xrealloc(w->visited, (w->n_visited + 1) * sizeof(*w->visited));
  w->visited[w->n_visited++] = strip_fragment(w->url);
  h = sample_add_hop(s);
  /* Before the hop's clock: the hop's own request and response, TLS and
   * resolver facts, written by libcurl's and c-ares's callbacks without
   * an allocation on the measured path. */
  hop_info_edit(h);
  hop_tls_edit(h);
  hop_dns_edit(h);
  /* Before the hop's clock: room for its certificates (nothing held). */
  w->grabs = xrealloc(w->grabs, s->n_hops * sizeof(*w->grabs));
  memset(&w->grabs[s->n_hops - 1], 0, sizeof(*w->grabs));
  w->rq.grab = &w->grabs[s->n_hops - 1];
  h->start_us = probe_now_us() - w->t0;
  origin = url_origin(w->url);
  w->rq.url = w->url;
  w->rq.method = w->method;
  w->rq.drop_credentials =
      !o->location_trusted &&
      (!origin || !w->first_origin || strcmp(origin, w->first_origin));
  w->rq.body = w->with_body ? o->body : NULL;
  w->rq.body_len = w->with_body ? o->body_len : 0;
  w->rq.body_file = w->with_body ? o->body_file : NULL;
  w->rq.body_file_size = o->body_file_size;
  w->rq.upload = o->upload;
  w->rq.json = o->body_json;
  w->rq.first_host = w->n_visited == 1 || same_host(w->url, w->visited[0]);
  free(origin);
  w->err[0] = '\0';
  probe_hop_start(w->c, o, &w->rq, h, w->err, sizeof(w->err), on_walk_hop, w);
}

/* A hop ended: the next one, or the end of the walk. */
static void on_walk_hop(void *ud, enum err_class cls)
{
  struct walk *w = ud;
  const struct options *o = w->t->opts;
  struct sample *s = w->s;
  const struct hop *h = &s->hops[s->n_hops - 1];
  char err[1024];
  char *next, *clean;
  size_t i;

  if (cls != ERR_NONE) {
    if (s->n_hops > 1) {
      /* The hop that failed and where it went: not the URL given. */
      char msg[1400];
      char *shown = o->show_secrets ? xstrdup(w->url) : url_redact(w->url);

      snprintf(msg, sizeof(msg), "hop %u (%.300s): %s", s->n_hops, shown,
               w->err);
      free(shown);
      fail(s, cls, msg);
    }
    else
      fail(s, cls, w->err);
    walk_finish(w);
    return;
  }
  if (!o->follow || !is_redirect(h->info->status) || !h->info->location) {
    walk_finish(w);
    return;
  }
  if (w->redirects >= o->max_redirs) {
    snprintf(err, sizeof(err),
             "too many redirects: more than %ld (--max-redirs)",
             o->max_redirs);
    fail(s, ERR_REDIRECT, err);
    walk_finish(w);
    return;
  }
  next = url_resolve(w->url, h->info->location, err, sizeof(err));
  if (!next) {
    char msg[1200];

    snprintf(msg, sizeof(msg), "bad Location from hop %u: %s", s->n_hops, err);
    fail(s, ERR_REDIRECT, msg);
    walk_finish(w);
    return;
  }
  if (!url_scheme_allowed(next)) {
    char *shown = o->show_secrets ? xstrdup(next) : url_redact(next);

    snprintf(err, sizeof(err),
             "refused redirect to '%.200s': only http and https are "
             "followed",
             shown);
    free(shown);
    free(next);
    fail(s, ERR_REDIRECT, err);
    walk_finish(w);
    return;
  }
  clean = strip_fragment(next);
  for (i = 0; i < w->n_visited; i++)
    if (!strcmp(w->visited[i], clean))
      break;
  if (i < w->n_visited) {
    char *shown = o->show_secrets ? xstrdup(clean) : url_redact(clean);

    snprintf(err, sizeof(err),
             "redirect loop: '%.300s' was already requested at hop %zu", shown,
             i + 1);
    free(shown);
    free(clean);
    free(next);
    fail(s, ERR_REDIRECT, err);
    walk_finish(w);
    return;
  }
  free(clean);
  next_request(o, h->info->status, &w->method, &w->with_body);
  free(w->url);
  w->url = next;
  w->redirects++;
  walk_hop(w);
}

void probe_walk_start(struct walk *w, struct client *c, const struct target *t,
                      struct sample *s, void (*done)(void *), void *ud)
{
  memset(w, 0, sizeof(*w));
  w->c = c;
  w->t = t;
  w->s = s;
  w->done = done;
  w->ud = ud;
  /* A hop's URL keeps its fragment, as curl's url_effective does;
   * libcurl leaves it out of the request, and loops are found without
   * it. */
  w->url = xstrdup(t->url);
  w->first_origin = url_origin(w->url);
  w->method = options_method(t->opts);
  w->with_body = options_has_body(t->opts);
  s->started_at_ms = probe_wall_ms();
  w->t0 = probe_now_us();
  walk_hop(w);
}
