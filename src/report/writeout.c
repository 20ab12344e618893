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

/* The names %{json} and -w accept besides the table's. */
static int wo_special(const char *name, size_t len)
{
  return (len == 4 && !strncmp(name, "json", 4)) ||
         (len == 6 && !strncmp(name, "stdout", 6)) ||
         (len == 6 && !strncmp(name, "stderr", 6));
}

int report_writeout_check(const char *fmt, char *err, size_t errlen)
{
  const char *p = fmt;

  while ((p = strstr(p, "%{")) != NULL) {
    const char *name = p + 2, *end = strchr(name, '}');
    size_t len;

    if (p > fmt && p[-1] == '%') {
      p += 2; /* "%%{" is a literal "%{" */
      continue;
    }
    if (!end) {
      snprintf(err, errlen, "'%%{' without a closing '}' in '%s'", fmt);
      return -1;
    }
    len = (size_t)(end - name);
    if (!wo_find(name, len) && !wo_special(name, len)) {
      const struct field *f;
      const char **names;
      char word[64];
      const char *hint;
      size_t n = 0;

      for (f = report_writeout_fields; f->name; f++)
        n++;
      names = xcalloc(n, sizeof(*names));
      for (n = 0, f = report_writeout_fields; f->name; f++)
        names[n++] = f->name;
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
