/* libtare_alloc.so: counts heap allocations for tare's `mem` instrument. Contract and the
 * meaning of each figure: include/tare/alloc_shim.h.
 *
 * Design notes.
 * - Forwarding: the real functions are found with dlsym(RTLD_NEXT, ...), so the shim works in
 *   front of any allocator that comes after it (glibc's, or a linked-in jemalloc). Every pointer
 *   handed out is the real allocator's own, so nothing in the heap layout changes.
 * - Bootstrap: dlsym may itself allocate (older glibc calls calloc for its error buffer). While the
 *   symbols are being resolved, requests are served from a static bump buffer; those blocks are
 *   recognised by address, never passed to the real free, and not counted.
 * - Live bytes use malloc_usable_size() of each block, taken before free. A size table or a
 *   header in front of each block would report requested sizes instead, but a header breaks
 *   pointers that glibc's dynamic loader allocates before the shim is reachable and later
 *   reallocates through it; the usable size needs no bookkeeping and cannot get out of step.
 * - Counters are relaxed atomics: every count is exact from any number of threads; the window's
 *   peak is exact for a single thread and for threads that do not race the window's begin/end.
 */
#define _GNU_SOURCE
#include "tare/alloc_shim.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SHIM_EXPORT __attribute__((visibility("default")))

/* ---- the real allocator ------------------------------------------------------------------- */

static void* (*real_malloc)(size_t);
static void* (*real_calloc)(size_t, size_t);
static void* (*real_realloc)(void*, size_t);
static void (*real_free)(void*);
static void* (*real_aligned_alloc)(size_t, size_t);
static int (*real_posix_memalign)(void**, size_t, size_t);
static void* (*real_memalign)(size_t, size_t);
static void* (*real_valloc)(size_t);
static void* (*real_pvalloc)(size_t);
static size_t (*real_malloc_usable_size)(void*);

enum { kUnresolved = 0, kResolving = 1, kResolved = 2 };
static atomic_int resolve_state = kUnresolved;

/* Bump allocator for the bootstrap. Each block carries its size in a 16-byte header. */
static _Alignas(64) unsigned char bootstrap_buffer[64 * 1024];
static atomic_size_t bootstrap_used;

static int is_bootstrap(const void* p) {
  const unsigned char* c = (const unsigned char*)p;
  return c >= bootstrap_buffer && c < bootstrap_buffer + sizeof bootstrap_buffer;
}

static void* bootstrap_alloc(size_t size, size_t alignment) {
  if (alignment < 16) alignment = 16;
  size_t need = 16 + size + alignment;
  size_t start = atomic_fetch_add(&bootstrap_used, need);
  if (start + need > sizeof bootstrap_buffer) {
    errno = ENOMEM;
    return NULL;
  }
  uintptr_t base = (uintptr_t)(bootstrap_buffer + start + 16);
  uintptr_t aligned = (base + alignment - 1) & ~(uintptr_t)(alignment - 1);
  ((size_t*)aligned)[-1] = size;
  return (void*)aligned;
}

static size_t bootstrap_size(const void* p) { return ((const size_t*)p)[-1]; }

static void resolve(void) {
  int expected = kUnresolved;
  if (!atomic_compare_exchange_strong(&resolve_state, &expected, kResolving)) return;
  /* Self-test of the bootstrap (glibc >= 2.34 no longer allocates in a successful dlsym, so the
   * path would otherwise go untested here): a failing lookup makes dlsym allocate its error
   * message through this very malloc. */
  const char* selftest = getenv("TARE_ALLOC_SELFTEST_BOOTSTRAP");
  if (selftest && selftest[0] == '1') {
    (void)dlsym(RTLD_NEXT, "tare_alloc_no_such_symbol");
    (void)dlerror();
  }
  real_malloc = (void* (*)(size_t))dlsym(RTLD_NEXT, "malloc");
  real_calloc = (void* (*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
  real_realloc = (void* (*)(void*, size_t))dlsym(RTLD_NEXT, "realloc");
  real_free = (void (*)(void*))dlsym(RTLD_NEXT, "free");
  real_aligned_alloc = (void* (*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
  real_posix_memalign = (int (*)(void**, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
  real_memalign = (void* (*)(size_t, size_t))dlsym(RTLD_NEXT, "memalign");
  real_valloc = (void* (*)(size_t))dlsym(RTLD_NEXT, "valloc");
  real_pvalloc = (void* (*)(size_t))dlsym(RTLD_NEXT, "pvalloc");
  real_malloc_usable_size = (size_t(*)(void*))dlsym(RTLD_NEXT, "malloc_usable_size");
  if (!real_malloc || !real_calloc || !real_realloc || !real_free || !real_malloc_usable_size) {
    static const char kMsg[] =
        "libtare_alloc: cannot find the real malloc/free with dlsym(RTLD_NEXT); is the shim "
        "loaded in front of a C library?\n";
    ssize_t ignored = write(2, kMsg, sizeof kMsg - 1);
    (void)ignored;
    abort();
  }
  atomic_store(&resolve_state, kResolved);
}

/* True when the real functions are usable; false while resolving (serve from the bootstrap). */
static inline int ready(void) {
  if (__builtin_expect(atomic_load_explicit(&resolve_state, memory_order_acquire) == kResolved, 1)) return 1;
  resolve();
  return atomic_load(&resolve_state) == kResolved;
}

/* ---- counting ----------------------------------------------------------------------------- */

static atomic_uint_fast64_t total_allocs;
static atomic_uint_fast64_t total_frees;
static atomic_uint_fast64_t total_bytes;
static atomic_int_fast64_t live_bytes;
static atomic_int_fast64_t process_peak;
static atomic_int_fast64_t window_peak;

static uint64_t window_allocs0, window_frees0, window_bytes0;
static int64_t window_live0;

static inline void raise_to(atomic_int_fast64_t* peak, int64_t live) {
  int64_t seen = atomic_load_explicit(peak, memory_order_relaxed);
  while (live > seen &&
         !atomic_compare_exchange_weak_explicit(peak, &seen, live, memory_order_relaxed, memory_order_relaxed)) {
  }
}

static inline void add_live(int64_t delta) {
  int64_t live = atomic_fetch_add_explicit(&live_bytes, delta, memory_order_relaxed) + delta;
  if (delta > 0) {
    raise_to(&process_peak, live);
    raise_to(&window_peak, live);
  }
}

static inline void note_alloc(void* p, size_t requested) {
  atomic_fetch_add_explicit(&total_allocs, 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&total_bytes, requested, memory_order_relaxed);
  add_live((int64_t)real_malloc_usable_size(p));
}

static inline void note_free_of_size(size_t usable) {
  atomic_fetch_add_explicit(&total_frees, 1, memory_order_relaxed);
  add_live(-(int64_t)usable);
}

/* ---- the interposed functions ------------------------------------------------------------- */

SHIM_EXPORT void* malloc(size_t size) {
  if (!ready()) return bootstrap_alloc(size, 16);
  void* p = real_malloc(size);
  if (p) note_alloc(p, size);
  return p;
}

SHIM_EXPORT void* calloc(size_t count, size_t size) {
  size_t bytes;
  int overflow = __builtin_mul_overflow(count, size, &bytes);
  if (!ready()) {
    if (overflow) return NULL;
    void* p = bootstrap_alloc(bytes, 16);
    if (p) memset(p, 0, bytes); /* the static buffer is zero, but be explicit */
    return p;
  }
  void* p = real_calloc(count, size);
  if (p) note_alloc(p, bytes);
  return p;
}

SHIM_EXPORT void free(void* p) {
  if (!p || is_bootstrap(p)) return;
  if (!ready()) return; /* cannot happen: a non-bootstrap block implies resolved */
  note_free_of_size(real_malloc_usable_size(p));
  real_free(p);
}

static void* realloc_impl(void* p, size_t size) {
  if (!p) return malloc(size);
  if (is_bootstrap(p)) {
    void* q = malloc(size);
    if (q) {
      size_t old = bootstrap_size(p);
      memcpy(q, p, old < size ? old : size);
    }
    return q;
  }
  if (!ready()) return NULL;
  size_t old_usable = real_malloc_usable_size(p);
  if (size == 0) {
    /* glibc frees the block and returns NULL (REALLOC_ZERO_BYTES_FREES). */
    void* q = real_realloc(p, 0);
    if (!q) {
      note_free_of_size(old_usable);
    } else {
      atomic_fetch_add_explicit(&total_allocs, 1, memory_order_relaxed);
      atomic_fetch_add_explicit(&total_frees, 1, memory_order_relaxed);
      add_live((int64_t)real_malloc_usable_size(q) - (int64_t)old_usable);
    }
    return q;
  }
  void* q = real_realloc(p, size);
  if (q) {
    atomic_fetch_add_explicit(&total_allocs, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&total_frees, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&total_bytes, size, memory_order_relaxed);
    add_live((int64_t)real_malloc_usable_size(q) - (int64_t)old_usable);
  }
  return q;
}

SHIM_EXPORT void* realloc(void* p, size_t size) { return realloc_impl(p, size); }

SHIM_EXPORT void* reallocarray(void* p, size_t count, size_t size) {
  size_t bytes;
  if (__builtin_mul_overflow(count, size, &bytes)) {
    errno = ENOMEM;
    return NULL;
  }
  return realloc_impl(p, bytes);
}

SHIM_EXPORT void* aligned_alloc(size_t alignment, size_t size) {
  if (!ready()) return bootstrap_alloc(size, alignment);
  void* p = real_aligned_alloc(alignment, size);
  if (p) note_alloc(p, size);
  return p;
}

SHIM_EXPORT int posix_memalign(void** out, size_t alignment, size_t size) {
  if (!ready()) {
    void* p = bootstrap_alloc(size, alignment);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
  }
  int rc = real_posix_memalign(out, alignment, size);
  if (rc == 0 && *out) note_alloc(*out, size);
  return rc;
}

SHIM_EXPORT void* memalign(size_t alignment, size_t size) {
  if (!ready()) return bootstrap_alloc(size, alignment);
  void* p = real_memalign(alignment, size);
  if (p) note_alloc(p, size);
  return p;
}

SHIM_EXPORT void* valloc(size_t size) {
  if (!ready()) return bootstrap_alloc(size, 4096);
  void* p = real_valloc(size);
  if (p) note_alloc(p, size);
  return p;
}

SHIM_EXPORT void* pvalloc(size_t size) {
  if (!ready()) return bootstrap_alloc(size, 4096);
  void* p = real_pvalloc(size);
  if (p) note_alloc(p, size);
  return p;
}

SHIM_EXPORT size_t malloc_usable_size(void* p) {
  if (!p) return 0;
  if (is_bootstrap(p)) return bootstrap_size(p);
  if (!ready()) return 0;
  return real_malloc_usable_size(p);
}

/* ---- window and totals -------------------------------------------------------------------- */

SHIM_EXPORT int tare_alloc_abi_version(void) { return TARE_ALLOC_ABI_VERSION; }

SHIM_EXPORT size_t tare_alloc_bootstrap_bytes(void) { return atomic_load(&bootstrap_used); }

SHIM_EXPORT void tare_alloc_window_begin(void) {
  window_allocs0 = atomic_load(&total_allocs);
  window_frees0 = atomic_load(&total_frees);
  window_bytes0 = atomic_load(&total_bytes);
  window_live0 = atomic_load(&live_bytes);
  atomic_store(&window_peak, window_live0);
}

SHIM_EXPORT void tare_alloc_window_end(struct tare_alloc_stats* out) {
  out->allocs = atomic_load(&total_allocs) - window_allocs0;
  out->frees = atomic_load(&total_frees) - window_frees0;
  out->bytes_allocated = atomic_load(&total_bytes) - window_bytes0;
  int64_t extra = atomic_load(&window_peak) - window_live0;
  out->peak_live_bytes = extra > 0 ? (uint64_t)extra : 0;
}

SHIM_EXPORT void tare_alloc_totals(struct tare_alloc_stats* out) {
  out->allocs = atomic_load(&total_allocs);
  out->frees = atomic_load(&total_frees);
  out->bytes_allocated = atomic_load(&total_bytes);
  int64_t peak = atomic_load(&process_peak);
  out->peak_live_bytes = peak > 0 ? (uint64_t)peak : 0;
}

/* ---- whole-process report at exit --------------------------------------------------------- */

static char out_path[4096];
static int out_enabled;

__attribute__((constructor)) static void shim_start(void) {
  (void)ready();
  const char* path = getenv("TARE_ALLOC_OUT");
  if (path && *path && strlen(path) < sizeof out_path) {
    strcpy(out_path, path);
    out_enabled = 1;
  }
}

/* Appends the decimal digits of `v` at `p`; returns the new end. No allocation, no stdio. */
static char* put_u64(char* p, uint64_t v) {
  char digits[24];
  int n = 0;
  do {
    digits[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) *p++ = digits[--n];
  return p;
}

static char* put_str(char* p, const char* s) {
  while (*s) *p++ = *s++;
  return p;
}

__attribute__((destructor)) static void shim_finish(void) {
  if (!out_enabled) return;
  struct tare_alloc_stats s;
  tare_alloc_totals(&s);
  char line[256];
  char* p = line;
  p = put_str(p, "{\"pid\":");
  p = put_u64(p, (uint64_t)getpid());
  p = put_str(p, ",\"allocs\":");
  p = put_u64(p, s.allocs);
  p = put_str(p, ",\"frees\":");
  p = put_u64(p, s.frees);
  p = put_str(p, ",\"bytes_allocated\":");
  p = put_u64(p, s.bytes_allocated);
  p = put_str(p, ",\"peak_live_bytes\":");
  p = put_u64(p, s.peak_live_bytes);
  p = put_str(p, "}\n");
  int fd = open(out_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;
  /* One write of < PIPE_BUF bytes with O_APPEND: lines from concurrent processes do not mix. */
  ssize_t ignored = write(fd, line, (size_t)(p - line));
  (void)ignored;
  close(fd);
}
