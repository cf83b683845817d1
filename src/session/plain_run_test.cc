#include "session/plain_run.h"

#include <gtest/gtest.h>

namespace tare::session {
namespace {

constexpr int64_t kSecond = 1'000'000'000;

TEST(EtaText, ShownOnlyForRunsPredictedLongerThanTenSeconds) {
  EXPECT_EQ(EtaText(0, 0, 100), "") << "nothing measured yet";
  EXPECT_EQ(EtaText(kSecond * 9 / 10, 10, 100), "") << "0.09 s a sample: 9 s in all, not long";
  EXPECT_EQ(EtaText(kSecond, 10, 100), "9s") << "0.1 s a sample: 10 s in all";
  EXPECT_EQ(EtaText(2 * kSecond, 10, 100), "18s") << "0.2 s a sample, 90 left";
  EXPECT_EQ(EtaText(10 * kSecond, 10, 100), "1m30s");
  EXPECT_EQ(EtaText(100 * kSecond, 1, 76), "2h05m");
  EXPECT_EQ(EtaText(50 * kSecond, 100, 100), "") << "done";
}

}  // namespace
}  // namespace tare::session
