/*
 * serve_fields.c: how serve reads its probes' samples and hops, as any
 * client of libhopsplit does: through field handles (hs_field_find, by
 * the names of the JSON document's sample and hop objects) and values by
 * handle (hs_results_get), never struct sample or struct hop.  Input: a
 * probe's results (struct serve_probe.res), analysed.  Output: values.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "serve_int.h"
#include "banned.h"

static struct serve_fields fields;
static pthread_once_t fields_once = PTHREAD_ONCE_INIT;

static const struct hs_field *find(enum hs_field_kind kind, const char *name)
{
  const struct hs_field *f = hs_field_find(kind, name);

  if (!f) {
    /* The names are the document's, fixed (SPEC): a bug, not input. */
    fprintf(stderr, "hopsplit: serve: no field '%s'\n", name);
    abort();
  }
  return f;
}

/* hopsplit(1) INTERFERENCE's parts, as the fields interference_PART_us
 * name them. */
const char *const serve_part_names[SERVE_PARTS] = {"late", "own", "runq",
                                                   "lock", "output"};

static void fields_init(void)
{
  char name[64];
  size_t k;

  fields.mode = find(HS_FIELD_SAMPLE, "mode");
  fields.round = find(HS_FIELD_SAMPLE, "round");
  fields.ok = find(HS_FIELD_SAMPLE, "ok");
  fields.err_class = find(HS_FIELD_SAMPLE, "error.class");
  fields.err_message = find(HS_FIELD_SAMPLE, "error.message");
  fields.control = find(HS_FIELD_SAMPLE, "control");
  fields.interfered = find(HS_FIELD_SAMPLE, "interfered");
  fields.interference = find(HS_FIELD_SAMPLE, "interference_us");
  fields.total = find(HS_FIELD_SAMPLE, "total_us");
  for (k = 0; k < SERVE_PARTS; k++) {
    snprintf(name, sizeof(name), "interference_%s_us", serve_part_names[k]);
    fields.part[k] = find(HS_FIELD_SAMPLE, name);
  }
  fields.host = find(HS_FIELD_HOP, "host");
  fields.status = find(HS_FIELD_HOP, "status");
  fields.reused = find(HS_FIELD_HOP, "reused");
  fields.tls_version = find(HS_FIELD_HOP, "tls.version");
  fields.tls_resumed = find(HS_FIELD_HOP, "tls.resumed");
  fields.http_version = find(HS_FIELD_HOP, "http_version");
  fields.remote_ip = find(HS_FIELD_HOP, "remote_ip");
  fields.location = find(HS_FIELD_HOP, "location");
  fields.size_download = find(HS_FIELD_HOP, "size_download");
  fields.size_decoded = find(HS_FIELD_HOP, "size_decoded");
  fields.ph_dns = find(HS_FIELD_HOP, "phases_us.dns");
  fields.ph_connect = find(HS_FIELD_HOP, "phases_us.connect");
  fields.ph_tls = find(HS_FIELD_HOP, "phases_us.tls");
  fields.ph_send = find(HS_FIELD_HOP, "phases_us.send");
  fields.ph_wait = find(HS_FIELD_HOP, "phases_us.wait");
  fields.ph_transfer = find(HS_FIELD_HOP, "phases_us.transfer");
  fields.ph_total = find(HS_FIELD_HOP, "phases_us.total");
  fields.url = find(HS_FIELD_HOP, "url");
  /* Fields no document writes (hopsplit(3)). */
  fields.content_length = find(HS_FIELD_HOP, "content_length");
  fields.cert_expiry = find(HS_FIELD_HOP, "tls.cert_expiry");
  fields.chain_expiry = find(HS_FIELD_HOP, "tls.chain_expiry");
  fields.leaf_sha256 = find(HS_FIELD_HOP, "tls.leaf.sha256");
  fields.leaf_subject = find(HS_FIELD_HOP, "tls.leaf.subject");
  fields.leaf_issuer = find(HS_FIELD_HOP, "tls.leaf.issuer");
  fields.leaf_serial = find(HS_FIELD_HOP, "tls.leaf.serial");
  fields.leaf_dns_names = find(HS_FIELD_HOP, "tls.leaf.dns_names");
  fields.dns_preferred = find(HS_FIELD_HOP, "dns.preferred");
  fields.response_head = find(HS_FIELD_HOP, "response_head");
  fields.body_scanned = find(HS_FIELD_HOP, "body.scanned");
  fields.body_matched = find(HS_FIELD_HOP, "body.matched");
  fields.body_limited = find(HS_FIELD_HOP, "body.limited");
}

const struct serve_fields *serve_fields(void)
{
  pthread_once(&fields_once, fields_init);
  return &fields;
}

int64_t serve_get_int(struct hs_results *r, size_t i, size_t k,
                      const struct hs_field *f, int64_t none)
{
  struct hs_value v;

  if (hs_results_get(r, i, k, f, &v) != HS_OK || v.null)
    return none;
  return v.i;
}

const char *serve_get_text(struct hs_results *r, size_t i, size_t k,
                           const struct hs_field *f)
{
  struct hs_value v;

  if (hs_results_get(r, i, k, f, &v) != HS_OK || v.null)
    return NULL;
  return v.s;
}
