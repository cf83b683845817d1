// The queries on a parsed Profile, and reading a profile file. The parser itself is
// callgrind_reader.{h,cc} and callgrind_body.cc.
#include "instrument/callgrind_profile.h"

#include "base/files.h"
#include "instrument/internal/callgrind_part_builder.h"

namespace tare::instrument {

using callgrind_internal::AddInto;

std::optional<size_t> Profile::EventIndex(std::string_view event) const {
  for (size_t i = 0; i < events.size(); ++i) {
    if (events[i] == event) return i;
  }
  return std::nullopt;
}

uint64_t Profile::Total(std::string_view event) const {
  auto i = EventIndex(event);
  return i && *i < totals.size() ? totals[*i] : 0;
}

const FunctionCost* Profile::FindFunction(std::string_view name) const {
  for (const auto& f : functions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

CostVector Profile::SelfOf(std::string_view base) const {
  CostVector out(events.size(), 0);
  for (const auto& f : functions) {
    if (BaseFunctionName(f.name) == base) AddInto(&out, f.self);
  }
  return out;
}

CostVector Profile::InclusiveOf(std::string_view base) const {
  CostVector out = SelfOf(base);
  for (const auto& e : calls) {
    if (BaseFunctionName(functions[e.caller].name) == base && BaseFunctionName(functions[e.callee].name) != base) {
      AddInto(&out, e.inclusive);
    }
  }
  return out;
}

std::string BaseFunctionName(std::string_view name) {
  size_t q = name.rfind('\'');
  if (q == std::string_view::npos || q + 1 == name.size()) return std::string(name);
  for (size_t i = q + 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return std::string(name);
  }
  return std::string(name.substr(0, q));
}

StatusOr<std::vector<Profile>> ReadCallgrindProfile(const std::string& path) {
  TARE_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  return ParseCallgrindProfile(text, path);
}

}  // namespace tare::instrument
