// A program whose cost differs from run to run: it loops and allocates in proportion to a number
// taken from its PID and the clock, so under --instrument sim its instruction count, and under
// --instrument mem its allocation count, are not deterministic. The fixture of the exact plan's
// fallback (ab_sim_e2e_test.cc): two runs agree by chance about once in a thousand.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(void) {
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  const unsigned n = ((unsigned)getpid() * 7u + (unsigned)(now.tv_nsec / 1000)) % 1000u + 1u;
  volatile unsigned long sum = 0;
  for (unsigned long i = 0; i < n * 100ul; ++i) sum += i;
  static char* volatile kept[1001];
  for (unsigned i = 0; i < n; ++i) {
    kept[i] = malloc(16);
    if (kept[i] != NULL) kept[i][0] = 1;
  }
  for (unsigned i = 0; i < n; ++i) free(kept[i]);
  printf("%lu\n", (unsigned long)sum);
  return 0;
}
