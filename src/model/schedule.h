/*
 * schedule.h: the order of the (target, mode) pairs inside each round
 * (hopsplit(1) MEASUREMENT).  Part of the plan stage, pure: no I/O, no
 * allocation.
 *
 * Input: an order, the number of items of a round (an item is the index of
 * one (target, mode) pair), the 1-based round number and a seed.  Output: a
 * permutation of 0 .. n_items-1 giving the item measured at each position.
 *
 * - ORDER_FIXED keeps the written order in every round.
 * - ORDER_ROTATE (the default) shifts the order by one each round: at
 *   position p of round r runs item (p + r - 1) mod n, so over n rounds each
 *   item runs once at each position (a Latin square).
 * - ORDER_SHUFFLE draws a uniform permutation per round with Fisher-Yates,
 *   from a self-contained PRNG (xoshiro256**, seeded through splitmix64 from
 *   the seed and the round number) and unbiased bounded draws (rejection
 *   sampling).  The same seed gives the same schedule on every platform.
 */
#ifndef HOPSPLIT_SCHEDULE_H
#define HOPSPLIT_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

enum schedule_order { ORDER_ROTATE, ORDER_SHUFFLE, ORDER_FIXED, ORDER_COUNT };

/* "rotate", "shuffle", "fixed", indexed by enum schedule_order. */
extern const char *const schedule_order_names[ORDER_COUNT];

/* The name of an order, a static string; "unknown" for an invalid value. */
const char *schedule_order_name(enum schedule_order o);

/* The order named name (exact, lowercase), or ORDER_COUNT when no order has
 * that name or name is NULL. */
enum schedule_order schedule_order_from_name(const char *name);

/*
 * Fill out_perm[0 .. n_items-1] (caller-owned, at least n_items elements)
 * with the item to measure at each position of round round (1-based).  The
 * seed matters only for ORDER_SHUFFLE.  Nothing is written when n_items is
 * 0.  Cannot fail; an invalid order or a round below 1 is a BUG().
 */
void schedule_round(enum schedule_order o, size_t n_items, int round,
                    uint64_t seed, size_t *out_perm);

#endif
