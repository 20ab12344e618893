/*
 * probe_body.c: a request body streamed from a file (-T FILE, a lone
 * --data-binary @FILE), opened for each hop that sends it and read by
 * libcurl's read callback as the request goes out, so that a body of any
 * size costs a buffer, never its size in memory.  Input: the path and the
 * size the file had when the option was read.  Output: the easy handle's
 * upload options; after the transfer, whether the file kept its size.
 */
#include <curl/curl.h>
#include <sys/stat.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "curl_api_int.h"
#include "probe_int.h"
#include "banned.h"

static size_t on_read(char *ptr, size_t size, size_t nitems, void *data)
{
  struct body_src *b = data;
  size_t want = size * nitems;
  ssize_t n;

  /* Never more than the size announced in Content-Length: a file that
   * grew is found after the transfer. */
  if ((int64_t)want > b->size - b->sent)
    want = (size_t)(b->size - b->sent);
  if (!want)
    return 0;
  do
    n = read(b->fd, ptr, want);
  while (n < 0 && errno == EINTR);
  if (n < 0) {
    b->read_errno = errno;
    return CURL_READFUNC_ABORT;
  }
  if (n == 0) {
    b->short_read = 1; /* shrank: libcurl would wait for bytes that never
                        * come */
    return CURL_READFUNC_ABORT;
  }
  b->sent += n;
  return (size_t)n;
}

/* libcurl rewinds when it must send the body again on the same transfer
 * (a connection that was closed before the request got through). */
static int on_seek(void *data, curl_off_t offset, int origin)
{
  struct body_src *b = data;

  if (origin != SEEK_SET || lseek(b->fd, (off_t)offset, SEEK_SET) < 0)
    return CURL_SEEKFUNC_CANTSEEK;
  b->sent = (int64_t)offset;
  return CURL_SEEKFUNC_OK;
}

int probe_body_open(struct body_src *b, const char *path, int64_t size,
                    char *err, size_t errlen)
{
  struct stat st;

  memset(b, 0, sizeof(*b));
  b->fd = -1;
  b->path = path;
  b->size = size;
  b->fd = open(path, O_RDONLY | O_CLOEXEC);
  if (b->fd < 0) {
    snprintf(err, errlen, "cannot read the body file '%s': %s", path,
             strerror(errno));
    return -1;
  }
  if (fstat(b->fd, &st) < 0 || (int64_t)st.st_size != size) {
    snprintf(err, errlen,
             "the body file '%s' changed size during the run (%lld bytes "
             "when the run began, %lld now): every sample must send the "
             "same bytes",
             path, (long long)size, (long long)st.st_size);
    close(b->fd);
    b->fd = -1;
    return -1;
  }
#ifdef POSIX_FADV_SEQUENTIAL
  (void)posix_fadvise(b->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  return 0;
}

void probe_body_setopt(const struct curl_api *api, void *easy,
                       struct body_src *b, int upload, const char *method)
{
  CURL *e = easy;

  api->easy_setopt(e, CURLOPT_READFUNCTION, on_read);
  api->easy_setopt(e, CURLOPT_READDATA, b);
  api->easy_setopt(e, CURLOPT_SEEKFUNCTION, on_seek);
  api->easy_setopt(e, CURLOPT_SEEKDATA, b);
  if (upload) {
    /* curl -T: an upload, PUT over HTTP, Content-Length the size. */
    api->easy_setopt(e, CURLOPT_UPLOAD, 1L);
    api->easy_setopt(e, CURLOPT_INFILESIZE_LARGE, (curl_off_t)b->size);
    if (strcmp(method, "PUT"))
      api->easy_setopt(e, CURLOPT_CUSTOMREQUEST, method);
  }
  else {
    /* curl --data-binary @FILE: a POST of the file's bytes. */
    api->easy_setopt(e, CURLOPT_POST, 1L);
    api->easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)b->size);
    if (strcmp(method, "POST"))
      api->easy_setopt(e, CURLOPT_CUSTOMREQUEST, method);
  }
}

int probe_body_close(struct body_src *b, char *err, size_t errlen)
{
  struct stat st;
  int rc = 0;

  if (b->fd < 0)
    return 0;
  if (b->read_errno) {
    snprintf(err, errlen, "cannot read the body file '%s': %s", b->path,
             strerror(b->read_errno));
    rc = -1;
  }
  else if (b->short_read ||
           (fstat(b->fd, &st) == 0 && (int64_t)st.st_size != b->size)) {
    snprintf(err, errlen,
             "the body file '%s' changed size during the sample (%lld bytes "
             "when the run began%s): every sample must send the same bytes",
             b->path, (long long)b->size,
             b->short_read ? ", it ended early" : ", another size now");
    rc = -1;
  }
  close(b->fd);
  b->fd = -1;
  return rc;
}
