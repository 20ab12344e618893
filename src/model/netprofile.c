/*
 * netprofile.c: the networks of --project and their parser (netprofile.h,
 * hopsplit(1) PROJECTION).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "netprofile.h"
#include "strutil.h"
#include "units.h"
#include "banned.h"

/* The network's own figures, not DevTools' adjusted ones (DevTools throttles
 * each request by a latency 3.75 times the RTT and 0.9 times the rate to
 * stand for a whole network; hopsplit projects the network itself). */
const struct net_preset netprofile_presets[] = {
    {"slow-4g", 150000, 1600000, 750000,
     "Lighthouse mobileSlow4G (core/config/constants.js: rttMs 150, "
     "1.6 Mbit/s, 750 kbit/s up); Chrome DevTools 'Slow 4G'"},
    {"fast-4g", 60000, 9000000, 1500000,
     "Chrome DevTools 'Fast 4G' (NetworkManager.ts presets: 60 ms, "
     "9 Mbit/s down, 1.5 Mbit/s up)"},
    {"3g", 300000, 700000, 700000,
     "Lighthouse mobileRegular3G (core/config/constants.js: rttMs 300, "
     "700 kbit/s both ways)"},
    {"slow-3g", 400000, 500000, 500000,
     "Chrome DevTools 'Slow 3G' (NetworkManager.ts presets: 400 ms, "
     "500 kbit/s both ways)"},
};
const size_t netprofile_n_presets =
    sizeof(netprofile_presets) / sizeof(netprofile_presets[0]);

#define RATE_MIN_BPS 1000
#define RATE_MAX_BPS INT64_C(100000000000)
#define RTT_MAX_US   (10 * 1000 * 1000)
#define LOSS_MAX_PPM 500000 /* 50 % */

/* Decimal "12", "1.6", ".5": *whole and the fraction as billionths; the
 * length read, 0 when there is no number. */
static size_t parse_decimal(const char *s, int64_t *whole, int64_t *frac_e9)
{
  size_t i = 0, digits = 0;
  int64_t w = 0, f = 0, scale = 100000000;

  while (s[i] >= '0' && s[i] <= '9') {
    if (w > INT64_C(100000000000))
      return 0;
    w = w * 10 + (s[i++] - '0');
    digits++;
  }
  if (s[i] == '.') {
    i++;
    while (s[i] >= '0' && s[i] <= '9') {
      f += (s[i++] - '0') * scale;
      scale /= 10;
      digits++;
    }
  }
  if (!digits)
    return 0;
  *whole = w;
  *frac_e9 = f;
  return i;
}

/* "1.6Mbit", "750kbit/s", "2Mbps" -> bits per second. */
static int parse_rate(const char *s, int64_t *bps, char *why, size_t len)
{
  static const struct {
    const char *unit;
    int64_t mult;
  } units[] = {{"bit", 1},           {"kbit", 1000},      {"mbit", 1000000},
               {"gbit", 1000000000}, {"bps", 1},          {"kbps", 1000},
               {"mbps", 1000000},    {"gbps", 1000000000}};
  int64_t w, f, v;
  size_t n = parse_decimal(s, &w, &f), k, ulen;
  const char *u = s + n;

  if (!n) {
    snprintf(why, len, "a rate is a number with a unit (1.6Mbit, 750kbit)");
    return -1;
  }
  if (!*u) {
    snprintf(why, len, "a rate needs a unit (write %sMbit or %skbit)", s, s);
    return -1;
  }
  ulen = strlen(u);
  if (ulen > 2 && !strcmp(u + ulen - 2, "/s"))
    ulen -= 2;
  for (k = 0; k < sizeof(units) / sizeof(units[0]); k++)
    if (strlen(units[k].unit) == ulen && !strncasecmp(u, units[k].unit, ulen))
      break;
  if (k == sizeof(units) / sizeof(units[0])) {
    snprintf(why, len, "unknown rate unit '%.20s' (bit, kbit, Mbit, Gbit)", u);
    return -1;
  }
  if (w > RATE_MAX_BPS / units[k].mult) {
    snprintf(why, len, "a rate is at most 100Gbit");
    return -1;
  }
  v = w * units[k].mult + (f / 1000) * units[k].mult / 1000000 +
      ((f % 1000) * units[k].mult + 500000000) / 1000000000;
  if (v < RATE_MIN_BPS || v > RATE_MAX_BPS) {
    snprintf(why, len, "a rate is between 1kbit and 100Gbit");
    return -1;
  }
  *bps = v;
  return 0;
}

/* "1%", "0.5%" -> parts per million. */
static int parse_loss(const char *s, int32_t *ppm, char *why, size_t len)
{
  int64_t w, f;
  size_t n = parse_decimal(s, &w, &f);

  if (!n || strcmp(s + n, "%")) {
    snprintf(why, len, "loss is a percentage (write 1%% or 0.5%%)");
    return -1;
  }
  if (w > 50 || (w == 50 && f)) {
    snprintf(why, len, "loss is at most 50%%");
    return -1;
  }
  *ppm = (int32_t)(w * 10000 + (f + 50000) / 100000);
  return 0;
}

static int find_preset(const char *s, size_t len)
{
  size_t i;

  for (i = 0; i < netprofile_n_presets; i++)
    if (strlen(netprofile_presets[i].name) == len &&
        !strncasecmp(s, netprofile_presets[i].name, len))
      return (int)i;
  return -1;
}

/* A custom network is complete: rtt, down and up given. */
static int custom_done(const struct net_profile *p, unsigned have, char *err,
                       size_t errlen)
{
  static const char *const keys[] = {"rtt", "down", "up"};
  int k;

  for (k = 0; k < 3; k++)
    if (!(have & (1u << k))) {
      snprintf(err, errlen,
               "network '%s' has no %s= (a custom network is "
               "rtt=150ms,down=1.6Mbit,up=750kbit[,loss=1%%])",
               p->name, keys[k]);
      return -1;
    }
  return 0;
}

/* The next network of out, zeroed; NULL (and err) when out is full. */
static struct net_profile *next_net(struct net_profile *out, size_t *count,
                                    char *err, size_t errlen)
{
  if (*count == NETPROFILES_MAX) {
    snprintf(err, errlen, "more than %d networks", NETPROFILES_MAX);
    return NULL;
  }
  memset(&out[*count], 0, sizeof(out[0]));
  return &out[(*count)++];
}

/* Past a part of len bytes and its ',': -1 (and err) when the ',' ends
 * the value. */
static int advance(const char **p, size_t len, const char *val, char *err,
                   size_t errlen)
{
  *p += len;
  if (**p == ',' && !*++*p) {
    snprintf(err, errlen, "empty part after ',' in '%.60s'", val);
    return -1;
  }
  return 0;
}

int netprofile_parse_list(const char *val, struct net_profile *out, size_t *n,
                          char *err, size_t errlen)
{
  const char *p = val;
  size_t count = 0, customs = 0;
  unsigned have = 0; /* keys of the open custom network, bit per key */
  struct net_profile *cur = NULL;
  static const char *const keys[] = {"rtt", "down", "up", "loss", "name"};

  *n = 0;
  if (!*val) {
    snprintf(err, errlen,
             "no network (expected slow-4g, fast-4g, 3g, slow-3g or "
             "rtt=150ms,down=1.6Mbit,up=750kbit)");
    return -1;
  }
  /* Bounded: each turn takes one part or fails. */
  while (*p) {
    size_t len = strcspn(p, ","), klen;
    const char *eq = memchr(p, '=', len);
    char part[128], why[160];
    int k, pi;

    if (!len) {
      snprintf(err, errlen, "empty part in '%.60s'", val);
      return -1;
    }
    snprintf(part, sizeof(part), "%.*s", (int)(len > 100 ? 100 : len), p);
    if (!eq) {
      if (cur && custom_done(cur, have, err, errlen) < 0)
        return -1;
      cur = NULL;
      pi = find_preset(p, len);
      if (pi < 0) {
        const char *names[8];
        const char *hint;
        size_t i;

        for (i = 0; i < netprofile_n_presets && i < 8; i++)
          names[i] = netprofile_presets[i].name;
        hint = str_closest(part, names, i);
        if (hint)
          snprintf(err, errlen, "unknown network '%s' (did you mean %s?)",
                   part, hint);
        else
          snprintf(err, errlen,
                   "unknown network '%s' (presets: slow-4g, fast-4g, 3g, "
                   "slow-3g; or rtt=150ms,down=1.6Mbit,up=750kbit)",
                   part);
        return -1;
      }
      if (!(cur = next_net(out, &count, err, errlen)))
        return -1;
      snprintf(cur->name, sizeof(cur->name), "%s",
               netprofile_presets[pi].name);
      cur->rtt_us = netprofile_presets[pi].rtt_us;
      cur->down_bps = netprofile_presets[pi].down_bps;
      cur->up_bps = netprofile_presets[pi].up_bps;
      cur->preset = (int8_t)pi;
      cur = NULL; /* a preset takes no keys */
      if (advance(&p, len, val, err, errlen) < 0)
        return -1;
      continue;
    }
    klen = (size_t)(eq - p);
    for (k = 0; k < 5; k++)
      if (strlen(keys[k]) == klen && !strncmp(p, keys[k], klen))
        break;
    if (k == 5) {
      snprintf(err, errlen,
               "unknown part '%s' (a custom network takes rtt=, down=, up=, "
               "loss=, name=)",
               part);
      return -1;
    }
    if (!cur || (have & (1u << k))) {
      /* A new custom network. */
      if (cur && custom_done(cur, have, err, errlen) < 0)
        return -1;
      if (!(cur = next_net(out, &count, err, errlen)))
        return -1;
      cur->preset = -1;
      snprintf(cur->name, sizeof(cur->name), "custom-%zu", ++customs);
      have = 0;
    }
    {
      const char *v = part + klen + 1;
      int rc = 0;

      why[0] = '\0';
      switch (k) {
      case 0:
        if (units_parse_duration_unit(v, &cur->rtt_us, why, sizeof(why)) < 0)
          rc = -1;
        else if (cur->rtt_us > RTT_MAX_US) {
          snprintf(why, sizeof(why), "an RTT is at most 10s");
          rc = -1;
        }
        break;
      case 1:
        rc = parse_rate(v, &cur->down_bps, why, sizeof(why));
        break;
      case 2:
        rc = parse_rate(v, &cur->up_bps, why, sizeof(why));
        break;
      case 3:
        rc = parse_loss(v, &cur->loss_ppm, why, sizeof(why));
        break;
      default: {
        size_t i, vl = strlen(v);

        if (!vl || vl >= NETPROFILE_NAME_MAX) {
          snprintf(why, sizeof(why), "a name is 1 to %d characters",
                   NETPROFILE_NAME_MAX - 1);
          rc = -1;
          break;
        }
        for (i = 0; i < vl; i++)
          if (!((v[i] >= 'a' && v[i] <= 'z') || (v[i] >= 'A' && v[i] <= 'Z') ||
                (v[i] >= '0' && v[i] <= '9') || v[i] == '-' || v[i] == '_' ||
                v[i] == '.'))
            break;
        if (i < vl) {
          snprintf(why, sizeof(why),
                   "a name is letters, digits, '-', '_' and '.'");
          rc = -1;
          break;
        }
        memcpy(cur->name, v, vl + 1);
      }
      }
      if (rc < 0) {
        snprintf(err, errlen, "bad part '%s': %s", part, why);
        return -1;
      }
    }
    have |= 1u << k;
    if (advance(&p, len, val, err, errlen) < 0)
      return -1;
  }
  if (cur && custom_done(cur, have, err, errlen) < 0)
    return -1;
  /* Two networks of one name would be one column twice. */
  for (size_t i = 0; i < count; i++)
    for (size_t j = 0; j < i; j++)
      if (!strcmp(out[i].name, out[j].name)) {
        snprintf(err, errlen, "network '%s' is given twice", out[i].name);
        return -1;
      }
  *n = count;
  return 0;
}

void netprofile_format_rate(int64_t bps, char *out, size_t len)
{
  if (bps >= 1000000000 && bps % 10000000 == 0)
    snprintf(out, len, "%g Gbit/s", (double)bps / 1e9);
  else if (bps >= 1000000 && bps % 10000 == 0)
    snprintf(out, len, "%g Mbit/s", (double)bps / 1e6);
  else if (bps >= 1000 && bps % 10 == 0)
    snprintf(out, len, "%g kbit/s", (double)bps / 1e3);
  else
    snprintf(out, len, "%lld bit/s", (long long)bps);
}

void netprofile_format(const struct net_profile *p, char *out, size_t len)
{
  if (p->preset >= 0) {
    snprintf(out, len, "%s", p->name);
    return;
  }
  if (p->loss_ppm)
    snprintf(
        out, len, "rtt=%lldus,down=%lldbit,up=%lldbit,loss=%d.%04d%%,name=%s",
        (long long)p->rtt_us, (long long)p->down_bps, (long long)p->up_bps,
        (int)(p->loss_ppm / 10000), (int)(p->loss_ppm % 10000), p->name);
  else
    snprintf(out, len, "rtt=%lldus,down=%lldbit,up=%lldbit,name=%s",
             (long long)p->rtt_us, (long long)p->down_bps,
             (long long)p->up_bps, p->name);
}
