#include "lib/registry.h"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

namespace tare {

Family* register_family(Family* family) {
  internal::Registry::Global().Add(family);
  return family;
}

// ---- Family builder ------------------------------------------------------------------------

Family::Family(std::string name, const void* identity, Body body)
    : name_(std::move(name)), identity_(identity), body_(std::move(body)) {}

Family* Family::name(std::string new_name) {
  name_ = std::move(new_name);
  return this;
}

Family* Family::arg(int64_t value) {
  arg_sets_.push_back({value});
  return this;
}

Family* Family::arg_list(std::initializer_list<int64_t> values) {
  for (int64_t v : values) arg_sets_.push_back({v});
  return this;
}

Family* Family::args(std::vector<int64_t> values) {
  arg_sets_.push_back(std::move(values));
  return this;
}

Family* Family::range(int64_t lo, int64_t hi) { return range(lo, hi, range_multiplier_); }

Family* Family::range(int64_t lo, int64_t hi, int multiplier) {
  for (int64_t v : internal::ExpandRange(lo, hi, multiplier)) arg_sets_.push_back({v});
  return this;
}

Family* Family::range_multiplier(int multiplier) {
  if (multiplier > 1) range_multiplier_ = multiplier;
  return this;
}

Family* Family::dense_range(int64_t lo, int64_t hi, int64_t step) {
  for (int64_t v : internal::ExpandDenseRange(lo, hi, step)) arg_sets_.push_back({v});
  return this;
}

Family* Family::ranges(const std::vector<std::pair<int64_t, int64_t>>& lo_hi_pairs) {
  std::vector<std::vector<int64_t>> lists;
  for (const auto& [lo, hi] : lo_hi_pairs) {
    lists.push_back(internal::ExpandRange(lo, hi, range_multiplier_));
  }
  return args_product(lists);
}

Family* Family::args_product(const std::vector<std::vector<int64_t>>& value_lists) {
  for (auto& set : internal::CartesianProduct(value_lists)) arg_sets_.push_back(std::move(set));
  return this;
}

Family* Family::arg_names(std::vector<std::string> names) {
  arg_names_ = std::move(names);
  return this;
}

Family* Family::setup(std::function<void(const State&)> fn) {
  return setup_hook([fn = std::move(fn)](internal::RunContext& context) {
    State state(&context);
    fn(state);
  });
}

Family* Family::teardown(std::function<void(const State&)> fn) {
  return teardown_hook([fn = std::move(fn)](internal::RunContext& context) {
    State state(&context);
    fn(state);
  });
}

Family* Family::record_latency() {
  record_latency_ = true;
  return this;
}

Family* Family::unit(TimeUnit unit) {
  unit_ = unit;
  return this;
}

Family* Family::setup_hook(Hook hook) {
  setup_ = std::move(hook);
  return this;
}

Family* Family::teardown_hook(Hook hook) {
  teardown_ = std::move(hook);
  return this;
}

Family* Family::set_name_suffixes(std::vector<std::string> suffixes) {
  name_suffixes_ = std::move(suffixes);
  return this;
}

}  // namespace tare

namespace tare::internal {

Registry& Registry::Global() {
  // Function-local: registration runs during static initialisation of other translation units.
  static Registry* registry = new Registry();
  return *registry;
}

void Registry::Add(Family* family) { families_.emplace_back(family); }

bool Registry::Instances(std::vector<Instance>* out, std::string* error) const {
  out->clear();
  std::map<std::string, const Family*> seen;
  for (const auto& family : families_) {
    std::vector<std::vector<int64_t>> sets = family->arg_sets();
    if (sets.empty()) sets.push_back({});
    for (auto& args : sets) {
      std::string name = InstanceName(*family, args);
      auto [it, inserted] = seen.emplace(name, family.get());
      if (!inserted) {
        const Family* first = it->second;
        if (first->identity() != nullptr && first->identity() == family->identity()) continue;
        *error = "benchmark name '" + name +
                 "' is registered twice by different functions; give one of them another name "
                 "(->name(\"...\")) so each benchmark can be addressed";
        return false;
      }
      out->push_back(Instance{std::move(name), family.get(), std::move(args)});
    }
  }
  return true;
}

namespace {

// Powers of `mult` within [lo, hi], lo >= 1 (Google Benchmark 1.7.1, AddPowers).
void AddPowers(std::vector<int64_t>* dst, int64_t lo, int64_t hi, int mult) {
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  for (int64_t i = 1; i <= hi; i *= mult) {
    if (i >= lo) dst->push_back(i);
    if (i > kMax / mult) break;
  }
}

// The same for [lo, hi] with hi <= -1: the negated powers, most negative first.
void AddNegatedPowers(std::vector<int64_t>* dst, int64_t lo, int64_t hi, int mult) {
  std::vector<int64_t> positive;
  AddPowers(&positive, -hi, -lo, mult);
  for (auto it = positive.rbegin(); it != positive.rend(); ++it) dst->push_back(-*it);
}

}  // namespace

std::vector<int64_t> ExpandRange(int64_t lo, int64_t hi, int multiplier) {
  std::vector<int64_t> out;
  if (multiplier < 2) multiplier = 2;
  if (hi < lo) std::swap(lo, hi);
  out.push_back(lo);
  if (lo == hi) return out;
  if (lo + 1 == hi) {
    out.push_back(hi);
    return out;
  }
  const int64_t lo_inner = lo + 1;
  const int64_t hi_inner = hi - 1;
  if (lo_inner < 0) AddNegatedPowers(&out, lo_inner, std::min<int64_t>(hi_inner, -1), multiplier);
  if (lo < 0 && hi >= 0) out.push_back(0);
  if (hi_inner > 0) AddPowers(&out, std::max<int64_t>(lo_inner, 1), hi_inner, multiplier);
  if (out.back() != hi) out.push_back(hi);
  return out;
}

std::vector<int64_t> ExpandDenseRange(int64_t lo, int64_t hi, int64_t step) {
  std::vector<int64_t> out;
  if (step <= 0) step = 1;
  for (int64_t v = lo; v <= hi; v += step) {
    out.push_back(v);
    if (v > std::numeric_limits<int64_t>::max() - step) break;
  }
  return out;
}

std::vector<std::vector<int64_t>> CartesianProduct(const std::vector<std::vector<int64_t>>& lists) {
  std::vector<std::vector<int64_t>> out;
  if (lists.empty()) return out;
  for (const auto& list : lists) {
    if (list.empty()) return out;
  }
  std::vector<size_t> index(lists.size(), 0);
  while (true) {
    std::vector<int64_t> set;
    for (size_t d = 0; d < lists.size(); ++d) set.push_back(lists[d][index[d]]);
    out.push_back(std::move(set));
    size_t d = 0;
    while (d < lists.size()) {
      index[d] = (index[d] + 1) % lists[d].size();
      if (index[d] != 0) break;
      ++d;
    }
    if (d == lists.size()) return out;
  }
}

std::string InstanceName(const Family& family, const std::vector<int64_t>& args) {
  std::string name = family.family_name();
  const auto& arg_names = family.names_of_args();
  for (size_t i = 0; i < args.size(); ++i) {
    name += '/';
    if (i < arg_names.size() && !arg_names[i].empty()) name += arg_names[i] + ":";
    name += std::to_string(args[i]);
  }
  for (const auto& suffix : family.name_suffixes()) name += "/" + suffix;
  return name;
}

}  // namespace tare::internal
