/*
 * strpool.h: the run-wide string pool (an intern table).  The strings of
 * the samples (URLs, host names, header names and values, addresses, TLS
 * facts, error messages) repeat from sample to sample, so each distinct
 * string is stored once, packed into large blocks without a malloc per
 * string, and every sample points at the pooled copy.
 *
 * Pooled strings are immutable and live until strpool_release_all, which
 * main() calls once after the reports (and unit tests call when done):
 * nothing that points into the pool may be used after it.  Never free()
 * a pooled string.
 *
 * The pool is per thread (C11 _Thread_local): a string pooled on one
 * thread is valid on others until that thread calls strpool_release_all,
 * and each thread must release its own pool before it ends.  The CLI runs
 * every stage on one thread; hopsplit serve measures each probe on its
 * connection's thread and releases that thread's pool after the answer.
 */
#ifndef HOPSPLIT_STRPOOL_H
#define HOPSPLIT_STRPOOL_H

#include <stddef.h>

/* The pooled copy of s (the same pointer for equal strings), or NULL for
 * NULL. */
const char *strpool_intern(const char *s);
/* The pooled copy of the first n bytes of s, cut at a NUL byte as a C
 * string would be; NULL for NULL. */
const char *strpool_intern_n(const char *s, size_t n);
/* The pooled copy of n bytes at p, aligned for pointers (the same pointer
 * for equal bytes), or NULL when n is 0: for arrays that repeat from sample
 * to sample, such as a hop's headers and addresses. */
const void *strpool_intern_blob(const void *p, size_t n);
/* n bytes of uninitialised, writable memory from the pool's blocks,
 * aligned for any struct the probe keeps; freed by strpool_release_all
 * only. */
void *strpool_alloc(size_t n);
/* Number of distinct strings and bytes of string data held (tests, -v). */
size_t strpool_count(void);
size_t strpool_bytes(void);
/* Free every pooled string; the pool is empty and usable again. */
void strpool_release_all(void);

#endif
