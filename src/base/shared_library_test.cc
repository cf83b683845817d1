#include "base/shared_library.h"

#include <gtest/gtest.h>

#include <string>

namespace tare {
namespace {

// zlib is in every Debian system (zlib1g is Priority: required); its first soname here is absent.
TEST(SharedLibrary, LoadsTheFirstSonameThatExistsAndResolvesEachSymbol) {
  const char* (*zlib_version)() = nullptr;
  Status s = LoadSharedLibrary({"libtare-not-installed.so.9", "libz.so.1"}, "zlib1g", "tests",
                               {{"zlibVersion", reinterpret_cast<void**>(&zlib_version)}});
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_NE(zlib_version, nullptr);
  EXPECT_EQ(std::string(zlib_version()).rfind("1.", 0), 0u) << zlib_version();
}

TEST(SharedLibrary, AMissingLibrarySaysWhatNeedsItAndWhatToInstall) {
  void* slot = nullptr;
  Status s = LoadSharedLibrary({"libtare-not-installed.so.9"}, "libtare9", "PostgreSQL stores", {{"anything", &slot}});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("PostgreSQL stores need libtare-not-installed.so.9 (Debian package libtare9)"),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("sudo apt-get install libtare9"), std::string::npos) << s.message();
  EXPECT_EQ(slot, nullptr);
}

TEST(SharedLibrary, AMissingSymbolIsNamed) {
  void* version = nullptr;
  void* missing = nullptr;
  Status s = LoadSharedLibrary({"libz.so.1"}, "zlib1g", "tests",
                               {{"zlibVersion", &version}, {"tare_no_such_function", &missing}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("has no tare_no_such_function"), std::string::npos) << s.message();
  EXPECT_EQ(missing, nullptr);
}

}  // namespace
}  // namespace tare
