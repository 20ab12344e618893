/*
 * report_junit.c: JUnit XML of a run's checks, for CI readers (GitLab's
 * artifacts:reports:junit, GitHub Actions' test reporters, Jenkins' junit
 * step; hopsplit(1) OUTPUT junit).  Input: the plan (its check set,
 * evaluated), the results and the analysis.  Output: one <testsuites> document
 * with a <testsuite> per profile and target, a <testcase> per check of that
 * target (a <failure> with the measured value and the budget when it
 * failed, <skipped> when it was not evaluated), and one "samples"
 * testcase per target that fails when samples failed (exit status 3).  A
 * metric check's time is its measured value; a suite's is the sum of its
 * samples' totals.  The URL form (no profile) has the samples testcases
 * alone.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

struct suite_counts {
  size_t tests, failures, skipped;
  int64_t total_us;
};

static void attr(struct buf *b, const char *name, const char *value)
{
  buf_printf(b, " %s=\"", name);
  buf_put_html(b, value);
  buf_putc(b, '"');
}

static void seconds(struct buf *b, const char *name, int64_t us)
{
  if (us < 0)
    us = 0;
  buf_printf(b, " %s=\"%lld.%06lld\"", name, (long long)(us / 1000000),
             (long long)(us % 1000000));
}

static size_t failed_lines(const struct report_ctx *c, size_t t,
                           struct buf *b);

static const char *suite_prefix(const struct report_ctx *c)
{
  const struct check_set *cs = c->plan->checks;

  return cs && cs->profile ? cs->profile : "hopsplit";
}

static void count_suite(const struct report_ctx *c, size_t t,
                        struct suite_counts *n)
{
  const struct check_set *cs = c->plan->checks;
  size_t i;

  memset(n, 0, sizeof(*n));
  n->tests = 1; /* samples */
  n->failures = failed_lines(c, t, NULL) > 0;
  for (i = 0; i < c->results->n; i++)
    if (c->results->samples[i].target == t)
      n->total_us += c->results->samples[i].total_us;
  for (i = 0; cs && i < cs->n; i++) {
    if (cs->v[i].target != t)
      continue;
    n->tests++;
    if (!cs->evaluated)
      n->skipped++;
    else if (!cs->v[i].pass)
      n->failures++;
  }
}

/* What a failed metric check's budget was, in words ("<= 800 ms"). */
static char *budget(const struct check *k)
{
  char a[32], b[32];

  check_format_us(k->max_us, a, sizeof(a));
  check_format_us(k->min_us, b, sizeof(b));
  if (k->has_max && k->has_min)
    return xasprintf(">= %s and <= %s", b, a);
  if (k->has_max)
    return xasprintf("<= %s", a);
  return xasprintf(">= %s", b);
}

static void check_case(const struct report_ctx *c, const struct check_set *cs,
                       const struct check *k, const char *classname,
                       struct buf *b)
{
  char *what = check_describe_against(
      k, k->kind == CHECK_COMPARE ? c->plan->targets[k->baseline].name : NULL);
  char *name = xasprintf("%s (%s)", what,
                         k->kind == CHECK_CACHE || k->mode == MODE_COUNT
                             ? "all modes"
                             : sample_mode_names[k->mode]);

  buf_puts(b, "    <testcase");
  attr(b, "name", name);
  attr(b, "classname", classname);
  attr(b, "file", cs->file);
  seconds(b, "time",
          k->has_value && k->kind == CHECK_METRIC ? k->value_us : 0);
  if (!cs->evaluated) {
    buf_puts(b, ">\n      <skipped message=\"not evaluated: the run was "
                "interrupted\"/>\n    </testcase>\n");
  }
  else if (k->pass) {
    buf_puts(b, "/>\n");
  }
  else {
    char *msg;

    if (k->kind == CHECK_METRIC && k->has_value) {
      char v[32], *bud = budget(k);

      check_format_us(k->value_us, v, sizeof(v));
      msg = xasprintf("%s.%s of %s (%s) is %s, budget %s",
                      sum_phase_names[k->phase], check_stat_names[k->stat],
                      c->plan->targets[k->target].name,
                      sample_mode_names[k->mode], v, bud);
      free(bud);
    }
    else {
      msg = xasprintf("%s: measured %s", what,
                      k->measured ? k->measured : "nothing");
    }
    buf_puts(b, ">\n      <failure");
    attr(b, "message", msg);
    attr(b, "type", check_kind_names[k->kind]);
    buf_puts(b, ">");
    buf_put_html(b, msg);
    buf_puts(b, "\nmeasured: ");
    buf_put_html(b, k->measured ? k->measured : "nothing");
    buf_puts(b, "\ncheck: ");
    buf_put_html(b, what);
    buf_puts(b, "\nat: ");
    buf_put_html(b, k->where);
    buf_puts(b, "</failure>\n    </testcase>\n");
    free(msg);
  }
  free(name);
  free(what);
}

/* The samples of target t that failed, one line per mode and class
 * ("2 of 2 cold samples: http-status: ..."), into b escaped. */
static size_t failed_lines(const struct report_ctx *c, size_t t, struct buf *b)
{
  const struct target_analysis *ta =
      t < c->analysis->n_targets ? &c->analysis->targets[t] : NULL;
  size_t failed = 0;
  int m, e;

  for (m = 0; ta && m < MODE_COUNT; m++) {
    const struct mode_summary *ms = &ta->modes[m];

    failed += ms->n_failed;
    for (e = ERR_NONE + 1; b && e < ERR_COUNT; e++) {
      char *line;

      if (!ms->failed_by_class[e])
        continue;
      line = xasprintf("%zu of %zu %s samples: %s: %s", ms->failed_by_class[e],
                       ms->n_samples, sample_mode_names[m], err_class_names[e],
                       ms->first_error[e] ? ms->first_error[e] : "");
      buf_put_html(b, line);
      buf_putc(b, '\n');
      free(line);
    }
  }
  return failed;
}

static void samples_case(const struct report_ctx *c, size_t t,
                         const char *classname, int64_t us, struct buf *b)
{
  size_t failed = failed_lines(c, t, NULL), n = 0;
  int m;

  for (m = 0; t < c->analysis->n_targets && m < MODE_COUNT; m++)
    n += c->analysis->targets[t].modes[m].n_samples;
  buf_puts(b, "    <testcase name=\"every sample measured\"");
  attr(b, "classname", classname);
  seconds(b, "time", us);
  if (!failed) {
    buf_puts(b, "/>\n");
    return;
  }
  buf_printf(b,
             ">\n      <failure message=\"%zu of %zu samples failed\" "
             "type=\"samples\">",
             failed, n);
  failed_lines(c, t, b);
  buf_puts(b, "</failure>\n    </testcase>\n");
}

void report_junit(const struct report_ctx *c, struct buf *out)
{
  const struct check_set *cs = c->plan->checks;
  const char *prefix = suite_prefix(c);
  size_t t, i, tests = 0, failures = 0, skipped = 0;
  int64_t total = 0;
  char stamp[64] = "";

  for (t = 0; t < c->plan->n_targets; t++) {
    struct suite_counts n;

    count_suite(c, t, &n);
    tests += n.tests;
    failures += n.failures;
    skipped += n.skipped;
    total += n.total_us;
  }
  if (c->results->started_at_ms > 0) {
    units_rfc3339_ms(c->results->started_at_ms, stamp, sizeof(stamp));
    stamp[19] = '\0'; /* JUnit's timestamp has no fraction, no zone */
  }
  buf_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites");
  attr(out, "name", prefix);
  buf_printf(out,
             " tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
             "skipped=\"%zu\"",
             tests, failures, skipped);
  seconds(out, "time", total);
  buf_puts(out, ">\n");
  for (t = 0; t < c->plan->n_targets; t++) {
    struct suite_counts n;
    char *name = xasprintf("%s / %s", prefix, c->plan->targets[t].name);
    char *classname = xasprintf("%s.%s", prefix, c->plan->targets[t].name);
    char *url = report_url(c, c->plan->targets[t].url);

    count_suite(c, t, &n);
    buf_puts(out, "  <testsuite");
    attr(out, "name", name);
    buf_printf(out,
               " tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
               "skipped=\"%zu\"",
               n.tests, n.failures, n.skipped);
    seconds(out, "time", n.total_us);
    if (*stamp)
      attr(out, "timestamp", stamp);
    if (c->plan->vantage)
      attr(out, "hostname", c->plan->vantage);
    buf_puts(out, ">\n    <properties>\n      <property name=\"url\"");
    attr(out, "value", url);
    buf_puts(out, "/>\n");
    if (cs && cs->file) {
      buf_puts(out, "      <property name=\"profile\"");
      attr(out, "value", cs->file);
      buf_puts(out, "/>\n");
    }
    if (c->results->partial)
      buf_puts(out, "      <property name=\"partial\" value=\"true\"/>\n");
    buf_puts(out, "    </properties>\n");
    samples_case(c, t, classname, n.total_us, out);
    for (i = 0; cs && i < cs->n; i++)
      if (cs->v[i].target == t)
        check_case(c, cs, &cs->v[i], classname, out);
    buf_puts(out, "  </testsuite>\n");
    free(name);
    free(classname);
    free(url);
  }
  buf_puts(out, "</testsuites>\n");
}
