// Fuzzes the callgrind profile reader (src/instrument/callgrind_profile.h). A profile is written by
// valgrind inside a directory the benchmark can write to, so any bytes may arrive. The reader
// promises a DataLoss Status naming the file for malformed input and, for input it accepts,
// a consistent Profile: every vector as long as the event list, call edges that index real
// functions, totals equal to the sum of the cost lines.
#include <string>

#include "fuzz_check.h"
#include "instrument/callgrind_profile.h"

namespace tare::instrument {
namespace {

void CheckProfile(const Profile& p) {
  const size_t events = p.events.size();
  TARE_FUZZ_CHECK(p.totals.size() == events);
  if (p.declared_totals) TARE_FUZZ_CHECK(*p.declared_totals == p.totals);
  CostVector self_sum(events, 0);
  for (const FunctionCost& f : p.functions) {
    TARE_FUZZ_CHECK(f.self.size() == events);
    TARE_FUZZ_CHECK(f.inclusive.size() == events);
    CostVector line_sum(events, 0);
    for (const LineCost& l : f.lines) {
      TARE_FUZZ_CHECK(l.self.size() == events);
      for (size_t e = 0; e < events; ++e) line_sum[e] += l.self[e];
    }
    TARE_FUZZ_CHECK(line_sum == f.self);
    for (size_t e = 0; e < events; ++e) self_sum[e] += f.self[e];
    TARE_FUZZ_CHECK(p.FindFunction(f.name) != nullptr);
    std::string base = BaseFunctionName(f.name);
    TARE_FUZZ_CHECK(p.SelfOf(base).size() == events);
    TARE_FUZZ_CHECK(p.InclusiveOf(base).size() == events);
  }
  TARE_FUZZ_CHECK(self_sum == p.totals);
  for (const CallEdge& c : p.calls) {
    TARE_FUZZ_CHECK(c.caller < p.functions.size());
    TARE_FUZZ_CHECK(c.callee < p.functions.size());
    TARE_FUZZ_CHECK(c.inclusive.size() == events);
  }
  for (size_t e = 0; e < events; ++e) {
    TARE_FUZZ_CHECK(p.EventIndex(p.events[e]).has_value());
    (void)p.Total(p.events[e]);
  }
  (void)p.Total("Ir");
}

}  // namespace
}  // namespace tare::instrument

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tare::instrument;
  auto parts = ParseCallgrindProfile(tare::fuzz::AsText(data, size), "fuzz.callgrind");
  if (!parts.ok()) {
    TARE_FUZZ_CHECK(parts.status().message().rfind("fuzz.callgrind", 0) == 0);
    return 0;
  }
  for (const Profile& p : *parts) CheckProfile(p);
  return 0;
}
