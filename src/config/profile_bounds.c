/*
 * profile_bounds.c: what keeps a hostile profile in bounded work (issue
 * 16): a string map for the checks that would otherwise compare every
 * name with every other, the alias-expansion budget, duplicate keys found
 * once per mapping (see profile_int.h); the map is profile_map.c.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "buf.h"
#include "xalloc.h"
#include "profile_int.h"
#include "banned.h"

/* A repeat of a key already reported. */
#define DUP_SILENT ((size_t)-1)

/* For each mapping with a key written twice: per pair, 1 + the index of
 * the pair whose key it repeats (0 for a first key). */
static void find_duplicates(struct loader *L, size_t n_nodes)
{
  size_t id;

  for (id = 0; id < n_nodes; id++) {
    yaml_node_t *m = L->doc->nodes.start + id;
    yaml_node_pair_t *pr, *start;
    struct pf_map keys;
    size_t np;

    if (m->type != YAML_MAPPING_NODE)
      continue;
    start = m->data.mapping.pairs.start;
    memset(&keys, 0, sizeof(keys));
    for (pr = start; pr < m->data.mapping.pairs.top; pr++) {
      yaml_node_t *k = pf_node(L, pr->key);
      size_t *first;

      if (!k || k->type != YAML_SCALAR_NODE)
        continue;
      first = pf_map_find(&keys, pf_text(k));
      if (!first) {
        pf_map_put(&keys, pf_text(k), (size_t)(pr - start));
        continue;
      }
      if (!L->dups)
        L->dups = xcalloc(n_nodes, sizeof(*L->dups));
      np = (size_t)(m->data.mapping.pairs.top - start);
      if (!L->dups[id])
        L->dups[id] = xcalloc(2 * np, sizeof(**L->dups));
      /* The first repeat is reported, with the count kept at np + first;
       * later repeats are skipped silently. */
      if (L->dups[id][np + *first]++ == 0)
        L->dups[id][pr - start] = *first + 1;
      else
        L->dups[id][pr - start] = DUP_SILENT;
    }
    pf_map_release(&keys);
  }
}

/* The children of node n (sequence items, mapping keys and values). */
static size_t children(const yaml_node_t *n, size_t i, int *child)
{
  if (n->type == YAML_SEQUENCE_NODE) {
    size_t c =
        (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);

    if (i >= c)
      return 0;
    *child = n->data.sequence.items.start[i];
    return 1;
  }
  if (n->type == YAML_MAPPING_NODE) {
    size_t c =
        (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);

    if (i >= 2 * c)
      return 0;
    *child = i % 2 ? n->data.mapping.pairs.start[i / 2].value
                   : n->data.mapping.pairs.start[i / 2].key;
    return 1;
  }
  return 0;
}

int pf_alias_walk(yaml_document_t *doc, size_t max_alias,
                  const yaml_node_t **cycle)
{
  size_t n_nodes = (size_t)(doc->nodes.top - doc->nodes.start);
  uint64_t *size, limit = (uint64_t)n_nodes + max_alias;
  unsigned char *state;
  struct frame {
    int id;
    size_t next;
  } * stack;
  size_t depth = 0;
  int rc = 0;

  if (!n_nodes)
    return 0;
  /* Nodes as the walk meets them; sizes saturate past the limit. */
  size = xcalloc(n_nodes + 1, sizeof(*size));
  state = xcalloc(n_nodes + 1, 1);
  stack = xmalloc((n_nodes + 1) * sizeof(*stack));
  stack[depth].id = 1;
  stack[depth++].next = 0;
  state[1] = 1;
  size[1] = 1;
  while (depth && !rc) {
    struct frame *f = &stack[depth - 1];
    const yaml_node_t *n = yaml_document_get_node(doc, f->id);
    int child;

    if (!children(n, f->next++, &child)) {
      state[f->id] = 2;
      depth--;
      if (depth) {
        uint64_t *ps = &size[stack[depth - 1].id];

        *ps += size[f->id];
        if (*ps > limit)
          *ps = limit + 1;
      }
      continue;
    }
    if (child < 1 || (size_t)child > n_nodes)
      continue;
    if (state[child] == 1) {
      *cycle = yaml_document_get_node(doc, child);
      rc = -1;
      break;
    }
    if (state[child] == 2) {
      size[f->id] += size[child];
      if (size[f->id] > limit)
        size[f->id] = limit + 1;
      continue;
    }
    state[child] = 1;
    size[child] = 1;
    stack[depth].id = child;
    stack[depth++].next = 0;
  }
  if (!rc && size[1] > limit)
    rc = 1;
  free(size);
  free(state);
  free(stack);
  return rc;
}

int pf_bounds_check(struct loader *L)
{
  size_t n_nodes = (size_t)(L->doc->nodes.top - L->doc->nodes.start);
  const yaml_node_t *cycle = NULL;
  int rc;

  if (!n_nodes)
    return 0;
  find_duplicates(L, n_nodes);
  rc = pf_alias_walk(L->doc, PROFILE_MAX_ALIAS_NODES, &cycle);
  if (rc < 0)
    complain(L, cycle,
             "an alias refers to a node that contains it (the profile "
             "would be infinite)");
  else if (rc > 0)
    pf_problem_at(L, 0, 0,
                  "aliases expand the profile by more than %d nodes (the "
                  "limit: anchors and aliases are for sharing a few values)",
                  PROFILE_MAX_ALIAS_NODES);
  return rc ? -1 : 0;
}

int pf_duplicate(struct loader *L, const yaml_node_t *m,
                 const yaml_node_pair_t *pair)
{
  size_t id = (size_t)(m - L->doc->nodes.start);
  size_t first, more;
  yaml_node_t *k, *o;

  if (!L->dups || !L->dups[id])
    return 0;
  first = L->dups[id][pair - m->data.mapping.pairs.start];
  if (!first)
    return 0;
  if (first == DUP_SILENT)
    return 1;
  k = pf_node(L, pair->key);
  o = pf_node(L, m->data.mapping.pairs.start[first - 1].key);
  more = L->dups[id][(size_t)(m->data.mapping.pairs.top -
                              m->data.mapping.pairs.start) +
                     first - 1];
  if (more > 1)
    complain(L, k, "duplicate key '%s' (first at line %lu; %zu repeats)",
             pf_text(k), (unsigned long)o->start_mark.line + 1, more);
  else
    complain(L, k, "duplicate key '%s' (first at line %lu)", pf_text(k),
             (unsigned long)o->start_mark.line + 1);
  return 1;
}

void pf_bounds_release(struct loader *L)
{
  size_t i, n_nodes;

  if (L->dups) {
    n_nodes = (size_t)(L->doc->nodes.top - L->doc->nodes.start);
    for (i = 0; i < n_nodes; i++)
      free(L->dups[i]);
    free(L->dups);
    L->dups = NULL;
  }
  pf_map_release(&L->names);
  pf_map_release(&L->seen);
  for (i = 0; i < L->n_vars; i++) {
    free(L->vars[i].name);
    free(L->vars[i].value);
  }
  free(L->vars);
  L->vars = NULL;
  L->n_vars = 0;
}
