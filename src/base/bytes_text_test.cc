#include "base/bytes_text.h"

#include <gtest/gtest.h>

namespace tare {
namespace {

TEST(Utf8, AcceptsWellFormedText) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("plain ascii"));
  EXPECT_TRUE(IsValidUtf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));  // é € 😀
}

TEST(Utf8, RefusesWhatRfc3629Forbids) {
  EXPECT_FALSE(IsValidUtf8("\xff"));
  EXPECT_FALSE(IsValidUtf8("\xc3"));              // truncated
  EXPECT_FALSE(IsValidUtf8("\xc0\xaf"));          // overlong '/'
  EXPECT_FALSE(IsValidUtf8("\xe0\x80\xaf"));      // overlong
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80"));      // surrogate U+D800
  EXPECT_FALSE(IsValidUtf8("\xf4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(IsValidUtf8("ok\xe2\x82"));        // cut at the end
}

TEST(Base64, MatchesRfc4648Vectors) {
  // RFC 4648 section 10.
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  EXPECT_EQ(Base64Encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(*Base64Decode("Zg=="), "f");
  EXPECT_EQ(*Base64Decode("Zm8="), "fo");
  EXPECT_EQ(*Base64Decode("Zm9vYmFy"), "foobar");
}

TEST(Base64, RoundTripsEveryByte) {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  for (size_t n = 0; n < all.size(); n += 37) {
    const std::string part = all.substr(0, n);
    EXPECT_EQ(*Base64Decode(Base64Encode(part)), part) << n;
  }
}

TEST(Base64, RefusesMalformedText) {
  EXPECT_FALSE(Base64Decode("abc").ok());
  EXPECT_FALSE(Base64Decode("ab!d").ok());
  EXPECT_FALSE(Base64Decode("Zg=a").ok());  // data after padding
  EXPECT_FALSE(Base64Decode("=Zg=").ok());
  EXPECT_FALSE(Base64Decode("Zg==Zg==").ok());
}

}  // namespace
}  // namespace tare
