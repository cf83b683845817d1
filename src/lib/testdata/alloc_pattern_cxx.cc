// C++ allocations reach the shim through operator new/delete. Inside a window: new int,
// new char[1000], aligned new of 256 bytes (align 64), and a vector growing to 4 ints by
// push_back (capacities 1, 2, 4: 4 + 8 + 16 bytes), everything deleted.
// Counts: allocs 6, frees 6, bytes 4 + 1000 + 256 + 28 = 1288.
#include <dlfcn.h>

#include <cstdio>
#include <new>
#include <vector>

#include "tare/alloc_shim.h"

int main() {
  auto begin = reinterpret_cast<void (*)()>(dlsym(RTLD_DEFAULT, "tare_alloc_window_begin"));
  auto end = reinterpret_cast<void (*)(tare_alloc_stats*)>(dlsym(RTLD_DEFAULT, "tare_alloc_window_end"));
  if (!begin || !end) {
    std::fprintf(stderr, "shim not loaded\n");
    return 2;
  }
  tare_alloc_stats s;
  begin();
  {
    int* i = new int(7);
    char* c = new char[1000];
    char* a = new (std::align_val_t(64)) char[256];
    std::vector<int> v;
    for (int k = 0; k < 4; ++k) v.push_back(k);
    asm volatile("" : : "r"(i), "r"(c), "r"(a), "r"(v.data()) : "memory");
    delete i;
    delete[] c;
    ::operator delete[](a, std::align_val_t(64));
  }
  end(&s);
  std::printf("allocs=%llu frees=%llu bytes=%llu peak=%llu\n", (unsigned long long)s.allocs,
              (unsigned long long)s.frees, (unsigned long long)s.bytes_allocated,
              (unsigned long long)s.peak_live_bytes);
  return 0;
}
