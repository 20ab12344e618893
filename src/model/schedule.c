/*
 * schedule.c: the order of the (target, mode) pairs inside each round
 * (hopsplit(1) MEASUREMENT).  Pure: the plan asks for one round at a time and
 * gets a permutation back.  See schedule.h for the three orders.
 *
 * The shuffle uses its own PRNG rather than rand() or random() so that a
 * seed printed in one report reproduces the same schedule on any platform
 * and libc.  Each round is seeded from (seed, round) alone, so a schedule
 * can be recomputed for any round without replaying the earlier ones.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "msg.h"
#include "schedule.h"

#include "banned.h"

const char *const schedule_order_names[ORDER_COUNT] = {
    [ORDER_ROTATE] = "rotate",
    [ORDER_SHUFFLE] = "shuffle",
    [ORDER_FIXED] = "fixed",
};

const char *schedule_order_name(enum schedule_order o)
{
  if ((unsigned)o >= ORDER_COUNT)
    return "unknown";
  return schedule_order_names[o];
}

enum schedule_order schedule_order_from_name(const char *name)
{
  unsigned i;

  if (!name)
    return ORDER_COUNT;
  for (i = 0; i < ORDER_COUNT; i++) {
    if (!strcmp(name, schedule_order_names[i]))
      return (enum schedule_order)i;
  }
  return ORDER_COUNT;
}

/* splitmix64 (Steele, Lea, Flood 2014; Vigna's reference code): used only
 * to expand a 64-bit seed into the state of xoshiro256**, as its authors
 * recommend. */
static uint64_t splitmix64_next(uint64_t *x)
{
  uint64_t z;

  *x += UINT64_C(0x9e3779b97f4a7c15);
  z = *x;
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

struct xoshiro {
  uint64_t s[4];
};

static uint64_t rotl64(uint64_t x, unsigned k)
{
  return (x << k) | (x >> (64 - k));
}

/* xoshiro256** 1.0 (Blackman and Vigna 2018), reference algorithm. */
static uint64_t xoshiro_next(struct xoshiro *x)
{
  uint64_t result = rotl64(x->s[1] * 5, 7) * 9;
  uint64_t t = x->s[1] << 17;

  x->s[2] ^= x->s[0];
  x->s[3] ^= x->s[1];
  x->s[1] ^= x->s[2];
  x->s[0] ^= x->s[3];
  x->s[2] ^= t;
  x->s[3] = rotl64(x->s[3], 45);
  return result;
}

/* The generator of one round.  The round number goes through one
 * splitmix64 step before it meets the seed, so that neighbouring rounds and
 * neighbouring seeds do not start from neighbouring states.  splitmix64
 * never yields four zero words in a row, so the state is never all zero. */
static void xoshiro_seed(struct xoshiro *x, uint64_t seed, int round)
{
  uint64_t r = (uint64_t)(int64_t)round;
  uint64_t sm = seed ^ splitmix64_next(&r);
  int i;

  for (i = 0; i < 4; i++)
    x->s[i] = splitmix64_next(&sm);
}

/* A uniform integer in [0, bound), bound > 0.  Plain "% bound" favours small
 * values when 2^64 is not a multiple of bound, so draws below 2^64 mod bound
 * are rejected and redrawn; fewer than one draw in two is rejected whatever
 * the bound. */
static uint64_t xoshiro_below(struct xoshiro *x, uint64_t bound)
{
  uint64_t threshold = (0 - bound) % bound; /* 2^64 mod bound */
  uint64_t r;

  do {
    r = xoshiro_next(x);
  } while (r < threshold);
  return r % bound;
}

void schedule_round(enum schedule_order o, size_t n_items, int round,
                    uint64_t seed, size_t *out_perm)
{
  struct xoshiro rng;
  size_t i;
  size_t shift;

  if (round < 1)
    BUG("schedule_round: round %d is not 1-based", round);
  if (!n_items)
    return;

  switch (o) {
  case ORDER_FIXED:
    for (i = 0; i < n_items; i++)
      out_perm[i] = i;
    break;
  case ORDER_ROTATE:
    shift = (size_t)(round - 1) % n_items;
    for (i = 0; i < n_items; i++)
      out_perm[i] = (i + shift) % n_items;
    break;
  case ORDER_SHUFFLE:
    /* Fisher-Yates (Durstenfeld): position i takes a uniform pick among the
     * items not yet placed, from the end down. */
    for (i = 0; i < n_items; i++)
      out_perm[i] = i;
    xoshiro_seed(&rng, seed, round);
    for (i = n_items - 1; i > 0; i--) {
      size_t j = (size_t)xoshiro_below(&rng, (uint64_t)i + 1);
      size_t tmp = out_perm[i];

      out_perm[i] = out_perm[j];
      out_perm[j] = tmp;
    }
    break;
  case ORDER_COUNT:
  default:
    BUG("schedule_round: invalid order %d", (int)o);
  }
}
