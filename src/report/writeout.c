/*
 * writeout.c: -w/--write-out, curl's --write-out over one typed sample.
 * Input: a FORMAT with curl's %{variable} names and a finished sample.
 * Output: the text curl would print after that transfer, once per sample
 * as curl prints once per transfer (curl src/tool_writeout.c).
 *
 * The variables are rows of the field table (report_writeout_fields in
 * report_fields.c, which says how each is read from the sample), as
 * curl's one variables[] gives both %{variable} and %{json}.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arraysize.h"
#include "json.h"
#include "report.h"
#include "report_fields.h"
#include "strutil.h"
#include "xalloc.h"
#include "banned.h"

static const struct field *wo_find(const char *name, size_t len)
{
  const struct field *f;

  for (f = report_writeout_fields; f->name; f++)
    if (strlen(f->name) == len && !strncmp(f->name, name, len))
      return f;
  return NULL;
}

/* The names -w accepts besides the table's (curl 8.14's). */
static const char *const wo_specials[] = {"json", "stdout", "stderr",
                                          "header_json", "onerror"};

static int wo_special(const char *name, size_t len)
{
  size_t i;

  for (i = 0; i < sizeof(wo_specials) / sizeof(wo_specials[0]); i++)
    if (strlen(wo_specials[i]) == len && !strncmp(name, wo_specials[i], len))
      return 1;
  return 0;
}

/* curl 8.14's variables that cannot apply to hopsplit, and why. */
static const struct {
  const char *name, *why;
} wo_refused[] = {
    {"filename_effective", "hopsplit writes no body to a file (curl's -o, "
                           "-O), so there is no file name"},
    {"ftp_entry_path", "hopsplit measures HTTP and HTTPS only"},
    {"ssl_verify_result",
     "hopsplit keeps no OpenSSL verify result: a certificate that does not "
     "verify fails the sample, and %{errormsg} says why"},
};

static const char *wo_why_refused(const char *name, size_t len)
{
  size_t i;

  for (i = 0; i < sizeof(wo_refused) / sizeof(wo_refused[0]); i++)
    if (strlen(wo_refused[i].name) == len &&
        !strncmp(name, wo_refused[i].name, len))
      return wo_refused[i].why;
  return NULL;
}

/* The final response's header lines of s's last hop (*len bytes), or
 * NULL when the blocks were not kept. */
static const char *final_fields(const struct sample *s, size_t *len)
{
  if (!s->n_hops)
    return NULL;
  return field_final_headers(s->hops[s->n_hops - 1].info->head_in, len);
}

/* Each header line of the block: name (nlen) and value (vlen), the
 * value's blanks around it stripped; 0 at the end. */
static int next_field(const char **p, const char *end, const char **name,
                      size_t *nlen, const char **val, size_t *vlen)
{
  while (*p < end) {
    const char *line = *p, *eol = strstr(line, "\r\n"), *colon;

    if (!eol || eol > end)
      eol = end;
    *p = eol < end ? eol + 2 : end;
    colon = memchr(line, ':', (size_t)(eol - line));
    if (!colon)
      continue;
    *name = line;
    *nlen = (size_t)(colon - line);
    colon++;
    while (colon < eol && (*colon == ' ' || *colon == '\t'))
      colon++;
    while (eol > colon && (eol[-1] == ' ' || eol[-1] == '\t'))
      eol--;
    *val = colon;
    *vlen = (size_t)(eol - colon);
    return 1;
  }
  return 0;
}

/* curl's %header{name}: the value of the final response's first header
 * of that name (any case), nothing when it has none. */
static void put_header(const struct sample *s, const char *name, size_t len,
                       struct buf *out)
{
  const char *p, *end, *n, *v;
  size_t blen, nl, vl;

  p = final_fields(s, &blen);
  if (!p)
    return;
  end = p + blen;
  while (next_field(&p, end, &n, &nl, &v, &vl))
    if (nl == len && !strncasecmp(n, name, len)) {
      buf_add(out, v, vl);
      return;
    }
}

/* curl's %{header_json}: every header of the final response, names in
 * lower case in order of first appearance, each with its values. */
static void put_header_json(const struct sample *s, struct buf *out)
{
  const char *p, *end, *n, *v;
  size_t blen, nl, vl;
  struct buf seen;
  struct json j;

  buf_init(&seen, 0);
  json_init(&j, out, 0);
  json_object_begin(&j, NULL);
  p = final_fields(s, &blen);
  end = p ? p + blen : NULL;
  while (p && next_field(&p, end, &n, &nl, &v, &vl)) {
    char *key = xstrndup(n, nl), *k;
    const char *q = p, *n2, *v2;
    size_t nl2, vl2;

    for (k = key; *k; k++)
      *k = (char)((*k >= 'A' && *k <= 'Z') ? *k + 32 : *k);
    /* A later line of a name already written: its value is there. */
    k = xasprintf("\n%s\n", key);
    if (seen.s && strstr(seen.s, k)) {
      free(k);
      free(key);
      continue;
    }
    free(k);
    buf_printf(&seen, "\n%s\n", key);
    json_array_begin(&j, key);
    {
      char *val = xstrndup(v, vl);

      json_string(&j, NULL, val);
      free(val);
    }
    while (next_field(&q, end, &n2, &nl2, &v2, &vl2))
      if (nl2 == nl && !strncasecmp(n2, n, nl)) {
        char *val = xstrndup(v2, vl2);

        json_string(&j, NULL, val);
        free(val);
      }
    json_array_end(&j);
    free(key);
  }
  json_object_end(&j);
  buf_release(&seen);
}

int report_writeout_check(const char *fmt, char *err, size_t errlen)
{
  const char *p = fmt;

  while ((p = strchr(p, '%')) != NULL) {
    const char *name = p + 2, *end, *why;
    size_t len;

    if (p[1] == '%') {
      p += 2; /* "%%" is a literal "%" */
      continue;
    }
    if (!strncmp(p, "%header{", 8)) {
      if (!strchr(p + 8, '}')) {
        snprintf(err, errlen, "'%%header{' without a closing '}' in '%s'",
                 fmt);
        return -1;
      }
      p = strchr(p + 8, '}') + 1;
      continue;
    }
    if (!strncmp(p, "%output{", 8)) {
      snprintf(err, errlen,
               "'%%output{...}' cannot apply to hopsplit: -w writes to "
               "standard output, or after %%{stderr} to standard error; "
               "redirect those instead");
      return -1;
    }
    if (p[1] != '{') {
      p++;
      continue;
    }
    end = strchr(name, '}');
    if (!end) {
      snprintf(err, errlen, "'%%{' without a closing '}' in '%s'", fmt);
      return -1;
    }
    len = (size_t)(end - name);
    if ((why = wo_why_refused(name, len)) != NULL) {
      snprintf(err, errlen, "variable '%%{%.*s}' cannot apply to hopsplit: %s",
               (int)len, name, why);
      return -1;
    }
    if (len > 7 && !strncmp(name, "header{", 7)) {
      snprintf(err, errlen,
               "unknown variable '%%{%.*s}' (did you mean '%%header{%.*s}'? "
               "curl writes a header as %%header{name}, without the outer "
               "braces)",
               (int)len, name, (int)(len - 7), name + 7);
      return -1;
    }
    if (!wo_find(name, len) && !wo_special(name, len)) {
      const struct field *f;
      const char **names;
      size_t i;
      char word[64];
      const char *hint;
      size_t n = 0;

      for (f = report_writeout_fields; f->name; f++)
        n++;
      names = xcalloc(n + ARRAY_SIZE(wo_specials), sizeof(*names));
      for (n = 0, f = report_writeout_fields; f->name; f++)
        names[n++] = f->name;
      for (i = 0; i < ARRAY_SIZE(wo_specials); i++)
        names[n++] = wo_specials[i];
      snprintf(word, sizeof(word), "%.*s", (int)(len < 60 ? len : 60), name);
      hint = str_closest(word, names, n);
      snprintf(err, errlen,
               "unknown variable '%%{%s}'%s%s%s (see hopsplit(1), "
               "--write-out)",
               word, hint ? " (did you mean '%{" : "", hint ? hint : "",
               hint ? "}'?)" : "");
      free(names);
      return -1;
    }
    p = end + 1;
  }
  return 0;
}

/* %{json}: every variable of the table, as curl's %{json} gives its own. */
static void put_json(const struct field_row *r, struct buf *out)
{
  struct json j;

  json_init(&j, out, 0);
  json_object_begin(&j, NULL);
  field_json(&j, report_writeout_fields, NULL, r);
  json_object_end(&j);
}

void report_writeout(const struct report_ctx *c, const char *fmt,
                     const struct sample *s, struct buf *out,
                     struct buf *err_out)
{
  const char *p = fmt;
  struct buf *to = out;
  struct field_row r;

  field_row_sample(&r, c, s, 0, NULL);
  while (*p) {
    if (p[0] == '%' && p[1] == '%') {
      buf_putc(to, '%');
      p += 2;
    }
    else if (!strncmp(p, "%header{", 8) && strchr(p + 8, '}')) {
      const char *end = strchr(p + 8, '}');

      put_header(s, p + 8, (size_t)(end - (p + 8)), to);
      p = end + 1;
    }
    else if (p[0] == '%' && p[1] == '{' && strchr(p + 2, '}')) {
      const char *name = p + 2, *end = strchr(name, '}');
      size_t len = (size_t)(end - name);
      const struct field *f = wo_find(name, len);

      if (f) {
        struct field_value v;

        field_get(f, &r, &v);
        field_curl(f, &v, to);
        field_value_release(&v);
      }
      else if (len == 4 && !strncmp(name, "json", 4)) {
        put_json(&r, to);
      }
      else if (len == 11 && !strncmp(name, "header_json", 11)) {
        put_header_json(s, to);
      }
      else if (len == 7 && !strncmp(name, "onerror", 7)) {
        if (s->ok)
          return; /* the rest only after a failure, as curl's */
      }
      else if (len == 6 && !strncmp(name, "stdout", 6)) {
        to = out;
      }
      else if (len == 6 && !strncmp(name, "stderr", 6)) {
        to = err_out;
      }
      p = end + 1;
    }
    else if (p[0] == '\\' && p[1]) {
      /* curl's escapes: \n \r \t; any other keeps the backslash. */
      switch (p[1]) {
      case 'n':
        buf_putc(to, '\n');
        break;
      case 'r':
        buf_putc(to, '\r');
        break;
      case 't':
        buf_putc(to, '\t');
        break;
      case '\\':
        buf_putc(to, '\\');
        break;
      default:
        buf_putc(to, '\\');
        buf_putc(to, p[1]);
        break;
      }
      p += 2;
    }
    else {
      buf_putc(to, *p++);
    }
  }
}
