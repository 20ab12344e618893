/*
 * lib_results.c: libhopsplit's results (hopsplit(3)): a run's or a saved
 * document's samples, their analysis, any report format rendered to a
 * write callback, and each field of a sample or hop read through the
 * field table (report_fields.h), by handle.  Every string handed out
 * lives in the results' arena.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "buf.h"
#include "lib_embed.h"
#include "lib_int.h"
#include "msg.h"
#include "report.h"
#include "report_fields.h"
#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

const struct plan *lib_plan(const struct hs_results *r)
{
  if (r->merge)
    return &r->merge->mp;
  return r->saved ? &r->saved->plan : &r->plan;
}

struct results *lib_samples(struct hs_results *r)
{
  if (r->merge)
    return &r->merge->mr;
  return r->saved ? &r->saved->results : &r->results;
}

const struct results *lib_samples_c(const struct hs_results *r)
{
  return lib_samples((struct hs_results *)(uintptr_t)r);
}

struct arena *lib_arena(struct hs_results *r)
{
  if (r->saved || r->merge) {
    if (!r->doc_arena)
      r->doc_arena = arena_alloc();
    return r->doc_arena;
  }
  return results_arena(&r->results);
}

void lib_analyse(struct hs_results *r)
{
  struct arena *was;

  /* A run in flight has no analysis yet (its fields of it are null). */
  if (r->analysed || r->live)
    return;
  was = strpool_use(lib_arena(r));
  analysis_build(&r->analysis, lib_plan(r), lib_samples(r));
  if (r->saved && r->saved->unpaired)
    analysis_compare_unpaired(lib_plan(r), lib_samples(r), &r->analysis);
  if (r->saved && r->saved->has_checks)
    r->checks_failed =
        check_evaluate(&r->saved->checks, lib_plan(r), &r->analysis);
  if (r->checks)
    r->checks_failed = check_evaluate(r->checks, lib_plan(r), &r->analysis);
  strpool_use(was);
  r->analysed = 1;
}

void lib_merge_free(struct lib_merge *m)
{
  size_t f;

  if (!m)
    return;
  results_release(&m->mr);
  for (f = 0; m->af && f < m->n; f++)
    analysis_release(&m->af[f]);
  free(m->af);
  if (m->have_plan)
    plan_release(&m->mp);
  for (f = 0; m->sv && f < m->n; f++)
    report_saved_release(&m->sv[f]);
  free(m->sv);
  free(m);
}

void lib_results_release(struct hs_results *r)
{
  if (r->analysed)
    analysis_release(&r->analysis);
  if (r->merge)
    lib_merge_free(r->merge);
  else if (r->saved) {
    report_saved_release(r->saved);
    free(r->saved);
  }
  else {
    results_release(&r->results);
    plan_release(&r->plan);
    options_release(&r->opts);
  }
  arena_free(r->doc_arena);
  free(r->libraries);
  memset(r, 0, sizeof(*r));
}

enum hs_code hs_results_read(const char *text, size_t len,
                             struct hs_results **out)
{
  struct hs_results *r = xcalloc(1, sizeof(*r));
  struct arena *was;
  int rc;

  *out = NULL;
  r->saved = xcalloc(1, sizeof(*r->saved));
  was = strpool_use(lib_arena(r));
  rc = report_read(r->saved, text, len, "document");
  strpool_use(was);
  if (rc < 0) {
    lib_results_release(r);
    free(r);
    return HS_E_READ;
  }
  r->libraries = r->saved->libraries ? xstrdup(r->saved->libraries) : NULL;
  *out = r;
  return HS_OK;
}

void hs_results_free(struct hs_results *r)
{
  if (!r || r->of_run)
    return;
  lib_results_release(r);
  free(r);
}

size_t hs_results_samples(const struct hs_results *r)
{
  return lib_samples_c(r)->n;
}

size_t hs_results_hops(const struct hs_results *r, size_t i)
{
  const struct results *s = lib_samples_c(r);

  return i < s->n ? s->samples[i].n_hops : 0;
}

size_t hs_results_failed(struct hs_results *r)
{
  lib_analyse(r);
  return r->analysis.n_failed;
}

size_t hs_results_checks_failed(struct hs_results *r)
{
  lib_analyse(r);
  return r->checks_failed;
}

/* What report and merge take of the command line over a document's
 * settings: --project (the samples onto these networks) and
 * --payload-size (the body size the payload finding prices). */
void lib_reanalyse_options(struct options *saved, const struct options *o,
                           int payload)
{
  if (!o)
    return;
  if (o->n_project) {
    memcpy(saved->project, o->project, sizeof(saved->project));
    saved->n_project = o->n_project;
  }
  if (payload && o->payload_size > 0)
    saved->payload_size = o->payload_size;
}

enum hs_code hs_results_open(const char *path, const struct hs_options *o,
                             struct hs_results **out)
{
  struct hs_results *r;
  struct arena *was;
  struct stat st;
  FILE *f;
  int rc;

  *out = NULL;
  /* Read one sample at a time: a large file is never held whole. */
  f = fopen(path, "rb");
  if (!f) {
    msg_error("cannot read '%s': %s", path, strerror(errno));
    return HS_E_IO;
  }
  /* The same limit as merge's: a regular file larger is refused before it
   * is read (it is read one sample at a time, never whole). */
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
      st.st_size > (off_t)REPORT_MAX_SIZE) {
    msg_error("'%s' is larger than %d MiB", path, REPORT_MAX_SIZE >> 20);
    fclose(f);
    return HS_E_READ;
  }
  r = xcalloc(1, sizeof(*r));
  r->saved = xcalloc(1, sizeof(*r->saved));
  was = strpool_use(lib_arena(r));
  rc = report_read_file(r->saved, f, path);
  strpool_use(was);
  if (rc < 0) {
    enum hs_code c = ferror(f) ? HS_E_IO : HS_E_READ;

    fclose(f);
    lib_results_release(r);
    free(r);
    return c;
  }
  fclose(f);
  lib_reanalyse_options(&r->saved->opts, o ? lib_opts(o) : NULL, 1);
  r->libraries = r->saved->libraries ? xstrdup(r->saved->libraries) : NULL;
  *out = r;
  return HS_OK;
}

void lib_context(struct hs_results *r, struct report_ctx *c)
{
  memset(c, 0, sizeof(*c));
  c->plan = lib_plan(r);
  c->results = lib_samples(r);
  c->analysis = &r->analysis;
  c->libraries = r->libraries;
}

enum hs_code hs_results_render(struct hs_results *r, const char *format,
                               hs_write_fn *fn, void *ud)
{
  struct report_ctx c;
  struct arena *was;
  struct buf out;
  int f, bad;

  for (f = 0; f < FORMAT_COUNT; f++)
    if (format && !strcmp(format, report_format_names[f]))
      break;
  if (f == FORMAT_COUNT)
    return HS_E_FORMAT;
  lib_analyse(r);
  lib_context(r, &c);
  buf_init(&out, 0);
  was = strpool_use(lib_arena(r));
  report_render(&c, (enum report_format)f, &out);
  strpool_use(was);
  bad = out.len && fn(out.s, out.len, ud) != 0;
  buf_release(&out);
  return bad ? HS_E_WRITE : HS_OK;
}

/* The tables a field handle points into. */
static const struct field *table(enum hs_field_kind kind, size_t *n)
{
  if (kind == HS_FIELD_SAMPLE) {
    *n = FS_COUNT;
    return report_sample_fields;
  }
  *n = FH_COUNT;
  return report_hop_fields;
}

const struct hs_field *hs_field_at(enum hs_field_kind kind, size_t i)
{
  size_t n;
  const struct field *t;

  if (kind != HS_FIELD_SAMPLE && kind != HS_FIELD_HOP)
    return NULL;
  t = table(kind, &n);
  return i < n ? (const struct hs_field *)(const void *)&t[i] : NULL;
}

const struct hs_field *hs_field_find(enum hs_field_kind kind, const char *name)
{
  const struct hs_field *f;
  size_t i;

  for (i = 0; name && (f = hs_field_at(kind, i)) != NULL; i++)
    if (!strcmp(hs_field_name(f), name))
      return f;
  /* Then the hop fields no document writes. */
  for (i = 0; name && kind == HS_FIELD_HOP && i < FHL_COUNT; i++)
    if (!strcmp(report_hop_lib_fields[i].name, name))
      return (const struct hs_field *)(const void *)&report_hop_lib_fields[i];
  return NULL;
}

static const struct field *row_of(const struct hs_field *f)
{
  return (const struct field *)(const void *)f;
}

const char *hs_field_name(const struct hs_field *f)
{
  return row_of(f)->name;
}

enum hs_type hs_field_type(const struct hs_field *f)
{
  switch (row_of(f)->type) {
  case FIELD_INT:
    return HS_TYPE_INT;
  case FIELD_US:
    return HS_TYPE_US;
  case FIELD_BYTES:
    return HS_TYPE_BYTES;
  case FIELD_SECONDS:
    return HS_TYPE_SECONDS;
  case FIELD_TEXT:
    return HS_TYPE_TEXT;
  case FIELD_BOOL:
    return HS_TYPE_BOOL;
  case FIELD_TIME:
    return HS_TYPE_TIME;
  case FIELD_DOUBLE:
    return HS_TYPE_DOUBLE;
  case FIELD_TEXTS:
    return HS_TYPE_TEXTS;
  default:
    return HS_TYPE_OTHER;
  }
}

static int is_kind(const struct hs_field *f, enum hs_field_kind kind)
{
  size_t n;
  const struct field *t = table(kind, &n), *p = row_of(f);

  if (kind == HS_FIELD_HOP && p >= report_hop_lib_fields &&
      p < report_hop_lib_fields + FHL_COUNT)
    return 1;
  return p >= t && p < t + n;
}

enum hs_code hs_results_get(struct hs_results *r, size_t i, size_t k,
                            const struct hs_field *f, struct hs_value *out)
{
  const struct results *s = lib_samples(r);
  const struct field *row = row_of(f);
  struct report_ctx c;
  struct field_row fr;
  struct field_value v;
  struct arena *was;
  struct buf text;
  int hop;

  memset(out, 0, sizeof(*out));
  if (!f)
    return HS_E_FIELD;
  hop = is_kind(f, HS_FIELD_HOP);
  if (!hop && !is_kind(f, HS_FIELD_SAMPLE))
    return HS_E_FIELD;
  if (i >= s->n || (hop && k >= s->samples[i].n_hops))
    return HS_E_RANGE;
  lib_analyse(r);
  lib_context(r, &c);
  was = strpool_use(lib_arena(r));
  field_row_sample(&fr, &c, &s->samples[i], i, field_facts(&c, i));
  if (hop)
    field_row_hop(&fr, k);
  memset(&v, 0, sizeof(v));
  field_get(row, &fr, &v);
  out->type = hs_field_type(f);
  out->null = v.null;
  out->i = v.i;
  out->d = v.d;
  buf_init(&text, 0);
  field_plain_row(row, &fr, &v, &text);
  out->s = strpool_intern(text.s ? text.s : "");
  buf_release(&text);
  if (out->type == HS_TYPE_TEXT && !v.null && v.s)
    out->s = strpool_intern(v.s);
  if (out->type == HS_TYPE_TEXTS && !v.null && v.n) {
    const char **p = xcalloc(v.n, sizeof(*p));
    size_t j;

    for (j = 0; j < v.n; j++)
      p[j] = strpool_intern(v.v[j]);
    out->v = strpool_intern_blob(p, v.n * sizeof(*p));
    out->n = v.n;
    free(p);
  }
  strpool_use(was);
  field_value_release(&v);
  return HS_OK;
}

struct hs_results *lib_embed_new(void)
{
  struct hs_results *r = xcalloc(1, sizeof(*r));

  results_init(&r->results);
  return r;
}

struct options *lib_embed_options(struct hs_results *r)
{
  return &r->opts;
}

struct plan *lib_embed_plan(struct hs_results *r)
{
  return &r->plan;
}

struct results *lib_embed_samples(struct hs_results *r)
{
  return &r->results;
}

struct analysis *lib_embed_analysis(struct hs_results *r)
{
  return &r->analysis;
}

void lib_embed_analysed(struct hs_results *r, int built)
{
  r->analysed = built;
}

void lib_embed_live(struct hs_results *r, int live)
{
  r->live = live;
}

size_t lib_embed_index(const struct hs_results *r, const void *s)
{
  return (size_t)((const struct sample *)s - lib_samples_c(r)->samples);
}
