/*
 * peakrss: run a command with its output to /dev/null and print its peak
 * resident set size, minor faults and CPU time:
 *
 *   peakrss [-o FILE] CMD [ARG ...]  ->  "maxrss_kib minflt cpu_us status\n"
 *
 * With -o the command's stdout goes to FILE (created, truncated) instead.
 *
 * Why not getrusage of a child spawned from Python: posix_spawn shares the
 * parent's memory until exec (vfork), and Linux carries the high-water mark
 * of the memory left at exec into the new program's ru_maxrss, so every
 * child of a 14 MiB Python process "peaks" at 14 MiB or more.  This helper
 * is small and fork()s: the child starts from a fresh signal struct and a
 * copy of this process's ~1 MiB, and exec's hopsplit from there.
 */
#define _DEFAULT_SOURCE /* wait4 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
  struct rusage ru;
  int status, fd, out = -1;
  pid_t pid;

  if (argc > 2 && argv[1][0] == '-' && argv[1][1] == 'o' && !argv[1][2]) {
    out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out < 0) {
      perror(argv[2]);
      return 2;
    }
    argc -= 2;
    argv += 2;
  }
  if (argc < 2) {
    fputs("usage: peakrss [-o FILE] CMD [ARG ...]\n", stderr);
    return 2;
  }
  fflush(stdout);
  pid = fork();
  if (pid < 0) {
    perror("peakrss: fork");
    return 2;
  }
  if (pid == 0) {
    fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (fd < 0 || dup2(out >= 0 ? out : fd, 1) < 0 || dup2(fd, 2) < 0)
      _exit(126);
    execv(argv[1], argv + 1);
    _exit(127);
  }
  if (wait4(pid, &status, 0, &ru) != pid) {
    perror("peakrss: wait4");
    return 2;
  }
  printf("%ld %ld %ld %d\n", ru.ru_maxrss, ru.ru_minflt,
         (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000L +
             ru.ru_utime.tv_usec + ru.ru_stime.tv_usec,
         WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
  return 0;
}
