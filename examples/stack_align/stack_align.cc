// A checksum written the way vectorized routines are: byte by byte until the pointer is 64-byte
// aligned, then eight bytes at a time. How many bytes take the slow path depends on where the
// buffer sits, which depends on where the stack starts (the environment's size moves it) and on
// every frame above it. The "shifted" build moves the stack by 16 bytes (STACK_ALIGN_SHIFT), as
// adding an unrelated local variable to main() would: whether that makes the program faster or
// slower depends on the layout it runs under, which is what `tare ab --layouts` shows.
//
//   stack_align_base [ITERATIONS]      (default 20000 checksums of a 1000-byte buffer)
#include <alloca.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifndef STACK_ALIGN_SHIFT
#define STACK_ALIGN_SHIFT 0
#endif

namespace {

__attribute__((noinline)) uint64_t Checksum(const unsigned char* p, size_t n) {
  uint64_t s = 0;
  while (n > 0 && reinterpret_cast<uintptr_t>(p) % 64 != 0) {
    s = s * 31 + *p++;
    --n;
  }
  for (; n >= 8; n -= 8, p += 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    s += w;
  }
  while (n-- > 0) s = s * 31 + *p++;
  return s;
}

__attribute__((noinline)) uint64_t Work(long iterations) {
  alignas(16) unsigned char buf[1000];
  for (size_t i = 0; i < sizeof buf; ++i) buf[i] = static_cast<unsigned char>(i * 7);
  uint64_t s = 0;
  for (long i = 0; i < iterations; ++i) {
    s += Checksum(buf, sizeof buf);
    asm volatile("" : : "r"(buf) : "memory");
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const long iterations = argc > 1 ? std::atol(argv[1]) : 20000;
  if (iterations <= 0) {
    std::fprintf(stderr, "usage: %s [ITERATIONS > 0]\n", argv[0]);
    return 2;
  }
  // The "unrelated edit": 16 more bytes in main's frame move every frame below it.
  char* pad = static_cast<char*>(alloca(STACK_ALIGN_SHIFT + 1));
  pad[0] = 0;
  asm volatile("" : : "r"(pad) : "memory");
  std::printf("%llu\n", static_cast<unsigned long long>(Work(iterations)));
  return 0;
}
