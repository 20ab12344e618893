/*
 * lockwait.c: a mutrace-like counter of lock waits, for tests/bench/serve_tls.
 * Built as a shared object and loaded with LD_PRELOAD into one process
 * (hopsplit serve): every pthread_mutex_lock, pthread_rwlock_rdlock and
 * pthread_rwlock_wrlock first tries the lock; only when that fails (the
 * lock is held: a contended acquisition) is the wait timed, and charged to
 * the calling functions (the first frames of the stack outside the
 * lock wrappers, named with dladdr).  At exit it writes, to the file named
 * by LOCKWAIT_OUT (else stderr), one line of totals
 *
 *   lockwait: acquisitions N contended C wait_us W
 *
 * and one line per calling chain (the LOCKWAIT_TOP most waited, default
 * 40), most waited first:
 *
 *   lockwait: C contended, W us: FUNC < CALLER < CALLER'S CALLER
 *
 * The uncontended path costs a trylock and an atomic increment; no timing.
 * With LOCKWAIT_ALL set, every acquisition is charged to its callers too
 * ("taken"), contended or not: which locks a code path takes, and how often.
 * Build: cc -O2 -shared -fPIC -o lockwait.so lockwait.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FRAMES 8
#define SLOTS  4096

struct site {
  _Atomic uintptr_t key; /* hash of the frames, 0 when free */
  void *frames[FRAMES];
  int n;
  _Atomic uint64_t count, wait_ns, taken;
};

static struct site sites[SLOTS];
static _Atomic uint64_t n_acq, n_cont, wait_total_ns, n_lost;
static int (*real_mutex_lock)(pthread_mutex_t *);
static int (*real_rdlock)(pthread_rwlock_t *);
static int (*real_wrlock)(pthread_rwlock_t *);
static __thread int inside;
static int all; /* LOCKWAIT_ALL: every acquisition's caller is counted */

static uint64_t now_ns(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void resolve(void)
{
  if (!real_mutex_lock) {
    real_mutex_lock =
        (int (*)(pthread_mutex_t *))dlsym(RTLD_NEXT, "pthread_mutex_lock");
    real_rdlock =
        (int (*)(pthread_rwlock_t *))dlsym(RTLD_NEXT, "pthread_rwlock_rdlock");
    real_wrlock =
        (int (*)(pthread_rwlock_t *))dlsym(RTLD_NEXT, "pthread_rwlock_wrlock");
  }
}

__attribute__((constructor)) static void init(void)
{
  void *f[2];

  resolve();
  all = getenv("LOCKWAIT_ALL") != NULL;
  inside = 1;
  (void)backtrace(f, 2); /* loads the unwinder now, not under a lock */
  inside = 0;
}

/* An acquisition: contended (waited ns) or not (only under LOCKWAIT_ALL). */
static void charge(int contended, uint64_t ns)
{
  void *f[FRAMES + 2];
  int n, i;
  uintptr_t h = 1469598103934665603u;
  struct site *s = NULL;

  if (contended) {
    atomic_fetch_add(&n_cont, 1);
    atomic_fetch_add(&wait_total_ns, ns);
  }
  if (inside)
    return;
  inside = 1;
  n = backtrace(f, FRAMES + 2);
  inside = 0;
  /* f[0] is charge, f[1] the wrapper below */
  n -= 2;
  if (n < 0)
    n = 0;
  for (i = 0; i < n; i++)
    h = (h ^ (uintptr_t)f[i + 2]) * 1099511628211u;
  if (!h)
    h = 1;
  for (i = 0; i < SLOTS; i++) {
    struct site *c = &sites[(h + (uintptr_t)i) % SLOTS];
    uintptr_t want = 0;

    if (atomic_load(&c->key) == h) {
      s = c;
      break;
    }
    if (atomic_compare_exchange_strong(&c->key, &want, h)) {
      memcpy(c->frames, f + 2, sizeof(void *) * (size_t)n);
      c->n = n;
      s = c;
      break;
    }
    if (want == h) {
      s = c;
      break;
    }
  }
  if (!s) {
    atomic_fetch_add(&n_lost, 1);
    return;
  }
  atomic_fetch_add(&s->taken, 1);
  if (contended) {
    atomic_fetch_add(&s->count, 1);
    atomic_fetch_add(&s->wait_ns, ns);
  }
}

/* The three wrappers: try first; only a failed try is timed. */
#define WRAP(NAME, TYPE, TRY, REAL)                                           \
  int NAME(TYPE *l)                                                           \
  {                                                                           \
    uint64_t t0;                                                              \
    int rc;                                                                   \
                                                                              \
    resolve();                                                                \
    atomic_fetch_add(&n_acq, 1);                                              \
    if (TRY(l) == 0) {                                                        \
      if (all)                                                                \
        charge(0, 0);                                                         \
      return 0;                                                               \
    }                                                                         \
    t0 = now_ns();                                                            \
    rc = REAL(l);                                                             \
    charge(1, now_ns() - t0);                                                 \
    return rc;                                                                \
  }

WRAP(pthread_mutex_lock, pthread_mutex_t, pthread_mutex_trylock,
     real_mutex_lock)
WRAP(pthread_rwlock_rdlock, pthread_rwlock_t, pthread_rwlock_tryrdlock,
     real_rdlock)
WRAP(pthread_rwlock_wrlock, pthread_rwlock_t, pthread_rwlock_trywrlock,
     real_wrlock)

/* A frame's function name, skipping the lock wrappers of OpenSSL. */
static const char *name_of(void *pc, char *buf, size_t len)
{
  Dl_info di;

  if (dladdr(pc, &di) && di.dli_sname)
    return di.dli_sname;
  if (dladdr(pc, &di) && di.dli_fname) {
    const char *b = strrchr(di.dli_fname, '/');

    snprintf(buf, len, "%s+%#lx", b ? b + 1 : di.dli_fname,
             (unsigned long)((char *)pc - (char *)di.dli_fbase));
    return buf;
  }
  snprintf(buf, len, "%p", pc);
  return buf;
}

static int by_wait(const void *a, const void *b)
{
  const struct site *x = *(const struct site *const *)a;
  const struct site *y = *(const struct site *const *)b;
  uint64_t wx = atomic_load(&x->wait_ns), wy = atomic_load(&y->wait_ns);

  if (wx == wy) {
    wx = atomic_load(&x->taken);
    wy = atomic_load(&y->taken);
  }

  return wx < wy ? 1 : wx > wy ? -1 : 0;
}

__attribute__((destructor)) static void report(void)
{
  const char *path = getenv("LOCKWAIT_OUT");
  FILE *out = path ? fopen(path, "a") : NULL;
  static struct site *list[SLOTS];
  size_t n = 0, i, top = 40;
  const char *t = getenv("LOCKWAIT_TOP");

  inside = 1;
  if (t && atoi(t) > 0)
    top = (size_t)atoi(t);
  if (!out)
    out = stderr;
  fprintf(out, "lockwait: acquisitions %llu contended %llu wait_us %llu\n",
          (unsigned long long)atomic_load(&n_acq),
          (unsigned long long)atomic_load(&n_cont),
          (unsigned long long)(atomic_load(&wait_total_ns) / 1000));
  for (i = 0; i < SLOTS; i++)
    if (atomic_load(&sites[i].key))
      list[n++] = &sites[i];
  qsort(list, n, sizeof(list[0]), by_wait);
  for (i = 0; i < n && i < top; i++) {
    int k, shown = 0;
    char buf[128];

    fprintf(out, "lockwait: %llu contended, %llu us, %llu taken:",
            (unsigned long long)atomic_load(&list[i]->count),
            (unsigned long long)(atomic_load(&list[i]->wait_ns) / 1000),
            (unsigned long long)atomic_load(&list[i]->taken));
    for (k = 0; k < list[i]->n && shown < 6; k++) {
      const char *s = name_of(list[i]->frames[k], buf, sizeof(buf));

      if (!strncmp(s, "CRYPTO_THREAD_", 14) || !strncmp(s, "pthread_", 8))
        continue;
      fprintf(out, "%s%s", shown ? " < " : " ", s);
      shown++;
    }
    fputc('\n', out);
  }
  if (out != stderr)
    fclose(out);
}
