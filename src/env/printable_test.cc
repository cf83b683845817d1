#include "env/printable.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "env/host_fingerprint.h"
#include "env/fingerprint_json.h"

namespace tare::env {
namespace {

TEST(PrintableTest, KeepsUtf8AndReplacesTheRest) {
  EXPECT_EQ(Printable("GCC: (Debian 12.2.0-14) 12.2.0"), "GCC: (Debian 12.2.0-14) 12.2.0");
  EXPECT_EQ(Printable("Gr\xc3\xbc\xc3\x9f \xe2\x82\xac \xf0\x9f\x98\x80"),
            "Gr\xc3\xbc\xc3\x9f \xe2\x82\xac \xf0\x9f\x98\x80");
  EXPECT_EQ(Printable("a\tb"), "a\tb");
  EXPECT_EQ(Printable("bad\xff\x01name\n"), "bad??name?");
  EXPECT_EQ(Printable("\xc0\xaf"), "??");            // overlong '/'
  EXPECT_EQ(Printable("\xed\xa0\x80"), "???");       // a surrogate
  EXPECT_EQ(Printable("\xf4\x90\x80\x80"), "????");  // above U+10FFFF
  EXPECT_EQ(Printable("\xe2\x82"), "??");            // truncated
  EXPECT_EQ(Printable(std::string("a\0b", 3)), "a?b");
}

TEST(PrintableTest, HostileHostStringsStillMakeJson) {
  HostFacts facts;
  facts.product_name = "Box\xff\xfe";
  facts.runnable_processes = {"\x1b[31mevil\xc3 (pid 9)"};
  facts.load1 = 5;
  facts.load5 = facts.load15 = 1;
  facts.logical_cpus = 1;
  Fingerprint fp = FingerprintFromFacts(facts);
  EXPECT_EQ(fp.Get("host.product"), "Box??");
  std::string json;
  ASSERT_NO_THROW(json = FingerprintToJson(fp).dump());
  EXPECT_EQ(json.find('\x1b'), std::string::npos);
  // Fingerprints built elsewhere are made printable on the way out too.
  Fingerprint raw;
  raw.keys.push_back({"x", "\xff", false});
  EXPECT_NO_THROW(FingerprintToJson(raw).dump());
}

}  // namespace
}  // namespace tare::env
