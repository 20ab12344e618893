/*
 * test_report_fields: the field table every renderer reads
 * (report_fields.h): a sample and its hop written as JSON by the table
 * nest by dotted names, give null where a value is unknown and "error":
 * null for a sample that succeeded; plain and human forms carry the units
 * (microseconds for machines, ms/s/KiB for people); every name the views
 * look up exists; every member a run writes is read back by its row.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "json.h"
#include "options.h"
#include "report_fields.h"
#include "strpool.h"

#include "check.h"
#include "banned.h"

struct fixture {
  struct options o;
  struct plan p;
  struct target t;
  struct results r;
  struct analysis a;
  struct report_ctx c;
  struct sample s;
  struct hop h;
  struct hop_fact fact;
};

static void setup(struct fixture *f)
{
  memset(f, 0, sizeof(*f));
  options_init(&f->o);
  f->t.name = xstrdup("api");
  f->t.url = xstrdup("https://a.test/x?token=secret");
  f->t.opts = &f->o;
  f->p.opts = &f->o;
  f->p.targets = &f->t;
  f->p.n_targets = 1;
  f->c.plan = &f->p;
  f->c.results = &f->r;
  f->c.analysis = &f->a;
  sample_init(&f->s);
  hop_init(&f->h);
  f->s.mode = MODE_WARM;
  f->s.round = 2;
  f->s.position = 1;
  f->s.ok = 1;
  f->s.total_us = 1500;
  f->s.started_at_ms = 1764470000123;
  hop_info_edit(&f->h)->url = "https://a.test/x?token=secret";
  hop_info_edit(&f->h)->method = "GET";
  hop_info_edit(&f->h)->status = 200;
  hop_tls_edit(&f->h)->resumed = -1;
  hop_dns_edit(&f->h)->ttl = -1;
  f->h.phases[PHASE_WAIT] = 1200;
  f->h.phases[PHASE_TOTAL] = 1500;
  f->h.curl.namelookup = -1;
  f->h.curl.total = 1500;
  hop_info_edit(&f->h)->size_download = 3072;
  f->s.hops = &f->h;
  f->s.n_hops = 1;
  f->fact.verdict = CACHE_UNKNOWN;
}

static void teardown(struct fixture *f)
{
  hop_release(&f->h);
  free(f->t.name);
  free(f->t.url);
  options_release(&f->o);
}

static void test_sample_json(void **state)
{
  struct fixture f;
  struct field_row r;
  struct json j;
  struct buf b;

  (void)state;
  setup(&f);
  buf_init(&b, 0);
  json_init(&j, &b, 0);
  json_object_begin(&j, NULL);
  /* Every part measured but the lock waits: those are null, never 0. */
  f.s.interference_us = 250;
  f.s.late_us = 200;
  f.s.own_us = 12;
  f.s.runq_us = 30;
  f.s.lock_us = -1;
  f.s.output_us = 8;
  f.s.output_bytes = 0;
  field_row_sample(&r, &f.c, &f.s, 7, &f.fact);
  field_json(&j, report_sample_fields, NULL, &r);
  json_object_end(&j);
  CHECK_STR("sample", b.s,
            "{\"index\":7,\"target\":\"api\",\"mode\":\"warm\",\"round\":2,"
            "\"position\":1,\"started_at\":\"2025-11-30T02:33:20.123Z\","
            "\"ok\":true,\"error\":null,\"total_us\":1500,\"redirect_us\":0,"
            "\"other_us\":0,\"status\":null,\"primed\":[],\"prime_error\":"
            "null,\"idle_us\":null,\"interference_us\":250,"
            "\"interfered\":false,\"interference_late_us\":200,"
            "\"interference_own_us\":12,\"interference_runq_us\":30,"
            "\"interference_lock_us\":null,\"interference_output_us\":8,"
            "\"interference_output_bytes\":0,\"control\":false}");
  buf_reset(&b);
  f.s.ok = 0;
  f.s.err = ERR_TIMEOUT;
  sample_set_err_message(&f.s, strpool_intern("too slow"));
  json_init(&j, &b, 0);
  json_object_begin(&j, NULL);
  field_json(&j, report_sample_fields, "error.", &r);
  json_object_end(&j);
  CHECK_STR("error members", b.s,
            "{\"class\":\"timeout\",\"message\":\"too slow\"}");
  buf_release(&b);
  teardown(&f);
}

static void test_hop_groups(void **state)
{
  struct fixture f;
  struct field_row r;
  struct json j;
  struct buf b;

  (void)state;
  setup(&f);
  buf_init(&b, 0);
  field_row_sample(&r, &f.c, &f.s, 0, &f.fact);
  field_row_hop(&r, 0);
  json_init(&j, &b, 0);
  json_object_begin(&j, NULL);
  field_json(&j, report_hop_fields, "curl.", &r);
  json_object_end(&j);
  CHECK_STR("curl seconds, null when unknown", b.s,
            "{\"time_namelookup\":null,\"time_connect\":null,"
            "\"time_appconnect\":null,\"time_pretransfer\":null,"
            "\"time_posttransfer\":null,\"time_starttransfer\":null,"
            "\"time_total\":0.001500}");
  buf_reset(&b);
  json_init(&j, &b, 0);
  json_object_begin(&j, NULL);
  field_json(&j, report_hop_fields, "tls.", &r);
  json_object_end(&j);
  CHECK_STR("tls", b.s,
            "{\"version\":null,\"cipher\":null,\"alpn\":null,"
            "\"resumed\":null,\"offered\":null,\"not_offered\":null}");
  buf_release(&b);
  teardown(&f);
}

static void test_forms(void **state)
{
  static const struct {
    const char *table, *name, *plain, *human;
  } cases[] = {
      {"hop", "phases_us.wait", "1200", "1.20 ms"},
      {"hop", "size_download", "3072", "3.0 KiB"},
      {"hop", "status", "200", "200"},
      {"hop", "tls.resumed", "", "-"},
      {"hop", "url", "https://a.test/x?token=REDACTED",
       "https://a.test/x?token=REDACTED"},
      {"hop", "reused", "false", "no"},
      {"sample", "total_us", "1500", "1.50 ms"},
      {"sample", "ok", "true", "yes"},
  };
  struct fixture f;
  struct field_row r;
  size_t i;

  (void)state;
  setup(&f);
  field_row_sample(&r, &f.c, &f.s, 0, &f.fact);
  field_row_hop(&r, 0);
  for (i = 0; i < ARRAY_SIZE(cases); i++) {
    const struct field *fl =
        field_find(!strcmp(cases[i].table, "hop") ? report_hop_fields
                                                  : report_sample_fields,
                   cases[i].name);
    struct field_value v;
    struct buf b;

    buf_init(&b, 0);
    field_get(fl, &r, &v);
    field_plain(fl, &v, &b);
    CHECK_STR(cases[i].name, b.s, cases[i].plain);
    buf_reset(&b);
    field_human(fl, &v, &b);
    CHECK_STR(cases[i].name, b.s, cases[i].human);
    field_value_release(&v);
    buf_release(&b);
  }
  teardown(&f);
}

/* Every row has a label in words (no '_'), a type and an accessor. */
static void test_tables(void **state)
{
  const struct field *const tables[] = {
      report_sample_fields, report_hop_fields, report_stat_fields,
      report_compare_fields, report_writeout_fields};
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(tables); i++) {
    const struct field *f;

    for (f = tables[i]; f->name; f++) {
      if (f->type == FIELD_SECONDS)
        continue; /* curl's own names, as curl -w spells them */
      if (!f->label || strchr(f->label, '_') || !f->get ||
          f->type >= FIELD_TYPE_COUNT) {
        print_error("field %s: label '%s'\n", f->name,
                    f->label ? f->label : "(null)");
        fail();
      }
    }
  }
}

/* Rows are indexed by their identifier (FH_URL ...): no identifier
 * without its row, the NULL row at _COUNT, and the identifier spells the
 * name. */
static void test_ids(void **state)
{
  static const struct {
    const struct field *t;
    size_t n;
  } tables[] = {{report_sample_fields, FS_COUNT},
                {report_hop_fields, FH_COUNT},
                {report_stat_fields, FT_COUNT},
                {report_compare_fields, FC_COUNT}};
  size_t i, k;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(tables); i++) {
    for (k = 0; k < tables[i].n; k++)
      if (!tables[i].t[k].name) {
        print_error("table %zu: row %zu has no name\n", i, k);
        fail();
      }
    assert_null(tables[i].t[tables[i].n].name);
  }
  assert_string_equal(report_hop_fields[FH_DNS_SERVER].name, "dns.server");
  assert_string_equal(report_hop_fields[FH_PHASES_US_DNS + PHASE_WAIT].name,
                      "phases_us.wait");
  assert_string_equal(report_sample_fields[FS_OTHER_US].name, "other_us");
  assert_string_equal(report_stat_fields[FT_P95_US].name, "p95_us");
  assert_string_equal(report_compare_fields[FC_VERDICT].name, "verdict");
}

/* The rows a saved document is read back by (report_read.c): every
 * member of a sample and a hop has a reader, except the ones the analysis
 * computes again (cache, edge), the positions (index, hop) and what a
 * hop's own members give (server_us, network_us from the wait and the
 * minimum RTT, server_timing_us from its header); a number's bounds are a
 * range. */
static void test_readers(void **state)
{
  static const char *const computed[] = {
      "index",     "hop",        "cache.",          "edge.",
      "server_us", "network_us", "server_timing_us"};
  const struct field *const tables[] = {report_sample_fields,
                                        report_hop_fields};
  size_t i, k;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(tables); i++) {
    const struct field *f;

    for (f = tables[i]; f->name; f++) {
      int skip = 0;

      for (k = 0; k < ARRAY_SIZE(computed); k++)
        skip |= !strncmp(f->name, computed[k], strlen(computed[k])) &&
                (computed[k][strlen(computed[k]) - 1] == '.' ||
                 !f->name[strlen(computed[k])]);
      if (skip != !f->set) {
        print_error("field %s: %s\n", f->name,
                    skip ? "computed, but read" : "written, never read");
        fail();
      }
      if (f->set &&
          (f->type == FIELD_INT || f->type == FIELD_US ||
           f->type == FIELD_BYTES || f->type == FIELD_SECONDS) &&
          f->min >= f->max) {
        print_error("field %s: bounds %lld..%lld\n", f->name,
                    (long long)f->min, (long long)f->max);
        fail();
      }
    }
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sample_json), cmocka_unit_test(test_hop_groups),
      cmocka_unit_test(test_forms),       cmocka_unit_test(test_tables),
      cmocka_unit_test(test_readers),     cmocka_unit_test(test_ids),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
