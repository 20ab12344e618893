/*
 * strpool.h: the string arena (arena.h) a thread stores into.  The probe,
 * the analysis and the document reader intern with strpool_intern and so
 * on; those calls store into this thread's current arena, which the owner
 * of the results being filled sets with strpool_use: the CLI's run makes
 * its results' arena current (pipeline.c), each engine loop of hopsplit
 * serve its own loop's arena, each answer of serve the arena of the
 * analysis it renders.  A thread that set none stores into a default
 * arena of its own, which strpool_release_all frees.
 *
 * Pooled strings are immutable and live as long as their arena (until
 * arena_clear, arena_free or, for the current arena, strpool_release_all):
 * nothing that points into it may be used after.  Never free() a pooled
 * string.
 */
#ifndef HOPSPLIT_STRPOOL_H
#define HOPSPLIT_STRPOOL_H

#include <stddef.h>

#include "arena.h"

/* Make a this thread's current arena (NULL: the thread's default one) and
 * return the one current before, to be put back with strpool_use.  The
 * caller keeps owning a. */
struct arena *strpool_use(struct arena *a);
/* This thread's current arena (its default one allocated on first use). */
struct arena *strpool_current(void);

/* arena_intern, arena_intern_n, arena_intern_blob and arena_mem on this
 * thread's current arena. */
const char *strpool_intern(const char *s);
const char *strpool_intern_n(const char *s, size_t n);
const void *strpool_intern_blob(const void *p, size_t n);
void *strpool_alloc(size_t n);
/* Number of distinct strings and bytes of string data held by the current
 * arena (tests, -v). */
size_t strpool_count(void);
size_t strpool_bytes(void);
/* Empty the current arena (arena_clear); with no arena set, free the
 * thread's default one. */
void strpool_release_all(void);

#endif
