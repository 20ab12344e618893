/*
 * probe_conn.c: the connection of one hop, beside the transfer itself.
 * Input: the client, the options and the hop's URL.  Output:
 * the hop's family, local port, the first connection attempt that failed
 * or lost (libcurl's happy eyeballs, as in curl), and its TLS hook: the
 * session offered (resumed mode), whether one was offered, and why not.
 *
 * libcurl's open- and close-socket callbacks see every attempt with its
 * address; their data is the client, which outlives its easy handle and so
 * every connection in its pool.  The SSL_CTX callback makes one tls_hook
 * per new TLS connection (probe_tls.c), kept by the client too.
 */
#include <arpa/inet.h>
#include <curl/curl.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "curl_api_int.h"
#include "probe.h"
#include "probe_int.h"
#include "strpool.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

static curl_socket_t on_open(void *ud, curlsocktype purpose,
                             struct curl_sockaddr *a)
{
  struct client *c = ud;
  curl_socket_t fd;

  (void)purpose;
  fd = socket(a->family, a->socktype, a->protocol);
  if (fd == CURL_SOCKET_BAD)
    return fd;
  (void)fcntl(fd, F_SETFD, FD_CLOEXEC);
  if (c->n_socks < CLIENT_SOCKS_MAX && a->socktype == SOCK_STREAM) {
    c->socks[c->n_socks].fd = (int)fd;
    c->socks[c->n_socks++].port = 0;
  }
  if (c->n_attempts < CONN_ATTEMPTS_MAX) {
    struct conn_attempt *t = &c->attempts[c->n_attempts++];
    const void *src = NULL;

    memset(t, 0, sizeof(*t));
    t->fd = (int)fd;
    t->family = a->family == AF_INET6 ? 6 : 4;
    t->quic = a->socktype == SOCK_DGRAM;
    t->opened_us = probe_now_us();
    if (a->family == AF_INET)
      src = &((const struct sockaddr_in *)(const void *)&a->addr)->sin_addr;
    else if (a->family == AF_INET6)
      src = &((const struct sockaddr_in6 *)(const void *)&a->addr)->sin6_addr;
    if (src) {
      memcpy(t->addr, src, t->family == 6 ? 16 : 4);
      t->addr_ok = 1;
    }
  }
  return fd;
}

static int on_close(void *ud, curl_socket_t fd)
{
  struct client *c = ud;
  size_t i;

  for (i = 0; i < c->n_attempts; i++)
    if (c->attempts[i].fd == (int)fd && !c->attempts[i].closed_us)
      c->attempts[i].closed_us = probe_now_us();
  if (c->tcp)
    probe_tcp_closing(c->tcp, (int)fd);
  for (i = 0; i < c->n_socks; i++)
    if (c->socks[i].fd == (int)fd) {
      c->socks[i] = c->socks[--c->n_socks];
      break;
    }
  return close(fd);
}

int probe_conn_socket(struct client *c, int port)
{
  size_t i;

  for (i = 0; port > 0 && i < c->n_socks; i++) {
    if (!c->socks[i].port) {
      struct sockaddr_storage ss;
      socklen_t len = sizeof(ss);

      if (getsockname(c->socks[i].fd, (struct sockaddr *)&ss, &len) != 0)
        continue;
      if (ss.ss_family == AF_INET)
        c->socks[i].port =
            ntohs(((const struct sockaddr_in *)(const void *)&ss)->sin_port);
      else if (ss.ss_family == AF_INET6)
        c->socks[i].port =
            ntohs(((const struct sockaddr_in6 *)(const void *)&ss)->sin6_port);
    }
    if (c->socks[i].port == port)
      return c->socks[i].fd;
  }
  return -1;
}

static CURLcode on_ssl_ctx(CURL *e, void *ssl_ctx, void *ud)
{
  struct client *c = ud;
  struct tls_hook *h = xmalloc(sizeof(*h));

  (void)e;
  *h = c->hop_plan;
  c->hooks = xrealloc(c->hooks, (c->n_hooks + 1) * sizeof(*c->hooks));
  c->hooks[c->n_hooks++] = h;
  c->hop_hook = h;
  return probe_tls_setup_ctx(ssl_ctx, h) == 0 ? CURLE_OK
                                              : CURLE_SSL_CERTPROBLEM;
}

void probe_conn_setup(void *easy, struct client *c, const struct options *o,
                      const char *host, int port, int https)
{
  CURL *e = easy;

  c->n_attempts = 0;
  c->hop_hook = NULL;
  memset(&c->hop_plan, 0, sizeof(c->hop_plan));
  c->api->easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, on_open);
  c->api->easy_setopt(e, CURLOPT_OPENSOCKETDATA, c);
  c->api->easy_setopt(e, CURLOPT_CLOSESOCKETFUNCTION, on_close);
  c->api->easy_setopt(e, CURLOPT_CLOSESOCKETDATA, c);
  if (!https || c->api != &curl_api_linked)
    return; /* the hooks are OpenSSL's (HTTP/3: probe_hops.c) */
  c->hop_plan.store = o->insecure ? NULL : probe_shared_store(o);
  c->hop_plan.sessions = c->sessions;
  c->hop_plan.collect_only = c->collect_only;
  snprintf(c->hop_plan.key, sizeof(c->hop_plan.key), "%s:%d", host, port);
  if (c->sessions) {
    /* hopsplit keeps the sessions (probe_tls.c); libcurl's own cache
     * would offer the same one again. */
    c->api->easy_setopt(e, CURLOPT_SSL_SESSIONID_CACHE, 0L);
    probe_tls_sessions_note(c->sessions, c->hop_plan.key);
  }
  /* Replaces probe_set_common's callback: the hook installs the same
   * trust store. */
  c->api->easy_setopt(e, CURLOPT_SSL_CTX_FUNCTION, on_ssl_ctx);
  c->api->easy_setopt(e, CURLOPT_SSL_CTX_DATA, c);
}

/* Attempt t's address as text in out (n bytes), "" when not known. */
static const char *attempt_ip(const struct conn_attempt *t, char *out,
                              size_t n)
{
  if (!t->addr_ok || !inet_ntop(t->family == 6 ? AF_INET6 : AF_INET, t->addr,
                                out, (socklen_t)n))
    out[0] = '\0';
  return out;
}

void probe_conn_finish(void *easy, struct client *c, struct hop *h)
{
  CURL *e = easy;
  long port = 0;
  const struct conn_attempt *first, *won = NULL;
  struct hop_fallback fb;
  char ip[INET6_ADDRSTRLEN];
  size_t i;

  if (c->api->easy_getinfo(e, CURLINFO_LOCAL_PORT, &port) == CURLE_OK &&
      port > 0 && port <= 65535)
    h->local_port = (uint16_t)port;
  if (h->info->remote_ip)
    hop_info_edit(h)->family = strchr(h->info->remote_ip, ':') ? 6 : 4;
  if (c->hop_hook) {
    struct tls_hook *k = c->hop_hook;

    if (k->started)
      hop_tls_edit(h)->offered = k->offered ? 1 : 0;
    if (k->started && !k->offered && k->why[0] && !k->collect_only)
      hop_tls_edit(h)->not_offered = strpool_intern(k->why);
    probe_tls_hook_done(k, h->tls->resumed == 1, h->tls->version);
  }
  if (h->reused || !c->n_attempts || !h->info->remote_ip)
    return;
  first = &c->attempts[0];
  for (i = c->n_attempts; i-- > 0;)
    if (!strcmp(attempt_ip(&c->attempts[i], ip, sizeof(ip)),
                h->info->remote_ip)) {
      won = &c->attempts[i];
      break;
    }
  if (!won || won == first ||
      !strcmp(attempt_ip(first, ip, sizeof(ip)), h->info->remote_ip))
    return;
  fb.address = strpool_intern(ip);
  fb.family = first->family;
  fb.lost_us = won->opened_us - first->opened_us;
  /* libcurl starts the other family at once when the first attempt
   * fails, and after its happy eyeballs delay (200 ms) when it is only
   * slow. */
  fb.reason =
      first->closed_us && first->closed_us <= won->opened_us
          ? strpool_intern(first->family != won->family
                               ? "failed (refused or unreachable); the "
                                 "other family was tried then"
                               : "failed (refused or unreachable)")
          : strpool_intern("no answer within libcurl's happy eyeballs "
                           "delay; the other attempt connected first");
  hop_set_fallback(h, &fb);
}

void probe_conn_release(struct client *c)
{
  size_t i;

  for (i = 0; i < c->n_hooks; i++)
    probe_tls_hook_free(c->hooks[i]);
  free(c->hooks);
  c->hooks = NULL;
  c->n_hooks = 0;
  c->hop_hook = NULL;
}
