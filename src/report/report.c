/*
 * report.c: dispatch on the output format, redaction shared by the
 * renderers, and atomic output files.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jtree.h"
#include "msg.h"
#include "report.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

void report_render(const struct report_ctx *c, enum report_format f,
                   struct buf *out)
{
  switch (f) {
  case FORMAT_TEXT:
    report_text(c, out);
    return;
  case FORMAT_JSON:
    report_json(c, out);
    return;
  case FORMAT_NDJSON:
    report_ndjson(c, out);
    return;
  case FORMAT_CSV:
    report_csv(c, out);
    return;
  case FORMAT_HAR:
    report_har(c, out);
    return;
  case FORMAT_HTML:
    report_html(c, out);
    return;
  case FORMAT_PROM:
    report_prom(c, out);
    return;
  case FORMAT_COUNT:
    break;
  }
  BUG("report format %d", (int)f);
}

static char *dir_of(const char *path)
{
  const char *slash = strrchr(path, '/');

  if (!slash)
    return xstrdup(".");
  if (slash == path)
    return xstrdup("/");
  return xstrndup(path, (size_t)(slash - path));
}

int report_check_path(const char *path)
{
  char *dir = dir_of(path);
  int rc = 0;

  if (access(dir, W_OK | X_OK) < 0)
    rc = msg_error("cannot write '%s': directory '%s': %s", path, dir,
                   strerror(errno));
  else if (access(path, F_OK) == 0 && access(path, W_OK) < 0)
    rc = msg_error("cannot write '%s': %s", path, strerror(errno));
  free(dir);
  return rc;
}

int report_write_rendered(const char *path, const struct report_ctx *c,
                          enum report_format f)
{
  char *tmp = xasprintf("%s.tmp.XXXXXX", path);
  int fd = mkstemp(tmp), rc = -1;
  FILE *fp;
  struct buf b;

  if (fd < 0) {
    msg_error("cannot write '%s': %s", path, strerror(errno));
    goto out;
  }
  fp = fdopen(fd, "w");
  if (!fp) {
    msg_error("cannot write '%s': %s", path, strerror(errno));
    close(fd);
    unlink(tmp);
    goto out;
  }
  buf_init_sink(&b, fp);
  report_render(c, f, &b);
  if (buf_flush(&b) < 0 || fflush(fp) != 0 || fsync(fileno(fp)) != 0) {
    msg_error("cannot write '%s': %s", path, strerror(errno));
    buf_release(&b);
    fclose(fp);
    unlink(tmp);
    goto out;
  }
  buf_release(&b);
  fchmod(fileno(fp), 0644);
  if (fclose(fp) != 0 || rename(tmp, path) < 0) {
    msg_error("cannot write '%s': %s", path, strerror(errno));
    unlink(tmp);
    goto out;
  }
  rc = 0;
out:
  free(tmp);
  return rc;
}
