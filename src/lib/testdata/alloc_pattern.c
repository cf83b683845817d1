/* A C program with a known allocation pattern, for src/lib/alloc_shim_test.cc. Run under
 * LD_PRELOAD=libtare_alloc.so. Modes (argv[1]):
 *   none     allocates nothing (the baseline of a C process)
 *   pattern  the pattern below, whole process (TARE_ALLOC_OUT)
 *   window   the pattern inside tare_alloc_window_begin/end; prints the window's figures
 *   threads  4 threads x 10000 malloc(32)/free inside a window; prints the window's figures
 *   fork     the pattern, then a child process that mallocs one 100-byte block
 *   bootstrap  prints tare_alloc_bootstrap_bytes(), then runs the pattern (whole process)
 * The pattern (requested bytes; glibc usable sizes are chosen to equal them where noted):
 *   malloc(24), malloc(40), calloc(10, 100) [usable 1000], realloc(p24 -> 200) [usable 200],
 *   aligned_alloc(64, 256), posix_memalign(128, 512), memalign(32, 96), valloc(4000),
 *   reallocarray(NULL, 3, 8), realloc(NULL, 56), malloc(0), free(NULL) (not counted),
 *   then every block freed, and realloc(p, 0) of one more malloc(72) block.
 * Counts: allocs 12 (10 blocks, the moving realloc, malloc(72)), frees 12 (10 frees, the moving
 * realloc's, realloc(p, 0)), bytes 24+40+1000+200+256+512+96+4000+24+56+0+72 = 6280.
 * The peak is reached when the ten blocks are live; the program prints the sum of their
 * malloc_usable_size() as expected_peak (alignment makes some usable sizes larger than asked).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tare/alloc_shim.h"

static void* volatile sink;
static size_t expected_peak;

static void pattern(void) {
  void* a = malloc(24);
  void* b = malloc(40);
  void* c = calloc(10, 100);
  a = realloc(a, 200);
  void* d = aligned_alloc(64, 256);
  void* e = NULL;
  if (posix_memalign(&e, 128, 512) != 0) abort();
  void* f = memalign(32, 96);
  void* g = valloc(4000);
  void* h = reallocarray(NULL, 3, 8);
  void* i = realloc(NULL, 56);
  void* j = malloc(0);
  free(NULL);
  expected_peak = malloc_usable_size(a) + malloc_usable_size(b) + malloc_usable_size(c) + malloc_usable_size(d) +
                  malloc_usable_size(e) + malloc_usable_size(f) + malloc_usable_size(g) + malloc_usable_size(h) +
                  malloc_usable_size(i) + malloc_usable_size(j);
  sink = a;
  sink = b;
  sink = c;
  sink = d;
  sink = e;
  sink = f;
  sink = g;
  sink = h;
  sink = i;
  sink = j;
  free(a);
  free(b);
  free(c);
  free(d);
  free(e);
  free(f);
  free(g);
  free(h);
  free(i);
  free(j);
  void* k = malloc(72);
  sink = k;
  if (realloc(k, 0) != NULL) abort();
}

typedef void (*begin_fn)(void);
typedef void (*end_fn)(struct tare_alloc_stats*);

static begin_fn window_begin;
static end_fn window_end;

static void find_window(void) {
  window_begin = (begin_fn)dlsym(RTLD_DEFAULT, "tare_alloc_window_begin");
  window_end = (end_fn)dlsym(RTLD_DEFAULT, "tare_alloc_window_end");
  if (!window_begin || !window_end) {
    fprintf(stderr, "shim not loaded\n");
    exit(2);
  }
}

static void print_stats(const struct tare_alloc_stats* s) {
  printf("allocs=%llu frees=%llu bytes=%llu peak=%llu\n", (unsigned long long)s->allocs, (unsigned long long)s->frees,
         (unsigned long long)s->bytes_allocated, (unsigned long long)s->peak_live_bytes);
}

static pthread_barrier_t start_line, finish_line;

static void* worker(void* arg) {
  (void)arg;
  pthread_barrier_wait(&start_line);
  for (int i = 0; i < 10000; ++i) {
    void* p = malloc(32);
    sink = p;
    free(p);
  }
  pthread_barrier_wait(&finish_line);
  return NULL;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "none";
  if (strcmp(mode, "none") == 0) return 0;
  if (strcmp(mode, "pattern") == 0) {
    pattern();
    /* Reported on stderr after the pattern: stdio's buffer is allocated only now. */
    fprintf(stderr, "expected_peak=%zu\n", expected_peak);
    return 0;
  }
  if (strcmp(mode, "window") == 0) {
    find_window();
    void* outside = malloc(5000); /* live across the window: not counted in it */
    sink = outside;
    struct tare_alloc_stats s;
    window_begin();
    pattern();
    window_end(&s);
    free(outside);
    print_stats(&s);
    printf("expected_peak=%zu\n", expected_peak);
    fflush(stdout);
    return 0;
  }
  if (strcmp(mode, "threads") == 0) {
    find_window();
    pthread_t threads[4];
    pthread_barrier_init(&start_line, NULL, 5);
    pthread_barrier_init(&finish_line, NULL, 5);
    for (int t = 0; t < 4; ++t) pthread_create(&threads[t], NULL, worker, NULL);
    struct tare_alloc_stats s;
    window_begin();
    pthread_barrier_wait(&start_line);
    pthread_barrier_wait(&finish_line);
    window_end(&s);
    for (int t = 0; t < 4; ++t) pthread_join(threads[t], NULL);
    print_stats(&s);
    fflush(stdout);
    return 0;
  }
  if (strcmp(mode, "bootstrap") == 0) {
    size_t (*bootstrap_bytes)(void) = (size_t(*)(void))dlsym(RTLD_DEFAULT, "tare_alloc_bootstrap_bytes");
    if (!bootstrap_bytes) return 2;
    size_t used = bootstrap_bytes();
    pattern();
    fprintf(stderr, "bootstrap_bytes=%zu\n", used);
    return 0;
  }
  if (strcmp(mode, "fork") == 0) {
    pattern();
    pid_t child = fork();
    if (child == 0) {
      sink = malloc(100);
      exit(0);
    }
    int status;
    waitpid(child, &status, 0);
    printf("child=%d\n", (int)child);
    fflush(stdout);
    return 0;
  }
  fprintf(stderr, "unknown mode %s\n", mode);
  return 2;
}
