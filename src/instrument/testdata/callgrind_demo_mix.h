/* Inlined into leaf() in callgrind_demo.c, so callgrind reports its lines under this file (fi=/fe=). */
static inline unsigned long demo_mix(unsigned long x) {
  x ^= x >> 13;
  x *= 0x5bd1e995UL;
  return x ^ (x >> 15);
}
