/*
 * results.c: the growing list of measured samples.
 */
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "xalloc.h"
#include "banned.h"

void results_init(struct results *r)
{
  memset(r, 0, sizeof(*r));
}

void results_release(struct results *r)
{
  size_t i;

  for (i = 0; i < r->n; i++)
    sample_release(&r->samples[i]);
  free(r->samples);
  results_init(r);
}

void results_add(struct results *r, struct sample *s)
{
  r->samples = xgrow(r->samples, &r->cap, r->n + 1, sizeof(*r->samples));
  r->samples[r->n++] = *s;
  sample_init(s);
}
