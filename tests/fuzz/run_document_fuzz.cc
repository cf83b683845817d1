// Fuzzes the export document reader (src/bundle/run_document.h): `tare import` reads JSON that
// another host wrote, and any JSON must give a run or a DataLoss, never a crash. A document that
// reads must read back the same after being written again (the round trip `tare import` relies on).
#include <nlohmann/json.hpp>

#include "base/json_text.h"
#include "bundle/run_document.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const nlohmann::json j = nlohmann::json::parse(tare::fuzz::AsText(data, size), nullptr, false);
  if (j.is_discarded()) return 0;
  auto run = tare::bundle::FullRunFromJson(j);
  if (!run.ok()) return 0;
  const std::string once = tare::DumpJson(tare::bundle::FullRunToJson(*run, tare::bundle::ArtifactContent::kInline));
  auto again = tare::bundle::FullRunFromJson(nlohmann::json::parse(once));
  TARE_FUZZ_CHECK(again.ok());
  TARE_FUZZ_CHECK(tare::DumpJson(tare::bundle::FullRunToJson(*again, tare::bundle::ArtifactContent::kInline)) == once);
  return 0;
}
