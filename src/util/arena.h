/*
 * arena.h: the strings of one set of results (an explicit handle).  The
 * strings of the samples (URLs, host names, header names and values,
 * addresses, TLS facts, error messages) repeat from sample to sample, so
 * each distinct string is stored once, packed into large blocks without a
 * malloc per string, and every sample points at the arena's copy.
 *
 * Two promises hold for the measured path:
 * - A stored string never moves.  Blocks are chunks that are never
 *   reallocated; a string longer than a quarter block gets a block of its
 *   own.
 * - Nothing grows in one go inside a sample.  arena_sample_begin, called
 *   before a sample's clock starts and never from a libcurl callback,
 *   grows the intern tables when they are near their load limit and
 *   makes room in the current block; between arena_sample_begin and
 *   arena_sample_end the tables never rehash: a distinct string met when
 *   a table is at its limit goes to a non-moving side store (still
 *   stored once in a block, its pointer as good as any) and joins the
 *   table the next time it grows, between samples (arena_stats counts
 *   them, and any block allocated inside a sample).
 *
 * Stored strings are immutable and live until arena_clear or arena_free:
 * nothing that points into the arena may be used after them.  Never
 * free() a stored string.  An arena is used by one thread at a time; its
 * strings may be read from any thread while it lives.
 */
#ifndef HOPSPLIT_ARENA_H
#define HOPSPLIT_ARENA_H

#include <stddef.h>

struct arena;

/* Counters of an arena's growth, for tests, benchmarks and -v. */
struct arena_stats {
  size_t rehashes;           /* times a table grew */
  size_t rehashes_in_sample; /* of which inside a sample: always 0 */
  size_t blocks;             /* blocks allocated */
  size_t blocks_in_sample;   /* of which inside a sample */
  size_t side_stored;        /* strings stored aside, table at its limit */
};

/* A new empty arena; arena_free frees it (NULL is a no-op). */
struct arena *arena_alloc(void);
void arena_free(struct arena *a);
/* Free every stored string; the arena is empty and usable again (its
 * arena_expect sizes stay). */
void arena_clear(struct arena *a);
/* An arena that will hold little, about strings distinct strings and
 * bytes bytes (a run of a sample or two: one probe of hopsplit serve,
 * thousands of them in flight at once): its tables start with room for
 * that, its first block is that size (the next ones double up to the
 * usual size), and a sample's room (arena_sample_begin) is that much.  A
 * sample past it stores aside, as any sample past its room.  Call it on
 * an empty arena; sizes at or over the usual ones change nothing. */
void arena_expect(struct arena *a, size_t strings, size_t bytes);

/* The stored copy of s (the same pointer for equal strings), or NULL for
 * NULL. */
const char *arena_intern(struct arena *a, const char *s);
/* The stored copy of the first n bytes of s, cut at a NUL byte as a C
 * string would be; NULL for NULL. */
const char *arena_intern_n(struct arena *a, const char *s, size_t n);
/* The stored copy of n bytes at p, aligned for pointers (the same pointer
 * for equal bytes), or NULL when n is 0: for arrays that repeat from
 * sample to sample, such as a hop's headers and addresses. */
const void *arena_intern_blob(struct arena *a, const void *p, size_t n);
/* n bytes of uninitialised, writable memory from the arena's blocks,
 * aligned for any struct the probe keeps; freed with the arena only. */
void *arena_mem(struct arena *a, size_t n);

/* A sample that stores into a is about to start (before its clock, not
 * from a libcurl callback): grow now what would grow during it.  Each
 * call is matched by one arena_sample_end when the sample has ended;
 * samples may overlap (a loop's concurrent transfers). */
void arena_sample_begin(struct arena *a);
void arena_sample_end(struct arena *a);

/* Number of distinct strings and bytes of string data held. */
size_t arena_count(const struct arena *a);
size_t arena_bytes(const struct arena *a);
void arena_get_stats(const struct arena *a, struct arena_stats *st);

#endif
