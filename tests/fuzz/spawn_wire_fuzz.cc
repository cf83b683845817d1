// Fuzzes the spawn helper's wire format (src/proc/wire.h): the bodies tare and tare-spawn-helper
// exchange over a pipe. Both ends come from one build, but a helper from another build, a
// truncated write or a dying helper must give a Status, not a crash or a huge allocation from a
// length field. What decodes must re-encode to bytes that decode to the same thing.
#include <string>

#include "fuzz_check.h"
#include "proc/wire.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tare::proc;
  const std::string body(tare::fuzz::AsText(data, size));
  if (auto request = wire::DecodeRequest(body); request.ok()) {
    std::string once = wire::EncodeRequest(*request);
    auto again = wire::DecodeRequest(once);
    TARE_FUZZ_CHECK(again.ok());
    TARE_FUZZ_CHECK(wire::EncodeRequest(*again) == once);
  }
  if (auto result = wire::DecodeResult(body); result.ok()) {
    std::string once = wire::EncodeResult(*result);
    auto again = wire::DecodeResult(once);
    TARE_FUZZ_CHECK(again.ok());
    TARE_FUZZ_CHECK(wire::EncodeResult(*again) == once);
  }
  return 0;
}
