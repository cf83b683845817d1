#include "attribute/attribution.h"

#include <fmt/format.h>

#include "instrument/sim.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>
#include <tuple>
#include <utility>

namespace tare::attribute {
namespace {

using instrument::BaseFunctionName;
using instrument::Profile;

using Key = std::pair<std::string, std::string>;  // object, BaseFunctionName

struct EdgeCost {
  uint64_t calls = 0;
  uint64_t inclusive = 0;
};

// One side, summed over its parts.
struct SideTotals {
  std::map<Key, SideCost> functions;
  std::map<std::pair<Key, Key>, EdgeCost> edges;  // caller -> callee, different keys only
  uint64_t total = 0;
};

std::string Join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out.empty() ? "(none)" : out;
}

// The event's index in every part of a side, or an error naming the part and its events.
StatusOr<std::vector<size_t>> EventIndices(const std::vector<Profile>& parts, const std::string& side,
                                           const std::string& event) {
  std::vector<size_t> out;
  for (const auto& p : parts) {
    auto i = p.EventIndex(event);
    if (!i) {
      return Status::InvalidArgument(
          fmt::format("the {} profile '{}' (part {}) has no event '{}'; its events are: {}; choose one with "
                      "--event",
                      side, p.path, p.part, event, Join(p.events)));
    }
    out.push_back(*i);
  }
  return out;
}

// The object of the profiled program itself: the one named like the first word of "cmd:" (the
// same path, or failing that the same file name). Two builds of a program live at different paths
// (and a campaign's arms at <dir>/base and <dir>/head), so their functions are matched under one
// key, kProgram, instead of as two unrelated objects.
constexpr char kProgram[] = "\x01program";

std::string ObjectBaseName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string ProgramObject(const std::vector<Profile>& parts) {
  for (const auto& p : parts) {
    const std::string program = p.cmd.substr(0, p.cmd.find(' '));
    if (program.empty()) continue;
    std::string by_name;
    for (const auto& f : p.functions) {
      if (f.object == program) return program;
      if (by_name.empty() && !f.object.empty() && ObjectBaseName(f.object) == ObjectBaseName(program))
        by_name = f.object;
    }
    if (!by_name.empty()) return by_name;
  }
  return "";
}

// Callgrind names code without a symbol by its address ("0x0000000000109238"): one row per address
// would pad a table with a loader's or a stripped library's fragments, so they are one row per
// object, kNoSymbol.
bool Unsymbolised(const std::string& name) {
  if (name.size() < 3 || name[0] != '0' || name[1] != 'x') return false;
  for (size_t i = 2; i < name.size(); ++i) {
    if (!std::isxdigit(static_cast<unsigned char>(name[i]))) return false;
  }
  return true;
}

std::string RowName(const std::string& callgrind_name) {
  std::string name = BaseFunctionName(callgrind_name);
  return Unsymbolised(name) ? std::string(kNoSymbol) : name;
}

SideTotals Sum(const std::vector<Profile>& parts, const std::vector<size_t>& event_index, std::string* program) {
  SideTotals side;
  *program = ProgramObject(parts);
  for (size_t k = 0; k < parts.size(); ++k) {
    const Profile& p = parts[k];
    const size_t ev = event_index[k];
    side.total += p.totals[ev];
    std::vector<Key> keys;
    keys.reserve(p.functions.size());
    for (const auto& f : p.functions) {
      keys.emplace_back(!program->empty() && f.object == *program ? kProgram : f.object, RowName(f.name));
      SideCost& c = side.functions[keys.back()];
      if (!c.present) c.file = f.file;
      c.present = true;
      c.self += f.self[ev];
      c.inclusive += f.self[ev];
    }
    for (const auto& e : p.calls) {
      const Key& caller = keys[e.caller];
      const Key& callee = keys[e.callee];
      if (caller == callee) continue;  // recursion levels of one function
      side.functions[caller].inclusive += e.inclusive[ev];
      side.functions[callee].calls += e.calls;
      EdgeCost& edge = side.edges[{caller, callee}];
      edge.calls += e.calls;
      edge.inclusive += e.inclusive[ev];
    }
  }
  return side;
}

// The cache simulation's events, in the order EstimateCyclesIaiV1 needs them.
constexpr const char* kCacheEvents[] = {"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"};
constexpr size_t kCacheEventCount = sizeof(kCacheEvents) / sizeof(kCacheEvents[0]);
using CacheCounts = std::array<uint64_t, kCacheEventCount>;

// Each part's index of every cache event; nullopt when some part lacks one.
std::optional<std::vector<std::array<size_t, kCacheEventCount>>> CacheIndices(const std::vector<Profile>& parts) {
  std::vector<std::array<size_t, kCacheEventCount>> out;
  for (const auto& p : parts) {
    std::array<size_t, kCacheEventCount> idx{};
    for (size_t e = 0; e < kCacheEventCount; ++e) {
      auto i = p.EventIndex(kCacheEvents[e]);
      if (!i) return std::nullopt;
      idx[e] = *i;
    }
    out.push_back(idx);
  }
  return out;
}

// Self counts of every cache event per function (keyed as Sum keys them), and the side's totals.
std::map<Key, CacheCounts> CacheSelf(const std::vector<Profile>& parts,
                                     const std::vector<std::array<size_t, kCacheEventCount>>& idx,
                                     const std::string& program, CacheCounts* totals) {
  std::map<Key, CacheCounts> out;
  totals->fill(0);
  for (size_t k = 0; k < parts.size(); ++k) {
    const Profile& p = parts[k];
    for (size_t e = 0; e < kCacheEventCount; ++e) (*totals)[e] += p.totals[idx[k][e]];
    for (const auto& f : p.functions) {
      CacheCounts& c = out[{!program.empty() && f.object == program ? kProgram : f.object, RowName(f.name)}];
      for (size_t e = 0; e < kCacheEventCount; ++e) c[e] += f.self[idx[k][e]];
    }
  }
  return out;
}

CacheCost ToCacheCost(const CacheCounts& c) {
  std::map<std::string, uint64_t> named;
  for (size_t e = 0; e < kCacheEventCount; ++e) named[kCacheEvents[e]] = c[e];
  CacheCost out;
  out.i1_misses = named["I1mr"];
  out.d1_misses = named["D1mr"] + named["D1mw"];
  out.ll_misses = named["ILmr"] + named["DLmr"] + named["DLmw"];
  if (auto cycles = instrument::EstimateCyclesIaiV1(named)) out.est_cycles = cycles->cycles;
  return out;
}

double Delta(uint64_t base, uint64_t head) { return static_cast<double>(head) - static_cast<double>(base); }

void Split(FunctionRow* row) {
  const uint64_t n0 = row->base.calls, n1 = row->head.calls;
  if (n0 == 0 && n1 == 0) return;
  if (n0 == 0) {  // c0 taken as c1: the whole change is calls
    row->calls_part = row->inclusive_delta;
    row->per_call_part = 0.0;
    return;
  }
  const double c0 = *row->base.PerCall();
  row->calls_part = Delta(n0, n1) * c0;
  row->per_call_part = n1 == 0 ? 0.0 : static_cast<double>(n1) * (*row->head.PerCall() - c0);
}

// The inlining rule (attribution.h). `from` is the side where F is called, `to` the side where it
// is not (or far less): base->head for "inlined into", head->base for "no longer inlined".
void FindInlining(const SideTotals& from, const SideTotals& to, const std::map<Key, size_t>& row_of,
                  std::vector<FunctionRow>* rows, const AttributeOptions& o, bool inlined) {
  for (auto& row : *rows) {
    if (row.inlining || row.name == kNoSymbol) continue;
    const SideCost& f_from = inlined ? row.base : row.head;
    const SideCost& f_to = inlined ? row.head : row.base;
    if (f_from.calls == 0) continue;
    if (f_to.present && static_cast<double>(f_to.calls) > o.far_less_calls * static_cast<double>(f_from.calls)) {
      continue;
    }
    const Key key{row.in_program ? kProgram : row.object, row.name};
    const double self_share =
        f_from.inclusive == 0 ? 0 : static_cast<double>(f_from.self) / static_cast<double>(f_from.inclusive);
    // Per caller of F on the `from` side: the cost E of its calls to F that went away. A caller
    // whose self cost took E in (within the tolerance) is the finding; failing that, the caller
    // with the largest E whose implied call overhead is no more than a call costs.
    std::optional<InliningFinding> strict, loose;
    double strict_moved = 0, loose_moved = 0;
    for (const auto& [edge_key, edge] : from.edges) {
      if (edge_key.second != key) continue;
      const Key& caller = edge_key.first;
      auto other = to.edges.find(edge_key);
      const double moved = static_cast<double>(edge.inclusive) -
                           (other == to.edges.end() ? 0.0 : static_cast<double>(other->second.inclusive));
      const uint64_t calls = edge.calls - (other == to.edges.end() ? 0 : std::min(edge.calls, other->second.calls));
      if (moved <= 0 || calls == 0) continue;
      auto r = row_of.find(caller);
      if (r == row_of.end() || caller.second == kNoSymbol) continue;
      // The caller's self change, signed so that "gained the moved cost" is positive.
      const double gained = inlined ? (*rows)[r->second].self_delta : -(*rows)[r->second].self_delta;
      InliningFinding found;
      found.kind = inlined ? InliningFinding::Kind::kInlinedInto : InliningFinding::Kind::kNoLongerInlined;
      found.caller_object = caller.first == kProgram ? (*rows)[r->second].object : caller.first;
      found.caller = caller.second;
      found.caller_self_delta = (*rows)[r->second].self_delta;
      found.calls = calls;
      bool within = false;
      for (double expected : {moved, moved * self_share}) {
        if (expected > 0 && std::fabs(gained - expected) <= o.inline_tolerance * expected) {
          found.expected = inlined ? expected : -expected;
          within = true;
          break;
        }
      }
      if (!within) found.expected = inlined ? moved : -moved;
      // What a call cost beyond F's body: the moved cost the caller did not take in, per call.
      found.call_overhead = (std::fabs(found.expected) - gained) / static_cast<double>(calls);
      found.within_tolerance = within;
      if (within) {
        if (moved > strict_moved) {
          strict = found;
          strict_moved = moved;
        }
      } else if (std::fabs(found.call_overhead) <= o.max_call_overhead && moved > loose_moved) {
        loose = found;
        loose_moved = moved;
      }
    }
    row.inlining = strict ? strict : loose;
  }
}

}  // namespace

std::string ProgramObjectOf(const std::vector<Profile>& parts) { return ProgramObject(parts); }
std::string AttributionName(const std::string& callgrind_name) { return RowName(callgrind_name); }

std::optional<double> SideCost::PerCall() const {
  if (calls == 0) return std::nullopt;
  return static_cast<double>(inclusive) / static_cast<double>(calls);
}

const char* PresenceName(Presence p) {
  switch (p) {
    case Presence::kBoth:
      return "both";
    case Presence::kNew:
      return "new";
    case Presence::kGone:
      return "gone";
  }
  return "?";
}

bool FunctionRow::Changed() const { return self_delta != 0 || base.calls != head.calls; }

size_t AttributionResult::ChangedRows() const {
  size_t n = 0;
  for (const auto& r : rows) n += r.Changed() ? 1 : 0;
  return n;
}

double AttributionResult::SelfDeltaOfTop(size_t n) const {
  double sum = 0;
  for (size_t i = 0; i < std::min(n, rows.size()); ++i) sum += rows[i].self_delta;
  return sum;
}

double AttributionResult::GrossShareOfTop(size_t n) const {
  double top = 0, all = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    all += std::fabs(rows[i].self_delta);
    if (i < n) top += std::fabs(rows[i].self_delta);
  }
  return all == 0 ? 1.0 : top / all;
}

StatusOr<AttributionResult> Attribute(const std::vector<Profile>& base, const std::vector<Profile>& head,
                                      const AttributeOptions& options) {
  if (base.empty() || head.empty()) {
    return Status::InvalidArgument(
        fmt::format("the {} side has no profile to attribute", base.empty() ? "base" : "head"));
  }
  const std::string& event = options.event;
  auto in_base = EventIndices(base, "base", event);
  auto in_head = EventIndices(head, "head", event);
  if (!in_base.ok() || !in_head.ok()) {
    // Name the events both sides have, so the user can pick one that works.
    std::vector<std::string> common;
    for (const auto& e : base[0].events) {
      if (head[0].EventIndex(e)) common.push_back(e);
    }
    const Status& s = !in_base.ok() ? in_base.status() : in_head.status();
    return Status::InvalidArgument(fmt::format("{}; events in both profiles: {}", s.message(), Join(common)));
  }
  std::string base_program, head_program;
  const SideTotals b = Sum(base, *in_base, &base_program);
  const SideTotals h = Sum(head, *in_head, &head_program);

  AttributionResult out;
  out.event = event;
  out.base_events = base[0].events;
  out.head_events = head[0].events;
  out.base_parts = base.size();
  out.head_parts = head.size();
  out.base_total = b.total;
  out.head_total = h.total;
  out.total_delta = Delta(b.total, h.total);

  // The cache simulation's side of every row, when both profiles have its events.
  auto base_idx = CacheIndices(base), head_idx = CacheIndices(head);
  std::map<Key, CacheCounts> base_cache, head_cache;
  if (base_idx && head_idx) {
    CacheCounts base_totals, head_totals;
    base_cache = CacheSelf(base, *base_idx, base_program, &base_totals);
    head_cache = CacheSelf(head, *head_idx, head_program, &head_totals);
    out.has_cache = true;
    out.base_cache_total = ToCacheCost(base_totals);
    out.head_cache_total = ToCacheCost(head_totals);
  }

  std::map<Key, std::pair<SideCost, SideCost>> all;
  for (const auto& [k, c] : b.functions) all[k].first = c;
  for (const auto& [k, c] : h.functions) all[k].second = c;
  for (auto& [k, sides] : all) {
    FunctionRow row;
    row.object = k.first != kProgram ? k.first : sides.first.present ? base_program : head_program;
    row.in_program = k.first == kProgram;
    row.name = k.second;
    row.base = sides.first;
    row.head = sides.second;
    row.presence = !row.base.present ? Presence::kNew : !row.head.present ? Presence::kGone : Presence::kBoth;
    row.self_delta = Delta(row.base.self, row.head.self);
    row.inclusive_delta = Delta(row.base.inclusive, row.head.inclusive);
    row.share = out.total_delta == 0 ? 0 : row.self_delta / out.total_delta;
    if (out.has_cache) {
      if (auto it = base_cache.find(k); it != base_cache.end()) row.base_cache = ToCacheCost(it->second);
      if (auto it = head_cache.find(k); it != head_cache.end()) row.head_cache = ToCacheCost(it->second);
    }
    Split(&row);
    out.rows.push_back(std::move(row));
  }
  std::sort(out.rows.begin(), out.rows.end(), [](const FunctionRow& x, const FunctionRow& y) {
    if (x.Changed() != y.Changed()) return x.Changed();
    const double ax = std::fabs(x.self_delta), ay = std::fabs(y.self_delta);
    if (ax != ay) return ax > ay;
    const double ix = std::fabs(x.inclusive_delta), iy = std::fabs(y.inclusive_delta);
    if (ix != iy) return ix > iy;
    return std::tie(x.name, x.object) < std::tie(y.name, y.object);
  });
  std::map<Key, size_t> row_of;
  for (size_t i = 0; i < out.rows.size(); ++i) {
    row_of[{out.rows[i].in_program ? kProgram : out.rows[i].object, out.rows[i].name}] = i;
  }
  FindInlining(b, h, row_of, &out.rows, options, /*inlined=*/true);
  FindInlining(h, b, row_of, &out.rows, options, /*inlined=*/false);
  return out;
}

}  // namespace tare::attribute
