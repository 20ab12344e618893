/*
 * test_buf.c: the text buffer of buf.h: growth, NUL termination, caps and
 * the truncated flag, reset, detach and release, and streaming buffers
 * (sinks) with buf_flush and a failing sink.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "banned.h"

#include "check.h"

/* The sink chunk of buf.c: a streaming buffer holds at most this much
 * before it writes (plus one addition larger than it). */
#define CHUNK (64 * 1024)

static void check_buf(const char *row, const struct buf *b, const char *want,
                      size_t want_len)
{
  assert_non_null(b->s);
  CHECK_INT(row, b->len, want_len);
  if (memcmp(b->s, want, want_len)) {
    print_error("case %s: contents differ\n", row);
    fail();
  }
  CHECK_INT(row, b->s[b->len], '\0');
}

static void test_empty(void **state)
{
  struct buf b;
  char *s;

  (void)state;
  buf_init(&b, 0);
  check_buf("empty", &b, "", 0);
  CHECK_INT("empty", b.truncated, 0);
  assert_int_equal(buf_add(&b, "x", 0), 0);
  check_buf("add nothing", &b, "", 0);
  buf_reset(&b);
  check_buf("reset empty", &b, "", 0);
  /* Detaching an empty buffer still gives a string the caller frees. */
  s = buf_detach(&b);
  assert_non_null(s);
  CHECK_STR("detach empty", s, "");
  free(s);
  check_buf("after detach", &b, "", 0);
  buf_release(&b);
  check_buf("release empty", &b, "", 0);
}

static void test_grow(void **state)
{
  struct buf b;
  char *want = xmalloc(200001);
  size_t i;
  char *s;

  (void)state;
  buf_init(&b, 0);
  assert_int_equal(buf_puts(&b, "ab"), 0);
  assert_int_equal(buf_putc(&b, 'c'), 0);
  assert_int_equal(buf_add(&b, "d\0e", 3), 0); /* a NUL inside counts */
  check_buf("mixed", &b, "abcd\0e", 6);
  assert_int_equal(buf_printf(&b, "[%d|%s|%5.2f]", -42, "x", 3.14159), 0);
  check_buf("printf", &b, "abcd\0e[-42|x| 3.14]", 19);
  buf_reset(&b);
  check_buf("reset", &b, "", 0);
  /* Many small additions and one long printf: every byte kept, in order. */
  for (i = 0; i < 100000; i++) {
    want[i] = (char)('a' + i % 26);
    assert_int_equal(buf_putc(&b, want[i]), 0);
  }
  memset(want + 100000, 'z', 100000);
  want[200000] = '\0';
  assert_int_equal(buf_printf(&b, "%s", want + 100000), 0);
  check_buf("long", &b, want, 200000);
  assert_true(b.alloc > b.len);
  s = buf_detach(&b);
  CHECK_INT("detached", strlen(s), 200000);
  assert_memory_equal(s, want, 200000);
  free(s);
  check_buf("after detach", &b, "", 0);
  buf_release(&b);
  free(want);
}

/* A cap bounds len: an addition that would pass it is refused whole
 * (nothing of it is kept), returns -1 and sets truncated; the contents
 * stay as they were and NUL-terminated.  reset clears the flag. */
static void test_cap(void **state)
{
  struct buf b;
  char *s;

  (void)state;
  buf_init(&b, 10);
  assert_int_equal(buf_puts(&b, "12345"), 0);
  assert_int_equal(buf_puts(&b, "67890"), 0); /* exactly the cap */
  check_buf("at cap", &b, "1234567890", 10);
  CHECK_INT("at cap", b.truncated, 0);
  assert_int_equal(buf_putc(&b, 'x'), -1);
  check_buf("putc over", &b, "1234567890", 10);
  CHECK_INT("putc over", b.truncated, 1);
  assert_int_equal(buf_printf(&b, "%d", 7), -1);
  assert_int_equal(buf_add(&b, "", 0), 0); /* nothing always fits */
  check_buf("printf over", &b, "1234567890", 10);
  CHECK_INT("still truncated", b.truncated, 1);

  buf_reset(&b);
  CHECK_INT("reset", b.truncated, 0);
  assert_int_equal(buf_puts(&b, "0123456789abc"), -1); /* longer than cap */
  check_buf("too long at once", &b, "", 0);
  CHECK_INT("too long at once", b.truncated, 1);
  assert_int_equal(buf_printf(&b, "%s-%s", "abcd", "efgh"), 0); /* 9 */
  check_buf("printf fits", &b, "abcd-efgh", 9);
  assert_int_equal(buf_printf(&b, "%s", "ij"), -1);
  check_buf("printf over", &b, "abcd-efgh", 9);

  /* Detach and release keep the cap for the next use. */
  s = buf_detach(&b);
  CHECK_STR("detach", s, "abcd-efgh");
  free(s);
  CHECK_INT("detach keeps cap", b.cap, 10);
  CHECK_INT("detach clears flag", b.truncated, 0);
  assert_int_equal(buf_puts(&b, "12345678901"), -1);
  buf_release(&b);
  CHECK_INT("release keeps cap", b.cap, 10);
  check_buf("release", &b, "", 0);
  assert_int_equal(buf_puts(&b, "1234567890"), 0);
  buf_release(&b);
}

static char *read_all(FILE *f, size_t *len)
{
  long n;
  char *s;

  assert_int_equal(fflush(f), 0);
  n = ftell(f);
  assert_true(n >= 0);
  rewind(f);
  s = xmalloc((size_t)n + 1);
  assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
  s[n] = '\0';
  *len = (size_t)n;
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  return s;
}

/*
 * A streaming buffer: nothing reaches the file while it holds at most a
 * chunk; past that, what it held is written and it starts over, so it
 * never holds (or allocates) much more than a chunk however much goes
 * through it; buf_flush writes the rest and leaves it empty.  A second
 * flush writes nothing.
 */
static void test_sink(void **state)
{
  FILE *f = tmpfile();
  struct buf b;
  size_t total = 0, len, i, max_alloc = 0;
  char piece[1000], *got;
  char *want = xmalloc(5 + 1100 * 1000 + CHUNK + 1);

  (void)state;
  assert_non_null(f);
  buf_init_sink(&b, fileno(f));
  assert_int_equal(buf_puts(&b, "head "), 0);
  got = read_all(f, &len);
  CHECK_INT("small: nothing written yet", len, 0);
  free(got);
  memcpy(want, "head ", 5);
  total = 5;
  for (i = 0; i < 1100; i++) {
    memset(piece, (int)('A' + i % 26), sizeof(piece));
    assert_int_equal(buf_add(&b, piece, sizeof(piece)), 0);
    memcpy(want + total, piece, sizeof(piece));
    total += sizeof(piece);
    assert_true(b.len <= CHUNK);
    if (b.alloc > max_alloc)
      max_alloc = b.alloc;
  }
  assert_true(max_alloc <= 2 * CHUNK);
  got = read_all(f, &len);
  /* Everything but what the buffer holds is in the file, in order. */
  CHECK_INT("streamed", len + b.len, total);
  assert_true(len >= total - CHUNK);
  assert_memory_equal(got, want, len);
  assert_memory_equal(b.s, want + len, b.len);
  free(got);
  /* One addition larger than a chunk: what was held goes first. */
  for (i = 0; i < CHUNK + 1; i++)
    want[total + i] = (char)('0' + i % 10);
  assert_int_equal(buf_add(&b, want + total, CHUNK + 1), 0);
  total += CHUNK + 1;
  assert_int_equal(buf_flush(&b), 0);
  check_buf("flushed", &b, "", 0);
  got = read_all(f, &len);
  CHECK_INT("all", len, total);
  assert_memory_equal(got, want, total);
  free(got);
  assert_int_equal(buf_flush(&b), 0);
  got = read_all(f, &len);
  CHECK_INT("second flush", len, total);
  free(got);
  /* Release keeps the sink. */
  buf_release(&b);
  CHECK_INT("sink kept", b.sink, fileno(f));
  assert_int_equal(buf_printf(&b, "%s", "tail"), 0);
  assert_int_equal(buf_flush(&b), 0);
  got = read_all(f, &len);
  CHECK_INT("tail", len, total + 4);
  assert_memory_equal(got + total, "tail", 4);
  free(got);
  buf_release(&b);
  free(want);
  fclose(f);
}

/* A sink that refuses writes (a descriptor open for reading only):
 * buf_flush says -1 with the write's errno, and keeps saying it; the
 * buffer is emptied all the same. */
static void test_sink_fails(void **state)
{
  FILE *f = fopen("/dev/null", "r");
  struct buf b;

  (void)state;
  assert_non_null(f);
  buf_init_sink(&b, fileno(f));
  assert_int_equal(buf_puts(&b, "lost"), 0);
  assert_int_equal(buf_flush(&b), -1);
  CHECK_INT("failed", b.sink_failed, 1);
  CHECK_INT("errno", b.sink_errno, EBADF);
  check_buf("failed", &b, "", 0);
  assert_int_equal(buf_flush(&b), -1);
  buf_release(&b);
  fclose(f);
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
  (void)sig;
  alarms++;
}

/* buf_write_fd writes everything through signals that interrupt it
 * (EINTR, or a short write of what fit): a child reads 1 MiB from a pipe
 * slowly while SIGALRM, without SA_RESTART, fires every millisecond. */
static void test_write_fd_eintr(void **state)
{
  enum { N = 1 << 20 };
  char *data = xmalloc(N);
  struct sigaction sa, old;
  struct itimerval it;
  int fds[2], status;
  pid_t pid;
  size_t i;

  (void)state;
  for (i = 0; i < N; i++)
    data[i] = (char)(i * 7 + i / 4096);
  assert_int_equal(pipe(fds), 0);
  pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    size_t got = 0;
    char chunk[4096];
    ssize_t n;
    struct timespec ts = {0, 200000};

    close(fds[1]);
    while ((n = read(fds[0], chunk, sizeof(chunk))) > 0) {
      if (memcmp(chunk, data + got, (size_t)n))
        _exit(2);
      got += (size_t)n;
      nanosleep(&ts, NULL);
    }
    _exit(got == N ? 0 : 1);
  }
  close(fds[0]);
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_alarm;
  sigemptyset(&sa.sa_mask);
  assert_int_equal(sigaction(SIGALRM, &sa, &old), 0);
  memset(&it, 0, sizeof(it));
  it.it_interval.tv_usec = 1000;
  it.it_value.tv_usec = 1000;
  assert_int_equal(setitimer(ITIMER_REAL, &it, NULL), 0);
  CHECK_INT("written", buf_write_fd(fds[1], data, N), 0);
  memset(&it, 0, sizeof(it));
  setitimer(ITIMER_REAL, &it, NULL);
  sigaction(SIGALRM, &old, NULL);
  close(fds[1]);
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(alarms > 0);
  CHECK_INT("child read it all, in order",
            WIFEXITED(status) ? WEXITSTATUS(status) : 99, 0);
  free(data);
}

/* Without a sink, buf_flush does nothing and succeeds. */
static void test_flush_no_sink(void **state)
{
  struct buf b;

  (void)state;
  buf_init(&b, 0);
  assert_int_equal(buf_puts(&b, "kept"), 0);
  assert_int_equal(buf_flush(&b), 0);
  check_buf("no sink", &b, "kept", 4);
  buf_release(&b);
}

static int vwrap(struct buf *b, const char *fmt, ...) MSG_PRINTF(2, 3);
static int vwrap(struct buf *b, const char *fmt, ...)
{
  va_list ap;
  int rc;

  va_start(ap, fmt);
  rc = buf_vprintf(b, fmt, ap);
  va_end(ap);
  return rc;
}

static void test_vprintf(void **state)
{
  struct buf b;

  (void)state;
  buf_init(&b, 8);
  assert_int_equal(vwrap(&b, "%s=%03d", "ab", 7), 0);
  check_buf("vprintf", &b, "ab=007", 6);
  assert_int_equal(vwrap(&b, "%s", "xyz"), -1);
  check_buf("vprintf over cap", &b, "ab=007", 6);
  CHECK_INT("vprintf over cap", b.truncated, 1);
  buf_release(&b);
}

/* One table: input, then what buf_put_vis, buf_put_html and buf_put_prom
 * append.  The bytes a terminal acts on come out as \xNN: C0, DEL, C1
 * (U+009B is CSI), bytes that are not UTF-8 and the bidirectional controls
 * (CVE-2021-42574); other UTF-8 stays. */
static void test_put_vis(void **state)
{
  static const struct {
    const char *in, *vis, *html, *prom;
  } rows[] = {
      {"plain", "plain", "plain", "plain"},
      {"a\033[8mb", "a\\x1b[8mb", "a\\x1b[8mb", "a\\\\x1b[8mb"},
      {"\r\b\t\n\177", "\\x0d\\x08\\x09\\x0a\\x7f",
       "\\x0d\\x08\\x09\\x0a\\x7f", "\\\\x0d\\\\x08\\\\x09\\\\x0a\\\\x7f"},
      {"\302\2332J", "\\xc2\\x9b2J", "\\xc2\\x9b2J", "\\\\xc2\\\\x9b2J"},
      {"HIT\342\200\256NIW", "HIT\\xe2\\x80\\xaeNIW", "HIT\\xe2\\x80\\xaeNIW",
       "HIT\\\\xe2\\\\x80\\\\xaeNIW"},
      {"\342\201\246\342\200\217\330\234",
       "\\xe2\\x81\\xa6\\xe2\\x80\\x8f\\xd8\\x9c",
       "\\xe2\\x81\\xa6\\xe2\\x80\\x8f\\xd8\\x9c",
       "\\\\xe2\\\\x81\\\\xa6\\\\xe2\\\\x80\\\\x8f\\\\xd8\\\\x9c"},
      /* U+2014 and U+00E9 are text. */
      {"a\342\200\224\303\251", "a\342\200\224\303\251",
       "a\342\200\224\303\251", "a\342\200\224\303\251"},
      {"\377<\"&>\\", "\\xff<\"&>\\", "\\xff&lt;&quot;&amp;&gt;\\",
       "\\\\xff<\\\"&>\\\\"},
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
    struct buf b;

    buf_init(&b, 0);
    buf_put_vis(&b, rows[i].in);
    check_buf(rows[i].in, &b, rows[i].vis, strlen(rows[i].vis));
    buf_reset(&b);
    buf_put_html(&b, rows[i].in);
    check_buf(rows[i].in, &b, rows[i].html, strlen(rows[i].html));
    buf_reset(&b);
    buf_put_prom(&b, rows[i].in);
    check_buf(rows[i].in, &b, rows[i].prom, strlen(rows[i].prom));
    buf_release(&b);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_empty),
      cmocka_unit_test(test_grow),
      cmocka_unit_test(test_cap),
      cmocka_unit_test(test_sink),
      cmocka_unit_test(test_sink_fails),
      cmocka_unit_test(test_write_fd_eintr),
      cmocka_unit_test(test_flush_no_sink),
      cmocka_unit_test(test_vprintf),
      cmocka_unit_test(test_put_vis),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
