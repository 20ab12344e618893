/*
 * yaml_bounds_int.h: what keeps a hostile YAML document of the config stage
 * (a profile, blackbox_exporter's module file) in bounded work, private to
 * src/config: a map of strings to indexes (profile_map.c), for checks in
 * linear time such as repeated keys, and the size of the document with
 * every alias counted as often as it is used (profile_bounds.c).
 */
#ifndef HOPSPLIT_YAML_BOUNDS_INT_H
#define HOPSPLIT_YAML_BOUNDS_INT_H

#include <stddef.h>
#include <yaml.h>

/* A map of strings (borrowed, or owned when own is set) to indexes. */
struct pf_map_slot {
  const char *key;
  size_t val;
};
struct pf_map {
  struct pf_map_slot *slots;
  size_t cap, n;
  int own;
};
size_t *pf_map_find(const struct pf_map *m, const char *key);
/* 1 when added, 0 when key was there (an owned key is then freed). */
int pf_map_put(struct pf_map *m, const char *key, size_t val);
void pf_map_release(struct pf_map *m);

/*
 * Walk doc from its root, an alias counted as often as it is used
 * (post-order, without recursion): 0 when the walk meets at most the
 * document's nodes plus max_alias, 1 when more, -1 when an alias refers
 * to a node that contains it (*cycle is that node; the document would be
 * infinite).
 */
int pf_alias_walk(yaml_document_t *doc, size_t max_alias,
                  const yaml_node_t **cycle);

#endif
