/*
 * plan_lifecycle.c: the release of a struct plan, whoever built it
 * (plan.c from options, report/report_read.c from a saved document).
 */
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "banned.h"

void plan_release(struct plan *p)
{
  size_t i;

  for (i = 0; i < p->n_targets; i++) {
    free(p->targets[i].name);
    free(p->targets[i].url);
    free(p->targets[i].vantage);
    free(p->targets[i].primes);
    if (p->targets[i].own_opts) {
      options_release(p->targets[i].own_opts);
      free(p->targets[i].own_opts);
    }
  }
  free(p->targets);
  free(p->items);
  free(p->vantage);
  memset(p, 0, sizeof(*p));
}
