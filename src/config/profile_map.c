/*
 * profile_map.c: a map of strings to indexes with open addressing (FNV-1a),
 * for the checks of the profile loader that would otherwise compare every
 * name with every other (see profile_int.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "xalloc.h"
#include "profile_int.h"
#include "banned.h"

static uint64_t hash(const char *s)
{
  uint64_t h = 1469598103934665603ULL;

  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 1099511628211ULL;
  }
  return h;
}

static void map_grow(struct pf_map *m)
{
  struct pf_map_slot *old = m->slots;
  size_t cap = m->cap, i;

  m->cap = cap ? cap * 2 : 64;
  m->slots = xcalloc(m->cap, sizeof(*m->slots));
  for (i = 0; i < cap; i++)
    if (old[i].key) {
      size_t j = (size_t)hash(old[i].key) & (m->cap - 1);

      while (m->slots[j].key)
        j = (j + 1) & (m->cap - 1);
      m->slots[j] = old[i];
    }
  free(old);
}

size_t *pf_map_find(const struct pf_map *m, const char *key)
{
  size_t j;

  if (!m->cap)
    return NULL;
  j = (size_t)hash(key) & (m->cap - 1);
  while (m->slots[j].key) {
    if (!strcmp(m->slots[j].key, key))
      return &m->slots[j].val;
    j = (j + 1) & (m->cap - 1);
  }
  return NULL;
}

int pf_map_put(struct pf_map *m, const char *key, size_t val)
{
  size_t j;

  if (pf_map_find(m, key)) {
    if (m->own)
      free((char *)(uintptr_t)key);
    return 0;
  }
  if ((m->n + 1) * 2 > m->cap)
    map_grow(m);
  j = (size_t)hash(key) & (m->cap - 1);
  while (m->slots[j].key)
    j = (j + 1) & (m->cap - 1);
  m->slots[j].key = key;
  m->slots[j].val = val;
  m->n++;
  return 1;
}

void pf_map_release(struct pf_map *m)
{
  size_t i;

  if (m->own)
    for (i = 0; i < m->cap; i++)
      free((char *)(uintptr_t)m->slots[i].key);
  free(m->slots);
  m->slots = NULL;
  m->cap = m->n = 0;
}
