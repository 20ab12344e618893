/*
 * arena.c: the strings of one set of results (see arena.h).  Two
 * open-addressing hash sets (linear probing, at most half full) of
 * pointers into large blocks, one for strings, one for blobs; a string
 * longer than a quarter block gets a block of its own.  A table grows
 * only outside samples; inside one, a string it has no room for is stored
 * behind a small header in a block and linked on a side list, which the
 * table takes in when it next grows.  arena_mem's memory (the hops of
 * finished samples) fills blocks of its own to their ends: the string
 * blocks are left with room for a sample, which would waste a quarter of
 * every block (SPEC 8's footprint).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "xalloc.h"
#include "banned.h"

#define BLOCK_SIZE    (64 * 1024)
#define INITIAL_SLOTS 256
/* Strings a sample may add without finding its table full, and bytes it
 * may store without a new block: a redirect chain's hops with their
 * headers, certificates and addresses fit in both. */
#define SAMPLE_SLOTS 1024
#define SAMPLE_BYTES (16 * 1024)
#define ALIGN_MEM    (sizeof(void *) * 2)

struct block {
  struct block *next;
  size_t used;
  size_t size;
  size_t pad;  /* data 32 bytes in: aligned for ALIGN_MEM */
  char data[]; /* size bytes */
};

struct slot {
  const char *s; /* NULL: empty */
  uint32_t hash;
  uint32_t len;
};

/* A string stored aside while its table was full inside a sample. */
struct side {
  struct side *next;
  uint32_t hash;
  uint32_t len;
  /* the bytes follow, aligned for pointers */
};

struct table {
  struct slot *slots;
  size_t cap; /* power of two, or 0 */
  size_t n;
  struct side *side; /* newest first */
  size_t n_side;
};

struct arena {
  struct table str, blob;
  struct block *blocks; /* newest first; the first has room left */
  /* arena_mem's blocks, newest first, each filled to its end: they need
   * no room kept for a sample's strings. */
  struct block *mem;
  size_t bytes;
  unsigned in_sample; /* samples between begin and end */
  struct arena_stats st;
  /* arena_expect's sizes (0: the defaults): a table's first capacity, a
   * sample's room in slots and bytes, the first block's size. */
  size_t first_slots, room_slots, room_bytes, first_block;
};

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

static struct block *new_block(struct arena *a, size_t size)
{
  struct block *b = xmalloc(sizeof(*b) + size);

  b->used = 0;
  b->size = size;
  a->st.blocks++;
  if (a->in_sample)
    a->st.blocks_in_sample++;
  return b;
}

/* The size of the next block: BLOCK_SIZE, or for an arena that expects
 * little (arena_expect) its first block's size, doubling with what it
 * holds up to BLOCK_SIZE. */
static size_t block_size(const struct arena *a)
{
  size_t bs = a->first_block;

  if (!bs)
    return BLOCK_SIZE;
  while (bs < a->bytes && bs < BLOCK_SIZE)
    bs *= 2;
  return bs < BLOCK_SIZE ? bs : BLOCK_SIZE;
}

/* n bytes (plus a NUL) at alignment align, from s or left for the caller
 * when s is NULL. */
static char *store_aligned(struct arena *a, const char *s, size_t n,
                           size_t align)
{
  struct block *b = a->blocks;
  char *p;

  if (b && align > 1)
    b->used = (b->used + align - 1) & ~(align - 1);
  if (!b || b->used > b->size || b->size - b->used < n + 1) {
    size_t bs = block_size(a);
    int own = n + 1 > BLOCK_SIZE / 4;
    size_t size = own || n + 1 > bs ? n + 1 : bs;

    b = new_block(a, size);
    if (!own || !a->blocks) {
      b->next = a->blocks;
      a->blocks = b;
    }
    else {
      /* A big string's own block goes second: the first keeps its room. */
      b->next = a->blocks->next;
      a->blocks->next = b;
    }
  }
  p = b->data + b->used;
  if (s)
    memcpy(p, s, n);
  p[n] = '\0';
  b->used += n + 1;
  a->bytes += n + 1;
  return p;
}

static void put(struct table *t, const char *s, uint32_t hash, uint32_t len)
{
  size_t j;

  for (j = hash & (t->cap - 1); t->slots[j].s; j = (j + 1) & (t->cap - 1))
    ;
  t->slots[j].s = s;
  t->slots[j].hash = hash;
  t->slots[j].len = len;
  t->n++;
}

static const char *find(const struct table *t, const char *s, size_t n,
                        uint32_t h, size_t *at)
{
  size_t i;

  for (i = h & (t->cap - 1); t->slots[i].s; i = (i + 1) & (t->cap - 1))
    if (t->slots[i].hash == h && t->slots[i].len == n &&
        !memcmp(t->slots[i].s, s, n))
      return t->slots[i].s;
  *at = i;
  return NULL;
}

/* Grow t to hold want entries at most half full, taking in the side list
 * (a string stored aside twice is kept once in the table: the copies
 * stay valid, later lookups find the first). */
static void grow(struct arena *a, struct table *t, size_t want)
{
  struct slot *old = t->slots;
  size_t old_cap = t->cap, i;
  size_t cap = old_cap          ? old_cap
               : a->first_slots ? a->first_slots
                                : INITIAL_SLOTS;
  struct side *sd;

  while (want * 2 > cap)
    cap *= 2;
  if (cap != old_cap) {
    t->slots = xcalloc(cap, sizeof(*t->slots));
    t->cap = cap;
    t->n = 0;
    for (i = 0; i < old_cap; i++)
      if (old[i].s)
        put(t, old[i].s, old[i].hash, old[i].len);
    free(old);
    a->st.rehashes++;
    if (a->in_sample)
      a->st.rehashes_in_sample++;
  }
  for (sd = t->side; sd; sd = sd->next) {
    const char *s = (const char *)(sd + 1);

    if (!find(t, s, sd->len, sd->hash, &i))
      put(t, s, sd->hash, sd->len);
  }
  t->side = NULL;
  t->n_side = 0;
}

static const char *intern(struct arena *a, struct table *t, const char *s,
                          size_t n, size_t align)
{
  const char *found;
  struct side *sd;
  uint32_t h;
  size_t i;

  if (n >= UINT32_MAX)
    abort(); /* a 4 GiB string: never from a probe or a report */
  if ((t->n + 1) * 2 > t->cap && (!a->in_sample || !t->cap))
    grow(a, t, t->n + t->n_side + 1);
  h = hash_of(s, n);
  found = find(t, s, n, h, &i);
  if (found)
    return found;
  if ((t->n + 1) * 2 <= t->cap) {
    char *p = store_aligned(a, s, n, align);

    t->slots[i].s = p;
    t->slots[i].hash = h;
    t->slots[i].len = (uint32_t)n;
    t->n++;
    return p;
  }
  /* Inside a sample with the table full: aside, never a rehash here. */
  sd = (struct side *)(void *)store_aligned(a, NULL, sizeof(*sd) + n,
                                            sizeof(void *));
  sd->hash = h;
  sd->len = (uint32_t)n;
  sd->next = t->side;
  t->side = sd;
  t->n_side++;
  a->st.side_stored++;
  memcpy(sd + 1, s, n);
  ((char *)(sd + 1))[n] = '\0';
  return (const char *)(sd + 1);
}

struct arena *arena_alloc(void)
{
  return xcalloc(1, sizeof(struct arena));
}

static void free_blocks(struct block *b)
{
  while (b) {
    struct block *next = b->next;

    free(b);
    b = next;
  }
}

void arena_clear(struct arena *a)
{
  size_t first_slots, room_slots, room_bytes, first_block;

  if (!a)
    return;
  first_slots = a->first_slots;
  room_slots = a->room_slots;
  room_bytes = a->room_bytes;
  first_block = a->first_block;
  free_blocks(a->blocks);
  free_blocks(a->mem);
  free(a->str.slots);
  free(a->blob.slots);
  /* No sample is in flight: its strings would be gone. */
  memset(a, 0, sizeof(*a));
  a->first_slots = first_slots;
  a->room_slots = room_slots;
  a->room_bytes = room_bytes;
  a->first_block = first_block;
}

void arena_expect(struct arena *a, size_t strings, size_t bytes)
{
  size_t slots = 16, block = 1024;

  if (strings < SAMPLE_SLOTS) {
    a->room_slots = strings ? strings : 1;
    while (slots < 2 * a->room_slots)
      slots *= 2;
    a->first_slots = slots < INITIAL_SLOTS ? slots : INITIAL_SLOTS;
  }
  if (bytes < SAMPLE_BYTES) {
    a->room_bytes = bytes ? bytes : 1;
    while (block < a->room_bytes)
      block *= 2;
    a->first_block = block;
  }
}

void arena_free(struct arena *a)
{
  arena_clear(a);
  free(a);
}

const char *arena_intern_n(struct arena *a, const char *s, size_t n)
{
  const char *nul;

  if (!s)
    return NULL;
  nul = memchr(s, '\0', n);
  if (nul)
    n = (size_t)(nul - s);
  return intern(a, &a->str, s, n, 1);
}

const char *arena_intern(struct arena *a, const char *s)
{
  return s ? arena_intern_n(a, s, strlen(s)) : NULL;
}

const void *arena_intern_blob(struct arena *a, const void *p, size_t n)
{
  if (!p || !n)
    return NULL;
  /* Aligned for arrays of pointers. */
  return intern(a, &a->blob, p, n, sizeof(void *));
}

void *arena_mem(struct arena *a, size_t n)
{
  struct block *b = a->mem;
  char *p;

  if (!n)
    n = 1;
  n = (n + ALIGN_MEM - 1) & ~(ALIGN_MEM - 1);
  if (!b || b->size - b->used < n) {
    size_t bs = block_size(a);
    int own = n > BLOCK_SIZE / 4;

    b = new_block(a, own || n > bs ? n : bs);
    if (a->mem && own) {
      /* A big one goes second: the first keeps its room. */
      b->next = a->mem->next;
      a->mem->next = b;
    }
    else {
      b->next = a->mem;
      a->mem = b;
    }
  }
  p = b->data + b->used;
  b->used += n;
  a->bytes += n;
  return p;
}

void arena_sample_begin(struct arena *a)
{
  struct block *b = a->blocks;
  size_t room = a->room_slots ? a->room_slots : SAMPLE_SLOTS;
  size_t room_bytes = a->room_bytes ? a->room_bytes : SAMPLE_BYTES;

  /* Only when no other sample of a is in flight: a rehash here would
   * pause theirs.  Overlapping samples store aside when a table is full,
   * and the first sample begun on a quiet arena takes them in. */
  if (!a->in_sample) {
    if ((a->str.n + a->str.n_side + room) * 2 > a->str.cap)
      grow(a, &a->str, a->str.n + a->str.n_side + room);
    if ((a->blob.n + a->blob.n_side + room) * 2 > a->blob.cap)
      grow(a, &a->blob, a->blob.n + a->blob.n_side + room);
  }
  if (!b || b->used > b->size || b->size - b->used < room_bytes) {
    unsigned in_sample = a->in_sample;
    size_t bs = block_size(a);

    /* Not inside a sample: the others in flight are in callbacks of
     * their own, never in this call. */
    a->in_sample = 0;
    b = new_block(a, bs < room_bytes ? room_bytes : bs);
    a->in_sample = in_sample;
    b->next = a->blocks;
    a->blocks = b;
  }
  a->in_sample++;
}

void arena_sample_end(struct arena *a)
{
  if (a->in_sample)
    a->in_sample--;
}

size_t arena_count(const struct arena *a)
{
  return a->str.n + a->str.n_side;
}

size_t arena_bytes(const struct arena *a)
{
  return a->bytes;
}

void arena_get_stats(const struct arena *a, struct arena_stats *st)
{
  *st = a->st;
}
