/* Prints where the program's first small allocations land: the address of three malloc(24)
 * results modulo 64 (the offset within a cache line) and modulo 4096 (within a page). Used by
 * heap_shift_test.cc with libtare_heap_shift.so preloaded. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  for (int i = 0; i < 3; ++i) {
    void* p = malloc(24);
    printf("%lu %lu\n", (unsigned long)((uintptr_t)p % 64), (unsigned long)((uintptr_t)p % 4096));
  }
  return 0;
}
