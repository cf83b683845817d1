// Global run ids: 128 random bits, so that runs made on many hosts never collide.
#include <sys/random.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstdio>

#include "store/store.h"

namespace tare::store {

std::string NewRunUid() {
  std::array<unsigned char, 16> bytes{};
  size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = getrandom(bytes.data() + got, bytes.size() - got, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      // getrandom exists since Linux 3.17 and blocks only until the pool is first seeded; a
      // failure here is a broken host, and a made-up id would make distinct runs collide.
      std::perror("tare: getrandom");
      std::abort();
    }
    got += static_cast<size_t>(n);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string uid;
  uid.reserve(32);
  for (unsigned char b : bytes) {
    uid += kHex[b >> 4];
    uid += kHex[b & 15];
  }
  return uid;
}

bool IsRunUid(std::string_view uid) {
  return uid.size() == 32 &&
         std::all_of(uid.begin(), uid.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

}  // namespace tare::store
