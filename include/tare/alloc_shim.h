/* libtare_alloc.so — the allocation-counting shim behind tare's `mem` instrument. C ABI only.
 *
 * Load it with LD_PRELOAD=/path/to/libtare_alloc.so. It interposes malloc, calloc, realloc,
 * reallocarray, free, aligned_alloc, posix_memalign, memalign, valloc, pvalloc and
 * malloc_usable_size; C++ operator new/delete reach these through libstdc++. Every call is
 * forwarded to the next definition (glibc's allocator), so the program behaves as without it.
 *
 * What is counted (atomically, from any thread):
 *   allocs           successful allocation calls; realloc(p, n) with p != NULL and n > 0 counts
 *                    one alloc and one free (the block may move); realloc(NULL, n) is an alloc
 *   frees            free(p) with p != NULL, and the free half of a moving-or-not realloc
 *   bytes_allocated  sum of the sizes requested (calloc: count * size)
 *   peak_live_bytes  the highest live heap reached, in the allocator's usable bytes
 *                    (malloc_usable_size of each live block: what the program actually holds,
 *                    >= the requested size; glibc rounds to 16-byte chunks minus 8 bytes)
 * free(NULL) and failed allocations are not counted.
 *
 * Window (used by the tare library inside a benchmark child, found with dlsym(RTLD_DEFAULT)):
 *   tare_alloc_window_begin() starts a window; tare_alloc_window_end(&stats) fills `stats` with
 *   the counts since the begin, and peak_live_bytes with the highest live heap reached during
 *   the window minus the live heap at its begin (the extra memory the measured code needed; 0 if
 *   it only freed). One window at a time per process.
 *
 * Whole process: when the environment has TARE_ALLOC_OUT=<path> at start-up, the process appends
 * one JSON line at exit (from a shared-library destructor, so _exit() and fatal signals skip it):
 *   {"pid":1234,"allocs":10,"frees":9,"bytes_allocated":4096,"peak_live_bytes":4120}
 * Child processes inherit LD_PRELOAD and TARE_ALLOC_OUT and append their own lines; readers pick
 * the line of the pid they spawned.
 */
#ifndef TARE_ALLOC_SHIM_H_
#define TARE_ALLOC_SHIM_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TARE_ALLOC_ABI_VERSION 1

struct tare_alloc_stats {
  uint64_t allocs;
  uint64_t frees;
  uint64_t bytes_allocated;
  uint64_t peak_live_bytes;
};

/* TARE_ALLOC_ABI_VERSION of the loaded shim; callers refuse a mismatch. */
int tare_alloc_abi_version(void);
void tare_alloc_window_begin(void);
void tare_alloc_window_end(struct tare_alloc_stats* out);
/* Whole-process figures so far (peak_live_bytes: the process's highest live heap). */
void tare_alloc_totals(struct tare_alloc_stats* out);
/* Diagnostic: bytes served from the static bootstrap buffer while the shim resolved the real
 * allocator (dlsym may allocate; those blocks are never counted). 0 on glibc >= 2.34 unless
 * TARE_ALLOC_SELFTEST_BOOTSTRAP=1 forces a failing lookup at start-up. */
size_t tare_alloc_bootstrap_bytes(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TARE_ALLOC_SHIM_H_ */
