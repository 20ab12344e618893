/*
 * strpool.c: the run-wide string pool (see strpool.h).  An open-addressing
 * hash set (linear probing, at most half full) of pointers into large
 * blocks; a string longer than a quarter block gets a block of its own.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

#define BLOCK_SIZE    (64 * 1024)
#define INITIAL_SLOTS 256

struct block {
  struct block *next;
  size_t used;
  size_t size;
  char data[]; /* size bytes */
};

struct slot {
  const char *s; /* NULL: empty */
  uint32_t hash;
  uint32_t len;
};

/* One pool per thread: the CLI measures and reports on one thread, and
 * each connection thread of hopsplit serve measures its probes in its own
 * pool and empties it after each answer. */
static _Thread_local struct {
  struct slot *slots;
  size_t cap; /* power of two, or 0 */
  size_t n;
  size_t bytes;
  struct block *blocks; /* newest first; the first has room left */
  struct slot *bslots;  /* blobs: a table of their own */
  size_t bcap;
  size_t bn;
} pool;

static uint32_t hash_of(const char *s, size_t n)
{
  uint32_t h = 2166136261u; /* FNV-1a */
  size_t i;

  for (i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 16777619u;
  }
  return h;
}

static char *store_aligned(const char *s, size_t n, size_t align)
{
  struct block *b = pool.blocks;
  char *p;

  if (b && align > 1)
    b->used = (b->used + align - 1) & ~(align - 1);
  if (!b || b->used > b->size || b->size - b->used < n + 1) {
    size_t size = n + 1 > BLOCK_SIZE / 4 ? n + 1 : BLOCK_SIZE;

    b = xmalloc(sizeof(*b) + size);
    b->used = 0;
    b->size = size;
    if (size == BLOCK_SIZE || !pool.blocks) {
      b->next = pool.blocks;
      pool.blocks = b;
    }
    else {
      /* A big string's own block goes second: the first keeps its room. */
      b->next = pool.blocks->next;
      pool.blocks->next = b;
    }
  }
  p = b->data + b->used;
  if (s)
    memcpy(p, s, n);
  p[n] = '\0';
  b->used += n + 1;
  pool.bytes += n + 1;
  return p;
}

static char *store(const char *s, size_t n)
{
  return store_aligned(s, n, 1);
}

static void grow(void)
{
  struct slot *old = pool.slots;
  size_t old_cap = pool.cap, i;

  pool.cap = old_cap ? old_cap * 2 : INITIAL_SLOTS;
  pool.slots = xcalloc(pool.cap, sizeof(*pool.slots));
  for (i = 0; i < old_cap; i++) {
    size_t j;

    if (!old[i].s)
      continue;
    for (j = old[i].hash & (pool.cap - 1); pool.slots[j].s;
         j = (j + 1) & (pool.cap - 1))
      ;
    pool.slots[j] = old[i];
  }
  free(old);
}

const char *strpool_intern_n(const char *s, size_t n)
{
  const char *nul;
  uint32_t h;
  size_t i;

  if (!s)
    return NULL;
  nul = memchr(s, '\0', n);
  if (nul)
    n = (size_t)(nul - s);
  if (n >= UINT32_MAX)
    abort(); /* a 4 GiB string: never from a probe or a report */
  if ((pool.n + 1) * 2 > pool.cap)
    grow();
  h = hash_of(s, n);
  for (i = h & (pool.cap - 1); pool.slots[i].s; i = (i + 1) & (pool.cap - 1))
    if (pool.slots[i].hash == h && pool.slots[i].len == n &&
        !memcmp(pool.slots[i].s, s, n))
      return pool.slots[i].s;
  pool.slots[i].s = store(s, n);
  pool.slots[i].hash = h;
  pool.slots[i].len = (uint32_t)n;
  pool.n++;
  return pool.slots[i].s;
}

const char *strpool_intern(const char *s)
{
  return s ? strpool_intern_n(s, strlen(s)) : NULL;
}

static void grow_blobs(void)
{
  struct slot *old = pool.bslots;
  size_t old_cap = pool.bcap, i;

  pool.bcap = old_cap ? old_cap * 2 : INITIAL_SLOTS;
  pool.bslots = xcalloc(pool.bcap, sizeof(*pool.bslots));
  for (i = 0; i < old_cap; i++) {
    size_t j;

    if (!old[i].s)
      continue;
    for (j = old[i].hash & (pool.bcap - 1); pool.bslots[j].s;
         j = (j + 1) & (pool.bcap - 1))
      ;
    pool.bslots[j] = old[i];
  }
  free(old);
}

const void *strpool_intern_blob(const void *p, size_t n)
{
  uint32_t h;
  size_t i;

  if (!p || !n)
    return NULL;
  if (n >= UINT32_MAX)
    abort();
  if ((pool.bn + 1) * 2 > pool.bcap)
    grow_blobs();
  h = hash_of(p, n);
  for (i = h & (pool.bcap - 1); pool.bslots[i].s;
       i = (i + 1) & (pool.bcap - 1))
    if (pool.bslots[i].hash == h && pool.bslots[i].len == n &&
        !memcmp(pool.bslots[i].s, p, n))
      return pool.bslots[i].s;
  /* Aligned for arrays of pointers. */
  pool.bslots[i].s = store_aligned(p, n, sizeof(void *));
  pool.bslots[i].hash = h;
  pool.bslots[i].len = (uint32_t)n;
  pool.bn++;
  return pool.bslots[i].s;
}

void *strpool_alloc(size_t n)
{
  if (!n)
    n = 1;
  /* store_aligned with no source only reserves the room (and a NUL). */
  return store_aligned(NULL, n, sizeof(void *) * 2);
}

size_t strpool_count(void)
{
  return pool.n;
}

size_t strpool_bytes(void)
{
  return pool.bytes;
}

void strpool_release_all(void)
{
  while (pool.blocks) {
    struct block *next = pool.blocks->next;

    free(pool.blocks);
    pool.blocks = next;
  }
  free(pool.slots);
  free(pool.bslots);
  memset(&pool, 0, sizeof(pool));
}
