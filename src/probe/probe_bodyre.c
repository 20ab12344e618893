/*
 * probe_bodyre.c: regular expressions searched in a response body as it
 * streams, never stored (blackbox_exporter's fail_if_body_matches_regexp
 * and fail_if_body_not_matches_regexp, which Go's RE2 searches in the
 * whole body it read).  Input: the patterns (compiled once, shared
 * read-only by every transfer and thread) and the body's chunks as
 * libcurl hands them over.  Output: which patterns matched somewhere in
 * the body.
 *
 * PCRE2 (Debian's libpcre2-8, interpreted, not JIT: see
 * probe_body_regexps_new) with partial matching across chunks.  Per chunk and
 * undecided pattern: the chunk's bytes are appended to the pattern's window
 * (the last few bytes before them, which "\b", "(?m)^" and lookbehinds look
 * at, or the bytes of a match that may continue), and one pcre2_match with
 * PCRE2_PARTIAL_HARD searches it from where the new bytes begin; only a
 * partial match keeps more than those few bytes for the next chunk.  The first
 * chunk is searched in place.  A pattern is done once it matched: the chunks
 * after that cost nothing, and once every pattern is decided the body is only
 * counted.  A partial match longer than BODYRE_WINDOW is given
 * up at its start (the search goes on from the next byte), so a match
 * longer than the window can be missed; the memory a transfer holds is
 * at most that window per pattern.  Patterns are UTF-8 (PCRE2_UTF with
 * invalid bytes allowed in the body, as Go's regexp); "$" is the end of
 * the body only, as in Go without (?m); a UTF-8 character split between
 * two chunks is held back until it is whole.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "probe.h"
#include "probe_int.h"
#include "xalloc.h"
#include "banned.h"

#define BODYRE_WINDOW (64 * 1024)
/* Partial matches given up in one chunk before its kept bytes are cut to
 * the last half window (a bound on pathological patterns). */
#define BODYRE_GIVEUPS 64

struct body_regexps {
  pcre2_code **code;
  size_t *lookbehind;
  size_t n;
};

struct pattern_scan {
  pcre2_match_data *md;
  char *keep; /* bytes kept from the body: context, then a partial match */
  size_t keep_len, keep_cap;
  size_t from;     /* where the search starts inside keep */
  int64_t keep_at; /* body offset of keep[0] */
  int done;
};

struct body_scan {
  const struct body_regexps *re;
  struct pattern_scan *p;
  int64_t offset; /* body bytes handed to the patterns so far */
  unsigned char carry[4];
  size_t n_carry;
  uint32_t matched;
  size_t undecided;
};

struct body_regexps *probe_body_regexps_new(const char *const *patterns,
                                            size_t n, size_t *bad, char *err,
                                            size_t errlen)
{
  struct body_regexps *r = xcalloc(1, sizeof(*r));
  pcre2_compile_context *cc = pcre2_compile_context_create(NULL);
  size_t i;

  if (n > BODY_REGEXPS_MAX) {
    snprintf(err, errlen, "more than %d body regular expressions",
             BODY_REGEXPS_MAX);
    *bad = BODY_REGEXPS_MAX;
    pcre2_compile_context_free(cc);
    free(r);
    return NULL;
  }
  if (cc)
    pcre2_set_newline(cc, PCRE2_NEWLINE_LF);
  r->code = xcalloc(n ? n : 1, sizeof(*r->code));
  r->lookbehind = xcalloc(n ? n : 1, sizeof(*r->lookbehind));
  r->n = n;
  for (i = 0; i < n; i++) {
    int ec;
    PCRE2_SIZE at;
    uint32_t lb = 0;

    r->code[i] = pcre2_compile((PCRE2_SPTR)patterns[i], PCRE2_ZERO_TERMINATED,
                               PCRE2_UTF | PCRE2_MATCH_INVALID_UTF |
                                   PCRE2_DOLLAR_ENDONLY,
                               &ec, &at, cc);
    if (!r->code[i]) {
      PCRE2_UCHAR msg[256];

      pcre2_get_error_message(ec, msg, sizeof(msg));
      snprintf(err, errlen, "at offset %zu: %s", (size_t)at, (char *)msg);
      *bad = i;
      r->n = i;
      probe_body_regexps_free(r);
      pcre2_compile_context_free(cc);
      return NULL;
    }
    /* No JIT: PCRE2 10.42's JIT code read out of bounds on invalid UTF-8
     * with partial matching (found by tests/fuzz body_scan), and a body
     * is whatever the peer sends; the interpreter is bounds-checked. */
    pcre2_pattern_info(r->code[i], PCRE2_INFO_MAXLOOKBEHIND, &lb);
    /* Characters, up to 4 bytes each; at least one character for "\b"
     * and "(?m)^" at the start of a chunk. */
    r->lookbehind[i] = (lb ? lb : 1) * 4;
  }
  pcre2_compile_context_free(cc);
  return r;
}

void probe_body_regexps_free(struct body_regexps *r)
{
  size_t i;

  if (!r)
    return;
  for (i = 0; i < r->n; i++)
    pcre2_code_free(r->code[i]);
  free(r->code);
  free(r->lookbehind);
  free(r);
}

int probe_body_regexps_match(const struct body_regexps *r, size_t i,
                             const char *s, size_t n)
{
  pcre2_match_data *md;
  int rc;

  if (!r || i >= r->n)
    return 0;
  md = pcre2_match_data_create_from_pattern(r->code[i], NULL);
  if (!md)
    msg_die(4, "out of memory for a regexp's match data");
  rc = pcre2_match(r->code[i], (PCRE2_SPTR)s, n, 0, 0, md, NULL);
  pcre2_match_data_free(md);
  return rc >= 0;
}

struct body_scan *probe_body_scan_new(const struct body_regexps *re)
{
  struct body_scan *s;
  size_t i;

  if (!re || !re->n)
    return NULL;
  s = xcalloc(1, sizeof(*s));
  s->re = re;
  s->p = xcalloc(re->n, sizeof(*s->p));
  s->undecided = re->n;
  for (i = 0; i < re->n; i++) {
    s->p[i].md = pcre2_match_data_create_from_pattern(re->code[i], NULL);
    if (!s->p[i].md)
      msg_die(4, "out of memory for a body regexp's match data");
  }
  return s;
}

void probe_body_scan_free(struct body_scan *s)
{
  size_t i;

  if (!s)
    return;
  for (i = 0; i < s->re->n; i++) {
    pcre2_match_data_free(s->p[i].md);
    free(s->p[i].keep);
  }
  free(s->p);
  free(s);
}

static void keep_set(struct pattern_scan *p, const char *from, size_t n)
{
  if (n > p->keep_cap) {
    p->keep_cap = n < 256 ? 256 : n;
    p->keep = xrealloc(p->keep, p->keep_cap);
  }
  memmove(p->keep, from, n);
  p->keep_len = n;
}

static void keep_add(struct pattern_scan *p, const char *data, size_t n)
{
  if (p->keep_len + n > p->keep_cap) {
    p->keep_cap = (p->keep_len + n) * 2;
    p->keep = xrealloc(p->keep, p->keep_cap);
  }
  memcpy(p->keep + p->keep_len, data, n);
  p->keep_len += n;
}

static void decide(struct body_scan *s, size_t i, int matched)
{
  struct pattern_scan *p = &s->p[i];

  p->done = 1;
  free(p->keep);
  p->keep = NULL;
  p->keep_len = p->keep_cap = 0;
  if (matched)
    s->matched |= 1u << i;
  s->undecided--;
}

/* Search pattern i in subj[0..n) (body offset at) from byte from; final:
 * the body ends with subj.  Keeps what the next chunk needs: the bytes of
 * a partial match, else the lookbehind context. */
static void search(struct body_scan *s, size_t i, const char *subj, size_t n,
                   size_t from, int64_t at, int final)
{
  struct pattern_scan *p = &s->p[i];
  pcre2_code *code = s->re->code[i];
  size_t lb = s->re->lookbehind[i], start = n, ctx, giveups = 0;
  uint32_t flags = final ? 0 : PCRE2_PARTIAL_HARD;
  int rc;

  for (;;) {
    rc = pcre2_match(code, (PCRE2_SPTR)subj, n, from,
                     flags | (at > 0 ? PCRE2_NOTBOL : 0), p->md, NULL);
    if (rc >= 0) {
      decide(s, i, 1);
      return;
    }
    if (final) {
      decide(s, i, 0);
      return;
    }
    if (rc != PCRE2_ERROR_PARTIAL) {
      start = n; /* no match can start in what was seen */
      break;
    }
    start = (size_t)pcre2_get_ovector_pointer(p->md)[0];
    if (n - start <= BODYRE_WINDOW)
      break;
    /* Longer than the window: give that start up and search on from the
     * next byte; after BODYRE_GIVEUPS, keep the last half window. */
    if (++giveups > BODYRE_GIVEUPS) {
      start = n - BODYRE_WINDOW / 2;
      break;
    }
    from = start + 1;
  }
  ctx = start < lb ? start : lb;
  keep_set(p, subj + start - ctx, n - (start - ctx));
  p->from = ctx;
  p->keep_at = at + (int64_t)(start - ctx);
}

/* Hand the complete-character bytes data[0..n) to every undecided
 * pattern. */
static void feed_whole(struct body_scan *s, const char *data, size_t n)
{
  size_t i;

  for (i = 0; i < s->re->n && s->undecided; i++) {
    struct pattern_scan *p = &s->p[i];

    if (p->done)
      continue;
    if (!p->keep_len) {
      search(s, i, data, n, 0, s->offset, 0);
      continue;
    }
    keep_add(p, data, n);
    /* search() rewrites keep from a part of itself: keep_set memmoves. */
    search(s, i, p->keep, p->keep_len, p->from, p->keep_at, 0);
  }
  s->offset += (int64_t)n;
}

/* Bytes a UTF-8 character that starts with c has, or 1 when c cannot
 * start one (ASCII, a continuation byte, C0, C1, F5 to FF): such a byte
 * is never held back, whatever follows it. */
static size_t utf8_need(unsigned char c)
{
  if (c >= 0xC2 && c <= 0xDF)
    return 2;
  if (c >= 0xE0 && c <= 0xEF)
    return 3;
  if (c >= 0xF0 && c <= 0xF4)
    return 4;
  return 1;
}

/* Bytes at the end of data[0..n) that start a UTF-8 character not yet
 * complete (0 to 3). */
static size_t utf8_incomplete(const unsigned char *d, size_t n)
{
  size_t back;

  for (back = 1; back <= 3 && back <= n; back++) {
    unsigned char c = d[n - back];

    if ((c & 0xC0) == 0x80)
      continue; /* a continuation byte: look further back */
    return utf8_need(c) > back ? back : 0;
  }
  return 0;
}

void probe_body_scan_feed(struct body_scan *s, const char *data, size_t n)
{
  size_t hold;

  if (!s || !s->undecided || !n)
    return;
  if (s->n_carry) {
    /* Complete the character split at the end of the last chunk with the
     * continuation bytes that follow; a byte that is not one ends it
     * (invalid UTF-8, handed on as it came, as a whole body would be). */
    size_t need = utf8_need(s->carry[0]);

    while (s->n_carry < need && n && ((unsigned char)*data & 0xC0) == 0x80) {
      s->carry[s->n_carry++] = (unsigned char)*data++;
      n--;
    }
    if (s->n_carry < need && !n)
      return; /* still not whole */
    feed_whole(s, (const char *)s->carry, s->n_carry);
    s->n_carry = 0;
    if (!n || !s->undecided)
      return;
  }
  hold = utf8_incomplete((const unsigned char *)data, n);
  if (n > hold)
    feed_whole(s, data, n - hold);
  memcpy(s->carry, data + n - hold, hold);
  s->n_carry = hold;
}

uint32_t probe_body_scan_end(struct body_scan *s)
{
  size_t i;

  if (!s)
    return 0;
  if (s->undecided) {
    /* The body is over: what was held back, then "$" at its true end. */
    for (i = 0; i < s->re->n; i++) {
      struct pattern_scan *p = &s->p[i];

      if (p->done)
        continue;
      if (s->n_carry)
        keep_add(p, (const char *)s->carry, s->n_carry);
      if (p->keep_len || !s->offset)
        search(s, i, p->keep ? p->keep : "", p->keep_len, p->from,
               p->keep_len ? p->keep_at : s->offset, 1);
      else
        decide(s, i, 0);
    }
  }
  return s->matched;
}
