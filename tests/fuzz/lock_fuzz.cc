// Fuzzes the reader of a cohort's lock (src/campaign/lock.h, tare.lock/1): `tare ab --resume`
// reads it back from the store, `tare replay` and `tare spread` from stores and bundles that came
// from other machines (tare merge, tare import), so it is input tare did not necessarily write.
// Any JSON must give a Lock or a DataLoss naming the field — never an exception (nlohmann throws
// on a wrongly typed field) — and a lock that reads must write back to the same lock: its JSON reads
// again, hashes alike (the ledger cites that hash), and resumes against itself.
#include <string>

#include <nlohmann/json.hpp>

#include "campaign/lock.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tare::campaign;
  auto j = nlohmann::json::parse(tare::fuzz::AsText(data, size), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return 0;
  auto lock = LockFromJson(j);
  if (!lock.ok()) {
    TARE_FUZZ_CHECK(lock.status().message().find("tare.lock/1") != std::string::npos);
    return 0;
  }
  auto again = LockFromJson(LockToJson(*lock));
  TARE_FUZZ_CHECK(again.ok());
  TARE_FUZZ_CHECK(LockSha256(*again) == LockSha256(*lock));
  TARE_FUZZ_CHECK(CheckResumable(*lock, lock->executables, lock->fingerprint_digest, lock->tare_version).ok());
  (void)ShortHash(lock->campaign_sha256);
  return 0;
}
