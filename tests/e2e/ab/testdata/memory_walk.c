// The memory-bound pair of the cross-check (ab_sim_e2e_test.cc): the same loop over the same 8 MiB
// array, built twice. The next index is j = (a[j] * mul + add) mod 2^21 in both (a[j] == j, so
// each read waits for the one before: latency, not bandwidth); memory_walk_seq
// runs it with mul = 1, add = 1 (in order: one cache line per 16 reads, which the hardware
// prefetches), memory_walk_scatter (-DSCATTER) with an LCG's constants (a full-period scatter over
// the array: nearly every read misses the caches and the TLB) and makes 5% fewer reads. The
// constants are read through volatiles, so both builds run the very same loop code: the scattered
// one executes fewer instructions yet takes several times the CPU time, a time FAIL that is not
// more work. Usage: memory_walk_* [READS] (default 8000000).
#include <stdio.h>
#include <stdlib.h>

#define WORDS (2u << 20) /* 8 MiB of unsigned: a power of two, so & (WORDS - 1) wraps */

int main(int argc, char** argv) {
  unsigned long reads = argc > 1 ? strtoul(argv[1], NULL, 10) : 8000000ul;
  unsigned* a = malloc(WORDS * sizeof(unsigned));
  if (a == NULL) return 1;
  for (unsigned i = 0; i < WORDS; ++i) a[i] = i;
#ifdef SCATTER
  /* mul = 1 mod 4 and add odd: a full period mod 2^21 (Hull-Dobell), every word once per WORDS reads */
  static volatile unsigned mul_v = 1103515245u, add_v = 12345u;
  reads = reads / 100 * 95;
#else
  static volatile unsigned mul_v = 1u, add_v = 1u;
#endif
  const unsigned mul = mul_v, add = add_v;
  unsigned j = 0;
  unsigned long sum = 0;
  for (unsigned long i = 0; i < reads; ++i) {
    /* a[j] == j: the next index depends on the value read, so each read waits for the last */
    j = (a[j] * mul + add) & (WORDS - 1);
    sum += j;
  }
  printf("%lu\n", sum);
  free(a);
  return 0;
}
