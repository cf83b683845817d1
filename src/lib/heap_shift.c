/* libtare_heap_shift.so: what `tare ab --layouts K` preloads to move the heap (issue 42).
 *
 * Before main, one allocation that is never freed: with TARE_HEAP_SHIFT=n (a multiple of 16, at most
 * 1 MiB), a request of n - 8 bytes, which glibc's malloc serves as a chunk of exactly n bytes (its
 * 8-byte header, rounded up to 16) carved from the top of the main heap. Every later allocation the
 * program makes from there sits n bytes further on: layout k of `--layouts` uses k x 1040 bytes, 16
 * more than a KiB per layout, so four layouts put the program's heap at four offsets within a cache
 * line and at different offsets within a page. Allocations made before this constructor (the C and
 * C++ runtimes' own), large ones glibc serves with mmap (128 KiB and over) and other threads' arenas
 * do not move. No symbol is interposed: the program's malloc is the one it links. */
#include <errno.h>
#include <stdlib.h>

static void* volatile tare_heap_spacer; /* kept, so the chunk is never freed or optimised away */

__attribute__((constructor)) static void tare_heap_shift(void) {
  const char* text = getenv("TARE_HEAP_SHIFT");
  if (text == NULL || *text == '\0') return;
  char* end = NULL;
  errno = 0;
  const long n = strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || n < 16 || n > (1L << 20) || n % 16 != 0) return;
  tare_heap_spacer = malloc((size_t)n - 8);
}
