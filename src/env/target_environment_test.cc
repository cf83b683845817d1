#include "env/target_environment.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace tare::env {
namespace {

TEST(TargetEnvironment, WhatChangesTheCodesBehaviourIsNamedSortedAndNothingElse) {
  EXPECT_EQ(BehaviourChangingEnvironment({"PATH=/bin", "HOME=/root", "TERM=xterm"}), "");
  EXPECT_EQ(BehaviourChangingEnvironment({"PATH=/bin", "MALLOC_ARENA_MAX=2", "LD_PRELOAD=/x.so", "OMP_NUM_THREADS=4",
                                          "ASAN_OPTIONS=detect_leaks=0", "MALLOC_ARENA_MAX=9", "XMALLOC_X=1",
                                          "GLIBC_TUNABLES=glibc.malloc.tcache_count=0", "SAN_OPTIONS=x"}),
            "ASAN_OPTIONS=detect_leaks=0; GLIBC_TUNABLES=glibc.malloc.tcache_count=0; LD_PRELOAD=/x.so; "
            "MALLOC_ARENA_MAX=2; OMP_NUM_THREADS=4");
}

// The key is there only when something is set, and a second call replaces it (never two keys).
TEST(TargetEnvironment, TheKeyIsAbsentWhenNothingIsSetAndReplacedNotAdded) {
  Fingerprint fp;
  fp.keys.push_back({"cpu.model", "x", true});
  const std::string plain = fp.HardDigest();
  AddTargetEnvironment(&fp, {"PATH=/bin"});
  EXPECT_EQ(fp.HardDigest(), plain) << "hosts without any keep their digest";
  AddTargetEnvironment(&fp, {"OPENBLAS_CORETYPE=Haswell"});
  AddTargetEnvironment(&fp, {"MALLOC_ARENA_MAX=2"});
  EXPECT_EQ(fp.Get("target.env"), "MALLOC_ARENA_MAX=2");
  EXPECT_EQ(
      std::count_if(fp.keys.begin(), fp.keys.end(), [](const FingerprintKey& k) { return k.key == "target.env"; }), 1);
  EXPECT_NE(fp.HardDigest(), plain);
}

}  // namespace
}  // namespace tare::env
