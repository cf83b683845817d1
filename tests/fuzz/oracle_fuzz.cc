// Fuzzes the oracle's readers (src/oracle): the report syntax every trial's output is split by
// (trial_output.h; the command under test writes it), golden files and quarantine files (reviewed,
// but edited by hand and merged by git). A golden that parses must survive FormatGolden and
// parse back to itself, since `tare oracle --update` writes what a later check reads.
#include <string>

#include "fuzz_check.h"
#include "oracle/golden.h"
#include "oracle/quarantine.h"
#include "oracle/trial_output.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tare::oracle;
  const std::string_view text = tare::fuzz::AsText(data, size);

  TrialOutput trial = ParseTrialOutput(text);
  for (const std::string& h : trial.header) TARE_FUZZ_CHECK(!h.empty() && h[0] == '#');
  for (const std::string& item : trial.items) TARE_FUZZ_CHECK(NormalizeLine(item) == item);

  if (auto golden = ParseGolden(text, "fuzz.golden"); golden.ok()) {
    auto again = ParseGolden(FormatGolden(*golden), "fuzz.golden");
    TARE_FUZZ_CHECK(again.ok());
    TARE_FUZZ_CHECK(again->header == golden->header);
    TARE_FUZZ_CHECK(again->items == golden->items);
  }
  if (auto report = ParseCountersGolden(text, "fuzz.counters"); report.ok()) {
    auto again = ParseCountersGolden(FormatCountersGolden(*report), "fuzz.counters");
    TARE_FUZZ_CHECK(again.ok() && *again == *report);
  }
  if (auto q = Quarantine::Parse(text, "fuzz.quarantine"); q.ok()) {
    for (const QuarantineEntry& e : q->entries()) {
      TARE_FUZZ_CHECK(!e.reason.empty());
      (void)e.Describe();
    }
    for (const std::string& item : trial.items) (void)q->Match(item);
  }
  return 0;
}
