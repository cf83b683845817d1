/* A shared library the origin_app fixture finds through $ORIGIN (tests/e2e/ab). */
unsigned long origin_lib_work(unsigned long n) {
  unsigned long x = 88172645463325252UL;
  for (unsigned long i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  return x;
}
