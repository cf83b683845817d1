// What every harness of tests/fuzz shares: the libFuzzer entry point's signature, an invariant
// check that aborts (so libFuzzer, and the replay test, report it as a crash), and the input
// split the harnesses use when a parser takes a second argument.
//
// A harness is one file <name>_fuzz.cc defining LLVMFuzzerTestOneInput. It is built twice:
// with libFuzzer's main in the fuzz build (-DTARE_FUZZ=ON, bench/fuzz.sh) and with replay_main.cc
// in every build, where ctest replays the seed corpus and the saved crashes (docs/testing.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <utility>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

// An invariant the parser promises (its header says so) that the input broke.
#define TARE_FUZZ_CHECK(cond) \
  do { \
    if (!(cond)) { \
      std::fprintf(stderr, "%s:%d: invariant violated: %s\n", __FILE__, __LINE__, #cond); \
      std::abort(); \
    } \
  } while (0)

namespace tare::fuzz {

inline std::string_view AsText(const uint8_t* data, size_t size) {
  return std::string_view(reinterpret_cast<const char*>(data), size);
}

// "first line\nrest" -> {"first line", "rest"}; no newline -> {"", text}. Harnesses whose parser
// needs a name (the benchmark a result must be for) take it from the first line, so the fuzzer
// also explores names that match and names that do not.
inline std::pair<std::string_view, std::string_view> SplitFirstLine(std::string_view text) {
  size_t nl = text.find('\n');
  if (nl == std::string_view::npos) return {std::string_view(), text};
  return {text.substr(0, nl), text.substr(nl + 1)};
}

}  // namespace tare::fuzz
