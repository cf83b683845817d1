/* A tiny program with a known call structure, profiled by real valgrind in the tests.
 *
 *   callgrind_demo            four measurement windows opened and closed with callgrind client
 *                             requests, as a tare benchmark binary does (run with
 *                             --instr-atstart=no):
 *                               demo::compute    loop(1000) -> leaf() x1000, and fib(12): 465 calls
 *                               demo::syscalls   20 write()s of 64 KiB to /dev/null
 *                               demo::nothing    an empty window
 *                               demo::iterations N iterations of leaf(); N = argv[1] (default 100)
 *   callgrind_demo whole [N]  no client requests: the whole process is the measurement.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <valgrind/callgrind.h>

#include "callgrind_demo_mix.h"

__attribute__((noinline)) unsigned long leaf(unsigned long x) { return demo_mix(x) + 1; }

/* The empty asm keeps gcc from turning the second recursive call into a loop (tail recursion
 * with an accumulator), so fib(12) really makes 2 * fib(13) - 1 = 465 calls. */
__attribute__((noinline)) unsigned long fib(int n) {
  if (n < 2) return (unsigned long)n;
  unsigned long r = fib(n - 1) + fib(n - 2);
  __asm__ volatile("" : "+r"(r));
  return r;
}

__attribute__((noinline)) unsigned long loop(int n) {
  unsigned long s = 0;
  for (int i = 0; i < n; i++) s += leaf((unsigned long)i);
  return s;
}

#define WINDOW_OPEN() \
  do { \
    CALLGRIND_ZERO_STATS; \
    CALLGRIND_START_INSTRUMENTATION; \
  } while (0)
#define WINDOW_CLOSE(name) \
  do { \
    CALLGRIND_STOP_INSTRUMENTATION; \
    CALLGRIND_DUMP_STATS_AT(name); \
  } while (0)

int main(int argc, char** argv) {
  volatile unsigned long sink = 0;
  int whole = argc > 1 && strcmp(argv[1], "whole") == 0;
  const char* n_arg = whole ? (argc > 2 ? argv[2] : NULL) : (argc > 1 ? argv[1] : NULL);
  int iterations = n_arg ? atoi(n_arg) : 100;
  if (whole) {
    sink = loop(1000) + fib(12);
    for (int i = 0; i < iterations; i++) sink += leaf((unsigned long)i);
    return sink == 42;
  }

  int fd = open("/dev/null", O_WRONLY);
  char* buf = malloc(1 << 16);
  memset(buf, 1, 1 << 16);

  WINDOW_OPEN();
  sink = loop(1000) + fib(12);
  WINDOW_CLOSE("demo::compute");

  WINDOW_OPEN();
  for (int i = 0; i < 20; i++) sink += (unsigned long)write(fd, buf, 1 << 16);
  WINDOW_CLOSE("demo::syscalls");

  WINDOW_OPEN();
  WINDOW_CLOSE("demo::nothing");

  WINDOW_OPEN();
  for (int i = 0; i < iterations; i++) sink += leaf((unsigned long)i);
  WINDOW_CLOSE("demo::iterations");

  free(buf);
  close(fd);
  return sink == 42;
}
