// Helpers shared by the callgrind reader's tests (callgrind_profile_test.cc,
// callgrind_valgrind_test.cc).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "instrument/callgrind_profile.h"

namespace tare::instrument::callgrind_test {

// testdata/demo_compute.callgrind: a real profile (see CallgrindStoredProfile.KnownCosts).
inline std::string StoredProfilePath() { return std::string(CALLGRIND_TESTDATA_DIR) + "/demo_compute.callgrind"; }

inline uint64_t Ir(const CostVector& c) { return c.empty() ? 0 : c[0]; }

inline const CallEdge* FindEdge(const Profile& p, std::string_view caller, std::string_view callee) {
  for (const auto& e : p.calls) {
    if (p.functions[e.caller].name == caller && p.functions[e.callee].name == callee) return &e;
  }
  return nullptr;
}

inline uint64_t CallsInto(const Profile& p, std::string_view base) {
  uint64_t n = 0;
  for (const auto& e : p.calls) {
    if (BaseFunctionName(p.functions[e.callee].name) == base) n += e.calls;
  }
  return n;
}

inline Profile ParseOne(const std::string& text) {
  auto parts = ParseCallgrindProfile(text, "test.out");
  EXPECT_TRUE(parts.ok()) << parts.status().message();
  if (!parts.ok()) return Profile{};
  EXPECT_EQ(parts->size(), 1u);
  return parts->front();
}

inline std::string ParseError(const std::string& text) {
  auto parts = ParseCallgrindProfile(text, "bad.out");
  EXPECT_FALSE(parts.ok()) << "parsed without error:\n" << text;
  return parts.ok() ? "" : parts.status().message();
}

}  // namespace tare::instrument::callgrind_test
