/* Loads libtare_origin_lib.so through DT_RUNPATH "$ORIGIN", as installed trees and many build trees
   do: it runs only where the loader finds the library beside the executable (or through
   LD_LIBRARY_PATH). tare ab must run it from its arm copies. */
#include <stdio.h>

unsigned long origin_lib_work(unsigned long n);

int main(void) {
  printf("%lu\n", origin_lib_work(2000000UL));
  return 0;
}
