/*
 * report_checks.c: the checks of a profile run in the text and JSON
 * reports.  Input: the evaluated check set the plan points to.  Output:
 * one line per check (text) or one object per check (JSON checks[]), each
 * with pass or fail and what was measured.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "check.h"
#include "report_checks_int.h"
#include "xalloc.h"
#include "banned.h"

void report_checks_text(const struct report_ctx *c, struct buf *b)
{
  const struct check_set *cs = c->plan->checks;
  size_t i;

  if (!cs || !cs->n)
    return;
  buf_printf(b, "\n%schecks%s  %s: ", c->color ? "\033[1m" : "",
             c->color ? "\033[0m" : "", report_vis(cs->profile));
  if (!cs->evaluated)
    buf_printf(b, "%zu not evaluated\n", cs->n);
  else
    buf_printf(b, "%zu passed, %zu failed\n", cs->n - cs->n_failed,
               cs->n_failed);
  for (i = 0; i < cs->n; i++) {
    const struct check *k = &cs->v[i];
    char *what = check_describe_against(
        k,
        k->kind == CHECK_COMPARE ? c->plan->targets[k->baseline].name : NULL);
    const char *shown = report_vis(what);
    const char *verdict = !cs->evaluated ? "----" : k->pass ? "PASS" : "FAIL";
    const char *color = !c->color || !cs->evaluated ? ""
                        : k->pass                   ? "\033[32m"
                                                    : "\033[1;31m";

    struct buf rest;
    size_t first;

    buf_printf(b, "  %s%s%s  %-12s %-5s %s", color, verdict,
               *color ? "\033[0m" : "",
               report_vis(c->plan->targets[k->target].name),
               check_mode_word(k), shown);
    first = 2 + 4 + 2 + 12 + 1 + 5 + 1 + strlen(shown);
    buf_init(&rest, 0);
    if (k->measured)
      buf_printf(&rest, "; measured %s", report_vis(k->measured));
    if (cs->evaluated && !k->pass)
      buf_printf(&rest, "  (%s)", report_vis(k->where));
    /* Within 80 columns: what was measured goes on lines of its own when
     * it does not fit after the check. */
    if (first + rest.len <= 80)
      buf_puts(b, rest.s);
    else if (rest.len) {
      const char *p = rest.s + 2; /* past "; " or "  " */
      size_t col = 8;

      buf_puts(b, "\n        ");
      while (*p) {
        size_t w = strcspn(p, " ");

        if (col > 8 && col + 1 + w > 80) {
          buf_puts(b, "\n          ");
          col = 10;
        }
        else if (col > 8) {
          buf_putc(b, ' ');
          col++;
        }
        buf_add(b, p, w);
        col += w;
        p += w;
        while (*p == ' ')
          p++;
      }
    }
    buf_release(&rest);
    buf_putc(b, '\n');
    free(what);
  }
}

static void bits(struct json *j, const char *key, unsigned v,
                 const char *const *names, size_t n)
{
  size_t i;

  json_array_begin(j, key);
  for (i = 0; i < n; i++)
    if (v & (1u << i))
      json_string(j, NULL, names[i]);
  json_array_end(j);
}

static void check_obj(struct json *j, const struct report_ctx *c,
                      const struct check_set *cs, const struct check *k)
{
  char *what = check_describe_against(
      k, k->kind == CHECK_COMPARE ? c->plan->targets[k->baseline].name : NULL);

  json_object_begin(j, NULL);
  json_string(j, "kind", check_kind_names[k->kind]);
  json_string(j, "target", c->plan->targets[k->target].name);
  if (k->kind == CHECK_CACHE || k->mode == MODE_COUNT)
    json_null(j, "mode");
  else
    json_string(j, "mode", sample_mode_names[k->mode]);
  json_string(j, "check", what);
  switch (k->kind) {
  case CHECK_METRIC: {
    char *m = xasprintf("%s.%s", sum_phase_names[k->phase],
                        check_stat_names[k->stat]);

    json_string(j, "metric", m);
    free(m);
    if (k->has_max)
      json_int(j, "max_us", k->max_us);
    else
      json_null(j, "max_us");
    if (k->has_min)
      json_int(j, "min_us", k->min_us);
    else
      json_null(j, "min_us");
    break;
  }
  case CHECK_CACHE:
    bits(j, k->cache_is ? "is" : "not", k->verdicts, cache_verdict_names,
         CACHE_VERDICT_COUNT);
    if (k->hop > 0)
      json_int(j, "hop", k->hop);
    else
      json_string(j, "hop", k->hop == CHECK_HOP_LAST ? "last" : "every");
    break;
  case CHECK_COMPARE:
    json_string(j, "baseline", c->plan->targets[k->baseline].name);
    bits(j, "verdicts", k->verdicts, compare_verdict_names,
         COMPARE_VERDICT_COUNT);
    break;
  case CHECK_STATUS: {
    size_t i;

    json_array_begin(j, "statuses");
    for (i = 0; i < k->n_status; i++) {
      char code[32];

      if (k->status_lo[i] == k->status_hi[i])
        snprintf(code, sizeof(code), "%ld", k->status_lo[i]);
      else
        snprintf(code, sizeof(code), "%ldxx", k->status_lo[i] / 100);
      json_string(j, NULL, code);
    }
    json_array_end(j);
    break;
  }
  case CHECK_KIND_COUNT:
    break;
  }
  if (k->has_value)
    json_int(j, "value_us", k->value_us);
  else
    json_null(j, "value_us");
  json_string(j, "measured", k->measured);
  if (cs->evaluated)
    json_bool(j, "pass", k->pass);
  else
    json_null(j, "pass");
  json_string(j, "source", k->where);
  json_object_end(j);
  free(what);
}

void report_checks_json(const struct report_ctx *c, struct json *j)
{
  const struct check_set *cs = c->plan->checks;
  size_t i;

  if (!cs)
    return;
  json_object_begin(j, "profile");
  json_string(j, "name", cs->profile);
  json_string(j, "file", cs->file);
  json_object_end(j);
  json_array_begin(j, "checks");
  for (i = 0; i < cs->n; i++)
    check_obj(j, c, cs, &cs->v[i]);
  json_array_end(j);
  json_int(j, "checks_failed", (int64_t)cs->n_failed);
}
