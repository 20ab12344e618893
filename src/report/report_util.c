/*
 * report_util.c: what every renderer shares: the URL and header values as
 * the run's redaction settings show them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "msg.h"
#include "report.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

char *report_url(const struct report_ctx *c, const char *url)
{
  if (!url)
    return NULL;
  if (c->plan->opts->show_secrets)
    return xstrdup(url);
  return url_redact(url);
}

char *report_header_value(const struct report_ctx *c, const char *name,
                          const char *value)
{
  if (c->plan->opts->show_secrets)
    return xstrdup(value);
  if (!strcasecmp(name, "set-cookie") || !strcasecmp(name, "cookie") ||
      !strcasecmp(name, "authorization") ||
      !strcasecmp(name, "proxy-authorization"))
    return xstrdup("REDACTED");
  if (!strcasecmp(name, "location") || !strcasecmp(name, "content-location"))
    return url_redact(value);
  return xstrdup(value);
}
