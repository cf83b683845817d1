#include "base/sha256.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

namespace tare {
namespace {

// Reference digests from coreutils: printf 'abc' | sha256sum ; printf '' | sha256sum
TEST(Sha256, MatchesCoreutils) {
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, HashesFiles) {
  std::string path = ::testing::TempDir() + "/sha_abc.txt";
  { std::ofstream(path) << "abc"; }
  auto h = Sha256File(path);
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_EQ(*h, Sha256Hex("abc"));
  std::remove(path.c_str());
  auto missing = Sha256File(path);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("sha_abc.txt"), std::string::npos);
}

}  // namespace
}  // namespace tare
