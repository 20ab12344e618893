/*
 * lib_misc.c: libhopsplit's codes, version, set-up and log callback
 * (hopsplit(3)).
 */
#include <stddef.h>

#include "buf.h"
#include "lib_int.h"
#include "msg.h"
#include "probe.h"
#include "profile.h"
#include "stall.h"
#include "strpool.h"
#include "banned.h"

static const char *const code_names[HS_CODE_COUNT] = {
    "success",
    "unknown option",
    "bad option value or target",
    "no target",
    "cannot set up libcurl, c-ares or a loop",
    "call out of order",
    "no such sample or hop",
    "field of the other kind",
    "unknown report format",
    "the write callback failed",
    "not a hopsplit document",
    "cancelled",
    "cannot read or write a file",
};

const char *hs_strerror(enum hs_code code)
{
  if ((unsigned)code >= HS_CODE_COUNT)
    return "unknown code";
  return code_names[code];
}

const char *hs_version(void)
{
  return HOPSPLIT_VERSION;
}

enum hs_code hs_global_init(void)
{
  return probe_global_init() < 0 ? HS_E_SETUP : HS_OK;
}

void hs_global_cleanup(void)
{
  probe_global_cleanup();
  /* The strings planning and reading left in the thread's own pool. */
  strpool_release_all();
}

static hs_log_fn *log_fn;
static void *log_ud;

static void to_log(enum msg_level level, const char *line, void *ud)
{
  (void)ud;
  log_fn((enum hs_log_level)level, line, log_ud);
}

void hs_set_log(hs_log_fn *fn, void *ud)
{
  log_fn = fn;
  log_ud = ud;
  msg_set_sink(fn ? to_log : NULL, NULL);
}

enum hs_code hs_version_text(hs_write_fn *fn, void *ud)
{
  struct buf b;
  int bad;

  buf_init(&b, 0);
  probe_versions(&b);
  buf_printf(&b, " libyaml/%s\n", profile_yaml_version());
  probe_features(&b);
  bad = fn(b.s, b.len, ud) != 0;
  buf_release(&b);
  return bad ? HS_E_WRITE : HS_OK;
}

void hs_mutex_lock(void *mu)
{
  stall_lock((pthread_mutex_t *)mu);
}
