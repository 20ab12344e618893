/*
 * test_strpool.c: the run-wide string pool (strpool.c): equal strings are
 * stored once, long strings and many strings survive growth, a length
 * cuts like a C string, and release empties the pool for reuse; and the
 * sample helpers that fill hops from it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample.h"
#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

static void test_identity(void **state)
{
  char a[] = "origin.test", b[] = "origin.test";
  const char *p, *q;

  (void)state;
  assert_null(strpool_intern(NULL));
  assert_null(strpool_intern_n(NULL, 3));
  p = strpool_intern(a);
  q = strpool_intern(b);
  assert_ptr_equal(p, q);
  assert_ptr_not_equal(p, a);
  assert_string_equal(p, "origin.test");
  assert_ptr_equal(strpool_intern_n("origin.test.evil", 11), p);
  assert_ptr_not_equal(strpool_intern("Origin.test"), p);
  /* The empty string is a string like any other. */
  assert_ptr_equal(strpool_intern(""), strpool_intern_n("xyz", 0));
  assert_string_equal(strpool_intern(""), "");
  /* A NUL byte inside the length ends the string, as xstrndup's result
   * would read. */
  assert_ptr_equal(strpool_intern_n("ab\0cd", 5), strpool_intern("ab"));
  assert_int_equal(strpool_count(), 4);
  strpool_release_all();
  assert_int_equal(strpool_count(), 0);
}

static void test_long(void **state)
{
  size_t sizes[] = {16383, 16384, 16385, 65535, 65536, 200000}, i;
  const char *kept[6];
  const char *small;

  (void)state;
  small = strpool_intern("before");
  for (i = 0; i < 6; i++) {
    char *s = xmalloc(sizes[i] + 1);

    memset(s, 'a' + (int)i, sizes[i]);
    s[sizes[i]] = '\0';
    kept[i] = strpool_intern(s);
    assert_ptr_not_equal(kept[i], s);
    assert_int_equal(strlen(kept[i]), sizes[i]);
    assert_ptr_equal(strpool_intern(s), kept[i]);
    free(s);
  }
  /* Big strings get blocks of their own; the small ones go on packing. */
  assert_string_equal(small, "before");
  assert_ptr_equal(strpool_intern("before"), small);
  for (i = 0; i < 6; i++)
    assert_true(kept[i][0] == 'a' + (int)i &&
                kept[i][sizes[i] - 1] == 'a' + (int)i);
  strpool_release_all();
}

static void test_many(void **state)
{
  enum { N = 50000 };
  const char **p = xmalloc(N * sizeof(*p));
  char s[32];
  size_t i, bytes;

  (void)state;
  for (i = 0; i < N; i++) {
    snprintf(s, sizeof(s), "198.51.100.%zu", i);
    p[i] = strpool_intern(s);
  }
  assert_int_equal(strpool_count(), N);
  bytes = strpool_bytes();
  for (i = 0; i < N; i++) {
    snprintf(s, sizeof(s), "198.51.100.%zu", i);
    assert_string_equal(p[i], s);
    assert_ptr_equal(strpool_intern(s), p[i]);
  }
  /* Interning again stores nothing. */
  assert_int_equal(strpool_count(), N);
  assert_int_equal(strpool_bytes(), bytes);
  free(p);
  strpool_release_all();
}

static void test_release(void **state)
{
  const char *p;

  (void)state;
  strpool_release_all(); /* empty: a no-op */
  p = strpool_intern("x-cache");
  assert_string_equal(p, "x-cache");
  strpool_release_all();
  assert_int_equal(strpool_count(), 0);
  assert_int_equal(strpool_bytes(), 0);
  p = strpool_intern("x-cache");
  assert_string_equal(p, "x-cache");
  assert_int_equal(strpool_count(), 1);
  strpool_release_all();
  strpool_release_all();
}

/* A sample keeps exact-size arrays of pooled strings; releasing it frees
 * only the arrays. */
static void test_sample(void **state)
{
  struct sample s;
  struct header hd[2];
  struct hop *h;

  (void)state;
  sample_init(&s);
  h = sample_add_hop(&s);
  hop_info_edit(h)->url = strpool_intern("https://origin.test/a");
  hop_add_header(h, "Server", "nginx");
  hop_add_header(h, "X-Cache", "HIT");
  assert_int_equal(h->info->n_headers, 2);
  assert_ptr_equal(h->info->headers[0].value, strpool_intern("nginx"));
  assert_string_equal(hop_header(h, "x-cache"), "HIT");
  hop_strv_push(&hop_dns_edit(h)->addresses, &hop_dns_edit(h)->n_addresses,
                "127.0.0.1");
  hop_strv_push(&hop_dns_edit(h)->addresses, &hop_dns_edit(h)->n_addresses,
                "::1");
  assert_int_equal(h->dns->n_addresses, 2);
  assert_string_equal(h->dns->addresses[1], "::1");
  hd[0].name = strpool_intern("age");
  hd[0].value = strpool_intern("3");
  hd[1] = hd[0];
  hop_set_headers(h, hd, 1);
  assert_int_equal(h->info->n_headers, 1);
  assert_string_equal(hop_header(h, "AGE"), "3");
  assert_null(hop_header(h, "server"));
  hop_set_headers(h, hd, 0);
  assert_int_equal(h->info->n_headers, 0);
  assert_null(h->info->headers);
  h = sample_add_hop(&s);
  assert_int_equal(s.n_hops, 2);
  assert_null(h->info->url);
  assert_int_equal(h->tls->resumed, -1);
  assert_string_equal(s.hops[0].info->url, "https://origin.test/a");
  sample_set_err_message(&s, strpool_intern("timeout"));
  sample_release(&s);
  assert_int_equal(s.n_hops, 0);
  assert_null(sample_rare(&s)->err_message);
  strpool_release_all();
}

/* Alt-Svc (RFC 7838) as CDNs send it: the h3 offer is kept with its port
 * and max-age, whatever its place; clear; what cannot be read changes
 * nothing. */
static void test_alt_svc(void **state)
{
  struct hop h;

  (void)state;
  hop_init(&h);
  assert_int_equal(h.info->alt_svc_ma, -1);
  hop_set_alt_svc(&h, "h3=\":443\"; ma=86400");
  assert_string_equal(h.info->alt_svc, "h3");
  assert_int_equal(h.info->alt_svc_port, 443);
  assert_int_equal(h.info->alt_svc_ma, 86400);
  hop_release(&h);
  hop_set_alt_svc(&h, "h3-29=\":8443\"; ma=60, h3=\"alt.test:9443\"; "
                      "persist=1; ma=2592000");
  assert_string_equal(h.info->alt_svc, "h3");
  assert_int_equal(h.info->alt_svc_port, 9443);
  assert_int_equal(h.info->alt_svc_ma, 2592000);
  hop_release(&h);
  hop_set_alt_svc(&h, "h2=\":8443\"");
  assert_string_equal(h.info->alt_svc, "h2");
  assert_int_equal(h.info->alt_svc_port, 8443);
  assert_int_equal(h.info->alt_svc_ma, -1);
  hop_release(&h);
  hop_set_alt_svc(&h, "clear");
  assert_string_equal(h.info->alt_svc, "clear");
  assert_int_equal(h.info->alt_svc_port, 0);
  hop_release(&h);
  hop_set_alt_svc(&h, ",,; =\"");
  assert_null(h.info->alt_svc);
  hop_set_alt_svc(&h, "h3=\"no-port\"");
  assert_null(h.info->alt_svc);
  hop_release(&h);
  strpool_release_all();
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_identity), cmocka_unit_test(test_long),
      cmocka_unit_test(test_many),     cmocka_unit_test(test_release),
      cmocka_unit_test(test_sample),   cmocka_unit_test(test_alt_svc),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
