// libtare_heap_shift.so in real processes: TARE_HEAP_SHIFT=k x 1040 moves the program's later
// allocations by exactly that much (the heap starts page-aligned, so the offsets within a page are
// the same on every run, ASLR or not), four layouts land at four offsets within a cache line, and a
// value it cannot use leaves the heap where it was.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <sstream>

#include "lib/testing/child_process.h"

namespace tare::testing {
namespace {

// The first allocation's offsets (within a cache line, within a page) with the library preloaded.
std::pair<uint64_t, uint64_t> FirstAllocation(const std::string& shift) {
  std::map<std::string, std::string> env = {{"LD_PRELOAD", HEAP_SHIFT_PATH}};
  if (!shift.empty()) env["TARE_HEAP_SHIFT"] = shift;
  ChildOutput r = RunChild({HEAP_WHERE_PATH}, env, -1);
  EXPECT_EQ(r.exit_status, 0) << r.err;
  std::istringstream in(r.out);
  uint64_t line = 0, page = 0;
  in >> line >> page;
  EXPECT_TRUE(in) << r.out;
  return {line, page};
}

TEST(HeapShift, EachLayoutMovesTheHeapByItsShift) {
  const auto [line0, page0] = FirstAllocation("");
  std::set<uint64_t> lines;
  for (int k = 0; k < 4; ++k) {
    const auto [line, page] = FirstAllocation(k == 0 ? "" : std::to_string(k * 1040));
    lines.insert(line);
    EXPECT_EQ(page, (page0 + static_cast<uint64_t>(k) * 1040) % 4096) << "layout " << k;
    EXPECT_EQ(line, (line0 + static_cast<uint64_t>(k) * 16) % 64) << "layout " << k;
  }
  EXPECT_EQ(lines.size(), 4u);  // four offsets within a cache line
}

TEST(HeapShift, AValueItCannotUseLeavesTheHeapAlone) {
  const auto unshifted = FirstAllocation("");
  for (const char* bad : {"abc", "-1040", "1041", "0", "99999999999", "1040x"}) {
    EXPECT_EQ(FirstAllocation(bad), unshifted) << bad;
  }
}

}  // namespace
}  // namespace tare::testing
