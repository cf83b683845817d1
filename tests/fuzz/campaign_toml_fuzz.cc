// Fuzzes the campaign file reader (src/campaign/campaign_file.h): TOML from the user's repository,
// parsed strictly. Malformed TOML, an unknown key or a value of the wrong type must each be an
// error naming the file, never an exception escaping toml++ or a crash.
#include <string>

#include "campaign/campaign_file.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tare::campaign;
  auto spec = ParseCampaignToml(tare::fuzz::AsText(data, size), "campaign.toml");
  if (!spec.ok()) TARE_FUZZ_CHECK(spec.status().message().find("campaign.toml") != std::string::npos);
  return 0;
}
