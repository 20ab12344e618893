/*
 * probe_dns.c: DNS through c-ares (hopsplit(1) DNS).  Input: a host name and
 * the resolver settings.  Output: a plain struct dns_answer with the
 * addresses, CNAME chain, smallest TTL, the resolver that answered and the
 * time the lookup took.  No c-ares type leaves this file.
 */
#include <sys/select.h>
#include <sys/time.h>
#include <time.h>
#include <ares.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "clock.h"
#include "buf.h"
#include "engine_int.h"
#include "probe.h"
#include "probe_int.h"
#include "stall.h"
#include "xalloc.h"
#include "banned.h"

#define DNS_MAX_SOCKS 16
#define DNS_MAX_SENT  8
#define DNS_QUERY_MAX 512

/* Which server each c-ares socket talks to, so that the answer can name
 * the resolver that sent it. */
struct dns_ctx {
  struct {
    ares_socket_t fd;
    struct sockaddr_storage addr;
    socklen_t len;
  } socks[DNS_MAX_SOCKS];
  size_t n_socks;
  char answered_by[INET6_ADDRSTRLEN + 8];
  int done;
  int status;
  struct ares_addrinfo *res;
  /* The queries on the wire (id and question), to mend a refusal that
   * carries no question section, and what failed. */
  struct {
    int fd;
    unsigned char q[DNS_QUERY_MAX];
    size_t len; /* header + question */
  } sent[DNS_MAX_SENT];
  size_t n_sent, next_sent;
  int64_t t0;
  struct dns_answer *out; /* failures go to out->failed */
  char asked[4][INET6_ADDRSTRLEN + 8];
  size_t n_asked;
  /* A and AAAA asked together (AF_UNSPEC): how each ended so far
   * (0 none, 1 an answer, -1 a failure), and a failure of one family held
   * back until the other's answer, as glibc's res_send does: one family
   * answered and the other refused (or failed) ends the lookup with the
   * answer, where c-ares 1.18 asks the refusing server again (another
   * round trip).  held_ready: give it to c-ares now (as no data when
   * the other family answered, else as it came). */
  int both;
  int fam[2];
  struct {
    int fd, fam, ready, nodata;
    unsigned char m[DNS_QUERY_MAX];
    size_t len;
  } held;
  int have_held;
};

static ares_socket_t dns_socket(int domain, int type, int protocol, void *user)
{
  (void)user;
  /* With its own socket functions c-ares leaves the socket as made, and
   * it reads until EAGAIN: the socket must not block. */
  ares_socket_t fd = socket(domain, type, protocol);
  int fl;

  if (fd < 0)
    return fd;
  fl = fcntl(fd, F_GETFL);
  if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0 ||
      fcntl(fd, F_SETFD, FD_CLOEXEC) < 0) {
    close(fd);
    return ARES_SOCKET_BAD;
  }
  return fd;
}

static int dns_close(ares_socket_t fd, void *user)
{
  struct dns_ctx *c = user;
  size_t i;

  for (i = 0; i < c->n_socks; i++) {
    if (c->socks[i].fd == fd) {
      c->socks[i] = c->socks[--c->n_socks];
      break;
    }
  }
  return close(fd);
}

static int dns_connect(ares_socket_t fd, const struct sockaddr *sa,
                       ares_socklen_t len, void *user)
{
  struct dns_ctx *c = user;

  if (c->n_socks < DNS_MAX_SOCKS && len <= sizeof(struct sockaddr_storage)) {
    c->socks[c->n_socks].fd = fd;
    memcpy(&c->socks[c->n_socks].addr, sa, len);
    c->socks[c->n_socks].len = len;
    c->n_socks++;
  }
  return connect(fd, sa, len);
}

static void format_addr(const struct sockaddr *sa, char *out, size_t len)
{
  char ip[INET6_ADDRSTRLEN];

  if (sa->sa_family == AF_INET) {
    const struct sockaddr_in *in =
        (const struct sockaddr_in *)(const void *)sa;

    inet_ntop(AF_INET, &in->sin_addr, ip, sizeof(ip));
    snprintf(out, len, "%s:%u", ip, (unsigned)ntohs(in->sin_port));
  }
  else if (sa->sa_family == AF_INET6) {
    const struct sockaddr_in6 *in6 =
        (const struct sockaddr_in6 *)(const void *)sa;

    inet_ntop(AF_INET6, &in6->sin6_addr, ip, sizeof(ip));
    snprintf(out, len, "[%s]:%u", ip, (unsigned)ntohs(in6->sin6_port));
  }
  else {
    snprintf(out, len, "unknown");
  }
}

/* The "ip:port" a c-ares socket talks to, or "" when unknown. */
static void server_of(const struct dns_ctx *c, ares_socket_t fd, char *out,
                      size_t len)
{
  size_t i;

  out[0] = '\0';
  for (i = 0; i < c->n_socks; i++)
    if (c->socks[i].fd == fd) {
      format_addr((const struct sockaddr *)&c->socks[i].addr, out, len);
      return;
    }
}

static void record_failure(struct dns_ctx *c, ares_socket_t fd,
                           const char *rcode, int fam)
{
  const char *query = fam == 0 ? "A" : fam == 1 ? "AAAA" : NULL;
  struct dns_answer *a = c->out;
  char who[INET6_ADDRSTRLEN + 8];
  size_t i;

  if (!a)
    return;
  server_of(c, fd, who, sizeof(who));
  for (i = 0; i < a->n_failed; i++)
    if (!strcmp(a->failed[i].server, who) && a->failed[i].rcode == rcode) {
      /* the A and AAAA queries of one server fail alike */
      if (a->failed[i].query != query)
        a->failed[i].query = NULL;
      return;
    }
  if (a->n_failed == DNS_FAILURES_MAX)
    return;
  snprintf(a->failed[a->n_failed].server, sizeof(a->failed[0].server), "%s",
           who[0] ? who : "unknown");
  a->failed[a->n_failed].rcode = rcode;
  a->failed[a->n_failed].us = probe_now_us() - c->t0;
  a->failed[a->n_failed].query = query;
  a->n_failed++;
}

static const char *rcode_word(unsigned rcode)
{
  switch (rcode) {
  case 1:
    return "FORMERR";
  case 2:
    return "SERVFAIL";
  case 4:
    return "NOTIMP";
  case 5:
    return "REFUSED";
  default:
    return NULL; /* NOERROR, NXDOMAIN: answers, not failures */
  }
}

/* Length of header + question of a query, or 0 when it is not one. */
static size_t question_end(const unsigned char *q, size_t len)
{
  size_t off = 12;

  if (len < 12 || (q[2] & 0x80) || q[4] != 0 || q[5] != 1)
    return 0;
  while (off < len && q[off]) {
    if (q[off] & 0xC0)
      return 0;
    off += 1 + (size_t)q[off];
  }
  off += 1 + 4;
  return off <= len ? off : 0;
}

/* 0 for an answer to an A question, 1 for AAAA, else -1. */
static int answer_family(const unsigned char *m, size_t len)
{
  size_t off = 12;
  unsigned t;

  if (len < 12 || m[4] != 0 || m[5] != 1)
    return -1;
  while (off < len && m[off]) {
    if (m[off] & 0xC0)
      return -1;
    off += 1 + (size_t)m[off];
  }
  if (off + 5 > len)
    return -1;
  t = (unsigned)m[off + 1] << 8 | m[off + 2];
  return t == 1 ? 0 : t == 28 ? 1 : -1;
}

/*
 * An answer that refuses (or fails) without repeating the question, as
 * unbound's "access-control: refuse" sends: c-ares 1.18 drops it as not
 * matching its query and waits for the per-try timeout, while dig and
 * the system's resolver go on to the next server at once.  Put the
 * question of the query with that id back, so that c-ares sees the
 * refusal and moves on.  Returns the new length.
 */
static size_t mend_answer(struct dns_ctx *c, ares_socket_t fd,
                          unsigned char *buf, size_t n, size_t cap)
{
  size_t i, qlen;

  if (n < 12 || !(buf[2] & 0x80) || buf[4] || buf[5] || !(buf[3] & 0x0F))
    return n;
  for (i = 0; i < c->n_sent; i++) {
    if (c->sent[i].fd != (int)fd || c->sent[i].q[0] != buf[0] ||
        c->sent[i].q[1] != buf[1])
      continue;
    qlen = c->sent[i].len - 12;
    if (n + qlen > cap)
      return n;
    memmove(buf + 12 + qlen, buf + 12, n - 12);
    memcpy(buf + 12, c->sent[i].q + 12, qlen);
    buf[4] = 0;
    buf[5] = 1;
    return n + qlen;
  }
  return n;
}

static ares_ssize_t dns_recvfrom(ares_socket_t fd, void *buf, size_t len,
                                 int flags, struct sockaddr *from,
                                 ares_socklen_t *fromlen, void *user)
{
  struct dns_ctx *c = user;
  ssize_t n;
  size_t i;

  if (c->have_held && c->held.ready && c->held.fd == (int)fd &&
      c->held.len <= len) {
    unsigned char *b = buf;

    memcpy(b, c->held.m, c->held.len);
    if (c->held.nodata)
      b[3] = (unsigned char)(b[3] & 0xF0u); /* NOERROR, no answer */
    c->have_held = 0;
    if (from && fromlen && *fromlen > 0)
      *fromlen = 0;
    return (ares_ssize_t)c->held.len;
  }
  n = recvfrom(fd, buf, len, flags, from, fromlen);
  if (n < 0 && errno == ECONNREFUSED)
    record_failure(c, fd, "unreachable", -1);
  if (n >= 12) {
    unsigned char *b = buf;
    const char *w = (b[2] & 0x80) ? rcode_word(b[3] & 0x0Fu) : NULL;
    int f;

    if (w) {
      n = (ssize_t)mend_answer(c, fd, b, (size_t)n, len);
      f = answer_family(b, (size_t)n);
      record_failure(c, fd, w, f);
      if (c->both && f >= 0) {
        c->fam[f] = -1;
        if (c->fam[!f] == 1) {
          b[3] = (unsigned char)(b[3] & 0xF0u); /* the other answered */
          return (ares_ssize_t)n;
        }
        if (c->fam[!f] == 0 && !c->have_held &&
            (size_t)n <= sizeof(c->held.m)) {
          memcpy(c->held.m, b, (size_t)n);
          c->held.len = (size_t)n;
          c->held.fd = (int)fd;
          c->held.fam = f;
          c->held.ready = 0;
          c->held.nodata = 0;
          c->have_held = 1;
          errno = EAGAIN;
          return -1;
        }
        if (c->have_held && c->held.fam == !f)
          c->held.ready = 1; /* both failed: as they came */
      }
      return (ares_ssize_t)n;
    }
    f = (b[2] & 0x80) ? answer_family(b, (size_t)n) : -1;
    if (c->both && f >= 0 && ((b[3] & 0x0Fu) == 0 || (b[3] & 0x0Fu) == 3)) {
      c->fam[f] = 1;
      if (c->have_held && c->held.fam == !f) {
        c->held.ready = 1;
        c->held.nodata = 1;
      }
    }
  }
  if (n > 0) {
    for (i = 0; i < c->n_socks; i++) {
      if (c->socks[i].fd == fd) {
        format_addr((const struct sockaddr *)&c->socks[i].addr, c->answered_by,
                    sizeof(c->answered_by));
        break;
      }
    }
  }
  return (ares_ssize_t)n;
}

static ares_ssize_t dns_sendv(ares_socket_t fd, const struct iovec *iov,
                              int iovcnt, void *user)
{
  struct dns_ctx *c = user;
  unsigned char q[DNS_QUERY_MAX];
  size_t len = 0, qend;
  ssize_t n;
  int i;
  char who[INET6_ADDRSTRLEN + 8];

  for (i = 0; i < iovcnt && len < sizeof(q); i++) {
    size_t k =
        iov[i].iov_len < sizeof(q) - len ? iov[i].iov_len : sizeof(q) - len;

    memcpy(q + len, iov[i].iov_base, k);
    len += k;
  }
  /* UDP queries only (TCP ones start with a length). */
  qend = question_end(q, len);
  if (qend && qend == len) {
    size_t slot = c->next_sent++ % DNS_MAX_SENT;

    c->sent[slot].fd = (int)fd;
    memcpy(c->sent[slot].q, q, qend);
    c->sent[slot].len = qend;
    if (c->n_sent < DNS_MAX_SENT)
      c->n_sent++;
  }
  server_of(c, fd, who, sizeof(who));
  for (i = 0; who[0] && i < (int)c->n_asked; i++)
    if (!strcmp(c->asked[i], who))
      break;
  if (who[0] && i == (int)c->n_asked && c->n_asked < 4)
    snprintf(c->asked[c->n_asked++], sizeof(c->asked[0]), "%s", who);
  n = writev(fd, iov, iovcnt);
  if (n < 0 && errno == ECONNREFUSED) {
    /* The port-unreachable error of an earlier datagram on this socket:
     * c-ares would take this send error for this query only and leave
     * the others waiting for the timeout, the socket's error being gone.
     * Send again: the next error then reaches c-ares's read, which moves
     * every query of this server on at once. */
    record_failure(c, fd, "unreachable", -1);
    n = writev(fd, iov, iovcnt);
  }
  return (ares_ssize_t)n;
}

static const struct ares_socket_functions dns_funcs = {
    dns_socket, dns_close, dns_connect, dns_recvfrom, dns_sendv};

int64_t probe_now_us(void)
{
  return clock_mono_us();
}

int64_t probe_wall_ms(void)
{
  return clock_wall_ms();
}

static void copy_answer(const struct ares_addrinfo *res, struct dns_answer *a)
{
  const struct ares_addrinfo_node *node;
  const struct ares_addrinfo_cname *cn;

  a->ttl = -1;
  for (cn = res->cnames; cn; cn = cn->next) {
    const char *name = cn->name ? cn->name : cn->alias;
    size_t k;
    int seen = 0;

    /* The A and AAAA answers each carry the chain: keep it once. */
    for (k = 0; name && k < a->n_cnames; k++)
      seen |= !strcmp(a->cnames[k], name);
    if (cn->alias && name && !seen)
      strv_push(&a->cnames, &a->n_cnames, name);
    if (cn->ttl >= 0 && (a->ttl < 0 || cn->ttl < a->ttl))
      a->ttl = cn->ttl;
  }
  for (node = res->nodes; node; node = node->ai_next) {
    char ip[INET6_ADDRSTRLEN];
    const void *src;
    size_t i;
    int dup = 0;

    if (node->ai_family == AF_INET)
      src =
          &((const struct sockaddr_in *)(const void *)node->ai_addr)->sin_addr;
    else if (node->ai_family == AF_INET6)
      src = &((const struct sockaddr_in6 *)(const void *)node->ai_addr)
                 ->sin6_addr;
    else
      continue;
    if (!inet_ntop(node->ai_family, src, ip, sizeof(ip)))
      continue;
    for (i = 0; i < a->n_addresses; i++)
      dup |= !strcmp(a->addresses[i], ip);
    if (!dup)
      strv_push(&a->addresses, &a->n_addresses, ip);
    if (node->ai_ttl >= 0 && (a->ttl < 0 || node->ai_ttl < a->ttl))
      a->ttl = node->ai_ttl;
  }
}

static enum dns_status map_status(int status)
{
  switch (status) {
  case ARES_SUCCESS:
    return DNS_OK;
  case ARES_ENOTFOUND:
    return DNS_NXDOMAIN;
  case ARES_ENODATA:
    return DNS_NODATA;
  case ARES_ESERVFAIL:
    return DNS_SERVFAIL;
  case ARES_EREFUSED:
    return DNS_REFUSED;
  case ARES_ETIMEOUT:
  case ARES_ECANCELLED:
    return DNS_TIMEOUT;
  default:
    return DNS_ERROR;
  }
}

static const char *status_words(enum dns_status s)
{
  switch (s) {
  case DNS_NXDOMAIN:
    return "NXDOMAIN (no such host)";
  case DNS_NODATA:
    return "no address records";
  case DNS_SERVFAIL:
    return "SERVFAIL (resolver failed)";
  case DNS_REFUSED:
    return "REFUSED by the resolver";
  case DNS_TIMEOUT:
    return "timeout";
  default:
    return "failed";
  }
}

/* How one resolver failed, in words. */
static void failure_words(struct buf *b, const char *rcode, const char *server)
{
  if (!strcmp(rcode, "REFUSED"))
    buf_printf(b, "REFUSED by %s", server);
  else if (!strcmp(rcode, "unreachable"))
    buf_printf(b, "no DNS server at %s (port unreachable)", server);
  else
    buf_printf(b, "%s from %s", rcode, server);
}

/* The error of a failed lookup: what the last resolver said, or the
 * timeout and who never answered, and every resolver that refused, failed
 * or was unreachable before (SERVFAIL, REFUSED, timeout, no data and no
 * such host each in their own words). */
static void error_words(const struct dns_ctx *ctx, const char *host,
                        enum dns_status st, const struct dns_answer *out,
                        char *err, size_t errlen)
{
  struct buf b;
  size_t i, k;
  int all_failed = ctx->done && (ctx->status == ARES_ECONNREFUSED ||
                                 ctx->status == ARES_ESERVFAIL ||
                                 ctx->status == ARES_EREFUSED);

  buf_init(&b, 0);
  buf_printf(&b, "resolving '%s': ", host);
  if (st == DNS_TIMEOUT) {
    int silent = 0;

    buf_printf(&b, "timeout after %lld ms", (long long)(out->us / 1000));
    for (i = 0; i < ctx->n_asked; i++) {
      int failed = 0;

      for (k = 0; k < out->n_failed; k++)
        failed |= !strcmp(out->failed[k].server, ctx->asked[i]);
      if (failed)
        continue;
      buf_puts(&b, silent++ ? ", " : ", no answer from ");
      buf_puts(&b, ctx->asked[i]);
    }
  }
  else if (all_failed && out->n_failed) {
    /* Every resolver refused, failed or was unreachable: say each. */
    for (i = 0; i < out->n_failed; i++) {
      if (i)
        buf_puts(&b, "; ");
      failure_words(&b, out->failed[i].rcode, out->failed[i].server);
    }
    goto done;
  }
  else {
    buf_printf(&b, "%s%s%s (%s)", status_words(st),
               out->server ? " from " : "", out->server ? out->server : "",
               ares_strerror(ctx->done ? ctx->status : ARES_ETIMEOUT));
  }
  for (i = 0; i < out->n_failed; i++) {
    buf_puts(&b, i ? ", " : "; before that ");
    failure_words(&b, out->failed[i].rcode, out->failed[i].server);
  }
done:
  snprintf(err, errlen, "%s", b.s ? b.s : "");
  buf_release(&b);
}

/*
 * A c-ares channel with our socket functions, on an engine: its sockets
 * are watched through the socket-state callback, its retry timer is an
 * engine timer, and a lookup ends in a deferred task.  The context the
 * socket functions write to lives beside it.
 */
struct dns_channel {
  ares_channel ch;
  struct dns_ctx ctx;
  struct engine *e;
  struct engine_job *const *owner;
  struct engine_timer retry;    /* ares_timeout */
  struct engine_timer deadline; /* the lookup's budget */
  struct engine_task finish;
  struct engine_hook hook;
  /* The lookup under way. */
  int busy;
  char *host;
  int64_t deadline_us, done_us;
  char *err;
  size_t errlen;
  probe_dns_done_fn done;
  void *ud;
};

static void arm_retry(struct dns_channel *c);
static void finish_lookup(void *ud);

static void on_dns_fd(int fd, unsigned events, void *ud)
{
  struct dns_channel *c = ud;
  ares_socket_t r = ARES_SOCKET_BAD, w = ARES_SOCKET_BAD;

  if (events & (ENGINE_IN | ENGINE_ERR))
    r = fd;
  if (events & ENGINE_OUT)
    w = fd;
  ares_process_fd(c->ch, r, w);
  /* A failure held back is due (the other family has answered or failed
   * too): c-ares reads it from the same socket. */
  if (c->ctx.have_held && c->ctx.held.ready && !c->ctx.done)
    ares_process_fd(c->ch, (ares_socket_t)c->ctx.held.fd, ARES_SOCKET_BAD);
  arm_retry(c);
}

static void on_sock_state(void *data, ares_socket_t fd, int readable,
                          int writable)
{
  struct dns_channel *c = data;
  unsigned ev = (readable ? ENGINE_IN : 0u) | (writable ? ENGINE_OUT : 0u);

  (void)engine_watch_owned(c->e, fd, ev, on_dns_fd, c, c->owner);
}

static void on_retry(void *ud)
{
  struct dns_channel *c = ud;

  ares_process_fd(c->ch, ARES_SOCKET_BAD, ARES_SOCKET_BAD);
  arm_retry(c);
}

/* c-ares's next timeout (a retry, the next server) as an engine timer. */
static void arm_retry(struct dns_channel *c)
{
  struct timeval tv, *tvp;

  if (!c->busy) {
    engine_timer_stop(c->e, &c->retry);
    return;
  }
  tvp = ares_timeout(c->ch, NULL, &tv);
  if (!tvp) {
    engine_timer_stop(c->e, &c->retry);
    return;
  }
  engine_timer_set(c->e, &c->retry,
                   probe_now_us() + (int64_t)tvp->tv_sec * 1000000 +
                       tvp->tv_usec,
                   on_retry, c, c->owner);
}

/* The budget ran out, or the user interrupted: cancel, which calls the
 * lookup's callback (ARES_ECANCELLED, a timeout). */
static void on_deadline(void *ud)
{
  struct dns_channel *c = ud;

  if (c->busy && !c->ctx.done)
    ares_cancel(c->ch);
}

static void on_addrinfo(void *arg, int status, int timeouts,
                        struct ares_addrinfo *res)
{
  struct dns_channel *c = arg;

  (void)timeouts;
  if (!c->busy || c->ctx.done) {
    if (res)
      ares_freeaddrinfo(res);
    return;
  }
  c->ctx.done = 1;
  c->ctx.status = status;
  c->ctx.res = res;
  c->done_us = probe_now_us();
  engine_defer(c->e, &c->finish, finish_lookup, c, c->owner);
}

/*
 * The resolver configuration, read once per (servers, per-try timeout):
 * ares_init_options reads /etc/resolv.conf, /etc/nsswitch.conf and the
 * environment, a third of serve's CPU per probe when done per channel.
 * A template channel is made once; its saved options (servers with
 * their ports, search domains, lookups, timeouts) make each new channel
 * without reading a file.  c-ares 1.18 keeps no answer cache, and each
 * channel is still new, with its own sockets: no answer is shared.
 */
struct dns_template {
  char *servers; /* NULL: the system's */
  int per_try_ms;
  struct ares_options opts;
  int optmask;
  struct ares_addr_port_node *nodes;
  struct dns_template *next;
};

static pthread_mutex_t templates_mu = PTHREAD_MUTEX_INITIALIZER;
static struct dns_template *templates;

static int same_servers(const char *a, const char *b)
{
  return a == b || (a && b && strcmp(a, b) == 0);
}

/* The template of the configuration, made now if new; NULL with a
 * message in err. */
static const struct dns_template *
template_for(const char *servers, int per_try_ms, char *err, size_t errlen)
{
  struct dns_template *t;
  struct ares_options opts;
  ares_channel ch;
  int rc;

  stall_lock(&templates_mu);
  for (t = templates; t; t = t->next)
    if (t->per_try_ms == per_try_ms && same_servers(t->servers, servers))
      break;
  if (t) {
    pthread_mutex_unlock(&templates_mu);
    return t;
  }
  memset(&opts, 0, sizeof(opts));
  opts.timeout = per_try_ms;
  /* Two tries inside the budget, so a lost UDP datagram is retried once,
   * as a stub resolver would, and the whole lookup stays bounded. */
  opts.tries = 2;
  rc = ares_init_options(&ch, &opts, ARES_OPT_TIMEOUTMS | ARES_OPT_TRIES);
  if (rc != ARES_SUCCESS) {
    pthread_mutex_unlock(&templates_mu);
    snprintf(err, errlen, "cannot start resolver: %s", ares_strerror(rc));
    return NULL;
  }
  if (servers) {
    rc = ares_set_servers_ports_csv(ch, servers);
    if (rc != ARES_SUCCESS) {
      pthread_mutex_unlock(&templates_mu);
      ares_destroy(ch);
      snprintf(err, errlen, "bad DNS servers '%s': %s", servers,
               ares_strerror(rc));
      return NULL;
    }
  }
  t = xcalloc(1, sizeof(*t));
  rc = ares_save_options(ch, &t->opts, &t->optmask);
  if (rc == ARES_SUCCESS)
    rc = ares_get_servers_ports(ch, &t->nodes);
  ares_destroy(ch);
  if (rc != ARES_SUCCESS) {
    pthread_mutex_unlock(&templates_mu);
    ares_destroy_options(&t->opts);
    free(t);
    snprintf(err, errlen, "cannot start resolver: %s", ares_strerror(rc));
    return NULL;
  }
  t->servers = servers ? xstrdup(servers) : NULL;
  t->per_try_ms = per_try_ms;
  t->next = templates;
  templates = t;
  pthread_mutex_unlock(&templates_mu);
  return t;
}

static void templates_free(void)
{
  stall_lock(&templates_mu);
  while (templates) {
    struct dns_template *t = templates;

    templates = t->next;
    ares_destroy_options(&t->opts);
    ares_free_data(t->nodes);
    free(t->servers);
    free(t);
  }
  pthread_mutex_unlock(&templates_mu);
}

struct dns_channel *probe_dns_open(struct engine *e,
                                   struct engine_job *const *owner,
                                   const char *servers, int64_t timeout_us,
                                   char *err, size_t errlen)
{
  const struct dns_template *t;
  struct dns_channel *c;
  struct ares_options opts;
  int rc, per_try_ms;

  per_try_ms = (int)(timeout_us / 1000 / 2);
  if (per_try_ms < 50)
    per_try_ms = 50;
  t = template_for(servers, per_try_ms, err, errlen);
  if (!t)
    return NULL;
  c = xcalloc(1, sizeof(*c));
  c->e = e;
  c->owner = owner;
  /* A template's options are only read: a shallow copy with this
   * channel's callback. */
  opts = t->opts;
  opts.sock_state_cb = on_sock_state;
  opts.sock_state_cb_data = c;
  rc = ares_init_options(&c->ch, &opts, t->optmask | ARES_OPT_SOCK_STATE_CB);
  if (rc == ARES_SUCCESS && t->nodes)
    rc = ares_set_servers_ports(c->ch, t->nodes);
  if (rc != ARES_SUCCESS) {
    snprintf(err, errlen, "cannot start resolver: %s", ares_strerror(rc));
    if (c->ch)
      ares_destroy(c->ch);
    free(c);
    return NULL;
  }
  ares_set_socket_functions(c->ch, &dns_funcs, &c->ctx);
  engine_hook_add(e, &c->hook, on_deadline, c);
  return c;
}

void probe_dns_close(struct dns_channel *c)
{
  if (!c)
    return;
  /* A lookup under way ends here without its callback. */
  c->busy = 0;
  engine_cancel(c->e, &c->finish);
  ares_destroy(c->ch);
  engine_timer_stop(c->e, &c->retry);
  engine_timer_stop(c->e, &c->deadline);
  engine_hook_remove(c->e, &c->hook);
  if (c->ctx.res)
    ares_freeaddrinfo(c->ctx.res);
  free(c->host);
  free(c);
}

void probe_dns_start(struct dns_channel *c, const char *host, int family,
                     int64_t timeout_us, struct dns_answer *out, char *err,
                     size_t errlen, probe_dns_done_fn done, void *ud)
{
  struct dns_ctx *ctx = &c->ctx;
  struct ares_addrinfo_hints hints;

  memset(out, 0, sizeof(*out));
  out->ttl = -1;
  /* Sockets the channel keeps open stay known; the answer state is new. */
  ctx->done = 0;
  ctx->status = 0;
  ctx->res = NULL;
  ctx->answered_by[0] = '\0';
  ctx->n_sent = 0;
  ctx->next_sent = 0;
  ctx->n_asked = 0;
  ctx->both = family != 4 && family != 6;
  ctx->fam[0] = ctx->fam[1] = 0;
  ctx->have_held = 0;
  ctx->out = out;
  free(c->host);
  c->host = xstrdup(host);
  c->err = err;
  c->errlen = errlen;
  c->done = done;
  c->ud = ud;
  c->busy = 1;
  memset(&hints, 0, sizeof(hints));
  hints.ai_family = family == 4 ? AF_INET : family == 6 ? AF_INET6 : AF_UNSPEC;
  /* No ARES_AI_NOSORT: c-ares sorts the addresses by RFC 6724 (as glibc's
   * getaddrinfo does for curl), and libcurl's happy eyeballs starts with
   * the family of the first. */
  hints.ai_flags = 0;
  ctx->t0 = probe_now_us();
  c->deadline_us = ctx->t0 + timeout_us;
  engine_timer_set(c->e, &c->deadline, c->deadline_us, on_deadline, c,
                   c->owner);
  /* The callback may run at once (/etc/hosts, a literal): it defers. */
  ares_getaddrinfo(c->ch, host, NULL, &hints, on_addrinfo, c);
  if (probe_interrupted)
    on_deadline(c);
  arm_retry(c);
}

/* The lookup is over (deferred from its callback): fill the answer. */
static void finish_lookup(void *ud)
{
  struct dns_channel *c = ud;
  struct dns_ctx *ctx = &c->ctx;
  struct dns_answer *out = ctx->out;
  enum dns_status st;

  engine_timer_stop(c->e, &c->deadline);
  engine_timer_stop(c->e, &c->retry);
  c->busy = 0;
  out->us = c->done_us - ctx->t0;
  st = map_status(ctx->status);
  if (c->done_us >= c->deadline_us && st != DNS_OK)
    st = DNS_TIMEOUT;
  out->host = xstrdup(c->host);
  if (ctx->answered_by[0])
    out->server = xstrdup(ctx->answered_by);
  if (st == DNS_OK && ctx->res) {
    copy_answer(ctx->res, out);
    if (!out->server)
      out->server = xstrdup("/etc/hosts");
    if (!out->n_addresses)
      st = DNS_NODATA;
  }
  if (st != DNS_OK)
    error_words(ctx, c->host, st, out, c->err, c->errlen);
  ctx->out = NULL;
  if (ctx->res)
    ares_freeaddrinfo(ctx->res);
  ctx->res = NULL;
  c->done(c->ud, st);
}

void dns_answer_release(struct dns_answer *a)
{
  size_t i;

  free(a->host);
  for (i = 0; i < a->n_addresses; i++)
    free(a->addresses[i]);
  free(a->addresses);
  for (i = 0; i < a->n_cnames; i++)
    free(a->cnames[i]);
  free(a->cnames);
  free(a->server);
  memset(a, 0, sizeof(*a));
  a->ttl = -1;
}

int probe_dns_global_init(void)
{
  return ares_library_init(ARES_LIB_INIT_ALL) == ARES_SUCCESS ? 0 : -1;
}

void probe_dns_global_cleanup(void)
{
  templates_free();
  ares_library_cleanup();
}

const char *probe_dns_version(void)
{
  return ares_version(NULL);
}
