/*
 * hs_lablink.c: the lab's link.  A user-space wire between two TUN
 * devices that forwards every IP packet after a fixed one-way delay, and
 * optionally at a limited rate, in both directions.  No netem needed.
 *
 *   hs-lablink -a TUN_A -b TUN_B [-d DELAY_US] [-r RATE_BIT_S]
 *              [-U UP_BIT_S] [-D DOWN_BIT_S] [-q PACKETS] [-s SPIN_US] [-R]
 *              [-p READY_FILE] [-x DIR:N[,N...]]...
 *
 * The two TUN devices are made in the caller's network namespace; the lab
 * script then moves one of them into the other namespace (a TUN device
 * keeps its file descriptor when it changes namespace) and gives both their
 * addresses.  READY_FILE is written once both devices exist.
 *
 * Per direction, a reader thread stamps each packet with CLOCK_MONOTONIC as
 * it is read and queues it with its release time (arrival + delay, after
 * the packets ahead of it when a rate is set); a writer thread waits for the
 * release time of the head of the queue with an absolute clock_nanosleep
 * that ends SPIN_US early, spins the rest, and writes the packet.  The delay
 * is constant, so the queue is FIFO and its head is always due first.  Full
 * queues drop (tail drop, counted), like a router.  -R runs the readers
 * and writers under SCHED_FIFO, so a loaded machine delays them less.
 *
 * -x DIR:N,M drops, in direction DIR ("a" is a->b, "b" is b->a), the Nth
 * and Mth IPv4 TCP segment that carries data of every TCP connection
 * (counted per connection from its SYN, so the lab's own readiness checks,
 * a few segments long, are not touched): a known loss for the transport
 * tests.  Per direction the link counts the segments it dropped so, and
 * the data segments it then forwarded of that connection beyond the
 * hole before the segment that fills it: what the receiver queues out of
 * order (its kernel's rcv_ooopack).  SIGUSR1 writes the counters to
 * stderr and the link goes on.
 *
 * SIGTERM, SIGINT or SIGHUP: the threads stop, the devices go away with
 * the process, counters and the lateness of writes go to stderr, exit 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

/* Bigger than any packet of a 1500-byte MTU; a larger one is dropped. */
#define SLOT_BYTES   2048
#define MAX_DELAY_US (10 * 1000 * 1000)
/* -x: data segments of a connection to drop, connections followed. */
#define DROP_MAX  16
#define FLOWS_MAX 64

struct slot {
  int64_t release_ns;
  size_t len;
  unsigned char data[SLOT_BYTES];
};

/* One TCP connection seen in a direction (-x): its data segments so far
 * and the lowest hole the link made in it (hole: its sequence number). */
struct flow {
  uint32_t saddr, daddr;
  uint16_t sport, dport;
  uint64_t data_segments;
  int hole;
  uint32_t hole_seq;
  int64_t seen_ns; /* last packet: the oldest entry is reused */
};

struct dir {
  const char *name; /* "a->b" */
  /* -x: the data segments (1-based, per connection) dropped */
  uint64_t drop_at[DROP_MAX];
  size_t n_drop;
  struct flow flows[FLOWS_MAX];
  int in, out;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  struct slot *q;
  size_t cap, head, count;
  int64_t rate_bps;     /* bits per second, 0 = unlimited */
  int64_t link_free_ns; /* rate limit: when the wire is free again */
  int stop;             /* under mu: the threads of this direction end */
  /* counters, under mu */
  uint64_t forwarded, dropped_full, dropped_big, write_errors;
  uint64_t dropped_rule, ooo_forwarded, holes_filled;
  uint64_t bytes;
  int64_t late_max_ns, late_sum_ns;
};

static int64_t delay_ns;
static int64_t spin_ns = 200 * 1000;

static int64_t now_ns(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int stopping(struct dir *d)
{
  int s;

  pthread_mutex_lock(&d->mu);
  s = d->stop;
  pthread_mutex_unlock(&d->mu);
  return s;
}

/* Sleep until SPIN early, then spin until t (CLOCK_MONOTONIC, ns). */
static void wait_until(int64_t t)
{
  int64_t wake = t - spin_ns;

  if (wake > now_ns()) {
    struct timespec ts;
    int rc;

    ts.tv_sec = (time_t)(wake / 1000000000);
    ts.tv_nsec = (long)(wake % 1000000000);
    do {
      rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
    } while (rc == EINTR);
  }
  while (now_ns() < t) {
    /* spin: the last SPIN_US only */
  }
}

static uint32_t get32(const unsigned char *p)
{
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
         (uint32_t)p[3];
}

/* The flow of an IPv4 TCP packet, made anew on a SYN (the oldest entry
 * goes when the table is full). */
static struct flow *flow_of(struct dir *d, uint32_t sa, uint32_t da,
                            uint16_t sp, uint16_t dp, int syn, int64_t t)
{
  struct flow *f, *old = &d->flows[0];
  size_t i;

  for (i = 0; i < FLOWS_MAX; i++) {
    f = &d->flows[i];
    if (f->seen_ns && f->saddr == sa && f->daddr == da && f->sport == sp &&
        f->dport == dp) {
      if (syn)
        break;
      f->seen_ns = t;
      return f;
    }
    if (f->seen_ns < old->seen_ns)
      old = f;
  }
  f = i < FLOWS_MAX ? &d->flows[i] : old;
  memset(f, 0, sizeof(*f));
  f->saddr = sa;
  f->daddr = da;
  f->sport = sp;
  f->dport = dp;
  f->seen_ns = t;
  return f;
}

/* -x: whether to drop this packet (called under d->mu), and the counters
 * of what follows a drop. */
static int drop_rule(struct dir *d, const unsigned char *p, size_t n,
                     int64_t t)
{
  size_t ihl, doff, tot, len, i;
  uint32_t seq;
  struct flow *f;
  int syn;

  if (!d->n_drop || n < 20 || p[0] >> 4 != 4 || p[9] != 6)
    return 0;
  ihl = (size_t)(p[0] & 15) * 4;
  tot = (size_t)p[2] << 8 | p[3];
  if (ihl < 20 || tot > n || tot < ihl + 20)
    return 0;
  doff = (size_t)(p[ihl + 12] >> 4) * 4;
  if (doff < 20 || tot < ihl + doff)
    return 0;
  len = tot - ihl - doff;
  syn = (p[ihl + 13] & 0x02) != 0;
  f = flow_of(d, get32(p + 12), get32(p + 16),
              (uint16_t)(p[ihl] << 8 | p[ihl + 1]),
              (uint16_t)(p[ihl + 2] << 8 | p[ihl + 3]), syn, t);
  if (!len)
    return 0;
  seq = get32(p + ihl + 4);
  f->data_segments++;
  for (i = 0; i < d->n_drop; i++)
    if (d->drop_at[i] == f->data_segments) {
      d->dropped_rule++;
      if (!f->hole || (int32_t)(seq - f->hole_seq) < 0) {
        f->hole = 1;
        f->hole_seq = seq;
      }
      return 1;
    }
  if (f->hole) {
    int32_t from = (int32_t)(seq - f->hole_seq);

    if (from <= 0 && (int64_t)from + (int64_t)len > 0) {
      f->hole = 0; /* this one fills it */
      d->holes_filled++;
    }
    else if (from > 0) {
      d->ooo_forwarded++;
    }
  }
  return 0;
}

static void *reader(void *arg)
{
  struct dir *d = arg;
  unsigned char buf[65536];

  while (!stopping(d)) {
    struct pollfd p;
    ssize_t n;
    int64_t t, release;

    p.fd = d->in;
    p.events = POLLIN;
    p.revents = 0;
    if (poll(&p, 1, 200) <= 0)
      continue;
    n = read(d->in, buf, sizeof(buf));
    t = now_ns();
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN)
        continue;
      perror("hs-lablink: read");
      break;
    }
    pthread_mutex_lock(&d->mu);
    if ((size_t)n > SLOT_BYTES) {
      d->dropped_big++;
    }
    else if (drop_rule(d, buf, (size_t)n, t)) {
      /* counted by drop_rule */
    }
    else if (d->count == d->cap) {
      d->dropped_full++;
    }
    else {
      struct slot *s = &d->q[(d->head + d->count) % d->cap];

      if (d->rate_bps > 0) {
        int64_t start = t > d->link_free_ns ? t : d->link_free_ns;

        d->link_free_ns = start + (int64_t)n * 8 * 1000000000 / d->rate_bps;
        release = d->link_free_ns + delay_ns;
      }
      else {
        release = t + delay_ns;
      }
      s->release_ns = release;
      s->len = (size_t)n;
      memcpy(s->data, buf, (size_t)n);
      d->count++;
      pthread_cond_signal(&d->cv);
    }
    pthread_mutex_unlock(&d->mu);
  }
  return NULL;
}

static void *writer(void *arg)
{
  struct dir *d = arg;

  pthread_mutex_lock(&d->mu);
  while (!d->stop) {
    struct slot *s;
    int64_t late;
    ssize_t n;

    if (d->count == 0) {
      pthread_cond_wait(&d->cv, &d->mu);
      continue;
    }
    /* The head slot is only reused after the pop below: safe to use
     * unlocked while the reader fills the tail. */
    s = &d->q[d->head];
    pthread_mutex_unlock(&d->mu);
    wait_until(s->release_ns);
    late = now_ns() - s->release_ns;
    n = write(d->out, s->data, s->len);
    pthread_mutex_lock(&d->mu);
    if (n < 0) {
      d->write_errors++;
    }
    else {
      d->forwarded++;
      d->bytes += s->len;
      d->late_sum_ns += late;
      if (late > d->late_max_ns)
        d->late_max_ns = late;
    }
    d->head = (d->head + 1) % d->cap;
    d->count--;
  }
  pthread_mutex_unlock(&d->mu);
  return NULL;
}

static int tun_open(const char *name)
{
  struct ifreq ifr;
  int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);

  if (fd < 0) {
    perror("hs-lablink: /dev/net/tun");
    return -1;
  }
  memset(&ifr, 0, sizeof(ifr));
  ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
  if (strlen(name) >= sizeof(ifr.ifr_name)) {
    fprintf(stderr, "hs-lablink: device name '%s' too long\n", name);
    close(fd);
    return -1;
  }
  memcpy(ifr.ifr_name, name, strlen(name) + 1);
  if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
    fprintf(stderr, "hs-lablink: TUNSETIFF %s: %s\n", name, strerror(errno));
    close(fd);
    return -1;
  }
  return fd;
}

static int64_t parse_num(const char *s, const char *what, int64_t max)
{
  char *end;
  long long v;

  errno = 0;
  v = strtoll(s, &end, 10);
  if (errno || end == s || *end || v < 0 || v > max) {
    fprintf(stderr, "hs-lablink: bad %s '%s' (0 to %lld)\n", what, s,
            (long long)max);
    exit(2);
  }
  return (int64_t)v;
}

/* Start fn(arg); under SCHED_FIFO when realtime and allowed, so that a
 * loaded machine delays neither the arrival stamps nor the writes. */
static int start_thread(pthread_t *t, void *(*fn)(void *), void *arg,
                        int realtime)
{
  pthread_attr_t attr;
  struct sched_param sp;
  int rc;

  if (realtime) {
    pthread_attr_init(&attr);
    memset(&sp, 0, sizeof(sp));
    sp.sched_priority = 50;
    pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
    pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
    pthread_attr_setschedparam(&attr, &sp);
    rc = pthread_create(t, &attr, fn, arg);
    pthread_attr_destroy(&attr);
    if (rc == 0)
      return 0;
    fputs("hs-lablink: SCHED_FIFO refused, using normal scheduling\n", stderr);
  }
  return pthread_create(t, NULL, fn, arg) == 0 ? 0 : -1;
}

static void usage(void)
{
  fputs("usage: hs-lablink -a TUN_A -b TUN_B [-d DELAY_US] [-r RATE_BIT_S]\n"
        "                  [-U UP_BIT_S] [-D DOWN_BIT_S] [-q PACKETS]\n"
        "                  [-s SPIN_US] [-R] [-p READY_FILE]\n"
        "                  [-x a|b:N[,N...]]...\n",
        stderr);
  exit(2);
}

static int dir_init(struct dir *d, const char *name, int in, int out,
                    size_t cap, int64_t rate)
{
  memset(d, 0, sizeof(*d));
  d->name = name;
  d->rate_bps = rate;
  d->in = in;
  d->out = out;
  d->cap = cap;
  d->q = calloc(cap, sizeof(*d->q));
  if (!d->q)
    return -1;
  pthread_mutex_init(&d->mu, NULL);
  pthread_cond_init(&d->cv, NULL);
  return 0;
}

/* -x DIR:N[,N...] into the drop list of its direction. */
static void parse_drops(struct dir *dirs, const char *arg)
{
  struct dir *d;
  const char *p;

  if ((arg[0] != 'a' && arg[0] != 'b') || arg[1] != ':') {
    fprintf(stderr, "hs-lablink: bad -x '%s' (a:N,... or b:N,...)\n", arg);
    exit(2);
  }
  d = &dirs[arg[0] == 'b'];
  for (p = arg + 2; *p;) {
    char *end;
    unsigned long long v;

    errno = 0;
    v = strtoull(p, &end, 10);
    if (errno || end == p || v == 0 || (*end && *end != ',') ||
        d->n_drop == DROP_MAX) {
      fprintf(stderr,
              "hs-lablink: bad -x '%s' (segment numbers from 1, at most "
              "%d a direction)\n",
              arg, DROP_MAX);
      exit(2);
    }
    d->drop_at[d->n_drop++] = v;
    p = *end ? end + 1 : end;
  }
}

static void dir_report(struct dir *d)
{
  pthread_mutex_lock(&d->mu);
  if (d->n_drop)
    fprintf(stderr,
            "hs-lablink: %s dropped %llu data segments (-x), forwarded %llu "
            "beyond a hole (out of order at the receiver), %llu filled a "
            "hole\n",
            d->name, (unsigned long long)d->dropped_rule,
            (unsigned long long)d->ooo_forwarded,
            (unsigned long long)d->holes_filled);
  fprintf(
      stderr,
      "hs-lablink: %s forwarded %llu packets (%llu bytes), dropped %llu "
      "(queue full) %llu (too big), write errors %llu, late mean %.1f us "
      "max %.1f us\n",
      d->name, (unsigned long long)d->forwarded, (unsigned long long)d->bytes,
      (unsigned long long)d->dropped_full, (unsigned long long)d->dropped_big,
      (unsigned long long)d->write_errors,
      d->forwarded ? (double)d->late_sum_ns / (double)d->forwarded / 1e3 : 0.0,
      (double)d->late_max_ns / 1e3);
  pthread_mutex_unlock(&d->mu);
}

int main(int argc, char **argv)
{
  const char *name_a = NULL, *name_b = NULL, *ready = NULL;
  size_t cap = 1024;
  int realtime = 0, fa, fb, opt, sig = 0, i;
  int64_t rate = 0, up = -1, down = -1;
  struct dir dirs[2];
  pthread_t th[4];
  sigset_t set;
  const char *drops[2 * DROP_MAX];
  size_t n_drops = 0, k;

  while ((opt = getopt(argc, argv, "a:b:d:r:U:D:q:s:Rp:x:")) != -1) {
    switch (opt) {
    case 'a':
      name_a = optarg;
      break;
    case 'b':
      name_b = optarg;
      break;
    case 'd':
      delay_ns = parse_num(optarg, "delay", MAX_DELAY_US) * 1000;
      break;
    case 'r':
      rate = parse_num(optarg, "rate", INT64_C(100000000000));
      break;
    case 'U':
      up = parse_num(optarg, "up rate", INT64_C(100000000000));
      break;
    case 'D':
      down = parse_num(optarg, "down rate", INT64_C(100000000000));
      break;
    case 'q':
      cap = (size_t)parse_num(optarg, "queue", 65536);
      if (cap == 0)
        usage();
      break;
    case 's':
      spin_ns = parse_num(optarg, "spin", 10000) * 1000;
      break;
    case 'R':
      realtime = 1;
      break;
    case 'p':
      ready = optarg;
      break;
    case 'x':
      if (n_drops == 2 * DROP_MAX)
        usage();
      drops[n_drops++] = optarg;
      break;
    default:
      usage();
    }
  }
  if (!name_a || !name_b || optind != argc)
    usage();
  if (up < 0)
    up = rate;
  if (down < 0)
    down = rate;

  /* Every thread inherits this mask: only sigwait below sees signals. */
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGHUP);
  sigaddset(&set, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &set, NULL);

  fa = tun_open(name_a);
  if (fa < 0)
    return 1;
  fb = tun_open(name_b);
  if (fb < 0)
    return 1;
  if (dir_init(&dirs[0], "a->b", fa, fb, cap, up) < 0 ||
      dir_init(&dirs[1], "b->a", fb, fa, cap, down) < 0) {
    fputs("hs-lablink: out of memory\n", stderr);
    return 1;
  }
  for (k = 0; k < n_drops; k++)
    parse_drops(dirs, drops[k]);
  for (i = 0; i < 4; i++) {
    struct dir *d = &dirs[i / 2];
    void *(*fn)(void *) = i % 2 ? writer : reader;

    if (start_thread(&th[i], fn, d, realtime) != 0) {
      fputs("hs-lablink: cannot start a thread\n", stderr);
      return 1;
    }
  }
  if (ready) {
    FILE *f = fopen(ready, "w");

    if (!f || fprintf(f, "%ld\n", (long)getpid()) < 0 || fclose(f) != 0) {
      perror("hs-lablink: ready file");
      return 1;
    }
  }
  fprintf(stderr,
          "hs-lablink: %s <-> %s, one-way delay %lld us, rate a->b (up) %lld "
          "bit/s%s, b->a (down) %lld bit/s%s, queue %zu packets, spin %lld "
          "us%s\n",
          name_a, name_b, (long long)(delay_ns / 1000), (long long)up,
          up ? "" : " (unlimited)", (long long)down,
          down ? "" : " (unlimited)", cap, (long long)(spin_ns / 1000),
          realtime ? ", SCHED_FIFO threads" : "");

  for (;;) {
    if (sigwait(&set, &sig) != 0)
      continue;
    if (sig != SIGUSR1)
      break;
    fputs("hs-lablink: counters (SIGUSR1)\n", stderr);
    dir_report(&dirs[0]);
    dir_report(&dirs[1]);
  }
  for (i = 0; i < 2; i++) {
    pthread_mutex_lock(&dirs[i].mu);
    dirs[i].stop = 1;
    pthread_cond_broadcast(&dirs[i].cv);
    pthread_mutex_unlock(&dirs[i].mu);
  }
  for (i = 0; i < 4; i++)
    pthread_join(th[i], NULL);
  fprintf(stderr, "hs-lablink: signal %d, stopping\n", sig);
  for (i = 0; i < 2; i++) {
    dir_report(&dirs[i]);
    pthread_mutex_destroy(&dirs[i].mu);
    pthread_cond_destroy(&dirs[i].cv);
    free(dirs[i].q);
  }
  close(fa);
  close(fb);
  return 0;
}
