#include "instrument/internal/callgrind_part_builder.h"

#include <algorithm>
#include <optional>
#include <tuple>

namespace tare::instrument::callgrind_internal {
namespace {

// splitmix64's finaliser.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

void AddInto(CostVector* acc, const CostVector& add) {
  if (acc->size() < add.size()) acc->resize(add.size(), 0);
  for (size_t i = 0; i < add.size(); ++i) (*acc)[i] += add[i];
}

size_t PartBuilder::LineKeyHash::operator()(const LineKey& k) const {
  return static_cast<size_t>(Mix(k.fn ^ Mix(k.file ^ Mix(k.line ^ Mix(k.instr)))));
}

void PartBuilder::Reset(int64_t part) {
  part_ = Profile{};
  part_.part = part;
  part_.positions = {"line"};
  fn_index_.clear();
  defined_.clear();
  edge_index_.clear();
  line_index_.clear();
  line_keys_.clear();
  line_pool_.clear();
}

size_t PartBuilder::FunctionIndex(const std::string& object, const std::string& file, const std::string& name,
                                  bool defined) {
  std::string key = object + '\0' + file + '\0' + name;
  auto [it, inserted] = fn_index_.emplace(key, part_.functions.size());
  if (inserted) {
    FunctionCost f;
    f.object = object;
    f.file = file;
    f.name = name;
    f.self.assign(part_.events.size(), 0);
    part_.functions.push_back(std::move(f));
    defined_.push_back(false);
  }
  if (defined) defined_[it->second] = true;
  return it->second;
}

void PartBuilder::AddSelfCost(size_t fn, const std::string& file, uint64_t line, uint64_t instr,
                              const CostVector& costs) {
  AddInto(&part_.functions[fn].self, costs);
  AddInto(&part_.totals, costs);
  AddLineCost(LineKey{fn, FileId(file), line, instr}, costs.data());
}

void PartBuilder::AddCall(size_t caller, size_t callee, uint64_t count, const CostVector& inclusive) {
  auto [it, inserted] = edge_index_.emplace(std::make_pair(caller, callee), part_.calls.size());
  if (inserted) {
    CallEdge e;
    e.caller = caller;
    e.callee = callee;
    e.inclusive.assign(part_.events.size(), 0);
    part_.calls.push_back(std::move(e));
  }
  CallEdge& edge = part_.calls[it->second];
  edge.calls += count;
  AddInto(&edge.inclusive, inclusive);
}

void PartBuilder::Finish() {
  ResolveCallees();
  BuildLines();
  ComputeInclusive();
}

void PartBuilder::AddLineCost(const LineKey& key, const uint64_t* costs) {
  size_t e = part_.events.size();
  size_t index;
  auto it = line_index_.find(key);
  if (it != line_index_.end()) {
    index = it->second;
  } else {
    index = line_keys_.size();
    line_index_.emplace(key, index);
    line_keys_.push_back(key);
    line_pool_.resize(line_pool_.size() + e, 0);
  }
  uint64_t* slot = line_pool_.data() + index * e;
  for (size_t i = 0; i < e; ++i) slot[i] += costs[i];
}

size_t PartBuilder::FileId(const std::string& file) {
  if (file == last_file_name_ && last_file_id_ < file_names_.size()) return last_file_id_;
  auto [it, inserted] = file_ids_.emplace(file, file_names_.size());
  if (inserted) file_names_.push_back(file);
  last_file_name_ = file;
  last_file_id_ = it->second;
  return it->second;
}

// A callee named only through calls= whose (object, file) was inferred from the defaults may
// not match the fn= block that defines it when a file changed (fi=) right before the call. If
// exactly one defined function of that object has the name, the edge belongs to it.
void PartBuilder::ResolveCallees() {
  std::vector<size_t> remap(part_.functions.size());
  for (size_t i = 0; i < remap.size(); ++i) remap[i] = i;
  for (size_t i = 0; i < part_.functions.size(); ++i) {
    if (defined_[i]) continue;
    std::optional<size_t> match;
    int matches = 0;
    for (size_t j = 0; j < part_.functions.size(); ++j) {
      if (defined_[j] && part_.functions[j].object == part_.functions[i].object &&
          part_.functions[j].name == part_.functions[i].name) {
        match = j;
        ++matches;
      }
    }
    if (matches == 1) remap[i] = *match;
  }
  // Drop the placeholders that were merged; keep the order of the rest.
  std::vector<FunctionCost> kept;
  std::vector<size_t> new_index(part_.functions.size());
  for (size_t i = 0; i < part_.functions.size(); ++i) {
    if (remap[i] != i) continue;
    new_index[i] = kept.size();
    kept.push_back(std::move(part_.functions[i]));
  }
  std::map<std::pair<size_t, size_t>, size_t> merged;
  std::vector<CallEdge> edges;
  for (auto& e : part_.calls) {
    size_t caller = new_index[remap[e.caller]];
    size_t callee = new_index[remap[e.callee]];
    auto [it, inserted] = merged.emplace(std::make_pair(caller, callee), edges.size());
    if (inserted) {
      e.caller = caller;
      e.callee = callee;
      edges.push_back(std::move(e));
    } else {
      edges[it->second].calls += e.calls;
      AddInto(&edges[it->second].inclusive, e.inclusive);
    }
  }
  // Line costs are keyed by the old indices; rebuild them only if a function moved.
  bool moved = false;
  for (size_t i = 0; i < remap.size(); ++i) moved |= new_index[remap[i]] != i;
  if (moved) {
    std::vector<LineKey> keys = std::move(line_keys_);
    std::vector<uint64_t> pool = std::move(line_pool_);
    line_index_.clear();
    line_keys_.clear();
    line_pool_.clear();
    for (size_t i = 0; i < keys.size(); ++i) {
      LineKey k = keys[i];
      k.fn = new_index[remap[k.fn]];
      AddLineCost(k, pool.data() + i * part_.events.size());
    }
  }
  part_.functions = std::move(kept);
  part_.calls = std::move(edges);
}

void PartBuilder::BuildLines() {
  size_t e = part_.events.size();
  // Files in name order, so lines sort by name without comparing strings per pair.
  std::vector<size_t> by_name(file_names_.size()), rank(file_names_.size());
  for (size_t i = 0; i < by_name.size(); ++i) by_name[i] = i;
  std::sort(by_name.begin(), by_name.end(), [&](size_t a, size_t b) { return file_names_[a] < file_names_[b]; });
  for (size_t i = 0; i < by_name.size(); ++i) rank[by_name[i]] = i;
  std::vector<size_t> order(line_keys_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const LineKey& x = line_keys_[a];
    const LineKey& y = line_keys_[b];
    return std::tie(x.fn, rank[x.file], x.line, x.instr) < std::tie(y.fn, rank[y.file], y.line, y.instr);
  });
  for (size_t i : order) {
    const LineKey& k = line_keys_[i];
    LineCost lc;
    lc.file = file_names_[k.file];
    lc.line = k.line;
    lc.instr = k.instr;
    lc.self.assign(line_pool_.begin() + i * e, line_pool_.begin() + (i + 1) * e);
    part_.functions[k.fn].lines.push_back(std::move(lc));
  }
}

void PartBuilder::ComputeInclusive() {
  for (auto& f : part_.functions) {
    f.self.resize(part_.events.size(), 0);
    f.inclusive = f.self;
  }
  for (const auto& e : part_.calls) {
    part_.functions[e.callee].calls += e.calls;
    if (e.caller != e.callee) AddInto(&part_.functions[e.caller].inclusive, e.inclusive);
  }
}

}  // namespace tare::instrument::callgrind_internal
